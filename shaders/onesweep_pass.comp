// OneSweep step 3, one dispatch per 8-bit digit pass (and per portion of at most 2^29 - 1 keys):
// each workgroup takes the next tile id from an atomic counter, ranks its tile's keys by digit,
// publishes its digit counts, stages its keys in shared memory in digit order, finds how many
// keys of each digit the earlier tiles hold by a chained scan over the tile statuses (decoupled
// lookback, with fallback), publishes that inclusive prefix, and writes the staged keys out, so
// that the writes to global memory are coalesced within each digit's run.
//
// The phases of a tile, in the order they run (main calls them; glslc inlines every function):
// [SECTION] State: the tile in flight, per invocation (private variables: main's locals once inlined)
// [SECTION] Load: the tile's keys (and, after the ranking, its values)
// [SECTION] Count and publish the aggregate: early counts, each digit's count published, the digit scan
// [SECTION] Rank and stage: each key's place in the staged tile, with lookback steps in between
// [SECTION] Publish the inclusive prefix: for each digit whose walk has ended
// [SECTION] Look back: one walk per digit, bounded; a stuck walk makes the workgroup fall back
// [SECTION] Fall back: the workgroup counts the keys of the tile a walk is stuck on
// [SECTION] Write out: the staged keys (HALF_STAGED: in two halves), then the values
// [SECTION] main: per tile, the phases above between the same barriers
//
// Keys with structure: a pass whose digit is the same in every key is skipped (the scan decides,
// and every workgroup of its dispatches returns at once); a tile whose keys all have one digit
// (few distinct keys, after the passes have grouped them) still publishes its counts and walks
// back, but is not ranked: its keys are staged in tile order (stageInOrder), and each goes out
// to its digit's start plus its place in the tile. (Written out straight from the registers on a
// path of its own, such passes were slower, and so were random u32/u32 pairs: 0.61 against 0.55 ms
// a pass at 2^26 on an H100.)
//
// Early counts, as in CUB's onesweep: a tile publishes its digit counts before it ranks its keys,
// so that the tiles after it can walk past it while it works, and it reads its first predecessor
// statuses before the ranking too; with LOOKBACK_STRIDE its walk goes on in steps between ranking
// iterations, so that their latency hides behind the ranking. PERSISTENT (> 0): a workgroup
// takes up to that many tiles in turn, taking its next tile id and loading that tile's keys while
// it works on this one (one large workgroup fits per multiprocessor, so nothing else hides those
// latencies). The last tile's missing keys need no checks (they get the largest order bits).
// Key-value tiles stage their values after the keys' write-out, in the keys' places, and 64-bit
// keys stage their second halves that way (HALF_STAGED).
// docs/onesweep.md ("Speed") has the measurements.
#version 460
#define SORTLAB_OS_GPU_EPOCH // one tile a workgroup: the epoch from where the keys are (onesweep.glsl)
#include "onesweep.glsl"

// Reads of a not-ready status before the fallback, and predecessor statuses a walk reads at once
// (compiled in: as specialization constants they made the 64-bit passes slower; constants.h).
#define SPIN_LIMIT uint(SORTLAB_OS_SPIN_LIMIT)
#define LOOKBACK_BATCH uint(SORTLAB_OS_LOOKBACK_BATCH)

// 64-bit keys stage a tile in two halves (HALF_STAGED): the ranking stages the word of the order
// bits that holds the pass's digit; the write-out reads those, then each key's other word (raw) is
// staged in the same place, and the keys are written whole (then the values, if any, the same way).
// 4 bytes a key make room for 512 x 18 tiles where whole keys fit 384 x 13 (on an H100, u64 keys at
// 2^27 10.69 -> 9.67 ms, u64/u32 pairs 14.97 -> 13.00 ms).
// The keys are loaded and written whole, 8 bytes a lane: staging halves at 8-byte strides in
// global memory instead (the 32-bit key-value kernel on the words of 64-bit keys) was 27 % slower.
#define HALF_STAGED (KEY_WORDS == 2)
// The tile's order bits in digit order (HALF_STAGED: their ranked words, then the keys' other
// words); then its values, in the same places. 4 bytes a key, whatever the key.
shared uint staged[SLOTS];
// [(subgroup / 2) * 256 + digit]: each subgroup's count of each digit, then where its keys of the
// digit start in the staged tile, then where its next one goes; 16 bits each (a tile holds fewer
// than 2^16 keys), subgroup 2s in the low half of a word and 2s + 1 in the high half. Half the
// shared memory of one word per count is what makes room for the large tiles, and a subgroup's
// lanes never share a word in one atomic.
const uint HIST_ROWS = (MAX_SUBGROUPS + 1) / 2;
shared uint subgroupHist[HIST_ROWS * 256]; // after the ranking: a predecessor's digit counts (fallback)
// First the tile's count of each run of SUBGROUP_SIZE consecutive digits [d / SUBGROUP_SIZE]; after
// the ranking, the global position of each digit's staged position 0 [2d, 2d + 1] (low and high
// words; where n <= 2^32 a 32-bit low word alone, with a byte array beside it for n above that,
// made room for 512 x 19 tiles, but ran 1-2 % slower than this at 512 x 18, and no faster at 19).
shared uint perDigit[512];
shared uint tileId, stuckTile, nextTileId;
// The tile's one digit plus one, when all its keys have that digit (a uniform tile); 0 otherwise.
shared uint uniformDigit;
layout(constant_id = SORTLAB_SPEC_ONE_DIGIT_TILES) const uint ONE_DIGIT_TILES = 1;
// Which buffer a pass reads depends on how many passes before it were skipped, which only the scan
// knows, on the GPU. Persistent passes (PERSISTENT > 0) take it from the push constants: every
// pass after the first is dispatched twice, once reading `keys` and once `keysTemp`
// (pc.fromTemp), and the scan stops the twin that must not run, and both twins of a skipped pass,
// through their tile counters: their workgroups take ids past the last tile and leave. Chosen at
// run time instead (a word in shared memory or in registers, or an early test that sends the
// workgroups of a skipped pass home), random u32 keys took 0.466-0.472 ms a pass against 0.429 at
// 2^26 on an H100. One tile a workgroup, a twin would start as many workgroups as the pass (about
// 0.02 ms a pass for 64-bit keys at 2^26): there, thread 0 reads the word with its tile id, and
// the statuses' epoch comes from it, as the twins' does: (keysInTemp * portions + portion) & 1
// alternates between the dispatches that run, skipped passes or not.
shared uint keysInTemp;
#if HAS_VALUES == 0 && KEY_WORDS == 1
// Keys-only 32-bit passes take it once, after the first barrier, into a private variable (on an
// H100 at 2^26, random u32 keys 1.959 -> 1.938 ms; done in every kernel, it made u32/u32 pairs 8 %
// slower and 64-bit keys no faster).
bool inTemp;
bool fromTemp() { return inTemp; }
#else
bool fromTemp() { return (PERSISTENT != 0 ? pc.fromTemp : keysInTemp) != 0u; }
#endif
uint64_t srcKeys() { return fromTemp() ? pc.keysTemp : pc.keys; }
uint64_t dstKeys() { return fromTemp() ? pc.keys : pc.keysTemp; }
uint64_t srcValues() { return fromTemp() ? pc.valuesTemp : pc.values; }
uint64_t dstValues() { return fromTemp() ? pc.values : pc.valuesTemp; }

// Where staged position idx of a key with digit d goes.
uint64_t destination(uint d, uint idx) { return packUint2x32(uvec2(perDigit[2 * d], perDigit[2 * d + 1])) + idx; }

#if HALF_STAGED
// The word of the order bits that holds this pass's digit, and its digit.
uint rankWord(uvec2 o) { return pc.pass < 4 ? o.x : o.y; }
uint digitOfWord(uint w) { return (w >> (8 * (pc.pass & 3u))) & 255u; }
// The key from the order-bits word that holds the digit and the other word of the key, raw.
uvec2 keyFromHalves(uint w, uint other) {
    if (pc.pass >= 4) return uvec2(other, keyWord(w));
    uint lo = DESCENDING != 0 ? ~w : w;
    if (KEY_KIND == 2 && (other >> 31) != 0) lo = ~lo;
    return uvec2(lo, other);
}
#define RANKED uint
#define RANK_DIGIT(o) digitOfWord(o)
#else
#define RANKED Ord
#define RANK_DIGIT(o) digitOfOrder(o, pc.pass)
#endif

// [SECTION] State ----------------------------------------------------------------------------------

// The invocation's place in the workgroup (set once, at the start of main).
uint tid, sg, lane;
uint runStart;           // key i of this lane: runStart + i * SUBGROUP_SIZE
uint histRow, histShift; // this subgroup's counts in subgroupHist: row and 16-bit half
// The tile in flight.
uint tile, tileKeys;
bool full; // tileKeys == SLOTS: every slot holds a key
Key raw[KPT]; // its keys, raw (a persistent workgroup loads the next tile's here: LOAD_NEXT_EARLY)
RANKED ob[KPT];
#if HALF_STAGED
uint other[KPT]; // the other word of each key, raw, staged after the first half's write-out
#endif
#if HAS_VALUES
uint v[KPT];
#endif
#if HAS_VALUES || HALF_STAGED
uint place[(KPT + 1) / 2]; // each key's place, two 16-bit places per word, for its value
uint digits[(KPT + 3) / 4]; // the digit of each position this invocation writes, 8 bits each, for the values
#endif
// Per digit d = tid + q * WORKGROUP_SIZE (q < DIGITS_PER_LANE, d < 256):
uint64_t portionBase[4];  // where this portion's keys of the digit start (used after the lookback)
uint count[4];            // the tile's keys of the digit (real keys only)
uint words[4][HIST_ROWS]; // the subgroups' count words of the digit
uint within[4];           // the exclusive scan of the counts within this subgroup's run of digits
uint localStart[4];       // where the digit starts in the staged tile
// The digit's walk back over the predecessors' statuses.
uint batch[4][LOOKBACK_BATCH]; // statuses read ahead
uint acc[4];
int next[4];
uint spins[4];
bool pending[4], published[4];

// [SECTION] Load -----------------------------------------------------------------------------------

// When a persistent workgroup loads its next tile's keys into raw (free once countTile has taken
// the order bits). Keys-only tiles: before the ranking, so that the loads are in flight during it
// too (on an H100 at 2^26, uniform u32 keys 0.472 -> 0.451 ms a pass). Key-value tiles: after it,
// which was faster for them (u32/u32 pairs 0.557 ms a pass, against 0.616 loading early).
const bool LOAD_NEXT_EARLY = HAS_VALUES == 0;

// A tile's keys, raw. The last tile's missing keys get the largest order bits, so that they rank
// after every real key (digit 255 in every pass) and need no checks later: they are staged past
// the tile's real keys, never written out, and left out of digit 255's published count. All loads
// first, the order bits after: with the map inside the loads' condition, NVIDIA's compiler waited
// for each load in turn wherever the map is not the identity (signed, float or descending keys;
// on an H100 at 2^26, descending u32 keys took 2.90 ms against 2.05 ascending; now 2.03).
void loadKeys(uint64_t src, uint tile, uint runStart, out Key raw[KPT]) {
    const uint64_t base = uint64_t(pc.firstTile + tile) * TILE;
    const uint keys = uint(min(uint64_t(TILE), pc.n - base));
    if (keys == SLOTS) {
        [[unroll]] for (uint i = 0; i < KPT; ++i) raw[i] = keyAt(src, base + runStart + i * SUBGROUP_SIZE).v;
    } else {
        [[unroll]] for (uint i = 0; i < KPT; ++i)
            raw[i] = runStart + i * SUBGROUP_SIZE < keys ? keyAt(src, base + runStart + i * SUBGROUP_SIZE).v
                                                         : keyFromOrderBits(ALL_ONES);
    }
}
#if HAS_VALUES
// A tile's values are loaded after its ranking, so that they take no registers during it (on an
// H100, u32/u32: 125 -> 93 registers and 4.6 % faster at 2^28, and what made persistent key-value
// passes pay: 9.5 %; u64/u32, staged in halves: 7.18 -> 6.58 ms at 2^26).
void loadValues(uint64_t src, uint tile, uint runStart, out uint v[KPT]) {
    const uint64_t base = uint64_t(pc.firstTile + tile) * TILE;
    const uint keys = uint(min(uint64_t(TILE), pc.n - base));
    [[unroll]] for (uint i = 0; i < KPT; ++i)
        if (keys == SLOTS || runStart + i * SUBGROUP_SIZE < keys) v[i] = valueAt(src, base + runStart + i * SUBGROUP_SIZE).v;
}
#endif

// [SECTION] Count and publish the aggregate -----------------------------------------------------------

// The keys' order bits (HALF_STAGED: the word that holds the digit, and the other word), and early
// counts: each subgroup's count of each digit (one shared atomic per key), so that the tile's
// counts are published before the ranking.
void countTile() {
#if HALF_STAGED
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        ob[i] = rankWord(orderBits(raw[i]));
        other[i] = pc.pass < 4 ? raw[i].y : raw[i].x;
    }
#else
    [[unroll]] for (uint i = 0; i < KPT; ++i) ob[i] = orderBits(raw[i]);
#endif
    [[unroll]] for (uint i = 0; i < KPT; ++i) atomicAdd(subgroupHist[histRow + RANK_DIGIT(ob[i])], 1u << histShift);
}

// The tile's count of each digit, published at once as an aggregate (tile 0: as an inclusive
// prefix). Invocation t takes digits t + q * WORKGROUP_SIZE; a subgroup, a run of consecutive
// digits. The subgroups' count words of its digits stay in registers for the second step.
void publishAggregate() {
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        count[q] = 0;
        within[q] = 0;
        if (q < DIGITS_PER_LANE && d < 256) {
            uint run = 0;
            [[unroll]] for (uint r = 0; r < HIST_ROWS; ++r) {
                words[q][r] = subgroupHist[r * 256 + d];
                run += (words[q][r] & 0xffffu) + (words[q][r] >> 16);
            }
            count[q] = d == 255 ? run - (SLOTS - tileKeys) : run;
            if (count[q] == tileKeys) uniformDigit = d + 1u;
            status(tile, d).v = statusWord(tile == 0 ? SORTLAB_OS_INCLUSIVE : SORTLAB_OS_AGGREGATE, count[q]);
            // The scan over the digits: within the subgroup's run here, across runs after the barrier.
            within[q] = subgroupExclusiveAdd(run);
            if (lane == SUBGROUP_SIZE - 1) perDigit[d / SUBGROUP_SIZE] = within[q] + run;
        }
    }
}

// Where each digit starts in the staged tile; each subgroup count word becomes the start of its
// two subgroups' keys of the digit there (16 bits each: the tile holds fewer than 2^16 keys).
void localStarts() {
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        if (q < DIGITS_PER_LANE && d < 256) {
            uint start = within[q];
            // The runs before this one, read at once (a loop to d / SUBGROUP_SIZE read them one
            // after another: on an H100, 3 % of the whole sort at 2^28 u32 keys).
            [[unroll]] for (uint b = 0; b < 256 / SUBGROUP_SIZE; ++b)
                if (b < d / SUBGROUP_SIZE) start += perDigit[b];
            localStart[q] = start;
            [[unroll]] for (uint r = 0; r < HIST_ROWS; ++r) {
                const uint lo = words[q][r] & 0xffffu;
                subgroupHist[r * 256 + d] = start | ((start + lo) << 16);
                start += lo + (words[q][r] >> 16);
            }
        }
    }
}

// [SECTION] Rank and stage ----------------------------------------------------------------------------

// Ranking helper: the lanes of a subgroup whose keys share a digit.
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


// A key's place in the staged tile is its subgroup's start for its digit, plus the keys of that
// digit this subgroup has placed already, plus its lanes before it with the same digit. Lanes with
// the same digit are ordered by lane, iterations by i, so the sort is stable. One shared atomic per
// digit group and iteration; a lookback step every LOOKBACK_STRIDE iterations.
// (No subgroup barrier per iteration: on an H100 the pass ran 5 % faster without one.)
void lookbackStep(); // [SECTION] Look back
void rankAndStage() {
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint d = RANK_DIGIT(ob[i]);
        const uvec4 m = sameDigit(d);
        const uint below = subgroupBallotExclusiveBitCount(m);
        uint before = 0;
        if (below == 0)
            before = (atomicAdd(subgroupHist[histRow + d], subgroupBallotBitCount(m) << histShift) >> histShift) & 0xffffu;
        const uint at = subgroupShuffle(before, subgroupBallotFindLSB(m)) + below;
        staged[at] = ob[i];
#if HAS_VALUES || HALF_STAGED
        if ((i & 1u) == 0) place[i / 2] = at;
        else place[i / 2] |= at << 16;
#endif
        if (LOOKBACK_STRIDE != 0 && i % max(LOOKBACK_STRIDE, 1u) == LOOKBACK_STRIDE - 1) { // (max: SPIR-V evaluates both sides)
            lookbackStep();
        }
    }
}

// A tile whose keys all have one digit needs no ranking: its keys are staged in tile order, and
// the write-out sends key j to the digit's start plus j (the sort is stable), coalesced.
void stageInOrder() {
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint at = runStart + i * SUBGROUP_SIZE;
        staged[at] = ob[i];
#if HAS_VALUES || HALF_STAGED
        if ((i & 1u) == 0) place[i / 2] = at;
        else place[i / 2] |= at << 16;
#endif
    }
}

// [SECTION] Lookback log (LOG_BASE > 0 only: the instrumented form) ---------------------------------

// Word w of this pass's record of tile `tile`, and the next event number (plus one: 0 is "none").
WordRef logWord(uint w) {
    return word(LOG_BASE + SORTLAB_OS_LOG_HEAD + SORTLAB_OS_LOG_RECORD * (pc.pass * LOG_TILES + pc.firstTile + tile) + w);
}
uint logEvent() {
    const uint e = atomicAdd(word(LOG_BASE).v, 1u) + 1u;
    memoryBarrierBuffer(); // the event is numbered before what it marks is published
    return e;
}
// The next event numbers for the lanes of the subgroup that ask (one atomic a subgroup: a tile
// publishes up to 256 prefixes at once), in lane order; 0 for the others.
uint logEvents(bool mine) {
    const uvec4 ask = subgroupBallot(mine);
    const uint asked = subgroupBallotBitCount(ask);
    uint first = 0;
    if (subgroupElect() && asked != 0) first = atomicAdd(word(LOG_BASE).v, asked);
    first = subgroupBroadcastFirst(first);
    memoryBarrierBuffer(); // the events are numbered before what they mark is published
    return mine ? first + subgroupBallotExclusiveBitCount(ask) + 1u : 0u;
}
// The walk for digit d read a status with this flag, or counted a predecessor itself (flag 3).
// Only the invocation that owns digit d writes its words.
void logWalk(uint d, uint flag) {
    if (flag == SORTLAB_OS_NOT_READY) {
        logWord(SORTLAB_OS_LOG_NOT_READY + d).v += 1u;
        return;
    }
    uint w = logWord(SORTLAB_OS_LOG_WALK + d).v;
    if (flag == SORTLAB_OS_AGGREGATE) w = (w & 0xffffu) == 0xffffu ? w : w + 1u;
    else if (flag == SORTLAB_OS_INCLUSIVE) w |= 1u << SORTLAB_OS_LOG_WALK_INCLUSIVE_BIT;
    else if (((w >> SORTLAB_OS_LOG_WALK_COUNTED_SHIFT) & 0x7fffu) != 0x7fffu) w += 1u << SORTLAB_OS_LOG_WALK_COUNTED_SHIFT;
    logWord(SORTLAB_OS_LOG_WALK + d).v = w;
}
// A new tile's record: its digits' words start at zero (the same invocations write them later).
void logClear() {
    for (uint d = tid; d < 256; d += WORKGROUP_SIZE) {
        logWord(SORTLAB_OS_LOG_WALK + d).v = 0u;
        logWord(SORTLAB_OS_LOG_NOT_READY + d).v = 0u;
        logWord(SORTLAB_OS_LOG_PUBLISHED + d).v = 0u;
    }
}

// [SECTION] Publish the inclusive prefix --------------------------------------------------------------

// Publish the inclusive prefix; the tile's keys of digit d go after acc of them. (perDigit is free
// from here on: the ranking uses subgroupHist.)
void publishInclusive() {
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        const bool now = q < DIGITS_PER_LANE && d < 256 && !pending[q] && !published[q];
        uint event = 0;
        if (LOG_BASE != 0 && tile > 0) event = logEvents(now); // (subgroup-uniform here)
        if (now) {
            published[q] = true;
            if (LOG_BASE != 0 && tile > 0) logWord(SORTLAB_OS_LOG_PUBLISHED + d).v = event;
            if (tile > 0) status(tile, d).v = statusWord(SORTLAB_OS_INCLUSIVE, acc[q] + count[q]);
            const uint64_t base = portionBase[q] + acc[q] - localStart[q];
            perDigit[2 * d] = uint(base);
            perDigit[2 * d + 1] = uint(base >> 32);
            // The portion's last tile tells the next portion where its keys of each digit start.
            if (tile == pc.tiles - 1 && pc.lastPortion == 0)
                qword(SORTLAB_OS_BASE + 2 * (256 * ((pc.portion + 1) & 1u) + d)).v = portionBase[q] + acc[q] + count[q];
        }
    }
}

// [SECTION] Look back -------------------------------------------------------------------------------

// Takes predecessor statuses st[b] of tiles next - b (read at once, in any order): adds counts and
// steps back until an inclusive prefix (done: pending = false) or a not-ready status (one more
// spin; `next` is the tile it waits for).
void consume(uint d, uint st[LOOKBACK_BATCH], inout uint acc, inout int next, inout uint spins, inout bool pending) {
    bool go = true;
    [[unroll]] for (uint b = 0; b < LOOKBACK_BATCH; ++b) {
        if (go) {
            const uint flag = statusFlag(st[b]);
            if (LOG_BASE != 0) logWalk(d, flag);
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
// Walks back from tile `next` for digit d until done, or until a status stays not ready for
// SPIN_LIMIT reads (stuck: pending stays true). Every read is bounded, so the walk ends on any device.
void walk(uint d, inout uint acc, inout int next, inout uint spins, inout bool pending) {
    while (pending && spins < SPIN_LIMIT) {
        uint st[LOOKBACK_BATCH];
        [[unroll]] for (uint b = 0; b < LOOKBACK_BATCH; ++b) st[b] = status(uint(max(next - int(b), 0)), d).v;
        consume(d, st, acc, next, spins, pending);
    }
}

// The first statuses of the lookback, read before the ranking and used during or after it (an
// aggregate or an inclusive prefix read early is still right; a not-ready one is read again).
void readFirstStatuses() {
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        if (FORCE_FALLBACK == 0 && q < DIGITS_PER_LANE && d < 256 && tile > 0)
            [[unroll]] for (uint b = 0; b < LOOKBACK_BATCH; ++b) batch[q][b] = status(uint(max(int(tile) - 1 - int(b), 0)), d).v;
    }
}
// Decoupled lookback: invocation t walks back for digits t + q * WORKGROUP_SIZE, in steps during
// the ranking (LOOKBACK_STRIDE) and to the end after it. A digit whose walk ends publishes its
// inclusive prefix at once.
void startWalks() {
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        acc[q] = 0;
        next[q] = int(tile) - 1;
        pending[q] = q < DIGITS_PER_LANE && d < 256 && tile > 0;
        published[q] = false;
        // Forced fallback: every walk starts stuck on the tile just before this one.
        spins[q] = FORCE_FALLBACK != 0 ? SPIN_LIMIT : 0u;
    }
}
// One step of a walk that is neither done nor stuck: take the batch read before, read the next
// (its latency hides behind the ranking iterations until the next step).
void lookbackStep() {
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        if (pending[q] && spins[q] < SPIN_LIMIT) {
            consume(d, batch[q], acc[q], next[q], spins[q], pending[q]);
            if (pending[q] && spins[q] < SPIN_LIMIT)
                [[unroll]] for (uint b = 0; b < LOOKBACK_BATCH; ++b)
                    batch[q][b] = status(uint(max(next[q] - int(b), 0)), d).v;
        }
    }
    publishInclusive();
}
// After the ranking: each walk takes its last batch and goes on to the end (done or stuck).
void lookBack() {
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        if (pending[q] && spins[q] < SPIN_LIMIT) consume(tid + q * WORKGROUP_SIZE, batch[q], acc[q], next[q], spins[q], pending[q]);
        walk(tid + q * WORKGROUP_SIZE, acc[q], next[q], spins[q], pending[q]);
    }
}

// [SECTION] Fall back ---------------------------------------------------------------------------------

// While some walk is stuck, the workgroup counts the keys of the latest tile a walk is stuck on,
// and the walks stuck there add those counts and go on. The barrier that finds no walk stuck is
// also the one before the write-out. Returns whether the workgroup fell back.
bool fallBack(uint64_t srcKeys) {
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
        for (uint d = tid; d < 256; d += WORKGROUP_SIZE) subgroupHist[d] = 0;
        barrier();
        const uint64_t jBase = uint64_t(pc.firstTile + stuck - 1) * TILE; // a predecessor: a full tile
        for (uint i = tid; i < TILE; i += WORKGROUP_SIZE)
            atomicAdd(subgroupHist[digitOf(keyAt(srcKeys, jBase + i).v, pc.pass)], 1u);
        barrier();
        [[unroll]] for (uint q = 0; q < 4; ++q) {
            if (pending[q] && next[q] == int(stuck) - 1) {
                acc[q] += subgroupHist[tid + q * WORKGROUP_SIZE];
                if (LOG_BASE != 0) logWalk(tid + q * WORKGROUP_SIZE, 3u);
                spins[q] = 0;
                if (--next[q] < 0) pending[q] = false;
                walk(tid + q * WORKGROUP_SIZE, acc[q], next[q], spins[q], pending[q]);
            }
        }
        publishInclusive();
        fellBack = true;
    }
    return fellBack;
}

// [SECTION] Write out ---------------------------------------------------------------------------------

// Write the staged tile out: consecutive invocations write consecutive positions of a digit's run.
#if HALF_STAGED
// First half: each position's digit and ranked word; then the other words, staged in the same
// places, complete the keys, which are written whole. Keeps the digits of the positions written
// (digits), for the values.
void writeKeys(uint64_t dstKeys) {
    uint ranked[KPT]; // the ranked word at each position this invocation writes
    [[unroll]] for (uint i = 0; i < (KPT + 3) / 4; ++i) digits[i] = 0u;
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint idx = i * WORKGROUP_SIZE + tid;
        ranked[i] = staged[idx];
        digits[i / 4] |= digitOfWord(ranked[i]) << (8 * (i % 4));
    }
    barrier();
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint at = (place[i / 2] >> (16 * (i & 1u))) & 0xffffu;
        if (full || runStart + i * SUBGROUP_SIZE < tileKeys) staged[at] = other[i];
    }
    barrier();
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint idx = i * WORKGROUP_SIZE + tid;
        if (full || idx < tileKeys)
            keyAt(dstKeys, destination((digits[i / 4] >> (8 * (i % 4))) & 255u, idx)).v = keyFromHalves(ranked[i], staged[idx]);
    }
}
#else
// Key-value tiles keep the digits of the positions written (digits), for the values.
void writeKeys(uint64_t dstKeys) {
#if HAS_VALUES
    [[unroll]] for (uint i = 0; i < (KPT + 3) / 4; ++i) digits[i] = 0u;
#endif
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint idx = i * WORKGROUP_SIZE + tid;
        if (full || idx < tileKeys) {
            const Ord o = staged[idx];
            const uint d = digitOfOrder(o, pc.pass);
            keyAt(dstKeys, destination(d, idx)).v = keyFromOrderBits(o);
#if HAS_VALUES
            digits[i / 4] |= d << (8 * (i % 4));
#endif
        }
    }
}
#endif // HALF_STAGED
#if HAS_VALUES
// Then the values, staged in the same places through the same shared memory (so that a key-value
// tile needs no more of it than a keys-only one).
void writeValues(uint64_t dstValues) {
    barrier();
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint at = (place[i / 2] >> (16 * (i & 1u))) & 0xffffu;
        if (full || runStart + i * SUBGROUP_SIZE < tileKeys) staged[at] = v[i];
    }
    barrier();
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint idx = i * WORKGROUP_SIZE + tid;
        if (full || idx < tileKeys)
            valueAt(dstValues, destination((digits[i / 4] >> (8 * (i % 4))) & 255u, idx)).v = staged[idx];
    }
}
#endif

// [SECTION] main ----------------------------------------------------------------------------------------

void main() {
    tid = gl_LocalInvocationIndex;
    sg = gl_SubgroupID;
    lane = gl_SubgroupInvocationID;
    if (tid == 0) {
        tileId = atomicAdd(word(SORTLAB_OS_COUNTER + 2u * pc.dispatch + pc.fromTemp).v, 1u);
        stuckTile = 0;
        if (PERSISTENT == 0) keysInTemp = word(SORTLAB_OS_WHERE + pc.pass).v;
    }
    for (uint i = tid; i < HIST_ROWS * 256; i += WORKGROUP_SIZE) subgroupHist[i] = 0;
    barrier();
    tile = tileId;
    if (PERSISTENT == 0) gpuEpoch = (keysInTemp * pc.portions + pc.portion) & 1u;
#if HAS_VALUES == 0 && KEY_WORDS == 1
    inTemp = (PERSISTENT != 0 ? pc.fromTemp : keysInTemp) != 0u;
#endif
    if (LOG_BASE != 0 && tid == 0 && tile < pc.tiles) {
        // LOG_ORDERED: ids are logged in id order; each waits for the tile before (it took its id,
        // so it runs) to log its own, for a bounded time. (On an H100 that chain of waits is most
        // of the time.)
        bool inOrder = false;
        if (LOG_ORDERED != 0)
            for (uint spin = 0; spin < SORTLAB_OS_LOG_TICKET_SPINS && !inOrder; ++spin)
                inOrder = atomicAdd(word(LOG_BASE + 1 + pc.dispatch).v, 0u) == tile;
        logWord(SORTLAB_OS_LOG_TOOK).v = logEvent();
        logWord(SORTLAB_OS_LOG_IN_ORDER).v = inOrder ? 1u : 0u;
        logWord(SORTLAB_OS_LOG_WORKGROUP).v = workgroupIndex();
        memoryBarrierBuffer();
        atomicAdd(word(LOG_BASE + 1 + pc.dispatch).v, 1u);
    }
    // Dispatches wider than kMaxGroupsX are folded into rows, and a persistent dispatch may start
    // more workgroups than there are tiles: the ones that get an id past the last tile leave.
    if (tile >= pc.tiles) return; // (a skipped pass's workgroups take ids from SORTLAB_OS_SKIPPED on)
    runStart = sg * SUBGROUP_SIZE * KPT + lane;
    loadKeys(srcKeys(), tile, runStart, raw);
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        if (q < DIGITS_PER_LANE && d < 256)
            portionBase[q] = pc.portion == 0 ? qword(SORTLAB_OS_OFFSETS + 2 * (256 * pc.pass + d)).v
                                             : qword(SORTLAB_OS_BASE + 2 * (256 * (pc.portion & 1u) + d)).v;
    }
    histRow = (sg / 2) * 256;
    histShift = 16 * (sg & 1u);

    // One tile per round; a persistent workgroup (PERSISTENT) goes on to the tile id it took
    // during this one, whose keys it loaded while it worked on this one, for at most PERSISTENT
    // tiles (the planner starts enough workgroups; lavapipe ends a shader's loops after about 65535
    // iterations, and a workgroup that took every tile of a 1-workgroup dispatch stopped at ~740).
    uint round = 0;
    for (;;) {
        const uint64_t tileBase = uint64_t(pc.firstTile + tile) * TILE;
        tileKeys = uint(min(uint64_t(TILE), pc.n - tileBase));
        full = tileKeys == SLOTS;
        // The next tile id, taken now and used after the ranking, so that its latency hides.
        uint takenTile = 0;
        ++round;
        if (PERSISTENT != 0 && tid == 0)
            takenTile = round < PERSISTENT ? atomicAdd(word(SORTLAB_OS_COUNTER + 2u * pc.dispatch + pc.fromTemp).v, 1u) : pc.tiles;
        if (LOG_BASE != 0) logClear();
        if (tid == 0) uniformDigit = 0u; // (read last before the previous round's closing barrier)
        countTile();
        if (LOG_BASE != 0 && tid == 0) { // tile 0 of a portion publishes its inclusive prefixes at once
            logWord(SORTLAB_OS_LOG_AGGREGATE).v = 0u;
            logWord(tile == 0 ? SORTLAB_OS_LOG_INCLUSIVE : SORTLAB_OS_LOG_AGGREGATE).v = logEvent();
        }
        barrier();
        publishAggregate();
        readFirstStatuses();
        if (PERSISTENT != 0 && tid == 0) nextTileId = takenTile;
        barrier();
        const uint nextTile = PERSISTENT != 0 ? nextTileId : pc.tiles;
        // The next tile's keys, keys-only tiles: in flight during this tile's ranking as well.
        if (LOAD_NEXT_EARLY && PERSISTENT != 0 && nextTile < pc.tiles) loadKeys(srcKeys(), nextTile, runStart, raw);
        localStarts();
        barrier();
        const uint oneDigit = uniformDigit; // (the same in the whole workgroup)
        startWalks();
        if (ONE_DIGIT_TILES == 0 || oneDigit == 0u) rankAndStage();
        else stageInOrder(); // a tile of one digit
        // The next tile's keys, key-value tiles: in flight during this tile's lookback and write-out.
        if (!LOAD_NEXT_EARLY && PERSISTENT != 0 && nextTile < pc.tiles) loadKeys(srcKeys(), nextTile, runStart, raw);
#if HAS_VALUES
        loadValues(srcValues(), tile, runStart, v); // in flight during the lookback and the keys' write-out
#endif
        lookBack();
        publishInclusive();
        const bool fellBack = fallBack(srcKeys());
        if (fellBack && tid == 0) atomicAdd(word(SORTLAB_OS_FALLBACKS + pc.pass).v, 1u);
        if (LOG_BASE != 0 && tid == 0) {
            if (tile > 0) logWord(SORTLAB_OS_LOG_INCLUSIVE).v = logEvent(); // every digit published
            logWord(SORTLAB_OS_LOG_FELL_BACK).v = fellBack ? 1u : 0u;
        }
        // The counts are free from the vote's barrier on: zeroed now for the next tile, whose counting
        // comes after the barrier at the end of this round.
        if (PERSISTENT != 0)
            for (uint i = tid; i < HIST_ROWS * 256; i += WORKGROUP_SIZE) subgroupHist[i] = 0;
        if (oneDigit != 0u && tid == 0) atomicAdd(word(SORTLAB_OS_UNIFORM + pc.pass).v, 1u);
        writeKeys(dstKeys());
#if HAS_VALUES
        writeValues(dstValues());
#endif
        if (PERSISTENT == 0 || nextTile >= pc.tiles) break;
        tile = nextTile;
        if (LOG_BASE != 0 && tid == 0) logWord(SORTLAB_OS_LOG_TOOK).v = logEvent(); // starts on the id it took
        barrier(); // the staged tile, the per-digit words and the counts are free again
    }
}
