#include <sortlab/app/lookback_replay.h>

#include <algorithm>

namespace sortlab::app {

std::vector<uint32_t> publishedSinceRead(const LookbackReplay& r, uint32_t tile, size_t shown) {
    std::vector<uint32_t> out;
    if (tile == 0 || tile >= r.records.size() || r.digit >= r.records[tile].walks.size()) return out;
    const LookbackWalk& w = r.records[tile].walks[r.digit];
    // A walk that counted a tile itself (forced: without reading its word) says nothing of what it read.
    if (w.counted) return out;
    // The walk covered tiles tile-1 .. tile-depth; all but an inclusive end were passed without one.
    const uint32_t depth = std::min(w.depth(), tile), passed = w.inclusive ? depth - 1 : depth;
    for (uint32_t k = 1; k <= passed; ++k) {
        const uint32_t u = tile - k;
        for (size_t e = 0; e < std::min(shown, r.events.size()); ++e)
            if (r.events[e].tile == u && r.events[e].kind == LookbackEventKind::published) {
                out.push_back(u);
                break;
            }
    }
    return out;
}

std::string publishedSinceReadText(const LookbackReplay& r, uint32_t tile, size_t shown) {
    const std::vector<uint32_t> u = publishedSinceRead(r, tile, shown);
    if (u.empty()) return {};
    std::string list;
    for (size_t i = 0; i < u.size(); ++i)
        list += (i == 0 ? "" : i + 1 == u.size() ? " and " : ", ") + std::to_string(u[i]);
    const bool one = u.size() == 1;
    return std::string(one ? "Tile " : "Tiles ") + list + (one ? " shows" : " show") +
           " I now, but had none yet when tile " + std::to_string(tile) + " read " + (one ? "it." : "them.");
}

uint32_t mostCommonDigit(const Snapshot& s) {
    const Snapshot::Aux* h = s.find(AuxKind::histogram);
    if (!h || h->data.empty()) return 0;
    return static_cast<uint32_t>(std::max_element(h->data.begin(), h->data.end()) - h->data.begin());
}

std::optional<LookbackReplay> lookbackReplay(const Snapshot& s, const LookbackReplayChoice& choice) {
    const Snapshot::Aux* log = s.find(AuxKind::lookbackLog);
    const Snapshot::Aux* prefix = s.find(AuxKind::tileCounts);
    if (!log || !prefix) return std::nullopt;
    // A skipped pass ran no tile: its log (and statuses) are an older pass's.
    if (s.passSkipped()) return std::nullopt;
    LookbackReplay r;
    r.records = lookbackRecords(*log);
    if (r.records.empty()) return std::nullopt;
    r.stats = lookbackStats(r.records);
    rechoose(r, s, choice);
    return r;
}

void rechoose(LookbackReplay& r, const Snapshot& s, const LookbackReplayChoice& choice) {
    const Snapshot::Aux* prefix = s.find(AuxKind::tileCounts);
    if (!prefix) return;
    r.digit = choice.digit >= 0 ? std::min<uint32_t>(uint32_t(choice.digit), 255) : mostCommonDigit(s);
    r.events = lookbackEvents(r.records, r.digit);
    r.shown = choice.shown < 0 ? r.events.size() : std::min(size_t(choice.shown), r.events.size());
    r.state = lookbackStateAt(r.records, *prefix, r.digit, r.shown ? r.events[r.shown - 1].event : 0);
}

} // namespace sortlab::app
