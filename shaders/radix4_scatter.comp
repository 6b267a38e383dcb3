// Radix4 step 3 ("re-order elements", docs/radix4.md): each workgroup moves its tile of TILE keys
// (and values) into the other buffer of the ping-pong pair.
//
//  1. Rank: each subgroup walks its run of the tile SG keys at a time. For each key five ballots
//     (one for "this lane has a key", one per digit bit) give the lanes with the same digit; the key's rank is the number of those
//     lanes below it plus what the subgroup counted of that digit before (a shared counter per
//     subgroup and digit).
//  2. Local offsets: an exclusive scan over (digit, subgroup) gives where each subgroup's keys
//     of each digit start in the tile sorted by digit.
//  3. The keys are written to shared memory in that order, then out to global memory: local
//     position p of digit d goes to workgroupOffset(d) + p - localStart(d). Consecutive
//     invocations write consecutive addresses within each digit's run (coalesced).
// Input order is kept everywhere (run order, iteration order, lane order), so the sort is stable.
//
// SUBGROUP_SIZE is a specialization constant, so the paths for other subgroup sizes vanish.
#version 460
#include "radix4.glsl"

shared Key staged[TILE];                        // the tile, sorted by digit (values reuse it)
shared uint subgroupCounts[MAX_SUBGROUPS * 16]; // [subgroup * 16 + digit]
shared uint digitStart[16];                     // first local position of each digit
shared uint destination[16];                    // global position of local position 0, per digit

void main() {
    const uint wg = workgroupIndex();
    if (wg >= tileCount()) return;
    if (word(SORTLAB_R4_INFO + 4 * pc.pass + 3).v != 0) return; // skipped: every key has one digit
    const uint tid = gl_LocalInvocationIndex;
    const bool temp = inputInTemp();
    const uint64_t srcKeys = temp ? pc.keysTemp : pc.keys, dstKeys = temp ? pc.keys : pc.keysTemp;
#if HAS_VALUES
    const uint64_t srcValues = temp ? pc.valuesTemp : pc.values, dstValues = temp ? pc.values : pc.valuesTemp;
#endif
    const uint sg = gl_SubgroupID, lane = gl_SubgroupInvocationID;
    // Where this tile's keys of digit `lane` go (prefetched by the first subgroup, which does the
    // local scan; used after it).
    uint workgroupOffset = 0;
    if (SUBGROUP_SIZE >= 16 && sg == 0 && lane < 16)
        workgroupOffset = word(SORTLAB_R4_COUNTS + (16 + lane) * pc.rowStride + wg).v;

    const uint64_t tileBase = uint64_t(wg) * TILE;
    const uint tileKeys = uint(min(uint64_t(TILE), keyCount() - tileBase));
    const uint runStart = sg * SUBGROUP_SIZE * KPT + lane; // this lane's first key, within the tile
    Key k[MAX_KPT];
#if HAS_VALUES
    uint v[MAX_KPT];
#define LOAD_VALUE(i) v[i] = valueAt(srcValues, tileBase + runStart + i * SUBGROUP_SIZE).v;
#else
#define LOAD_VALUE(i)
#endif
#define LOAD(i)                                                                                   \
    if (runStart + i * SUBGROUP_SIZE < tileKeys) {                                                \
        k[i] = keyAt(srcKeys, tileBase + runStart + i * SUBGROUP_SIZE).v;                         \
        LOAD_VALUE(i)                                                                             \
    }
    FOR_EACH_KEY(LOAD)

    // 1. Rank within the subgroup: a shared counter per (subgroup, digit), advanced once per
    //    digit group and iteration by the group's lowest lane with one atomic; the others get
    //    the old value by a shuffle. The subgroup barrier keeps iterations in order (and keeps
    //    NVIDIA's compiler from hoisting every key's ballots: 80 registers instead of 150).
    if (lane < 16) subgroupCounts[sg * 16 + lane] = 0;
    if (SUBGROUP_SIZE < 16) {
        for (uint e = lane + SUBGROUP_SIZE; e < 16; e += SUBGROUP_SIZE) subgroupCounts[sg * 16 + e] = 0;
    }
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    uint rank[MAX_KPT];
#define RANK(i)                                                                                   \
    {                                                                                             \
        uint d = runStart + i * SUBGROUP_SIZE < tileKeys ? digitOf(k[i]) : 16u;                   \
        uvec4 m = lanesWithDigit(digitBallots(d), d);                                             \
        uint below = subgroupBallotExclusiveBitCount(m);                                          \
        uint before = 0;                                                                          \
        if (d < 16u && below == 0) before = atomicAdd(subgroupCounts[sg * 16 + d], subgroupBallotBitCount(m)); \
        rank[i] = subgroupShuffle(before, d < 16u ? subgroupBallotFindLSB(m) : lane) + below;     \
        subgroupBarrier();                                                                        \
    }
    FOR_EACH_KEY(RANK)
    barrier();

    // 2. Exclusive scan over (digit, subgroup), by the first subgroup: per digit across the
    //    subgroups, then across the digits.
    if (sg == 0) {
        if (SUBGROUP_SIZE >= 16) {
            uint total = 0;
            if (lane < 16) {
                for (uint s = 0; s < gl_NumSubgroups; ++s) {
                    uint c = subgroupCounts[s * 16 + lane];
                    subgroupCounts[s * 16 + lane] = total;
                    total += c;
                }
            }
            uint start = subgroupExclusiveAdd(lane < 16 ? total : 0u);
            if (lane < 16) {
                digitStart[lane] = start;
                destination[lane] = workgroupOffset - start;
            }
        } else if (lane == 0) {
            // Small subgroups (lavapipe): one lane does it all.
            uint run = 0;
            for (uint d = 0; d < 16; ++d) {
                digitStart[d] = run;
                destination[d] = word(SORTLAB_R4_COUNTS + (16 + d) * pc.rowStride + wg).v - run;
                for (uint s = 0; s < gl_NumSubgroups; ++s) {
                    uint c = subgroupCounts[s * 16 + d];
                    subgroupCounts[s * 16 + d] = run - digitStart[d];
                    run += c;
                }
            }
        }
    }
    barrier();

    // 3. Stage the tile in digit order (rank[] becomes each key's local position), then write it
    //    out. The digits of the keys written are kept, 4 bits each, to place the values after them.
#define STAGE(i)                                                                                  \
    if (runStart + i * SUBGROUP_SIZE < tileKeys) {                                                \
        uint d = digitOf(k[i]);                                                                   \
        rank[i] += digitStart[d] + subgroupCounts[sg * 16 + d];                                   \
        staged[rank[i]] = k[i];                                                                   \
    }
    FOR_EACH_KEY(STAGE)
    barrier();
#if HAS_VALUES
    uint digits[(MAX_KPT + 7) / 8];
    digits[0] = 0u;
    if (KPT > 8) digits[(KPT + 7) / 8 - 1] = 0u;
#define KEEP_DIGIT(j, d) digits[j / 8] |= d << ((j % 8) * 4);
#else
#define KEEP_DIGIT(j, d)
#endif
#define WRITE(j)                                                                                  \
    if (j * WORKGROUP_SIZE + tid < tileKeys) {                                                    \
        Key key = staged[j * WORKGROUP_SIZE + tid];                                               \
        uint d = digitOf(key);                                                                    \
        keyAt(dstKeys, destination[d] + j * WORKGROUP_SIZE + tid).v = key;                        \
        KEEP_DIGIT(j, d)                                                                          \
    }
    FOR_EACH_KEY(WRITE)
#if HAS_VALUES
    barrier();
#if KEY_WORDS == 1
#define STAGE_VALUE(i) if (runStart + i * SUBGROUP_SIZE < tileKeys) staged[rank[i]] = v[i];
#define STAGED_VALUE(p) staged[p]
#else
#define STAGE_VALUE(i) if (runStart + i * SUBGROUP_SIZE < tileKeys) staged[rank[i]] = uvec2(v[i], 0u);
#define STAGED_VALUE(p) staged[p].x
#endif
    FOR_EACH_KEY(STAGE_VALUE)
    barrier();
#define WRITE_VALUE(j)                                                                            \
    if (j * WORKGROUP_SIZE + tid < tileKeys) {                                                    \
        uint d = (digits[j / 8] >> ((j % 8) * 4)) & 15u;                                          \
        valueAt(dstValues, destination[d] + j * WORKGROUP_SIZE + tid).v =                         \
            STAGED_VALUE(j * WORKGROUP_SIZE + tid);                                               \
    }
    FOR_EACH_KEY(WRITE_VALUE)
#endif
}
