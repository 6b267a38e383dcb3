# Runs a command that must fail cleanly, and checks how it failed:
#   cmake -DEXPECT_CODE=<exit code> -DEXPECT_REGEX=<regex on stderr> [-DEXPECT_PREFIX=<first words>]
#         -P expect_failure.cmake -- <command> [args...]
# Passes when the command exits with EXPECT_CODE (so it neither crashed nor hung: a signal gives
# no such code) and wrote exactly one line to stderr, starting with EXPECT_PREFIX (default
# "sortlab-bench: error: ") and matching EXPECT_REGEX.
if(NOT DEFINED EXPECT_PREFIX)
  set(EXPECT_PREFIX "sortlab-bench: error: ")
endif()
set(command "")
set(collect OFF)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(collect)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(collect ON)
  endif()
endforeach()
if(NOT command)
  message(FATAL_ERROR "expect_failure.cmake: no command after --")
endif()

execute_process(COMMAND ${command} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
# Lines = newline characters (the message itself may hold ';', so no list splitting).
string(REGEX REPLACE "\n$" "" err_trimmed "${err}")
string(REGEX MATCHALL "\n" newlines "${err}")
list(LENGTH newlines line_count)
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
