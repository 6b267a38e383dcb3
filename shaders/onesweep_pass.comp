// OneSweep step 3, one dispatch per 8-bit digit pass (and per portion of at most 2^29 - 1 keys):
// each workgroup takes the next tile id from an atomic counter (or, INDEX_TILES, its own index),
// ranks its tile's keys by digit, publishes its digit counts, stages its keys in shared memory in
// digit order, finds how many keys of each digit the earlier tiles hold by a chained scan over the
// tile statuses (decoupled lookback, with fallback), publishes that inclusive prefix, and writes
// the staged keys out, coalesced within each digit's run. docs/onesweep.md explains each phase and its measurements.
//
// The phases of a tile, in the order they run (main calls them; glslc inlines every function):
// [SECTION] State: the tile in flight, per invocation (private variables: main's locals once inlined)
// [SECTION] Load: the tile's keys (and, after the ranking, its values)
// [SECTION] Count and publish the aggregate: early counts, each digit's count published, the digit scan
// [SECTION] Rank and stage: each key's place in the staged tile, with lookback steps in between
// onesweep_lookback.glsl: the inclusive prefixes, the lookback and the fallback
// [SECTION] Write out: the staged keys (HALF_STAGED: in two halves), then the values
// [SECTION] main: per tile, the phases above between the same barriers
//
// Early counts, as in CUB's onesweep: a tile publishes its digit counts before it ranks its keys.
// PERSISTENT (> 0): a workgroup takes up to that many tiles in turn, taking the next tile's id and
// keys while it works on this one, and walks back in steps between ranking iterations
// (LOOKBACK_STRIDE): with one large workgroup per multiprocessor, nothing else hides latencies.
#version 460
#include "onesweep.glsl"

#define SPIN_LIMIT uint(SORTLAB_OS_SPIN_LIMIT)
// Statuses a walk reads at once: SORTLAB_OS_LOOKBACK_BATCH, or a module's own (LOOKBACK_BATCH).
#ifndef LOOKBACK_BATCH
#define LOOKBACK_BATCH uint(SORTLAB_OS_LOOKBACK_BATCH)
#endif

// 64-bit keys are staged in two 4-byte halves (HALF_STAGED): first the word of the order bits that
// holds the pass's digit, ranked; at the write-out each key's other word (raw) in the same place.
#define HALF_STAGED (KEY_WORDS == 2)
// The subgroups' counts [(subgroup / 2) * 256 + digit]: each subgroup's count of each digit, then
// where its keys of the digit start in the staged tile, then where its next one goes; 16 bits each
// (a tile holds fewer than 2^16 keys), subgroup 2s in the low half of a word and 2s + 1 in the high
// half. After the ranking, the fallback's count of a predecessor's keys by digit [d].
// The staged tile: its order bits in digit order (HALF_STAGED: in halves); then its values, in the
// same places.
// COUNTS_IN_TILE: the counts are in the staged tile's words, as CUB's ranking and exchange storage
// share a union, and the fallback's counts past them. The ranking then keeps each key's place in
// a register and stages the keys after it, past a barrier; the write-out zeroes the counts' words
// for the next tile as it reads them. Otherwise each has an array of its own (one array for both
// made every pass slower, likely because the staging stores must then stay in order with the atomics).
layout(constant_id = SORTLAB_SPEC_COUNTS_IN_TILE) const uint COUNTS_IN_TILE = 0;
// EXCHANGE_ROUNDS > 1 (counts apart, whole tiles only): the staged tile holds
// STAGED_SLOTS = SLOTS / EXCHANGE_ROUNDS places, and the write-out goes in as many rounds, each
// staging the keys whose places fall in its share (the first during the ranking) and writing them
// out: half the shared memory for the exchange at two rounds, for two workgroups a multiprocessor.
layout(constant_id = SORTLAB_SPEC_EXCHANGE_ROUNDS) const uint EXCHANGE_ROUNDS = 1;
const uint STAGED_SLOTS = SLOTS / EXCHANGE_ROUNDS;
const uint HIST_ROWS = (MAX_SUBGROUPS + 1) / 2;
const uint HIST_WORDS = HIST_ROWS * 256;
const uint SHARED_WORDS = SLOTS > HIST_WORDS ? SLOTS : HIST_WORDS;
shared uint staged[COUNTS_IN_TILE != 0 ? SHARED_WORDS + 256 : STAGED_SLOTS];
shared uint countWords[COUNTS_IN_TILE != 0 ? 1 : HIST_WORDS];
uint countAt(uint i) { return COUNTS_IN_TILE != 0 ? staged[i] : countWords[i]; }
void setCount(uint i, uint v) {
    if (COUNTS_IN_TILE != 0) staged[i] = v;
    else countWords[i] = v;
}
uint addCount(uint i, uint v) { return COUNTS_IN_TILE != 0 ? atomicAdd(staged[i], v) : atomicAdd(countWords[i], v); }
const uint FALLBACK_AT = COUNTS_IN_TILE != 0 ? SHARED_WORDS : 0; // the fallback's counts
// First the tile's count of each run of SUBGROUP_SIZE consecutive digits [d / SUBGROUP_SIZE]; after
// the ranking, the global position of each digit's staged position 0 [2d, 2d + 1] (low, high word).
shared uint perDigit[512];
shared uint tileId, stuckTile, nextTileId;
shared uint uniformDigit; // the tile's one digit plus one, when all its keys have it; 0 otherwise
// Which buffer a pass reads depends on the passes skipped before it, which only the scan knows.
// Persistent passes are dispatched as twins, one reading `keys` and one `keysTemp` (pc.fromTemp),
// and the scan stops the twin that must not run through its tile counter (onesweep_scan.comp).
// One tile a workgroup, thread 0 reads the scan's word instead (keysInTemp; INDEX_TILES: every
// invocation reads it, into inTemp).
shared uint keysInTemp;
layout(constant_id = SORTLAB_SPEC_WHERE_IN_REGISTER) const uint WHERE_IN_REGISTER = 0;
bool inTemp;
// INDEX_TILES (the module onesweep_pass_index, one tile a workgroup only): the workgroup's index is
// its tile, so that its keys' loads start at once, before the first barrier; otherwise the next id
// from the pass's counter, in the order the workgroups get there. Either is right: a walk stuck on a
// tile whose workgroup has not started falls back, counting that tile's keys itself.
#ifndef INDEX_TILES
#define INDEX_TILES 0
#endif
// LATE_WALKS (modules without lookback steps): the walks start, and read their first statuses, after
// the ranking rather than before it, so that nothing of the lookback holds registers during it.
#ifndef LATE_WALKS
#define LATE_WALKS 0
#endif
// LATE_VALUES (32-bit keys with values): a tile's values are loaded after its keys' write-out, as
// CUB's pass loads them, rather than before the lookback, so that they hold no registers during it
// or the keys' write-out. Their loads are indexed by a word read from shared memory after the
// write-out's last barrier (always 0): global loads may move across barrier(), and the compiler
// issued them early otherwise.
#ifndef LATE_VALUES
#define LATE_VALUES 0
#endif
#if LATE_VALUES
shared uint opaqueZero;
#endif
#if INDEX_TILES
bool fromTemp() { return inTemp; }
#else
bool fromTemp() { return WHERE_IN_REGISTER != 0 ? inTemp : (PERSISTENT != 0 ? pc.fromTemp : keysInTemp) != 0u; }
#endif
uint64_t srcKeys() { return fromTemp() ? pc.keysTemp : pc.keys; }
uint64_t dstKeys() { return fromTemp() ? pc.keys : pc.keysTemp; }
uint64_t srcValues() { return fromTemp() ? pc.valuesTemp : pc.values; }
uint64_t dstValues() { return fromTemp() ? pc.values : pc.valuesTemp; }

// Status words (constants.h). Their epoch alternates between the pass dispatches that run, so that
// the previous one's read as not ready: the host knows it for each twin; one tile a workgroup, it
// comes from where the keys are (gpuEpoch), so that a skipped pass touches no status.
const uint COUNT_MASK = (1u << SORTLAB_OS_COUNT_BITS) - 1u;
uint gpuEpoch;
uint statusEpoch() { return PERSISTENT != 0 ? pc.epoch : gpuEpoch; }
uint statusWord(uint flag, uint count) {
    return (statusEpoch() << SORTLAB_OS_EPOCH_SHIFT) | (flag << SORTLAB_OS_FLAG_SHIFT) | count;
}
uint statusFlag(uint s) {
    return (s >> SORTLAB_OS_EPOCH_SHIFT) == statusEpoch() ? (s >> SORTLAB_OS_FLAG_SHIFT) & 3u : SORTLAB_OS_NOT_READY;
}
uint statusCount(uint s) { return s & COUNT_MASK; }

uint64_t destination(uint d, uint idx) { // where staged position idx of a key with digit d goes
    return packUint2x32(uvec2(perDigit[2 * d], perDigit[2 * d + 1])) + idx;
}

#if HALF_STAGED
uint rankWord(uvec2 o) { return pc.pass < 4 ? o.x : o.y; }
uint digitOfWord(uint w) { return (w >> (8 * (pc.pass & 3u))) & digitMask(pc.pass); }
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

uint tid, sg, lane;      // the invocation's place in the workgroup
uint runStart;           // key i of this lane: runStart + i * SUBGROUP_SIZE
uint histRow, histShift; // this subgroup's counts: row and 16-bit half
uint tile, tileKeys;     // the tile in flight
bool full;               // tileKeys == SLOTS: every slot holds a key
Key raw[KPT];            // its keys, raw (a persistent workgroup loads the next tile's here)
RANKED ob[KPT];
#if HALF_STAGED
uint other[KPT]; // the other word of each key, raw, staged after the first half's write-out
#endif
#if HAS_VALUES
uint v[KPT];
#endif
// Each key's place (two 16 bits a word), kept where something is staged after the ranking: the
// values, the other halves, or (COUNTS_IN_TILE, EXCHANGE_ROUNDS > 1) the keys themselves.
const bool KEEP_PLACES = HAS_VALUES != 0 || HALF_STAGED || COUNTS_IN_TILE != 0 || EXCHANGE_ROUNDS > 1;
uint place[(KPT + 1) / 2];
void notePlace(uint i, uint at) {
    if ((i & 1u) == 0) place[i / 2] = at;
    else place[i / 2] |= at << 16;
}
uint placeOf(uint i) { return (place[i / 2] >> (16 * (i & 1u))) & 0xffffu; }
#if HAS_VALUES || HALF_STAGED
// The digit of each position written (8 bits each).
uint digits[(KPT + 3) / 4];
uint digitAt(uint i) { return (digits[i / 4] >> (8 * (i % 4))) & 255u; }
#endif
// Per digit d = tid + q * WORKGROUP_SIZE (q < DIGITS_PER_LANE, d < 256):
uint64_t portionBase[4];  // where this portion's keys of the digit start (used after the lookback)
uint count[4];            // the tile's keys of the digit (real keys only)
uint words[4][HIST_ROWS]; // the subgroups' count words of the digit
uint within[4];           // the exclusive scan of the counts within this subgroup's run of digits
uint localStart[4];       // where the digit starts in the staged tile
uint batch[4][LOOKBACK_BATCH]; // the digit's walk back: statuses read ahead
uint acc[4];
int next[4];
uint spins[4];
bool pending[4], published[4];

// [SECTION] Load -----------------------------------------------------------------------------------

// A persistent workgroup loads its next tile's keys before the ranking (in flight during it) or
// after it (LOAD_NEXT_EARLY 0: no registers during it).
layout(constant_id = SORTLAB_SPEC_LOAD_NEXT_EARLY) const uint LOAD_NEXT_EARLY = 1;

// A tile's keys, raw. The last tile's missing keys get the largest order bits: they rank after every
// real key (the largest digit, digitMask(pass)), are never written out, and are left out of that
// digit's published count.
void loadKeys(uint64_t src, uint tile, uint runStart, out Key raw[KPT]) {
    const uint64_t base = uint64_t(pc.firstTile + tile) * TILE;
    const uint keys = uint(min(uint64_t(TILE), keyCount() - base));
    if (keys == SLOTS) {
        [[unroll]] for (uint i = 0; i < KPT; ++i) raw[i] = keyAt(src, base + runStart + i * SUBGROUP_SIZE).v;
    } else {
        [[unroll]] for (uint i = 0; i < KPT; ++i)
            raw[i] = runStart + i * SUBGROUP_SIZE < keys ? keyAt(src, base + runStart + i * SUBGROUP_SIZE).v
                                                         : keyFromOrderBits(ALL_ONES);
    }
}
#if HAS_VALUES
// A tile's values, loaded after its ranking, so that they take no registers during it (LATE_VALUES:
// after the keys' write-out).
void loadValues(uint64_t src, uint tile, uint runStart, out uint v[KPT]) {
    const uint64_t base = uint64_t(pc.firstTile + tile) * TILE;
    const uint keys = uint(min(uint64_t(TILE), keyCount() - base));
    [[unroll]] for (uint i = 0; i < KPT; ++i)
        if (keys == SLOTS || runStart + i * SUBGROUP_SIZE < keys) v[i] = valueAt(src, base + runStart + i * SUBGROUP_SIZE).v;
}
#endif

// [SECTION] Count and publish the aggregate -----------------------------------------------------------

// The keys' order bits, and early counts: each subgroup's count of each digit (a shared atomic a key).
void countTile() {
#if HALF_STAGED
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        ob[i] = rankWord(orderBits(raw[i]));
        other[i] = pc.pass < 4 ? raw[i].y : raw[i].x;
    }
#else
    [[unroll]] for (uint i = 0; i < KPT; ++i) ob[i] = orderBits(raw[i]);
#endif
    [[unroll]] for (uint i = 0; i < KPT; ++i) addCount(histRow + RANK_DIGIT(ob[i]), 1u << histShift);
}

// The tile's count of each digit, published at once as an aggregate (tile 0: as an inclusive
// prefix). Invocation t takes digits t + q * WORKGROUP_SIZE; a subgroup, a run of consecutive digits.
void publishAggregate() {
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        count[q] = 0;
        within[q] = 0;
        if (q < DIGITS_PER_LANE && d < 256) {
            uint run = 0;
            [[unroll]] for (uint r = 0; r < HIST_ROWS; ++r) {
                words[q][r] = countAt(r * 256 + d);
                run += (words[q][r] & 0xffffu) + (words[q][r] >> 16);
            }
            count[q] = d == digitMask(pc.pass) ? run - (SLOTS - tileKeys) : run;
            if (count[q] == tileKeys) uniformDigit = d + 1u;
            status(tile, d).v = statusWord(tile == 0 ? SORTLAB_OS_INCLUSIVE : SORTLAB_OS_AGGREGATE, count[q]);
            within[q] = subgroupExclusiveAdd(run);
            if (lane == SUBGROUP_SIZE - 1) perDigit[d / SUBGROUP_SIZE] = within[q] + run;
        }
    }
}

// Where each digit starts in the staged tile; each count word becomes its two subgroups' starts.
void localStarts() {
    [[unroll]] for (uint q = 0; q < 4; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        if (q < DIGITS_PER_LANE && d < 256) {
            uint start = within[q];
            [[unroll]] for (uint b = 0; b < 256 / SUBGROUP_SIZE; ++b)
                if (b < d / SUBGROUP_SIZE) start += perDigit[b];
            localStart[q] = start;
            [[unroll]] for (uint r = 0; r < HIST_ROWS; ++r) {
                const uint lo = words[q][r] & 0xffffu;
                setCount(r * 256 + d, start | ((start + lo) << 16));
                start += lo + (words[q][r] >> 16);
            }
        }
    }
}

// [SECTION] Rank and stage ----------------------------------------------------------------------------

// The lanes of the subgroup whose key has digit d: eight ballots, one per digit bit.
uvec4 sameDigit(uint d) {
    uvec4 m = uvec4(0xffffffffu);
    [[unroll]] for (uint b = 0; b < 8; ++b) {
        const bool bit = ((d >> b) & 1u) != 0;
        const uvec4 set = subgroupBallot(bit);
        if (SUBGROUP_SIZE <= 32) m.x &= bit ? set.x : ~set.x;
        else m &= bit ? set : ~set;
    }
    // The complements set the bits of lanes the subgroup does not have: clear them, so that the
    // bit counts below need not rely on the driver ignoring them (64 lanes: AMD's wave64).
    if (SUBGROUP_SIZE <= 32) m = uvec4(m.x & (SUBGROUP_SIZE == 32 ? 0xffffffffu : (1u << SUBGROUP_SIZE) - 1u), 0u, 0u, 0u);
    else if (SUBGROUP_SIZE == 64) m = uvec4(m.x, m.y, 0u, 0u);
    return m;
}

// A key's place: its subgroup's start for its digit, plus the keys of that digit the subgroup has
// placed already, plus its lanes before it with that digit (the sort is stable).
void lookbackStep(); // [SECTION] Look back
#if LATE_WALKS && defined(FIXED_STRIDE) && FIXED_STRIDE != 0
#error LATE_WALKS is for modules without lookback steps
#endif
void rankAndStage() {
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint d = RANK_DIGIT(ob[i]);
        const uvec4 m = sameDigit(d);
        const uint below = subgroupBallotExclusiveBitCount(m);
        uint before = 0;
        if (below == 0)
            before = (addCount(histRow + d, subgroupBallotBitCount(m) << histShift) >> histShift) & 0xffffu;
        const uint at = subgroupShuffle(before, subgroupBallotFindLSB(m)) + below;
        if (COUNTS_IN_TILE == 0 && (EXCHANGE_ROUNDS == 1 || at < STAGED_SLOTS)) staged[at] = ob[i]; // (the first round's)
        if (KEEP_PLACES) notePlace(i, at);
        if (LOOKBACK_STRIDE != 0 && i % max(LOOKBACK_STRIDE, 1u) == LOOKBACK_STRIDE - 1) lookbackStep(); // (max: SPIR-V evaluates both sides)
    }
}

// A tile whose keys all have one digit needs no ranking: key j is staged at j (the sort is stable).
void stageInOrder() {
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint at = runStart + i * SUBGROUP_SIZE;
        // (COUNTS_IN_TILE too: no count is read or written once the tile has one digit)
        if (EXCHANGE_ROUNDS == 1 || at < STAGED_SLOTS) staged[at] = ob[i];
        if (KEEP_PLACES) notePlace(i, at);
    }
}

// COUNTS_IN_TILE: the keys staged at their places once every subgroup has ranked (the caller's
// barrier), over the counts.
void stageRanked() {
    [[unroll]] for (uint i = 0; i < KPT; ++i) staged[placeOf(i)] = ob[i];
}

// COUNTS_IN_TILE, persistent: the write-out zeroes the counts' words for the next tile, each word
// by the invocation that reads it last, and those past the tile's slots (a small tile) after it.
void freeCounts(uint idx) {
    if (COUNTS_IN_TILE != 0 && PERSISTENT != 0 && idx < HIST_WORDS) staged[idx] = 0u;
}
void freeCountsPastSlots() {
    if (COUNTS_IN_TILE != 0 && PERSISTENT != 0)
        for (uint j = SLOTS + tid; j < HIST_WORDS; j += WORKGROUP_SIZE) staged[j] = 0u;
}

#include "onesweep_log.glsl" // the lookback log (LOG_BASE > 0 only: the instrumented form)

#include "onesweep_lookback.glsl" // the chained scan: publish, look back, fall back

// [SECTION] Write out ---------------------------------------------------------------------------------

// Stages the words w of the places from r * STAGED_SLOTS on (all: also the last tile's missing
// keys): round r of the write-out (EXCHANGE_ROUNDS > 1 for 32-bit keys, round 0 staged during the
// ranking; otherwise only round 0), for keys, other halves and values alike.
void stageRound(uint r, uint w[KPT], bool all) {
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint at = placeOf(i) - r * STAGED_SLOTS; // (wraps past STAGED_SLOTS for earlier rounds)
        if ((EXCHANGE_ROUNDS == 1 || at < STAGED_SLOTS) && (all || full || runStart + i * SUBGROUP_SIZE < tileKeys))
            staged[at] = w[i];
    }
}

// Write the staged tile out: consecutive invocations write consecutive positions of a digit's run
// (HALF_STAGED: the ranked words first, then the other words, staged in the same places).
#if HALF_STAGED
void writeKeys(uint64_t dstKeys) {
    [[unroll]] for (uint i = 0; i < (KPT + 3) / 4; ++i) digits[i] = 0u;
    [[unroll]] for (uint r = 0; r < EXCHANGE_ROUNDS; ++r) {
        if (r > 0) {
            barrier(); // the round before has read its other words
            stageRound(r, ob, true);
            barrier();
        }
        uint ranked[KPT / EXCHANGE_ROUNDS]; // the ranked word at each position this invocation writes
        [[unroll]] for (uint k = 0; k < KPT / EXCHANGE_ROUNDS; ++k) {
            const uint i = r * (KPT / EXCHANGE_ROUNDS) + k;
            ranked[k] = staged[k * WORKGROUP_SIZE + tid];
            digits[i / 4] |= digitOfWord(ranked[k]) << (8 * (i % 4));
        }
        barrier();
        stageRound(r, other, false);
        barrier();
        [[unroll]] for (uint k = 0; k < KPT / EXCHANGE_ROUNDS; ++k) {
            const uint i = r * (KPT / EXCHANGE_ROUNDS) + k;
            const uint idx = r * STAGED_SLOTS + k * WORKGROUP_SIZE + tid;
            if (full || idx < tileKeys)
                keyAt(dstKeys, destination(digitAt(i), idx)).v = keyFromHalves(ranked[k], staged[k * WORKGROUP_SIZE + tid]);
            if (HAS_VALUES == 0) freeCounts(idx);
        }
    }
}
#else
void writeKeys(uint64_t dstKeys) {
#if HAS_VALUES
    [[unroll]] for (uint i = 0; i < (KPT + 3) / 4; ++i) digits[i] = 0u;
#endif
    [[unroll]] for (uint r = 0; r < EXCHANGE_ROUNDS; ++r) {
        if (r > 0) {
            barrier(); // the round before has read its keys
            stageRound(r, ob, true);
            barrier();
        }
        [[unroll]] for (uint k = 0; k < KPT / EXCHANGE_ROUNDS; ++k) {
            const uint i = r * (KPT / EXCHANGE_ROUNDS) + k; // this invocation's i-th position
            const uint idx = r * STAGED_SLOTS + k * WORKGROUP_SIZE + tid;
            if (full || idx < tileKeys) {
                const Ord o = staged[idx - r * STAGED_SLOTS];
                const uint d = digitOfOrder(o, pc.pass);
                keyAt(dstKeys, destination(d, idx)).v = keyFromOrderBits(o);
#if HAS_VALUES
                digits[i / 4] |= d << (8 * (i % 4));
#endif
            }
            if (HAS_VALUES == 0) freeCounts(idx);
        }
    }
}
#endif // HALF_STAGED
#if HAS_VALUES
// Then the values, staged in the same places through the same shared memory.
void writeValues(uint64_t dstValues) {
    [[unroll]] for (uint r = 0; r < EXCHANGE_ROUNDS; ++r) {
        barrier();
        stageRound(r, v, false);
        barrier();
        [[unroll]] for (uint k = 0; k < KPT / EXCHANGE_ROUNDS; ++k) {
            const uint i = r * (KPT / EXCHANGE_ROUNDS) + k;
            const uint idx = r * STAGED_SLOTS + k * WORKGROUP_SIZE + tid;
            if (full || idx < tileKeys)
                valueAt(dstValues, destination(digitAt(i), idx)).v = staged[idx - r * STAGED_SLOTS];
            freeCounts(idx);
        }
    }
}
#endif

// [SECTION] main ----------------------------------------------------------------------------------------

void main() {
#if INDEX_TILES
    {
        // The tile is the workgroup's index: its keys' loads start at once. Every invocation reads
        // whether the scan skipped the pass and where the keys are.
        const uint skipped = word(SORTLAB_OS_INFO + 4u * pc.pass + 3u).v;
        const uint where = word(SORTLAB_OS_WHERE + pc.pass).v;
        if (skipped != 0u) return;
        tile = workgroupIndex();
        if (tile >= tileCount()) return; // (a folded dispatch's last row)
        tid = gl_LocalInvocationIndex;
        sg = gl_SubgroupID;
        lane = gl_SubgroupInvocationID;
        inTemp = where != 0u;
        gpuEpoch = (where * pc.portions + pc.portion) & 1u;
        runStart = sg * SUBGROUP_SIZE * KPT + lane;
        loadKeys(srcKeys(), tile, runStart, raw); // in flight from here
        // (The portion's bases as in the counter's branch below, written out twice: as a function
        // the counter's SPIR-V changes, and its speed was measured as it is.)
        [[unroll]] for (uint q = 0; q < 4; ++q) {
            const uint d = tid + q * WORKGROUP_SIZE;
            if (q < DIGITS_PER_LANE && d < 256)
                portionBase[q] = pc.portion == 0 ? qword(SORTLAB_OS_OFFSETS + 2 * (256 * pc.pass + d)).v
                                                 : qword(SORTLAB_OS_BASE + 2 * (256 * (pc.portion & 1u) + d)).v;
        }
        if (tid == 0) stuckTile = 0;
#if LATE_VALUES
        if (tid == 0) opaqueZero = 0u;
#endif
        for (uint i = tid; i < HIST_ROWS * 256; i += WORKGROUP_SIZE) setCount(i, 0u);
        barrier();
        if (LOG_BASE != 0 && tid == 0) logTook();
    }
#else
    {
        // One tile a workgroup: a pass the scan skipped sends its workgroups home at once, before the
        // tile id's atomic, which all of them would take in turn on one word (the scan's word for the
        // pass, in a line that no pass writes).
        if (PERSISTENT == 0 && word(SORTLAB_OS_INFO + 4u * pc.pass + 3u).v != 0u) return;
        tid = gl_LocalInvocationIndex;
        sg = gl_SubgroupID;
        lane = gl_SubgroupInvocationID;
        if (tid == 0) {
            tileId = atomicAdd(word(SORTLAB_OS_COUNTER + 2u * pc.dispatch + pc.fromTemp).v, 1u);
            stuckTile = 0;
#if LATE_VALUES
            opaqueZero = 0u;
#endif
            if (PERSISTENT == 0) keysInTemp = word(SORTLAB_OS_WHERE + pc.pass).v;
        }
        for (uint i = tid; i < HIST_ROWS * 256; i += WORKGROUP_SIZE) setCount(i, 0u);
        barrier();
        tile = tileId;
        if (PERSISTENT == 0) gpuEpoch = (keysInTemp * pc.portions + pc.portion) & 1u;
        if (WHERE_IN_REGISTER != 0) inTemp = (PERSISTENT != 0 ? pc.fromTemp : keysInTemp) != 0u;
        if (LOG_BASE != 0 && tid == 0 && tile < tileCount()) logTook();
        // Workgroups past the last tile (a folded dispatch's last row, a stopped twin) leave.
        if (tile >= tileCount()) return; // (a skipped pass's workgroups take ids from SORTLAB_OS_SKIPPED on)
        runStart = sg * SUBGROUP_SIZE * KPT + lane;
        loadKeys(srcKeys(), tile, runStart, raw);
        [[unroll]] for (uint q = 0; q < 4; ++q) {
            const uint d = tid + q * WORKGROUP_SIZE;
            if (q < DIGITS_PER_LANE && d < 256)
                portionBase[q] = pc.portion == 0 ? qword(SORTLAB_OS_OFFSETS + 2 * (256 * pc.pass + d)).v
                                                 : qword(SORTLAB_OS_BASE + 2 * (256 * (pc.portion & 1u) + d)).v;
        }
    }
#endif
    histRow = (sg / 2) * 256;
    histShift = 16 * (sg & 1u);

    // One tile per round; a persistent workgroup goes on to the tile id it took during this one, for
    // at most PERSISTENT tiles (lavapipe ends a shader's loops after about 65535 iterations).
    uint round = 0;
    for (;;) {
        const uint64_t tileBase = uint64_t(pc.firstTile + tile) * TILE;
        tileKeys = uint(min(uint64_t(TILE), keyCount() - tileBase));
        full = tileKeys == SLOTS;
        // The next tile id, taken now and used after the ranking, so that its latency hides.
        uint takenTile = 0;
        ++round;
        if (PERSISTENT != 0 && tid == 0)
            takenTile = round < PERSISTENT ? atomicAdd(word(SORTLAB_OS_COUNTER + 2u * pc.dispatch + pc.fromTemp).v, 1u) : tileCount();
        if (LOG_BASE != 0) logClear();
        if (tid == 0) uniformDigit = 0u; // (read last before the previous round's closing barrier)
        countTile();
        if (LOG_BASE != 0 && tid == 0) logCounted();
        barrier();
        publishAggregate();
#if !LATE_WALKS
        readFirstStatuses();
#endif
        if (PERSISTENT != 0 && tid == 0) nextTileId = takenTile;
        barrier();
        const uint nextTile = PERSISTENT != 0 ? nextTileId : tileCount();
        if (LOAD_NEXT_EARLY != 0 && PERSISTENT != 0 && nextTile < tileCount()) loadKeys(srcKeys(), nextTile, runStart, raw);
        localStarts();
        barrier();
        const uint oneDigit = uniformDigit; // (the same in the whole workgroup)
#if !LATE_WALKS
        startWalks();
#endif
        if (oneDigit == 0u) rankAndStage();
        else stageInOrder(); // a tile of one digit
        if (COUNTS_IN_TILE != 0 && oneDigit == 0u) {
            barrier(); // every subgroup is done with the counts
            stageRanked();
        }
        if (LOAD_NEXT_EARLY == 0 && PERSISTENT != 0 && nextTile < tileCount()) loadKeys(srcKeys(), nextTile, runStart, raw);
#if HAS_VALUES && !LATE_VALUES
        loadValues(srcValues(), tile, runStart, v); // in flight during the lookback and the keys' write-out
#endif
#if LATE_WALKS
        startWalks();
        readFirstStatuses();
#endif
        lookBack();
        publishInclusive();
        const bool fellBack = fallBack(srcKeys());
        if (fellBack && tid == 0) atomicAdd(word(SORTLAB_OS_FALLBACKS + pc.pass).v, 1u);
        if (LOG_BASE != 0 && tid == 0) logDone(fellBack);
        // The counts are free from the vote's barrier on: zeroed for the next tile (COUNTS_IN_TILE:
        // by the write-out).
        if (PERSISTENT != 0 && COUNTS_IN_TILE == 0)
            for (uint i = tid; i < HIST_ROWS * 256; i += WORKGROUP_SIZE) setCount(i, 0u);
        if (oneDigit != 0u && tid == 0) atomicAdd(word(SORTLAB_OS_UNIFORM + pc.pass).v, 1u);
        writeKeys(dstKeys());
#if HAS_VALUES
#if LATE_VALUES
        loadValues(srcValues(), tile, runStart + opaqueZero, v);
#endif
        writeValues(dstValues());
#endif
        freeCountsPastSlots();
        if (PERSISTENT == 0 || nextTile >= tileCount()) break;
        tile = nextTile;
        if (LOG_BASE != 0 && tid == 0) logWord(SORTLAB_OS_LOG_TOOK).v = logEvent(); // starts on the id it took
        barrier(); // the staged tile, the per-digit words and the counts are free again
    }
}
