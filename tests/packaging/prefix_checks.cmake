# sortlab_run_consumer(PREFIX SOURCE): builds examples/consumer outside the tree against the
# installed prefix alone and runs it with the validation layer on; a fatal error names the step
# that failed. Shared by install_check.cmake and component_check.cmake.
function(sortlab_run_consumer PREFIX SOURCE)
  set(ex ${PREFIX}-consumer)
  file(REMOVE_RECURSE ${ex})
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE}/examples/consumer -B ${ex} -G Ninja
                          -DCMAKE_PREFIX_PATH=${PREFIX} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "examples/consumer does not configure against ${PREFIX}: ${err}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${ex} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "examples/consumer does not build against ${PREFIX}: ${out}${err}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation ${ex}/consumer
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}")
  if(NOT rc EQUAL 0 OR NOT out MATCHES "every check passed" OR err MATCHES "VUID|Validation")
    message(FATAL_ERROR "examples/consumer failed (${rc}): ${err}")
  endif()
endfunction()
