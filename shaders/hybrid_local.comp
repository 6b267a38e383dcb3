// Hybrid sort, the bucket sort. The MSD passes left the keys sorted by their top 16 order bits (the
// bucket); workgroup w sorts the region of the buckets that begin in window w (keys [w WINDOW,
// (w + 1) WINDOW)): from the first one's beginning to the last one's end. A region of at most TILE
// keys (the workgroup's WORKGROUP_SIZE x KPT slots) is sorted on chip: loaded once into registers
// (the keys' order bits, a word at a time, and their values), sorted by stable 8-bit LSD passes (the
// bits below the bucket: 0-15 of a 32-bit key, 0-47 of a 64-bit one; then the bucket's low byte
// where the region holds several buckets, its high byte where their high bytes differ), written back
// in place, coalesced. A larger region is two pieces:
// the buckets before its last one (they lie inside the window, so at most WINDOW = TILE / 2 keys)
// and its last bucket; a bucket larger than TILE (skewed keys) is sorted by the same workgroup in
// global memory, through keysTemp, one tile at a time (slow, but right for any size; it counts
// itself in SORTLAB_HY_FLAGS).
//
// Ranking a tile (rankTile), as OneSweep's pass kernel ranks one: subgroup s holds slots
// [s * SUBGROUP_SIZE * KPT, (s + 1) * ...), lane l slot s * SUBGROUP_SIZE * KPT + i * SUBGROUP_SIZE + l
// as its i-th key, so that the ballots of iteration i rank keys in slot order. Each subgroup first
// counts its keys of each digit (16-bit counts, two subgroups a word); the counts become each
// (digit, subgroup)'s start in the tile, digit-major (a subgroup scan within runs of SUBGROUP_SIZE
// digits, then the runs' sums), so that equal digits keep their slot order (stable); then each key
// takes its place from its subgroup's start of its digit. The keys then move to the slots of the
// next pass (exchange) through half a tile of shared memory in two rounds, one word of the key (and
// then the value) at a time: the first half of the subgroups hold the first half of the slots.
#version 460
#include "hybrid.glsl"

const uint PASSES = 4 * KEY_WORDS;               // 8-bit digits of a key
const uint LOW_PASSES = (1u << (PASSES - 2)) - 1u; // the passes below the bucket (its 16 bits: the top two)

#ifdef FIXED_KPT
const uint KPT = FIXED_KPT; // a module built for one keys-a-lane (hybrid_local_kptK_s0), unrolled by spirv-opt
#else
layout(constant_id = SORTLAB_SPEC_KEYS_PER_LANE) const uint KPT = 16;
#endif
const uint TILE = WORKGROUP_SIZE * KPT;
const uint HALF = TILE / 2; // the staged tile: half the slots, exchanged in two rounds
const uint HALF_SUBGROUPS = WORKGROUP_SIZE / SUBGROUP_SIZE / 2; // whose slots are the first half (an even count)
const uint HIST_ROWS = (MAX_SUBGROUPS + 1) / 2;
const uint DIGITS_PER_LANE = (256 + WORKGROUP_SIZE - 1) / WORKGROUP_SIZE;

// Shared memory, about half of what a whole staged tile would take: the NVIDIA driver gives the
// workgroups of a multiprocessor 48 KiB together, and two workgroups a multiprocessor need 24 KiB each.
shared uint staged[HALF];            // half the ranked tile at a time: places [r HALF, (r + 1) HALF) in round r
shared uint counts[HIST_ROWS * 256]; // per (subgroup pair, digit): counts, then starts, then next places
shared uint runSum[256 / SUBGROUP_SIZE]; // each run of SUBGROUP_SIZE digits' keys
shared uint tileStart[256];          // where each digit's keys start in the ranked tile
shared uint tileTotal[256];          // the tile's keys of each digit (global path: first the piece's)
shared uint base[256];               // global path: where the next tile's keys of each digit go in the piece
shared uint skipPass;                // global path: 1 when every key of the piece has the pass's digit

uint tid, sg, lane, runStart, histRow, histShift;
uint ob[KPT]; // the keys' order bits (the low word of a 64-bit key's), slot runStart + i * SUBGROUP_SIZE
#if KEY_WORDS == 2
uint obHi[KPT]; // a 64-bit key's high order word
#endif
#if HAS_VALUES
uint val[KPT]; // the keys' values
#endif
uint place[(KPT + 1) / 2]; // each key's place in the ranked tile, two 16 bits a word

// The order bits of the key at slot `at` of the array at `src` into slot i's registers (ob, obHi).
void loadKey(uint i, uint64_t src, uint64_t at) {
    const Key k = keyAt(src, at).v;
#if KEY_WORDS == 1
    ob[i] = orderBits(k);
#else
    const uvec2 o = orderBits(k);
    ob[i] = o.x;
    obHi[i] = o.y;
#endif
}
// Slot i's key, from its order bits.
Key keyOf(uint i) {
#if KEY_WORDS == 1
    return keyFromOrderBits(ob[i]);
#else
    return keyFromOrderBits(uvec2(ob[i], obHi[i]));
#endif
}
// The 8-bit digit of pass p (bits 8p..8p+7 of the order bits) of slot i's key.
uint digitOf(uint i, uint p) {
#if KEY_WORDS == 1
    return (ob[i] >> (8u * p)) & 255u;
#else
    return ((p < 4u ? ob[i] : obHi[i]) >> (8u * (p & 3u))) & 255u;
#endif
}
// The same of a key's order bits in device memory.
uint digitOfKey(Key k, uint p) {
#if KEY_WORDS == 1
    return (orderBits(k) >> (8u * p)) & 255u;
#else
    const uvec2 o = orderBits(k);
    return ((p < 4u ? o.x : o.y) >> (8u * (p & 3u))) & 255u;
#endif
}

void notePlace(uint i, uint at) {
    if ((i & 1u) == 0) place[i / 2] = at;
    else place[i / 2] |= at << 16;
}
uint placeOf(uint i) { return (place[i / 2] >> (16 * (i & 1u))) & 0xffffu; }

// The lanes of the subgroup whose key has digit d: eight ballots, one per digit bit.
uvec4 sameDigit(uint d) {
    uvec4 m = uvec4(0xffffffffu);
    [[unroll]] for (uint b = 0; b < 8; ++b) {
        const bool bit = ((d >> b) & 1u) != 0;
        const uvec4 set = subgroupBallot(bit);
        if (SUBGROUP_SIZE <= 32) m.x &= bit ? set.x : ~set.x;
        else m &= bit ? set : ~set;
    }
    if (SUBGROUP_SIZE <= 32) m = uvec4(m.x, 0u, 0u, 0u);
    return m;
}

// Ranks the tile's first `count` slots (at most TILE) by the digit of pass p, stable: each
// key's place (placeOf), tileStart and tileTotal. The counts must be zero when it starts
// (clearCounts, then a barrier); it ends after a barrier.
void rankTile(uint p, uint count) {
    [[unroll]] for (uint i = 0; i < KPT; ++i)
        if (runStart + i * SUBGROUP_SIZE < count) atomicAdd(counts[histRow + digitOf(i, p)], 1u << histShift);
    barrier();
    // Each digit's total, and its start within its run of SUBGROUP_SIZE digits (one subgroup's lanes).
    uint within[DIGITS_PER_LANE];
    [[unroll]] for (uint q = 0; q < DIGITS_PER_LANE; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        within[q] = 0u;
        if (d < 256) { // (whole subgroups: 256 and WORKGROUP_SIZE are multiples of SUBGROUP_SIZE)
            uint total = 0u;
            for (uint r = 0; r < HIST_ROWS; ++r) {
                const uint w = counts[r * 256 + d];
                total += (w & 0xffffu) + (w >> 16);
            }
            tileTotal[d] = total;
            within[q] = subgroupExclusiveAdd(total);
            if (lane == SUBGROUP_SIZE - 1) runSum[d / SUBGROUP_SIZE] = within[q] + total;
        }
    }
    barrier();
    // Each (digit, subgroup)'s start, subgroup 2r in the low half of row r.
    [[unroll]] for (uint q = 0; q < DIGITS_PER_LANE; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        if (d < 256) {
            uint start = within[q];
            for (uint b = 0; b < d / SUBGROUP_SIZE; ++b) start += runSum[b];
            tileStart[d] = start;
            for (uint r = 0; r < HIST_ROWS; ++r) {
                const uint w = counts[r * 256 + d];
                const uint lo = w & 0xffffu;
                counts[r * 256 + d] = start | ((start + lo) << 16);
                start += lo + (w >> 16);
            }
        }
    }
    barrier();
    // Each key's place: its subgroup's next place for its digit, plus its lanes before it with that digit.
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint first = runStart - lane + i * SUBGROUP_SIZE; // the subgroup's slot of this iteration
        uint at = 0xffffu; // (past every place: a slot without a key)
        if (first < count) { // (the same in the whole subgroup)
            const bool valid = first + lane < count;
            const uint d = digitOf(i, p);
            const uvec4 m = sameDigit(d) & subgroupBallot(valid);
            const uint below = subgroupBallotExclusiveBitCount(m);
            uint before = 0u;
            if (valid && below == 0u)
                before = (atomicAdd(counts[histRow + d], subgroupBallotBitCount(m) << histShift) >> histShift) & 0xffffu;
            const uint to = subgroupShuffle(before, valid ? subgroupBallotFindLSB(m) : lane) + below;
            if (valid) at = to;
        }
        notePlace(i, at);
    }
}

// Stages the ranked words `a` (one word of each key: ob, obHi or val) whose places are in round r's
// half: staged[place - r HALF].
#define STAGE_ROUND(a, r)                                                                                             \
    [[unroll]] for (uint i = 0; i < KPT; ++i) {                                                                       \
        const uint at = placeOf(i) - (r) * HALF; /* (wraps past HALF for the other round's places) */                  \
        if (at < HALF) staged[at] = a[i];                                                                             \
    }

// The ranked words `a` back into `a` in slot order (the next pass's): in two rounds through the
// staged half, the first half of the subgroups taking theirs in round 0. Ends after a barrier.
#define EXCHANGE(a, count)                                                                                            \
    {                                                                                                                 \
        uint next[KPT];                                                                                               \
        [[unroll]] for (uint r = 0; r < 2; ++r) {                                                                     \
            STAGE_ROUND(a, r)                                                                                         \
            barrier();                                                                                                \
            if (sg / HALF_SUBGROUPS == r) {                                                                           \
                [[unroll]] for (uint i = 0; i < KPT; ++i) {                                                           \
                    const uint slot = runStart + i * SUBGROUP_SIZE;                                                   \
                    next[i] = slot < (count) ? staged[slot - r * HALF] : 0xffffffffu;                                 \
                }                                                                                                     \
            }                                                                                                         \
            barrier();                                                                                                \
        }                                                                                                             \
        [[unroll]] for (uint i = 0; i < KPT; ++i) a[i] = next[i];                                                     \
    }

// The ranked keys (and values) into slot order, the next pass's.
void exchange(uint count) {
    EXCHANGE(ob, count)
#if KEY_WORDS == 2
    EXCHANGE(obHi, count)
#endif
#if HAS_VALUES
    EXCHANGE(val, count)
#endif
}

// Writes the ranked words `a` to the 32-bit words [first + j * stride] (j: the place) from the staged
// half, place by place (coalesced).
#define WRITE_RANKED(a, first, stride, count)                                                                         \
    [[unroll]] for (uint r = 0; r < 2; ++r) {                                                                         \
        STAGE_ROUND(a, r)                                                                                             \
        barrier();                                                                                                    \
        for (uint j = tid; j < HALF && r * HALF + j < (count); j += WORKGROUP_SIZE)                                   \
            valueAt(first, (r * HALF + j) * (stride)).v = staged[j];                                                  \
        barrier();                                                                                                    \
    }

void clearCounts() {
    for (uint i = tid; i < HIST_ROWS * 256; i += WORKGROUP_SIZE) counts[i] = 0u;
}

// Loads the tile's first `count` slots from the keys at `src` (and the values at `srcValues`) at `at`.
void loadGlobal(uint64_t src, uint64_t srcValues, uint64_t at, uint count) {
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint slot = runStart + i * SUBGROUP_SIZE;
        ob[i] = 0xffffffffu;
#if KEY_WORDS == 2
        obHi[i] = 0xffffffffu;
#endif
#if HAS_VALUES
        val[i] = 0u;
        if (slot < count) val[i] = valueAt(srcValues, at + slot).v;
#endif
        if (slot < count) loadKey(i, src, at + slot);
    }
}

// Sorts keys [begin, begin + size) of pc.keys (and their values) by the 8-bit passes of `passes` (bit
// p: bits 8p..8p+7 of the order bits, at least one), stable, in place. At most TILE keys: in
// registers and shared memory, loaded once, exchanged after each pass, written back coalesced. More
// (skewed keys): sortLargePiece.
void sortLargePiece(uint64_t begin, uint64_t size, uint passes);
void sortPiece(uint64_t begin, uint64_t size, uint passes) {
    if (size <= TILE) {
        const uint count = uint(size);
        loadGlobal(pc.keys, pc.values, begin, count);
        const uint last = uint(findMSB(passes)); // the last pass that runs
        for (uint pass = 0; pass < PASSES; ++pass) {
            if (((passes >> pass) & 1u) == 0u) continue;
            clearCounts();
            barrier(); // (the counts are clear)
            rankTile(pass, count);
            if (pass != last) exchange(count);
        }
        // The last pass's keys (their words from their order bits) and values go out from the
        // staged half, place by place (coalesced), a word of each at a time.
        [[unroll]] for (uint i = 0; i < KPT; ++i) {
            const Key k = keyOf(i);
#if KEY_WORDS == 1
            ob[i] = k;
#else
            ob[i] = k.x;
            obHi[i] = k.y;
#endif
        }
        const uint64_t keys = pc.keys + begin * uint64_t(KEY_BYTES);
        WRITE_RANKED(ob, keys, KEY_WORDS, count)
#if KEY_WORDS == 2
        WRITE_RANKED(obHi, keys + 4ul, 2u, count)
#endif
#if HAS_VALUES
        WRITE_RANKED(val, pc.values + begin * 4ul, 1u, count)
#endif
    } else {
        sortLargePiece(begin, size, passes);
    }
}

// sortPiece's path for a piece larger than a tile: in global memory through keysTemp (and
// valuesTemp), per pass the digit histogram and then tile by tile each key (and value) from its
// registers to its digit's next place in the other buffer; a pass in which every key has one digit
// is skipped, and the result is copied back if an odd number of passes ran. Slow (one workgroup for
// the whole piece) but right for any size; it counts itself in SORTLAB_HY_FLAGS.
void sortLargePiece(uint64_t begin, uint64_t size, uint passes) {
    if (tid == 0) atomicAdd(word(SORTLAB_HY_FLAGS).v, 1u);
    bool inTemp = false; // the keys are in keysTemp
    for (uint pass = 0; pass < PASSES; ++pass) {
        if (((passes >> pass) & 1u) == 0u) continue;
        const uint64_t src = inTemp ? pc.keysTemp : pc.keys, dst = inTemp ? pc.keys : pc.keysTemp;
        const uint64_t srcValues = inTemp ? pc.valuesTemp : pc.values, dstValues = inTemp ? pc.values : pc.valuesTemp;
        for (uint d = tid; d < 256; d += WORKGROUP_SIZE) tileTotal[d] = 0u;
        if (tid == 0) skipPass = 0u;
        barrier();
        for (uint64_t j = tid; j < size; j += WORKGROUP_SIZE) atomicAdd(tileTotal[digitOfKey(keyAt(src, begin + j).v, pass)], 1u);
        barrier();
        // (The counts fit 32 bits: plan() takes fewer than 2^32 keys.)
        for (uint d = tid; d < 256; d += WORKGROUP_SIZE)
            if (tileTotal[d] == size) skipPass = 1u;
        if (tid == 0) { // (once a pass of a piece larger than a tile: a serial scan costs nothing)
            uint at = 0u;
            for (uint d = 0; d < 256; ++d) {
                base[d] = at;
                at += tileTotal[d];
            }
        }
        barrier();
        const bool skip = skipPass != 0u;
        barrier(); // (every invocation has read skipPass before the next pass clears it)
        if (skip) continue;
        for (uint64_t t = 0; t < size; t += TILE) {
            const uint count = uint(min(uint64_t(TILE), size - t));
            loadGlobal(src, srcValues, begin + t, count);
            clearCounts();
            barrier();
            rankTile(pass, count);
            [[unroll]] for (uint i = 0; i < KPT; ++i) {
                if (runStart + i * SUBGROUP_SIZE < count) {
                    const uint d = digitOf(i, pass);
                    const uint64_t to = begin + base[d] + (placeOf(i) - tileStart[d]);
                    keyAt(dst, to).v = keyOf(i);
#if HAS_VALUES
                    valueAt(dstValues, to).v = val[i];
#endif
                }
            }
            barrier();
            for (uint d = tid; d < 256; d += WORKGROUP_SIZE) base[d] += tileTotal[d];
            barrier();
        }
        memoryBarrierBuffer(); // (the next pass reads what this one wrote)
        barrier();
        inTemp = !inTemp;
    }
    if (inTemp) {
        for (uint64_t j = tid; j < size; j += WORKGROUP_SIZE) {
            keyAt(pc.keys, begin + j).v = keyAt(pc.keysTemp, begin + j).v;
#if HAS_VALUES
            valueAt(pc.values, begin + j).v = valueAt(pc.valuesTemp, begin + j).v;
#endif
        }
    }
    barrier(); // (shared memory is free again)
}

// The passes that sort a run of buckets from `first` to `last` (or fewer) by the bits below the
// bucket and the bucket: its low byte where the run may hold several buckets, its high byte where
// their high bytes differ.
uint regionPasses(uint first, uint last) {
    return LOW_PASSES | (first != last ? 1u << (PASSES - 2) : 0u) | ((first >> 8) != (last >> 8) ? 1u << (PASSES - 1) : 0u);
}

void main() {
    const uint w = workgroupIndex();
    if (w >= pc.windows) return;
    const uint first = windowFirst(w).v;
    if (first == SORTLAB_HY_NO_BUCKET) return; // every bucket that reaches this window began before it
    const uint last = windowLast(w).v;
    const uint64_t begin = bucketBegin(first).v, end = bucketEnd(last).v;
    if (end - begin <= 1ul) return;
    tid = gl_LocalInvocationIndex;
    sg = gl_SubgroupID;
    lane = gl_SubgroupInvocationID;
    runStart = sg * SUBGROUP_SIZE * KPT + lane;
    histRow = (sg / 2) * 256;
    histShift = 16 * (sg & 1u);
    if (end - begin <= TILE) {
        sortPiece(begin, end - begin, regionPasses(first, last));
        return;
    }
    // A larger region in two pieces: the buckets before the last one (they end where the next one
    // begins, inside the window: at most WINDOW keys, one tile) and the last bucket. No loop over
    // buckets: lavapipe ends a workgroup's outermost loop after 65535 iterations of the loops in it.
    const uint64_t lastBegin = bucketBegin(last).v;
    if (lastBegin - begin > 1ul) sortPiece(begin, lastBegin - begin, regionPasses(first, bucketOf(keyAt(pc.keys, lastBegin - 1ul).v)));
    if (end - lastBegin > 1ul) sortPiece(lastBegin, end - lastBegin, LOW_PASSES);
}
