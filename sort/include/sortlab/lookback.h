// OneSweep's lookback as the GPU ran it: the log of the instrumented pass kernel
// (SortKnobs::logLookback, AuxKind::lookbackLog) read into records, a pass's statistics, and the
// replay of a pass, event by event. Events are numbered from 1 in one sequence for the whole sort
// (0: none); the layout of the log is in sortlab/shaders/constants.h (SORTLAB_OS_LOG_*).
#pragma once

#include <sortlab/job.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace sortlab {

// One digit's walk back in one tile: which predecessors' status words it read, until it had the
// count of that digit in every tile before its own.
struct LookbackWalk {
    uint32_t aggregates = 0; // predecessors' aggregates it added (walking on past them)
    uint32_t counted = 0;    // predecessors whose keys it counted itself (it fell back)
    bool inclusive = false;  // it ended on a predecessor's inclusive prefix
    uint32_t notReady = 0;   // reads of a status word not published yet
    uint32_t published = 0;  // the event just before it published its own inclusive prefix (0: tile 0)
    // How many predecessors the walk covered (1: the tile just before had its inclusive prefix).
    uint32_t depth() const { return aggregates + counted + (inclusive ? 1u : 0u); }
};

// One tile of one pass.
struct LookbackRecord {
    uint32_t took = 0;      // the event of taking its tile id
    uint32_t aggregate = 0; // just before it published its aggregates (0 for tile 0)
    uint32_t inclusive = 0; // after it had published every inclusive prefix (tile 0: just before)
    bool fellBack = false;  // the workgroup counted a predecessor's keys itself
    uint32_t workgroup = 0; // the index of the workgroup that took the tile
    // It logged taking its id in id order (SortKnobs::logInIdOrder: it waited for the tile before
    // to log its own; a tile that waited too long, or an unordered log, says false).
    bool tookInOrder = false;
    uint32_t readsNotReady = 0, readsAggregate = 0, readsInclusive = 0; // status words read, all digits
    std::vector<LookbackWalk> walks; // per digit (256; all zero for tile 0, which walks nowhere)
};

// The records of one pass from its AuxKind::lookbackLog entry (shape {tiles, SORTLAB_OS_LOG_RECORD});
// empty for anything else.
std::vector<LookbackRecord> lookbackRecords(const Snapshot::Aux& log);

// A pass's lookback in numbers, for GPU programmers: how far the walks went and what they found.
struct LookbackStats {
    uint32_t tiles = 0;
    uint64_t walks = 0;               // (tile > 0, digit) pairs
    std::vector<uint64_t> depthCount; // [k]: walks that covered k predecessors (k >= 1; [0] stays 0)
    double meanDepth = 0;
    uint32_t medianDepth = 0, p99Depth = 0, maxDepth = 0;
    uint64_t readsNotReady = 0, readsAggregate = 0, readsInclusive = 0;
    uint32_t fallbacks = 0;    // tiles whose workgroup counted a predecessor's keys itself
    uint64_t countedTiles = 0; // predecessors counted that way, over all walks
    // Tiles taken by a workgroup of another index: the id comes from a counter, in the order the
    // workgroups start, not from gl_WorkGroupID (the seed's guard against a deadlock).
    uint32_t takenOutOfOrder = 0;
    // Tiles that published every inclusive prefix before the tile just before them had.
    uint32_t finishedOutOfOrder = 0;
    // The most tiles at once between taking their id and publishing their last inclusive prefix.
    // The instrumented kernel runs one tile a workgroup, so this is how many workgroups ran at
    // once, at least (a tile's write-out, after that event, is not counted).
    uint32_t inFlightMax = 0;
};
LookbackStats lookbackStats(const std::vector<LookbackRecord>& records);

// The replay of one pass for one digit: the events that change that digit's status words.
enum class LookbackEventKind : uint8_t {
    took,      // the tile took its id
    aggregate, // it published its aggregates (every digit)
    published, // it published the digit's inclusive prefix (tile 0: every digit, at once)
};
std::string_view lookbackEventKindName(LookbackEventKind kind);
struct LookbackEvent {
    uint32_t event = 0; // the GPU's event number
    uint32_t tile = 0;
    LookbackEventKind kind = LookbackEventKind::took;
};
// Sorted by event number.
std::vector<LookbackEvent> lookbackEvents(const std::vector<LookbackRecord>& records, uint32_t digit);

// The status words of every tile for one digit just after event `event`: flag 0 not ready,
// 1 aggregate, 2 inclusive prefix, and the count the word holds. `prefix` is the pass's status
// counts after it ended (AuxKind::tileCounts {tiles, 256}: every tile's inclusive prefixes), which
// give the aggregates too. After the last event this is the status buffer the pass left.
struct LookbackState {
    std::vector<uint32_t> flag, count;
};
LookbackState lookbackStateAt(const std::vector<LookbackRecord>& records, const Snapshot::Aux& prefix, uint32_t digit,
                              uint32_t event);

} // namespace sortlab
