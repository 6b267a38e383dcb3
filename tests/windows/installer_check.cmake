# The NSIS installer in a fresh Wine prefix: it installs silently (/S) into its default folder
# (C:\Program Files\sortlab), the Start-menu entry points at the installed sortlab.exe, which runs a
# built-in lesson to its end headless from there (exit 0, every stop recorded), and the uninstaller
# (silent) removes every file it installed, the folder and the Start-menu entry.
#   cmake -DINSTALLER=sortlab-0.1-win64.exe -DWINE_RUN=wine-run.sh -DOUT=dir -P installer_check.cmake
foreach(v INSTALLER WINE_RUN OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "installer_check.cmake: -D${v}= is missing")
  endif()
endforeach()
if(NOT EXISTS ${INSTALLER})
  message(FATAL_ERROR "${INSTALLER} does not exist: make it first (cpack -G NSIS in the build tree; "
                      "packaging/windows/build.sh does)")
endif()
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(prefix ${OUT}/wineprefix)
set(wine ${CMAKE_COMMAND} -E env WINEPREFIX=${prefix} ${WINE_RUN})
set(wineserver ${CMAKE_COMMAND} -E env WINEPREFIX=${prefix} /usr/lib/wine/wineserver)

function(run what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: exit ${rc}")
  endif()
endfunction()

run("wineboot (a fresh prefix)" ${wine} wineboot -i)
run("the installer /S" ${wine} ${INSTALLER} /S)
run("wineserver -w" ${wineserver} -w)
set(dir "${prefix}/drive_c/Program Files/sortlab")
foreach(f sortlab.exe sortlab-bench.exe sortlab-plot.exe Uninstall.exe LICENSE.txt fonts/DejaVuSans.ttf
          fonts/LICENSE-DejaVu.txt lessons/radix4.lesson results/README.md licenses/GLFW.txt
          licenses/sortlab-and-bundled.txt)
  if(NOT EXISTS "${dir}/${f}")
    message(FATAL_ERROR "not installed: ${dir}/${f}")
  endif()
endforeach()
file(GLOB_RECURSE installed RELATIVE "${dir}" "${dir}/*")
list(LENGTH installed count)
message(STATUS "installed ${count} files into C:\\Program Files\\sortlab")

# The Start-menu entry (for all users or this one, as NSIS chose) and the program it starts.
set(menus "${prefix}/drive_c/ProgramData/Microsoft/Windows/Start Menu/Programs"
          "${prefix}/drive_c/users/*/AppData/Roaming/Microsoft/Windows/Start Menu/Programs")
set(globs "")
foreach(m IN LISTS menus)
  list(APPEND globs "${m}/sortlab*/sortlab.lnk")
endforeach()
file(GLOB links ${globs})
list(LENGTH links nlinks)
if(NOT nlinks EQUAL 1)
  message(FATAL_ERROR "expected one Start-menu entry sortlab*\\sortlab.lnk, found ${nlinks}: ${links}")
endif()
file(STRINGS "${links}" targets REGEX "[A-Za-z]:\\\\.*sortlab\\.exe")
if(NOT targets MATCHES "C:\\\\Program Files\\\\sortlab\\\\sortlab\\.exe")
  message(FATAL_ERROR "the Start-menu entry does not start C:\\Program Files\\sortlab\\sortlab.exe: ${targets}")
endif()
run("the installed sortlab.exe --lesson oddeven" ${wine} "${dir}/sortlab.exe" --presentation --width 1280 --height 720
    --lesson oddeven --screenshot-each lesson)
file(STRINGS ${OUT}/lesson/oddeven.jsonl stops)
list(LENGTH stops nstops)
if(nstops LESS 10)
  message(FATAL_ERROR "the installed sortlab.exe recorded ${nstops} stops of the oddeven lesson, not 10 or more")
endif()
message(STATUS "the installed sortlab.exe ran the oddeven lesson: ${nstops} stops")

run("the uninstaller /S" ${wine} "${dir}/Uninstall.exe" /S)
run("wineserver -w" ${wineserver} -w)
file(GLOB_RECURSE left "${dir}/*")
if(left OR EXISTS "${dir}")
  message(FATAL_ERROR "the uninstaller left ${dir} behind: ${left}")
endif()
set(globs "")
foreach(m IN LISTS menus)
  list(APPEND globs "${m}/sortlab*")
endforeach()
file(GLOB links LIST_DIRECTORIES true ${globs})
if(links)
  message(FATAL_ERROR "the uninstaller left the Start-menu entry: ${links}")
endif()
message(STATUS "the uninstaller removed all ${count} files, the folder and the Start-menu entry")
execute_process(COMMAND ${wineserver} -k ERROR_QUIET) # ends the prefix's server, if it still runs
