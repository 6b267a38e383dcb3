#include <sortlab/app/palette.h>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace sortlab::app {
namespace {

// Each role's colour in both themes side by side. Dark: the colours the app drew before themes
// existed; the panel roles are ImGui 1.86's dark style. Light, for a projector: a mid-grey desktop
// so that the light panels stand apart, white plots on them, and every colour dark enough for 4.5:1
// (text) or 3:1 (bars, lines, outlines) on what it is drawn on (tests/app/app_unit_test.cpp checks
// each pair). Yellow becomes ochre, cyan magenta (the lesson's outline must not look like any bar).
struct Role {
    uint32_t Palette::*colour;
    uint32_t dark, light;
};

constexpr Role kRoles[] = {
    {&Palette::desktop, rgba(26, 26, 28), rgba(150, 154, 162)}, // dark: the renderer's clear colour (0.10, 0.10, 0.11)
    {&Palette::windowBg, rgba(15, 15, 15, 240), rgba(240, 240, 242)},
    {&Palette::titleBg, rgba(10, 10, 10), rgba(208, 214, 224)},
    {&Palette::titleBgActive, rgba(41, 74, 122), rgba(160, 182, 218)},
    {&Palette::border, rgba(110, 110, 128, 128), rgba(60, 64, 72, 150)},
    {&Palette::frameBg, rgba(41, 74, 122, 138), rgba(255, 255, 255)},
    {&Palette::checkMark, rgba(66, 150, 250), rgba(20, 90, 200)}, // light: ImGui's own is 2.9:1 on white
    {&Palette::text, rgba(255, 255, 255), rgba(12, 12, 16)},
    {&Palette::textDim, rgba(128, 128, 128), rgba(90, 90, 98)},
    {&Palette::title, rgba(255, 217, 89), rgba(135, 80, 0)},
    {&Palette::accent, rgba(255, 217, 102), rgba(135, 80, 0)},
    {&Palette::question, rgba(140, 217, 255), rgba(0, 85, 170)},
    {&Palette::right, rgba(115, 230, 128), rgba(0, 115, 40)},
    {&Palette::wrong, rgba(255, 153, 89), rgba(175, 65, 0)},
    {&Palette::match, rgba(102, 230, 102), rgba(0, 115, 40)},
    {&Palette::mismatch, rgba(255, 89, 89), rgba(190, 20, 20)},
    {&Palette::error, rgba(255, 102, 102), rgba(190, 20, 20)},
    {&Palette::inputError, rgba(255, 115, 102), rgba(190, 20, 20)},
    {&Palette::pass, rgba(115, 230, 115), rgba(0, 115, 40)},
    {&Palette::warning, rgba(255, 153, 64), rgba(165, 70, 0)},
    {&Palette::plotBg, rgba(24, 24, 28), rgba(255, 255, 255)},
    {&Palette::plotText, rgba(230, 230, 230), rgba(30, 30, 36)},
    {&Palette::keyLabel, rgba(210, 210, 210), rgba(30, 30, 36)},
    {&Palette::axisLabel, rgba(200, 200, 200), rgba(50, 50, 58)},
    {&Palette::changedOutline, rgba(255, 140, 40), rgba(215, 95, 0)},
    {&Palette::changedLabel, rgba(255, 160, 60), rgba(175, 65, 0)},
    {&Palette::mismatchBar, rgba(230, 50, 50), rgba(205, 25, 25)},
    {&Palette::outOfRange, rgba(230, 60, 60), rgba(205, 25, 25)},
    {&Palette::highlight, rgba(80, 220, 255), rgba(200, 0, 170)},
    {&Palette::answer, rgba(120, 235, 140), rgba(0, 120, 40)},
    {&Palette::stepBand, rgba(90, 80, 20, 160), rgba(188, 197, 218)}, // light: cool, so the warm swaps stand out
    {&Palette::wire, rgba(150, 150, 160), rgba(100, 100, 110)},
    {&Palette::comparatorCurrent, rgba(255, 230, 120), rgba(75, 50, 0)},
    {&Palette::comparatorDone, rgba(120, 170, 235), rgba(40, 100, 200)},
    {&Palette::comparatorPending, rgba(200, 200, 215), rgba(45, 45, 55)},
    {&Palette::comparatorSkipped, rgba(135, 135, 150), rgba(120, 120, 132)},
    {&Palette::swap, rgba(255, 120, 30), rgba(200, 55, 0)},
    {&Palette::inputKey, rgba(170, 170, 170), rgba(70, 70, 78)},
    {&Palette::keyBox, rgba(35, 45, 60, 235), rgba(218, 226, 240, 235)},
    {&Palette::keyBoxChanged, rgba(120, 60, 10, 235), rgba(255, 200, 140, 235)},
    {&Palette::keyBoxText, rgba(255, 255, 255), rgba(12, 12, 16)},
    {&Palette::layerCurrent, rgba(255, 220, 90), rgba(170, 122, 0)},
    {&Palette::layerDone, rgba(90, 150, 230), rgba(40, 100, 200)},
    {&Palette::layerPending, rgba(70, 70, 80), rgba(190, 190, 198)},
    {&Palette::mergeLine, rgba(140, 140, 150, 120), rgba(90, 90, 100, 120)},
    {&Palette::bracket, rgba(150, 150, 160, 200), rgba(90, 90, 100, 220)},
    {&Palette::codeHighlight, rgba(110, 90, 20, 200), rgba(240, 185, 40)},
    {&Palette::currentEvent, rgba(255, 230, 90), rgba(170, 122, 0)},
    {&Palette::arc, rgba(120, 170, 255, 200), rgba(40, 100, 210, 230)},
    {&Palette::arcFallback, rgba(235, 80, 80, 230), rgba(200, 30, 30, 240)},
    {&Palette::fallbackOutline, rgba(235, 80, 80), rgba(200, 30, 30)},
    {&Palette::flagInkNotReady, rgba(190, 190, 200), rgba(40, 40, 46)},
    {&Palette::flagInk, rgba(10, 10, 10), rgba(0, 0, 0)},
    {&Palette::tileId, rgba(170, 170, 180), rgba(75, 75, 85)},
    {&Palette::depthBar, rgba(120, 170, 255, 220), rgba(40, 100, 210, 230)},
    {&Palette::depthLabel, rgba(190, 190, 200), rgba(60, 60, 70)},
    {&Palette::binaryDigitBg, rgba(110, 90, 20), rgba(240, 185, 40)},
    {&Palette::binaryDigitText, rgba(255, 240, 160), rgba(40, 25, 0)},
    {&Palette::binaryOtherText, rgba(150, 150, 160), rgba(95, 95, 105)},
    {&Palette::digitValue, rgba(255, 220, 120), rgba(135, 80, 0)},
    {&Palette::hoverRow, rgba(60, 80, 120), rgba(200, 215, 240)},
    {&Palette::markRow, rgba(30, 90, 110), rgba(245, 200, 238)},
};

// The lookback's status flags (not ready, aggregate, inclusive prefix): Palette::flag, by index.
constexpr struct {
    uint32_t dark, light;
} kFlags[] = {
    {rgba(70, 70, 80), rgba(192, 192, 198)},
    {rgba(240, 150, 40), rgba(205, 100, 0)},
    {rgba(80, 200, 110), rgba(30, 145, 60)},
};

// A role left out of the table would stay 0 (transparent black) and draw nothing.
constexpr bool everyRoleOnce() {
    for (size_t i = 0; i < std::size(kRoles); ++i)
        for (size_t j = 0; j < i; ++j)
            if (kRoles[i].colour == kRoles[j].colour) return false;
    return std::size(kRoles) + std::size(kFlags) == sizeof(Palette) / sizeof(uint32_t);
}
static_assert(everyRoleOnce());

constexpr Palette themed(Theme t) {
    Palette p{};
    for (const Role& r : kRoles) p.*r.colour = t == Theme::light ? r.light : r.dark;
    for (size_t i = 0; i < std::size(kFlags); ++i) p.flag[i] = t == Theme::light ? kFlags[i].light : kFlags[i].dark;
    return p;
}

constexpr Palette kDark = themed(Theme::dark);
constexpr Palette kLight = themed(Theme::light);

struct Rgb {
    float r, g, b;
};

// Piecewise linear through evenly spaced stops (x in 0..1).
uint32_t ramp(const Rgb* stops, int count, float x) {
    x = std::clamp(x, 0.0f, 1.0f) * float(count - 1);
    const int i = std::min(int(x), count - 2);
    const float t = x - float(i);
    const Rgb& a = stops[i];
    const Rgb& b = stops[i + 1];
    return rgbaFloat(a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t);
}

double channelLinear(uint32_t byte) {
    const double c = double(byte) / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

} // namespace

std::optional<Theme> parseTheme(std::string_view name) {
    if (name == "dark") return Theme::dark;
    if (name == "light") return Theme::light;
    return std::nullopt;
}

std::string_view themeName(Theme t) {
    return t == Theme::light ? "light" : "dark";
}

uint32_t rgbaFloat(float r, float g, float b, float a) {
    auto byte = [](float v) { return uint32_t(int(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f)); };
    return rgba(byte(r), byte(g), byte(b), byte(a));
}

const Palette& paletteFor(Theme t) {
    return t == Theme::light ? kLight : kDark;
}

uint32_t heightColourFor(Theme t, float h) {
    if (t == Theme::light) { // dark blue -> teal -> ochre: each at 3:1 or more on white
        static const Rgb stops[] = {{0.12f, 0.28f, 0.72f}, {0.00f, 0.50f, 0.48f}, {0.68f, 0.46f, 0.00f}};
        return ramp(stops, 3, h);
    }
    // blue (0.20, 0.40, 0.85) -> teal (0.15, 0.70, 0.65) -> yellow (0.95, 0.85, 0.25), computed as
    // it always was (the same bytes).
    h = std::clamp(h, 0.0f, 1.0f);
    float r, g, b;
    if (h < 0.5f) {
        float s = h * 2;
        r = 0.20f + (0.15f - 0.20f) * s;
        g = 0.40f + (0.70f - 0.40f) * s;
        b = 0.85f + (0.65f - 0.85f) * s;
    } else {
        float s = (h - 0.5f) * 2;
        r = 0.15f + (0.95f - 0.15f) * s;
        g = 0.70f + (0.85f - 0.70f) * s;
        b = 0.65f + (0.25f - 0.65f) * s;
    }
    return rgbaFloat(r, g, b);
}

uint32_t heatColourFor(Theme t, float v) {
    if (t == Theme::light) { // the dark ramp turned over: paper -> yellow -> red -> dark red
        static const Rgb stops[] = {
            {0.98f, 0.98f, 0.96f}, {0.99f, 0.80f, 0.24f}, {0.86f, 0.27f, 0.10f}, {0.40f, 0.00f, 0.10f}};
        return ramp(stops, 4, v);
    }
    v = std::clamp(v, 0.0f, 1.0f); // dark -> red -> yellow -> white
    float r = std::min(1.0f, v * 3.0f), g = std::clamp(v * 3.0f - 1.0f, 0.0f, 1.0f),
          b = std::clamp(v * 3.0f - 2.0f, 0.0f, 1.0f);
    return rgbaFloat(0.08f + 0.92f * r, 0.08f + 0.92f * g, 0.12f + 0.88f * b);
}

// Black or white, whichever stands out more: one of them is always at least sqrt(21) = 4.58:1.
uint32_t heatTextColourFor(Theme t, float v) {
    const uint32_t cell = heatColourFor(t, v), black = rgba(0, 0, 0), white = rgba(255, 255, 255);
    return contrastRatio(black, cell) >= contrastRatio(white, cell) ? black : white;
}

double relativeLuminance(uint32_t c) {
    return 0.2126 * channelLinear(c & 255) + 0.7152 * channelLinear(c >> 8 & 255) +
           0.0722 * channelLinear(c >> 16 & 255);
}

uint32_t over(uint32_t c, uint32_t background) {
    const double a = double(c >> 24) / 255.0;
    auto mix = [&](int shift) {
        return uint32_t(std::lround(double(c >> shift & 255) * a + double(background >> shift & 255) * (1 - a)));
    };
    return rgba(mix(0), mix(8), mix(16));
}

double contrastRatio(uint32_t a, uint32_t b) {
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace sortlab::app
