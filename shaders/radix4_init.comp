// Radix4, before pass 0: the keys are in `keys`, no pass has counted yet. One workgroup.
#version 460
#include "radix4.glsl"

void main() {
    for (uint i = gl_LocalInvocationIndex; i < SORTLAB_R4_COUNTS; i += WORKGROUP_SIZE) word(i).v = 0u;
}
