# The checks of an installed prefix that install_check.cmake, component_check.cmake and
# deb_check.cmake (on an unpacked libsortlab-dev) share; each failure is a fatal error that names
# what failed.

# sortlab_require_installed(PREFIX WHAT FILE...): each FILE (relative to PREFIX) exists; WHAT says
# in the error who should have installed it.
function(sortlab_require_installed PREFIX WHAT)
  foreach(f ${ARGN})
    if(NOT EXISTS ${PREFIX}/${f})
      message(FATAL_ERROR "${WHAT} did not install ${f}")
    endif()
  endforeach()
endfunction()

# sortlab_check_pkg_config(PREFIX LIBDIR WHAT): where pkg-config is installed, `pkg-config --cflags
# --libs sortlab` with PREFIX/LIBDIR/pkgconfig answers an include directory that holds
# sortlab/sortlab.h and -lsortlab.
function(sortlab_check_pkg_config PREFIX LIBDIR WHAT)
  find_program(PKG_CONFIG pkg-config)
  if(NOT PKG_CONFIG)
    return()
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${PREFIX}/${LIBDIR}/pkgconfig
                          ${PKG_CONFIG} --cflags --libs sortlab RESULT_VARIABLE rc OUTPUT_VARIABLE flags)
  string(REGEX MATCH "-I([^ \n]+)" inc "${flags}")
  if(NOT rc EQUAL 0 OR NOT EXISTS "${CMAKE_MATCH_1}/sortlab/sortlab.h" OR NOT flags MATCHES "-lsortlab")
    message(FATAL_ERROR "pkg-config sortlab in ${WHAT}: ${flags}")
  endif()
endfunction()

# sortlab_run_consumer(PREFIX SOURCE): builds examples/consumer outside the tree against the
# installed prefix alone and runs it with the validation layer on.
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
