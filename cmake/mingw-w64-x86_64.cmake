# Cross-compiling sortlab for Windows x64 on Debian with mingw-w64 (g++-mingw-w64-x86-64-posix: GCC's
# posix threads variant, which std::thread needs). packaging/windows/build.sh uses it; by hand:
#   cmake -S . -B build-win -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64-x86_64.cmake \
#         -DSORTLAB_WIN_DEPS=<prefix with GLFW, GoogleTest and the headers> -DIMGUI_DIR=<Dear ImGui sources>
# Build-time tools (glslc, spirv-opt) are the host's; libraries and headers come only from mingw-w64's
# own folder and from SORTLAB_WIN_DEPS, never from the host's /usr/include or /usr/lib.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(SORTLAB_MINGW x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${SORTLAB_MINGW}-gcc-posix)
set(CMAKE_CXX_COMPILER ${SORTLAB_MINGW}-g++-posix)
set(CMAKE_RC_COMPILER ${SORTLAB_MINGW}-windres)

list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES SORTLAB_WIN_DEPS)
set(CMAKE_FIND_ROOT_PATH /usr/${SORTLAB_MINGW} ${SORTLAB_WIN_DEPS})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# libstdc++, libgcc and winpthread linked in: the programs need no mingw DLL beside them.
set(CMAKE_EXE_LINKER_FLAGS_INIT -static)

# sortlab opens vulkan-1.dll at run time through volk and links no Vulkan library; CMake's FindVulkan
# still asks for one before it gives the headers (Vulkan::Headers), so it is named, never linked.
set(Vulkan_LIBRARY vulkan-1 CACHE STRING "not linked: volk opens vulkan-1.dll at run time")
