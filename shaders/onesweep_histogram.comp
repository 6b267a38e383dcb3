// OneSweep step 1: the histogram of every pass's digit in one read of the keys. Each of
// pc.histGroups workgroups counts its chunks of the keys in shared memory (HIST_COPIES
// copies, by subgroup parity, so that equal digits contend less), then adds its counts to the 64-bit
// global histogram with 32-bit atomics and a carry. (A second kernel that summed every
// workgroup's partial counts took a quarter of this step's time: few workgroups, long serial
// loops.) The workgroups also clear the tile statuses the first pass will use (pc.tiles words),
// so that a stale status from an earlier sort never reads as ready.
#version 460
#include "onesweep.glsl"

// Keys each invocation loads before it counts them (tuning::oneSweep).
layout(constant_id = SORTLAB_SPEC_LOADS_IN_FLIGHT) const uint LOADS_IN_FLIGHT = 8;

// Copies of the counts (1 or 2): subgroup s counts in copy s % HIST_COPIES (tuning::oneSweep).
layout(constant_id = SORTLAB_SPEC_HIST_COPIES) const uint HIST_COPIES = 2;

shared uint counts[HIST_COPIES * PASSES * 256];

// The status words to clear: pc.tiles, or an indirect plan's tiles' (it runs one portion a pass).
uint64_t statusWords() {
    if (INDIRECT == 0) return pc.tiles;
    return uint64_t(tileCount()) * 256ul;
}

void main() {
    const uint g = gl_WorkGroupID.x, tid = gl_LocalInvocationIndex;
    for (uint i = tid; i < HIST_COPIES * PASSES * 256; i += WORKGROUP_SIZE) counts[i] = 0;
    for (uint64_t i = uint64_t(g) * WORKGROUP_SIZE + tid; i < statusWords(); i += uint64_t(histGroupCount()) * WORKGROUP_SIZE)
        word(SORTLAB_OS_STATUS + i).v = 0u;
    barrier();
    const uint copy = (gl_SubgroupID % HIST_COPIES) * PASSES * 256;
    // Chunks of WORKGROUP_SIZE x LOADS_IN_FLIGHT keys, dealt to the workgroups in turn from the last
    // chunk back to the first: the keys read last, still in the L2 cache when the first pass starts,
    // are the ones its first tiles read.
    const uint64_t chunk = uint64_t(WORKGROUP_SIZE) * LOADS_IN_FLIGHT;
    const uint64_t chunks = (keyCount() + chunk - 1) / chunk;
    for (uint64_t c = g; c < chunks; c += histGroupCount()) {
        const uint64_t i = (chunks - 1 - c) * chunk + tid;
        Key k[LOADS_IN_FLIGHT];
        [[unroll]] for (uint j = 0; j < LOADS_IN_FLIGHT; ++j)
            if (i + j * WORKGROUP_SIZE < keyCount()) k[j] = keyAt(pc.keys, i + j * WORKGROUP_SIZE).v;
        [[unroll]] for (uint j = 0; j < LOADS_IN_FLIGHT; ++j)
            if (i + j * WORKGROUP_SIZE < keyCount())
                [[unroll]] for (uint p = 0; p < PASSES; ++p) atomicAdd(counts[copy + p * 256 + digitOf(k[j], p)], 1u);
    }
    barrier();
    for (uint i = tid; i < PASSES * 256; i += WORKGROUP_SIZE) {
        uint c = counts[i];
        if (HIST_COPIES > 1) c += counts[PASSES * 256 + i]; // (a branch: a select would read both)
        if (c == 0) continue;
        const uint low = atomicAdd(word(SORTLAB_OS_HIST + 2 * i).v, c); // (pass, digit) = (i / 256, i % 256)
        if (low + c < low) atomicAdd(word(SORTLAB_OS_HIST + 2 * i + 1).v, 1u); // the low word wrapped
    }
}
