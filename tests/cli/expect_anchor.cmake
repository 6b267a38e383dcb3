# Runs sortlab-bench --anchor cub with the real CUB anchor, on whatever machine the tests run on:
#   cmake -P expect_anchor.cmake -- <sortlab-bench> --anchor cub ... --check
# Passes when the machine has a CUDA device and every check passed (exit 0, "0 failed"), or when it
# has none and the bench said so as documented: exit 3 and exactly one stderr line,
# "sortlab-bench: error: --anchor cub: no CUDA device ...". $SORTLAB_CUB_ANCHOR is ignored: the
# library next to the executable is the one under test.
include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)
unset(ENV{SORTLAB_CUB_ANCHOR})
run_command(110)
count_lines(lines "${err}")
if(code STREQUAL "0" AND out MATCHES "checks: [1-9][0-9]* passed, 0 failed" AND out MATCHES "\ncub  ")
  message(STATUS "CUDA device present: the CUB anchor sorted and every check passed")
elseif(code STREQUAL "3" AND lines EQUAL 1 AND err MATCHES "^sortlab-bench: error: --anchor cub: no CUDA device")
  message(STATUS "no CUDA device, as reported (exit 3): ${err}")
else()
  message(FATAL_ERROR "unexpected result (exit '${code}')\ncommand: ${command}\n--- stdout:\n${out}\n--- stderr:\n${err}")
endif()
