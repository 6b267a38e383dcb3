// OneSweep step 3, one dispatch per 8-bit digit pass (and per portion of at most 2^29 - 1 keys):
// each workgroup takes the next tile id from an atomic counter, ranks its tile's keys by digit,
// publishes its digit counts, stages its keys in shared memory in digit order, finds how many
// keys of each digit the earlier tiles hold by a chained scan over the tile statuses (decoupled
// lookback, with fallback), publishes that inclusive prefix, and writes the staged keys out, so
// that the writes to global memory are coalesced within each digit's run.
//
// [SECTION] Ranking: the lanes of a subgroup whose keys share a digit
// [SECTION] Lookback: one walk per digit, bounded; a stuck walk makes the workgroup fall back
// [SECTION] main: load, rank, publish, stage, look back, publish, write out
//
// Early counts, as in CUB's onesweep: a tile publishes its digit counts before it ranks its keys,
// so that the tiles after it can walk past it while it works. The last tile's missing keys need
// no checks (they get the largest order bits). docs/onesweep.md ("Speed") has the measurements.
#version 460
#include "onesweep.glsl"

#define SPIN_LIMIT 64     // reads of a not-ready status before the fallback
#define LOOKBACK_BATCH 4  // predecessor statuses a walk reads at once (16 and 32 were slower)

shared Ord staged[TILE]; // the tile's order bits in digit order; then its values, in the same places
// [(subgroup / 2) * 256 + digit]: each subgroup's count of each digit, then its start within the
// digit, then its running start; 16 bits each (a tile holds fewer than 2^16 keys), subgroup 2s in
// the low half of a word and 2s + 1 in the high half. Half the shared memory of one word per
// count makes room for 8192-key tiles, and a subgroup's lanes never share a word in one atomic.
const uint HIST_ROWS = (MAX_SUBGROUPS + 1) / 2;
shared uint subgroupHist[HIST_ROWS * 256];
shared uint tileCount[256];                    // this tile's count of each digit (missing keys included)
shared uint localStart[256];                   // where each digit starts in the staged tile
shared uint64_t globalBase[256];               // the global position of staged position 0, per digit
shared uint fallbackCount[256];                // a predecessor's digit counts, counted here
shared uint tileId, stuckTile;

// [SECTION] Ranking ------------------------------------------------------------------------------

// The lanes whose key has digit d: eight ballots, one per digit bit.
uvec4 sameDigit(uint d) {
    uvec4 m = uvec4(0xffffffffu);
    [[unroll]] for (uint b = 0; b < 8; ++b) {
        const bool bit = ((d >> b) & 1u) != 0;
        const uvec4 set = subgroupBallot(bit);
        if (SUBGROUP_SIZE <= 32) m.x &= bit ? set.x : ~set.x;
        else m &= bit ? set : ~set;
    }
    if (SUBGROUP_SIZE <= 32) m = uvec4(m.x & (SUBGROUP_SIZE == 32 ? 0xffffffffu : (1u << SUBGROUP_SIZE) - 1u), 0u, 0u, 0u);
    return m;
}

// [SECTION] Lookback -----------------------------------------------------------------------------

// Walks back from tile `next` for digit d, adding counts, until an inclusive prefix (done:
// pending = false) or until a status stays not ready for SPIN_LIMIT reads (stuck: pending stays
// true, `next` is the tile it waits for). Every read is bounded, so the walk ends on any device.
void walk(uint d, inout uint acc, inout int next, inout uint spins, inout bool pending) {
    while (pending && spins < SPIN_LIMIT) {
        uint st[LOOKBACK_BATCH];
        [[unroll]] for (uint b = 0; b < LOOKBACK_BATCH; ++b) st[b] = status(uint(max(next - int(b), 0)), d).v;
        bool go = true;
        [[unroll]] for (uint b = 0; b < LOOKBACK_BATCH; ++b) {
            if (go) {
                const uint flag = statusFlag(st[b]);
                if (flag == SORTLAB_OS_NOT_READY) {
                    ++spins;
                    go = false;
                } else {
                    acc += statusCount(st[b]);
                    spins = 0;
                    // Tile 0 is always inclusive, so a walk never steps past it.
                    if (flag == SORTLAB_OS_INCLUSIVE) pending = false;
                    else --next;
                    go = pending;
                }
            }
        }
    }
}

// [SECTION] main ---------------------------------------------------------------------------------

void main() {
    const uint tid = gl_LocalInvocationIndex, sg = gl_SubgroupID, lane = gl_SubgroupInvocationID;
    if (tid == 0) {
        tileId = atomicAdd(word(SORTLAB_OS_COUNTER + pc.dispatch).v, 1u);
        stuckTile = 0;
    }
    for (uint i = tid; i < HIST_ROWS * 256; i += WORKGROUP_SIZE) subgroupHist[i] = 0;
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
    const uint64_t tileBase = uint64_t(pc.firstTile + tile) * TILE;
    const uint tileKeys = uint(min(uint64_t(TILE), pc.n - tileBase));
    const bool full = tileKeys == TILE;
    const uint runStart = sg * SUBGROUP_SIZE * KPT + lane; // key i of this lane: runStart + i * SUBGROUP_SIZE

    // The keys' order bits. The last tile's missing keys get the largest, so that they rank after
    // every real key (digit 255 in every pass) and need no checks below: they are staged past
    // tileKeys, never written out, and left out of digit 255's published count.
    Ord ob[KPT];
    [[unroll]] for (uint i = 0; i < KPT; ++i)
        ob[i] = full || runStart + i * SUBGROUP_SIZE < tileKeys
                    ? orderBits(keyAt(srcKeys, tileBase + runStart + i * SUBGROUP_SIZE).v)
                    : ALL_ONES;
#if HAS_VALUES
    uint v[KPT];
    [[unroll]] for (uint i = 0; i < KPT; ++i)
        if (full || runStart + i * SUBGROUP_SIZE < tileKeys)
            v[i] = valueAt(srcValues, tileBase + runStart + i * SUBGROUP_SIZE).v;
#endif
    // Early counts: each subgroup's count of each digit (one shared atomic per key), so that the
    // tile's counts are published before the ranking.
    const uint histRow = (sg / 2) * 256, histShift = 16 * (sg & 1u);
    [[unroll]] for (uint i = 0; i < KPT; ++i) atomicAdd(subgroupHist[histRow + digitOfOrder(ob[i], pc.pass)], 1u << histShift);
    // Where this portion's keys of each digit start (used after the lookback).
    uint64_t portionBase[4];
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        if (q < DIGITS_PER_LANE && d < 256)
            portionBase[q] = pc.portion == 0 ? qword(SORTLAB_OS_OFFSETS + 2 * (256 * pc.pass + d)).v
                                             : qword(SORTLAB_OS_BASE + 2 * (256 * (pc.portion & 1u) + d)).v;
    }
    barrier();

    // The tile's count of each digit, published at once as an aggregate (tile 0: as an inclusive
    // prefix); each subgroup's count becomes its start within the digit.
    uint count[4]; // real keys only
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        count[q] = 0;
        if (q < DIGITS_PER_LANE && d < 256) {
            uint run = 0;
            for (uint s = 0; s < gl_NumSubgroups; ++s) {
                const uint at = (s / 2) * 256 + d, shift = 16 * (s & 1u); // this invocation's word alone
                const uint c = (subgroupHist[at] >> shift) & 0xffffu;
                subgroupHist[at] = (subgroupHist[at] & ~(0xffffu << shift)) | (run << shift);
                run += c;
            }
            tileCount[d] = run;
            count[q] = d == 255 ? run - (TILE - tileKeys) : run;
            status(tile, d).v = statusWord(tile == 0 ? SORTLAB_OS_INCLUSIVE : SORTLAB_OS_AGGREGATE, count[q]);
        }
    }
    barrier();
    // Where each digit starts in the staged tile: the first subgroup scans the 256 counts, each
    // lane a run of 256 / SUBGROUP_SIZE consecutive digits.
    if (sg == 0) {
        const uint per = 256 / SUBGROUP_SIZE, first = lane * per;
        uint sum = 0;
        for (uint j = 0; j < per; ++j) sum += tileCount[first + j];
        uint run = subgroupExclusiveAdd(sum);
        for (uint j = 0; j < per; ++j) {
            localStart[first + j] = run;
            run += tileCount[first + j];
        }
    }
    barrier();

    // Rank and stage: a key's place in the staged tile is its digit's start, plus its subgroup's
    // start within the digit, plus the keys of that digit this subgroup has placed already, plus
    // its lanes before it with the same digit. Lanes with the same digit are ordered by lane,
    // iterations by i, so the sort is stable. One shared atomic per digit group and iteration.
    // (No subgroup barrier per iteration: on an H100 the pass ran 5 % faster without one.)
#if HAS_VALUES
    uint place[(KPT + 1) / 2]; // each key's place, two 16-bit places per word, for its value
#endif
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint d = digitOfOrder(ob[i], pc.pass);
        const uvec4 m = sameDigit(d);
        const uint below = subgroupBallotExclusiveBitCount(m);
        uint before = 0;
        if (below == 0)
            before = (atomicAdd(subgroupHist[histRow + d], subgroupBallotBitCount(m) << histShift) >> histShift) & 0xffffu;
        const uint at = localStart[d] + subgroupShuffle(before, subgroupBallotFindLSB(m)) + below;
        staged[at] = ob[i];
#if HAS_VALUES
        if ((i & 1u) == 0) place[i / 2] = at;
        else place[i / 2] |= at << 16;
#endif
    }

    // Decoupled lookback: invocation t walks back for digits t + q * WORKGROUP_SIZE.
    uint acc[4];
    int next[4];
    uint spins[4];
    bool pending[4];
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        acc[q] = 0;
        next[q] = int(tile) - 1;
        pending[q] = q < DIGITS_PER_LANE && tid + q * WORKGROUP_SIZE < 256 && tile > 0;
        // Forced fallback: every walk starts stuck on the tile just before this one.
        spins[q] = FORCE_FALLBACK != 0 ? SPIN_LIMIT : 0u;
        walk(tid + q * WORKGROUP_SIZE, acc[q], next[q], spins[q], pending[q]);
    }
    // Fallback: while some walk is stuck, the workgroup counts the keys of the latest tile a walk
    // is stuck on, and the walks stuck there add those counts and go on.
    bool fellBack = false;
    for (;;) {
        uint stuckHere = 0;
        [[unroll]] for (uint q = 0; q < 4; ++q)
            if (pending[q]) stuckHere = max(stuckHere, uint(next[q]) + 1u);
        stuckHere = subgroupMax(stuckHere);
        if (subgroupElect() && stuckHere != 0) atomicMax(stuckTile, stuckHere);
        barrier();
        const uint stuck = stuckTile;
        if (stuck == 0) break;
        barrier(); // everyone has read stuckTile
        if (tid == 0) stuckTile = 0;
        for (uint d = tid; d < 256; d += WORKGROUP_SIZE) fallbackCount[d] = 0;
        barrier();
        const uint64_t jBase = uint64_t(pc.firstTile + stuck - 1) * TILE; // a predecessor: a full tile
        for (uint i = tid; i < TILE; i += WORKGROUP_SIZE)
            atomicAdd(fallbackCount[digitOf(keyAt(srcKeys, jBase + i).v, pc.pass)], 1u);
        barrier();
        [[unroll]] for (uint q = 0; q < 4; ++q) {
            if (pending[q] && next[q] == int(stuck) - 1) {
                acc[q] += fallbackCount[tid + q * WORKGROUP_SIZE];
                spins[q] = 0;
                if (--next[q] < 0) pending[q] = false;
                walk(tid + q * WORKGROUP_SIZE, acc[q], next[q], spins[q], pending[q]);
            }
        }
        fellBack = true;
    }

    // Publish the inclusive prefix; the tile's keys of digit d go after acc of them.
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        if (q < DIGITS_PER_LANE && d < 256) {
            if (tile > 0) status(tile, d).v = statusWord(SORTLAB_OS_INCLUSIVE, acc[q] + count[q]);
            globalBase[d] = portionBase[q] + acc[q] - localStart[d];
            // The portion's last tile tells the next portion where its keys of each digit start.
            if (tile == pc.tiles - 1 && pc.lastPortion == 0)
                qword(SORTLAB_OS_BASE + 2 * (256 * ((pc.portion + 1) & 1u) + d)).v = portionBase[q] + acc[q] + count[q];
        }
    }
    if (fellBack && tid == 0) atomicAdd(word(SORTLAB_OS_FALLBACKS + pc.pass).v, 1u);
    barrier();

    // Write the staged tile out: consecutive invocations write consecutive positions of a digit's run.
#if HAS_VALUES
    uint digits[(KPT + 3) / 4]; // the digit of each position this invocation writes, for the values
    [[unroll]] for (uint i = 0; i < (KPT + 3) / 4; ++i) digits[i] = 0u;
#endif
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint idx = i * WORKGROUP_SIZE + tid;
        if (full || idx < tileKeys) {
            const Ord o = staged[idx];
            const uint d = digitOfOrder(o, pc.pass);
            keyAt(dstKeys, globalBase[d] + idx).v = keyFromOrderBits(o);
#if HAS_VALUES
            digits[i / 4] |= d << (8 * (i % 4));
#endif
        }
    }
#if HAS_VALUES
    // Then the values, staged in the same places through the same shared memory (so that a
    // key-value tile needs no more of it than a keys-only one).
    barrier();
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint at = (place[i / 2] >> (16 * (i & 1u))) & 0xffffu;
#if KEY_WORDS == 1
        if (full || runStart + i * SUBGROUP_SIZE < tileKeys) staged[at] = v[i];
#else
        if (full || runStart + i * SUBGROUP_SIZE < tileKeys) staged[at].x = v[i];
#endif
    }
    barrier();
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint idx = i * WORKGROUP_SIZE + tid;
        if (full || idx < tileKeys) {
            const uint d = (digits[i / 4] >> (8 * (i % 4))) & 255u;
#if KEY_WORDS == 1
            valueAt(dstValues, globalBase[d] + idx).v = staged[idx];
#else
            valueAt(dstValues, globalBase[d] + idx).v = staged[idx].x;
#endif
        }
    }
#endif
}
