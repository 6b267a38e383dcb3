// Hybrid sort, the bucket sort. The MSD passes left the keys sorted by their top 16 order bits (the
// bucket); workgroup w sorts the region of the buckets that begin in window w (keys [w WINDOW,
// (w + 1) WINDOW)): from the first one's beginning to the last one's end. A region of at most TILE
// keys (the workgroup's WORKGROUP_SIZE x KPT slots) is sorted on chip: loaded once into registers,
// sorted by stable 8-bit LSD passes (bits 0-7 and 8-15; 16-23 where it holds several buckets, 24-31
// where their top bytes differ), written back in place, coalesced. A larger region is two pieces:
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
// next pass (exchange) through half a tile of shared memory in two rounds: the first half of the
// subgroups hold the first half of the slots.
#version 460
#include "hybrid.glsl"

#if KEY_WORDS != 1
#error the hybrid sort's bucket sort takes 32-bit keys
#endif

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
uint ob[KPT];              // the keys' order bits, slot runStart + i * SUBGROUP_SIZE
uint place[(KPT + 1) / 2]; // each key's place in the ranked tile, two 16 bits a word

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

// Ranks the tile's first `count` slots (ob, at most TILE) by the digit at bit `shift`, stable: each
// key's place (placeOf), tileStart and tileTotal. The counts must be zero when it starts
// (clearCounts, then a barrier); it ends after a barrier.
void rankTile(uint shift, uint count) {
    [[unroll]] for (uint i = 0; i < KPT; ++i)
        if (runStart + i * SUBGROUP_SIZE < count) atomicAdd(counts[histRow + ((ob[i] >> shift) & 255u)], 1u << histShift);
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
            const uint d = (ob[i] >> shift) & 255u;
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

// Stages the ranked keys whose places are in round r's half: staged[place - r HALF].
void stageRound(uint r) {
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint at = placeOf(i) - r * HALF; // (wraps past HALF for the other round's places)
        if (at < HALF) staged[at] = ob[i];
    }
}

// The ranked keys into ob, in slot order (the next pass's keys): in two rounds through the staged
// half, the first half of the subgroups taking theirs in round 0. Ends after a barrier.
void exchange(uint count) {
    uint next[KPT];
    [[unroll]] for (uint r = 0; r < 2; ++r) {
        stageRound(r);
        barrier();
        if (sg / HALF_SUBGROUPS == r) {
            [[unroll]] for (uint i = 0; i < KPT; ++i) {
                const uint slot = runStart + i * SUBGROUP_SIZE;
                next[i] = slot < count ? staged[slot - r * HALF] : 0xffffffffu;
            }
        }
        barrier();
    }
    [[unroll]] for (uint i = 0; i < KPT; ++i) ob[i] = next[i];
}

void clearCounts() {
    for (uint i = tid; i < HIST_ROWS * 256; i += WORKGROUP_SIZE) counts[i] = 0u;
}

// Loads the tile's first `count` slots into ob from `src` at `at`.
void loadGlobal(uint64_t src, uint64_t at, uint count) {
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint slot = runStart + i * SUBGROUP_SIZE;
        ob[i] = 0xffffffffu;
        if (slot < count) ob[i] = orderBits(keyAt(src, at + slot).v);
    }
}

// Sorts keys [begin, begin + size) of pc.keys by the 8-bit passes of `passes` (bit p: bits 8p..8p+7,
// at least one), stable, in place. At most TILE keys: in registers and shared memory, loaded once,
// exchanged after each pass, written back coalesced. More (skewed keys): sortLargePiece.
void sortLargePiece(uint64_t begin, uint64_t size, uint passes);
void sortPiece(uint64_t begin, uint64_t size, uint passes) {
    if (size <= TILE) {
        const uint count = uint(size);
        loadGlobal(pc.keys, begin, count);
        const uint last = uint(findMSB(passes)); // the last pass that runs
        for (uint pass = 0; pass < 4; ++pass) {
            if (((passes >> pass) & 1u) == 0u) continue;
            clearCounts();
            barrier(); // (the counts are clear)
            rankTile(8 * pass, count);
            if (pass != last) exchange(count);
        }
        // The last pass's keys go out from the staged half, place by place (coalesced).
        [[unroll]] for (uint r = 0; r < 2; ++r) {
            stageRound(r);
            barrier();
            for (uint j = tid; j < HALF && r * HALF + j < count; j += WORKGROUP_SIZE)
                keyAt(pc.keys, begin + r * HALF + j).v = keyFromOrderBits(staged[j]);
            barrier();
        }
    } else {
        sortLargePiece(begin, size, passes);
    }
}

// sortPiece's path for a piece larger than a tile: in global memory through keysTemp, per pass the
// digit histogram and then tile by tile each key to its digit's next place in the other buffer; a
// pass in which every key has one digit is skipped, and the result is copied back if an odd number
// of passes ran. Slow (one workgroup for the whole piece) but right for any size; it counts itself
// in SORTLAB_HY_FLAGS.
void sortLargePiece(uint64_t begin, uint64_t size, uint passes) {
    if (tid == 0) atomicAdd(word(SORTLAB_HY_FLAGS).v, 1u);
    bool inTemp = false; // the keys are in keysTemp
    for (uint pass = 0; pass < 4; ++pass) {
        if (((passes >> pass) & 1u) == 0u) continue;
        const uint shift = 8 * pass;
        const uint64_t src = inTemp ? pc.keysTemp : pc.keys, dst = inTemp ? pc.keys : pc.keysTemp;
        for (uint d = tid; d < 256; d += WORKGROUP_SIZE) tileTotal[d] = 0u;
        if (tid == 0) skipPass = 0u;
        barrier();
        for (uint64_t j = tid; j < size; j += WORKGROUP_SIZE)
            atomicAdd(tileTotal[(orderBits(keyAt(src, begin + j).v) >> shift) & 255u], 1u);
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
            loadGlobal(src, begin + t, count);
            clearCounts();
            barrier();
            rankTile(shift, count);
            [[unroll]] for (uint r = 0; r < 2; ++r) {
                stageRound(r);
                barrier();
                for (uint j = tid; j < HALF && r * HALF + j < count; j += WORKGROUP_SIZE) {
                    const uint o = staged[j];
                    const uint d = (o >> shift) & 255u;
                    keyAt(dst, begin + base[d] + (r * HALF + j - tileStart[d])).v = keyFromOrderBits(o);
                }
                barrier();
            }
            for (uint d = tid; d < 256; d += WORKGROUP_SIZE) base[d] += tileTotal[d];
            barrier();
        }
        memoryBarrierBuffer(); // (the next pass reads what this one wrote)
        barrier();
        inTemp = !inTemp;
    }
    if (inTemp)
        for (uint64_t j = tid; j < size; j += WORKGROUP_SIZE) keyAt(pc.keys, begin + j).v = keyAt(pc.keysTemp, begin + j).v;
    barrier(); // (shared memory is free again)
}

// The passes that sort a run of buckets from `first` to `last` (or fewer) by the low 16 bits and
// their bucket: bits 16-23 where it may hold several buckets, 24-31 where their top bytes differ.
uint regionPasses(uint first, uint last) {
    return 3u | (first != last ? 4u : 0u) | ((first >> 8) != (last >> 8) ? 8u : 0u);
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
    if (end - lastBegin > 1ul) sortPiece(lastBegin, end - lastBegin, 3u);
}
