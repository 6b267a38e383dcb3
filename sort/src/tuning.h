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

// OneSweep pass kernel: 512 invocations x 16 keys = 8192-key tiles for 32-bit keys (32 KiB
// staged), x 8 = 4096 for 64-bit keys (the same 32 KiB). Measured on an H100 at 2^28 random u32
// keys, ms per pass (docs/benchmarks.md, 2026-11-22): 512 x 16 -> 2.00; 512 x 14 -> 2.26;
// 512 x 12 -> 2.44; 768 x 8 -> 2.40; 1024 x 6 -> 2.43; with one 32-bit count per subgroup and
// digit (no room for 8192 keys): 512 x 12 -> 2.31, 384 x 16 -> 2.44, 256 x 24 -> 2.63,
// 256 x 16 -> 3.14. Larger tiles won every time, although 103 registers leave one workgroup per
// multiprocessor: the pass pays mostly per tile (the tile id, the barriers, the scans over the
// digits, the lookback). Halved where shared memory is short (lavapipe: 8-lane subgroups need 32
// subgroup-pair histograms at 512).
inline constexpr uint32_t kOneSweepWorkgroup = 512;
inline constexpr uint32_t kOneSweepKeysPerLane32 = 16;
inline constexpr uint32_t kOneSweepKeysPerLane32Values = 16;
inline constexpr uint32_t kOneSweepKeysPerLane64 = 8;

// Dispatches wider than this are folded into a 2-D grid (maxComputeWorkGroupCount[0] is at
// least 65535 on every device).
inline constexpr uint32_t kMaxGroupsX = 32768;

} // namespace sortlab::tuning
