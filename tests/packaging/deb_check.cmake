# cpack -G DEB in the build tree makes exactly two packages of one version, as Debian splits a
# program from its library:
#   sortlab_<version>-<revision>_amd64.deb: Depends on the Vulkan loader, GLFW, a Vulkan driver and
#     zlib, not on libsortlab-dev; holds the programs, the desktop entry, the icon, the man pages
#     (gzipped), the recordings, /usr/share/doc/sortlab (copyright, changelog.Debian.gz) and nothing
#     of the library (no headers, libsortlab.a, CMake package or sortlab.pc); unpacked alone with
#     dpkg -x, its sortlab-bench sorts and checks.
#   libsortlab-dev_<version>-<revision>_amd64.deb: Depends on libvulkan-dev, takes the library's
#     files over from 0.1-1's sortlab (Breaks/Replaces); holds libsortlab.a, every public header,
#     the CMake package and sortlab.pc under lib/<multiarch>, /usr/share/doc/libsortlab-dev
#     (copyright, changelog.Debian.gz) and nothing of the app (no usr/bin, man pages, icons);
#     unpacked alone, examples/consumer builds against it with find_package(sortlab) and passes its
#     checks with the validation layers on, and pkg-config finds it.
# Each: under 40 MB installed, a real maintainer, control lines within 80 columns, programs stripped
# (no symbol table, no debug information) and libsortlab.a without debug information, the
# changelog's top entry its version. tests/packaging/lintian_check.cmake then runs lintian on both.
#   cmake -DBUILD=<build tree> -DSOURCE=<source tree> -DOUT=<empty dir> -DLIBDIR=lib/<multiarch>
#         -DINCLUDEDIR=include -P deb_check.cmake
cmake_minimum_required(VERSION 3.22)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND cpack -G DEB -B ${OUT} --config ${BUILD}/CPackConfig.cmake RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(GLOB debs ${OUT}/*.deb)
file(GLOB app_deb ${OUT}/sortlab_*_amd64.deb)
file(GLOB dev_deb ${OUT}/libsortlab-dev_*_amd64.deb)
list(LENGTH debs count)
if(NOT rc EQUAL 0 OR NOT count EQUAL 2 OR NOT app_deb OR NOT dev_deb)
  message(FATAL_ERROR "cpack -G DEB: ${rc}, not sortlab and libsortlab-dev but ${debs}: ${out}${err}")
endif()

# The control fields every package needs; sets <var>_version, <var>_kib and <var>_contents.
function(check_control deb var)
  execute_process(COMMAND dpkg-deb -f ${deb} Installed-Size Version Maintainer Source Description
                  OUTPUT_VARIABLE fields RESULT_VARIABLE rc)
  string(REGEX MATCH "Installed-Size: ([0-9]+)" _ "${fields}") # KiB
  set(kib ${CMAKE_MATCH_1})
  math(EXPR bytes "0${kib} * 1024")
  if(NOT rc EQUAL 0 OR kib STREQUAL "" OR NOT bytes LESS 40000000)
    message(FATAL_ERROR "${deb} installs ${kib} KiB, not under 40 MB:\n${fields}")
  endif()
  if(NOT fields MATCHES "Maintainer: [^<\n]+ <[^@>]+@[^>]+\\.[a-z]+>" OR fields MATCHES "@localhost")
    message(FATAL_ERROR "${deb}: no real maintainer:\n${fields}")
  endif()
  if(NOT fields MATCHES "Source: sortlab\n")
    message(FATAL_ERROR "${deb}: its source package is not sortlab:\n${fields}")
  endif()
  string(REGEX MATCH "Version: ([^\n]+)" _ "${fields}")
  set(${var}_version ${CMAKE_MATCH_1} PARENT_SCOPE)
  set(${var}_kib ${kib} PARENT_SCOPE)
  string(REPLACE "\n" ";" lines "${fields}")
  foreach(line ${lines})
    string(LENGTH "${line}" len)
    if(len GREATER 80)
      message(FATAL_ERROR "${deb}: a control line over 80 characters (${len}): ${line}")
    endif()
  endforeach()
  execute_process(COMMAND dpkg-deb -c ${deb} OUTPUT_VARIABLE contents RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dpkg-deb -c ${deb}: ${rc}")
  endif()
  set(${var}_contents "${contents}" PARENT_SCOPE)
endfunction()

function(require_files deb contents) # the paths: ARGN, as dpkg-deb -c prints them (./usr/...)
  foreach(f ${ARGN})
    string(FIND "${contents}" "${f}\n" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${deb} lacks ${f}:\n${contents}")
    endif()
  endforeach()
endfunction()

function(forbid_files deb contents) # regular expressions: ARGN
  foreach(re ${ARGN})
    if(contents MATCHES "${re}")
      message(FATAL_ERROR "${deb} holds ${CMAKE_MATCH_0}, which belongs to the other package:\n${contents}")
    endif()
  endforeach()
endfunction()

# dpkg -x into <root>; the files stripped: no symbol table and no debug sections in the programs, no
# debug sections in libsortlab.a; /usr/share/doc/<package>/changelog.Debian.gz's top entry is the
# package's version.
function(unpack_and_check deb package version root)
  file(REMOVE_RECURSE ${root})
  execute_process(COMMAND dpkg -x ${deb} ${root} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dpkg -x ${deb}: ${rc}")
  endif()
  file(GLOB binaries ${root}/usr/bin/* ${root}/usr/${LIBDIR}/*.a)
  foreach(f ${binaries})
    execute_process(COMMAND readelf -S --wide ${f} RESULT_VARIABLE rc OUTPUT_VARIABLE sections ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "readelf -S ${f}: ${rc} ${err}")
    endif()
    if(sections MATCHES "\\.debug_" OR (NOT f MATCHES "\\.a$" AND sections MATCHES "\\.symtab"))
      message(FATAL_ERROR "not stripped: ${f}")
    endif()
  endforeach()
  execute_process(COMMAND gzip -dc ${root}/usr/share/doc/${package}/changelog.Debian.gz OUTPUT_VARIABLE changelog)
  if(NOT changelog MATCHES "^sortlab \\(${version}\\) ")
    message(FATAL_ERROR "${package}: changelog.Debian's top entry is not ${version} (packaging/changelog.Debian):\n${changelog}")
  endif()
endfunction()

# --- sortlab: the app --------------------------------------------------------------------------------
check_control(${app_deb} app)
execute_process(COMMAND dpkg-deb -f ${app_deb} Depends OUTPUT_VARIABLE depends)
foreach(d libvulkan1 libglfw3 mesa-vulkan-drivers zlib1g)
  if(NOT depends MATCHES "${d}")
    message(FATAL_ERROR "sortlab's Depends lacks ${d}: ${depends}")
  endif()
endforeach()
if(depends MATCHES "libsortlab-dev|libvulkan-dev")
  message(FATAL_ERROR "sortlab depends on a -dev package, which it does not need to run: ${depends}")
endif()
set(want ./usr/bin/sortlab-bench ./usr/bin/sortlab-plot ./usr/share/icons/hicolor/scalable/apps/sortlab.svg
         ./usr/share/icons/hicolor/256x256/apps/sortlab.png ./usr/share/doc/sortlab/copyright
         ./usr/share/doc/sortlab/changelog.Debian.gz)
if(EXISTS ${BUILD}/bin/sortlab)
  list(APPEND want ./usr/bin/sortlab ./usr/share/applications/sortlab.desktop)
endif()
file(GLOB recordings RELATIVE ${SOURCE}/assets/recordings ${SOURCE}/assets/recordings/*.slrec)
foreach(r ${recordings})
  list(APPEND want ./usr/share/sortlab/recordings/${r})
endforeach()
find_program(HELP2MAN help2man)
if(HELP2MAN)
  list(APPEND want ./usr/share/man/man1/sortlab-bench.1.gz ./usr/share/man/man1/sortlab-plot.1.gz)
endif()
require_files(${app_deb} "${app_contents}" ${want})
forbid_files(${app_deb} "${app_contents}" "\\./usr/${INCLUDEDIR}/[^\n]*" "\\./usr/lib/[^\n]*\\.(a|pc|cmake)\n"
             "\\./usr/share/doc/libsortlab-dev/[^\n]*")
if(app_contents MATCHES "\\.1\n")
  message(FATAL_ERROR "an uncompressed man page:\n${app_contents}")
endif()
unpack_and_check(${app_deb} sortlab ${app_version} ${OUT}/root-app)
execute_process(COMMAND ${OUT}/root-app/usr/bin/sortlab-bench --algo onesweep,radix4 --n 100003 --check --reps 1
                        --warmup-ms 0 --quiet RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sortlab-bench unpacked from sortlab alone failed (${rc}): ${out}${err}")
endif()

# --- libsortlab-dev: the library ---------------------------------------------------------------------
check_control(${dev_deb} dev)
if(NOT dev_version STREQUAL app_version)
  message(FATAL_ERROR "the two packages' versions differ: sortlab ${app_version}, libsortlab-dev ${dev_version}")
endif()
execute_process(COMMAND dpkg-deb -f ${dev_deb} Depends Breaks Replaces Section OUTPUT_VARIABLE relations)
if(NOT relations MATCHES "Depends: [^\n]*libvulkan-dev" OR NOT relations MATCHES "Section: libdevel")
  message(FATAL_ERROR "libsortlab-dev: Depends lacks libvulkan-dev, or its section is not libdevel:\n${relations}")
endif()
foreach(field Breaks Replaces) # the library's files were sortlab's up to 0.1-1
  if(NOT relations MATCHES "${field}: sortlab \\(<< ${dev_version}\\)")
    message(FATAL_ERROR "libsortlab-dev: no ${field}: sortlab (<< ${dev_version}):\n${relations}")
  endif()
endforeach()
file(GLOB headers RELATIVE ${SOURCE}/sort/include ${SOURCE}/sort/include/sortlab/*.h)
list(TRANSFORM headers PREPEND ./usr/${INCLUDEDIR}/)
require_files(${dev_deb} "${dev_contents}" ${headers} ./usr/${LIBDIR}/libsortlab.a
              ./usr/${LIBDIR}/cmake/sortlab/sortlabConfig.cmake ./usr/${LIBDIR}/cmake/sortlab/sortlabConfigVersion.cmake
              ./usr/${LIBDIR}/cmake/sortlab/sortlabTargets.cmake ./usr/${LIBDIR}/pkgconfig/sortlab.pc
              ./usr/share/doc/libsortlab-dev/copyright ./usr/share/doc/libsortlab-dev/changelog.Debian.gz)
forbid_files(${dev_deb} "${dev_contents}" "\\./usr/bin/[^\n]+" "\\./usr/share/(man|icons|applications|sortlab)/[^\n]+"
             "\\./usr/share/doc/sortlab/[^\n]*" "\\./usr/${INCLUDEDIR}/sortlab/internal/")
unpack_and_check(${dev_deb} libsortlab-dev ${dev_version} ${OUT}/root-dev)

# examples/consumer against the unpacked libsortlab-dev alone (and the system's libvulkan-dev).
set(root ${OUT}/root-dev/usr)
# The example built against the unpacked package alone and run (prefix_checks.cmake), then its
# CMake cache asked which sortlab it found; pkg-config finds it too.
include(${CMAKE_CURRENT_LIST_DIR}/prefix_checks.cmake)
sortlab_run_consumer(${root} ${SOURCE})
file(READ ${root}-consumer/CMakeCache.txt cache)
if(NOT cache MATCHES "sortlab_DIR:PATH=${root}/${LIBDIR}/cmake/sortlab\n")
  message(FATAL_ERROR "examples/consumer found a sortlab outside libsortlab-dev's files (${root})")
endif()
sortlab_check_pkg_config(${root} ${LIBDIR} libsortlab-dev)

foreach(deb ${app_deb} ${dev_deb})
  file(SIZE ${deb} bytes)
  message("deb: ${deb} (${bytes} bytes)")
endforeach()
message("sortlab installs ${app_kib} KiB, Depends: ${depends}libsortlab-dev installs ${dev_kib} KiB:\n${relations}"
        "sortlab-bench ran from sortlab alone; examples/consumer passed against libsortlab-dev alone")
