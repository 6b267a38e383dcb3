// OneSweep step 3, one dispatch per 8-bit digit: each workgroup takes the next tile id from an
// atomic counter, ranks its tile's keys by digit, publishes its digit counts, finds how many keys
// of each digit all earlier tiles hold by a chained scan over the tile statuses (decoupled
// lookback, with fallback), publishes that inclusive prefix, and scatters its keys, staged in
// shared memory so that the writes to global memory are coalesced.
//
// Lookback: for each digit, walk back over the tiles before this one, adding their counts,
// until a tile whose status holds an inclusive prefix. A tile that is not ready yet is read again
// at most SPIN_LIMIT times; then this workgroup counts that tile's keys itself (the fallback), so
// no tile ever depends on another one being scheduled. FORCE_FALLBACK makes every tile count its
// predecessor's keys itself (the tests compare both paths).
#version 460
#include "onesweep.glsl"

#define SPIN_LIMIT 64 // reads of a not-ready status before the fallback
#define LOOKBACK_BATCH 8 // predecessor statuses read at once by each digit's walk

shared Key staged[TILE];                         // the tile sorted by digit (values reuse it)
shared uint subgroupHist[MAX_SUBGROUPS * 256];   // [subgroup * 256 + digit]
shared uint tileCount[256];                      // this tile's count of each digit
shared uint localStart[256];                     // where each digit starts in the sorted tile
shared uint64_t destination[256];                // global position of local position 0, per digit
shared uint fallbackCount[256];                  // a predecessor's counts, counted here
shared uint partial[MAX_SUBGROUPS];
shared uint tileId, vote, stuckTile;

// The lanes whose key has digit d (256: an absent key, in no group): nine ballots, one for
// "this lane has a key" and one per digit bit.
uvec4 sameDigit(uint d) {
    uvec4 m = subgroupBallot(d < 256u);
    [[unroll]] for (uint b = 0; b < 8; ++b) {
        bool bit = ((d >> b) & 1u) != 0;
        uvec4 set = subgroupBallot(bit);
        if (SUBGROUP_SIZE <= 32) m.x &= bit ? set.x : ~set.x;
        else m &= bit ? set : ~set;
    }
    if (SUBGROUP_SIZE <= 32) m = uvec4(m.x, 0u, 0u, 0u);
    return m;
}

void main() {
    const uint tid = gl_LocalInvocationIndex, sg = gl_SubgroupID, lane = gl_SubgroupInvocationID;
    if (tid == 0) tileId = atomicAdd(word(SORTLAB_OS_COUNTER + pc.pass).v, 1u);
    for (uint i = tid; i < MAX_SUBGROUPS * 256; i += WORKGROUP_SIZE) subgroupHist[i] = 0;
    barrier();
    const uint tile = tileId;
    // Dispatches wider than kMaxGroupsX are folded into rows, so a few workgroups more than
    // there are tiles may run; those get the ids past the last tile and leave.
    if (tile >= pc.tiles) return;
    const bool temp = (pc.pass & 1u) != 0;
    const uint64_t srcKeys = temp ? pc.keysTemp : pc.keys, dstKeys = temp ? pc.keys : pc.keysTemp;
#if HAS_VALUES
    const uint64_t srcValues = temp ? pc.valuesTemp : pc.values, dstValues = temp ? pc.values : pc.valuesTemp;
#endif
    const uint64_t tileBase = uint64_t(tile) * TILE;
    const uint tileKeys = uint(min(uint64_t(TILE), pc.n - tileBase));
    const uint runStart = sg * SUBGROUP_SIZE * KPT + lane;

    Key k[KPT];
#if HAS_VALUES
    uint v[KPT];
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

    // Rank within the subgroup (as in radix4_scatter.comp, with eight digit bits).
    uint rank[KPT];
#define RANK(i)                                                                                   \
    {                                                                                             \
        uint d = runStart + i * SUBGROUP_SIZE < tileKeys ? digitOf(k[i], pc.pass) : 256u;         \
        uvec4 m = sameDigit(d);                                                                   \
        uint below = subgroupBallotExclusiveBitCount(m);                                          \
        uint before = 0;                                                                          \
        if (d < 256u && below == 0) before = atomicAdd(subgroupHist[sg * 256 + d], subgroupBallotBitCount(m)); \
        rank[i] = subgroupShuffle(before, d < 256u ? subgroupBallotFindLSB(m) : lane) + below;    \
        subgroupBarrier();                                                                        \
    }
    FOR_EACH_KEY(RANK)
    barrier();

    // The tile's count of each digit (published at once), and each subgroup's start within it.
    for (uint d = tid; d < 256; d += WORKGROUP_SIZE) {
        uint run = 0;
        for (uint s = 0; s < gl_NumSubgroups; ++s) {
            uint c = subgroupHist[s * 256 + d];
            subgroupHist[s * 256 + d] = run;
            run += c;
        }
        tileCount[d] = run;
        status(tile, d).v = statusWord(tile == 0 ? SORTLAB_OS_INCLUSIVE : SORTLAB_OS_AGGREGATE, run);
    }
    barrier();
    // Where each digit starts in the sorted tile: invocation t scans digits [t * DPL, (t+1) * DPL).
    uint mine = 0;
    [[unroll]] for (uint q = 0; q < 4; ++q)
        if (q < DIGITS_PER_LANE && tid * DIGITS_PER_LANE + q < 256) mine += tileCount[tid * DIGITS_PER_LANE + q];
    uint before = subgroupExclusiveAdd(mine);
    if (lane == SUBGROUP_SIZE - 1) partial[sg] = before + mine;
    barrier();
    if (tid == 0) {
        uint run = 0;
        for (uint s = 0; s < gl_NumSubgroups; ++s) {
            uint c = partial[s];
            partial[s] = run;
            run += c;
        }
    }
    barrier();
    before += partial[sg];
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        uint d = tid * DIGITS_PER_LANE + q;
        if (q < DIGITS_PER_LANE && d < 256) {
            localStart[d] = before;
            before += tileCount[d];
        }
    }

    // Decoupled lookback over the tiles before this one; invocation t handles digits
    // t * DPL + q, each walking back on its own: a tile with an aggregate adds it and the walk
    // goes on, an inclusive prefix ends it, a tile not ready yet is read again. A digit that has
    // waited SPIN_LIMIT reads is stuck; then the workgroup counts the keys of the latest tile
    // some digit is stuck on (the fallback) and those digits go on past it. The walks run in
    // rounds of at most 64 reads (each read LOOKBACK_BATCH statuses back at once), in control
    // flow that is uniform within a subgroup; no wait is unbounded, and a subgroup that has
    // finished its round waits at the round's barrier for at most 64 more reads of the others.
    uint64_t acc[4] = uint64_t[4](0ul, 0ul, 0ul, 0ul);
    int next[4] = int[4](int(tile) - 1, int(tile) - 1, int(tile) - 1, int(tile) - 1);
    uint spins[4] = uint[4](0u, 0u, 0u, 0u);
    uint pending = 0; // bit q: digit q still needs earlier tiles
    [[unroll]] for (uint q = 0; q < 4; ++q)
        if (q < DIGITS_PER_LANE && tid * DIGITS_PER_LANE + q < 256 && tile > 0) pending |= 1u << q;
    bool fellBack = false;
    for (;;) {
        for (uint it = 0; it < 64; ++it) {
            bool walking = false;
            [[unroll]] for (uint q = 0; q < 4; ++q) {
                const bool forced = FORCE_FALLBACK != 0 && next[q] == int(tile) - 1;
                if ((pending & (1u << q)) != 0 && spins[q] < SPIN_LIMIT && !forced) {
                    walking = true;
                    // LOOKBACK_BATCH statuses at once (independent loads, one wait), taken in order.
                    uint64_t st[LOOKBACK_BATCH];
                    [[unroll]] for (uint b = 0; b < LOOKBACK_BATCH; ++b)
                        st[b] = status(uint(max(next[q] - int(b), 0)), tid * DIGITS_PER_LANE + q).v;
                    bool stop = false;
                    [[unroll]] for (uint b = 0; b < LOOKBACK_BATCH; ++b) {
                        if (!stop) {
                            const uint flag = statusFlag(st[b]);
                            if (flag == SORTLAB_OS_NOT_READY) {
                                ++spins[q];
                                stop = true;
                            } else {
                                acc[q] += statusCount(st[b]);
                                spins[q] = 0;
                                if (flag == SORTLAB_OS_INCLUSIVE || --next[q] < 0) {
                                    pending &= ~(1u << q);
                                    stop = true;
                                }
                            }
                        }
                    }
                }
            }
            if (!subgroupAny(walking)) break;
        }
        // Which digits are stuck, and on which tile (the latest one first)?
        if (tid == 0) {
            vote = 0;
            stuckTile = 0;
        }
        barrier();
        [[unroll]] for (uint q = 0; q < 4; ++q) {
            if ((pending & (1u << q)) != 0) {
                const bool forced = FORCE_FALLBACK != 0 && next[q] == int(tile) - 1;
                atomicOr(vote, 1u);
                if (spins[q] >= SPIN_LIMIT || forced) atomicMax(stuckTile, uint(next[q]) + 1u);
            }
        }
        barrier();
        const bool anyPending = vote != 0;
        const uint stuck = stuckTile;
        barrier();
        if (!anyPending) break;
        if (stuck == 0) continue; // still walking: another round
        // Fallback: count tile J's digits from its keys.
        const uint J = stuck - 1;
        for (uint d = tid; d < 256; d += WORKGROUP_SIZE) fallbackCount[d] = 0;
        barrier();
        const uint64_t jBase = uint64_t(J) * TILE;
        for (uint i = tid; i < TILE; i += WORKGROUP_SIZE)
            atomicAdd(fallbackCount[digitOf(keyAt(srcKeys, jBase + i).v, pc.pass)], 1u);
        barrier();
        [[unroll]] for (uint q = 0; q < 4; ++q) {
            const bool forced = FORCE_FALLBACK != 0 && next[q] == int(tile) - 1;
            if ((pending & (1u << q)) != 0 && next[q] == int(J) && (spins[q] >= SPIN_LIMIT || forced)) {
                acc[q] += fallbackCount[tid * DIGITS_PER_LANE + q];
                spins[q] = 0;
                if (--next[q] < 0) pending &= ~(1u << q);
            }
        }
        fellBack = true;
        barrier(); // fallbackCount is reused by the next round
    }
    // Publish the inclusive prefix; the tile's keys of digit d go after acc keys of digit d.
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        uint d = tid * DIGITS_PER_LANE + q;
        if (q < DIGITS_PER_LANE && d < 256) {
            if (tile > 0) status(tile, d).v = statusWord(SORTLAB_OS_INCLUSIVE, acc[q] + tileCount[d]);
            destination[d] = qword(SORTLAB_OS_OFFSETS + 2 * (256 * pc.pass + d)).v + acc[q] - localStart[d];
        }
    }
    if (fellBack && tid == 0) atomicAdd(word(SORTLAB_OS_FALLBACKS + pc.pass).v, 1u);
    barrier();

    // Stage the tile in digit order, then write it out (coalesced within each digit's run).
#define STAGE(i)                                                                                  \
    if (runStart + i * SUBGROUP_SIZE < tileKeys) {                                                \
        uint d = digitOf(k[i], pc.pass);                                                          \
        rank[i] += localStart[d] + subgroupHist[sg * 256 + d];                                    \
        staged[rank[i]] = k[i];                                                                   \
    }
    FOR_EACH_KEY(STAGE)
    barrier();
#if HAS_VALUES
    uint digits[(KPT + 3) / 4];
    [[unroll]] for (uint w = 0; w < (KPT + 3) / 4; ++w) digits[w] = 0u;
#define KEEP_DIGIT(j, d) digits[j / 4] |= d << ((j % 4) * 8);
#else
#define KEEP_DIGIT(j, d)
#endif
#define WRITE(j)                                                                                  \
    if (j * WORKGROUP_SIZE + tid < tileKeys) {                                                    \
        Key key = staged[j * WORKGROUP_SIZE + tid];                                               \
        uint d = digitOf(key, pc.pass);                                                           \
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
        uint d = (digits[j / 4] >> ((j % 4) * 8)) & 255u;                                         \
        valueAt(dstValues, destination[d] + j * WORKGROUP_SIZE + tid).v = STAGED_VALUE(j * WORKGROUP_SIZE + tid); \
    }
    FOR_EACH_KEY(WRITE_VALUE)
#endif
}
