// Hybrid sort, the bucket sort. The MSD passes left the keys sorted by their top 16 order bits (the
// bucket); workgroup w sorts the region of the buckets that begin in window w (keys [w WINDOW,
// (w + 1) WINDOW)): from the first one's beginning to the last one's end. A region of at most TILE
// keys (the workgroup's WORKGROUP_SIZE x KPT slots) is sorted in shared memory: loaded once, sorted
// by stable 8-bit LSD passes (bits 0-7 and 8-15; 16-23 where it holds several buckets, 24-31 where
// their top bytes differ), written back in place, coalesced. A larger region (a bucket larger than
// the window's share) is sorted bucket by bucket: each of at most TILE keys in shared memory, a
// larger one (skewed keys) by the same workgroup in global memory, through keysTemp, one tile at a
// time (slow, but right for any size; it counts itself in SORTLAB_HY_FLAGS).
//
// Ranking a tile (rankTile): subgroup s holds slots [s * SUBGROUP_SIZE * KPT, (s + 1) * ...), lane
// l slot s * SUBGROUP_SIZE * KPT + i * SUBGROUP_SIZE + l as its i-th key, so that the ballots of
// iteration i rank keys in slot order. Each subgroup counts its keys of each digit (16-bit counts,
// two subgroups a word, as OneSweep's pass kernel); the counts then become each (digit, subgroup)'s
// start in the tile, digit-major, so that equal digits keep their slot order (stable).
#version 460
#include "hybrid.glsl"

#if KEY_WORDS != 1
#error the hybrid sort's bucket sort takes 32-bit keys
#endif

#ifdef FIXED_KPT
const uint KPT = FIXED_KPT; // the module built for one keys-a-lane (hybrid_local_kpt20_s0), unrolled by spirv-opt
#else
layout(constant_id = SORTLAB_SPEC_KEYS_PER_LANE) const uint KPT = 16;
#endif
const uint TILE = WORKGROUP_SIZE * KPT;
const uint HIST_ROWS = (MAX_SUBGROUPS + 1) / 2;
const uint DIGITS_PER_LANE = (256 + WORKGROUP_SIZE - 1) / WORKGROUP_SIZE;

shared uint staged[TILE];
shared uint counts[HIST_ROWS * 256];
shared uint digitStart[256]; // where each digit's keys start in the ranked tile
shared uint digitTotal[256]; // the tile's keys of each digit
shared uint64_t base[256];   // global path: where the next tile's keys of each digit go
shared uint skipPass;        // global path: 1 when every key of the bucket has the pass's digit

uint tid, sg, lane, runStart, histRow, histShift;
uint ob[KPT];    // the keys' order bits
uint place[KPT]; // each key's place in the ranked tile

// The lanes of the subgroup whose key has digit d: eight ballots, one per digit bit.
uvec4 sameDigit(uint d) {
    uvec4 m = uvec4(0xffffffffu);
    [[unroll]] for (uint b = 0; b < 8; ++b) {
        const bool bit = ((d >> b) & 1u) != 0;
        const uvec4 set = subgroupBallot(bit);
        m &= bit ? set : ~set;
    }
    return m;
}

// The exclusive scan of digitTotal into digitStart (Hillis and Steele in shared memory).
void scanDigits() {
    uint v[DIGITS_PER_LANE];
    [[unroll]] for (uint q = 0; q < DIGITS_PER_LANE; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        if (d < 256) digitStart[d] = digitTotal[d];
    }
    for (uint step = 1; step < 256; step <<= 1) {
        barrier();
        [[unroll]] for (uint q = 0; q < DIGITS_PER_LANE; ++q) {
            const uint d = tid + q * WORKGROUP_SIZE;
            v[q] = d < 256 && d >= step ? digitStart[d - step] : 0u;
        }
        barrier();
        [[unroll]] for (uint q = 0; q < DIGITS_PER_LANE; ++q) {
            const uint d = tid + q * WORKGROUP_SIZE;
            if (d < 256) digitStart[d] += v[q];
        }
    }
    barrier();
    [[unroll]] for (uint q = 0; q < DIGITS_PER_LANE; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        if (d < 256) digitStart[d] -= digitTotal[d]; // inclusive to exclusive
    }
}

// Ranks the tile's first `count` slots (ob) by the digit at bit `shift`: place[i] for each of them,
// digitStart and digitTotal for the tile. Ends after a barrier.
void rankTile(uint shift, uint count) {
    for (uint i = tid; i < HIST_ROWS * 256; i += WORKGROUP_SIZE) counts[i] = 0u;
    barrier();
    uint rank[KPT];
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint first = runStart - lane + i * SUBGROUP_SIZE; // the subgroup's slot of this iteration
        rank[i] = 0u;
        if (first < count) { // (the same in the whole subgroup)
            const bool valid = first + lane < count;
            const uint d = (ob[i] >> shift) & 255u;
            const uvec4 m = sameDigit(d) & subgroupBallot(valid);
            const uint below = subgroupBallotExclusiveBitCount(m);
            uint before = 0u;
            if (valid && below == 0u)
                before = (atomicAdd(counts[histRow + d], subgroupBallotBitCount(m) << histShift) >> histShift) & 0xffffu;
            const uint leader = valid ? subgroupBallotFindLSB(m) : lane;
            rank[i] = subgroupShuffle(before, leader) + below;
        }
    }
    barrier();
    // Each digit's total, then each (digit, subgroup)'s start, subgroup 2r in the low half of row r.
    [[unroll]] for (uint q = 0; q < DIGITS_PER_LANE; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        if (d < 256) {
            uint total = 0u;
            for (uint r = 0; r < HIST_ROWS; ++r) {
                const uint w = counts[r * 256 + d];
                total += (w & 0xffffu) + (w >> 16);
            }
            digitTotal[d] = total;
        }
    }
    scanDigits();
    barrier();
    [[unroll]] for (uint q = 0; q < DIGITS_PER_LANE; ++q) {
        const uint d = tid + q * WORKGROUP_SIZE;
        if (d < 256) {
            uint start = digitStart[d];
            for (uint r = 0; r < HIST_ROWS; ++r) {
                const uint w = counts[r * 256 + d];
                const uint lo = w & 0xffffu;
                counts[r * 256 + d] = start | ((start + lo) << 16);
                start += lo + (w >> 16);
            }
        }
    }
    barrier();
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        const uint d = (ob[i] >> shift) & 255u;
        place[i] = ((counts[histRow + d] >> histShift) & 0xffffu) + rank[i];
    }
}

// Sorts keys [begin, begin + size) by the 8-bit passes of `passes` (bit p: bits 8p..8p+7, at least
// one), stable. At most TILE keys: in shared memory, loaded once, staged after each pass, written
// back in place, coalesced. More (skewed keys): in global memory through keysTemp, per pass the
// digit histogram and then tile by tile each key to its digit's next place in the other buffer; a
// pass in which every key has one digit is skipped, and the result is copied back if an odd number
// of passes ran. (One call of rankTile for both: the compilers inline every call.)
void sortPiece(uint64_t begin, uint64_t size, uint passes) {
    const bool inTile = size <= TILE;
    if (!inTile && tid == 0) atomicAdd(word(SORTLAB_HY_FLAGS).v, 1u);
    uint inTemp = 0u; // global path: the keys are in keysTemp
    bool loaded = false; // shared path: the keys are in ob (after the first pass: in staged)
    for (uint pass = 0; pass < 4; ++pass) {
        if (((passes >> pass) & 1u) == 0u) continue;
        const uint shift = 8 * pass;
        const uint64_t src = inTemp != 0u ? pc.keysTemp : pc.keys, dst = inTemp != 0u ? pc.keys : pc.keysTemp;
        if (!inTile) {
            for (uint d = tid; d < 256; d += WORKGROUP_SIZE) digitTotal[d] = 0u;
            if (tid == 0) skipPass = 0u;
            barrier();
            for (uint64_t j = tid; j < size; j += WORKGROUP_SIZE)
                atomicAdd(digitTotal[(orderBits(keyAt(src, begin + j).v) >> shift) & 255u], 1u);
            barrier();
            // (The counts fit 32 bits: plan() takes fewer than 2^32 keys.)
            for (uint d = tid; d < 256; d += WORKGROUP_SIZE)
                if (digitTotal[d] == size) skipPass = 1u;
            barrier();
            const bool skip = skipPass != 0u;
            barrier(); // (every invocation has read skipPass before the next pass clears it)
            if (skip) continue;
            scanDigits();
            barrier();
            for (uint d = tid; d < 256; d += WORKGROUP_SIZE) base[d] = digitStart[d];
            barrier();
        }
        for (uint64_t t = 0; t < size; t += TILE) {
            const uint count = uint(min(uint64_t(TILE), size - t));
            // (The shared path reads staged here; rankTile's first barrier comes before it stages again.)
            [[unroll]] for (uint i = 0; i < KPT; ++i) {
                const uint slot = runStart + i * SUBGROUP_SIZE;
                if (slot >= count) ob[i] = 0xffffffffu;
                else if (!inTile || !loaded) ob[i] = orderBits(keyAt(src, begin + t + slot).v);
                else ob[i] = staged[slot];
            }
            loaded = true;
            rankTile(shift, count);
            [[unroll]] for (uint i = 0; i < KPT; ++i)
                if (runStart + i * SUBGROUP_SIZE < count) {
                    if (inTile) {
                        staged[place[i]] = ob[i];
                    } else {
                        const uint d = (ob[i] >> shift) & 255u;
                        keyAt(dst, begin + base[d] + (place[i] - digitStart[d])).v = keyFromOrderBits(ob[i]);
                    }
                }
            barrier();
            if (!inTile) {
                for (uint d = tid; d < 256; d += WORKGROUP_SIZE) base[d] += digitTotal[d];
                barrier();
            }
        }
        if (!inTile) inTemp ^= 1u;
    }
    if (inTile)
        for (uint j = tid; j < uint(size); j += WORKGROUP_SIZE) keyAt(pc.keys, begin + j).v = keyFromOrderBits(staged[j]);
    else if (inTemp != 0u)
        for (uint64_t j = tid; j < size; j += WORKGROUP_SIZE) keyAt(pc.keys, begin + j).v = keyAt(pc.keysTemp, begin + j).v;
    barrier(); // (shared memory is free again)
}

shared uint64_t nextEnd; // a large region's next bucket's end

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
    // A region of at most TILE keys at once: the low 16 bits, then the bucket's bits where they
    // differ. A larger one bucket by bucket, each found from its first key (fewer steps than the
    // region's buckets, empty ones included), by the low 16 bits.
    const bool whole = end - begin <= TILE;
    const uint regionPasses = 3u | (first != last ? 4u : 0u) | ((first >> 8) != (last >> 8) ? 8u : 0u);
    for (uint64_t at = begin; at < end;) {
        uint64_t pieceEnd = end;
        if (!whole) {
            if (tid == 0) nextEnd = bucketEnd(bucketOf(keyAt(pc.keys, at).v)).v;
            barrier();
            pieceEnd = nextEnd;
            barrier();
        }
        if (pieceEnd - at > 1ul) sortPiece(at, pieceEnd - at, whole ? regionPasses : 3u);
        at = pieceEnd;
    }
}
