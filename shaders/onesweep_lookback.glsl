// The chained scan of onesweep_pass.comp's tiles (included after its state and ranking): each
// digit's decoupled lookback over the predecessors' status words, bounded, the workgroup's
// fallback when a walk is stuck, and the inclusive prefixes published as walks end.

// [SECTION] Publish the inclusive prefix --------------------------------------------------------------

// Publish the inclusive prefix; the tile's keys of digit d go after acc of them. (perDigit is free
// from here on: the ranking uses the subgroups' counts.)
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
        for (uint d = tid; d < 256; d += WORKGROUP_SIZE) setCount(FALLBACK_AT + d, 0u);
        barrier();
        const uint64_t jBase = uint64_t(pc.firstTile + stuck - 1) * TILE; // a predecessor: a full tile
        for (uint i = tid; i < TILE; i += WORKGROUP_SIZE)
            addCount(FALLBACK_AT + digitOf(keyAt(srcKeys, jBase + i).v, pc.pass), 1u);
        barrier();
        [[unroll]] for (uint q = 0; q < 4; ++q) {
            if (pending[q] && next[q] == int(stuck) - 1) {
                acc[q] += countAt(FALLBACK_AT + tid + q * WORKGROUP_SIZE);
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
