#!/usr/bin/env bash
# sortlab for Windows x64, cross-built on Debian 12 with mingw-w64; see docs/windows.md.
#
#   packaging/windows/build.sh            set-up, dependencies, build, then the installer and the zip
#   packaging/windows/build.sh --test     the same, then the tests under Wine (what .ci/run does)
#
# 1. Set-up (once): the Debian packages below, and a deb-src entry for the Debian archive this
#    machine already uses (apt-get source needs one). Silent when both are there.
# 2. Dependencies (once per machine): Debian's source packages of GLFW (glfw3) and Dear ImGui (imgui),
#    fetched with apt-get source into $SORTLAB_WIN_DEPS (default ~/.cache/sortlab-win, outside the
#    source tree); GLFW and GoogleTest (Debian's /usr/src/googletest) built there with mingw-w64; the
#    header-only libraries Debian installed (Vulkan, volk, glm, stb, CLI11, nlohmann-json) linked in.
# 3. sortlab in $SORTLAB_WIN_BUILD (default build-win/): the library, sortlab.exe, sortlab-bench.exe,
#    sortlab-plot.exe, the tests; then cpack: sortlab-0.1-win64.exe (NSIS) and sortlab-0.1-win64.zip.
# 4. --test: ctest of that build under Wine (packaging/windows/wine-run.sh) in one Xvfb, lavapipe
#    through winevulkan; docs/windows.md lists the tests.
set -euo pipefail

SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${SORTLAB_WIN_BUILD:-$SRC/build-win}
DEPS=${SORTLAB_WIN_DEPS:-${XDG_CACHE_HOME:-$HOME/.cache}/sortlab-win}
LINUX_BUILD=${SORTLAB_LINUX_BUILD:-$SRC/build} # the Linux build the lesson tests compare with
export WINEPREFIX=$BUILD/wineprefix WINEDEBUG=-all # for sortlab-icon.exe at build time, and the tests
TEST=0
for arg in "$@"; do
    case $arg in
    --test) TEST=1 ;;
    *) echo "usage: packaging/windows/build.sh [--test]" >&2; exit 2 ;;
    esac
done
say() { echo "windows build: $*" >&2; }

PACKAGES=(
    g++-mingw-w64-x86-64-posix mingw-w64-tools nsis dpkg-dev # the compiler, the installer, apt-get source
    libz-mingw-w64-dev                                         # zlib for mingw-w64: recordings are compressed
    wine64 xvfb xauth fonts-dejavu-core                        # the tests under Wine; the font the app ships
    cmake ninja-build glslc spirv-tools                        # as the Linux build (.ci/setup)
    libvulkan-dev libvulkan-volk-dev libglm-dev libstb-dev libcli11-dev nlohmann-json3-dev libgtest-dev
)

as_root() {
    if ((EUID == 0)); then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        say "not root and no sudo; as root run: $*"; exit 1
    fi
}

# A deb-src entry for every deb entry of the Debian archive (deb.debian.org, a mirror or a snapshot):
# the same URIs, suites and components, in a file of its own.
add_deb_src() {
    local lists=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources)
    if grep -qsE '^[[:space:]]*(deb-src[[:space:]]|Types:.*deb-src)' "${lists[@]}"; then return; fi
    say "adding deb-src entries (/etc/apt/sources.list.d/sortlab-deb-src.sources) for apt-get source"
    local out
    out=$({
        # deb822 stanzas: each "Types: deb" stanza again as deb-src
        awk 'BEGIN { RS = ""; ORS = "\n\n" }
             /(^|\n)Types:[^\n]*deb([ \n]|$)/ && !/deb-src/ { sub(/Types:[^\n]*/, "Types: deb-src"); print }' \
            /dev/null $(ls /etc/apt/sources.list.d/*.sources 2>/dev/null)
        # one-line entries, written as a deb822 stanza each
        grep -hsE '^[[:space:]]*deb[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
            awk '{ i = 2; opts = ""; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                   printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents:", $i, $(i + 1)
                   for (k = i + 2; k <= NF; k++) printf " %s", $k; printf "\n\n" }' || true
    })
    printf '%s\n' "$out" | as_root tee /etc/apt/sources.list.d/sortlab-deb-src.sources >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
}

setup() {
    local installed missing=() pkg
    installed=" $(dpkg-query -W -f='${Package}=${db:Status-Status} ' "${PACKAGES[@]}" 2>/dev/null || true)"
    for pkg in "${PACKAGES[@]}"; do [[ $installed == *" $pkg=installed "* ]] || missing+=("$pkg"); done
    if ((${#missing[@]})); then
        say "installing ${missing[*]}"
        as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
    add_deb_src
}

# GLFW and GoogleTest built with the toolchain into $DEPS; Dear ImGui's sources stay as Debian ships
# them (sortlab builds them: -DIMGUI_DIR). Done once: $DEPS/.done names what it holds.
DEPS_STAMP="glfw3 imgui googletest headers 1"
deps() {
    if [[ -f $DEPS/.done && $(<"$DEPS/.done") == "$DEPS_STAMP" ]]; then return; fi
    say "dependencies into $DEPS (once)"
    rm -rf "$DEPS" && mkdir -p "$DEPS/src" "$DEPS/include" "$DEPS/share/cmake"
    (cd "$DEPS/src" && apt-get source -qq glfw3 imgui 2>&1 | grep -vE 'unsandboxed|^dpkg-source: info' >&2 || true)
    local glfw imgui
    glfw=$(ls -d "$DEPS"/src/glfw3-*/ | head -1) imgui=$(ls -d "$DEPS"/src/imgui-*/ | head -1)
    [[ -f $glfw/CMakeLists.txt && -f $imgui/imgui.cpp ]] || { say "apt-get source glfw3 imgui failed"; exit 1; }
    ln -sfn "$imgui" "$DEPS/imgui"
    # Header-only libraries as Debian installs them (and volk.c, compiled by sort/), under $DEPS only,
    # so that the cross compiler never sees the host's /usr/include.
    local h
    for h in vulkan vk_video volk.h volk.c glm stb CLI nlohmann; do ln -sfn "/usr/include/$h" "$DEPS/include/$h"; done
    for h in CLI11 nlohmann_json; do ln -sfn "/usr/share/cmake/$h" "$DEPS/share/cmake/$h"; done
    local common=(-G Ninja -DCMAKE_TOOLCHAIN_FILE="$SRC/cmake/mingw-w64-x86_64.cmake" -DSORTLAB_WIN_DEPS="$DEPS"
                  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$DEPS" -DBUILD_SHARED_LIBS=OFF -Wno-dev)
    cmake -S "$glfw" -B "$DEPS/build/glfw" "${common[@]}" -DGLFW_BUILD_EXAMPLES=OFF -DGLFW_BUILD_TESTS=OFF \
          -DGLFW_BUILD_DOCS=OFF >/dev/null
    cmake --build "$DEPS/build/glfw" --target install >/dev/null
    cmake -S /usr/src/googletest -B "$DEPS/build/googletest" "${common[@]}" -DBUILD_GMOCK=OFF >/dev/null
    cmake --build "$DEPS/build/googletest" --target install >/dev/null
    rm -rf "$DEPS/build"
    echo "$DEPS_STAMP" >"$DEPS/.done"
}

build() {
    local launcher=()
    if command -v ccache >/dev/null; then
        launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
    fi
    # Release: no debug information (the packages are stripped anyway), so a faster build and link.
    cmake -S "$SRC" -B "$BUILD" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$SRC/cmake/mingw-w64-x86_64.cmake" \
          -DCMAKE_BUILD_TYPE=Release -DSORTLAB_WIN_DEPS="$DEPS" -DIMGUI_DIR="$DEPS/imgui" -DSORTLAB_LINUX_BUILD="$LINUX_BUILD" \
          -DCMAKE_CROSSCOMPILING_EMULATOR="$SRC/packaging/windows/wine-run.sh" "${launcher[@]}" >/dev/null
    cmake --build "$BUILD"
    (cd "$BUILD" && cpack -G "NSIS;ZIP" >/dev/null)
    say "$(cd "$BUILD" && ls -l sortlab-*-win64.exe sortlab-*-win64.zip | awk '{ printf "%s %.1f MB; ", $NF, $5 / 1e6 }')"
}

# ctest under one Xvfb (on a free display) and one Wine prefix, kept up by a persistent wineserver.
run_tests() {
    local display_file=$BUILD/xvfb-display
    rm -f "$display_file"
    Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3>"$display_file" 2>/dev/null &
    local xpid=$! i
    for ((i = 0; i < 100; ++i)); do [[ -s $display_file ]] && break; sleep 0.1; done
    [[ -s $display_file ]] || { say "Xvfb did not start"; exit 1; }
    export DISPLAY=:$(<"$display_file")
    trap "kill $xpid 2>/dev/null; /usr/lib/wine/wineserver -k 2>/dev/null || true" EXIT
    mkdir -p "$WINEPREFIX"
    /usr/lib/wine/wineserver -p 2>/dev/null || true # (one may run already: then that one stays)
    /usr/lib/wine/wine64 wineboot -i >/dev/null 2>&1 || true # makes the prefix if the build did not
    ctest --test-dir "$BUILD" -j2 --output-on-failure
}

setup
start=$SECONDS
deps
say "dependencies ready in $((SECONDS - start)) s"
start=$SECONDS
build
say "built in $((SECONDS - start)) s"
if ((TEST)); then
    start=$SECONDS
    run_tests
    say "tests under Wine took $((SECONDS - start)) s"
fi
