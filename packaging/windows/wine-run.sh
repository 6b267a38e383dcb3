#!/usr/bin/env bash
# Runs a Windows program under Wine: CMAKE_CROSSCOMPILING_EMULATOR of the Windows build, so that
# ctest and the build's own steps (sortlab-icon) run the .exe files. Its Wine prefix is
# $WINEPREFIX, else ~/.cache/sortlab-win/wineprefix (made on first use). Vulkan reaches the host's
# driver (lavapipe) through winevulkan only with an X display: without $DISPLAY it runs under
# xvfb-run. packaging/windows/build.sh --test starts one Xvfb for the whole ctest run instead.
set -euo pipefail
export WINEPREFIX=${WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/sortlab-win/wineprefix}
export WINEDEBUG=${WINEDEBUG:--all}
export WINEDLLOVERRIDES=${WINEDLLOVERRIDES:-mscoree,mshtml=} # no Mono or Gecko prompt in a fresh prefix
mkdir -p "$WINEPREFIX"
wine=/usr/lib/wine/wine64
if [[ -z ${DISPLAY:-} ]]; then exec xvfb-run -a -s "-screen 0 1600x1000x24" "$wine" "$@"; fi
exec "$wine" "$@"
