# cmake --install --component library into a fresh prefix: exactly the library's files (libsortlab.a,
# the public headers, the CMake package, sortlab.pc) and nothing of the app (no bin/, no share/:
# programs, icons, desktop entry, man pages, lintian overrides); sortlab.pc imposes no
# VK_NO_PROTOTYPES; examples/consumer (its own Vulkan calls linked to libvulkan) builds against
# that prefix with find_package(sortlab) and passes its checks with the validation layers on.
#   cmake -DBUILD=<build tree> -DSOURCE=<source tree> -DPREFIX=<empty dir> -DLIBDIR=lib/<multiarch>
#         -DINCLUDEDIR=include -P component_check.cmake
cmake_minimum_required(VERSION 3.22)
include(${CMAKE_CURRENT_LIST_DIR}/prefix_checks.cmake)
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX} --component library
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install --component library failed (${rc}): ${err}")
endif()
file(GLOB_RECURSE got RELATIVE ${PREFIX} ${PREFIX}/*)
file(GLOB headers RELATIVE ${SOURCE}/sort/include ${SOURCE}/sort/include/sortlab/*.h)
list(TRANSFORM headers PREPEND ${INCLUDEDIR}/)
set(want ${headers} ${LIBDIR}/libsortlab.a ${LIBDIR}/pkgconfig/sortlab.pc ${LIBDIR}/cmake/sortlab/sortlabConfig.cmake
         ${LIBDIR}/cmake/sortlab/sortlabConfigVersion.cmake ${LIBDIR}/cmake/sortlab/sortlabTargets.cmake)
foreach(f ${got})
  if(f MATCHES "^${LIBDIR}/cmake/sortlab/sortlabTargets-[a-z]+\\.cmake$") # one per build type
    continue()
  endif()
  list(FIND want ${f} at)
  if(at LESS 0)
    message(FATAL_ERROR "the library component installed ${f}, not the library's")
  endif()
endforeach()
sortlab_require_installed(${PREFIX} "the library component" ${want})
foreach(app bin share)
  if(EXISTS ${PREFIX}/${app})
    message(FATAL_ERROR "the library component installed ${PREFIX}/${app}/")
  endif()
endforeach()
file(READ ${PREFIX}/${LIBDIR}/pkgconfig/sortlab.pc pc)
if(pc MATCHES "VK_NO_PROTOTYPES")
  message(FATAL_ERROR "sortlab.pc imposes VK_NO_PROTOTYPES:\n${pc}")
endif()
list(LENGTH got count)

# The example, built outside the tree against the prefix only.
sortlab_run_consumer(${PREFIX} ${SOURCE})
message("library component: ${count} files, the library's only; examples/consumer passed against them")
