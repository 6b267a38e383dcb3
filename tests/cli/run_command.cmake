# Shared by the cmake -P check scripts (expect_failure.cmake, expect_anchor.cmake,
# ../app/step_latency_check.cmake), which are called as
#   cmake [-D...] -P <script>.cmake -- <command> [args...]
#
# run_command(TIMEOUT): runs the command after "--" (in `command`, as a list) and sets `code` (its
# exit code, or why it has none), `out` (stdout) and `err` (stderr).
# count_lines(VAR TEXT): VAR = the number of newline characters in TEXT (a message may hold ';', so
# no list splitting).
macro(run_command timeout)
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
    get_filename_component(script "${CMAKE_SCRIPT_MODE_FILE}" NAME)
    message(FATAL_ERROR "${script}: no command after --")
  endif()
  execute_process(COMMAND ${command} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT ${timeout})
endmacro()

function(count_lines var text)
  string(REGEX MATCHALL "\n" newlines "${text}")
  list(LENGTH newlines n)
  set(${var} ${n} PARENT_SCOPE)
endfunction()
