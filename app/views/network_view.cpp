// The network view (odd-even). n <= 64: Knuth's comparator diagram: one horizontal wire per key,
// comparators as vertical links grouped by layer (merges separated by a wider gap), the layers of
// the current step on a highlighted band, comparators of this step that swapped in orange, the
// input keys at the left and the current GPU keys on the wires in the slot after the band (in a
// lesson's question, also after the layer asked about, which is outlined). Every layer has a slot,
// so the layout never changes with the step. Comparators keep a minimum spacing and every layer its
// number: a network wider than its panel first takes a closer spacing and smaller keys (the 16-key
// network of a lesson fits at 1280x720 in presentation mode), then scrolls under the pinned input
// keys, keeping the current layers (and the layers a lesson's stop names) and their neighbours in
// view. When n is not a power of two, the positions n .. P - 1 of the power-of-two network (P)
// are drawn as dashed wires below the keys, with the comparators that would pair a key with one of
// them dashed: the GPU skips those (no key is stored past n), and a legend inside the diagram says
// so. Larger n: a compact layer map (one cell per layer, merges grouped, the plan's steps bracketed
// below).
//
// Sections, in order: the network's geometry (geometryFor, swapsOfStep); the diagram's layout
// (KeyColumn, DiagramLayout, skippedLegend, diagramLayout); drawing it (scrollToFocus,
// drawBandAndWires, drawComparators, drawWireKeys, drawLegend, questionShown, focusOf,
// drawDiagram); the layer map (drawLayerMap); the window (drawNetworkView).
#include <sortlab/app/views.h>

#include <sortlab/app/view_common.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

namespace sortlab::app {
namespace {

struct Link {
    uint32_t a, b, column; // wires a < b, sub-column within the layer
};
struct Geometry {
    uint64_t n = UINT64_MAX;
    uint64_t padded = 0;                    // P: the power-of-two network the layers come from
    std::vector<std::vector<Link>> layers;  // per layer: the comparators the GPU runs (b < n)
    std::vector<std::vector<Link>> skipped; // per layer: P's comparators with a < n <= b, skipped
    std::vector<float> x0, x1;              // per layer, in units of one sub-column
    float width = 0;
};

// A pure memo of the geometry of n's network (the UI thread asks every frame), so it stays here
// rather than in UiState.
const Geometry& geometryFor(uint64_t n, const std::vector<oddeven::Layer>& layers) {
    static Geometry g;
    if (g.n == n) return g;
    g = Geometry{};
    g.n = n;
    g.padded = uint64_t(1) << oddeven::log2Ceil(n);
    // Layers are separated by the slots of keys between them (DiagramLayout::slotW), so the gaps in
    // sub-columns are small: a quarter between layers, a little more between merges.
    float x = 0.5f;
    uint32_t lastP = UINT32_MAX;
    for (auto& layer : layers) {
        if (lastP != UINT32_MAX && layer.logP != lastP) x += 0.5f; // gap between merges
        lastP = layer.logP;
        // The comparators n's network runs (the library's own list), and the rest of P's network
        // that touches a key: those the GPU skips because one end is past n.
        std::vector<std::pair<uint64_t, uint64_t>> run;
        oddeven::forEachComparator(n, layer, [&](uint64_t a, uint64_t b) { run.push_back({a, b}); });
        std::vector<Link> links, skipped;
        std::vector<uint32_t> columnEnd; // the lowest wire used so far in each sub-column
        oddeven::forEachComparator(g.padded, layer, [&](uint64_t a, uint64_t b) {
            const bool runs = std::binary_search(run.begin(), run.end(), std::pair(a, b));
            if (!runs && a >= n) return; // no key at either end: nothing to show
            uint32_t col = 0;
            while (col < columnEnd.size() && columnEnd[col] >= a) ++col; // overlaps: next column
            if (col == columnEnd.size()) columnEnd.push_back(0);
            columnEnd[col] = uint32_t(b);
            (runs ? links : skipped).push_back({uint32_t(a), uint32_t(b), col});
        });
        g.x0.push_back(x);
        x += float(std::max<size_t>(1, columnEnd.size()));
        g.x1.push_back(x);
        x += 0.25f;
        g.layers.push_back(std::move(links));
        g.skipped.push_back(std::move(skipped));
    }
    g.width = x + 0.25f;
    return g;
}

// Which comparators of the current step swapped: its layers replayed on the previous GPU snapshot.
std::vector<std::vector<bool>> swapsOfStep(const StepData& d, const JobInfo& job, const Step* step, const Geometry& g) {
    std::vector<std::vector<bool>> swapped(g.layers.size());
    if (!step || !d.previous) return swapped;
    const auto& layers = networkLayers(job);
    const uint64_t n = job.settings.n;
    std::vector<uint64_t> bits(n);
    for (uint64_t i = 0; i < n; ++i)
        bits[i] = orderBitsAt(d.previous->keys.data(), i, job.settings.key, job.settings.order);
    for (uint32_t l = step->firstLayer; l < step->firstLayer + step->layerCount && l < layers.size(); ++l) {
        swapped[l].assign(g.layers[l].size(), false);
        for (size_t c = 0; c < g.layers[l].size(); ++c) {
            const Link& k = g.layers[l][c];
            if (bits[k.a] > bits[k.b]) {
                std::swap(bits[k.a], bits[k.b]);
                swapped[l][c] = true;
            }
        }
    }
    return swapped;
}

// A column of keys written on the wires in a gap before layer `at` (after the layers before it): the
// keys of a snapshot, with the ones that step changed marked, or "?" (a question's step not run yet).
struct KeyColumn {
    uint32_t at = 0;
    const Snapshot* keys = nullptr;  // none: "?"
    bool marks = false;              // mark the keys the step shown changed
    std::optional<uint64_t> outline; // a lesson's key, where it is in these keys
};

// Where the comparator diagram's parts go, in pixels: one wire per key, dy apart, then the dashed
// wires of the positions past n (gy apart); the input keys' column (labelW) at the left, pinned
// there when the diagram scrolls; the layers' sub-columns (cw each), each layer followed by a slot
// (slotW) where the keys after it may be written. Every layer has its slot whether keys are written
// there or not, so the layout depends only on the network and the panel, never on the step: the
// diagram does not move between the stops of a lesson, nor between a question and its answer.
// Below the wires the layer numbers, and the legend of the dashed comparators.
struct DiagramLayout {
    ImVec2 o;          // the diagram's top-left corner (in the child window)
    uint64_t n = 0;    // keys (wires 0 .. n - 1); the wires n .. P - 1 are past the end
    float dy = 0;      // wire pitch
    float gy = 0;      // pitch of the wires past n
    bool text = false; // keys written on the wires (the wires are far enough apart)
    float tfs = 0;     // their font size: the font's, or smaller when the wires are close together
    // The layers' and wires' numbers: at this much of tfs, in this colour (presentation: larger and
    // in the text's colour, read from the back of a room).
    float numScale = 0.8f;
    ImU32 numColour = 0;
    ImFont* font = nullptr;
    float labelW = 0, slotW = 0, cw = 0;
    size_t layers = 0;
    float width = 0, height = 0;
    float numbersOff = 0;                 // the top of the layer numbers' row, below o
    float legendOff = 0;                  // the top of the legend, below o
    float legendFs = 0;                   // its font size
    std::string legend;                   // "" when n is a power of two: nothing is skipped
    uint32_t curHi = 0;                   // the end of the current step's layers
    std::vector<KeyColumn> columns;       // the keys written on the wires, each in a gap before layer `at`
    std::optional<uint64_t> inputOutline; // a lesson's key in the input column
    std::optional<uint32_t> askedLayer;   // the layer (0-based) a lesson's question asks about
    ImVec2 textSize(const char* t) const { return font->CalcTextSizeA(tfs, FLT_MAX, 0.0f, t); }
    float wy(uint64_t i) const {
        return i < n ? o.y + dy * (float(i) + 0.5f) : o.y + dy * float(n) + gy * (float(i - n) + 0.5f);
    }
    float lx(float units) const { return o.x + labelW + units * cw; }
    // x of a point in layer l's units: after the slots of the layers before it.
    float lxl(size_t l, float units) const { return lx(units) + slotW * float(l); }
    // The slot after layer l (0-based): where the keys after it are written.
    float slotX(const std::vector<float>& x1, size_t l) const { return lxl(l, x1[l]); }
    float wireEnd() const { return lx(float(unitsWide)) + slotW * float(layers); }
    float scrollX = 0;         // the child window's horizontal scroll
    bool twoLineNoKey = false; // "no key" written on two lines (the column stays narrow)
    float pinnedRight() const { return o.x + scrollX + labelW; } // the pinned column's right edge
    float unitsWide = 0;
    // The layers [focusLo, focusHi) the scroll keeps in view, once for each focusKey.
    uint32_t focusLo = 0, focusHi = 0;
    size_t focusKey = SIZE_MAX;
    float numbersY() const { return o.y + numbersOff; }
    float bandBottom() const { return o.y + numbersOff + dy; } // the wires and the layer numbers
};

// The legend of the dashed comparators, as long as fits on two lines of this width.
std::string skippedLegend(uint64_t n, uint64_t padded, ImFont* font, float size, float width) {
    char range[48];
    if (padded - n == 1)
        std::snprintf(range, sizeof range, "%llu", (unsigned long long)n);
    else
        std::snprintf(range, sizeof range, "%llu to %llu", (unsigned long long)n, (unsigned long long)(padded - 1));
    const std::string texts[] = {
        std::string("dashed: positions ") + range +
            " (past n) and the comparators that would compare a key with "
            "one of them. No key is stored there, so the GPU skips these comparators.",
        std::string("dashed: would compare a key with a position past n (") + range + "): skipped",
        "dashed: past n, skipped",
    };
    for (const std::string& t : texts)
        if (font->CalcTextSizeA(size, FLT_MAX, width, t.c_str()).y <= size * 2.6f) return t;
    return texts[std::size(texts) - 1];
}

DiagramLayout diagramLayout(const JobInfo& job, const Geometry& g, uint32_t curHi, std::vector<KeyColumn> columns,
                            float line, bool presentation) {
    const uint64_t n = job.settings.n;
    DiagramLayout L;
    L.numScale = presentation ? 0.95f : 0.8f;
    L.numColour = presentation ? palette().text : palette().axisLabel;
    L.n = n;
    L.curHi = curHi;
    const float fs = ImGui::GetFontSize();
    L.font = ImGui::GetFont();
    const ImVec2 region = ImGui::GetContentRegionAvail();
    // The positions past n get at most 0.85 of a key's pitch each (their numbers read nearly at the
    // keys' size), and 5.2 pitches in all.
    const uint64_t past = g.padded - n;
    const float pastRows = past ? std::min(0.85f * float(past), 5.2f) : 0.0f;
    float legendH = 0;
    if (past) {
        L.legendFs = fs * 0.85f;
        L.legend = skippedLegend(n, g.padded, L.font, L.legendFs, region.x - fs);
        legendH = L.font->CalcTextSizeA(L.legendFs, FLT_MAX, region.x - fs, L.legend.c_str()).y + fs * 0.4f;
    }
    const float avail = region.y - fs * 0.5f - legendH - 4.0f; // 4: drawDiagram's margin above the wires
    L.dy = std::clamp(avail / (float(n + 1) + pastRows), 6.0f, fs * 1.6f);
    L.gy = past ? L.dy * pastRows / float(past) : 0.0f;
    L.text = L.dy >= 7.0f;
    L.layers = g.layers.size();
    if (L.text) L.columns = std::move(columns);
    // The keys as written (a sort keeps the same keys, so the keys after a step fit where these do).
    std::vector<std::string> keys{"?"};
    for (uint64_t i = 0; i < n; ++i) keys.push_back(formatKey(*job.inputKeys, i, job.settings.key).substr(0, 10));
    // The keys' column and the slots after the layers, at key font size `tfs`, with `pad` pixels
    // between a slot's key box and the layers beside it; what is left of the width for a sub-column.
    auto measure = [&](float tfs, float pad) {
        L.tfs = tfs;
        float labelW = fs * 2;
        if (L.text) {
            // The keys' column: as wide as the widest key and its position, at most as wide as any
            // key of the type.
            const float widest = L.textSize(job.settings.key == KeyType::u32 ? "0000000000" : "-0.000e+00 ").x;
            float keyW = 0;
            for (const std::string& k : keys) keyW = std::max(keyW, L.textSize(k.c_str()).x);
            float keysW = keyW;
            // "no key" beside the dashed rows: on two lines where they are tall enough.
            L.twoLineNoKey = L.gy * float(past) >= L.tfs * L.numScale * 2.3f;
            if (past) keysW = std::max(keysW, L.textSize(L.twoLineNoKey ? "key" : "no key").x * L.numScale);
            const float positionW = L.textSize(std::to_string(g.padded - 1).c_str()).x * L.numScale;
            labelW = std::min(widest, keysW + positionW + L.tfs) + 8;
            // A slot after every layer, as wide as the widest key's box.
            L.slotW = keyW + 6 + pad;
        }
        L.labelW = labelW;
        return (region.x - L.labelW - L.slotW * float(L.layers) - fs * 0.5f) / g.width;
    };
    // A sub-column never narrower than keeps two comparators' dots and lines apart (drawComparators
    // thins them to fit): a network that does not fit its panel at the full spacing and the full key
    // size first takes a closer spacing, then smaller keys (down to 0.68 of the font, still read
    // from the back of a class), and only then scrolls.
    const float minCw = std::max(6.0f, line * 7.5f), closeCw = std::max(6.0f, line * 4.5f);
    if (!L.text) L.slotW = minCw * 0.5f;
    float fitCw = measure(std::min(fs, L.dy * 0.95f), 6);
    if (L.text && fitCw < minCw) fitCw = measure(L.tfs, 2);
    for (int k = 1; L.text && fitCw < closeCw && k <= 9; ++k)
        fitCw = measure(std::min(fs * (1.0f - 0.035f * float(k)), L.dy * 0.95f), 2);
    L.cw = std::clamp(fitCw, closeCw, std::max(minCw, fs * 0.9f));
    L.unitsWide = g.width;
    L.width = L.labelW + g.width * L.cw + L.slotW * float(L.layers) + fs * 0.5f;
    L.numbersOff = L.dy * float(n) + L.gy * float(past) - L.dy * 0.1f;
    L.legendOff = L.numbersOff + L.dy * 1.1f;
    L.height = L.legendOff + legendH;
    return L;
}

// A dashed line from a to b (dash long strokes, gaps of 0.7 dash).
void dashedLine(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col, float thick, float dash) {
    const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
    if (len <= 0) return;
    for (float t = 0; t < len; t += dash * 1.7f) {
        const float e = std::min(len, t + dash);
        dl->AddLine(ImVec2(a.x + dx * t / len, a.y + dy * t / len), ImVec2(a.x + dx * e / len, a.y + dy * e / len), col,
                    thick);
    }
}

// Scrolls, once for each focus, so that the focus layers and the slot after them are in view
// right of the pinned keys' column, moving as little as it can. A question's screen and its
// answer's share one focus, so the diagram stays where it is when the answer comes.
void scrollToFocus(const ViewContext& c, const DiagramLayout& L, const Geometry& g) {
    if (L.focusHi <= L.focusLo || L.focusHi > g.x1.size() || c.views.networkScrolledFor == L.focusKey) return;
    c.views.networkScrolledFor = L.focusKey;
    const float viewW = ImGui::GetWindowWidth(), margin = ImGui::GetFontSize() * 0.5f;
    if (L.width <= viewW) return;
    // In the diagram's own x (0 at its left edge): the focus must lie in [x + labelW, x + viewW).
    const float a = L.lxl(L.focusLo, g.x0[L.focusLo]) - L.o.x - margin - L.labelW;
    const float b = L.slotX(g.x1, L.focusHi - 1) + L.slotW - L.o.x + margin;
    float x = ImGui::GetScrollX();
    if (b > x + viewW) x = b - viewW;
    if (a < x) x = a;
    ImGui::SetScrollX(std::clamp(x, 0.0f, L.width - viewW));
}

// The current step's band, a lesson's layer outlined, the scroll that keeps the current step in
// view when it changes (the diagram can be wider than the window), the wires, and the dashed wires
// of the positions past n.
void drawBandAndWires(const ViewContext& c, const DiagramLayout& L, const Geometry& g, const Step* step,
                      uint32_t curLo) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = palette();
    const uint32_t curHi = L.curHi;
    if (step && curHi > curLo && curHi <= g.x1.size()) {
        const float x0 = L.lxl(curLo, g.x0[curLo] - 0.2f), x1 = L.lxl(curHi - 1, g.x1[curHi - 1] + 0.2f);
        dl->AddRectFilled(ImVec2(x0, L.o.y), ImVec2(x1, L.bandBottom()), pal.stepBand, 4.0f);
    }
    // A lesson points at a layer (1-based), or its question asks about one.
    std::optional<uint64_t> mark = highlighted(c.ui, HighlightKind::layer);
    if (!mark && L.askedLayer) mark = *L.askedLayer + 1;
    if (mark && *mark >= 1 && *mark <= g.x1.size()) {
        const size_t l = size_t(*mark - 1);
        // Down to the layer numbers, not over them: a narrow layer's frame would cross its number,
        // which drawComparators writes in the highlight colour instead.
        const ImVec2 a(L.lxl(l, g.x0[l] - 0.25f), L.o.y - 2), b(L.lxl(l, g.x1[l] + 0.25f), L.numbersY() - 1);
        dl->AddRect(a, b, pal.highlight, 4.0f, 0, 2.5f * c.line);
        noteVisible(c.ui, ProbeItem::highlight, a, b);
    }
    const float wireEnd = L.wireEnd();
    scrollToFocus(c, L, g);
    for (uint64_t i = 0; i < g.padded; ++i) {
        if (i < L.n)
            dl->AddLine(ImVec2(L.lx(0), L.wy(i)), ImVec2(wireEnd, L.wy(i)), pal.wire, c.line);
        else
            dashedLine(dl, ImVec2(L.lx(0), L.wy(i)), ImVec2(wireEnd, L.wy(i)), pal.comparatorSkipped, c.line,
                       L.cw * 0.5f);
    }
}

// The comparators, layer by layer (done, current, still to run; the current step's swaps in the
// swap colour; those past n dashed, a lesson's key's in the outline colour), and each layer's
// number (from 1, as lessons count them) below the wires.
void drawComparators(const ViewContext& c, const DiagramLayout& L, const Geometry& g, const Step* step,
                     uint32_t curLo) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = palette();
    const StepData& d = *c.v.data;
    const auto swapped = swapsOfStep(d, c.v.job, step, g);
    // Lines and dots thin enough that two comparators a sub-column apart never touch.
    const float dot =
        std::min(std::max(2.0f, std::min(L.dy * 0.18f, L.cw * 0.3f)) * (c.line > 1 ? 1.3f : 1.0f), L.cw * 0.32f);
    const float thin = std::min(c.line * 2.0f, L.cw * 0.36f), thick = std::min(c.line * 3.5f, L.cw * 0.55f);
    const auto markedKey = highlighted(c.ui, HighlightKind::key);
    const auto markedLayer = highlighted(c.ui, HighlightKind::layer); // 1-based
    float numberEnd = -FLT_MAX;                                       // where the last layer number drawn ends
    for (size_t l = 0; l < g.layers.size(); ++l) {
        const bool isCurrent = l >= curLo && l < L.curHi && step;
        const bool isDone = l < d.layersDone;
        const ImU32 col = isCurrent ? pal.comparatorCurrent : isDone ? pal.comparatorDone : pal.comparatorPending;
        for (size_t k = 0; k < g.layers[l].size(); ++k) {
            const Link& link = g.layers[l][k];
            const float x = L.lxl(l, g.x0[l] + float(link.column) + 0.5f);
            ImU32 lc = col;
            float w = thin;
            if (isCurrent && !swapped[l].empty() && swapped[l][k]) {
                lc = pal.swap;
                w = thick;
            }
            dl->AddLine(ImVec2(x, L.wy(link.a)), ImVec2(x, L.wy(link.b)), lc, w);
            dl->AddCircleFilled(ImVec2(x, L.wy(link.a)), dot, lc);
            dl->AddCircleFilled(ImVec2(x, L.wy(link.b)), dot, lc);
        }
        // Skipped: a dot on the key's wire, an empty ring on the position past n. A lesson's key
        // marks its skipped comparator only in the layers the stop is about (the step shown, the
        // layer asked about, highlighted or named in its text), not in layers the text never mentions;
        // outside a lesson, in every layer.
        const bool named =
            c.ui.lesson.lesson && std::binary_search(c.ui.lesson.layers.begin(), c.ui.lesson.layers.end(), uint32_t(l));
        const bool aboutLayer = !c.ui.lesson.lesson || isCurrent || named || (L.askedLayer && *L.askedLayer == l) ||
                                (markedLayer && *markedLayer == l + 1);
        for (const Link& link : g.skipped[l]) {
            const bool marked = aboutLayer && markedKey && *markedKey == link.a;
            const ImU32 lc = marked ? pal.highlight : pal.comparatorSkipped;
            const float x = L.lxl(l, g.x0[l] + float(link.column) + 0.5f);
            const float w = std::min(c.line * (marked ? 2.5f : 1.5f), L.cw * (marked ? 0.45f : 0.3f));
            const ImVec2 a(x, L.wy(link.a)), b(x, L.wy(link.b));
            dashedLine(dl, a, b, lc, w, std::max(3.0f, L.dy * 0.25f));
            dl->AddCircleFilled(a, dot, lc);
            dl->AddCircle(b, dot, lc, 0, c.line * 1.5f);
            if (marked) noteVisible(c.ui, ProbeItem::highlight, ImVec2(x - dot, a.y - dot), ImVec2(x + dot, b.y + dot));
        }
        // A layer the lesson's stop names: all of it (and its number) must be in view.
        if (std::binary_search(c.ui.lesson.layers.begin(), c.ui.lesson.layers.end(), uint32_t(l)) && c.ui.lesson.lesson)
            noteLayer(c.ui, ImVec2(L.lxl(l, g.x0[l]), L.o.y), ImVec2(L.lxl(l, g.x1[l]), L.bandBottom()),
                      L.pinnedRight());
        // The layer's number, centred under it, where it clears the number before it.
        char num[24];
        std::snprintf(num, sizeof num, "%zu", l + 1);
        const float mid = (L.lxl(l, g.x0[l]) + L.lxl(l, g.x1[l])) / 2, nw = L.textSize(num).x * L.numScale;
        if (L.text && mid - nw / 2 > numberEnd + L.tfs * 0.3f && mid - nw / 2 >= L.pinnedRight()) {
            const bool framed = markedLayer ? *markedLayer == l + 1 : L.askedLayer && *L.askedLayer == l;
            drawLabel(c.ui, dl, L.font, L.tfs * L.numScale, ImVec2(mid - nw / 2, L.numbersY()),
                      framed ? pal.highlight : L.numColour, num);
            numberEnd = mid + nw / 2;
        }
    }
}

// The input keys on the left (and each wire's position, where there is room: lessons and questions
// speak of positions; a lesson's key outlined), the positions past n under the keys, and the
// current GPU keys just after the current step's band.
void drawWireKeys(const ViewContext& c, const DiagramLayout& L, const Geometry& g) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = palette();
    const StepData& d = *c.v.data;
    const JobInfo& job = c.v.job;
    const uint64_t n = job.settings.n;
    std::vector<bool> changed = changedIndices(d, n, job.settings.key);
    // The keys in the slots (behind the pinned column when scrolled: left out).
    for (uint64_t i = 0; i < n; ++i)
        for (const KeyColumn& col : L.columns) {
            if (col.at == 0 || col.at > g.x1.size()) continue;
            std::string cur = col.keys ? keyText(*col.keys, i, job.settings.key) : "?";
            if (cur.size() > 10) cur = cur.substr(0, 10);
            const ImVec2 ts = L.textSize(cur.c_str());
            const float x = L.slotX(g.x1, col.at - 1) + (L.slotW - ts.x - 6) / 2;
            if (x < L.pinnedRight()) continue;
            const ImVec2 b0(x, L.wy(i) - ts.y / 2 - 1), b1(x + ts.x + 6, L.wy(i) + ts.y / 2 + 1);
            dl->AddRectFilled(b0, b1, col.marks && changed[i] ? pal.keyBoxChanged : pal.keyBox, 3.0f);
            drawLabel(c.ui, dl, L.font, L.tfs, ImVec2(x + 3, L.wy(i) - ts.y / 2), pal.keyBoxText, cur.c_str());
            if (col.outline == i && col.keys) {
                dl->AddRect(b0, b1, pal.highlight, 3.0f, 0, 2.0f * c.line);
                noteVisible(c.ui, ProbeItem::highlight, b0, b1);
            }
        }
    // The pinned column: the input keys and their positions, over a panel-coloured background.
    const float left = L.o.x + L.scrollX;
    dl->AddRectFilled(ImVec2(left - 2, L.o.y - 4), ImVec2(L.pinnedRight(), L.bandBottom()),
                      ImGui::GetColorU32(ImGuiCol_WindowBg) | IM_COL32_A_MASK);
    if (L.scrollX > 0) // the layers scrolled under it: an edge says so
        dl->AddLine(ImVec2(L.pinnedRight(), L.o.y - 4), ImVec2(L.pinnedRight(), L.bandBottom()), pal.mergeLine, c.line);
    for (uint64_t i = 0; i < n; ++i) {
        std::string inText = formatKey(*job.inputKeys, i, job.settings.key);
        if (inText.size() > 10) inText = inText.substr(0, 10);
        ImVec2 ts = L.textSize(inText.c_str());
        const ImVec2 in(left + L.labelW - ts.x - 4, L.wy(i) - ts.y / 2);
        drawLabel(c.ui, dl, L.font, L.tfs, in, pal.inputKey, inText.c_str());
        const std::string at = std::to_string(i);
        if (const ImVec2 as = L.textSize(at.c_str()); as.x * L.numScale + ts.x + L.tfs < L.labelW - 4)
            drawLabel(c.ui, dl, L.font, L.tfs * L.numScale, ImVec2(left + 2, L.wy(i) - as.y * L.numScale / 2),
                      L.numColour, at.c_str());
        if (L.inputOutline == i) {
            const ImVec2 a(in.x - 3, in.y - 1), b(in.x + ts.x + 3, in.y + ts.y + 1);
            dl->AddRect(a, b, pal.highlight, 3.0f, 0, 2.0f * c.line);
            noteVisible(c.ui, ProbeItem::highlight, a, b);
        }
    }
    // The positions past n: their numbers where the rows are far enough apart (else the first and
    // the last), and "no key" in the keys' column.
    const float pfs = std::min(L.tfs * L.numScale, L.gy * 1.05f);
    for (uint64_t i = n; i < g.padded; ++i) {
        if (pfs < L.tfs * 0.6f && i != n && i + 1 != g.padded) continue;
        const std::string at = std::to_string(i);
        const float fsz = std::max(pfs, L.tfs * 0.6f);
        const ImVec2 as = L.font->CalcTextSizeA(fsz, FLT_MAX, 0.0f, at.c_str());
        dl->AddText(L.font, fsz, ImVec2(left + 2, L.wy(i) - as.y * 0.5f), L.numColour, at.c_str());
    }
    if (g.padded > n) {
        const char* none = L.twoLineNoKey ? "no\nkey" : "no key";
        const ImVec2 ns = L.font->CalcTextSizeA(L.tfs * L.numScale, FLT_MAX, 0.0f, none);
        const float y = (L.wy(n) + L.wy(g.padded - 1)) / 2 - ns.y / 2;
        dl->AddText(L.font, L.tfs * L.numScale, ImVec2(left + L.labelW - ns.x - 4, y), L.numColour, none);
    }
}

// The legend of the dashed comparators, at the left of the visible part of the diagram.
void drawLegend(const DiagramLayout& L) {
    if (L.legend.empty()) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float x = L.o.x + ImGui::GetScrollX() + 2, wrap = ImGui::GetWindowWidth() - ImGui::GetFontSize();
    dl->AddText(L.font, L.legendFs, ImVec2(x, L.o.y + L.legendOff), palette().axisLabel, L.legend.c_str(), nullptr,
                wrap);
}

// The step a lesson's graded question is about follows the one its stop shows; while either is on
// screen: the step the stop shows.
std::optional<size_t> questionShown(const ViewContext& c) {
    const auto& lu = c.ui.lesson;
    if (!lu.lesson || lu.pending || lu.stop >= lu.lesson->stops.size() || !c.v.job.plan) return std::nullopt;
    const auto& q = lu.lesson->stops[lu.stop].question;
    const size_t shown = lu.shownStep, step = c.v.data->step;
    if (!q || !graded(q->kind) || shown + 1 > c.v.job.plan->steps.size() || (step != shown && step != shown + 1))
        return std::nullopt;
    return shown;
}

// The columns of keys on the wires and the layers the scroll keeps in view. A lesson's graded
// question: the keys after the step the stop shows and after the step asked about ("?" until it
// has run), the same columns and focus on the question's screen and the answer's. Otherwise the
// keys after the current step, and the focus its layers and their neighbours.
struct Focus {
    std::vector<KeyColumn> columns;
    std::optional<uint64_t> inputOutline;
    std::optional<uint32_t> asked; // the layer a graded question asks about (a step of one layer)
    uint32_t lo = 0, hi = 0;
    size_t key = 0;
};
// A lesson's @highlight layer and the layers its stop names join the focus (and the scroll moves
// when they change).
void focusHighlightedLayer(const ViewContext& c, Focus& f, uint32_t layers) {
    auto join = [&](uint32_t l) {
        f.lo = std::min(f.lo, l);
        f.hi = std::max(f.hi, l + 1);
        f.key ^= size_t(l + 1) << 40;
    };
    if (const auto mark = highlighted(c.ui, HighlightKind::layer); mark && *mark >= 1 && *mark <= layers)
        join(uint32_t(*mark - 1));
    if (c.ui.lesson.lesson)
        for (uint32_t l : c.ui.lesson.layers)
            if (l < layers) join(l);
}
Focus focusOf(const ViewContext& c, uint32_t curLo, uint32_t curHi, uint32_t layers) {
    const StepData& d = *c.v.data;
    Focus f;
    const auto marked = highlighted(c.ui, HighlightKind::key); // after a `where` answer: where the key went
    f.inputOutline = marked;
    if (const auto shown = questionShown(c)) {
        const auto& steps = c.v.job.plan->steps;
        auto endOf = [&](size_t k) { return k == 0 ? 0u : steps[k - 1].firstLayer + steps[k - 1].layerCount; };
        const bool answered = d.step == *shown + 1;
        const Highlight& h = c.ui.lesson.lesson->stops[c.ui.lesson.stop].highlight; // where the stop pointed
        const auto before = h.kind == HighlightKind::key ? std::optional<uint64_t>(h.index) : std::nullopt;
        // The input column holds the keys before the sort, not those at the stop's step: the key
        // asked about is outlined in the slot of the keys the stop shows.
        f.inputOutline = std::nullopt;
        if (*shown >= 1)
            f.columns.push_back(
                {endOf(*shown), answered ? d.previous.get() : d.snapshot.get(), !answered, answered ? before : marked});
        f.columns.push_back(
            {endOf(*shown + 1), answered ? d.snapshot.get() : nullptr, answered, answered ? marked : std::nullopt});
        if (steps[*shown].layerCount == 1) f.asked = steps[*shown].firstLayer;
        f.lo = *shown >= 1 ? steps[*shown - 1].firstLayer : 0;
        f.hi = std::min(layers, endOf(*shown + 1));
        f.key = (size_t(1) << 62) | (c.ui.lesson.stop << 32) | *shown;
        focusHighlightedLayer(c, f, layers);
        return f;
    }
    if (d.step >= 1 && curHi >= 1) f.columns.push_back({curHi, d.snapshot.get(), true, marked});
    f.lo = curLo > 0 ? curLo - 1 : 0;
    f.hi = std::min(layers, std::max(curHi, 1u) + 1);
    f.key = d.step;
    focusHighlightedLayer(c, f, layers);
    return f;
}

void drawDiagram(const ViewContext& c) {
    const JobInfo& job = c.v.job;
    const auto& layers = networkLayers(job);
    const Geometry& g = geometryFor(job.settings.n, layers);
    const Step* step = currentStep(c.v);
    const uint32_t curLo = step ? step->firstLayer : 0, curHi = step ? step->firstLayer + step->layerCount : 0;
    const Focus f = focusOf(c, curLo, curHi, uint32_t(g.layers.size()));
    DiagramLayout L = diagramLayout(job, g, curHi, f.columns, c.line, c.ui.presentation);
    L.inputOutline = f.inputOutline;
    L.focusLo = f.lo, L.focusHi = f.hi, L.focusKey = f.key;
    L.askedLayer = f.asked;

    ImGui::BeginChild("##diagram", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    // A few pixels above the first wire, for the outline of a lesson's layer.
    constexpr float kTop = 4.0f;
    L.o = ImGui::GetCursorScreenPos();
    L.o.y += kTop;
    ImGui::Dummy(ImVec2(L.width, L.height + kTop));
    L.scrollX = ImGui::GetScrollX();
    { // a lesson's @subject network: all the wires in view, top to bottom (the layers scroll sideways)
        const float x = ImGui::GetWindowPos().x + ImGui::GetStyle().WindowPadding.x;
        noteSubject(c.ui, SubjectKind::network, ImVec2(x, L.o.y), ImVec2(x + 1, L.o.y + L.height));
    }
    // The layers pass under the pinned keys' column when the diagram scrolls.
    ImGui::GetWindowDrawList()->PushClipRect(ImVec2(L.pinnedRight(), -FLT_MAX / 4), ImVec2(FLT_MAX / 4, FLT_MAX / 4),
                                             true);
    drawBandAndWires(c, L, g, step, curLo);
    drawComparators(c, L, g, step, curLo);
    ImGui::GetWindowDrawList()->PopClipRect();
    if (L.text) drawWireKeys(c, L, g);
    drawLegend(L);
    // Tooltip: the layer under the mouse (from 1, as the numbers under the layers).
    if (ImGui::IsWindowHovered()) {
        float mx = ImGui::GetIO().MousePos.x;
        for (size_t l = 0; l < g.layers.size(); ++l)
            if (mx >= L.lxl(l, g.x0[l]) && mx < L.lxl(l, g.x1[l])) {
                ImGui::SetTooltip("layer %zu: merge runs of %u into %u, stride %u, %zu comparators%s", l + 1,
                                  1u << layers[l].logP, 2u << layers[l].logP, 1u << layers[l].logK, g.layers[l].size(),
                                  g.skipped[l].empty() ? ""
                                                       : (" (" + std::to_string(g.skipped[l].size()) +
                                                          " more, dashed, would touch a position past n)")
                                                             .c_str());
                break;
            }
    }
    ImGui::EndChild();
}

void drawLayerMap(const ViewContext& c) {
    const auto& v = c.v;
    const JobInfo& job = v.job;
    const auto& layers = networkLayers(job);
    const Step* step = currentStep(v);
    const uint64_t done = v.data->layersDone;
    const size_t L = layers.size();
    if (L == 0) return;
    wrappedf("%zu layers in %u merges (n = %llu is too large for a comparator diagram; it is drawn up to "
             "n = 64). One cell per layer: done, current step, still to run; the taller, the farther apart "
             "its comparators' keys (stride), within its merge.",
             L, layers.back().logP + 1, (unsigned long long)job.settings.n);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    const float fs = ImGui::GetFontSize();
    const float cell = std::max(2.0f, (w - 4) / float(L));
    const float h = std::max(fs * 2.2f, ImGui::GetContentRegionAvail().y * 0.45f);
    const float top = o.y + fs * 1.3f;
    const Palette& pal = palette();
    uint32_t lastP = UINT32_MAX;
    for (size_t l = 0; l < L; ++l) {
        const float x0 = o.x + cell * float(l), x1 = x0 + std::max(1.0f, cell - 1);
        const bool cur = step && l >= step->firstLayer && l < step->firstLayer + step->layerCount;
        const ImU32 col = cur ? pal.layerCurrent : l < done ? pal.layerDone : pal.layerPending;
        // Taller cells for larger strides: the shape of each merge is visible.
        const float frac = 0.35f + 0.65f * float(layers[l].logK + 1) / float(layers[l].logP + 1);
        dl->AddRectFilled(ImVec2(x0, top + h * (1 - frac)), ImVec2(x1, top + h), col);
        if (c.ui.lesson.lesson && std::binary_search(c.ui.lesson.layers.begin(), c.ui.lesson.layers.end(), uint32_t(l)))
            noteLayer(c.ui, ImVec2(x0, top), ImVec2(x1, top + h), -FLT_MAX); // a layer the stop names
        if (layers[l].logP != lastP) {
            lastP = layers[l].logP;
            char buf[32];
            std::snprintf(buf, sizeof buf, "%u", 2u << layers[l].logP);
            // Label each merge when there is room for it.
            const float mergeW = cell * float(layers[l].logP + 1);
            if (ImGui::CalcTextSize(buf).x < mergeW - 0.3f * ImGui::GetFontSize())
                drawLabel(c.ui, dl, ImVec2(x0, o.y), pal.axisLabel, buf);
            dl->AddLine(ImVec2(x0 - 0.5f, o.y), ImVec2(x0 - 0.5f, top + h), pal.mergeLine);
        }
    }
    // The plan's steps as brackets below the cells, thick enough to see from the back of a room,
    // apart by a pixel so that two steps side by side read as two.
    const float by = top + h + 4, bh = std::max(8.0f, fs * 0.5f), bw = std::max(2.0f, 2.0f * c.line);
    const auto& steps = job.plan->steps;
    for (size_t i = 0; i < steps.size(); ++i) {
        const float x0 = o.x + cell * float(steps[i].firstLayer);
        const float x1 = std::max(x0, o.x + cell * float(steps[i].firstLayer + steps[i].layerCount) - 1 - bw);
        const bool cur = v.data->step == i + 1;
        const ImU32 col = cur ? pal.layerCurrent : pal.bracket;
        dl->AddRectFilled(ImVec2(x0, by), ImVec2(x0 + bw, by + bh), col);
        dl->AddRectFilled(ImVec2(x0, by + bh - bw), ImVec2(x1 + bw, by + bh), col);
        dl->AddRectFilled(ImVec2(x1, by), ImVec2(x1 + bw, by + bh), col);
    }
    ImGui::Dummy(ImVec2(w, (by + bh + 4) - o.y));
    if (ImGui::IsItemHovered()) {
        size_t l = std::min(L - 1, size_t((ImGui::GetIO().MousePos.x - o.x) / cell));
        ImGui::SetTooltip("layer %zu: merge %u, stride %u, %llu comparators", l + 1, 2u << layers[l].logP,
                          1u << layers[l].logK,
                          (unsigned long long)oddeven::comparatorsInLayer(job.settings.n, layers[l]));
    }
    ImGui::Text("plan: %zu steps (brackets: the layers each GPU step runs)", steps.size());
}

} // namespace

void drawNetworkView(const ViewContext& c, bool* open) {
    if (!beginView("Network", c.ui.presentation, open)) return;
    const auto& v = c.v;
    if (!v.data || !v.data->snapshot || !v.job.plan) {
        ImGui::TextDisabled("waiting for the GPU...");
    } else if (v.job.settings.algorithm() != Algorithm::oddeven) {
        ImGui::TextDisabled("The network view belongs to the odd-even sort.");
    } else if (v.job.settings.n < 2) {
        ImGui::TextDisabled("n < 2: the network has no comparators.");
    } else if (v.job.settings.n <= 64) {
        drawDiagram(c);
    } else {
        drawLayerMap(c);
    }
    ImGui::End();
}

} // namespace sortlab::app
