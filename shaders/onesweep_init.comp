// OneSweep, before the histogram: tile counters and fallback counts of every pass to zero.
#version 460
#include "onesweep.glsl"

void main() {
    for (uint i = gl_LocalInvocationIndex; i < 16; i += WORKGROUP_SIZE) word(SORTLAB_OS_COUNTER + i).v = 0u;
}
