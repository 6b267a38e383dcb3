// Fonts for the app: a proportional UI font and a monospace font (keys in binary), each at the
// normal size and at the presentation size, rasterised for the window's content scale so text is
// crisp at any DPI. Fonts come from $SORTLAB_FONT (another .ttf, or "builtin"), the folder the
// program ships its fonts in (Windows), the system (Debian's fonts-dejavu-core or fonts-noto when
// installed; Windows' Segoe UI and Consolas); without them ImGui's built-in font is used, scaled.
#pragma once

#include <filesystem>
#include <string>

struct ImFont;

namespace sortlab::gfx {

struct Fonts {
    ImFont* ui = nullptr;      // normal UI text
    ImFont* mono = nullptr;    // binary keys, numbers in tables
    ImFont* uiLarge = nullptr; // presentation mode
    ImFont* monoLarge = nullptr;
    std::string uiSource; // the file used, or "ImGui default (ProggyClean)"
};

// Adds the fonts to ImGui's atlas (before the renderer uploads it). scale: the window's content
// scale (1 on a 96-dpi screen). fontDir: where DejaVuSans.ttf and DejaVuSansMono.ttf are shipped
// beside the program ("" for none: the system's).
Fonts loadFonts(float scale, const std::filesystem::path& fontDir = {});

} // namespace sortlab::gfx
