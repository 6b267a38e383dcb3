// The app's colours by role, for its two themes: dark (ImGui's dark style, the app's look until
// now) and light (for projectors, where a dark screen washes out). Every view draws with these
// roles instead of literal colours, so a theme is one table. The data lives in the core library
// (no ImGui) so that the unit tests can check the contrast of every role against what it is drawn
// on; view_common.h adds the current theme and applies it to ImGui's style.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace sortlab::app {

enum class Theme { dark, light };
std::optional<Theme> parseTheme(std::string_view name); // "dark", "light"
std::string_view themeName(Theme t);

// A colour packed as ImGui's IM_COL32 packs it (R in the low byte, A in the high one), so that a
// role goes straight to an ImDrawList call (view_common.h checks the packing).
constexpr uint32_t rgba(uint32_t r, uint32_t g, uint32_t b, uint32_t a = 255) {
    return r | g << 8 | b << 16 | a << 24;
}
// ImGui's own rounding of a 0..1 channel to a byte (IM_F32_TO_INT8_SAT), for colours computed
// from floats (the ramps): the dark theme's ramps stay the bytes they were.
uint32_t rgbaFloat(float r, float g, float b, float a = 1.0f);

// Dark values are the colours the app drew before themes existed (ImGui's dark style for the
// panel roles); light values keep the hues (the docs name them: a yellow band, blue layers, orange
// swaps, red differences) at a contrast a projector keeps.
struct Palette {
    // Panels: what is behind them, their background, title bars and border, input fields and the
    // check mark in a checkbox; ImGui's text colours.
    uint32_t desktop, windowBg, titleBg, titleBgActive, border, frameBg, checkMark;
    uint32_t text, textDim;
    // Text with a meaning, on the panel background.
    uint32_t title;      // a lesson stop's title
    uint32_t accent;     // the explanation's step label, key names in the help
    uint32_t question;   // a lesson's question
    uint32_t right;      // the class's answer was right
    uint32_t wrong;      // ... was not
    uint32_t match;      // check mode: GPU = CPU reference
    uint32_t mismatch;   // check mode: what differs from the reference
    uint32_t error;      // the status bar's error, a failed benchmark row
    uint32_t inputError; // keys typed in that do not read
    uint32_t pass;       // a benchmark row whose check passed
    uint32_t warning;    // lavapipe: CPU numbers, not GPU ones
    // Plots: the area bars are drawn on, text inside it, labels under it.
    uint32_t plotBg, plotText, keyLabel, axisLabel;
    uint32_t changedOutline, changedLabel; // keys this step changed: the bar's outline, the label
    uint32_t mismatchBar;                  // a key that differs from the CPU reference
    uint32_t outOfRange;                   // a status flag that is not 0, 1 or 2
    uint32_t highlight;                    // what a lesson's stop points at (an outline)
    uint32_t answer;                       // the cells an answer's arithmetic uses (an outline)
    // The comparator network: the current step's band, wires, comparators by state, swaps, keys;
    // comparatorSkipped: the dashed positions past n and the comparators the GPU skips (faint, so
    // that the comparators that run, done or still to run, stand out more).
    uint32_t stepBand, wire, comparatorCurrent, comparatorDone, comparatorPending, comparatorSkipped, swap;
    uint32_t inputKey, keyBox, keyBoxChanged, keyBoxText; // input keys at the left; current keys in boxes
    // The layer map (large n): cells by state, merge separators, the plan's step brackets.
    uint32_t layerCurrent, layerDone, layerPending, mergeLine, bracket;
    uint32_t codeHighlight; // the pseudocode line(s) this step runs
    // OneSweep's lookback: the event just replayed, walks back (arcs), fallbacks, status flags
    // (not ready, aggregate, inclusive prefix) and the ink on them, tile numbers, the depth bars.
    uint32_t currentEvent, arc, arcFallback, fallbackOutline;
    uint32_t flag[3];
    uint32_t flagInkNotReady, flagInk;
    uint32_t tileId, depthBar, depthLabel;
    // The radix view's keys in binary: the current digit's bits (background, text), the other bits,
    // the digit's value; the row under the mouse; a table row a lesson points at.
    uint32_t binaryDigitBg, binaryDigitText, binaryOtherText, digitValue, hoverRow, markRow;
};

const Palette& paletteFor(Theme t);
// Ramps: a key's height (0 lowest .. 1 highest: bars, arrows) and a heat map's value (0 .. 1),
// both readable on the theme's plot background; the ink for a number on a heat map cell.
uint32_t heightColourFor(Theme t, float h);
uint32_t heatColourFor(Theme t, float v);
uint32_t heatTextColourFor(Theme t, float v);

// WCAG 2 contrast: the relative luminance of a colour (its alpha ignored), a colour with alpha
// laid over an opaque background, and the contrast ratio of two colours (1 .. 21).
double relativeLuminance(uint32_t c);
uint32_t over(uint32_t c, uint32_t background);
double contrastRatio(uint32_t a, uint32_t b);

} // namespace sortlab::app
