// Tuning constants, kept apart from the code that uses them, each with the reason it has its value.
#pragma once

#include <cstdint>

namespace sortlab::tuning {

// Odd-even network, one dispatch per layer: one comparator per invocation. 256 is the seed's
// choice and a multiple of every subgroup size we meet (8, 16, 32, 64).
inline constexpr uint32_t kOddEvenLayerWorkgroup = 256;

// Odd-even tile and window steps (oddeven_warp.comp): one subgroup per window, no barriers, so
// the workgroup size only sets how many windows share a workgroup; it also bounds the registers
// NVIDIA's compiler may use (65536 / size). Measured on an H200 at 2^24 u32 keys, 32 keys per
// lane: 256 -> 5.21 ms, 128 -> 5.18 ms (61 registers either way); with 512, an earlier version
// of the kernel had its key array moved to shared memory. (docs/benchmarks.md, 2026-11-21)
inline constexpr uint32_t kOddEvenWarpWorkgroup = 256;
// Keys each lane holds in oddeven_warp.comp (PER_LANE there): 32 beat 16 (5.2 ms vs 5.9 ms
// at 2^24 u32 on the H200): larger windows fuse more layers and waste less on halos.

// Widest run of adjacent columns a window step holds: 2^5 = 32 keys = 128 bytes for u32 keys,
// a whole cache line per row. The planner picks narrower runs when that fuses more layers,
// and charges runs shorter than a 32-byte memory sector for the bytes they waste.
inline constexpr uint32_t kOddEvenLogMaxColumns = 5;

// Radix4 count and scatter kernels: 128 invocations x 16 keys (32-bit keys; 8 for 64-bit keys)
// per workgroup tile, staged in shared memory (8 KiB for 32-bit keys). Measured on an H200 at
// 2^28 random u32 keys (keys-only / key-value, ms): 128 -> 11.46 / 16.04, 256 -> 12.67 / 15.90,
// 512 -> 14.01 / 17.24 (docs/benchmarks.md, 2026-11-22). The scatter uses about 80 registers;
// smaller workgroups let more of them share a multiprocessor while others wait at barriers.
// The planner halves the workgroup where shared memory is smaller than the tile needs.
inline constexpr uint32_t kRadix4Workgroup = 128;
// Radix4 scan: one workgroup per digit, each scanning workgroup x 16 counts per chunk (at 2^28
// u32 keys in 2048-key tiles, 131072 counts per digit: 8 chunks of 1024 x 16). Capped by the
// device's limit. 256 -> 1024 took the scan from 0.033 to 0.025 ms per pass (H200, 2^28).
inline constexpr uint32_t kRadix4ScanWorkgroup = 1024;

// OneSweep pass kernel: 512 invocations x 18 keys = 9216-key tiles for every key type, with or
// without values: 36 KiB staged, 4 bytes a key (64-bit keys in two halves, one after the other:
// HALF_STAGED in onesweep_pass.comp; values after the keys), the largest tile that fits NVIDIA's
// 48 KiB of shared memory beside the subgroup counts (8 KiB at 512) and 2 KiB of per-digit words.
// Measured on an H100 at 2^28 random u32 keys, ms per pass (docs/benchmarks.md and
// docs/results/2026-11-22-h100/experiments-512x18/): the shipped kernel, in one run: 512 x 16 ->
// 1.98, 512 x 17 -> 1.92, 512 x 18 -> 1.87; the kernel before it, which had no room for more than
// 512 x 17, in another: 448 x 20 -> 1.99, 384 x 24 -> 2.05, 320 x 28 -> 2.26, 256 x 36 -> 2.34
// (fewer, longer lanes lose at the same tile size). Key-value u32/u32: 512 x 16 -> 2.63, 512 x 18
// -> 2.54. 64-bit keys (docs/results/2026-11-23-h100/experiments/), staged whole before fd20d93,
// ms per pass at 2^27 u64 keys: 512 x 8 -> 1.61, 512 x 9 -> 1.51, 448 x 11 -> 1.46, 384 x 13 ->
// 1.45 (the most that fit); staged in halves, whole sort at 2^27, persistent (run23): 512 x 18
// stride 3 -> 9.67 ms, 512 x 16 stride 3 -> 9.89, stride 2 -> 10.04, 512 x 14 stride 2 -> 10.48,
// 512 x 12 -> 11.14, 448 x 16 -> 10.78, 384 x 18 -> 10.78 (159 registers), against 10.69 staged
// whole at 384 x 13; u64/u32 pairs, whole sort at 2^27 (run25): 13.00 ms in halves at 512 x 18
// (values loaded after the ranking), 14.28 with the values loaded with the keys, against 14.97
// staged whole at 384 x 13. Larger tiles have won every time, although about 100-128 registers
// leave one workgroup per multiprocessor: the pass pays mostly per tile (the tile id, the
// barriers, the scans over the digits, the lookback). Halved where shared memory is short
// (lavapipe).
inline constexpr uint32_t kOneSweepWorkgroup = 512;
inline constexpr uint32_t kOneSweepKeysPerLane = 18;

// OneSweep pass kernel, how it overlaps its latencies (docs/onesweep.md, "Speed"), from
// kOneSweepPersistentMinTiles tiles on. Persistent:
// each workgroup takes its next tile id and loads that tile's keys while it works on this one,
// and at most kOneSweepPersistentWorkgroups run per dispatch (more than any GPU of 2026 holds at
// once: the ones past what fits start when the tiles are gone, and leave). Lookback stride: a
// lookback step (a batch of 4 statuses) every this many ranking iterations, so that the walk's
// reads hide behind the ranking; 0: the walk only after the ranking. Measured on an H100, ms per
// pass (docs/results/2026-11-23-h100/): u32 2^28: 1.86 -> 1.74 (persistent, stride 3; stride 1:
// 1.92, 2: 1.76, 4: 1.94, 5: 1.92, 6: 1.88; persistent alone 1.81-1.83; stride 3 alone 1.95); u64
// 2^27: 1.56 -> 1.29 (persistent, stride 2; 1: 1.37, 3: 1.50, 4: 1.51) with 384 x 13 whole keys;
// staged in halves at 512 x 18, whole sort (run26): one tile per workgroup 9.55-9.58 ms, with
// steps every 3 9.58, persistent with steps every 3 9.64-9.67 (2^24: 1.32 against 1.35), so they
// run one tile per workgroup. Best at six steps per tile where steps pay. Key-value
// sorts, whose kernel loads the values after the ranking: the whole u32/u32 sort at 2^28 took
// 9.91 ms persistent with stride 3 against 10.45 one tile per workgroup (run20); u64/u32 at 2^27,
// staged in halves (run25), 13.00 ms one tile per workgroup against 15.96 persistent with stride 3
// (128 registers and local memory), so those run one tile per workgroup.
inline constexpr bool kOneSweepPersistent32 = true;
inline constexpr bool kOneSweepPersistent64 = false;
inline constexpr bool kOneSweepPersistentValues32 = true;  // 32-bit keys with values
inline constexpr bool kOneSweepPersistentValues64 = false; // 64-bit keys with values
inline constexpr uint32_t kOneSweepLookbackStride32 = 3;
inline constexpr uint32_t kOneSweepLookbackStride64 = 0;
inline constexpr uint32_t kOneSweepLookbackStrideValues32 = 3;
inline constexpr uint32_t kOneSweepLookbackStrideValues64 = 0;
// The two above for a sort with 64-bit keys (wide) or not, with values or not.
constexpr bool oneSweepPersistent(bool wide, bool values) {
    return values ? (wide ? kOneSweepPersistentValues64 : kOneSweepPersistentValues32)
                  : (wide ? kOneSweepPersistent64 : kOneSweepPersistent32);
}
constexpr uint32_t oneSweepLookbackStride(bool wide, bool values) {
    return values ? (wide ? kOneSweepLookbackStrideValues64 : kOneSweepLookbackStrideValues32)
                  : (wide ? kOneSweepLookbackStride64 : kOneSweepLookbackStride32);
}
inline constexpr uint32_t kOneSweepPersistentWorkgroups = 2048;
// The most tiles one persistent workgroup takes; a dispatch starts at least tiles / this many
// workgroups, so that every tile is taken. On a GPU the bound is far above what a workgroup takes
// (about 220 at 2^28 u32 keys on an H100's 132 multiprocessors); a cap of 128 there cost 3.6 %
// (7.59 against 7.33 ms at 2^28, run12). CPU implementations get 128: lavapipe ends a shader's
// loops after about 65535 iterations in all, and a single workgroup that took every tile stopped
// after ~740 of them, leaving the rest unsorted.
inline constexpr uint32_t kOneSweepPersistentTilesPerWorkgroup = 2048;
inline constexpr uint32_t kOneSweepPersistentTilesPerWorkgroupCpu = 128;
// Below this many tiles a pass runs one tile per workgroup, without lookback steps (the kernel
// before them): H100, u32 keys, ms for the whole sort, persistent (stride 3) against that, in one
// run (docs/results/2026-11-23-h100/experiments/run8-small-sizes): 2^10 (1 tile) 0.054 / 0.049,
// 2^16 (8 tiles) 0.0715 / 0.0676, 2^20 (114) 0.0811 / 0.0799, 2^22 (456) 0.196 / 0.187; in the
// sweeps of the two kernels (other runs): 2^23 (911) 0.309 / 0.308, 2^24 (1821) 0.543 / 0.553.
inline constexpr uint64_t kOneSweepPersistentMinTiles = 1024;

// Dispatches wider than this are folded into a 2-D grid (maxComputeWorkGroupCount[0] is at
// least 65535 on every device).
inline constexpr uint32_t kMaxGroupsX = 32768;

} // namespace sortlab::tuning
