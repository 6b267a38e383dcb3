// The network view (odd-even). n <= 64: Knuth's comparator diagram: one horizontal wire per key,
// comparators as vertical links grouped by layer (merges separated by a wider gap), the layers of
// the current step on a highlighted band, comparators of this step that swapped in orange, the
// input keys at the left and the current GPU keys on the wires after the band. Larger n: a
// compact layer map (one cell per layer, merges grouped, the plan's steps bracketed below).
#include <sortlab/app/views.h>

#include <sortlab/app/view_common.h>

#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <cstring>

namespace sortlab::app {
namespace {

struct Link {
    uint32_t a, b, column; // wires a < b, sub-column within the layer
};
struct Geometry {
    uint64_t n = UINT64_MAX;
    std::vector<std::vector<Link>> layers; // per layer
    std::vector<float> x0, x1;             // per layer, in units of one sub-column
    float width = 0;
};

// A pure memo of the geometry of n's network (the UI thread asks every frame), so it stays here
// rather than in UiState.
const Geometry& geometryFor(uint64_t n, const std::vector<oddeven::Layer>& layers) {
    static Geometry g;
    if (g.n == n) return g;
    g = Geometry{};
    g.n = n;
    float x = 1.0f;
    uint32_t lastP = UINT32_MAX;
    for (auto& layer : layers) {
        if (lastP != UINT32_MAX && layer.logP != lastP) x += 1.0f; // gap between merges
        lastP = layer.logP;
        std::vector<Link> links;
        std::vector<uint32_t> columnEnd; // the lowest wire used so far in each sub-column
        oddeven::forEachComparator(n, layer, [&](uint64_t a, uint64_t b) {
            uint32_t col = 0;
            while (col < columnEnd.size() && columnEnd[col] >= a) ++col; // overlaps: next column
            if (col == columnEnd.size()) columnEnd.push_back(0);
            columnEnd[col] = uint32_t(b);
            links.push_back({uint32_t(a), uint32_t(b), col});
        });
        g.x0.push_back(x);
        x += float(std::max<size_t>(1, columnEnd.size()));
        g.x1.push_back(x);
        x += 0.6f;
        g.layers.push_back(std::move(links));
    }
    g.width = x + 1.0f;
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

// Where the comparator diagram's parts go, in pixels: one wire per key, dy apart; the input keys'
// column (labelW) at the left; the layers' sub-columns (cw each); and a gap after the current step
// (gapPx), where the keys now are written.
struct DiagramLayout {
    ImVec2 o;          // the diagram's top-left corner (in the child window)
    float dy = 0;      // wire pitch
    bool text = false; // keys written on the wires (the wires are far enough apart)
    float tfs = 0;     // their font size: the font's, or smaller when the wires are close together
    ImFont* font = nullptr;
    float labelW = 0, gapPx = 0, cw = 0;
    float width = 0, height = 0;
    uint32_t curHi = 0; // the layers from curHi on are drawn after the gap
    ImVec2 textSize(const char* t) const { return font->CalcTextSizeA(tfs, FLT_MAX, 0.0f, t); }
    float wy(uint64_t i) const { return o.y + dy * (float(i) + 0.5f); }
    float lx(float units) const { return o.x + labelW + units * cw; }
    // x of a point in layer l's units: layers after the current step move right by the gap.
    float lxl(size_t l, float units) const { return lx(units) + (gapPx > 0 && l >= curHi ? gapPx : 0.0f); }
};

DiagramLayout diagramLayout(const JobInfo& job, const Geometry& g, const Step* step, uint32_t curHi) {
    const uint64_t n = job.settings.n;
    DiagramLayout L;
    L.curHi = curHi;
    const float fs = ImGui::GetFontSize();
    const ImVec2 region = ImGui::GetContentRegionAvail();
    const float avail = region.y - fs * 0.5f;
    L.dy = std::clamp(avail / float(n + 1), 6.0f, fs * 1.6f);
    L.text = L.dy >= 7.0f;
    L.tfs = std::min(fs, L.dy * 0.95f);
    L.font = ImGui::GetFont();
    L.labelW = L.text ? L.textSize(job.settings.key == KeyType::u32 ? "0000000000" : "-0.000e+00 ").x + 8 : fs * 2;
    // The diagram opens after the current step to show the keys on the wires there.
    L.gapPx = step && curHi <= g.x1.size() && L.text ? L.labelW + 4 : 0.0f;
    L.cw = std::clamp((region.x - 2 * L.labelW - L.gapPx - fs) / g.width, 6.0f, std::max(8.0f, fs * 0.9f));
    L.width = L.labelW + g.width * L.cw + L.gapPx + fs;
    L.height = L.dy * float(n + 1);
    return L;
}

// The current step's band, a lesson's layer outlined, the scroll that keeps the current step in
// view when it changes (the diagram can be wider than the window), and the wires.
void drawBandAndWires(const ViewContext& c, const DiagramLayout& L, const Geometry& g, const Step* step,
                      uint32_t curLo) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = palette();
    const uint32_t curHi = L.curHi;
    if (step && curHi > curLo && curHi <= g.x1.size()) {
        const float x0 = L.lx(g.x0[curLo] - 0.3f), x1 = L.lx(g.x1[curHi - 1] + 0.3f);
        dl->AddRectFilled(ImVec2(x0, L.o.y), ImVec2(x1, L.o.y + L.height), pal.stepBand, 4.0f);
    }
    if (const auto mark = highlighted(c.ui, HighlightKind::layer); mark && *mark >= 1 && *mark <= g.x1.size()) {
        const size_t l = size_t(*mark - 1); // a lesson points at this layer (1-based)
        const ImVec2 a(L.lxl(l, g.x0[l] - 0.4f), L.o.y - 2), b(L.lxl(l, g.x1[l] + 0.4f), L.o.y + L.height + 2);
        dl->AddRect(a, b, pal.highlight, 4.0f, 0, 2.5f * c.line);
        noteVisible(c.ui, ProbeItem::highlight, a, b);
    }
    const float wireEnd = L.lx(g.width) + L.gapPx;
    const size_t shown = c.v.data->step;
    if (step && curHi <= g.x1.size() && c.views.networkScrolledFor != shown) {
        c.views.networkScrolledFor = shown;
        const float bandMid = (L.lx(g.x0[curLo]) + L.lx(g.x1[curHi - 1])) / 2 - L.o.x;
        const float viewW = ImGui::GetWindowWidth();
        if (L.width > viewW) ImGui::SetScrollX(std::clamp(bandMid - viewW * 0.4f, 0.0f, L.width - viewW));
    }
    for (uint64_t i = 0; i < c.v.job.settings.n; ++i)
        dl->AddLine(ImVec2(L.lx(0), L.wy(i)), ImVec2(wireEnd, L.wy(i)), pal.wire, c.line);
}

// The comparators, layer by layer (done, current, still to run; the current step's swaps in the
// swap colour), and each layer's number (from 1, as lessons count them) below the wires.
void drawComparators(const ViewContext& c, const DiagramLayout& L, const Geometry& g, const Step* step,
                     uint32_t curLo) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = palette();
    const StepData& d = *c.v.data;
    const uint64_t n = c.v.job.settings.n;
    const auto swapped = swapsOfStep(d, c.v.job, step, g);
    const float dot = std::max(2.0f, std::min(L.dy * 0.18f, L.cw * 0.3f)) * (c.line > 1 ? 1.3f : 1.0f);
    for (size_t l = 0; l < g.layers.size(); ++l) {
        const bool isCurrent = l >= curLo && l < L.curHi && step;
        const bool isDone = l < d.layersDone;
        const ImU32 col = isCurrent ? pal.comparatorCurrent : isDone ? pal.comparatorDone : pal.comparatorPending;
        for (size_t k = 0; k < g.layers[l].size(); ++k) {
            const Link& link = g.layers[l][k];
            const float x = L.lxl(l, g.x0[l] + float(link.column) + 0.5f);
            ImU32 lc = col;
            float thick = c.line * 2.0f;
            if (isCurrent && !swapped[l].empty() && swapped[l][k]) {
                lc = pal.swap;
                thick = c.line * 3.5f;
            }
            dl->AddLine(ImVec2(x, L.wy(link.a)), ImVec2(x, L.wy(link.b)), lc, thick);
            dl->AddCircleFilled(ImVec2(x, L.wy(link.a)), dot, lc);
            dl->AddCircleFilled(ImVec2(x, L.wy(link.b)), dot, lc);
        }
        char num[24];
        std::snprintf(num, sizeof num, "%zu", l + 1);
        const float mid = (L.lxl(l, g.x0[l]) + L.lxl(l, g.x1[l])) / 2, nw = L.textSize(num).x;
        if (L.text && nw < (L.lxl(l, g.x1[l]) - L.lxl(l, g.x0[l])) + L.cw * 0.8f)
            drawLabel(c.ui, dl, L.font, L.tfs * 0.8f, ImVec2(mid - nw * 0.4f, L.o.y + L.dy * (float(n) - 0.1f)),
                      pal.axisLabel, num);
    }
}

// The input keys on the left (and each wire's position, where there is room: lessons and questions
// speak of positions), and the current GPU keys just after the current step's band.
void drawWireKeys(const ViewContext& c, const DiagramLayout& L, const Geometry& g, const Step* step) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = palette();
    const StepData& d = *c.v.data;
    const JobInfo& job = c.v.job;
    const uint64_t n = job.settings.n;
    const Snapshot& s = *d.snapshot;
    std::vector<bool> changed = changedIndices(d, n, job.settings.key);
    for (uint64_t i = 0; i < n; ++i) {
        std::string inText = formatKey(*job.inputKeys, i, job.settings.key);
        if (inText.size() > 10) inText = inText.substr(0, 10);
        ImVec2 ts = L.textSize(inText.c_str());
        drawLabel(c.ui, dl, L.font, L.tfs, ImVec2(L.o.x + L.labelW - ts.x - 4, L.wy(i) - ts.y / 2), pal.inputKey,
                  inText.c_str());
        const std::string at = std::to_string(i);
        if (const ImVec2 as = L.textSize(at.c_str()); as.x + ts.x + L.tfs < L.labelW - 4)
            drawLabel(c.ui, dl, L.font, L.tfs * 0.8f, ImVec2(L.o.x + 2, L.wy(i) - as.y * 0.4f), pal.axisLabel,
                      at.c_str());
        if (!step || L.curHi > g.x1.size()) continue; // the input: the left column shows it
        std::string cur = keyText(s, i, job.settings.key);
        if (cur.size() > 10) cur = cur.substr(0, 10);
        ts = L.textSize(cur.c_str());
        const float x = L.lx(g.x1[L.curHi - 1] + 0.5f);
        ImVec2 b0(x, L.wy(i) - ts.y / 2 - 1), b1(x + ts.x + 6, L.wy(i) + ts.y / 2 + 1);
        dl->AddRectFilled(b0, b1, changed[i] ? pal.keyBoxChanged : pal.keyBox, 3.0f);
        drawLabel(c.ui, dl, L.font, L.tfs, ImVec2(x + 3, L.wy(i) - ts.y / 2), pal.keyBoxText, cur.c_str());
    }
}

void drawDiagram(const ViewContext& c) {
    const JobInfo& job = c.v.job;
    const auto& layers = networkLayers(job);
    const Geometry& g = geometryFor(job.settings.n, layers);
    const Step* step = currentStep(c.v);
    const uint32_t curLo = step ? step->firstLayer : 0, curHi = step ? step->firstLayer + step->layerCount : 0;
    DiagramLayout L = diagramLayout(job, g, step, curHi);

    ImGui::BeginChild("##diagram", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    L.o = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(L.width, L.height));
    drawBandAndWires(c, L, g, step, curLo);
    drawComparators(c, L, g, step, curLo);
    if (L.text) drawWireKeys(c, L, g, step);
    // Tooltip: the layer under the mouse.
    if (ImGui::IsWindowHovered()) {
        float mx = ImGui::GetIO().MousePos.x;
        for (size_t l = 0; l < g.layers.size(); ++l)
            if (mx >= L.lxl(l, g.x0[l]) && mx < L.lxl(l, g.x1[l])) {
                ImGui::SetTooltip("layer %zu: merge runs of %u into %u, stride %u, %zu comparators", l,
                                  1u << layers[l].logP, 2u << layers[l].logP, 1u << layers[l].logK, g.layers[l].size());
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
                       "n = 64). One cell per layer: done, current step, still to run.",
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
    // The plan's steps as brackets below the cells.
    const float by = top + h + 4;
    const auto& steps = job.plan->steps;
    for (size_t i = 0; i < steps.size(); ++i) {
        const float x0 = o.x + cell * float(steps[i].firstLayer);
        const float x1 = o.x + cell * float(steps[i].firstLayer + steps[i].layerCount) - 1;
        const bool cur = v.data->step == i + 1;
        const ImU32 col = cur ? pal.layerCurrent : pal.bracket;
        dl->AddLine(ImVec2(x0, by), ImVec2(x0, by + 6), col, c.line);
        dl->AddLine(ImVec2(x0, by + 6), ImVec2(std::max(x0, x1), by + 6), col, c.line);
        dl->AddLine(ImVec2(std::max(x0, x1), by), ImVec2(std::max(x0, x1), by + 6), col, c.line);
    }
    ImGui::Dummy(ImVec2(w, (by + 10) - o.y));
    if (ImGui::IsItemHovered()) {
        size_t l = std::min(L - 1, size_t((ImGui::GetIO().MousePos.x - o.x) / cell));
        ImGui::SetTooltip("layer %zu: merge %u, stride %u, %llu comparators", l, 2u << layers[l].logP,
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
