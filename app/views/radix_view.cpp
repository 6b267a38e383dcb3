// The radix view, drawn from the snapshot's auxiliary buffers by their exact names:
//   radix4:   "digit counts" {16, W} (data[d * W + wg]), "histogram" {16}, "offsets" {16}
//             (exclusive scan of the histogram), "workgroup offsets" {16, W},
//             "pass" {4} = [pass, bitLo, bitHi, skipped 0/1];
//   onesweep: after "histogram": "histogram" {256} (pass 0's digit), "all histograms" {passes, 256};
//             after "scan": also "offsets" {256} and "all offsets" {passes, 256};
//             after each "pass": "histogram" {256} and "offsets" {256} of that pass's digit,
//             "tile status" {tiles, 256} (flags, already decoded by the library: 0 not ready,
//             1 aggregate, 2 inclusive prefix), "tile counts" {tiles, 256} (the count in the same
//             status word: the tile's aggregate or its inclusive prefix) and "fallbacks" {1}.
// It shows the keys in binary with the current digit highlighted (small n), the digit histogram,
// the exclusive offsets, per-workgroup counts (or OneSweep's tile status and counts) as heat maps,
// OneSweep's histograms and offsets of every pass as bars per pass where most of their cells are 0,
// and for small n arrows from each key's old position to its new one. Sections appear as their
// buffers do. Every number it writes fits its place (a smaller font where needed) and is noted for
// the labels check (view_common.h).
//
// Index: digitBits; digitAxis, barCounts, fitHeight, bars (histogram and offsets); usedDigits; heatMap; passBars;
// tileStatus; movesOf, shownBits, binaryKeys (the keys in binary), explainMove; tableScale,
// numberTable (per-workgroup tables); arrows; passLines; subjectSection (a lesson's @subject),
// digitSections; drawRadixView.
#include <sortlab/app/views.h>

#include <sortlab/app/transition.h>
#include <sortlab/app/view_common.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

namespace sortlab::app {
namespace {

// Bits [lo, hi) of the current pass: from the pass info, else from the step.
bool digitBits(const SortWorker::View& v, uint32_t* lo, uint32_t* hi) {
    if (const Snapshot::Aux* p = v.data->snapshot->find(AuxKind::passInfo); p && p->data.size() >= 3) {
        *lo = p->data[1];
        *hi = p->data[2];
        return *hi > *lo;
    }
    const Step* s = currentStep(v);
    if (s && s->bitHi > s->bitLo) {
        *lo = s->bitLo;
        *hi = s->bitHi;
        return true;
    }
    // The input, and OneSweep's "histogram" and "scan" steps (their "histogram" and "offsets" are
    // pass 0's digit): the digit of the first step that has one, the first pass.
    if (v.job.plan && (v.data->step == 0 || (s && (s->kind == StepKind::histogram || s->kind == StepKind::scan))))
        for (const Step& p : v.job.plan->steps)
            if (p.bitHi > p.bitLo) {
                *lo = p.bitLo;
                *hi = p.bitHi;
                return true;
            }
    return false;
}

// A histogram-like row of bars, one per digit of [first, last], labelled in hex every `step` digits
// so that no two labels overlap; `mark` outlines a digit's bar (a lesson's highlight; `answer`: the
// digit an answer's arithmetic uses).
struct DigitRange {
    size_t first = 0, last = SIZE_MAX;
};

// Hex labels under a row of `count` digit columns from `first`, `w` wide: every step-th digit, a
// power of two whose labels never overlap, counted from the first digit of `also` in view, and
// those in `also` (a lesson's or an answer's digit), which push aside the regular labels too
// close to them.
void digitAxis(const UiState& ui, ImVec2 o, float w, size_t first, size_t count, size_t totalBins,
               std::initializer_list<std::optional<uint64_t>> also = {}) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float bw = w / float(count), fs = ImGui::GetFontSize();
    const bool two = totalBins > 16;
    // One hex digit a bar needs less room: all 16 labelled in a 1280x720 lesson's narrow view.
    const float labelW = ImGui::CalcTextSize(two ? "FF" : "F").x + fs * (two ? 0.6f : 0.4f);
    size_t step = 1;
    while (step < count && labelW > bw * float(step)) step *= 2;
    auto isAlso = [&](size_t i) {
        for (const auto& a : also)
            if (a && *a == i) return true;
        return false;
    };
    auto nearAlso = [&](size_t i) {
        for (const auto& a : also)
            if (a && *a != i && *a >= first && *a < first + count && std::abs(float(*a) - float(i)) * bw < labelW)
                return true;
        return false;
    };
    // The regular labels run through the first highlighted digit in view (every second one from
    // it, say), so that it hides none of its neighbours' labels.
    size_t phase = 0;
    for (const auto& a : also)
        if (a && *a >= first && *a < first + count) {
            phase = (*a - first) % step;
            break;
        }
    float lastRight = -INFINITY; // a label pushed inwards at an edge must not crowd its neighbour
    for (size_t i = first; i < first + count; ++i) {
        const bool named = isAlso(i) || ((i - first) % step == phase && !nearAlso(i));
        if (!named) continue;
        char buf[24];
        std::snprintf(buf, sizeof buf, two ? "%02zX" : "%zX", i);
        const float tw = ImGui::CalcTextSize(buf).x, x0 = o.x + bw * float(i - first);
        const float x = std::clamp(x0 + bw / 2 - tw / 2, o.x, o.x + w - tw);
        if (x < lastRight + fs * 0.3f && !isAlso(i)) continue;
        drawLabel(ui, dl, ImVec2(x, o.y + 1), palette().axisLabel, buf);
        lastRight = x + tw;
    }
}
// The counts of bars r0..r1 (a plot `height` high, the tallest bar `mx`), each above its bar. At the
// size at which every count fits its own bar with room to spare, none comes near another; the
// tallest first (equal counts together), each is drawn in the full font where that keeps a quarter
// of a line from every count placed and from the place kept for every count to come (a tall bar's
// count may reach over its short neighbours, whose counts sit lower), else at that size; equal
// counts all in one of the two sizes. With no room for a readable font
// even at that size (256 digits), only the tallest bar's count; the others are in the tooltip.
void barCounts(const ViewContext& c, const Snapshot::Aux& a, size_t r0, size_t r1, uint32_t mx, ImVec2 o, float w,
               float height) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImFont* font = ImGui::GetFont();
    const float fs = ImGui::GetFontSize(), bw = w / float(r1 - r0 + 1);
    auto text = [&](size_t i) {
        std::array<char, 16> t{};
        std::snprintf(t.data(), t.size(), "%u", a.data[i]);
        return t;
    };
    float widest = 0;
    for (size_t i = r0; i <= r1; ++i) widest = std::max(widest, ImGui::CalcTextSize(text(i).data()).x);
    const float room = bw - std::max(4.0f, fs * 0.25f);
    const float smallest = std::max(10.0f, fs * 0.45f);
    std::vector<size_t> order;
    for (size_t i = r0; i <= r1; ++i) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return a.data[x] > a.data[y]; });
    if (fs * std::min(1.0f, room / widest) < smallest) { // no room: the tallest only, centred over it
        const auto t = text(order[0]);
        const ImVec2 ts = ImGui::CalcTextSize(t.data());
        const float x = std::clamp(o.x + bw * (float(order[0] - r0) + 0.5f) - ts.x / 2, o.x, o.x + w - ts.x);
        drawLabel(c.ui, dl, ImVec2(x, o.y + 2), palette().plotText, t.data());
        return;
    }
    const float uniform = fs * std::min(1.0f, room / widest);
    auto rect = [&](size_t i, float size) { // the count of bar i at this size: x0, y0, x1, y1
        const ImVec2 ts = font->CalcTextSizeA(size, FLT_MAX, 0.0f, text(i).data());
        const float top = o.y + height - float(a.data[i]) / float(mx) * (height - fs - 4);
        const float x = std::clamp(o.x + bw * (float(i - r0) + 0.5f) - ts.x / 2, o.x, o.x + w - ts.x);
        return ImVec4(x, top - ts.y - 1, x + ts.x, top - 1);
    };
    auto near = [](const ImVec4& r, const ImVec4& p) { // on a common line, closer than a quarter of one
        const float gap = 0.25f * std::min(r.w - r.y, p.w - p.y);
        return std::min(r.w, p.w) - std::max(r.y, p.y) > 1 && std::max(r.x, p.x) - std::min(r.z, p.z) < gap;
    };
    std::vector<ImVec4> kept(r1 + 1); // each count's place at the uniform size, until it is drawn
    for (size_t i = r0; i <= r1; ++i) kept[i] = rect(i, uniform);
    // Equal counts stand on one line: all of them in the full font or none (a row of zeros must not
    // alternate between the two sizes).
    for (size_t g = 0; g < order.size();) {
        size_t end = g + 1;
        while (end < order.size() && a.data[order[end]] == a.data[order[g]]) ++end;
        bool clear = true;
        for (size_t k = g; k < end && clear; ++k) {
            const ImVec4 full = rect(order[k], fs);
            for (size_t j = r0; j <= r1 && clear; ++j) {
                const bool same = a.data[j] == a.data[order[g]];
                clear = j == order[k] || !near(full, same ? rect(j, fs) : kept[j]);
            }
        }
        const float size = clear ? fs : uniform; // one of two sizes: a row of counts reads evenly
        for (size_t k = g; k < end; ++k) {
            const size_t i = order[k];
            kept[i] = rect(i, size);
            drawLabel(c.ui, dl, font, size, ImVec2(kept[i].x, kept[i].y), palette().plotText, text(i).data());
        }
        g = end;
    }
}

// A plot `want` high whose top is on screen shrinks (not below `least`) so that it and the `below`
// under it (its digit labels) end inside the window: the labels that say which bar is which digit
// stay on screen without scrolling. A plot that starts too low to fit keeps its height.
float fitHeight(float want, float below, float least) {
    const float bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight() - ImGui::GetStyle().WindowPadding.y;
    const float room = bottom - ImGui::GetCursorScreenPos().y - below;
    return room >= least && room < want ? room : want;
}

void bars(const ViewContext& c, const std::string& title, const Snapshot::Aux& a, float height,
          std::optional<uint64_t> mark, std::optional<uint64_t> answer, DigitRange range) {
    textWrappedAtSpaces(title);
    if (a.data.empty()) return;
    const size_t r0 = std::min(range.first, a.data.size() - 1), r1 = std::min(range.last, a.data.size() - 1);
    const size_t bins = r1 - r0 + 1;
    uint32_t mx = 1;
    for (size_t i = r0; i <= r1; ++i) mx = std::max(mx, a.data[i]);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    const float bw = w / float(bins), fs = ImGui::GetFontSize();
    const float labelH = fs + 2;
    height = fitHeight(height, labelH + ImGui::GetStyle().ItemSpacing.y, std::min(height, fs * 2.5f));
    dl->AddRectFilled(o, ImVec2(o.x + w, o.y + height), palette().plotBg);
    for (size_t i = r0; i <= r1; ++i) {
        const float h = float(a.data[i]) / float(mx) * (height - fs - 4);
        const float x0 = o.x + bw * float(i - r0);
        dl->AddRectFilled(ImVec2(x0 + (bw > 4 ? 1 : 0), o.y + height - h),
                          ImVec2(x0 + std::max(1.0f, bw - 1), o.y + height),
                          heightColour(float(i) / float(a.data.size() - 1)));
        for (auto [m, colour] : {std::pair{mark, palette().highlight}, std::pair{answer, palette().answer}})
            if (m && *m == i) {
                const ImVec2 p(x0 - 2, o.y), q(x0 + std::max(2.0f, bw) + 2, o.y + height + labelH);
                dl->AddRect(p, q, colour, 0, 0, 2.5f * c.line);
                if (colour == palette().highlight) noteVisible(c.ui, ProbeItem::highlight, p, q);
            }
    }
    barCounts(c, a, r0, r1, mx, o, w, height);
    digitAxis(c.ui, ImVec2(o.x, o.y + height), w, r0, bins, a.data.size(), {mark, answer});
    ImGui::Dummy(ImVec2(w, height + labelH));
    if (ImGui::IsItemHovered()) {
        size_t i = r0 + std::min(bins - 1, size_t((ImGui::GetIO().MousePos.x - o.x) / bw));
        ImGui::SetTooltip("digit %zX: %u", i, a.data[i]);
    }
}

// The digits a 256-bin histogram shows: those from its first key's to its last key's, in whole
// rows of 16, when that is at most half of them (keys below 100 use 00..6F in pass 0).
DigitRange usedDigits(const Snapshot::Aux* histogram) {
    if (!histogram || histogram->data.size() != 256) return {};
    size_t first = 256, last = 0;
    for (size_t i = 0; i < 256; ++i)
        if (histogram->data[i]) first = std::min(first, i), last = i;
    if (first > last) return {};
    first &= ~size_t(15), last |= 15;
    return last - first + 1 <= 128 ? DigitRange{first, last} : DigitRange{};
}

// Heat map of a {digits, W} buffer (data[d * W + w]): one column per digit (aligned with the
// histogram above), one row per workgroup or tile; rows are merged (max) when there are more
// than pixels. transposed: the buffer is {W, digits} (data[w * digits + d]), as tile status is.
void heatMap(const UiState& ui, const char* title, const Snapshot::Aux& a, const char* rowName, float height,
             bool transposed) {
    if (a.shape.size() < 2) return;
    const uint32_t digits = transposed ? a.shape[1] : a.shape[0], rows = transposed ? a.shape[0] : a.shape[1];
    if (!rows || !digits || a.data.size() < size_t(rows) * digits) return;
    auto at = [&](uint32_t d, uint32_t r) {
        return transposed ? a.data[size_t(r) * digits + d] : a.data[size_t(d) * rows + r];
    };
    const std::string rowsName = rows == 1                        ? rowName
                                 : std::string(rowName) == "pass" ? "passes"
                                                                  : std::string(rowName) + "s";
    wrappedf("%s (%u digits x %u %s)", title, digits, rows, rowsName.c_str());
    uint32_t mx = 1;
    for (uint32_t x : a.data) mx = std::max(mx, x);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    { // the legend: the colour ramp from 0 to the largest value
        const float fs = ImGui::GetFontSize();
        ImGui::TextDisabled("colour: 0");
        ImGui::SameLine();
        const ImVec2 r = ImGui::GetCursorScreenPos();
        for (int k = 0; k < 16; ++k)
            dl->AddRectFilled(ImVec2(r.x + fs * 0.5f * float(k), r.y + 2),
                              ImVec2(r.x + fs * 0.5f * float(k + 1), r.y + fs), heatColour(float(k) / 15.0f));
        ImGui::Dummy(ImVec2(fs * 8, fs));
        ImGui::SameLine();
        ImGui::TextDisabled("%u", mx);
        if (rows > 1) { // beside the ramp where it fits, else on a line of its own: never cut
            const std::string note = "rows: " + rowsName + " 0.." + std::to_string(rows - 1) + ", top to bottom";
            if (ImGui::GetContentRegionAvail().x - ImGui::GetItemRectMax().x + ImGui::GetCursorScreenPos().x >
                ImGui::CalcTextSize(note.c_str()).x + fs)
                ImGui::SameLine();
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            textWrappedAtSpaces(note);
            ImGui::PopStyleColor();
        }
    }
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    height = std::min(height, std::max(ImGui::GetFontSize() * 1.5f, float(rows) * ImGui::GetFontSize() * 1.2f));
    const uint32_t shownRows = std::min<uint32_t>(rows, uint32_t(std::max(1.0f, height)));
    const float cw = w / float(digits), ch = height / float(shownRows);
    const bool numbers = ch >= ImGui::GetFontSize() && cw >= ImGui::CalcTextSize("0000").x;
    for (uint32_t sr = 0; sr < shownRows; ++sr) {
        const uint32_t r0 = uint32_t(uint64_t(sr) * rows / shownRows),
                       r1 = uint32_t(uint64_t(sr + 1) * rows / shownRows);
        for (uint32_t d = 0; d < digits; ++d) {
            uint32_t m = 0;
            for (uint32_t r = r0; r < std::max(r1, r0 + 1); ++r) m = std::max(m, at(d, r));
            const ImVec2 c0(o.x + cw * float(d), o.y + ch * float(sr)),
                c1(o.x + cw * float(d + 1) - 1, o.y + ch * float(sr + 1));
            dl->AddRectFilled(c0, c1, heatColour(float(m) / float(mx)));
            if (numbers) {
                char buf[16];
                std::snprintf(buf, sizeof buf, "%u", m);
                drawLabel(ui, dl, ImVec2(c0.x + 3, c0.y + (ch - ImGui::GetFontSize()) / 2),
                          heatTextColour(float(m) / float(mx)), buf);
            }
        }
    }
    digitAxis(ui, ImVec2(o.x, o.y + height), w, 0, digits, digits);
    ImGui::Dummy(ImVec2(w, height + ImGui::GetFontSize() + 2));
    if (ImGui::IsItemHovered()) {
        ImVec2 m = ImGui::GetIO().MousePos;
        uint32_t d = std::min(digits - 1, uint32_t((m.x - o.x) / cw));
        uint32_t sr = std::min(shownRows - 1, uint32_t((m.y - o.y) / ch));
        uint32_t r = uint32_t(uint64_t(sr) * rows / shownRows);
        ImGui::SetTooltip("digit %X, %s %u: %u", d, rowName, r, at(d, r));
    }
}

// OneSweep's {passes, 256} histograms or offsets (data[pass * 256 + d]) when most of their cells are
// 0 (a few keys): a heat map of them is black with a few thin lines, so instead each pass gets a
// line, and its counts as bars over the digits its keys use, or, when every key has one digit (the
// scan skips that pass), says so. `hist`: the histograms, which name each pass's digits. False: the
// cells are mostly nonzero (the heat map reads), nothing drawn.
bool passBars(const ViewContext& c, const char* title, const Snapshot::Aux& a, const Snapshot::Aux& hist) {
    if (a.shape.size() < 2 || a.shape[1] != 256 || hist.shape != a.shape || a.data.size() < size_t(a.shape[0]) * 256 ||
        hist.data.size() < a.data.size())
        return false;
    const uint32_t passes = a.shape[0];
    size_t nonzero = 0;
    for (size_t i = 0; i < size_t(passes) * 256; ++i) nonzero += hist.data[i] != 0;
    if (nonzero * 2 >= size_t(passes) * 256) return false;
    textWrappedAtSpaces(title);
    const float fs = ImGui::GetFontSize();
    for (uint32_t p = 0; p < passes; ++p) {
        Snapshot::Aux row{a.kind, {256}, {a.data.begin() + p * 256, a.data.begin() + (p + 1) * 256}};
        Snapshot::Aux counts{hist.kind, {256}, {hist.data.begin() + p * 256, hist.data.begin() + (p + 1) * 256}};
        uint64_t keys = 0;
        uint32_t single = 256;
        for (uint32_t d = 0; d < 256; ++d) {
            keys += counts.data[d];
            if (counts.data[d]) single = single == 256 ? d : 257;
        }
        char head[160];
        if (single < 256)
            std::snprintf(head, sizeof head, "pass %u (bits %u..%u): all %llu keys in digit %02X: the pass is skipped",
                          p, p * 8, p * 8 + 7, static_cast<unsigned long long>(keys), single);
        const DigitRange range = usedDigits(&counts);
        if (single >= 256 && range.last != SIZE_MAX) // the axis trimmed to the digits the keys use
            std::snprintf(head, sizeof head, "pass %u (bits %u..%u): digits %02zX..%02zX in hex (no key has another)",
                          p, p * 8, p * 8 + 7, range.first, range.last);
        else if (single >= 256)
            std::snprintf(head, sizeof head, "pass %u (bits %u..%u): digits 00..FF in hex", p, p * 8, p * 8 + 7);
        ImGui::PushID(int(p));
        if (single < 256)
            textWrappedAtSpaces(head);
        else
            bars(c, head, row, fs * 4, std::nullopt, std::nullopt, range);
        ImGui::PopID();
    }
    return true;
}

// OneSweep's lookback state: per tile and digit, the flag of the status word the GPU left
// ("tile status", decoded by the library: 0 not ready, 1 aggregate = the tile's own count,
// 2 inclusive = the count over this tile and every tile before it) and the count held in the
// same word ("tile counts", shown in the tooltip).
void tileStatus(const Snapshot::Aux& a, const Snapshot::Aux* counts, float height) {
    if (a.shape.size() < 2) return;
    const uint32_t tiles = a.shape[0], digits = a.shape[1];
    if (!tiles || !digits || a.data.size() < size_t(tiles) * digits) return;
    if (counts && counts->data.size() < size_t(tiles) * digits) counts = nullptr;
    size_t seen[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < size_t(tiles) * digits; ++i) seen[std::min<uint32_t>(a.data[i], 3)]++;
    wrappedf("tile status flags (%u tile%s x %u digits): %zu not ready, %zu aggregate, %zu inclusive prefix", tiles,
             tiles == 1 ? "" : "s", digits, seen[0], seen[1], seen[2]);
    if (seen[3]) ImGui::TextColored(vec4(palette().mismatch), "%zu flags out of range (not 0, 1 or 2)", seen[3]);
    flagLegend();
    const ImU32 bad = palette().outOfRange;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    // Every word with one flag (a pass that finished: all inclusive prefixes) says so in a line; a
    // thin band stands for the map, whose rows (tiles, top to bottom) and columns (digits) are named.
    const size_t total = size_t(tiles) * digits;
    if (seen[0] == total || seen[1] == total || seen[2] == total) {
        wrappedf("every one of the %zu status words holds %s%s", total,
                 seen[2] == total   ? "an inclusive prefix: the pass finished"
                 : seen[1] == total ? "an aggregate"
                                    : "no count yet (not ready)",
                 "");
        height = ImGui::GetFontSize() * 1.5f;
    } else {
        height = std::min(height, std::max(ImGui::GetFontSize() * 1.5f, float(tiles) * 4.0f));
        ImGui::TextDisabled("rows: tiles 0..%u, top to bottom; columns: digits", tiles - 1);
    }
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    const uint32_t rows = std::min<uint32_t>(tiles, uint32_t(std::max(1.0f, height)));
    const uint32_t cols = std::min<uint32_t>(digits, uint32_t(std::max(1.0f, w)));
    const float cw = w / float(cols), ch = height / float(rows);
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < cols; ++c) {
            // Merged cells show the least advanced flag among them (an out-of-range one wins).
            uint32_t flag = 2;
            bool outOfRange = false;
            const uint32_t t0 = uint32_t(uint64_t(r) * tiles / rows),
                           t1 = std::max(t0 + 1, uint32_t(uint64_t(r + 1) * tiles / rows));
            const uint32_t d0 = uint32_t(uint64_t(c) * digits / cols),
                           d1 = std::max(d0 + 1, uint32_t(uint64_t(c + 1) * digits / cols));
            for (uint32_t t = t0; t < t1; ++t)
                for (uint32_t d = d0; d < d1; ++d) {
                    const uint32_t f = a.data[size_t(t) * digits + d];
                    if (f > 2)
                        outOfRange = true;
                    else
                        flag = std::min(flag, f);
                }
            dl->AddRectFilled(ImVec2(o.x + cw * float(c), o.y + ch * float(r)),
                              ImVec2(o.x + cw * float(c + 1), o.y + ch * float(r + 1)),
                              outOfRange ? bad : palette().flag[flag]);
        }
    ImGui::Dummy(ImVec2(w, height));
    if (ImGui::IsItemHovered()) {
        ImVec2 m = ImGui::GetIO().MousePos;
        const uint32_t t = std::min(tiles - 1, uint32_t((m.y - o.y) / height * float(tiles)));
        const uint32_t d = std::min(digits - 1, uint32_t((m.x - o.x) / w * float(digits)));
        const uint32_t f = a.data[size_t(t) * digits + d];
        if (counts)
            ImGui::SetTooltip("tile %u, digit %02X: %s, count %u%s", t, d, f <= 2 ? kFlagName[f] : "?",
                              counts->data[size_t(t) * digits + d],
                              f == 2   ? " (tiles 0..this one)"
                              : f == 1 ? " (this tile alone)"
                                       : "");
        else
            ImGui::SetTooltip("tile %u, digit %02X: %s", t, d, f <= 2 ? kFlagName[f] : "?");
    }
}

// Where each key of the previous snapshot went in this one (transition.h's keyMoves: by the
// values, else by rank among equal keys, which the stable passes keep). Empty without one.
std::vector<uint64_t> movesOf(const SortWorker::View& v) {
    const StepData& d = *v.data;
    const Step* step = currentStep(v);
    if (!d.previous || !step) return {};
    return keyMoves(*d.previous, *d.snapshot, v.job, *step).to;
}

// How many low bits of the keys the binary list shows: the bits any key uses, and at least up to
// the digit's (7 bits for keys below 100, 8 in a pass on bits 4..7).
uint32_t shownBits(const SortWorker::View& v, uint32_t hi) {
    const Snapshot& s = *v.data->snapshot;
    uint64_t all = 0;
    for (uint64_t i = 0; i < v.job.settings.n; ++i)
        all |= orderBitsAt(s.keys.data(), i, v.job.settings.key, v.job.settings.order);
    uint32_t used = 0;
    while (used < 64 && (all >> used) != 0) ++used;
    return std::clamp(std::max(used, hi), 1u, keyBits(v.job.settings.key));
}

// The width of a row of the binary list: index, bits (a gap every 4), digit.
float binaryRowWidth(float charW, uint32_t bits) {
    return charW * (4.0f + float(bits) * 1.125f + 4.0f);
}

// The keys in binary, one a row; returns the row under the mouse (-1: none).
int64_t binaryKeys(const ViewContext& c, uint32_t lo, uint32_t hi) {
    const auto& v = c.v;
    const Snapshot& s = *v.data->snapshot;
    const uint64_t n = v.job.settings.n;
    const uint32_t bits = shownBits(v, hi), all = keyBits(v.job.settings.key);
    // The bits no key uses are 0 in every key: not shown.
    textWrappedAtSpaces(bits < all ? "keys, low " + std::to_string(bits) + " bits" : "keys in binary");
    if (hi > lo) textWrappedAtSpaces("digit: bits " + std::to_string(lo) + ".." + std::to_string(hi - 1));
    ImGui::PushFont(c.ui.presentation ? c.fonts.monoLarge : c.fonts.mono);
    // A column narrower than a row: a smaller font, so that every bit and digit still shows.
    if (const float full = binaryRowWidth(ImGui::CalcTextSize("0").x, bits), avail = shownWidth(); full > avail)
        ImGui::SetWindowFontScale(std::max(0.5f, avail / full));
    const float cw = ImGui::CalcTextSize("0").x;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    int64_t hovered = -1;
    const float rowW = binaryRowWidth(cw, bits);
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t b = orderBitsAt(s.keys.data(), i, v.job.settings.key, v.job.settings.order);
        ImVec2 p = ImGui::GetCursorScreenPos();
        if (ImGui::IsMouseHoveringRect(p, ImVec2(p.x + rowW, p.y + ImGui::GetFontSize()))) {
            hovered = int64_t(i);
            dl->AddRectFilled(p, ImVec2(p.x + rowW, p.y + ImGui::GetFontSize()), palette().hoverRow);
        }
        char idx[24];
        std::snprintf(idx, sizeof idx, "%3llu ", (unsigned long long)i);
        ImGui::TextUnformatted(idx);
        float x = p.x + cw * 4;
        for (int bit = int(bits) - 1; bit >= 0; --bit) {
            const bool inDigit = uint32_t(bit) >= lo && uint32_t(bit) < hi;
            char ch[2] = {((b >> bit) & 1) ? '1' : '0', 0};
            if (inDigit)
                dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + cw, p.y + ImGui::GetFontSize()), palette().binaryDigitBg);
            dl->AddText(ImVec2(x, p.y), inDigit ? palette().binaryDigitText : palette().binaryOtherText, ch);
            x += cw + ((bit % 4 == 0) ? cw * 0.5f : 0);
        }
        if (const auto key = highlighted(c.ui, HighlightKind::key); key && *key == i) // a lesson's key: its row
            dl->AddRect(ImVec2(p.x - 1, p.y - 2), ImVec2(p.x + rowW + 1, p.y + ImGui::GetFontSize() + 2),
                        palette().highlight, 3.0f, 0, 2.0f * c.line);
        if (hi > lo) { // the digit's value; a lesson's digit, and the keys an answer counted, outlined
            const uint64_t dv = (b >> lo) & ((1ull << (hi - lo)) - 1);
            char digit[32];
            std::snprintf(digit, sizeof digit, " %llX", (unsigned long long)dv);
            drawLabel(c.ui, dl, ImVec2(x, p.y), palette().digitValue, digit);
            const ImVec2 a(p.x + cw * 3.5f, p.y - 1), z(p.x + rowW - cw, p.y + ImGui::GetFontSize() + 1);
            if (const auto mark = highlighted(c.ui, HighlightKind::digit); mark && *mark == dv) {
                dl->AddRect(a, z, palette().highlight, 3.0f, 0, 2.0f * c.line);
                noteVisible(c.ui, ProbeItem::highlight, a, z);
            } else if (answerMarksKey(c.ui, i)) {
                dl->AddRect(a, z, palette().answer, 3.0f, 0, 2.0f * c.line);
            }
        }
    }
    ImGui::SetWindowFontScale(1.0f);
    ImGui::PopFont();
    return hovered;
}

// radix4 after a scatter: key j's new index as the sort builds it, from this step's buffers: where
// its digit starts + the keys with that digit in the workgroups before its own + its rank among its
// workgroup's keys with that digit.
void explainMove(const ViewContext& c, const std::vector<uint64_t>& to, uint64_t j) {
    const auto& v = c.v;
    const Snapshot& s = *v.data->snapshot;
    const Step* step = currentStep(v);
    uint64_t from = 0;
    while (from < to.size() && to[from] != j) ++from;
    if (from == to.size() || !step || !s.find(AuxKind::workgroupOffsets)) return;
    const auto p = radixPlace(s, v.job, *step, from, j);
    if (!p) return;
    const uint32_t d = p->digit;
    const unsigned long long w = p->group;
    const std::string earlier = w == 0 ? "no workgroup comes before workgroup 0"
                                       : "digit-" + std::string(1, "0123456789ABCDEF"[d & 15]) +
                                             " keys in workgroups 0.." + std::to_string(w - 1);
    ImGui::Separator();
    wrappedf("key %s (index %llu before the step, workgroup %llu, digit %X) goes to index %llu = %llu "
             "(where digit %X starts) + %llu (%s) + %llu (its rank among workgroup %llu's digit-%X keys)",
             formatKey(s.keys, j, v.job.settings.key).c_str(), (unsigned long long)from, w, d, (unsigned long long)j,
             (unsigned long long)p->start, d, (unsigned long long)p->before, earlier.c_str(),
             (unsigned long long)p->rank, w, d);
}

// A number table's cell padding across: narrow, so that its numbers get the width (the borders
// keep neighbouring cells apart).
float tablePadX() {
    return std::max(1.0f, ImGui::GetFontSize() * 0.08f);
}

// The font scale at which a table of `columns` digit columns fits its numbers (the widest in `a`)
// with a sixth of a line's height to spare (numbers in neighbouring cells never run together), at
// most 1; below 0.45 the numbers would be too small to read. The workgroup column is as narrow as
// its heading "wg".
float tableScale(const Snapshot::Aux& a, uint32_t columns, uint32_t rows) {
    uint32_t mx = rows ? rows - 1 : 0;
    for (uint32_t x : a.data) mx = std::max(mx, x);
    char widest[16];
    std::snprintf(widest, sizeof widest, "%u", mx);
    const float padX = tablePadX(), wg = ImGui::CalcTextSize("wg").x + 2 * padX + 1; // 1: the border
    const float inner = (ImGui::GetContentRegionAvail().x - wg) / float(columns) - 2 * padX - 1;
    return std::min(1.0f, inner / (ImGui::CalcTextSize(widest).x + ImGui::GetFontSize() / 6));
}

// The columns `digits` of a {16, W} table (data[d * W + w]) at font scale `scale`: one row per
// workgroup. `mark` shades a lesson's workgroup; `answer` outlines the cell an answer's arithmetic uses.
void numberTablePart(const ViewContext& c, const std::string& id, const Snapshot::Aux& a,
                     const std::vector<uint32_t>& digits, float scale, std::optional<uint64_t> mark,
                     const Answer* answer) {
    const uint32_t rows = a.shape[1];
    const bool counts = id.rfind("##counts", 0) == 0; // a count of 0 is a dot: the numbers stand out
    const float wgW = ImGui::CalcTextSize("wg").x;    // at the full size: the column's width in tableScale
    ImGui::SetWindowFontScale(scale);
    ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, ImVec2(tablePadX(), ImGui::GetStyle().CellPadding.y));
    const bool open = ImGui::BeginTable(id.c_str(), int(digits.size()) + 1,
                                        ImGuiTableFlags_BordersInner | ImGuiTableFlags_SizingStretchSame);
    ImGui::PopStyleVar();
    if (!open) {
        ImGui::SetWindowFontScale(1.0f);
        return;
    }
    ImGui::TableSetupColumn("wg", ImGuiTableColumnFlags_WidthFixed, wgW);
    for (uint32_t d : digits) {
        char h[12];
        std::snprintf(h, sizeof h, "%X", d);
        ImGui::TableSetupColumn(h);
    }
    ImGui::TableHeadersRow();
    for (uint32_t w = 0; w < rows; ++w) {
        ImGui::TableNextRow();
        const bool marked = mark && *mark == w; // a lesson points at this workgroup
        if (marked) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, palette().markRow);
        ImGui::TableNextColumn();
        const ImVec2 rowStart = ImGui::GetCursorScreenPos();
        char wg[16];
        std::snprintf(wg, sizeof wg, "%u", w);
        ImGui::TextUnformatted(wg);
        noteTextItem(c.ui, wg);
        for (uint32_t d : digits) {
            ImGui::TableNextColumn();
            const uint32_t x = a.data[size_t(d) * rows + w];
            char cell[16];
            std::snprintf(cell, sizeof cell, "%u", x);
            if (x == 0 && counts)
                ImGui::TextDisabled(".");
            else
                ImGui::TextUnformatted(cell);
            noteTextItem(c.ui, x == 0 && counts ? "." : cell);
            if (answer && answer->workgroup == w && answer->digit == d) {
                const ImVec2 p = ImGui::GetItemRectMin(), q = ImGui::GetItemRectMax();
                ImGui::GetWindowDrawList()->AddRect(ImVec2(p.x - 3, p.y - 1), ImVec2(q.x + 3, q.y + 1),
                                                    palette().answer, 0, 0, 2.0f * c.line);
            }
        }
        if (marked) noteVisible(c.ui, ProbeItem::highlight, rowStart, ImGui::GetItemRectMax());
    }
    ImGui::EndTable();
    ImGui::SetWindowFontScale(1.0f);
}

// A {16, W} table of numbers for a few workgroups: one row per workgroup, one column per digit.
// Where all 16 columns would need a font below 0.85 of the text's, the columns are those of the
// digits some key has (`used`, from the histogram: the others add nothing to a count or an offset)
// under the short title, and, where those still do not fit, split over two or more tables, one above the other; a
// smaller font only where even four tables do not fit (false: not even then; nothing drawn).
bool numberTable(const ViewContext& c, const char* id, const char* title, const char* shortTitle,
                 const Snapshot::Aux& a, const std::vector<uint32_t>& used, std::optional<uint64_t> mark,
                 const Answer* answer) {
    if (a.shape.size() < 2) return true;
    const uint32_t digits = a.shape[0], rows = a.shape[1];
    std::vector<uint32_t> shown(digits);
    for (uint32_t d = 0; d < digits; ++d) shown[d] = d;
    float scale = tableScale(a, digits, rows);
    size_t parts = 1;
    if (scale < 0.85f) {
        if (!used.empty() && used.size() < digits) shown = used;
        for (parts = 1; parts <= 4; ++parts)
            if ((scale = tableScale(a, uint32_t((shown.size() + parts - 1) / parts), rows)) >= 0.85f) break;
        parts = std::min<size_t>(parts, 4);
        scale = tableScale(a, uint32_t((shown.size() + parts - 1) / parts), rows);
    }
    if (scale < 0.45f) return false;
    if (shown.size() == digits)
        wrappedf("%s (%u digits x %u workgroup%s)", title, digits, rows, rows == 1 ? "" : "s");
    else
        wrappedf("%s: the %zu digits the keys have", shortTitle, shown.size()); // short: the panel is narrow
    const size_t per = (shown.size() + parts - 1) / parts;
    for (size_t p = 0; p * per < shown.size(); ++p) {
        const std::vector<uint32_t> part(shown.begin() + std::ptrdiff_t(p * per),
                                         shown.begin() + std::ptrdiff_t(std::min(shown.size(), (p + 1) * per)));
        numberTablePart(c, std::string(id) + "-" + std::to_string(p) + "-" + std::to_string(part.size()), a, part,
                        scale, mark, answer);
    }
    return true;
}

// Arrows from each key's position before this step to its position after it.
void arrows(const ViewContext& c, const std::vector<uint64_t>& to) {
    const auto& v = c.v;
    const StepData& d = *v.data;
    if (to.empty()) return;
    const uint64_t n = v.job.settings.n;
    ImGui::TextUnformatted("moves");
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    const float h = ImGui::GetFontSize() * 4;
    const float cw = w / float(n);
    for (uint64_t i = 0; i < n; ++i) {
        const float x0 = o.x + cw * (float(i) + 0.5f), x1 = o.x + cw * (float(to[i]) + 0.5f);
        const float hgt = keyHeight(v.job, *d.previous, i);
        dl->AddLine(ImVec2(x0, o.y + 4), ImVec2(x1, o.y + h - 8), heightColour(hgt), c.line * 1.5f);
        dl->AddTriangleFilled(ImVec2(x1 - 4, o.y + h - 10), ImVec2(x1 + 4, o.y + h - 10), ImVec2(x1, o.y + h - 2),
                              heightColour(hgt));
    }
    ImGui::Dummy(ImVec2(w, h));
}

// What the step is, in a line or two: the pass and its bits, the input or the result, and a OneSweep
// pass's tiles of one digit and fallbacks.
void passLines(const ViewContext& c, bool haveDigit, uint32_t lo, uint32_t hi) {
    const auto& v = c.v;
    const Snapshot& s = *v.data->snapshot;
    const uint64_t n = v.job.settings.n;
    const Snapshot::Aux* info = s.find(AuxKind::passInfo);
    // A skipped pass: every key had one digit, so no key moved (OneSweep: no tile ran, and its
    // tile statuses and log are the last pass's that ran: not shown).
    const bool skipped = Snapshot::skipped(info);
    if (info && info->data.size() >= 4)
        wrappedf("pass %u: bits %u..%u%s", info->data[0], info->data[1], info->data[2] - 1,
                 skipped ? " (skipped: every key has the same digit, so no key moves)" : "");
    // The steps with no buffers of their own: the input and the result.
    const Step* step = currentStep(v);
    const bool input = v.data->step == 0, result = step && step->kind == StepKind::result;
    if (input && haveDigit)
        wrappedf("the input: no step has run yet. The first pass sorts by bits %u..%u%s", lo, hi - 1,
                 n <= 64 ? " (highlighted below)." : ".");
    else if (input)
        wrappedf("the input: no step has run yet.");
    else if (result)
        wrappedf("%s: the keys are sorted.", step->label.c_str());
    if ((input || result) && n > 64) { // wrapped: never cut at the panel's right edge
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        textWrappedAtSpaces(input ? "Step on (Right arrow) to see what each step counts, scans and moves."
                                  : "Step back (Left arrow) to see each pass's histogram and offsets.");
        ImGui::PopStyleColor();
    }
    if (const Snapshot::Aux* u = s.find(AuxKind::uniformTiles); u && !u->data.empty() && !skipped) {
        const uint64_t tiles = step ? step->workgroups : 0;
        wrappedf("tiles of one digit: %u of %llu had keys of a single digit, staged in their order without "
                 "ranking",
                 u->data[0], static_cast<unsigned long long>(tiles));
    }
    if (const Snapshot::Aux* f = s.find(AuxKind::fallbacks); f && !f->data.empty() && !skipped) {
        const Snapshot::Aux* st = s.find(AuxKind::tileStatus);
        const uint32_t tiles = st && !st->shape.empty() ? st->shape[0] : 0;
        wrappedf("fallbacks: %u of %u tile%s counted a predecessor's keys themselves instead of waiting for "
                 "its status%s",
                 f->data[0], tiles, tiles == 1 ? "" : "s",
                 v.job.settings.knobs.forceFallback ? " (forced: every tile but the first counts tile t-1)" : "");
    }
}

// Draws a section and, when a lesson's stop is about it, notes the rectangle it took (noteSubject).
// A section that would start within `lines` lines of the window's bottom starts below it instead:
// a heading is never cut in half at the fold.
void startBelowIfShort(float lines) {
    const float bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight() - ImGui::GetStyle().WindowPadding.y;
    if (const float room = bottom - ImGui::GetCursorScreenPos().y; room > 0 && room < ImGui::GetFontSize() * lines)
        ImGui::Dummy(ImVec2(1, room + ImGui::GetStyle().WindowPadding.y));
}

template <class Draw> void subjectSection(const ViewContext& c, SubjectKind k, Draw&& draw) {
    startBelowIfShort(5);
    const ImVec2 a = ImGui::GetCursorScreenPos();
    draw();
    if (ImGui::GetCursorScreenPos().y > a.y) // drew something
        noteSubject(c.ui, k, a, ImVec2(a.x + 1, ImGui::GetItemRectMax().y));
}

// A lesson's stop that asks where a key goes (or whose answer says so): about the offsets.
bool stopAboutOffsets(const UiState& ui) {
    const auto& L = ui.lesson;
    const Answer* answer = shownAnswer(ui);
    return (answer && answer->workgroup) || (L.lesson && L.lesson->stops[L.stop].question &&
                                             L.lesson->stops[L.stop].question->kind == QuestionKind::where);
}

// The digit histogram, the offsets and, for a few workgroups, their counts and offsets as numbers
// (more: heat maps). The sections a lesson's stop is about come first (its subjects); then, for a
// stop about workgroups, their tables; for one about where a key goes, the offsets. While a
// question about the next pass's count is open, this pass's sections are left out: they would
// answer another pass's question (the keys in binary show the next pass's bits).
void digitSections(const ViewContext& c, const std::string& ofPass, uint32_t lo, uint32_t hi,
                   std::optional<std::pair<uint32_t, uint32_t>> asked) {
    const Snapshot& s = *c.v.data->snapshot;
    const float fs = ImGui::GetFontSize();
    const Answer* answer = shownAnswer(c.ui);
    if (asked && (asked->first != lo || asked->second != hi) && s.find(AuxKind::histogram)) {
        wrappedf("The keys in binary show the digit the question asks about, bits %u..%u; its histogram "
                 "appears once the question is answered. The step shown ran the pass on bits %u..%u.",
                 asked->first, asked->second - 1, lo, hi - 1);
        return;
    }
    const bool aboutWorkgroups = highlighted(c.ui, HighlightKind::workgroup).has_value();
    const bool aboutOffsets = stopAboutOffsets(c.ui);
    enum Section { histogram, offsets, counts, wgOffsets };
    std::array<Section, 4> order = aboutWorkgroups ? std::array{counts, wgOffsets, histogram, offsets}
                                   : aboutOffsets  ? std::array{offsets, wgOffsets, counts, histogram}
                                                   : std::array{histogram, offsets, counts, wgOffsets};
    constexpr SubjectKind kKind[] = {SubjectKind::histogram, SubjectKind::offsets, SubjectKind::counts,
                                     SubjectKind::workgroupOffsets};
    std::stable_partition(order.begin(), order.end(), [&](Section x) { return isSubject(c.ui, kKind[x]); });
    const std::optional<uint64_t> answerDigit = answer ? answer->digit : std::nullopt;
    const DigitRange range = usedDigits(s.find(AuxKind::histogram));
    char rangeNote[96] = "";
    if (range.last != SIZE_MAX)
        std::snprintf(rangeNote, sizeof rangeNote, ", digits %02zX..%02zX (no key has another)", range.first,
                      range.last);
    constexpr uint32_t kNumberRows = 16;
    std::vector<uint32_t> used; // the digits some key has, from the histogram
    if (const Snapshot::Aux* h = s.find(AuxKind::histogram); h && h->data.size() <= 256)
        for (uint32_t d = 0; d < h->data.size(); ++d)
            if (h->data[d]) used.push_back(d);
    auto table = [&](AuxKind kind, const char* id, const char* title, const char* heatTitle) {
        const Snapshot::Aux* a = s.find(kind);
        if (!a) return;
        if (a->shape.size() < 2 || a->shape[1] > kNumberRows ||
            !numberTable(c, id, title, heatTitle, *a, used, highlighted(c.ui, HighlightKind::workgroup), answer))
            heatMap(c.ui, heatTitle, *a, "workgroup", fs * 8, false);
    };
    for (Section sec : order)
        subjectSection(c, kKind[sec], [&] {
            switch (sec) {
            case histogram:
                if (const Snapshot::Aux* a = s.find(AuxKind::histogram)) {
                    bars(c, "digit histogram" + ofPass + " (all keys)" + rangeNote, *a, fs * 6,
                         highlighted(c.ui, HighlightKind::digit), answerDigit, range);
                    c.ui.probe.histogramLo = int(lo), c.ui.probe.histogramHi = int(hi);
                }
                break;
            case offsets:
                if (const Snapshot::Aux* a = s.find(AuxKind::offsets))
                    bars(c, "exclusive offsets" + ofPass + ": where each digit starts" + rangeNote, *a, fs * 4,
                         aboutOffsets || isSubject(c.ui, SubjectKind::offsets) ? highlighted(c.ui, HighlightKind::digit)
                                                                               : std::nullopt,
                         answer && answer->workgroup ? answerDigit : std::nullopt, range);
                break;
            case counts:
                table(AuxKind::digitCounts, "##counts",
                      "per-workgroup digit counts: keys of each digit in each workgroup", "per-workgroup digit counts");
                break;
            case wgOffsets:
                table(AuxKind::workgroupOffsets, "##offsets",
                      "per-workgroup offsets: where each workgroup's keys of a digit start", "per-workgroup offsets");
                break;
            }
        });
}

} // namespace

void drawRadixView(const ViewContext& c, LookbackReplayChoice& replay, bool* open) {
    if (!beginView("Radix", c.ui.presentation, open)) return;
    const auto& v = c.v;
    const Snapshot& s = *v.data->snapshot;
    const uint64_t n = v.job.settings.n;
    uint32_t lo = 0, hi = 0;
    const bool haveDigit = digitBits(v, &lo, &hi);
    // The digit the keys in binary show: this step's, or for a lesson's question about the next
    // pass's count, that pass's.
    uint32_t klo = lo, khi = hi;
    bool keyDigit = haveDigit;
    if (const auto& L = c.ui.lesson; L.lesson && !L.answered && v.job.plan && v.data->step < v.job.plan->steps.size())
        if (const auto& q = L.lesson->stops[L.stop].question; q && q->kind == QuestionKind::count)
            if (const Step& next = v.job.plan->steps[v.data->step]; next.bitHi > next.bitLo)
                klo = next.bitLo, khi = next.bitHi, keyDigit = true;
    const Snapshot::Aux* info = s.find(AuxKind::passInfo);
    // A skipped pass: every key had one digit, so no key moved (OneSweep: no tile ran, and its
    // tile statuses and log are the last pass's that ran: not shown).
    const bool skipped = Snapshot::skipped(info);
    const Step* step = currentStep(v);
    const bool result = step && step->kind == StepKind::result;
    // A lesson about a OneSweep pass shows its replay first: the lookback is what its stops are about.
    const bool replayFirst = c.ui.lesson.lesson && s.find(AuxKind::lookbackLog) && !skipped && !stopAboutOffsets(c.ui);
    if (!replayFirst) passLines(c, haveDigit, lo, hi);
    const float fs = ImGui::GetFontSize();
    // Small n: the keys in binary beside the rest; in presentation mode a OneSweep pass's replay
    // needs the whole width instead.
    const bool small = n <= 64 && n > 0 && !(c.ui.presentation && s.find(AuxKind::lookbackLog));
    int64_t hoveredKey = -1;
    // Where each key went in this step (a digit pass: scatter or OneSweep pass), for the arrows and
    // the hovered key's explanation.
    const bool moves = step && (step->kind == StepKind::scatter || step->kind == StepKind::pass);
    const std::vector<uint64_t> to = small && moves ? movesOf(v) : std::vector<uint64_t>{};
    // The keys column as wide as a key in binary (index, bits in nibbles, digit). ImGui keeps a fixed
    // column's first width, so a table of another width is another table (its id has the bits).
    ImGui::PushFont(c.ui.presentation ? c.fonts.monoLarge : c.fonts.mono);
    const uint32_t keyBitsShown = small ? shownBits(v, keyDigit ? khi : 0) : 0;
    const float keysW = binaryRowWidth(ImGui::CalcTextSize("0").x, keyBitsShown);
    ImGui::PopFont();
    char tableId[24];
    std::snprintf(tableId, sizeof tableId, "##radix%u", keyBitsShown);
    if (small && ImGui::BeginTable(tableId, 2, ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed, keysW);
        ImGui::TableSetupColumn("digits", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        // A lesson's stop about the keys in binary shows them first, the moves below: at 1280x720
        // the moves above would push the last rows out of view.
        const bool keysFirst = isSubject(c.ui, SubjectKind::binary);
        // The keys showing another pass's digit (a lesson's question about it): this pass's moves
        // would mix the two passes.
        const bool otherDigit = klo != lo || khi != hi;
        if (moves && !keysFirst && !otherDigit) arrows(c, to);
        subjectSection(c, SubjectKind::binary, [&] {
            if (keyDigit)
                hoveredKey = binaryKeys(c, klo, khi);
            else if (result)
                binaryKeys(c, 0, 0); // sorted: no digit to mark
        });
        if (moves && keysFirst && !otherDigit) {
            startBelowIfShort(5); // the heading and its arrows (4 lines) whole, or below the fold
            arrows(c, to);
        }
        ImGui::TableNextColumn();
    }
    // Which pass the histogram and offsets belong to (OneSweep's "histogram"/"scan" steps: pass 0).
    std::string ofPass;
    if (haveDigit)
        ofPass = ", pass " + std::to_string(step && step->kind != StepKind::histogram ? step->pass : 0) + " (bits " +
                 std::to_string(lo) + ".." + std::to_string(hi - 1) + ")";
    if (replayFirst) {
        drawLookbackReplay(c, replay);
        passLines(c, haveDigit, lo, hi);
    } else {
        drawLookbackReplay(c, replay); // a OneSweep pass with its log: the pass as it happened, first
    }
    // A lesson's open question about the count of the next step's pass: that pass's bits.
    std::optional<std::pair<uint32_t, uint32_t>> asked;
    if (haveDigit && keyDigit && (klo != lo || khi != hi)) asked = std::pair{klo, khi};
    digitSections(c, ofPass, lo, hi, asked);
    if (step && step->kind == StepKind::scatter && haveDigit) {
        if (hoveredKey >= 0)
            explainMove(c, to, uint64_t(hoveredKey));
        else if (small && !c.ui.presentation && !asked) { // a mouse hint: not for a projector's class
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            textWrappedAtSpaces("hover a key in binary: its new index as the scatter builds it");
            ImGui::PopStyleColor();
        }
    }
    if (const Snapshot::Aux* a = s.find(AuxKind::tileCounts); a && !skipped)
        heatMap(c.ui, "tile counts, from the status words (inclusive prefix: keys of the digit in tiles 0..t)", *a,
                "tile", fs * 8, true);
    if (const Snapshot::Aux* a = s.find(AuxKind::tileStatus); a && !skipped)
        subjectSection(c, SubjectKind::tileStatus, [&] { tileStatus(*a, s.find(AuxKind::tileCounts), fs * 12); });
    const Snapshot::Aux* allHist = s.find(AuxKind::allHistograms);
    if (allHist)
        subjectSection(c, SubjectKind::allHistograms, [&] {
            constexpr const char* title = "the histograms of every pass (one read of the keys)";
            if (!passBars(c, title, *allHist, *allHist)) heatMap(c.ui, title, *allHist, "pass", fs * 5, true);
        });
    if (const Snapshot::Aux* a = s.find(AuxKind::allOffsets))
        subjectSection(c, SubjectKind::allOffsets, [&] {
            constexpr const char* title = "the exclusive offsets of every pass: where each digit starts";
            if (!allHist || !passBars(c, title, *a, *allHist))
                heatMap(c.ui, "the exclusive offsets of every pass", *a, "pass", fs * 5, true);
        });
    if (small) ImGui::EndTable();
    ImGui::End();
}

} // namespace sortlab::app
