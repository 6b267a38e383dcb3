// Radix4 step 1 (the seed's "count the number of symbols"): each workgroup counts the digits of
// its tile of TILE keys with subgroup ballots (no global atomics per key), writes its 16 counts
// to the count table, and adds them to the pass's global histogram (16 atomics per workgroup:
// the reduction to global counts).
#version 460
#include "radix4.glsl"

shared uint counts[16];

void main() {
    const uint wg = workgroupIndex();
    if (wg >= pc.workgroups) return;
    const uint tid = gl_LocalInvocationIndex;
    if (tid < 16) counts[tid] = 0;
    if (wg == 0 && tid == 0) {
        word(SORTLAB_R4_INFO + 4 * pc.pass + 0).v = pc.pass;
        word(SORTLAB_R4_INFO + 4 * pc.pass + 1).v = pc.bitLo;
        word(SORTLAB_R4_INFO + 4 * pc.pass + 2).v = pc.bitLo + 4;
    }
    barrier();

    const uint64_t src = inputInTemp() ? pc.keysTemp : pc.keys;
    // Each subgroup reads a contiguous run of its tile, SG keys per iteration.
    const uint sg = gl_SubgroupID, lane = gl_SubgroupInvocationID, sgSize = gl_SubgroupSize;
    const uint64_t first = uint64_t(wg) * TILE + uint64_t(sg) * sgSize * KPT + lane;
    Key k[KPT];
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        uint64_t idx = first + uint64_t(i * sgSize);
        if (idx < pc.n) k[i] = keyAt(src, idx).v;
    }
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        uint64_t idx = first + uint64_t(i * sgSize);
        uint d = idx < pc.n ? digitOf(k[i]) : 16u;
        uvec4 m = sameDigit(d);
        uint below = subgroupBallotExclusiveBitCount(m), size = subgroupBallotBitCount(m);
        // The lowest lane of each digit group adds the group's size.
        if (d < 16u && below == 0) atomicAdd(counts[d], size);
    }
    barrier();
    if (tid < 16) {
        uint c = counts[tid];
        word(SORTLAB_R4_COUNTS + tid * pc.rowStride + wg).v = c;
        if (c != 0) atomicAdd(word(SORTLAB_R4_HIST + 16 * pc.pass + tid).v, c);
    }
}
