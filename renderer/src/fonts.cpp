#include <sortlab/renderer/fonts.h>

#include <imgui.h>

#include <cstdlib>
#include <filesystem>

namespace sortlab::gfx {
namespace {

std::string firstExisting(std::initializer_list<const char*> paths) {
    for (const char* p : paths)
        if (p && *p && std::filesystem::exists(p)) return p;
    return {};
}

ImFont* addFont(const std::string& path, float pixels) {
    ImGuiIO& io = ImGui::GetIO();
    if (!path.empty()) {
        ImFontConfig cfg;
        cfg.OversampleH = 2;
        cfg.OversampleV = 1;
        if (ImFont* f = io.Fonts->AddFontFromFileTTF(path.c_str(), pixels, &cfg)) return f;
    }
    ImFontConfig cfg;
    cfg.SizePixels = pixels; // ProggyClean is a 13 px bitmap font: scaled up it stays readable
    return io.Fonts->AddFontDefault(&cfg);
}

} // namespace

Fonts loadFonts(float scale, const std::filesystem::path& fontDir) {
    if (scale <= 0) scale = 1;
    const char* env = std::getenv("SORTLAB_FONT");
    const bool builtin = env && std::string(env) == "builtin"; // ImGui's own font (tests the fallback)
    auto shipped = [&](const char* file) {                     // UTF-8: how ImGui opens file names
        const std::u8string path = fontDir.empty() ? std::u8string() : (fontDir / file).u8string();
        return std::string(path.begin(), path.end());
    };
    const std::string shippedUi = shipped("DejaVuSans.ttf"), shippedMono = shipped("DejaVuSansMono.ttf");
    std::string ui = builtin ? std::string()
                             : firstExisting({env, shippedUi.c_str(), "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                                              "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
                                              "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
                                              "C:/Windows/Fonts/segoeui.ttf"});
    std::string mono = builtin
                           ? std::string()
                           : firstExisting({shippedMono.c_str(), "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
                                            "/usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf",
                                            "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf",
                                            "C:/Windows/Fonts/consola.ttf"});
    Fonts f;
    const float base = ui.empty() ? 13.0f : 15.0f;
    f.ui = addFont(ui, base * scale);
    f.mono = addFont(mono, base * scale);
    f.uiLarge = addFont(ui, base * 1.8f * scale);
    f.monoLarge = addFont(mono, base * 1.8f * scale);
    f.uiSource = ui.empty() ? "ImGui default (ProggyClean), scaled" : ui;
    return f;
}

} // namespace sortlab::gfx
