// The lookback of a OneSweep pass as the GPU ran it, replayed from the instrumented kernel's log
// (a pass step's "lookback log"): for one digit, the tiles' status words filling in event by event
// (not ready -> aggregate -> inclusive prefix), each tile's walk back drawn as an arc to the tile
// whose inclusive prefix ended it (red: it counted predecessors itself, a fallback), the event
// just replayed in words, and the pass's whole log in numbers. After the last event the boxes are
// the status buffer the pass left (the "tile status" map below them).
#include <sortlab/app/view_common.h>
#include <sortlab/app/views.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

namespace sortlab::app {
namespace {

// The count of the digit in tile t alone and in tiles 0..t, from the status counts the pass left.
struct Counts {
    const Snapshot::Aux& prefix;
    uint32_t digit;
    uint32_t inclusive(size_t t) const { return prefix.data[t * prefix.shape[1] + digit]; }
    uint32_t own(size_t t) const { return t ? inclusive(t) - inclusive(t - 1) : inclusive(0); }
};

// The event just replayed, in words.
std::string describe(const LookbackReplay& r, const Counts& k, bool forced) {
    const LookbackEvent* e = r.last();
    char buf[512];
    if (!e) return "Before the pass: every status word reads as not ready.";
    const LookbackRecord& rec = r.records[e->tile];
    std::string out;
    switch (e->kind) {
    case LookbackEventKind::took:
        std::snprintf(buf, sizeof buf, "Tile %u was taken by workgroup %u%s.", e->tile, rec.workgroup,
                      rec.workgroup != e->tile ? " (the id comes from a counter in the order workgroups start, so a "
                                                 "tile never waits on one that has not started)"
                                               : "");
        return buf;
    case LookbackEventKind::aggregate:
        std::snprintf(buf, sizeof buf,
                      "Tile %u published its aggregate: %u key%s of digit %02X in its own tile (and its "
                      "counts of every other digit).",
                      e->tile, k.own(e->tile), k.own(e->tile) == 1 ? "" : "s", r.digit);
        return buf;
    case LookbackEventKind::published:
        break;
    }
    if (e->tile == 0) {
        std::snprintf(buf, sizeof buf,
                      "Tile 0 has nothing before it: its counts are inclusive prefixes at once (%u of digit "
                      "%02X).",
                      k.inclusive(0), r.digit);
        return buf;
    }
    const LookbackWalk& w = rec.walks[r.digit];
    const uint32_t t = e->tile, depth = std::min(w.depth(), t);
    std::snprintf(buf, sizeof buf, "Tile %u published its inclusive prefix for digit %02X: %u = its own %u", t, r.digit,
                  k.inclusive(t), k.own(t));
    out = buf;
    for (uint32_t u = t - 1; u + depth >= t; --u) {
        const bool end = u + depth == t;
        if (end && w.inclusive)
            std::snprintf(buf, sizeof buf, " + tile %u's inclusive prefix %u", u, k.inclusive(u));
        else
            std::snprintf(buf, sizeof buf, " + tile %u's %u", u, k.own(u));
        out += buf;
        if (u == 0) break;
    }
    std::snprintf(buf, sizeof buf, ". Its walk went back %u tile%s", depth, depth == 1 ? "" : "s");
    out += buf;
    if (w.counted) {
        std::snprintf(buf, sizeof buf, ", counting %u of them itself (%s)", w.counted,
                      forced ? "forced fallback" : "fallback: a status stayed not ready");
        out += buf;
    }
    if (w.notReady) {
        std::snprintf(buf, sizeof buf, "; %u read%s found a status not ready yet", w.notReady,
                      w.notReady == 1 ? "" : "s");
        out += buf;
    }
    out += ".";
    // The boxes show this event; the walk read its tiles earlier, some before they had an I.
    if (const std::string since = publishedSinceReadText(r, t, r.shown); !since.empty()) out += " " + since;
    return out;
}

// The buttons, the event slider and the digit.
void controls(const LookbackReplay& r, LookbackReplayChoice& choice) {
    const int events = int(r.events.size());
    int shown = int(r.shown);
    ImGui::PushID("lookback");
    if (ImGui::Button("|<")) shown = 0;
    ImGui::SameLine();
    if (ImGui::Button("<")) shown = std::max(0, shown - 1);
    ImGui::SameLine();
    if (ImGui::Button(">")) shown = std::min(events, shown + 1);
    ImGui::SameLine();
    if (ImGui::Button(">|")) shown = events;
    ImGui::SameLine();
    // The count beside the slider, not on it: the slider's handle would cover it. Its place is as
    // wide as the widest it gets, so the slider does not change width as the count does.
    char label[64], widest[64];
    std::snprintf(label, sizeof label, shown == events ? "event %d of %d: the end" : "event %d of %d", shown, events);
    std::snprintf(widest, sizeof widest, "event %d of %d: the end", events, events);
    const float labelW = ImGui::CalcTextSize(widest).x;
    ImGui::SetNextItemWidth(
        std::max(80.0f, ImGui::GetContentRegionAvail().x - labelW - ImGui::GetStyle().ItemInnerSpacing.x));
    ImGui::SliderInt("##event", &shown, 0, events, "##%d", ImGuiSliderFlags_AlwaysClamp);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("how many of this digit's events have happened: tiles taking their ids, publishing their "
                          "aggregates, publishing their inclusive prefixes");
    ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
    ImGui::TextUnformatted(label);
    int digit = int(r.digit);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    if (ImGui::SliderInt("digit", &digit, 0, 255, "%02X")) choice.digit = digit;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("the digit whose status words are shown (at first the one with the most keys)");
    ImGui::SameLine();
    if (ImGui::SmallButton("most keys")) choice.digit = -1;
    ImGui::PopID();
    if (shown != int(r.shown)) choice.shown = shown == events ? -1 : shown;
}

// The walks that have ended: an arc from each tile back to the one whose prefix ended it (red: it
// counted tiles itself; the event now: highlighted), ending in an arrow's head.
// Tile t's box starts at left + pitch * t and is `box` wide.
void drawWalkArcs(const ViewContext& c, const LookbackReplay& r, float arcH, float top, float left, float pitch,
                  float box) {
    auto centre = [&](size_t t) { return left + pitch * float(t) + box / 2; };
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float fs = ImGui::GetFontSize();
    const LookbackEvent* e = r.last();
    const uint32_t now = e ? e->event : 0;
    const Palette& pal = palette();
    // An arc's height grows with its walk's depth; where arcH is short of the deepest's, all are
    // lowered in proportion, so that walks of different depths still differ in height.
    auto rise = [&](uint32_t depth) { return fs * (0.9f + 0.8f * float(depth)); };
    uint32_t deepest = 1;
    for (size_t t = 1; t < r.records.size(); ++t)
        deepest = std::max(deepest, std::min<uint32_t>(r.records[t].walks[r.digit].depth(), uint32_t(t)));
    const float lower = std::min(1.0f, (arcH - 4) / rise(deepest));
    for (size_t t = 1; t < r.records.size(); ++t) {
        const LookbackWalk& wk = r.records[t].walks[r.digit];
        if (!wk.published || wk.published > now) continue;
        const uint32_t depth = std::min<uint32_t>(wk.depth(), uint32_t(t));
        const bool current = e && e->tile == t && e->kind == LookbackEventKind::published;
        // A fallback stays red when it is the event now (the legend's colour); only its width says "now".
        const ImU32 col = wk.counted ? pal.arcFallback : current ? pal.currentEvent : pal.arc;
        const float x0 = centre(t), x1 = centre(t - depth);
        const float h = std::min(arcH - 4, rise(depth) * lower);
        const ImVec2 a(x0, top - 2), b(x1, top - 2);
        dl->AddBezierCubic(a, ImVec2(x0, top - h), ImVec2(x1, top - h), b, col, (current ? 3.0f : 1.6f) * c.line);
        const float hs = fs * 0.35f; // the arrow's head, at the tile whose prefix ended the walk
        dl->AddTriangleFilled(ImVec2(x1, top - 1), ImVec2(x1 - hs, top - 1 - hs * 1.6f),
                              ImVec2(x1 + hs, top - 1 - hs * 1.6f), col);
    }
}

// Tile t's events and walk, under the pointer.
void tileTooltip(const LookbackReplay& r, const Counts& k, size_t t) {
    const LookbackRecord& rec = r.records[t];
    const LookbackWalk& wk = rec.walks[r.digit];
    if (t == 0)
        ImGui::SetTooltip("tile 0 (workgroup %u): took its id at event %u, published its counts as inclusive "
                          "prefixes at event %u\n%u key%s of digit %02X",
                          rec.workgroup, rec.took, rec.inclusive, k.own(0), k.own(0) == 1 ? "" : "s", r.digit);
    else
        ImGui::SetTooltip("tile %zu (workgroup %u): took its id at event %u, published its aggregates at "
                          "event %u, its inclusive prefix for digit %02X at event %u\n%u key%s of the digit "
                          "here, %u in tiles 0..%zu\nwalk: back %u tile%s (%u aggregate%s%s, %u counted "
                          "itself), %u not-ready read%s%s",
                          t, rec.workgroup, rec.took, rec.aggregate, r.digit, wk.published, k.own(t),
                          k.own(t) == 1 ? "" : "s", k.inclusive(t), t, wk.depth(), wk.depth() == 1 ? "" : "s",
                          wk.aggregates, wk.aggregates == 1 ? "" : "s",
                          wk.inclusive ? ", then an inclusive prefix" : "", wk.counted, wk.notReady,
                          wk.notReady == 1 ? "" : "s", rec.fellBack ? "; the workgroup fell back" : "");
}

// One box per tile (its status word for the digit), arcs above for the walks that have ended.
// `below`: the height of what follows the tiles (the legends), which the arcs leave room for: their
// space shrinks (to a line and a half at least) so that the legends end inside the window.
void tiles(const ViewContext& c, const LookbackReplay& r, const Counts& k, float below) {
    const size_t n = r.records.size();
    const float fs = ImGui::GetFontSize();
    const float w = ImGui::GetContentRegionAvail().x;
    const float pitch = std::min(w / float(n), fs * 5.0f);
    const float box = std::max(2.0f, pitch - std::min(6.0f, pitch * 0.15f));
    uint32_t deepest = 1;
    for (size_t t = 1; t < n; ++t) deepest = std::max(deepest, r.records[t].walks[r.digit].depth());
    const float boxH = fs * 2.0f;
    const float bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight() - ImGui::GetStyle().WindowPadding.y;
    const float room = bottom - ImGui::GetCursorScreenPos().y - boxH - fs - 4 - ImGui::GetStyle().ItemSpacing.y - below;
    const float arcH =
        std::max(fs * 1.5f, std::min({fs * 6.0f, fs * (1.5f + float(std::min<uint32_t>(deepest, 6)) * 0.8f), room}));
    const bool text = box >= ImGui::CalcTextSize("I 00").x + 6;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float top = o.y + arcH;
    const LookbackEvent* e = r.last();
    const uint32_t now = e ? e->event : 0;
    const Palette& pal = palette();
    drawWalkArcs(c, r, arcH, top, o.x, pitch, box);
    for (size_t t = 0; t < n; ++t) {
        const float x = o.x + pitch * float(t);
        const uint32_t flag = std::min<uint32_t>(r.state.flag[t], 2);
        dl->AddRectFilled(ImVec2(x, top), ImVec2(x + box, top + boxH), pal.flag[flag], 3.0f);
        const LookbackRecord& rec = r.records[t];
        const bool fellBackNow =
            t > 0 && rec.walks[r.digit].counted && rec.walks[r.digit].published && rec.walks[r.digit].published <= now;
        if (fellBackNow)
            dl->AddRect(ImVec2(x, top), ImVec2(x + box, top + boxH), pal.fallbackOutline, 3.0f, 0, 2.0f * c.line);
        if (const auto mark = highlighted(c.ui, HighlightKind::tile); mark && *mark == t) { // a lesson's tile
            const ImVec2 a(x - 4, top - 4), b(x + box + 4, top + boxH + 4);
            dl->AddRect(a, b, pal.highlight, 5.0f, 0, 2.5f * c.line);
            noteVisible(c.ui, ProbeItem::highlight, a, b);
        }
        if (e && e->tile == t)
            dl->AddRect(ImVec2(x - 2, top - 2), ImVec2(x + box + 2, top + boxH + 2), pal.currentEvent, 4.0f, 0,
                        2.0f * c.line);
        if (text) {
            char buf[32];
            if (flag == 0)
                std::snprintf(buf, sizeof buf, "-");
            else
                std::snprintf(buf, sizeof buf, "%s %u", flag == 2 ? "I" : "A", r.state.count[t]);
            const ImU32 ink = flag == 0 ? pal.flagInkNotReady : pal.flagInk;
            drawLabel(c.ui, dl, ImVec2(x + 4, top + (boxH - fs) / 2), ink, buf);
        }
        if (text || t % std::max<size_t>(1, size_t(fs * 3 / pitch)) == 0) {
            char id[24];
            std::snprintf(id, sizeof id, "%zu", t);
            drawLabel(c.ui, dl, ImVec2(x + 2, top + boxH + 2), pal.tileId, id);
        }
        if (ImGui::IsMouseHoveringRect(ImVec2(x, top), ImVec2(x + box, top + boxH))) tileTooltip(r, k, t);
    }
    ImGui::Dummy(ImVec2(w, arcH + boxH + fs + 4));
}

// The whole pass in numbers: how far the walks went (a bar per depth) and what they met.
void passStats(const UiState& ui, const LookbackStats& s) {
    char text[640];
    std::snprintf(text, sizeof text,
                  "This pass, every digit: %u tiles, %llu walks back; depth mean %.2f, median %u, 99th "
                  "percentile %u, deepest %u. Reads: %llu aggregates, %llu inclusive prefixes, %llu not ready. "
                  "%u tile%s fell back; %u taken by a workgroup of another index; %u finished before the tile "
                  "before them.",
                  s.tiles, static_cast<unsigned long long>(s.walks), s.meanDepth, s.medianDepth, s.p99Depth, s.maxDepth,
                  static_cast<unsigned long long>(s.readsAggregate), static_cast<unsigned long long>(s.readsInclusive),
                  static_cast<unsigned long long>(s.readsNotReady), s.fallbacks, s.fallbacks == 1 ? "" : "s",
                  s.takenOutOfOrder, s.finishedOutOfOrder);
    // The paragraph whole on screen or wholly below the window's bottom, never cut mid-line: a gap
    // where it would not fit (where it starts depends on the scroll, not on the gap after it).
    const float bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight() - ImGui::GetStyle().WindowPadding.y;
    const float room = bottom - ImGui::GetCursorScreenPos().y;
    if (const float need = wrappedHeight(text, ImGui::GetContentRegionAvail().x); room > 0 && room < need)
        ImGui::Dummy(ImVec2(1, room + ImGui::GetStyle().WindowPadding.y)); // past the padding, not clipped
    textWrappedAtSpaces(text);
    if (s.walks == 0 || s.depthCount.size() < 2) return;
    const float fs = ImGui::GetFontSize();
    const size_t bins = std::min<size_t>(s.depthCount.size() - 1, 32);
    uint64_t mx = 1;
    for (size_t d = 1; d <= bins; ++d) mx = std::max(mx, s.depthCount[d]);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const Palette& pal = palette();
    const float bw = std::min(fs * 3.0f, ImGui::GetContentRegionAvail().x / float(bins)), h = fs * 3.0f;
    for (size_t d = 1; d <= bins; ++d) {
        const float x = o.x + bw * float(d - 1), bh = std::max(1.0f, float(s.depthCount[d]) / float(mx) * h);
        dl->AddRectFilled(ImVec2(x + 1, o.y + h - bh), ImVec2(x + bw - 1, o.y + h), pal.depthBar);
        char buf[24];
        std::snprintf(buf, sizeof buf, "%zu", d);
        drawLabel(ui, dl, ImVec2(x + 2, o.y + h + 1), pal.depthLabel, buf);
        if (ImGui::IsMouseHoveringRect(ImVec2(x, o.y), ImVec2(x + bw, o.y + h)))
            ImGui::SetTooltip("%llu walk%s went back %zu tile%s", static_cast<unsigned long long>(s.depthCount[d]),
                              s.depthCount[d] == 1 ? "" : "s", d, d == 1 ? "" : "s");
    }
    ImGui::Dummy(ImVec2(bw * float(bins), h + fs + 2));
    ImGui::TextDisabled("walks by depth (tiles back)%s", s.depthCount.size() - 1 > bins ? ", the first 32" : "");
}

} // namespace

void drawLookbackReplay(const ViewContext& c, LookbackReplayChoice& choice) {
    const Snapshot& s = *c.v.data->snapshot;
    // The records and statistics are read once per snapshot; a frame only picks the digit and event.
    ViewState& m = c.views;
    if (m.replayFor != c.v.data->snapshot) {
        m.replayFor = c.v.data->snapshot;
        m.replay = lookbackReplay(s, choice);
    } else if (m.replay) {
        rechoose(*m.replay, s, choice);
    }
    const std::optional<LookbackReplay>& r = m.replay;
    if (!r) return;
    const Snapshot::Aux* prefix = s.find(AuxKind::tileCounts);
    if (!prefix || prefix->shape.size() != 2 || prefix->shape[0] < r->records.size() || prefix->shape[1] != 256) return;
    const Counts k{*prefix, r->digit};
    const Snapshot::Aux* h = s.find(AuxKind::histogram);
    const uint32_t keys = h && h->data.size() > r->digit ? h->data[r->digit] : 0;
    ImGui::Separator();
    const ImVec2 top = ImGui::GetCursorScreenPos();
    ImGui::Text("The lookback, event by event: digit %02X (%u key%s), %zu tiles", r->digit, keys, keys == 1 ? "" : "s",
                r->records.size());
    controls(*r, choice);
    wrappedf("%s", describe(*r, k, c.v.job.settings.config().knobs.forceFallback).c_str());
    // Where the window is short, the arcs' legend in a smaller font (four fifths) and the arcs lower,
    // so that both legends stay on screen under the tiles.
    const std::string arcLegend = "I: inclusive prefix, A: aggregate. An arc: a walk back, to the tile whose prefix "
                                  "ended it (red: it counted tiles itself, a fallback).";
    const float fs = ImGui::GetFontSize(), avail = ImGui::GetContentRegionAvail().x;
    const float room = ImGui::GetWindowPos().y + ImGui::GetWindowHeight() - ImGui::GetStyle().WindowPadding.y -
                       ImGui::GetCursorScreenPos().y;
    const float full =
        fs * 6.0f + fs * 3.0f + 4 + ImGui::GetTextLineHeightWithSpacing() * 2 + wrappedHeight(arcLegend, avail);
    const float kLegendScale = room >= full ? 1.0f : 0.8f; // full: the tallest arcs, the tiles, both legends
    ImGui::SetWindowFontScale(kLegendScale);
    const float legendH = wrappedHeight(arcLegend, avail);
    ImGui::SetWindowFontScale(1.0f);
    tiles(c, *r, k, ImGui::GetTextLineHeightWithSpacing() + legendH);
    flagLegend();
    // A lesson's stop about the replay: from its title to the colours' legend, on screen.
    noteSubject(c.ui, SubjectKind::replay, top, ImVec2(top.x + 1, ImGui::GetItemRectMax().y));
    ImGui::SetWindowFontScale(kLegendScale); // the text's own colour: read from the back of a room
    textWrappedAtSpaces(arcLegend);
    ImGui::SetWindowFontScale(1.0f);
    passStats(c.ui, r->stats);
    ImGui::Separator();
}

} // namespace sortlab::app
