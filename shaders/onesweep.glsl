// Shared by the OneSweep kernels (onesweep_*.comp): push constants, scratch layout, status words,
// digits.
#extension GL_GOOGLE_include_directive : require
#include "radix_common.glsl"

layout(constant_id = SORTLAB_SPEC_FORCE_FALLBACK) const uint FORCE_FALLBACK = 0;
// Keys each invocation holds, and how often the ranking takes a lookback step. A module built for
// one tuning row (onesweep_pass_kptK_sS: CMake passes FIXED_KPT = K and FIXED_STRIDE = S and unrolls
// its loops with spirv-opt) has them as constants, so that its per-key arrays are single values
// before the driver sees them (NVIDIA's compiler put arrays of 20 keys a lane in local memory when
// their length was the specialization constant: docs/onesweep.md, Inside a pass) and the unrolled
// ranking holds a lookback step only where one is taken (with the stride a specialization constant,
// every one of the K copies held one: 1.3 MB of SPIR-V instead of 0.37).
#ifdef FIXED_KPT
const uint KPT = FIXED_KPT;
const uint LOOKBACK_STRIDE = FIXED_STRIDE;
#else
layout(constant_id = SORTLAB_SPEC_KEYS_PER_LANE) const uint KPT = 16;
layout(constant_id = SORTLAB_SPEC_LOOKBACK_STRIDE) const uint LOOKBACK_STRIDE = 0;
#endif
layout(constant_id = SORTLAB_SPEC_PERSISTENT) const uint PERSISTENT = 0;

// Keys per tile: the workgroup's WORKGROUP_SIZE x KPT slots, or fewer (TILE_KEYS: a teaching tile,
// SortConfig::tileKeys): slots past a tile's keys are treated as the last tile's missing keys are.
layout(constant_id = SORTLAB_SPEC_TILE_KEYS) const uint TILE_KEYS = 0;
const uint SLOTS = WORKGROUP_SIZE * KPT;
const uint TILE = TILE_KEYS != 0 ? TILE_KEYS : SLOTS;
// The instrumented form (SortConfig::logLookback): LOG_BASE > 0 turns the lookback log on.
layout(constant_id = SORTLAB_SPEC_LOG_BASE) const uint LOG_BASE = 0;
layout(constant_id = SORTLAB_SPEC_LOG_TILES) const uint LOG_TILES = 0;
layout(constant_id = SORTLAB_SPEC_LOG_ORDERED) const uint LOG_ORDERED = 1;
const uint DIGITS_PER_LANE = (256 + WORKGROUP_SIZE - 1) / WORKGROUP_SIZE; // 1 with 256 or more invocations
const uint PASSES = 4 * KEY_WORDS;

layout(push_constant) uniform Push {
    uint64_t keys, keysTemp, values, valuesTemp, scratch;
    uint64_t n;
    uint pass, passes;
    uint tiles;       // pass kernel: tiles of this portion; histogram kernel: status words to clear
    uint groupsX;     // workgroups per row of a folded dispatch
    uint histGroups;  // histogram kernel: its workgroups; result kernel: its workgroups
    uint firstTile;   // pass kernel: the portion's first tile (tile ids are relative to it)
    uint portion;     // pass kernel: which portion of the pass (0: offsets from the scan)
    uint lastPortion; // pass kernel: 1 in the pass's last portion
    uint dispatch;    // pass kernel: the dispatch's sequence number (its lookback log tickets)
    uint fromTemp;    // pass kernel: 1: this twin reads keysTemp (and valuesTemp)
    uint epoch;       // pass kernel, persistent: the epoch bit of its status words
    uint portions;    // scan kernel: portions a pass (dispatches of each twin)
    uint twins;       // scan kernel: 1 if every pass after the first is dispatched twice (persistent passes)
    uint beginBit, endBit; // the order bits sorted by (SortConfig's bit range): digits keep only those
} pc;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer WordRef { uint v; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer QwordRef { uint64_t v; };
// Tile status words: read while other workgroups write them.
layout(buffer_reference, std430, buffer_reference_align = 4) coherent volatile buffer StatusRef { uint v; };
WordRef word(uint64_t i) { return WordRef(pc.scratch + i * 4ul); }
QwordRef qword(uint64_t i) { return QwordRef(pc.scratch + i * 4ul); } // i even
StatusRef status(uint tile, uint d) {
    return StatusRef(pc.scratch + (uint64_t(SORTLAB_OS_STATUS) + uint64_t(tile) * 256ul + d) * 4ul);
}
uint workgroupIndex() { return gl_WorkGroupID.y * pc.groupsX + gl_WorkGroupID.x; }

// n, the pass's tiles, and the histogram and result kernels' workgroups: the push constants', or in
// an indirect plan's kernels (INDIRECT 1; one portion a pass) what indirect_count.comp wrote from
// the GPU's count (dispatch sizes SORTLAB_OS_IND_*). The direct kernels (INDIRECT 0, folded by the
// driver) read the push constants as before.
layout(constant_id = SORTLAB_SPEC_INDIRECT) const uint INDIRECT = 0;
uint64_t keyCount() {
    if (INDIRECT == 0) return pc.n;
    return qword(SORTLAB_OS_INDIRECT + SORTLAB_IND_N).v;
}
uint indirectSize(uint d) { return word(SORTLAB_OS_INDIRECT + SORTLAB_IND_SIZES + 4 * d + 3).v; }
uint tileCount() { return INDIRECT == 0 ? pc.tiles : indirectSize(SORTLAB_OS_IND_TILES); }
uint histGroupCount() { return INDIRECT == 0 ? pc.histGroups : indirectSize(SORTLAB_OS_IND_HISTOGRAM); }
uint resultGroupCount() { return INDIRECT == 0 ? pc.histGroups : indirectSize(SORTLAB_OS_IND_RESULT); }

// A key's order bits (keys.glsl): the pass kernel ranks and stages these, and maps them back to
// the key as it writes it out. ALL_ONES is the largest: the last tile's missing keys get it.
#if KEY_WORDS == 1
#define Ord uint
#define ALL_ONES 0xffffffffu
#else
#define Ord uvec2
#define ALL_ONES uvec2(0xffffffffu)
#endif

// The bits of pass p's digit (order bits [8p, 8p + 8)) inside the bit range: 255 for the whole
// key, 0 for a pass outside it (every key then has digit 0, and the scan skips the pass). The
// largest digit of the pass is this mask.
// A sort of the whole key takes 255 as a constant (BIT_RANGE 0), so that its kernels are the
// ones tuned before the bit range existed: the mask from push constants cost the H100 9-10 % at
// 2^24-2^28 u32 keys (2026-11-28).
layout(constant_id = SORTLAB_SPEC_BIT_RANGE) const uint BIT_RANGE = 0;
uint digitMask(uint p) {
    if (BIT_RANGE == 0) return 255u;
    const int lo = clamp(int(pc.beginBit) - int(8 * p), 0, 8), hi = clamp(int(pc.endBit) - int(8 * p), 0, 8);
    return hi > lo ? (1u << hi) - (1u << lo) : 0u;
}
// The 8-bit digit of pass p.
uint digitOfOrder(Ord o, uint p) {
#if KEY_WORDS == 1
    return (o >> (8 * p)) & digitMask(p);
#else
    return (p < 4 ? o.x >> (8 * p) : o.y >> (8 * (p - 4))) & digitMask(p);
#endif
}
uint digitOf(Key k, uint p) { return digitOfOrder(orderBits(k), p); }
