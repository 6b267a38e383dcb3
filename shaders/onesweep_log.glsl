// The lookback log of onesweep_pass.comp's instrumented form (SortConfig::logLookback, LOG_BASE >
// 0): per (pass, tile) a record of the events of its walk (constants.h has the layout; the host
// reads it as AuxKind::lookbackLog, docs/trace.md). Included after the pass kernel's state.

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
// Tile `tile` was taken. LOG_ORDERED: ids are logged in id order; each waits for the tile before
// (it took its id, so it runs) to log its own, for a bounded time.
void logTook() {
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
// The tile's counts are published (tile 0 of a portion: as inclusive prefixes, at once).
void logCounted() {
    logWord(SORTLAB_OS_LOG_AGGREGATE).v = 0u;
    logWord(tile == 0 ? SORTLAB_OS_LOG_INCLUSIVE : SORTLAB_OS_LOG_AGGREGATE).v = logEvent();
}
// Every digit's inclusive prefix is published.
void logDone(bool fellBack) {
    if (tile > 0) logWord(SORTLAB_OS_LOG_INCLUSIVE).v = logEvent();
    logWord(SORTLAB_OS_LOG_FELL_BACK).v = fellBack ? 1u : 0u;
}
