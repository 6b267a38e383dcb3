#include <sortlab/app/lookback_replay.h>

#include <algorithm>

namespace sortlab::app {

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
