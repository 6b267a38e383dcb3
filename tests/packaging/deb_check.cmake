# cpack -G DEB in the build tree: one sortlab_<version>-<revision>_amd64.deb whose Depends name the
# Vulkan loader, GLFW and a Vulkan driver, whose contents are the programs, the desktop entry, the
# icon, the man pages (gzipped), the copyright file, changelog.Debian.gz and the library (sortlab.pc
# and the CMake package under lib/<multiarch>); it installs under 40 MB, its programs are stripped
# (no symbol table, no debug information) and so is libsortlab.a's debug information; its
# description lines fit 80 columns; unpacked with dpkg -x, its sortlab-bench sorts and checks.
# tests/packaging/lintian_check.cmake then runs lintian on the same package (issue 31).
#   cmake -DBUILD=<build tree> -DOUT=<empty dir> -DLIBDIR=lib/<multiarch> -P deb_check.cmake
cmake_minimum_required(VERSION 3.22)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND cpack -G DEB -B ${OUT} --config ${BUILD}/CPackConfig.cmake RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(GLOB debs ${OUT}/sortlab_*_amd64.deb)
list(LENGTH debs count)
if(NOT rc EQUAL 0 OR NOT count EQUAL 1)
  message(FATAL_ERROR "cpack -G DEB: ${rc}, ${count} packages: ${out}${err}")
endif()
execute_process(COMMAND dpkg-deb -f ${debs} Depends OUTPUT_VARIABLE depends RESULT_VARIABLE rc)
foreach(d libvulkan1 libglfw3 mesa-vulkan-drivers zlib1g)
  if(NOT depends MATCHES "${d}")
    message(FATAL_ERROR "Depends lacks ${d}: ${depends}")
  endif()
endforeach()

# Under 40 MB installed (Installed-Size is in KiB), and a real maintainer.
execute_process(COMMAND dpkg-deb -f ${debs} Installed-Size Version Maintainer Description OUTPUT_VARIABLE fields)
string(REGEX MATCH "Installed-Size: ([0-9]+)" _ "${fields}")
set(installed_kib ${CMAKE_MATCH_1})
math(EXPR installed_bytes "${installed_kib} * 1024")
if(installed_kib STREQUAL "" OR NOT installed_bytes LESS 40000000)
  message(FATAL_ERROR "the package installs ${installed_kib} KiB, not under 40 MB:\n${fields}")
endif()
string(REGEX MATCH "Version: ([^\n]+)" _ "${fields}")
set(version ${CMAKE_MATCH_1})
if(NOT fields MATCHES "Maintainer: [^<\n]+ <[^@>]+@[^>]+\\.[a-z]+>" OR fields MATCHES "@localhost")
  message(FATAL_ERROR "no real maintainer:\n${fields}")
endif()
string(REPLACE "\n" ";" lines "${fields}")
foreach(line ${lines})
  string(LENGTH "${line}" len)
  if(len GREATER 80)
    message(FATAL_ERROR "a control line over 80 characters (${len}): ${line}")
  endif()
endforeach()

execute_process(COMMAND dpkg-deb -c ${debs} OUTPUT_VARIABLE contents RESULT_VARIABLE rc)
set(want ./usr/bin/sortlab-bench ./usr/bin/sortlab-plot ./usr/${LIBDIR}/libsortlab.a
         ./usr/include/sortlab/sortlab.h ./usr/${LIBDIR}/cmake/sortlab/sortlabConfig.cmake
         ./usr/${LIBDIR}/pkgconfig/sortlab.pc ./usr/share/icons/hicolor/scalable/apps/sortlab.svg
         ./usr/share/doc/sortlab/copyright ./usr/share/doc/sortlab/changelog.Debian.gz)
if(EXISTS ${BUILD}/bin/sortlab)
  list(APPEND want ./usr/bin/sortlab ./usr/share/applications/sortlab.desktop)
endif()
find_program(HELP2MAN help2man)
if(HELP2MAN)
  list(APPEND want ./usr/share/man/man1/sortlab-bench.1.gz ./usr/share/man/man1/sortlab-plot.1.gz)
endif()
foreach(f ${want})
  string(FIND "${contents}" "${f}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the package lacks ${f}:\n${contents}")
  endif()
endforeach()
if(contents MATCHES "\\.1\n")
  message(FATAL_ERROR "an uncompressed man page:\n${contents}")
endif()

execute_process(COMMAND dpkg -x ${debs} ${OUT}/root RESULT_VARIABLE rc)
# Stripped: no symbol table and no debug sections in the programs; no debug sections in the library.
file(GLOB programs ${OUT}/root/usr/bin/*)
foreach(f ${programs} ${OUT}/root/usr/${LIBDIR}/libsortlab.a)
  execute_process(COMMAND readelf -S --wide ${f} RESULT_VARIABLE rc OUTPUT_VARIABLE sections ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "readelf -S ${f}: ${rc} ${err}")
  endif()
  if(sections MATCHES "\\.debug_" OR (NOT f MATCHES "\\.a$" AND sections MATCHES "\\.symtab"))
    message(FATAL_ERROR "not stripped: ${f}")
  endif()
endforeach()
# The changelog's top entry is this package's version.
execute_process(COMMAND gzip -dc ${OUT}/root/usr/share/doc/sortlab/changelog.Debian.gz OUTPUT_VARIABLE changelog)
if(NOT changelog MATCHES "^sortlab \\(${version}\\) ")
  message(FATAL_ERROR "changelog.Debian's top entry is not ${version} (packaging/changelog.Debian):\n${changelog}")
endif()
execute_process(COMMAND ${OUT}/root/usr/bin/sortlab-bench --algo onesweep,radix4 --n 100003 --check --reps 1
                        --warmup-ms 0 --quiet RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the unpacked sortlab-bench failed (${rc}): ${out}${err}")
endif()
file(SIZE ${debs} deb_bytes)
message("deb: ${debs} (${deb_bytes} bytes, installs ${installed_kib} KiB)\nDepends: ${depends}")
