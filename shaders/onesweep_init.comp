// OneSweep, before the histogram: the global histogram, the tile counters of every pass dispatch
// and the fallback and uniform-tile counts of every pass to zero (and the lookback log's counters).
#version 460
#include "onesweep.glsl"

void main() {
    for (uint i = gl_LocalInvocationIndex; i < 2 * 256 * 8; i += WORKGROUP_SIZE) word(SORTLAB_OS_HIST + i).v = 0u;
    for (uint i = gl_LocalInvocationIndex; i < 2 * SORTLAB_OS_MAX_DISPATCHES; i += WORKGROUP_SIZE)
        word(SORTLAB_OS_COUNTER + i).v = 0u;
    for (uint i = gl_LocalInvocationIndex; i < 8; i += WORKGROUP_SIZE) {
        word(SORTLAB_OS_FALLBACKS + i).v = 0u;
        word(SORTLAB_OS_UNIFORM + i).v = 0u;
    }
    if (LOG_BASE != 0) // the lookback log: its counter and tickets (each tile's workgroup clears its record)
        for (uint i = gl_LocalInvocationIndex; i < SORTLAB_OS_LOG_HEAD; i += WORKGROUP_SIZE) word(LOG_BASE + i).v = 0u;
}
