# Debian's package checker on the two packages that deb_check.cmake made (sortlab and
# libsortlab-dev), together: no error and no warning
# (issue 31: unstripped programs, uncompressed man pages, no copyright file, no changelog, a
# maintainer at localhost; man pages whose NAME says nothing, sortlab.pc outside lib/<multiarch>,
# a description line over 80 columns). The info tags are printed, not judged. Without lintian the
# test is skipped, except under CI (CI=true), where .ci/setup installs it and a missing one fails.
#   cmake -DOUT=<deb_check.cmake's dir> -P lintian_check.cmake
cmake_minimum_required(VERSION 3.22)
find_program(LINTIAN lintian)
if(NOT LINTIAN)
  if("$ENV{CI}" STREQUAL "true")
    message(FATAL_ERROR "lintian is missing (.ci/setup installs it: apt-get install lintian)")
  endif()
  message("lintian not found: skipped (apt-get install lintian)")
  return()
endif()
file(GLOB debs ${OUT}/sortlab_*_amd64.deb ${OUT}/libsortlab-dev_*_amd64.deb)
list(LENGTH debs count)
if(NOT count EQUAL 2)
  message(FATAL_ERROR "not the two packages in ${OUT} (the test package_deb makes them): ${debs}")
endif()
execute_process(COMMAND ${LINTIAN} --display-info --tag-display-limit 0 ${debs}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("lintian ${debs} (exit ${rc}):\n${out}")
if(out MATCHES "(^|\n)[EW]: " OR NOT rc EQUAL 0)
  message(FATAL_ERROR "lintian reports errors or warnings (exit ${rc}):\n${out}${err}")
endif()
# No override left that silences nothing (packaging/ ships none: none is needed).
if(out MATCHES "unused-override")
  message(FATAL_ERROR "a lintian override that silences nothing (packaging/):\n${out}")
endif()
