# cmake --install into a fresh prefix, then: the files a user and a packager expect are there (the
# library under lib/<multiarch>), each man page (gzipped) renders with `man -l` and its NAME line
# says what the program does, sortlab.pc answers pkg-config, and examples/consumer builds against
# the prefix with find_package(sortlab) alone and passes its own checks on the default device
# (lavapipe in CI), with the validation layers on.
#   cmake -DBUILD=<build tree> -DSOURCE=<source tree> -DPREFIX=<empty dir> -DLIBDIR=lib/<multiarch>
#         -DINCLUDEDIR=include
#         -P install_check.cmake
cmake_minimum_required(VERSION 3.22)
include(${CMAKE_CURRENT_LIST_DIR}/prefix_checks.cmake)
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX} RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
set(CMAKE_INSTALL_LIBDIR ${LIBDIR})
set(CMAKE_INSTALL_INCLUDEDIR ${INCLUDEDIR})
set(want
  bin/sortlab-bench bin/sortlab-plot
  ${CMAKE_INSTALL_LIBDIR}/libsortlab.a ${CMAKE_INSTALL_INCLUDEDIR}/sortlab/sortlab.h
  ${CMAKE_INSTALL_INCLUDEDIR}/sortlab/sorter.h ${CMAKE_INSTALL_INCLUDEDIR}/sortlab/steps.h
  ${CMAKE_INSTALL_INCLUDEDIR}/sortlab/variants.h ${CMAKE_INSTALL_LIBDIR}/cmake/sortlab/sortlabConfig.cmake
  ${CMAKE_INSTALL_LIBDIR}/cmake/sortlab/sortlabConfigVersion.cmake ${CMAKE_INSTALL_LIBDIR}/pkgconfig/sortlab.pc
  share/icons/hicolor/scalable/apps/sortlab.svg share/icons/hicolor/256x256/apps/sortlab.png
  share/icons/hicolor/16x16/apps/sortlab.png share/doc/sortlab/copyright share/doc/sortlab/changelog.Debian.gz)
if(EXISTS ${BUILD}/bin/sortlab)
  list(APPEND want bin/sortlab share/applications/sortlab.desktop)
endif()
find_program(HELP2MAN help2man)
find_program(MAN man)
if(HELP2MAN)
  list(APPEND want share/man/man1/sortlab-bench.1.gz share/man/man1/sortlab-plot.1.gz)
endif()
sortlab_require_installed(${PREFIX} "cmake --install" ${want})
if(EXISTS ${PREFIX}/internal OR EXISTS ${PREFIX}/${CMAKE_INSTALL_INCLUDEDIR}/sortlab/internal)
  message(FATAL_ERROR "the test-only headers (sort/internal) were installed")
endif()
file(GLOB pages ${PREFIX}/share/man/man1/*.1.gz)
foreach(page ${pages})
  if(MAN)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env MANPAGER=cat PAGER=cat MANWIDTH=80 ${MAN} -l ${page}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
    get_filename_component(name ${page} NAME_WE)
    # NAME says what the program does, not help2man's "manual page for"
    if(NOT rc EQUAL 0 OR NOT text MATCHES "${name}" OR NOT text MATCHES "OPTIONS" OR text MATCHES "manual page for")
      message(FATAL_ERROR "man -l ${page} does not render (${rc}): ${err}")
    endif()
  endif()
endforeach()
sortlab_check_pkg_config(${PREFIX} ${CMAKE_INSTALL_LIBDIR} ${PREFIX})
# The example, built outside the tree against the prefix only.
sortlab_run_consumer(${PREFIX} ${SOURCE})
message("install: ${PREFIX} has every file; man pages render; examples/consumer passed")
