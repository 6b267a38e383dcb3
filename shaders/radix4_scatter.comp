// Radix4 step 3 (the seed's "re-order elements"): each workgroup moves its tile of TILE keys
// (and values) into the other buffer of the ping-pong pair.
//
//  1. Rank: each subgroup walks its run of the tile SG keys at a time. For each key the four
//     digit ballots give the lanes with the same digit; the key's rank is the number of those
//     lanes below it plus what the subgroup counted of that digit before (a shared counter per
//     subgroup and digit, advanced once per digit group with one atomic).
//  2. Local offsets: an exclusive scan over (digit, subgroup) gives where each subgroup's keys
//     of each digit start in the tile sorted by digit.
//  3. The keys are written to shared memory in that order, then out to global memory: local
//     position p of digit d goes to workgroupOffset(d) + p - localStart(d). Consecutive
//     invocations write consecutive addresses within each digit's run (coalesced).
// Input order is kept everywhere (run order, iteration order, lane order), so the sort is stable.
#version 460
#include "radix4.glsl"

shared Key staged[TILE];                  // the tile, sorted by digit (values reuse it)
shared uint subgroupCounts[MAX_SUBGROUPS * 16]; // [subgroup * 16 + digit]
shared uint digitStart[16];               // first local position of each digit
shared uint destination[16];              // global position of local position 0, per digit

void main() {
    const uint wg = workgroupIndex();
    if (wg >= pc.workgroups) return;
    if (word(SORTLAB_R4_INFO + 4 * pc.pass + 3).v != 0) return; // skipped: every key has one digit
    const uint tid = gl_LocalInvocationIndex;
    const bool temp = inputInTemp();
    const uint64_t srcKeys = temp ? pc.keysTemp : pc.keys, dstKeys = temp ? pc.keys : pc.keysTemp;
#if HAS_VALUES
    const uint64_t srcValues = temp ? pc.valuesTemp : pc.values, dstValues = temp ? pc.values : pc.valuesTemp;
#endif
    const uint sg = gl_SubgroupID, lane = gl_SubgroupInvocationID, sgSize = gl_SubgroupSize;
    for (uint i = lane; i < 16; i += sgSize) subgroupCounts[sg * 16 + i] = 0;
    // Where this tile's keys of digit `tid` go (prefetched; used after the local scan).
    uint workgroupOffset = 0;
    if (tid < 16) workgroupOffset = word(SORTLAB_R4_COUNTS + (16 + tid) * pc.rowStride + wg).v;

    const uint64_t tileBase = uint64_t(wg) * TILE;
    const uint tileKeys = uint(min(uint64_t(TILE), pc.n - tileBase));
    const uint runStart = sg * sgSize * KPT + lane; // this lane's first key, within the tile
    Key k[KPT];
#if HAS_VALUES
    uint v[KPT];
#endif
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        uint p = runStart + i * sgSize;
        if (p < tileKeys) {
            k[i] = keyAt(srcKeys, tileBase + p).v;
#if HAS_VALUES
            v[i] = valueAt(srcValues, tileBase + p).v;
#endif
        }
    }
    subgroupBarrier();

    // 1. Rank within the subgroup.
    uint rank[KPT];
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        uint d = runStart + i * sgSize < tileKeys ? digitOf(k[i]) : 16u;
        uvec4 m = sameDigit(d);
        uint below = subgroupBallotExclusiveBitCount(m), count = subgroupBallotBitCount(m);
        uint leader = d < 16u ? subgroupBallotFindLSB(m) : lane;
        uint before = 0;
        if (d < 16u && below == 0) before = atomicAdd(subgroupCounts[sg * 16 + d], count);
        rank[i] = subgroupShuffle(before, leader) + below;
        subgroupBarrier(); // the next iteration's atomics come after this one's
    }
    barrier();

    // 2. Exclusive scan over (digit, subgroup): first per digit across subgroups, then digits.
    if (tid < 16) {
        uint run = 0;
        for (uint s = 0; s < gl_NumSubgroups; ++s) {
            uint c = subgroupCounts[s * 16 + tid];
            subgroupCounts[s * 16 + tid] = run;
            run += c;
        }
        digitStart[tid] = run; // the digit's total, for now
    }
    barrier();
    if (tid == 0) {
        uint run = 0;
        for (uint d = 0; d < 16; ++d) {
            uint c = digitStart[d];
            digitStart[d] = run;
            run += c;
        }
    }
    barrier();
    if (tid < 16) destination[tid] = workgroupOffset - digitStart[tid];

    // 3. Stage the tile in digit order, then write it out.
    uint local[KPT];
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        if (runStart + i * sgSize < tileKeys) {
            uint d = digitOf(k[i]);
            local[i] = digitStart[d] + subgroupCounts[sg * 16 + d] + rank[i];
            staged[local[i]] = k[i];
        }
    }
    barrier();
#if HAS_VALUES
    uint target[KPT];
#endif
    [[unroll]] for (uint j = 0; j < KPT; ++j) {
        uint p = j * WORKGROUP_SIZE + tid;
        if (p < tileKeys) {
            Key key = staged[p];
            uint g = destination[digitOf(key)] + p;
            keyAt(dstKeys, g).v = key;
#if HAS_VALUES
            target[j] = g;
#endif
        }
    }
#if HAS_VALUES
    barrier();
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
#if KEY_WORDS == 1
        if (runStart + i * sgSize < tileKeys) staged[local[i]] = v[i];
#else
        if (runStart + i * sgSize < tileKeys) staged[local[i]] = uvec2(v[i], 0u);
#endif
    }
    barrier();
    [[unroll]] for (uint j = 0; j < KPT; ++j) {
        uint p = j * WORKGROUP_SIZE + tid;
#if KEY_WORDS == 1
        if (p < tileKeys) valueAt(dstValues, target[j]).v = staged[p];
#else
        if (p < tileKeys) valueAt(dstValues, target[j]).v = staged[p].x;
#endif
    }
#endif
}
