// OneSweep, before each pass: every tile status to "not ready".
#version 460
#include "onesweep.glsl"

void main() {
    const uint64_t i = uint64_t(workgroupIndex()) * WORKGROUP_SIZE + gl_LocalInvocationIndex;
    if (i < uint64_t(pc.tiles) * 256ul) status(uint(i / 256), uint(i % 256)).v = 0ul;
}
