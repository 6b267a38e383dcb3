// Tuning tables: one per algorithm, keyed by key width (4 or 8 bytes) and whether values ride along,
// in the style of CUB's tuning_radix_sort.cuh. Each row has a one-line note with the measured reason;
// the measurements themselves are in docs/benchmarks.md (the anchors named on each row). The numbers
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
    uint32_t layerWorkgroup; // oddeven_layer.comp: one comparator per invocation
    uint32_t warpWorkgroup;  // oddeven_warp.comp: windows (subgroups) per workgroup x subgroup size
    uint32_t keysPerLane;    // oddeven_warp.comp: a window is subgroup size x this (16 or 32)
    uint32_t logMaxColumns;  // widest run of adjacent columns a window step holds (2^this keys)
    // The planner's cost model: runs shorter than a memory sector pay for the whole sector; each
    // fused layer costs layerCost more; a window step must beat the single layer by minGain.
    uint32_t sectorBytes;
    double layerCost, minGain;
};

struct OddEvenRow {
    uint32_t keyBytes;
    bool values;
    OddEvenTuning t;
};

// clang-format off
inline constexpr OddEvenRow kOddEvenTable[] = {
    // 32 keys a lane beat 16 (5.2 vs 5.9 ms at 2^24 u32, H200); warp workgroup 256 ~ 128; docs/benchmarks.md#tuning-odd-even
    {4, false, {.layerWorkgroup = 256, .warpWorkgroup = 256, .keysPerLane = 32, .logMaxColumns = 5, .sectorBytes = 32, .layerCost = 0.02, .minGain = 1.02}},
    // as u32 keys (not measured apart); docs/benchmarks.md#tuning-odd-even
    {4, true, {.layerWorkgroup = 256, .warpWorkgroup = 256, .keysPerLane = 32, .logMaxColumns = 5, .sectorBytes = 32, .layerCost = 0.02, .minGain = 1.02}},
    // as u32 keys (not measured apart); docs/benchmarks.md#tuning-odd-even
    {8, false, {.layerWorkgroup = 256, .warpWorkgroup = 256, .keysPerLane = 32, .logMaxColumns = 5, .sectorBytes = 32, .layerCost = 0.02, .minGain = 1.02}},
    // as u32 keys (not measured apart); docs/benchmarks.md#tuning-odd-even
    {8, true, {.layerWorkgroup = 256, .warpWorkgroup = 256, .keysPerLane = 32, .logMaxColumns = 5, .sectorBytes = 32, .layerCost = 0.02, .minGain = 1.02}},
};
// clang-format on

// [SECTION] Radix4: 4-bit LSD radix sort (radix4_*.comp) ---------------------------------------------

struct Radix4Tuning {
    uint32_t workgroup;     // count and scatter kernels (halved where shared memory is short)
    uint32_t keysPerLane;   // count and scatter kernels: a tile is workgroup x this (at most 16)
    uint32_t scanWorkgroup; // scan kernel (capped by the device's limit)
    uint32_t scanPerLane;   // counts each scan invocation scans serially in a chunk (a multiple of 4)
};

struct Radix4Row {
    uint32_t keyBytes;
    bool values;
    Radix4Tuning t;
};

// clang-format off
inline constexpr Radix4Row kRadix4Table[] = {
    // 128 x 16 beat 256 and 512 (2^28 u32, H200: 11.46 vs 12.67 / 14.01 ms); scan 1024 x 16; docs/benchmarks.md#tuning-radix4
    {4, false, {.workgroup = 128, .keysPerLane = 16, .scanWorkgroup = 1024, .scanPerLane = 16}},
    // 128 ~ 256 for pairs (2^28 u32/u32, H200: 16.04 vs 15.90 ms), kept at 128; docs/benchmarks.md#tuning-radix4
    {4, true, {.workgroup = 128, .keysPerLane = 16, .scanWorkgroup = 1024, .scanPerLane = 16}},
    // 8 keys a lane: the same 8 KiB staged tile as u32 keys; docs/benchmarks.md#tuning-radix4
    {8, false, {.workgroup = 128, .keysPerLane = 8, .scanWorkgroup = 1024, .scanPerLane = 16}},
    // as u64 keys (values reuse the staged tile); docs/benchmarks.md#tuning-radix4
    {8, true, {.workgroup = 128, .keysPerLane = 8, .scanWorkgroup = 1024, .scanPerLane = 16}},
};
// clang-format on

// [SECTION] OneSweep: 8-bit radix sort with decoupled lookback (onesweep_*.comp) ---------------------

// A number of tiles no pass reaches: minPersistentTiles of a row whose passes run one tile a
// workgroup on GPUs at every size, minIndexTiles of a row whose tiles always come from the counter.
inline constexpr uint64_t kNever = UINT64_MAX;

struct OneSweepTuning {
    uint32_t workgroup;                 // pass kernel (halved where shared memory is short)
    uint32_t keysPerLane;               // pass kernel: a tile is workgroup x this (4 bytes staged a key)
    bool persistent;                    // a pass workgroup takes tiles in turn, loading the next early
    uint32_t lookbackStride;            // a lookback step every this many ranking iterations (0: none)
    uint32_t persistentWorkgroups;      // the most a persistent pass dispatch starts (multiprocessors not known)
    uint32_t persistentPerMultiprocessor; // where the device tells its multiprocessors: this many each
    uint32_t maxTilesPerWorkgroup;      // the most tiles a persistent workgroup takes (GPUs)
    uint32_t maxTilesPerWorkgroupCpu;   // the same on CPU devices (lavapipe ends loops at ~65535 iterations)
    uint64_t minPersistentTiles;        // below this many tiles: one tile per workgroup, no lookback steps
    // GPUs, one tile a workgroup: lookback steps (lookbackStride) from this many tiles on.
    uint64_t minLookbackStepTiles;
    // GPUs that tell their multiprocessors (NVIDIA's), one tile a workgroup: from this many tiles
    // on, a workgroup's tile is its own index, so that its keys' loads start before its first
    // barrier (the module onesweep_pass_index); below, and on other GPUs, it takes the next id from
    // the pass's counter (tiles in the order their workgroups start).
    uint64_t minIndexTiles;
    // CPU devices: fewer, persistent workgroups from fewer tiles. lavapipe spends about 28 us setting
    // up each pass workgroup, even one that returns at once as in a skipped pass: 2^20 u32 keys,
    // 455 tiles, took 13 ms a skipped pass one tile a workgroup, 1.5 with 32 persistent ones (and
    // random keys 23-28 ms a pass against 34); docs/benchmarks.md#tuning-onesweep
    uint32_t persistentWorkgroupsCpu;
    uint64_t minPersistentTilesCpu;
    uint32_t histogramKeysPerWorkgroup; // histogram kernel: keys each workgroup counts (at least)
    uint32_t histogramMaxWorkgroups;    // histogram kernel: the most workgroups it starts
    // Histogram kernel, where the device tells its multiprocessors: more workgroups than
    // histogramKeysPerWorkgroup gives, down to this many keys each, up to this many a multiprocessor
    // (small n: 2^20 keys took 16 workgroups, 16 of an H100's 132 multiprocessors).
    uint32_t histogramMinKeysPerWorkgroup;
    uint32_t histogramWorkgroupsPerMultiprocessor;
    uint32_t histogramLoadsInFlight;    // histogram kernel: keys an invocation loads before counting them
    uint32_t histogramWorkgroup;        // histogram kernel: invocations a workgroup (0: the pass kernel's)
    uint32_t histogramCopies;           // histogram kernel: copies of its counts in shared memory (1 or 2)
    // Persistent passes: the next tile's keys are loaded before the ranking (in flight during it) or
    // after it (taking no registers during it): before is faster for keys only, after for pairs.
    bool loadNextEarly;
    // The pass kernel copies which buffer it reads into a register once: faster for u32 keys only,
    // slower for pairs and no faster for 64-bit keys (docs/onesweep.md, What was tried).
    bool whereInRegister;
    // The subgroups' digit counts share the staged tile's shared memory, as CUB's ranking and
    // exchange storage do: the ranking keeps each key's place and stages it after a barrier. The
    // counts' words then make room for more keys a tile in the same 48 KiB.
    bool countsInTile;
    // The staged tile holds 1 / exchangeRounds of a tile, written out in as many rounds (with the
    // counts apart; elsewhere 1): less shared memory a workgroup for more rounds.
    uint32_t exchangeRounds;
};

// A row applies to sorts of fromKeys keys or more, up to the next row of the same keys and values.
struct OneSweepRow {
    uint32_t keyBytes;
    bool values;
    OneSweepTuning t;
    uint64_t fromKeys = 0;
};

// clang-format off
// u32/u32 pairs below 3 x 2^20 keys and above 2^26 (the rows below).
inline constexpr OneSweepTuning kPairs512x18 = {.workgroup = 512, .keysPerLane = 18, .persistent = true, .lookbackStride = 3, .persistentWorkgroups = 2048, .persistentPerMultiprocessor = 1, .maxTilesPerWorkgroup = 2048, .maxTilesPerWorkgroupCpu = 128, .minPersistentTiles = 1024, .minLookbackStepTiles = 1024, .minIndexTiles = kNever, .persistentWorkgroupsCpu = 32, .minPersistentTilesCpu = 64, .histogramKeysPerWorkgroup = 65536, .histogramMaxWorkgroups = 1024, .histogramMinKeysPerWorkgroup = 8192, .histogramWorkgroupsPerMultiprocessor = 2, .histogramLoadsInFlight = 8, .histogramWorkgroup = 0, .histogramCopies = 2, .loadNextEarly = false, .whereInRegister = false, .countsInTile = false, .exchangeRounds = 1};
inline constexpr OneSweepRow kOneSweepTable[] = {
    // 384 x 20 (2^28 H100: 6.39 vs 6.50 ms for 448 x 16; 80 registers with the pass module built for 20 keys a lane, onesweep_pass_kpt20_s7, whose per-key arrays the driver keeps in registers), the write-out in 2 rounds (23 572 bytes: two workgroups a multiprocessor), one tile a workgroup on GPUs (2^28 H100: 6.78 vs 6.99 ms for 640 x 14 persistent), tiles by workgroup index on NVIDIA (2^28 6.50 vs 6.75 ms, 2^24 0.462 vs 0.472 from the counter), lookback steps every 7 from 1024 tiles (2^26 with index tiles: 1.651 vs 1.673 ms without; every 4 or 5 slower at 2^27-2^28), persistent on CPU devices; docs/benchmarks.md#tuning-onesweep
    {4, false, {.workgroup = 384, .keysPerLane = 20, .persistent = true, .lookbackStride = 7, .persistentWorkgroups = 2048, .persistentPerMultiprocessor = 1, .maxTilesPerWorkgroup = 2048, .maxTilesPerWorkgroupCpu = 128, .minPersistentTiles = kNever, .minLookbackStepTiles = 1024, .minIndexTiles = 0, .persistentWorkgroupsCpu = 32, .minPersistentTilesCpu = 64, .histogramKeysPerWorkgroup = 65536, .histogramMaxWorkgroups = 1024, .histogramMinKeysPerWorkgroup = 8192, .histogramWorkgroupsPerMultiprocessor = 2, .histogramLoadsInFlight = 8, .histogramWorkgroup = 640, .histogramCopies = 2, .loadNextEarly = true, .whereInRegister = true, .countsInTile = false, .exchangeRounds = 2}},
    // below 3 x 2^20 keys: 512 x 18, one tile a workgroup (H100 2^21: 0.1384-0.1387 vs 0.1493-0.1529 ms for 384 x 20 below, 2^20 0.0814-0.0818 vs 0.0941-0.0947)
    {4, true, kPairs512x18},
    // from 3 x 2^20 to 2^26 keys (H100 3 x 2^20: 0.1857-0.1862 vs 0.1936-0.1939 ms for 512 x 18): 384 x 20, one tile a workgroup, tiles by workgroup index on NVIDIA, the write-out in 2 rounds, from the module built for 20 keys a lane with the walks started after the ranking and the values loaded after the keys' write-out (onesweep_pass_index_kpt20_s0.k1.v1: 80 registers on an H100, two workgroups a multiprocessor; 512 x 18 persistent took 124, one); H100 2^22 0.226 vs 0.249 ms, 2^24 0.645-0.652 vs 0.657-0.664, 2^26 2.330-2.336 vs 2.335-2.348; H200 2^24 0.622-0.625 vs 0.638, 2^26 2.245-2.253 vs 2.290-2.301; docs/benchmarks.md#tuning-onesweep
    {4, true, {.workgroup = 384, .keysPerLane = 20, .persistent = true, .lookbackStride = 0, .persistentWorkgroups = 2048, .persistentPerMultiprocessor = 1, .maxTilesPerWorkgroup = 2048, .maxTilesPerWorkgroupCpu = 128, .minPersistentTiles = kNever, .minLookbackStepTiles = kNever, .minIndexTiles = 0, .persistentWorkgroupsCpu = 32, .minPersistentTilesCpu = 64, .histogramKeysPerWorkgroup = 65536, .histogramMaxWorkgroups = 1024, .histogramMinKeysPerWorkgroup = 8192, .histogramWorkgroupsPerMultiprocessor = 2, .histogramLoadsInFlight = 8, .histogramWorkgroup = 0, .histogramCopies = 2, .loadNextEarly = false, .whereInRegister = false, .countsInTile = false, .exchangeRounds = 2}, 3u << 20},
    // above 2^26 keys: 512 x 18, persistent with steps every 3 (u32/u32 2^28 H100: 9.91 vs 10.45 ms whole sort; 640 x 14 9.96 vs 9.07; 384 x 20 above 9.48-9.57 vs 9.03-9.08, 2^27 4.70 vs 4.59); docs/benchmarks.md#tuning-onesweep
    {4, true, kPairs512x18, (1u << 26) + 1},
    // halves staged, one tile a workgroup (u64 2^27 H100: 9.55 vs 9.64 ms persistent), 640 x 17 with the counts in the staged tile (9.30 vs 9.47 ms 640 x 14 apart); below 3 x 2^20 keys (2^20 H100: 0.153 vs 0.171 ms for 256 x 28 below, 2^21 0.260 vs 0.261; H200 0.148 vs 0.170, 0.252 vs 0.256); docs/benchmarks.md#tuning-onesweep
    {8, false, {.workgroup = 640, .keysPerLane = 17, .persistent = false, .lookbackStride = 0, .persistentWorkgroups = 2048, .persistentPerMultiprocessor = 1, .maxTilesPerWorkgroup = 2048, .maxTilesPerWorkgroupCpu = 128, .minPersistentTiles = 1024, .minLookbackStepTiles = 1024, .minIndexTiles = kNever, .persistentWorkgroupsCpu = 32, .minPersistentTilesCpu = 64, .histogramKeysPerWorkgroup = 65536, .histogramMaxWorkgroups = 1024, .histogramMinKeysPerWorkgroup = 8192, .histogramWorkgroupsPerMultiprocessor = 2, .histogramLoadsInFlight = 8, .histogramWorkgroup = 0, .histogramCopies = 2, .loadNextEarly = true, .whereInRegister = false, .countsInTile = true, .exchangeRounds = 1}},
    // from 3 x 2^20 keys (H100: 0.322 vs 0.362 ms for 640 x 17 above, 2^22 0.401 vs 0.419; H200 0.310 vs 0.341, 0.384 vs 0.390): 256 x 28, halves staged, the write-out in 2 rounds (20 492 bytes: two workgroups a multiprocessor; 128 registers with the pass module built for 28 keys a lane, onesweep_pass_index_kpt28_s0, its walks started after the ranking: 2^27 H100 8.66-8.67 vs 8.77-8.78 ms with them started before it, statuses 2, 1 or 8 at a time 8.68-8.69, 8.81, 8.70 against 4), one tile a workgroup (u64 2^27 H100: 9.55 vs 9.64 ms persistent), tiles by workgroup index on NVIDIA (2^27 H100: 8.75 vs 8.96 ms from the counter, 9.30 for 640 x 17 one round, one workgroup a multiprocessor; 256 x 26 8.93, 256 x 30 8.97, 320 x 20 8.83, 384 x 16 9.14; lookback steps every 4 or 7 slower), the histogram kernel at 640 invocations as for u32 keys (0.485 vs 0.494 ms at the pass kernel's 256); docs/benchmarks.md#tuning-onesweep
    {8, false, {.workgroup = 256, .keysPerLane = 28, .persistent = false, .lookbackStride = 0, .persistentWorkgroups = 2048, .persistentPerMultiprocessor = 1, .maxTilesPerWorkgroup = 2048, .maxTilesPerWorkgroupCpu = 128, .minPersistentTiles = 1024, .minLookbackStepTiles = 1024, .minIndexTiles = 0, .persistentWorkgroupsCpu = 32, .minPersistentTilesCpu = 64, .histogramKeysPerWorkgroup = 65536, .histogramMaxWorkgroups = 1024, .histogramMinKeysPerWorkgroup = 8192, .histogramWorkgroupsPerMultiprocessor = 2, .histogramLoadsInFlight = 8, .histogramWorkgroup = 640, .histogramCopies = 2, .loadNextEarly = true, .whereInRegister = false, .countsInTile = false, .exchangeRounds = 2}, 3u << 20},
    // one tile a workgroup (u64/u32 2^27 H100: 13.00 vs 15.96 ms persistent); docs/benchmarks.md#tuning-onesweep
    {8, true, {.workgroup = 512, .keysPerLane = 18, .persistent = false, .lookbackStride = 0, .persistentWorkgroups = 2048, .persistentPerMultiprocessor = 1, .maxTilesPerWorkgroup = 2048, .maxTilesPerWorkgroupCpu = 128, .minPersistentTiles = 1024, .minLookbackStepTiles = 1024, .minIndexTiles = kNever, .persistentWorkgroupsCpu = 32, .minPersistentTilesCpu = 64, .histogramKeysPerWorkgroup = 65536, .histogramMaxWorkgroups = 1024, .histogramMinKeysPerWorkgroup = 8192, .histogramWorkgroupsPerMultiprocessor = 2, .histogramLoadsInFlight = 8, .histogramWorkgroup = 0, .histogramCopies = 2, .loadNextEarly = false, .whereInRegister = false, .countsInTile = false, .exchangeRounds = 1}},
};
// clang-format on

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
    const uint64_t spread = uint64_t(multiprocessors) * t.histogramWorkgroupsPerMultiprocessor;
    const uint64_t g =
        std::max(groups(t.histogramKeysPerWorkgroup), std::min(groups(t.histogramMinKeysPerWorkgroup), spread));
    return uint32_t(std::clamp<uint64_t>(g, 1, t.histogramMaxWorkgroups));
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
    return t.keysPerLane > 0 && t.histogramLoadsInFlight > 0 && (t.histogramCopies == 1 || t.histogramCopies == 2) &&
           t.exchangeRounds >= 1 && t.maxTilesPerWorkgroup > 0 &&
           t.maxTilesPerWorkgroupCpu > 0 && t.histogramKeysPerWorkgroup > 0 && t.histogramMinKeysPerWorkgroup > 0 &&
           t.histogramMaxWorkgroups > 0;
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
        const bool first = i == 0 || kOneSweepTable[i - 1].keyBytes != r.keyBytes || kOneSweepTable[i - 1].values != r.values;
        if (first ? r.fromKeys != 0 : r.fromKeys <= kOneSweepTable[i - 1].fromKeys) return false;
    }
    for (uint32_t keyBytes : {4u, 8u})
        for (bool values : {false, true})
            if (!detail::isRowFor(detail::findOneSweep(keyBytes, values, 0), keyBytes, values)) return false;
    return sizeof kOddEvenTable / sizeof kOddEvenTable[0] == 4 && sizeof kRadix4Table / sizeof kRadix4Table[0] == 4;
}());

} // namespace sortlab::tuning
