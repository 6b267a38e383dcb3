// Tuning tables: one per algorithm, keyed by key width (4 or 8 bytes) and whether values ride along,
// in the style of CUB's tuning_radix_sort.cuh: each row names only what differs from the defaults and
// has a one-line note with the measured reason; the measurements are in docs/notebook/tuning.md.
// Private to the library (its sources, its tests and sortlab-bench's tuning overrides). The numbers
// that shape a kernel reach it as specialization constants (constants.h: SORTLAB_SPEC_*), but for
// OneSweep's lookback spin limit and batch, which are compiled in (SORTLAB_OS_SPIN_LIMIT and
// SORTLAB_OS_LOOKBACK_BATCH): as specialization constants they cost the H100's 64-bit passes 0.5-0.9 %.
#pragma once

#include <algorithm>
#include <cstdint>

namespace sortlab::tuning {

// Dispatches wider than this are folded into a 2-D grid (maxComputeWorkGroupCount[0] is at least
// 65535 on every device).
inline constexpr uint32_t kMaxGroupsX = 32768;

// [SECTION] Odd-even merge network (oddeven_layer.comp, oddeven_warp.comp, the planner) -------------

struct OddEvenTuning {
    uint32_t layerWorkgroup = 256; // oddeven_layer.comp: one comparator per invocation
    uint32_t warpWorkgroup = 256;  // oddeven_warp.comp: windows (subgroups) per workgroup x subgroup size
    uint32_t keysPerLane = 32;     // oddeven_warp.comp: a window is subgroup size x this (16 or 32)
    uint32_t logMaxColumns = 5;    // widest run of adjacent columns a window step holds (2^this keys)
    // The planner's cost model: runs shorter than a memory sector pay for the whole sector; each
    // fused layer costs layerCost more; a window step must beat the single layer by minGain.
    uint32_t sectorBytes = 32;
    double layerCost = 0.02, minGain = 1.02;
};

struct OddEvenRow {
    uint32_t keyBytes;
    bool values;
    OddEvenTuning t;
};

// Each row's measurements: docs/notebook/tuning.md#tuning-odd-even.
inline constexpr OddEvenRow kOddEvenTable[] = {
    // 32 keys a lane beat 16 (2^24 u32 H200: 5.2 vs 5.9 ms); warp workgroup 256 ~ 128
    {4, false, {.keysPerLane = 32}},
    {4, true, {.keysPerLane = 32}},  // as u32 keys (not measured apart)
    {8, false, {.keysPerLane = 32}}, // as u32 keys (not measured apart)
    {8, true, {.keysPerLane = 32}},  // as u32 keys (not measured apart)
};

// [SECTION] Radix4: 4-bit LSD radix sort (radix4_*.comp) ---------------------------------------------

struct Radix4Tuning {
    uint32_t workgroup = 128;      // count and scatter kernels (halved where shared memory is short)
    uint32_t keysPerLane = 16;     // count and scatter kernels: a tile is workgroup x this (at most 16)
    uint32_t scanWorkgroup = 1024; // scan kernel (capped by the device's limit)
    uint32_t scanPerLane = 16;     // counts each scan invocation scans serially in a chunk (a multiple of 4)
};

struct Radix4Row {
    uint32_t keyBytes;
    bool values;
    Radix4Tuning t;
};

// Each row's measurements: docs/notebook/tuning.md#tuning-radix4.
inline constexpr Radix4Row kRadix4Table[] = {
    // 128 x 16 beat 256 and 512 (2^28 u32 H200: 11.46 vs 12.67 / 14.01 ms); scan 1024 x 16
    {4, false, {.workgroup = 128, .keysPerLane = 16}},
    // 128 ~ 256 for pairs (2^28 u32/u32 H200: 16.04 vs 15.90 ms), kept at 128
    {4, true, {.workgroup = 128, .keysPerLane = 16}},
    {8, false, {.workgroup = 128, .keysPerLane = 8}}, // 8 keys a lane: the same 8 KiB staged tile as u32
    {8, true, {.workgroup = 128, .keysPerLane = 8}},  // as u64 keys (values reuse the staged tile)
};

// [SECTION] OneSweep: 8-bit radix sort with decoupled lookback (onesweep_*.comp) ---------------------

// A number of tiles no pass reaches: minPersistentTiles of a row whose passes run one tile a
// workgroup on GPUs at every size, minIndexTiles of a row whose tiles always come from the counter.
inline constexpr uint64_t kNever = UINT64_MAX;

// The pass kernel's shape and the shared-memory layout of its tile.
struct OneSweepPass {
    uint32_t workgroup = 384;    // invocations (halved where shared memory is short)
    uint32_t keysPerLane = 20;   // a tile is workgroup x this (4 bytes staged a key)
    uint32_t exchangeRounds = 1; // the staged tile holds 1 / this of a tile, written out in as many rounds
    // The subgroups' digit counts share the staged tile's shared memory, as CUB's ranking and
    // exchange storage do: more keys a tile in the same 48 KiB (rounds then stay 1).
    bool countsInTile = false;
    bool whereInRegister = false; // which buffer a pass reads is copied into a register once
    // Persistent passes: the next tile's keys are loaded before the ranking (in flight during it)
    // rather than after it (taking no registers during it).
    bool loadNextEarly = false;
};

// How a pass hands its tiles to workgroups: one tile each, or persistent workgroups that take
// tiles in turn, with lookback steps between ranking iterations.
struct OneSweepTiles {
    bool persistent = false;              // persistent workgroups from minPersistentTiles tiles on
    uint32_t lookbackStride = 0;          // a lookback step every this many ranking iterations (0: none)
    uint64_t minPersistentTiles = 1024;   // GPUs: below this many tiles, one tile a workgroup
    uint64_t minLookbackStepTiles = 1024; // GPUs, one tile a workgroup: lookback steps from this many tiles
    // GPUs that tell their multiprocessors (NVIDIA's), one tile a workgroup: from this many tiles on,
    // a workgroup's tile is its own index (its loads start before its first barrier); below, and on
    // other GPUs, it takes the next id from the pass's counter.
    uint64_t minIndexTiles = kNever;
    uint32_t persistentWorkgroups = 2048;     // the most a dispatch starts (multiprocessors not known)
    uint32_t persistentPerMultiprocessor = 1; // where the device tells its multiprocessors
    uint32_t maxTilesPerWorkgroup = 2048;     // the most tiles a persistent workgroup takes (GPUs)
    // CPU devices: lavapipe spends about 28 us setting up each workgroup, so fewer, persistent
    // ones from fewer tiles, each taking fewer tiles (its loops end at about 65535 iterations).
    uint32_t maxTilesPerWorkgroupCpu = 128;
    uint32_t persistentWorkgroupsCpu = 32;
    uint64_t minPersistentTilesCpu = 64;
};

// The histogram kernel: one pass over the keys that counts every digit of every pass.
struct OneSweepHistogram {
    uint32_t keysPerWorkgroup = 65536; // keys each workgroup counts (at least)
    uint32_t maxWorkgroups = 1024;     // the most workgroups it starts
    // Where the device tells its multiprocessors: more workgroups than keysPerWorkgroup gives, down
    // to this many keys each, up to this many a multiprocessor.
    uint32_t minKeysPerWorkgroup = 8192;
    uint32_t workgroupsPerMultiprocessor = 2;
    uint32_t loadsInFlight = 8; // keys an invocation loads before counting them
    uint32_t workgroup = 0;     // invocations a workgroup (0: the pass kernel's)
    uint32_t copies = 2;        // copies of its counts in shared memory (1 or 2)
};

struct OneSweepTuning {
    OneSweepPass pass;
    OneSweepTiles tiles;
    OneSweepHistogram histogram;
};

// A row applies to sorts of fromKeys keys or more, up to the next row of the same keys and values.
struct OneSweepRow {
    uint32_t keyBytes;
    bool values;
    uint64_t fromKeys;
    OneSweepTuning t;
};

// The shapes the rows use.
inline constexpr OneSweepPass kPassU32{
    .workgroup = 384, .keysPerLane = 20, .exchangeRounds = 2, .whereInRegister = true, .loadNextEarly = true};
inline constexpr OneSweepPass kPass384x20{.workgroup = 384, .keysPerLane = 20, .exchangeRounds = 2};
inline constexpr OneSweepPass kPass512x18{.workgroup = 512, .keysPerLane = 18};
inline constexpr OneSweepPass kPass640x17{
    .workgroup = 640, .keysPerLane = 17, .countsInTile = true, .loadNextEarly = true};
inline constexpr OneSweepPass kPass256x28{
    .workgroup = 256, .keysPerLane = 28, .exchangeRounds = 2, .loadNextEarly = true};
// One tile a workgroup on GPUs (by index on NVIDIA), steps every 7 from 1024 tiles; persistent on CPUs.
inline constexpr OneSweepTiles kIndexSteps7{
    .persistent = true, .lookbackStride = 7, .minPersistentTiles = kNever, .minIndexTiles = 0};
// One tile a workgroup on GPUs (by index on NVIDIA), no steps; persistent on CPUs.
inline constexpr OneSweepTiles kIndexCpuPersistent{
    .persistent = true, .minPersistentTiles = kNever, .minLookbackStepTiles = kNever, .minIndexTiles = 0};
inline constexpr OneSweepTiles kPersistentSteps3{.persistent = true, .lookbackStride = 3}; // from 1024 tiles
inline constexpr OneSweepTiles kOneTileEach{};                                             // ids from the counter
inline constexpr OneSweepTiles kOneTileIndex{.minIndexTiles = 0};                          // by index on NVIDIA
inline constexpr OneSweepHistogram kHistogram{};
inline constexpr OneSweepHistogram kHistogram640{.workgroup = 640};

// Each row's measurements: docs/notebook/tuning.md#tuning-onesweep.
inline constexpr OneSweepRow kOneSweepTable[] = {
    // u32: 384 x 20 beat 448 x 16 (2^28 H100 6.39 vs 6.50 ms); index tiles 2^28 6.50 vs 6.75 from the counter
    {4, false, 0, {kPassU32, kIndexSteps7, kHistogram640}},
    // u32/u32 below 3 x 2^20: 512 x 18 beat 384 x 20 (2^21 H100 0.1384 vs 0.1493 ms)
    {4, true, 0, {kPass512x18, kPersistentSteps3, kHistogram}},
    // u32/u32 3 x 2^20 to 2^26: 384 x 20 by index, 2 rounds (2^24 H100 0.645 vs 0.657 ms for 512 x 18)
    {4, true, 3u << 20, {kPass384x20, kIndexCpuPersistent, kHistogram}},
    // u32/u32 above 2^26: 512 x 18 persistent, steps every 3 (2^28 H100 9.03 vs 9.48 ms for 384 x 20)
    {4, true, (1u << 26) + 1, {kPass512x18, kPersistentSteps3, kHistogram}},
    // 64-bit below 3 x 2^20: 640 x 17, counts in the tile (2^20 H100 0.153 vs 0.171 ms for 256 x 28)
    {8, false, 0, {kPass640x17, kOneTileEach, kHistogram}},
    // 64-bit from 3 x 2^20: 256 x 28 by index, 2 rounds (2^27 H100 8.75 vs 9.30 ms for 640 x 17)
    {8, false, 3u << 20, {kPass256x28, kOneTileIndex, kHistogram640}},
    // 64-bit/u32: 512 x 18, one tile a workgroup (2^27 H100 13.00 vs 15.96 ms persistent)
    {8, true, 0, {kPass512x18, kOneTileEach, kHistogram}},
};

// [SECTION] Look-ups ---------------------------------------------------------------------------------

namespace detail {
// Whether a row is for keyBytes-byte keys (8, or else 4) with values or not.
template <class Row> constexpr bool isRowFor(const Row& r, uint32_t keyBytes, bool values) {
    return r.keyBytes == (keyBytes == 8 ? 8u : 4u) && r.values == values;
}
// The row for keyBytes-byte keys with values or not.
template <class Row, size_t N> constexpr const Row& find(const Row (&table)[N], uint32_t keyBytes, bool values) {
    for (const Row& r : table)
        if (isRowFor(r, keyBytes, values)) return r;
    return table[0]; // unreachable: every table has the four rows
}
// OneSweep's: the last of those rows whose fromKeys is at most n.
constexpr const OneSweepRow& findOneSweep(uint32_t keyBytes, bool values, uint64_t n) {
    const OneSweepRow* found = &kOneSweepTable[0];
    for (const OneSweepRow& r : kOneSweepTable)
        if (isRowFor(r, keyBytes, values) && r.fromKeys <= n) found = &r;
    return *found; // (rows of the same keys and values come in fromKeys order, the first from 0)
}
} // namespace detail

// The tuning for a sort of keyBytes-byte keys (4 or 8), with values or not.
constexpr OddEvenTuning oddEven(uint32_t keyBytes, bool values) {
    return detail::find(kOddEvenTable, keyBytes, values).t;
}
constexpr Radix4Tuning radix4(uint32_t keyBytes, bool values) {
    return detail::find(kRadix4Table, keyBytes, values).t;
}
// OneSweep's for a sort of n keys.
constexpr OneSweepTuning oneSweep(uint32_t keyBytes, bool values, uint64_t n) {
    return detail::findOneSweep(keyBytes, values, n).t;
}

// The histogram kernel's workgroups for n keys: one per histogramKeysPerWorkgroup keys, or, where
// the device tells its multiprocessors (0: it does not), as many as give each at least
// histogramMinKeysPerWorkgroup keys, up to histogramWorkgroupsPerMultiprocessor a multiprocessor,
// if that is more; from 1 to histogramMaxWorkgroups.
constexpr uint32_t oneSweepHistogramWorkgroups(uint64_t n, uint32_t multiprocessors, const OneSweepTuning& t) {
    auto groups = [n](uint64_t keysEach) { return (n + keysEach - 1) / keysEach; };
    const OneSweepHistogram& h = t.histogram;
    const uint64_t spread = uint64_t(multiprocessors) * h.workgroupsPerMultiprocessor;
    const uint64_t g = std::max(groups(h.keysPerWorkgroup), std::min(groups(h.minKeysPerWorkgroup), spread));
    return uint32_t(std::clamp<uint64_t>(g, 1, h.maxWorkgroups));
}

// What the kernels assume of the numbers they are given.
constexpr bool valid(const OddEvenTuning& t) {
    return (t.keysPerLane == 16 || t.keysPerLane == 32) && t.warpWorkgroup > 0 && t.layerWorkgroup > 0;
}
constexpr bool valid(const Radix4Tuning& t, uint32_t keyBytes) {
    // FOR_EACH_KEY (radix4.glsl) unrolls up to 16 keys; the count kernel loads 16-byte vectors.
    return t.keysPerLane >= 1 && t.keysPerLane <= 16 && t.keysPerLane * keyBytes % 16 == 0 && t.scanPerLane % 4 == 0;
}
constexpr bool valid(const OneSweepTuning& t) {
    const OneSweepHistogram& h = t.histogram;
    return t.pass.keysPerLane > 0 && t.pass.exchangeRounds >= 1 && t.tiles.maxTilesPerWorkgroup > 0 &&
           t.tiles.maxTilesPerWorkgroupCpu > 0 && h.loadsInFlight > 0 && (h.copies == 1 || h.copies == 2) &&
           h.keysPerWorkgroup > 0 && h.minKeysPerWorkgroup > 0 && h.maxWorkgroups > 0;
}
static_assert([] {
    for (const auto& r : kOddEvenTable)
        if (!valid(r.t)) return false;
    for (const auto& r : kRadix4Table)
        if (!valid(r.t, r.keyBytes)) return false;
    // OneSweep: each key size and kind from 0 keys on, its rows in fromKeys order.
    for (size_t i = 0; i < sizeof kOneSweepTable / sizeof kOneSweepTable[0]; ++i) {
        const OneSweepRow& r = kOneSweepTable[i];
        if (!valid(r.t)) return false;
        const bool first =
            i == 0 || kOneSweepTable[i - 1].keyBytes != r.keyBytes || kOneSweepTable[i - 1].values != r.values;
        if (first ? r.fromKeys != 0 : r.fromKeys <= kOneSweepTable[i - 1].fromKeys) return false;
    }
    for (uint32_t keyBytes : {4u, 8u})
        for (bool values : {false, true})
            if (!detail::isRowFor(detail::findOneSweep(keyBytes, values, 0), keyBytes, values)) return false;
    return sizeof kOddEvenTable / sizeof kOddEvenTable[0] == 4 && sizeof kRadix4Table / sizeof kRadix4Table[0] == 4;
}());

} // namespace sortlab::tuning
