#include <sortlab/lookback.h>

#include <sortlab/shaders/constants.h>

#include <algorithm>
#include <iterator>

namespace sortlab {

std::vector<LookbackRecord> lookbackRecords(const Snapshot::Aux& log) {
    std::vector<LookbackRecord> out;
    if (log.kind != AuxKind::lookbackLog || log.shape.size() != 2 || log.shape[1] != SORTLAB_OS_LOG_RECORD) return out;
    for (size_t t = 0; t < log.shape[0] && (t + 1) * SORTLAB_OS_LOG_RECORD <= log.data.size(); ++t) {
        const uint32_t* r = log.data.data() + t * SORTLAB_OS_LOG_RECORD;
        LookbackRecord rec;
        rec.took = r[SORTLAB_OS_LOG_TOOK];
        rec.aggregate = r[SORTLAB_OS_LOG_AGGREGATE];
        rec.inclusive = r[SORTLAB_OS_LOG_INCLUSIVE];
        rec.fellBack = r[SORTLAB_OS_LOG_FELL_BACK] != 0;
        rec.workgroup = r[SORTLAB_OS_LOG_WORKGROUP];
        rec.tookInOrder = r[SORTLAB_OS_LOG_IN_ORDER] != 0;
        rec.walks.resize(256);
        for (uint32_t d = 0; d < 256; ++d) {
            const uint32_t w = r[SORTLAB_OS_LOG_WALK + d];
            LookbackWalk& k = rec.walks[d];
            k.aggregates = w & 0xffffu;
            k.counted = (w >> SORTLAB_OS_LOG_WALK_COUNTED_SHIFT) & 0x7fffu;
            k.inclusive = (w >> SORTLAB_OS_LOG_WALK_INCLUSIVE_BIT) != 0;
            k.notReady = r[SORTLAB_OS_LOG_NOT_READY + d];
            k.published = r[SORTLAB_OS_LOG_PUBLISHED + d];
            rec.readsNotReady += k.notReady;
            rec.readsAggregate += k.aggregates;
            rec.readsInclusive += k.inclusive ? 1u : 0u;
        }
        out.push_back(std::move(rec));
    }
    return out;
}

LookbackStats lookbackStats(const std::vector<LookbackRecord>& records) {
    LookbackStats s;
    s.tiles = static_cast<uint32_t>(records.size());
    s.depthCount.assign(1, 0);
    uint64_t depthSum = 0;
    for (size_t t = 0; t < records.size(); ++t) {
        const LookbackRecord& r = records[t];
        s.readsNotReady += r.readsNotReady;
        s.readsAggregate += r.readsAggregate;
        s.readsInclusive += r.readsInclusive;
        s.fallbacks += r.fellBack ? 1u : 0u;
        s.takenOutOfOrder += r.workgroup != t ? 1u : 0u;
        if (t > 0 && r.inclusive < records[t - 1].inclusive) ++s.finishedOutOfOrder;
        if (t == 0) continue;
        for (const LookbackWalk& w : r.walks) {
            const uint32_t d = w.depth();
            if (d >= s.depthCount.size()) s.depthCount.resize(d + 1, 0);
            ++s.depthCount[d];
            depthSum += d;
            s.countedTiles += w.counted;
            ++s.walks;
        }
    }
    // Tiles in flight: +1 at the event of taking the id, -1 at the last inclusive prefix (events are
    // numbered in one sequence, each once).
    std::vector<std::pair<uint32_t, int>> edges;
    for (const LookbackRecord& r : records)
        if (r.took != 0 && r.inclusive > r.took) {
            edges.push_back({r.took, +1});
            edges.push_back({r.inclusive, -1});
        }
    std::sort(edges.begin(), edges.end());
    int inFlight = 0;
    for (const auto& e : edges) s.inFlightMax = std::max(s.inFlightMax, static_cast<uint32_t>(inFlight += e.second));
    if (s.walks == 0) return s;
    s.meanDepth = double(depthSum) / double(s.walks);
    s.maxDepth = static_cast<uint32_t>(s.depthCount.size() - 1);
    // The smallest depth with at least that share of the walks at or below it.
    auto quantile = [&](double q) {
        const double want = q * double(s.walks);
        uint64_t seen = 0;
        for (size_t d = 0; d < s.depthCount.size(); ++d)
            if ((seen += s.depthCount[d]) >= want) return static_cast<uint32_t>(d);
        return s.maxDepth;
    };
    s.medianDepth = quantile(0.5);
    s.p99Depth = quantile(0.99);
    return s;
}

namespace {
constexpr std::string_view kEventKindNames[] = {"took its id", "published its aggregates",
                                                "published its inclusive prefix"}; // LookbackEventKind's order
static_assert(std::size(kEventKindNames) == size_t(LookbackEventKind::published) + 1, "a name per LookbackEventKind");
} // namespace

std::string_view lookbackEventKindName(LookbackEventKind kind) {
    const size_t i = static_cast<size_t>(kind);
    return i < std::size(kEventKindNames) ? kEventKindNames[i] : "?";
}

std::vector<LookbackEvent> lookbackEvents(const std::vector<LookbackRecord>& records, uint32_t digit) {
    std::vector<LookbackEvent> out;
    if (digit >= 256) return out;
    for (uint32_t t = 0; t < records.size(); ++t) {
        const LookbackRecord& r = records[t];
        if (r.took) out.push_back({r.took, t, LookbackEventKind::took});
        if (t == 0) {
            if (r.inclusive) out.push_back({r.inclusive, t, LookbackEventKind::published});
            continue;
        }
        if (r.aggregate) out.push_back({r.aggregate, t, LookbackEventKind::aggregate});
        if (r.walks.size() > digit && r.walks[digit].published)
            out.push_back({r.walks[digit].published, t, LookbackEventKind::published});
    }
    std::sort(out.begin(), out.end(), [](const LookbackEvent& a, const LookbackEvent& b) { return a.event < b.event; });
    return out;
}

LookbackState lookbackStateAt(const std::vector<LookbackRecord>& records, const Snapshot::Aux& prefix, uint32_t digit,
                              uint32_t event) {
    LookbackState s;
    const size_t tiles = records.size();
    s.flag.assign(tiles, 0);
    s.count.assign(tiles, 0);
    const bool havePrefix = prefix.shape.size() == 2 && prefix.shape[1] > digit &&
                            prefix.data.size() >= size_t(prefix.shape[0]) * prefix.shape[1];
    auto inclusiveOf = [&](size_t t) -> uint32_t {
        return havePrefix && t < prefix.shape[0] ? prefix.data[t * prefix.shape[1] + digit] : 0;
    };
    for (size_t t = 0; t < tiles; ++t) {
        const LookbackRecord& r = records[t];
        const uint32_t published = t == 0 ? r.inclusive : (r.walks.size() > digit ? r.walks[digit].published : 0);
        if (published && published <= event) {
            s.flag[t] = SORTLAB_OS_INCLUSIVE;
            s.count[t] = inclusiveOf(t);
        } else if (t > 0 && r.aggregate && r.aggregate <= event) {
            s.flag[t] = SORTLAB_OS_AGGREGATE;
            s.count[t] = inclusiveOf(t) - inclusiveOf(t - 1);
        }
    }
    return s;
}

} // namespace sortlab
