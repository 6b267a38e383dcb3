// The array view: the keys of the current snapshot (read back from the GPU). Up to 4096 keys in
// view: one bar per key, keys the step changed outlined, keys that differ from the CPU reference
// in red. More: a downsampled strip (per pixel column, which value bins its keys occupy), from the
// worker for the whole array or computed here for a zoomed range, so an idle frame costs a few
// rectangles per pixel column at most. Mouse wheel zooms, dragging pans.
#include <sortlab/app/views.h>

#include <sortlab/app/view_common.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace sortlab::app {
namespace {

// The zoom and the memos of the strips drawn are ViewState's (app.h): zoom, localStrip, occupancy.
constexpr uint64_t kMaxReads = uint64_t(1) << 21; // a zoomed range's strip reads at most this many keys
constexpr uint64_t kMaxBars = 4096;

uint64_t hashOccupancy(const std::vector<std::array<uint64_t, 2>>& occupied) {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ occupied.size();
    for (const auto& bits : occupied)
        for (uint64_t w : bits) h = (h ^ w) * 0x100000001b3ull + (h >> 29);
    return h;
}

// The strip's rectangles (at n = 2^16 on unsorted keys, some 33,000 a frame), from the memo
// `c` when the strip is the one drawn last; vertices are reserved for thousands at a time rather
// than one rectangle at a time.
void drawOccupancy(ImDrawList* dl, ViewState::Occupancy& c, const std::vector<std::array<uint64_t, 2>>& occupied,
                   size_t perColumn, ImVec2 p0, ImVec2 size, float plotH, float alpha = 1.0f) {
    const size_t buckets = occupied.size();
    const uint64_t hash = hashOccupancy(occupied);
    if (c.hash != hash || c.buckets != buckets || c.perColumn != perColumn || c.width != size.x || c.plotH != plotH) {
        c.hash = hash;
        c.buckets = buckets;
        c.perColumn = perColumn;
        c.width = size.x;
        c.plotH = plotH;
        c.corners.clear();
        c.colours.clear();
        const float bw = size.x / float((buckets + perColumn - 1) / perColumn);
        const float binH = (0.94f * plotH) / float(Strip::kBins);
        auto y = [&](float h) { return plotH - (0.04f + 0.94f * h) * plotH; };
        int col = 0;
        for (size_t b = 0; b < buckets; b += perColumn, ++col) {
            std::array<uint64_t, 2> bits{0, 0};
            const size_t e = std::min(buckets, b + perColumn);
            for (size_t j = b; j < e; ++j) bits[0] |= occupied[j][0], bits[1] |= occupied[j][1];
            const float x0 = bw * float(col), x1 = x0 + std::max(1.0f, bw);
            for (uint32_t bin = 0; bin < Strip::kBins;) {
                if (!((bits[bin >> 6] >> (bin & 63)) & 1)) {
                    ++bin;
                    continue;
                }
                uint32_t end = bin;
                while (end < Strip::kBins && ((bits[end >> 6] >> (end & 63)) & 1)) ++end;
                const float h0 = float(bin) / Strip::kBins, h1 = float(end) / Strip::kBins;
                c.corners.push_back(ImVec2(x0, y(h1)));
                c.corners.push_back(ImVec2(x1, y(h0) + std::max(1.0f, binH * 0.2f)));
                c.colours.push_back(heightColour((h0 + h1) / 2));
                bin = end;
            }
        }
    }
    // At most 16383 rectangles per reservation: 4 vertices each stay below 2^16 (16-bit indices;
    // the renderer handles ImDrawCmd::VtxOffset, so a new command starts where needed).
    constexpr size_t kChunk = 16383;
    const size_t rects = c.colours.size();
    for (size_t r0 = 0; r0 < rects; r0 += kChunk) {
        const size_t k = std::min(kChunk, rects - r0);
        dl->PrimReserve(int(6 * k), int(4 * k));
        for (size_t r = r0; r < r0 + k; ++r) {
            const ImVec2 a = c.corners[2 * r], b = c.corners[2 * r + 1];
            ImU32 col = c.colours[r];
            if (alpha < 1.0f) // a move between two strips: each drawn see-through
                col = (col & 0x00ffffffu) | (ImU32(float(col >> 24) * alpha) << 24);
            dl->PrimRect(ImVec2(p0.x + a.x, p0.y + a.y), ImVec2(p0.x + b.x, p0.y + b.y), col);
        }
    }
}

// A lesson's workgroup, at a step that has not moved the keys (the input, a count or a scan): the
// keys it reads, outlined in the array (a radix sort's tile of `tileKeys` keys).
void workgroupBracket(const ViewContext& c, uint64_t first, uint64_t count, ImVec2 p0, float w, float plotH) {
    const auto mark = highlighted(c.ui, HighlightKind::workgroup);
    const JobInfo& job = c.v.job;
    const Step* step = currentStep(c.v);
    if (!mark || !job.plan || job.plan->algorithm == Algorithm::oddeven || job.plan->tileKeys == 0 ||
        (step && step->kind != StepKind::count && step->kind != StepKind::scan && step->kind != StepKind::histogram))
        return;
    const uint64_t lo = *mark * job.plan->tileKeys, hi = std::min(job.settings.n, lo + job.plan->tileKeys);
    if (lo >= hi || lo < first || hi > first + count) return;
    const ImVec2 a(p0.x + w * float(lo - first) - 2, p0.y + 1), b(p0.x + w * float(hi - first) + 1, p0.y + plotH + 2);
    ImGui::GetWindowDrawList()->AddRect(a, b, palette().highlight, 4.0f, 0, std::max(3.0f, c.line * 2.5f));
    noteVisible(c.ui, ProbeItem::highlight, a, b);
}
// The pinned key: marked above its bar, and its path so far drawn over the array, from its input
// index at the top (step 0) down to its index now at the bottom: one point a step, as the GPU
// moved it.
void pinnedPath(const ViewContext& c, uint64_t first, uint64_t count, ImVec2 p0, float w, float plotH) {
    const StepData& d = *c.v.data;
    if (!d.pinned || d.pinPath.size() != d.step + 1) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = palette();
    auto x = [&](uint64_t i) { return p0.x + w * (float(i) - float(first) + 0.5f); };
    const size_t steps = d.pinPath.size();
    std::vector<ImVec2> line;
    for (size_t s = 0; s < steps; ++s) {
        const uint64_t i = d.pinPath[s];
        if (i < first || i >= first + count) continue;
        line.emplace_back(x(i), p0.y + 4 + (plotH - 8) * (steps == 1 ? 1.0f : float(s) / float(steps - 1)));
    }
    if (line.size() >= 2) dl->AddPolyline(line.data(), int(line.size()), pal.highlight, 0, std::max(2.0f, c.line * 1.5f));
    for (const ImVec2& pt : line) dl->AddCircleFilled(pt, std::max(2.5f, c.line * 2.0f), pal.highlight);
    const uint64_t now = d.pinPath.back();
    if (now >= first && now < first + count) { // a marker over the key where it is now
        const float cx = x(now), s = std::max(5.0f, c.line * 4.0f);
        dl->AddTriangleFilled(ImVec2(cx - s, p0.y - s * 1.2f), ImVec2(cx + s, p0.y - s * 1.2f), ImVec2(cx, p0.y + 1),
                              pal.highlight);
    }
}

// One bar per key of [first, first + count): keys the step changed outlined, keys that differ from
// the CPU reference in red, a lesson's key and an answer's cells outlined, the pinned key's path; a
// click pins the key under the pointer (or unpins it).
void drawBars(const ViewContext& c, uint64_t first, uint64_t count, bool zoomed, ImVec2 p0, ImVec2 size, float plotH,
              bool labels, bool hovered, bool clicked) {
    const StepData& d = *c.v.data;
    const Snapshot& s = *d.snapshot;
    const JobInfo& job = c.v.job;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = palette();
    const float w = size.x / float(count);
    const float gap = w >= 6 ? std::max(1.0f, w * 0.12f) : 0.0f;
    std::vector<bool> changed(count, false);
    if (d.previous) {
        const uint32_t kb = keyBytes(job.settings.key);
        for (uint64_t i = 0; i < count; ++i) {
            const uint64_t k = first + i;
            bool diff = std::memcmp(&d.previous->keys[k * kb], &s.keys[k * kb], kb) != 0;
            if (!diff && !s.values.empty() && d.previous->values.size() == s.values.size())
                diff = d.previous->values[k] != s.values[k];
            changed[i] = diff;
        }
    }
    // Zoomed in: heights span the visible keys' range, so small differences show.
    double lo = job.minKey, hi = job.maxKey;
    if (zoomed) {
        lo = INFINITY, hi = -INFINITY;
        for (uint64_t i = 0; i < count; ++i) {
            const double x = keyNumber(s.keys.data(), first + i, job.settings.key);
            if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
        }
        if (!(lo <= hi)) lo = job.minKey, hi = job.maxKey;
    }
    std::vector<bool> wrong(count, false);
    for (uint64_t i : d.check.firstDiffs)
        if (i >= first && i < first + count) wrong[i - first] = true;
    for (uint64_t i = 0; i < count; ++i) {
        const uint64_t k = first + i;
        const float h = zoomed ? keyHeightIn(s.keys.data(), k, job.settings.key, lo, hi) : keyHeight(job, s, k);
        const float x0 = p0.x + w * float(i), x1 = x0 + std::max(1.0f, w - gap);
        // The smallest key a bar too, never a hairline: at least 6 pixels (presentation: 13) tall.
        const float minBar = std::max(0.04f * plotH, 6.0f * c.line);
        const float top = p0.y + plotH - (minBar + (0.98f * plotH - minBar) * h);
        ImU32 col = wrong[i] ? pal.mismatchBar : heightColour(h);
        dl->AddRectFilled(ImVec2(x0, top), ImVec2(x1, p0.y + plotH), col);
        if (changed[i] && w >= 3)
            dl->AddRect(ImVec2(x0, top), ImVec2(x1, p0.y + plotH), pal.changedOutline, 0, 0,
                        std::max(1.5f, c.line * 1.5f));
        if (const auto mark = highlighted(c.ui, HighlightKind::key); mark && *mark == k) { // a lesson's key
            const ImVec2 a(x0 - 2, top - 4), b(x1 + 2, p0.y + plotH + 2);
            dl->AddRect(a, b, pal.highlight, 2.0f, 0, std::max(3.0f, c.line * 2.5f));
            noteVisible(c.ui, ProbeItem::highlight, a, b);
        } else if (answerMarksKey(c.ui, k)) { // a cell the answer's arithmetic uses
            dl->AddRect(ImVec2(x0 - 2, top - 4), ImVec2(x1 + 2, p0.y + plotH + 2), pal.answer, 2.0f, 0,
                        std::max(2.5f, c.line * 2.0f));
        }
        if (labels) {
            std::string t = keyText(s, k, job.settings.key);
            ImVec2 ts = ImGui::CalcTextSize(t.c_str());
            const float row = ts.x <= w - gap ? 0.0f : float(i % 2); // wide labels alternate rows
            if (ts.x <= 2 * w - gap)
                dl->AddText(ImVec2(std::clamp(x0 + (w - gap - ts.x) / 2, p0.x, p0.x + size.x - ts.x),
                                   p0.y + plotH + 2 + row * ImGui::GetFontSize()),
                            changed[i] ? pal.changedLabel : pal.keyLabel, t.c_str());
        }
    }
    workgroupBracket(c, first, count, p0, w, plotH);
    pinnedPath(c, first, count, p0, w, plotH);
    if (clicked) { // pin the key under the pointer, or unpin it
        const uint64_t k = first + std::min<uint64_t>(count - 1, uint64_t((ImGui::GetIO().MousePos.x - p0.x) / w));
        const bool onPinned = d.pinned && d.pinPath.size() == d.step + 1 && d.pinPath.back() == k;
        c.ui.pinClick = onPinned ? std::nullopt : std::optional<uint64_t>(k);
    }
    if (hovered) {
        const uint64_t k = first + std::min<uint64_t>(count - 1, uint64_t((ImGui::GetIO().MousePos.x - p0.x) / w));
        ImGui::SetTooltip("key %llu = %s%s", (unsigned long long)k, keyText(s, k, job.settings.key).c_str(),
                          s.values.empty() ? "" : (" (value " + std::to_string(s.values[k]) + ")").c_str());
    }
}

// A step as a move (UiState::move): each key of the earlier state drawn at its fractional index
// between where it was and where the GPU put it. A radix pass colours the keys by their digit;
// a network layer first marks the pairs it compared (swapping ones in the swap colour), then
// moves them. Labels travel with their bars.
void drawMove(const ViewContext& c, ImVec2 p0, float width, float plotH, bool labels) {
    const Transition& m = *c.ui.move;
    const JobInfo& job = c.v.job;
    const Snapshot& e = m.earlier();
    const uint64_t n = job.settings.n;
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float f = c.ui.moveFraction, w = width / float(n), gap = w >= 6 ? std::max(1.0f, w * 0.12f) : 0.0f;
    const bool digits = m.step->bitHi > m.step->bitLo &&
                        (m.step->kind == StepKind::scatter || m.step->kind == StepKind::pass);
    const uint32_t lo = m.step->bitLo, bits = m.step->bitHi - m.step->bitLo;
    auto centre = [&](double at) { return p0.x + w * float(at) + (w - gap) / 2; };
    if (!m.moves.compared.empty()) { // the layer's pairs, under the bars: compared, and swapped
        const float y = p0.y + plotH - 2;
        for (auto [a, b] : m.moves.compared) {
            const bool swaps = m.moves.to[a] != a;
            if (f >= kComparePhase && !swaps) continue;
            dl->AddLine(ImVec2(centre(double(a)), y), ImVec2(centre(double(b)), y),
                        swaps ? pal.swap : pal.comparatorCurrent, std::max(2.0f, c.line * 2.5f));
        }
    }
    for (uint64_t i = 0; i < n; ++i) {
        const double at = drawnIndex(m, i, f);
        const float h = keyHeight(job, e, i);
        const float x0 = p0.x + w * float(at), x1 = x0 + std::max(1.0f, w - gap);
        const float top = p0.y + plotH - (0.04f + 0.94f * h) * plotH;
        ImU32 col = heightColour(h);
        if (digits) {
            const uint64_t d = (orderBitsAt(e.keys.data(), i, job.settings.key, job.settings.order) >> lo) &
                               ((1ull << bits) - 1);
            col = heightColour(float(d) / float((1ull << bits) - 1));
        }
        dl->AddRectFilled(ImVec2(x0, top), ImVec2(x1, p0.y + plotH - 4), col);
        if (labels) {
            const std::string t = keyText(e, i, job.settings.key);
            const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
            if (ts.x <= 2 * w - gap) dl->AddText(ImVec2(x0 + (w - gap - ts.x) / 2, p0.y + plotH + 2), pal.keyLabel, t.c_str());
        }
    }
}

// The title line: the keys and the step, and a hint or the zoomed range after it; for a strip,
// what one pixel column shows.
void drawArrayHeading(const ViewContext& c, uint64_t first, uint64_t count, bool zoomed) {
    const StepData& d = *c.v.data;
    const Snapshot& s = *d.snapshot;
    const JobInfo& job = c.v.job;
    const uint64_t n = job.settings.n;
    const bool classView = c.ui.presentation || c.ui.lesson.lesson;
    ImGui::Text("%llu keys after step %zu of %zu: %s", (unsigned long long)n, d.step, job.plan->steps.size(),
                (classView ? classLabel(s.label) : s.label).c_str());
    const bool bars = count <= kMaxBars;
    if (zoomed || (n > 16 && !classView)) ImGui::SameLine(); // a hint after the title, on the same line
    if (zoomed)
        ImGui::TextDisabled("  keys %llu..%llu%s (wheel: zoom, drag: pan, double-click: all)",
                            (unsigned long long)first, (unsigned long long)(first + count - 1),
                            count <= kMaxBars ? ", heights scaled to them" : "");
    else if (n > 16 && !classView)
        ImGui::TextDisabled("  (mouse wheel: zoom)");
    if (!bars) {
        ImGui::SameLine();
        const uint64_t perPixel = (count + uint64_t(ImGui::GetContentRegionAvail().x) - 1) /
                                  std::max<uint64_t>(1, uint64_t(ImGui::GetContentRegionAvail().x));
        if (!zoomed && d.stripBits)
            ImGui::TextDisabled(" downsampled: a pixel column shows which values of bits 0..%u (the digits sorted so "
                                "far) its %llu keys hold",
                                d.stripBits - 1, (unsigned long long)perPixel);
        else
            ImGui::TextDisabled(" downsampled: a pixel column shows which values its %llu keys hold",
                                (unsigned long long)perPixel);
    }
}

// The plot under the pointer: the wheel zooms around the key under it, dragging pans, a
// double-click shows everything. The new zoom is drawn from the next frame on.
void zoomAndPan(ViewState::Zoom& zoom, uint64_t first, uint64_t count, uint64_t n, ImVec2 p0, ImVec2 size) {
    ImGuiIO& io = ImGui::GetIO();
    const double fx = std::clamp(double(io.MousePos.x - p0.x) / double(size.x), 0.0, 1.0);
    uint64_t zf = first, zc = count;
    if (io.MouseWheel != 0) {
        const double factor = io.MouseWheel > 0 ? 1.0 / 1.25 : 1.25;
        const double key = double(zf) + fx * double(zc);
        zc = std::clamp<uint64_t>(uint64_t(double(zc) * factor + 0.5), std::min<uint64_t>(n, 8), n);
        zf = uint64_t(std::clamp(key - fx * double(zc), 0.0, double(n - zc)));
    }
    if (ImGui::IsItemActive() && io.MouseDelta.x != 0) {
        const double shift = double(io.MouseDelta.x) / double(size.x) * double(zc);
        zf = uint64_t(std::clamp(double(zf) - shift, 0.0, double(n - zc)));
    }
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) zf = 0, zc = n;
    zoom.first = zf;
    zoom.count = zc >= n ? 0 : zc;
}

// The whole array: the worker's strip, buckets merged into pixel columns. A step's move at large
// n: the strip before it fades out as the one after it fades in.
void drawWholeStrip(const ViewContext& c, ImVec2 p0, ImVec2 size, float plotH, bool hovered) {
    const StepData& d = *c.v.data;
    const uint64_t n = c.v.job.settings.n;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const size_t buckets = d.strip->occupied.size();
    const int columns = std::max(1, int(size.x));
    const size_t per = (buckets + columns - 1) / columns;
    if (const auto& m = c.ui.move; m && m->from->strip && m->from->strip->occupied.size() == buckets) {
        drawOccupancy(dl, c.views.occupancy, m->from->strip->occupied, per, p0, size, plotH, 1.0f - c.ui.moveFraction);
        drawOccupancy(dl, c.views.occupancy, d.strip->occupied, per, p0, size, plotH, c.ui.moveFraction);
    } else {
        drawOccupancy(dl, c.views.occupancy, d.strip->occupied, per, p0, size, plotH);
    }
    if (hovered) {
        size_t b = std::min(buckets - 1, size_t((ImGui::GetIO().MousePos.x - p0.x) / size.x * float(buckets)));
        ImGui::SetTooltip("keys %llu..%llu: mean at %.3f of the input's range", (unsigned long long)(b * n / buckets),
                          (unsigned long long)((b + 1) * n / buckets - 1), d.strip->mean[b]);
    }
}

// A zoomed range too long for bars: its own strip, one bucket per pixel column (computed when the
// snapshot, the range or the width changes: ViewState::localStrip).
void drawZoomedStrip(const ViewContext& c, uint64_t first, uint64_t count, ImVec2 p0, ImVec2 size, float plotH,
                     bool hovered) {
    const Snapshot& s = *c.v.data->snapshot;
    const JobInfo& job = c.v.job;
    const int columns = std::max(1, int(size.x));
    ViewState::LocalStrip& local = c.views.localStrip;
    if (local.snapshot != &s || local.first != first || local.count != count || local.columns != columns) {
        local.snapshot = &s;
        local.first = first;
        local.count = count;
        local.columns = columns;
        local.occupied.assign(size_t(columns), {0, 0});
        const uint64_t stride = std::max<uint64_t>(1, count / kMaxReads);
        for (uint64_t i = 0; i < count; i += stride) {
            const float h = keyHeight(job, s, first + i);
            const uint32_t bin = std::min<uint32_t>(Strip::kBins - 1, uint32_t(h * Strip::kBins));
            auto& bits = local.occupied[size_t(i * uint64_t(columns) / count)];
            bits[bin >> 6] |= uint64_t(1) << (bin & 63);
        }
    }
    drawOccupancy(ImGui::GetWindowDrawList(), c.views.occupancy, local.occupied, 1, p0, size, plotH);
    if (hovered) {
        const uint64_t k =
            first +
            std::min<uint64_t>(count - 1, uint64_t((ImGui::GetIO().MousePos.x - p0.x) / size.x * double(count)));
        ImGui::SetTooltip("key %llu = %s", (unsigned long long)k, keyText(s, k, job.settings.key).c_str());
    }
}

} // namespace

void setArrayZoom(ViewState& views, uint64_t generation, uint64_t first, uint64_t count) {
    views.zoom = ViewState::Zoom{generation, first, count};
}

void drawArrayView(const ViewContext& c, bool* open) {
    if (!beginView("Array", c.ui.presentation, open)) return;
    const auto& v = c.v;
    if (!v.data || !v.data->snapshot) {
        ImGui::TextDisabled(v.error.empty() ? "waiting for the GPU..." : v.error.c_str());
        ImGui::End();
        return;
    }
    const JobInfo& job = v.job;
    const uint64_t n = job.settings.n;
    ViewState::Zoom& zoom = c.views.zoom;
    if (zoom.generation != job.generation) zoom = ViewState::Zoom{job.generation, 0, 0};
    const bool zoomed = zoom.count != 0 && zoom.count < n;
    const uint64_t first = zoomed ? zoom.first : 0, count = zoomed ? zoom.count : n;
    drawArrayHeading(c, first, count, zoomed);

    const bool bars = count <= kMaxBars;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImVec2 size = ImGui::GetContentRegionAvail();
    size.y = std::max(size.y, 40.0f);
    const bool labels = count <= 32;
    // Labels in one row where each fits its bar, else two staggered rows (drawBars' rule).
    bool oneRow = labels && bars;
    for (uint64_t i = 0; oneRow && i < count; ++i) {
        const float w = size.x / float(count), gap = w >= 6 ? std::max(1.0f, w * 0.12f) : 0.0f;
        oneRow = ImGui::CalcTextSize(keyText(*v.data->snapshot, first + i, job.settings.key).c_str()).x <= w - gap;
    }
    const float labelH = labels ? (oneRow ? 1 : 2) * ImGui::GetFontSize() + 4 : 0;
    const float plotH = size.y - labelH;
    dl->AddRectFilled(p0, ImVec2(p0.x + size.x, p0.y + plotH), palette().plotBg);
    ImGui::InvisibleButton("##array", size);
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemDeactivated() && ImGui::GetIO().MouseDragMaxDistanceSqr[0] < 16;
    if (n == 0) {
        ImGui::End();
        return;
    }
    if (hovered) zoomAndPan(zoom, first, count, n, p0, size);

    if (bars && !zoomed && c.ui.move && c.ui.move->moves.to.size() == n)
        drawMove(c, p0, size.x, plotH, labels);
    else if (bars)
        drawBars(c, first, count, zoomed, p0, size, plotH, labels, hovered, clicked);
    else if (!zoomed && v.data->strip)
        drawWholeStrip(c, p0, size, plotH, hovered);
    else
        drawZoomedStrip(c, first, count, p0, size, plotH, hovered);
    ImGui::End();
}

} // namespace sortlab::app
