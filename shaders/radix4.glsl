// Shared by the 4-bit LSD radix sort kernels (radix4_*.comp): the push constants, the scratch
// layout (constants.h), the digit of a key, and the subgroup match that gives each key its rank
// among the keys of its subgroup with the same digit.
#extension GL_GOOGLE_include_directive : require
#include "radix_common.glsl"

// Keys each invocation holds in the count and scatter kernels (tuning::radix4: 16 for 32-bit
// keys, 8 for 64-bit keys; at most 16, what FOR_EACH_KEY unrolls).
layout(constant_id = SORTLAB_SPEC_KEYS_PER_LANE) const uint KPT = 16;
// Per-key arrays are declared with this many entries, the most KPT may be: a fixed length lets glslc
// split them into single registers at build time (entries past KPT are never touched).
#define MAX_KPT 16
// Keys per workgroup in the count and scatter kernels: its WORKGROUP_SIZE x KPT slots, or fewer
// (TILE_KEYS: a teaching tile, SortConfig::tileKeys), the slots past TILE holding no key.
layout(constant_id = SORTLAB_SPEC_TILE_KEYS) const uint TILE_KEYS = 0;
const uint SLOTS = WORKGROUP_SIZE * KPT;
const uint TILE = TILE_KEYS != 0 ? TILE_KEYS : SLOTS;

// X(0) X(1) ... X(KPT - 1): per-key code with literal array indices, so that NVIDIA's compiler
// keeps the key arrays in registers (a loop it does not unroll moves them to local memory). Up to
// 16 copies, each under a condition on the specialization constant KPT that the driver folds.
#define KEY_IF_(X, i) if ((i) < KPT) { X(i) }
#define FOR_EACH_KEY(X)                                                                            \
    KEY_IF_(X, 0) KEY_IF_(X, 1) KEY_IF_(X, 2) KEY_IF_(X, 3) KEY_IF_(X, 4) KEY_IF_(X, 5) KEY_IF_(X, 6) \
    KEY_IF_(X, 7) KEY_IF_(X, 8) KEY_IF_(X, 9) KEY_IF_(X, 10) KEY_IF_(X, 11) KEY_IF_(X, 12)          \
    KEY_IF_(X, 13) KEY_IF_(X, 14) KEY_IF_(X, 15)

// The same block for every radix4 kernel. keys/keysTemp (and values/valuesTemp) are the
// ping-pong pair; which one holds the keys before pass p is scratch word WHERE + p.
layout(push_constant) uniform Push {
    uint64_t keys, keysTemp, values, valuesTemp, scratch;
    uint64_t n;
    uint pass, passes, bitLo, workgroups, rowStride, groupsX;
    uint bitHi; // this pass's digit is order bits [bitLo, bitHi): 4 bits, fewer at a bit range's end
} pc;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer WordRef { uint v; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Word4Ref { uvec4 v; };
WordRef word(uint i) { return WordRef(pc.scratch + uint64_t(i) * 4ul); }
Word4Ref word4(uint i) { return Word4Ref(pc.scratch + uint64_t(i) * 4ul); } // i % 4 == 0

uint workgroupIndex() { return gl_WorkGroupID.y * pc.groupsX + gl_WorkGroupID.x; }

// n and the tiles (workgroups of the count and scatter kernels): the push constants', or in an
// indirect plan's kernels (INDIRECT 1) what indirect_count.comp wrote from the GPU's count. The
// direct kernels (INDIRECT 0, folded by the driver) read the push constants as before.
layout(constant_id = SORTLAB_SPEC_INDIRECT) const uint INDIRECT = 0;
uint64_t keyCount() {
    if (INDIRECT == 0) return pc.n;
    return packUint2x32(uvec2(word(SORTLAB_R4_INDIRECT + SORTLAB_IND_N).v, word(SORTLAB_R4_INDIRECT + SORTLAB_IND_N + 1).v));
}
uint tileCount() {
    if (INDIRECT == 0) return pc.workgroups;
    return word(SORTLAB_R4_INDIRECT + SORTLAB_IND_SIZES + 3).v;
}
bool inputInTemp() { return word(SORTLAB_R4_WHERE + pc.pass).v != 0; }

// The digit of this pass, order bits [bitLo, bitHi) of the key (so signed, float and descending
// orders sort as unsigned integers do). bitLo need not be a multiple of 4 (SortConfig::beginBit).
uint digitOf(Key k) {
    const uint mask = (1u << (pc.bitHi - pc.bitLo)) - 1u;
#if KEY_WORDS == 1
    return (orderBits(k) >> pc.bitLo) & mask;
#else
    return uint(packUint2x32(orderBits(k)) >> pc.bitLo) & mask;
#endif
}

// The subgroup's view of one key per lane: which lanes hold a key, and for each of the four
// digit bits which lanes have it set (digit 16: an absent key). Subgroups of up to 32 lanes use
// the first word of each ballot only (SUBGROUP_SIZE is a constant: the rest folds away).
struct DigitBallots {
    uvec4 present, bit[4];
};
DigitBallots digitBallots(uint d) {
    DigitBallots b;
    b.present = subgroupBallot(d < 16u);
    [[unroll]] for (uint i = 0; i < 4; ++i) b.bit[i] = subgroupBallot(((d >> i) & 1u) != 0);
    if (SUBGROUP_SIZE <= 32) {
        b.present = uvec4(b.present.x, 0u, 0u, 0u);
        [[unroll]] for (uint i = 0; i < 4; ++i) b.bit[i] = uvec4(b.bit[i].x, 0u, 0u, 0u);
    }
    return b;
}
// The lanes whose key has digit e: a lane stays in the set when each of its bits equals e's.
uvec4 lanesWithDigit(DigitBallots b, uint e) {
    if (SUBGROUP_SIZE <= 32) {
        uint m = b.present.x;
        [[unroll]] for (uint i = 0; i < 4; ++i) m &= ((e >> i) & 1u) != 0 ? b.bit[i].x : ~b.bit[i].x;
        return uvec4(m, 0u, 0u, 0u);
    }
    uvec4 m = b.present;
    [[unroll]] for (uint i = 0; i < 4; ++i) m &= ((e >> i) & 1u) != 0 ? b.bit[i] : ~b.bit[i];
    return m;
}
