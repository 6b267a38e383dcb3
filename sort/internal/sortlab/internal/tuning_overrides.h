// Tuning overrides: what tuning experiments set to try other kernel shapes than the tuning table's
// (sortlab-bench --onesweep-shape and --onesweep-histogram, on a GPU), and what the tests set so
// that small n reach paths only large n take (several portions per pass, workgroups that take
// several tiles). Not part of the public API: the library's sources, its tests and sortlab-bench
// include this (the sortlab_sort_tuning target), and nothing installs it.
#pragma once

#include <sortlab/sorter.h>

#include <cstdint>

namespace sortlab::internal {

struct OneSweepLimits {
    // Tiles per portion of a pass (each portion is one chained scan). 0: as many as the 29-bit
    // counts of the tile status words allow (2^29 - 1 keys).
    uint32_t portionTiles = 0;
    // At most this many workgroups per pass dispatch, and the pass kernel persistent whatever the
    // tiles (each workgroup takes tiles in turn) where the tuning makes it persistent at all; at
    // least enough that none takes more than tuning::OneSweepTuning::maxTilesPerWorkgroup.
    // 0: the tuned behaviour.
    uint32_t passWorkgroups = 0;
    // The pass kernel's shape instead of the tuning table's, for tuning experiments (sortlab-bench
    // --onesweep-shape): invocations per workgroup, keys per invocation, and persistent workgroups
    // per multiprocessor where the device tells its multiprocessors. 0: the table's.
    uint32_t workgroup = 0, keysPerLane = 0, perMultiprocessor = 0;
    // tuning::OneSweepTuning::countsInTile instead of the table's: -1 the table's, 0 false, 1 true.
    int countsInTile = -1;
    // tuning::OneSweepTuning::exchangeRounds instead of the table's (0: the table's), and one tile a
    // workgroup (no persistent workgroups, no lookback steps) whatever the table says.
    uint32_t exchangeRounds = 0;
    bool oneTileAWorkgroup = false;
    // Passes of one tile a workgroup: -1 as the table says (tuning::OneSweepTuning::minIndexTiles),
    // 0 every tile id from the pass's counter, 1 every workgroup's tile its own index, at every size.
    int indexTiles = -1;
    // The histogram kernel's shape instead of the table's (sortlab-bench --onesweep-histogram):
    // invocations a workgroup (0: the table's; set, a fixed number of workgroups a multiprocessor at
    // every n, down to 16 keys an invocation), workgroups a multiprocessor, copies of the counts (1
    // or 2), keys an invocation loads before it counts them. 0: the table's.
    uint32_t histogramWorkgroup = 0, histogramPerMultiprocessor = 0, histogramCopies = 0, histogramLoads = 0;
};

// Plans of `sorter` (a OneSweep sorter) use these limits from now on; false for another sorter.
bool setOneSweepLimits(Sorter& sorter, const OneSweepLimits& limits);

// Sets the limits for a scope, and the tuned behaviour back at its end.
class ScopedOneSweepLimits {
public:
    ScopedOneSweepLimits(Sorter& sorter, const OneSweepLimits& limits) : sorter_(sorter) {
        setOneSweepLimits(sorter_, limits);
    }
    ~ScopedOneSweepLimits() { setOneSweepLimits(sorter_, {}); }
    ScopedOneSweepLimits(const ScopedOneSweepLimits&) = delete;
    ScopedOneSweepLimits& operator=(const ScopedOneSweepLimits&) = delete;

private:
    Sorter& sorter_;
};

} // namespace sortlab::internal
