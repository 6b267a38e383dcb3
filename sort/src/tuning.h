// Tuning constants, kept apart from the code that uses them, each with the reason it has its value.
#pragma once

#include <cstdint>

namespace sortlab::tuning {

// Odd-even network, one dispatch per layer: one comparator per invocation. 256 is the seed's
// choice and a multiple of every subgroup size we meet (8, 16, 32, 64).
inline constexpr uint32_t kOddEvenLayerWorkgroup = 256;

// Odd-even tile and window steps: large workgroups so that a window of several thousand elements
// is worked through with few passes per layer; 512 stays under lavapipe's 1024-invocation limit.
inline constexpr uint32_t kOddEvenSharedWorkgroup = 512;

// Upper bound on the shared-memory tile (elements). 8192 u32 keys = 32 KiB, within the 48 KiB
// NVIDIA gives a workgroup; the actual size is also bounded by the device's shared memory.
inline constexpr uint32_t kOddEvenMaxSharedElems = 8192;
// Shared memory kept back for the small per-workgroup arrays of the window shader.
inline constexpr uint32_t kOddEvenSharedReserveBytes = 512;

// Widest run of adjacent columns a window step holds: 2^5 = 32 keys = 128 bytes for u32 keys,
// a whole cache line per row, so strided windows still load and store whole lines.
inline constexpr uint32_t kOddEvenLogMaxColumns = 5;

// Dispatches wider than this are folded into a 2-D grid (maxComputeWorkGroupCount[0] is at
// least 65535 on every device).
inline constexpr uint32_t kMaxGroupsX = 32768;

} // namespace sortlab::tuning
