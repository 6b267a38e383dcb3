# --- Windows: what cpack puts in sortlab-<version>-win64.exe (NSIS) and sortlab-<version>-win64.zip --
# (included from packaging/CMakeLists.txt). One folder, the programs at its top:
#   sortlab.exe, sortlab-bench.exe, sortlab-plot.exe   (static: no DLL beside them; vulkan-1.dll is
#                                                       the system's, from the GPU driver)
#   fonts\DejaVuSans.ttf, DejaVuSansMono.ttf, LICENSE-DejaVu.txt   (Debian's fonts-dejavu-core)
#   lessons\*.lesson     the built-in lessons' text, to copy and change (docs\lessons.md)
#   recordings\*.slrec   the recordings made on GPUs that the lessons replay (docs\app.md, Recordings)
#   results\             the H100/H200 runs the benchmark panel loads (results\<run>\*.json)
#   docs\*.md            the documentation, LICENSE.txt, README.md
#   licenses\            the licences of the code linked in (GLFW, ImGui, volk, mingw-w64, ...)
#   sortlab.ico
# The installer adds a Start-menu entry (with the icon) and an uninstaller; `cpack -G "NSIS;ZIP"`
# in the build tree makes both (packaging/windows/build.sh runs it).
set(SORTLAB_PROGRAMS sortlab-bench sortlab-plot)
if(TARGET sortlab)
  list(PREPEND SORTLAB_PROGRAMS sortlab)
endif()
install(TARGETS ${SORTLAB_PROGRAMS} RUNTIME DESTINATION . COMPONENT app)

# The icon, drawn by sortlab-icon (a Windows program: run through the emulator, Wine, when cross-built).
set(ICON_DIR ${CMAKE_CURRENT_BINARY_DIR}/icon)
add_custom_command(OUTPUT ${ICON_DIR}/sortlab.ico
                   COMMAND ${CMAKE_COMMAND} -E make_directory ${ICON_DIR}
                   COMMAND ${CMAKE_CROSSCOMPILING_EMULATOR} $<TARGET_FILE:sortlab-icon> ${ICON_DIR}
                   DEPENDS sortlab-icon COMMENT "sortlab-icon: the app's icon" VERBATIM)
add_custom_target(sortlab_icon ALL DEPENDS ${ICON_DIR}/sortlab.ico)
install(FILES ${ICON_DIR}/sortlab.ico DESTINATION . COMPONENT app)

# DejaVu from the build machine (Debian: fonts-dejavu-core), with its licence.
set(SORTLAB_DEJAVU_DIR /usr/share/fonts/truetype/dejavu CACHE PATH "DejaVuSans.ttf and DejaVuSansMono.ttf to ship")
set(SORTLAB_DEJAVU_LICENSE /usr/share/doc/fonts-dejavu-core/copyright CACHE FILEPATH "DejaVu's licence")
foreach(f ${SORTLAB_DEJAVU_DIR}/DejaVuSans.ttf ${SORTLAB_DEJAVU_DIR}/DejaVuSansMono.ttf ${SORTLAB_DEJAVU_LICENSE})
  if(NOT EXISTS ${f})
    message(FATAL_ERROR "${f} is missing: the Windows build ships DejaVu (Debian: apt-get install fonts-dejavu-core)")
  endif()
endforeach()
install(FILES ${SORTLAB_DEJAVU_DIR}/DejaVuSans.ttf ${SORTLAB_DEJAVU_DIR}/DejaVuSansMono.ttf DESTINATION fonts COMPONENT app)
install(FILES ${SORTLAB_DEJAVU_LICENSE} DESTINATION fonts RENAME LICENSE-DejaVu.txt COMPONENT app)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/lessons/ DESTINATION lessons COMPONENT app FILES_MATCHING PATTERN "*.lesson")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/recordings/ DESTINATION recordings COMPONENT app FILES_MATCHING PATTERN "*.slrec")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/results/ DESTINATION results COMPONENT app)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION docs COMPONENT app FILES_MATCHING PATTERN "*.md"
        PATTERN results EXCLUDE PATTERN repro EXCLUDE PATTERN img EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION . RENAME LICENSE.txt COMPONENT app)
# The licences of what the programs contain besides sortlab: packaging/copyright lists volk, Dear
# ImGui, nlohmann-json, CLI11 and stb; GLFW's own (zlib) and, for the mingw-w64 runtime linked in,
# Debian's copyright files of mingw-w64 (winpthreads) and GCC (libstdc++, libgcc), where found.
install(FILES ${PROJECT_SOURCE_DIR}/packaging/copyright DESTINATION licenses RENAME sortlab-and-bundled.txt COMPONENT app)
file(GLOB SORTLAB_GLFW_LICENSE_FOUND ${SORTLAB_WIN_DEPS}/src/glfw3-*/LICENSE.md)
set(SORTLAB_GLFW_LICENSE "${SORTLAB_GLFW_LICENSE_FOUND}" CACHE FILEPATH "GLFW's LICENSE.md, shipped in licenses\\")
foreach(pair "${SORTLAB_GLFW_LICENSE}|GLFW.txt" "/usr/share/doc/mingw-w64-common/copyright|mingw-w64.txt"
             "/usr/share/doc/gcc-mingw-w64-base/copyright|gcc-runtime.txt")
  string(REPLACE "|" ";" pair "${pair}")
  list(GET pair 0 from)
  list(GET pair 1 to)
  if(from AND EXISTS "${from}")
    install(FILES "${from}" DESTINATION licenses RENAME ${to} COMPONENT app)
  else()
    message(STATUS "not shipped in licenses\\: ${to} (no ${from})")
  endif()
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION . COMPONENT app)

set(CPACK_PACKAGE_NAME sortlab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "the sortlab authors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "watch, teach and time GPU sorts on Vulkan")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_SYSTEM_NAME win64) # sortlab-0.1-win64.exe, sortlab-0.1-win64.zip
set(CPACK_PACKAGE_INSTALL_DIRECTORY sortlab)
set(CPACK_STRIP_FILES TRUE)
set(CPACK_GENERATOR "NSIS;ZIP")
# Only the programs and their files (component app): not the library's headers and CMake package.
set(CPACK_INSTALL_CMAKE_PROJECTS "${PROJECT_BINARY_DIR};sortlab;app;/")
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/cpack_options.cmake) # the zip's top folder
# A 64-bit installer (NSIS's amd64 stub): it runs where sortlab runs, and under a 64-bit-only Wine.
set(CPACK_NSIS_DEFINES "Target amd64-unicode")
set(CPACK_NSIS_DISPLAY_NAME "sortlab ${PROJECT_VERSION}")
set(CPACK_NSIS_PACKAGE_NAME "sortlab ${PROJECT_VERSION}")
set(CPACK_NSIS_INSTALL_ROOT "$PROGRAMFILES64")
set(CPACK_NSIS_MUI_ICON ${ICON_DIR}/sortlab.ico)
set(CPACK_NSIS_MUI_UNIICON ${ICON_DIR}/sortlab.ico)
set(CPACK_NSIS_INSTALLED_ICON_NAME sortlab.exe)
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
# The Start-menu entry: sortlab.exe with its icon (from the program), started in the install folder,
# so that results\... loads as typed in the benchmark panel.
set(CPACK_PACKAGE_EXECUTABLES sortlab sortlab)
set(CPACK_NSIS_EXECUTABLES_DIRECTORY .) # the programs are at the top of the folder, not in bin\
set(CPACK_NSIS_MENU_LINKS "docs/windows.md" "sortlab on Windows (documentation)")
include(CPack)
