# Runs a command that must fail cleanly, and checks how it failed:
#   cmake -DEXPECT_CODE=<exit code> -DEXPECT_REGEX=<regex on stderr> [-DEXPECT_PREFIX=<first words>]
#         -P expect_failure.cmake -- <command> [args...]
# Passes when the command exits with EXPECT_CODE (so it neither crashed nor hung: a signal gives
# no such code) and wrote exactly one line to stderr, starting with EXPECT_PREFIX (default
# "sortlab-bench: error: ") and matching EXPECT_REGEX.
if(NOT DEFINED EXPECT_PREFIX)
  set(EXPECT_PREFIX "sortlab-bench: error: ")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)
run_command(120)
string(REGEX REPLACE "\n$" "" err_trimmed "${err}")
count_lines(line_count "${err}")
string(LENGTH "${EXPECT_PREFIX}" prefix_length)
string(SUBSTRING "${err}" 0 ${prefix_length} err_prefix)

set(problems "")
if(NOT "${code}" STREQUAL "${EXPECT_CODE}")
  string(APPEND problems "exit code is '${code}', expected ${EXPECT_CODE}\n")
endif()
if(NOT line_count EQUAL 1 OR NOT err MATCHES "\n$")
  string(APPEND problems "stderr has ${line_count} lines, expected exactly one\n")
endif()
if(NOT err_prefix STREQUAL EXPECT_PREFIX)
  string(APPEND problems "stderr does not start with '${EXPECT_PREFIX}'\n")
endif()
if(DEFINED EXPECT_REGEX AND NOT err MATCHES "${EXPECT_REGEX}")
  string(APPEND problems "stderr does not match '${EXPECT_REGEX}'\n")
endif()
if(problems)
  message(FATAL_ERROR "${problems}command: ${command}\n--- stdout:\n${out}\n--- stderr:\n${err}")
endif()
message(STATUS "failed as expected (exit ${code}): ${err_trimmed}")
