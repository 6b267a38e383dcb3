// The array view: the keys of the current snapshot (read back from the GPU). Up to 4096 keys in
// view: one bar per key, keys the step changed outlined, keys that differ from the CPU reference
// in red. More: a strip, the whole keys' value against their index as a density-shaded dot plot
// (density.h: per pixel column, how many of its keys have each height), from the worker for the
// whole array or computed here for a zoomed range, with what it shows written under it; an idle frame
// redraws the rectangles of the last strip. Mouse wheel zooms, dragging pans.
//
// [SECTION] The strip's picture: rectangles of a density, its memo, its caption
// [SECTION] Bars (up to 4096 keys) and moves
// [SECTION] Heading, zoom, the whole and the zoomed strip
// [SECTION] The view
#include <sortlab/app/views.h>

#include <sortlab/app/density.h>
#include <sortlab/app/view_common.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace sortlab::app {
namespace {

// The zoom and the memos of the strips drawn are ViewState's (app.h): zoom, localStrip, stripPictures.
constexpr uint64_t kMaxReads = uint64_t(1) << 21; // a zoomed range's strip reads at most this many keys
constexpr uint64_t kMaxBars = 4096;

// [SECTION] The strip's picture: rectangles of a density, its memo, its caption ---------------------------

constexpr uint32_t kShades = 6; // levels of brightness in the strip

ImU32 withAlpha(ImU32 colour, float alpha) {
    return (colour & 0x00ffffffu) | (ImU32(float(colour >> 24) * alpha + 0.5f) << 24);
}

// The height ramp's colour at h, darkened or lightened towards the plot's text until it keeps 3:1
// against the plot's background: the ramp's pale middle (light theme) would vanish as a thin line.
ImU32 stripColour(float h) {
    const Palette& pal = palette();
    const ImU32 base = heightColour(h), toward = pal.plotText, bg = pal.plotBg | 0xff000000u;
    ImU32 c = base;
    for (int k = 1; k <= 10 && contrastRatio(c, bg) < 3.0; ++k) {
        const float t = float(k) / 10.0f;
        auto mix = [&](int shift) {
            const float a = float((base >> shift) & 0xffu), b = float((toward >> shift) & 0xffu);
            return ImU32(a + (b - a) * t + 0.5f) << shift;
        };
        c = (base & 0xff000000u) | mix(16) | mix(8) | mix(0);
    }
    return c;
}

// The rectangles of a density merged into `columns` pixel columns, and its value rows into cells
// at least 2.5 pixels high (finer ones would not show, and unsorted keys would cost a rectangle
// each): in each column one rectangle per run of cells of the same shade, its top and bottom
// edges in the height ramp's colours, its shade as its opacity (a sorted line is opaque, noise
// faint, one key still visible). About 35,000 rectangles for 2^20 unsorted keys at 1600x1000.
void buildStripPicture(ViewState::StripPicture& p, std::shared_ptr<const Density> d, uint32_t columns, ImVec2 size,
                       float plotH, float minH) {
    p.density = std::move(d);
    p.columns = columns;
    p.width = size.x;
    p.plotH = plotH;
    p.corners.clear();
    p.colours.clear();
    ColumnDensity m = mergeColumns(*p.density, columns);
    uint32_t group = 1;
    while (group < 8 && plotH * float(group) / float(Density::kRows) < 2.5f) group *= 2;
    const uint32_t rows = Density::kRows / group;
    if (group > 1) { // the rows merged in place: cell r of a column sums rows r * group ..
        m.maxCount = 0;
        for (uint32_t c = 0; c < columns; ++c) {
            uint32_t* col = &m.counts[size_t(c) * Density::kRows];
            for (uint32_t r = 0; r < rows; ++r) {
                uint32_t sum = 0;
                for (uint32_t k = 0; k < group; ++k) sum += col[r * group + k];
                col[r] = sum;
                m.maxCount = std::max(m.maxCount, sum);
            }
        }
    }
    const float cw = size.x / float(columns);
    auto y = [&](float h) { return plotH - (0.04f + 0.94f * h) * plotH; };
    // The colour at each cell edge, once (stripColour searches for its contrast).
    std::array<ImU32, Density::kRows + 1> edge;
    for (uint32_t r = 0; r <= rows; ++r) edge[r] = stripColour(float(r) / rows);
    for (uint32_t c = 0; c < columns; ++c) {
        const uint32_t* col = &m.counts[size_t(c) * Density::kRows];
        const float x0 = cw * float(c), x1 = x0 + std::max(1.0f, cw);
        // A column whose keys all lie in one cell or two neighbouring ones (a sorted stretch): one
        // line a cell thick at their mean height, so that a sorted array rises smoothly, not in
        // steps of a cell.
        uint32_t lowest = rows, highest = 0, level = 0;
        for (uint32_t r = 0; r < rows; ++r)
            if (col[r])
                lowest = std::min(lowest, r), highest = r,
                level = std::max(level, shadeLevel(col[r], m.maxCount, kShades));
        if (lowest <= highest && highest - lowest <= 1) {
            const auto [b0, b1] = columnBuckets(p.density->buckets, columns, c);
            double mean = 0;
            for (uint32_t b = b0; b < b1; ++b) mean += p.density->mean[b];
            const float h = float(mean / double(std::max(1u, b1 - b0))), ym = y(h);
            const float alpha = 0.3f + 0.7f * float(level - 1) / float(kShades - 1);
            const ImU32 colour = withAlpha(edge[std::min(rows, uint32_t(h * float(rows) + 0.5f))], alpha);
            const float thick = std::max(minH, 0.94f * plotH / float(rows)); // a cell's height, as before
            p.corners.push_back(ImVec2(x0, ym - thick / 2));
            p.corners.push_back(ImVec2(x1, ym + thick / 2));
            p.colours.push_back(colour);
            p.colours.push_back(colour);
            continue;
        }
        for (uint32_t r = 0; r < rows;) {
            const uint32_t level = shadeLevel(col[r], m.maxCount, kShades);
            uint32_t end = r + 1;
            while (end < rows && shadeLevel(col[end], m.maxCount, kShades) == level) ++end;
            if (level) {
                const float h0 = float(r) / rows, h1 = float(end) / rows;
                const float alpha = 0.3f + 0.7f * float(level - 1) / float(kShades - 1);
                p.corners.push_back(ImVec2(x0, y(h1)));
                p.corners.push_back(ImVec2(x1, std::max(y(h0), y(h1) + minH)));
                p.colours.push_back(withAlpha(edge[end], alpha));
                p.colours.push_back(withAlpha(edge[r], alpha));
            }
            r = end;
        }
    }
}

// The picture of this density at this size: from the memo when it is one of the two drawn last.
const ViewState::StripPicture& stripPicture(const ViewContext& c, const std::shared_ptr<const Density>& d,
                                            uint32_t columns, ImVec2 size, float plotH) {
    ViewState& views = c.views;
    ViewState::StripPicture* victim = &views.stripPictures[0];
    for (ViewState::StripPicture& p : views.stripPictures) {
        if (p.density == d && p.columns == columns && p.width == size.x && p.plotH == plotH &&
            p.theme == int(theme())) {
            p.used = ++views.stripFrames;
            return p;
        }
        if (p.used < victim->used) victim = &p;
    }
    // A run of cells at least a line thick: a sorted array's line shows on a projector too.
    buildStripPicture(*victim, d, columns, size, plotH, std::max(1.0f, 1.5f * c.line));
    victim->theme = int(theme());
    victim->used = ++views.stripFrames;
    return *victim;
}

// The rectangles, thousands at a time rather than one at a time (at most 16383 per reservation: 4
// vertices each stay below 2^16 with 16-bit indices; the renderer handles ImDrawCmd::VtxOffset).
void drawStripPicture(ImDrawList* dl, const ViewState::StripPicture& p, ImVec2 p0, float alpha = 1.0f) {
    constexpr size_t kChunk = 16383;
    const ImVec2 uv = ImGui::GetFontTexUvWhitePixel();
    const size_t rects = p.corners.size() / 2;
    for (size_t r0 = 0; r0 < rects; r0 += kChunk) {
        const size_t k = std::min(kChunk, rects - r0);
        dl->PrimReserve(int(6 * k), int(4 * k));
        for (size_t r = r0; r < r0 + k; ++r) {
            const ImVec2 a(p0.x + p.corners[2 * r].x, p0.y + p.corners[2 * r].y);
            const ImVec2 b(p0.x + p.corners[2 * r + 1].x, p0.y + p.corners[2 * r + 1].y);
            ImU32 top = p.colours[2 * r], bottom = p.colours[2 * r + 1];
            if (alpha < 1.0f) top = withAlpha(top, alpha), bottom = withAlpha(bottom, alpha); // a fade
            const ImDrawIdx i = ImDrawIdx(dl->_VtxCurrentIdx);
            dl->PrimWriteIdx(i);
            dl->PrimWriteIdx(ImDrawIdx(i + 1));
            dl->PrimWriteIdx(ImDrawIdx(i + 2));
            dl->PrimWriteIdx(i);
            dl->PrimWriteIdx(ImDrawIdx(i + 2));
            dl->PrimWriteIdx(ImDrawIdx(i + 3));
            dl->PrimWriteVtx(a, uv, top);
            dl->PrimWriteVtx(ImVec2(b.x, a.y), uv, top);
            dl->PrimWriteVtx(b, uv, bottom);
            dl->PrimWriteVtx(ImVec2(a.x, b.y), uv, bottom);
        }
    }
}

// The smallest or largest key of the scale, as the keys are written.
std::string scaleKeyText(const KeyScale& s, bool largest) {
    char buf[48];
    const uint64_t b = largest ? s.hi : s.lo;
    switch (s.type) {
    case KeyType::f32:
    case KeyType::f64:
        std::snprintf(buf, sizeof buf, "%.6g", largest ? s.fhi : s.flo);
        break;
    case KeyType::i32:
        std::snprintf(buf, sizeof buf, "%d", int32_t(uint32_t(b) ^ 0x80000000u));
        break;
    case KeyType::i64:
        std::snprintf(buf, sizeof buf, "%lld", (long long)int64_t(b ^ 0x8000000000000000ull));
        break;
    default:
        std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)b);
        break;
    }
    return buf;
}

// What the strip needs to be read right, written under it (never over it: a box on the plot hid
// part of the line, which then read as a range with fewer keys): a radix sort part-way is in order
// of its low bits only; the height is the whole key from the smallest to the largest; a pixel
// column holds about so many keys. At 0.85 of the font, or smaller (down to 0.7), on at most
// `lines` lines (and the note's): in a short Array view one line, in shorter words, so that the
// plot keeps its height.
struct StripCaption {
    std::vector<std::string> lines;
    size_t firstBody = 0; // the lines before it: the "sorted by" note
    float size = 0;       // font size
    float height() const { return float(lines.size()) * size + 4; }
};

StripCaption stripCaption(const ViewContext& c, uint64_t count, uint32_t columns, float width, size_t lines) {
    const StepData& d = *c.v.data;
    const uint32_t all = keyBits(c.v.job.settings.key);
    char sorted[128] = "", body[256], shortBody[160];
    if (d.stripBits)
        std::snprintf(sorted, sizeof sorted, "Sorted by bits 0..%u only, not yet by bits %u..%u.", d.stripBits - 1,
                      d.stripBits, all - 1);
    std::snprintf(body, sizeof body, "Keys %s (bottom) to %s (top), about %llu to a pixel column; brighter: more keys.",
                  scaleKeyText(c.v.job.scale, false).c_str(), scaleKeyText(c.v.job.scale, true).c_str(),
                  (unsigned long long)keysPerColumn(count, columns));
    std::snprintf(shortBody, sizeof shortBody, "Keys %s to %s, bottom to top; ~%llu a pixel column; brighter: more.",
                  scaleKeyText(c.v.job.scale, false).c_str(), scaleKeyText(c.v.job.scale, true).c_str(),
                  (unsigned long long)keysPerColumn(count, columns));
    const float fs = ImGui::GetFontSize();
    const size_t want = lines + (d.stripBits ? 1 : 0);
    StripCaption cap;
    auto wrapAt = [&](const char* text, float size) {
        const float k = fs / size; // wrapAtSpaces measures in the current font size
        cap.size = size;
        cap.lines = d.stripBits ? wrapAtSpaces(sorted, width * k) : std::vector<std::string>{};
        cap.firstBody = cap.lines.size();
        for (std::string& l : wrapAtSpaces(text, width * k)) cap.lines.push_back(std::move(l));
        return cap.lines.size() <= want;
    };
    for (const char* text : {body, shortBody})
        for (int step = 0; step <= 3; ++step) // 0.85 .. 0.7 of the font
            if (wrapAt(text, fs * (0.85f - 0.05f * float(step)))) return cap;
    wrapAt(shortBody, fs * 0.7f); // on as many lines as it needs
    return cap;
}

void drawStripCaption(const ViewContext& c, const StripCaption& cap, ImVec2 at) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = palette();
    for (size_t i = 0; i < cap.lines.size(); ++i)
        drawLabel(c.ui, dl, ImGui::GetFont(), cap.size, ImVec2(at.x, at.y + 2 + float(i) * cap.size),
                  i < cap.firstBody ? pal.title : pal.text, cap.lines[i].c_str());
}

// [SECTION] Bars (up to 4096 keys) and moves ---------------------------------------------------------

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
// The pinned key: marked at the top of its bar, and its path so far drawn over the array, from its
// input index at the top (step 0) down to its index now at the bottom: one point a step, as the GPU
// moved it. A key a lesson's stop pinned: its path from the step the stop shows, the move its text
// and question are about (the steps before it are explained nowhere on screen).
void pinnedPath(const ViewContext& c, uint64_t first, uint64_t count, ImVec2 p0, float w, float plotH) {
    const StepData& d = *c.v.data;
    if (!d.pinned || d.pinPath.size() != d.step + 1) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const Palette& pal = palette();
    auto x = [&](uint64_t i) { return p0.x + w * (float(i) - float(first) + 0.5f); };
    const size_t steps = d.pinPath.size();
    const size_t from = c.ui.lesson.lesson && c.ui.lesson.stopPinned ? std::min(c.ui.lesson.shownStep, steps - 1) : 0;
    std::vector<ImVec2> line;
    for (size_t s = from; s < steps; ++s) {
        const uint64_t i = d.pinPath[s];
        if (i < first || i >= first + count) continue;
        const float t = steps - from == 1 ? 1.0f : float(s - from) / float(steps - 1 - from);
        line.emplace_back(x(i), p0.y + 4 + (plotH - 8) * t);
    }
    if (line.size() >= 2)
        dl->AddPolyline(line.data(), int(line.size()), pal.highlight, 0, std::max(2.0f, c.line * 1.5f));
    for (const ImVec2& pt : line) dl->AddCircleFilled(pt, std::max(2.5f, c.line * 2.0f), pal.highlight);
    const uint64_t now = d.pinPath.back();
    if (now >= first && now < first + count) { // a marker at the top of the plot, over the key where it is now
        const float cx = x(now), s = std::max(5.0f, c.line * 4.0f);
        dl->AddTriangleFilled(ImVec2(cx - s, p0.y + 1), ImVec2(cx + s, p0.y + 1), ImVec2(cx, p0.y + 1 + s * 1.2f),
                              pal.highlight);
    }
}

// A bar's top for a key at height h (0..1): the smallest key a bar too, never a hairline, at least
// 6 pixels (presentation: 13) tall. The same in a move as at rest, so a move starts and ends on the
// picture of its two steps.
float barTop(const ViewContext& c, float bottom, float plotH, float h) {
    const float minBar = std::max(0.04f * plotH, 6.0f * c.line);
    return bottom - (minBar + (0.98f * plotH - minBar) * h);
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
        const float top = barTop(c, p0.y + plotH, plotH, h);
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
                drawLabel(c.ui, dl,
                          ImVec2(std::clamp(x0 + (w - gap - ts.x) / 2, p0.x, p0.x + size.x - ts.x),
                                 p0.y + plotH + 2 + row * ImGui::GetFontSize()),
                          changed[i] ? pal.changedLabel : pal.keyLabel, t.c_str());
            else
                noteMissingLabel(c.ui, "array: key " + std::to_string(k) + " (" + t + ")");
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

// The digit of key i of a radix pass's earlier state, and the colour the move draws its bar in.
uint64_t passDigit(const ViewContext& c, const Snapshot& e, uint64_t i) {
    const Step& st = *c.ui.move->step;
    const uint32_t bits = st.bitHi - st.bitLo;
    return (orderBitsAt(e.keys.data(), i, c.v.job.settings.key, c.v.job.settings.order) >> st.bitLo) &
           ((1ull << bits) - 1);
}
ImU32 digitColour(const Step& st, uint64_t d) {
    return heightColour(float(d) / float((1ull << (st.bitHi - st.bitLo)) - 1));
}

// A staged pass: the bucket the stage under way fills, bracketed over the plot in its digit's
// colour (the heading names the digit and the indices).
void bucketBracket(const ViewContext& c, ImVec2 p0, float w, float gap) {
    const Transition& m = *c.ui.move;
    const uint32_t s = stageAt(m, c.ui.moveFraction);
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint64_t i = 0; i < m.moves.stage.size(); ++i)
        if (m.moves.stage[i] == s) lo = std::min(lo, m.moves.to[i]), hi = std::max(hi, m.moves.to[i]);
    if (lo > hi) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 col = digitColour(*m.step, m.moves.digits[s]);
    const float t = std::max(2.0f, 2.0f * c.line), y = p0.y + t, tick = std::max(6.0f, 4.0f * c.line);
    const float x0 = p0.x + w * float(lo), x1 = p0.x + w * float(hi + 1) - gap;
    dl->AddLine(ImVec2(x0, y), ImVec2(x1, y), col, t);
    dl->AddLine(ImVec2(x0, y), ImVec2(x0, y + tick), col, t);
    dl->AddLine(ImVec2(x1, y), ImVec2(x1, y + tick), col, t);
}

// A step as a move (UiState::move): each key of the earlier state drawn where keyPlace puts it, between
// where it was and where the GPU put it. A key in the lane above rises over the plot, one in the
// lane below sinks half-way into its floor, so keys that trade places pass around each other, never through;
// their labels ride in rows of their own over the plot (above: two rows up, or under the bar where
// that is higher; below: one row up; in a staged pass the keys going to their bucket one row up and
// the keys moving aside on the axis, which no other key's label crosses), on a backing of the
// plot's colour; labels too wide for one row at rest are drawn smaller while the keys move. A radix pass colours the
// keys by their digit and, up to kMaxStagedKeys keys, moves one bucket at a time, its place bracketed over the plot; a
// network layer first marks the pairs it compared (swapping ones in the swap colour), then moves them.
void drawMove(const ViewContext& c, ImVec2 p0, float width, float plotH, bool labels, bool oneRow) {
    const Transition& m = *c.ui.move;
    const JobInfo& job = c.v.job;
    const Snapshot& e = m.earlier();
    const uint64_t n = job.settings.n;
    const Palette& pal = palette();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float f = c.ui.moveFraction, w = width / float(n), gap = w >= 6 ? std::max(1.0f, w * 0.12f) : 0.0f;
    const bool digits =
        m.step->bitHi > m.step->bitLo && (m.step->kind == StepKind::scatter || m.step->kind == StepKind::pass);
    const bool staged = !m.moves.at.empty();
    const float bottom = p0.y + plotH, fs = ImGui::GetFontSize();
    auto centre = [&](double at) { return p0.x + w * float(at) + (w - gap) / 2; };
    auto way = [](const KeyPlace& k) { return 0.25f * k.rise + 0.75f * k.arc; }; // how far off the axis
    std::vector<KeyPlace> place(n);
    for (uint64_t i = 0; i < n; ++i) place[i] = keyPlace(m, i, f);
    // The bars: those at rest, then those passing below, then those passing above, inside the plot.
    dl->PushClipRect(p0, ImVec2(p0.x + width, bottom), true);
    for (Lane lane : {Lane::still, Lane::below, Lane::above})
        for (uint64_t i = 0; i < n; ++i) {
            const KeyPlace& k = place[i];
            if (k.lane != lane) continue;
            // Above: up by half the plot; below: down by half its own height, so that half of it
            // still shows and the bar above clears it where they cross.
            const float h = keyHeight(job, e, i), rest = barTop(c, bottom, plotH, h);
            const float lift = lane == Lane::above   ? 0.5f * plotH * way(k)
                               : lane == Lane::below ? -0.5f * (bottom - rest) * way(k)
                                                     : 0.0f;
            const float x0 = p0.x + w * float(k.index), x1 = x0 + std::max(1.0f, w - gap), top = rest - lift;
            const ImU32 col = digits ? digitColour(*m.step, passDigit(c, e, i)) : heightColour(h);
            dl->AddRectFilled(ImVec2(x0, top), ImVec2(x1, bottom - lift), col);
            if (lane == Lane::above && w >= 3)
                dl->AddRect(ImVec2(x0, top), ImVec2(x1, bottom - lift), pal.changedOutline, 0, 0,
                            std::max(1.5f, c.line * 1.5f));
        }
    dl->PopClipRect();
    if (!m.moves.compared.empty()) { // the layer's pairs, along the floor: compared, and swapped
        const float y = bottom - 2;
        for (auto [a, b] : m.moves.compared) {
            const bool swaps = m.moves.to[a] != a;
            if (f >= kComparePhase && !swaps) continue;
            dl->AddLine(ImVec2(centre(double(a)), y), ImVec2(centre(double(b)), y),
                        swaps ? pal.swap : pal.comparatorCurrent, std::max(2.0f, c.line * 2.5f));
        }
    }
    if (staged) bucketBracket(c, p0, w, gap);
    if (!labels) return;
    // Labels wider than a key's place (two staggered rows at rest) are drawn smaller while the keys
    // move, so that each fits its own place: one row, and lanes whose keys keep a place apart.
    ImFont* font = ImGui::GetFont();
    float size = fs;
    if (!oneRow)
        for (uint64_t i = 0; i < n; ++i) {
            const float tw = ImGui::CalcTextSize(keyText(e, i, job.settings.key).c_str()).x;
            if (tw <= 2 * w - gap) size = std::min(size, fs * (w - gap) / tw);
        }
    // The lanes' rows over the plot (a layer: two, a staged pass: one) fit in it, smaller where it is low.
    const float laneSize = std::min(size, (plotH + 2) / (staged ? 1.0f : 2.0f) - 3), laneRow = laneSize + 3;
    for (uint64_t i = 0; i < n; ++i) {
        const KeyPlace& k = place[i];
        const std::string t = keyText(e, i, job.settings.key);
        if (ImGui::CalcTextSize(t.c_str()).x > 2 * w - gap) continue; // drawBars notes it as missing
        const float rows = k.lane == Lane::above              ? (staged ? 1.0f : 2.0f)
                           : k.lane == Lane::below && !staged ? 1.0f
                                                              : 0.0f;
        const float at = rows > 0 && k.rise > 0 ? laneSize : size;
        const ImVec2 ts = font->CalcTextSizeA(at, FLT_MAX, 0.0f, t.c_str());
        const float x = std::clamp(p0.x + w * float(k.index) + (w - gap - ts.x) / 2, p0.x, p0.x + width - ts.x);
        float y = bottom + 2 - rows * laneRow * k.rise;
        if (k.lane == Lane::above) // under its bar where that is higher: the label travels with it
            y = std::min(y, bottom + 2 - 0.5f * plotH * way(k));
        y = std::max(p0.y, y);
        if (rows > 0 && k.rise > 0) { // over the bars: on the plot's colour
            const float pad = std::max(1.0f, c.line);
            dl->AddRectFilled(ImVec2(x - 2 * pad, y - pad), ImVec2(x + ts.x + 2 * pad, y + ts.y + pad),
                              withAlpha(pal.plotBg | 0xff000000u, 0.9f), 3.0f * pad);
        }
        drawLabel(c.ui, dl, font, at, ImVec2(x, y), k.lane == Lane::still ? pal.keyLabel : pal.changedLabel, t.c_str());
    }
}

// [SECTION] Heading, zoom, the whole and the zoomed strip ------------------------------------------------

// The title line: the keys and the step, and a hint or the zoomed range after it. (What a strip
// shows is written under the strip: stripCaption.)
void drawArrayHeading(const ViewContext& c, uint64_t first, uint64_t count, bool zoomed) {
    const StepData& d = *c.v.data;
    const Snapshot& s = *d.snapshot;
    const JobInfo& job = c.v.job;
    const uint64_t n = job.settings.n;
    const bool classView = c.ui.presentation || c.ui.lesson.lesson;
    char title[512];
    // A skipped pass's label names the work it would have done: say that none was done.
    std::snprintf(title, sizeof title, "%llu keys after step %zu of %zu: %s%s", (unsigned long long)n, d.step,
                  job.plan->steps.size(), (classView ? classLabel(s.label) : s.label).c_str(),
                  s.passSkipped() ? " (skipped: no key moved)" : "");
    // Never cut: a smaller font (to 75%) where the line is too wide, and wrapped if still too wide.
    const float wide = ImGui::CalcTextSize(title).x, avail = ImGui::GetContentRegionAvail().x;
    if (wide > avail) ImGui::SetWindowFontScale(std::max(0.75f, avail / wide));
    textWrappedAtSpaces(title);
    ImGui::SetWindowFontScale(1.0f);
    if (const auto& m = c.ui.move; m && !m->moves.at.empty() && !zoomed) { // a staged pass: the bucket under way
        const uint32_t st = stageAt(*m, c.ui.moveFraction);
        uint64_t lo = UINT64_MAX, hi = 0, keys = 0;
        for (uint64_t i = 0; i < m->moves.stage.size(); ++i)
            if (m->moves.stage[i] == st) lo = std::min(lo, m->moves.to[i]), hi = std::max(hi, m->moves.to[i]), ++keys;
        char buf[128], places[48];
        const uint32_t bits = m->step->bitHi - m->step->bitLo;
        if (lo == hi)
            std::snprintf(places, sizeof places, "%llu", (unsigned long long)lo);
        else
            std::snprintf(places, sizeof places, "%llu..%llu", (unsigned long long)lo, (unsigned long long)hi);
        std::snprintf(buf, sizeof buf, "  digit %0*llX: %llu key%s %s %s (%u of %zu digits)", bits > 4 ? 2 : 1,
                      (unsigned long long)m->moves.digits[st], (unsigned long long)keys, keys == 1 ? "" : "s",
                      m->backward ? "back from" : "to", places, st + 1, m->moves.digits.size());
        ImGui::SameLine(0, 0);
        if (ImGui::CalcTextSize(buf).x <= ImGui::GetContentRegionAvail().x)
            ImGui::TextColored(vec4(palette().changedLabel), "%s", buf);
        else
            ImGui::NewLine();
        return;
    }
    if (zoomed || (n > 16 && !classView)) ImGui::SameLine(); // a hint after the title, on the same line
    if (zoomed)
        ImGui::TextDisabled("  keys %llu..%llu%s (wheel: zoom, drag: pan, double-click: all)",
                            (unsigned long long)first, (unsigned long long)(first + count - 1),
                            count <= kMaxBars ? ", heights scaled to them" : "");
    else if (n > 16 && !classView)
        ImGui::TextDisabled("  (mouse wheel: zoom)");
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

// The keys a pixel column of a strip shows, and their mean height, in a tooltip.
void stripTooltip(const Density& d, uint32_t columns, ImVec2 p0, ImVec2 size) {
    const uint32_t c =
        std::min(columns - 1, uint32_t(std::max(0.0f, ImGui::GetIO().MousePos.x - p0.x) / size.x * float(columns)));
    const auto [b0, b1] = columnBuckets(d.buckets, columns, c);
    double mean = 0;
    for (uint32_t b = b0; b < b1; ++b) mean += d.mean[b];
    ImGui::SetTooltip("keys %llu..%llu: mean height %.3f of the keys' range", (unsigned long long)d.bucketFirst(b0),
                      (unsigned long long)(d.bucketFirst(b1) - 1), mean / double(std::max(1u, b1 - b0)));
}

// The whole array: the worker's density, buckets merged into the strip's pixel columns. A step's
// move at large n: the strip before it fades out as the one after it fades in.
void drawWholeStrip(const ViewContext& c, ImVec2 p0, ImVec2 size, float plotH, bool hovered, const StripCaption& cap) {
    const StepData& d = *c.v.data;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const uint32_t columns = stripColumns(size.x);
    if (const auto& m = c.ui.move; m && m->from->strip && m->from->strip->count == d.strip->count) {
        drawStripPicture(dl, stripPicture(c, m->from->strip, columns, size, plotH), p0, 1.0f - c.ui.moveFraction);
        drawStripPicture(dl, stripPicture(c, d.strip, columns, size, plotH), p0, c.ui.moveFraction);
    } else {
        drawStripPicture(dl, stripPicture(c, d.strip, columns, size, plotH), p0);
    }
    drawStripCaption(c, cap, ImVec2(p0.x, p0.y + plotH));
    if (hovered) stripTooltip(*d.strip, columns, p0, size);
}

// A zoomed range too long for bars: its own density, one bucket per pixel column (computed when
// the snapshot, the range or the width changes: ViewState::localStrip).
void drawZoomedStrip(const ViewContext& c, uint64_t first, uint64_t count, ImVec2 p0, ImVec2 size, float plotH,
                     bool hovered, const StripCaption& cap) {
    const auto& s = c.v.data->snapshot;
    const uint32_t columns = stripColumns(size.x);
    ViewState::LocalStrip& local = c.views.localStrip;
    if (local.snapshot != s || local.first != first || local.count != count || local.columns != columns ||
        !local.density) {
        local.snapshot = s;
        local.first = first;
        local.count = count;
        local.columns = columns;
        const uint64_t stride = std::max<uint64_t>(1, count / kMaxReads);
        local.density =
            std::make_shared<const Density>(densityOf(s->keys.data(), c.v.job.scale, first, count, columns, stride));
    }
    const ViewState::StripPicture& picture = stripPicture(c, local.density, columns, size, plotH);
    drawStripPicture(ImGui::GetWindowDrawList(), picture, p0);
    drawStripCaption(c, cap, ImVec2(p0.x, p0.y + plotH));
    if (hovered) stripTooltip(*local.density, columns, p0, size);
}

} // namespace

// [SECTION] The view ---------------------------------------------------------------------------------------

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
    // A strip's caption goes under it, where the bars' labels would.
    StripCaption cap;
    if (!bars) // two lines where the plot keeps three lines' height, else one
        cap = stripCaption(c, count, stripColumns(size.x), size.x,
                           size.y - 2 * 0.85f * ImGui::GetFontSize() >= 3 * ImGui::GetFontSize() ? 2 : 1);
    const float labelH = !bars ? cap.height() : labels ? (oneRow ? 1 : 2) * ImGui::GetFontSize() + 4 : 0;
    const float plotH = size.y - labelH;
    dl->AddRectFilled(p0, ImVec2(p0.x + size.x, p0.y + plotH), palette().plotBg);
    ImGui::InvisibleButton("##array", size);
    noteSubject(c.ui, SubjectKind::array, p0, ImVec2(p0.x + size.x, p0.y + size.y)); // a lesson's @subject array
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemDeactivated() && ImGui::GetIO().MouseDragMaxDistanceSqr[0] < 16;
    if (n == 0) {
        ImGui::End();
        return;
    }
    if (hovered) zoomAndPan(zoom, first, count, n, p0, size);

    if (bars && !zoomed && c.ui.move && c.ui.move->moves.to.size() == n)
        drawMove(c, p0, size.x, plotH, labels, oneRow);
    else if (bars)
        drawBars(c, first, count, zoomed, p0, size, plotH, labels, hovered, clicked);
    else if (!zoomed && v.data->strip)
        drawWholeStrip(c, p0, size, plotH, hovered, cap);
    else
        drawZoomedStrip(c, first, count, p0, size, plotH, hovered, cap);
    ImGui::End();
}

} // namespace sortlab::app
