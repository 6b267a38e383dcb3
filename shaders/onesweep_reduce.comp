// OneSweep step 1, second half: the global histogram of each pass (one workgroup per pass),
// the sum of the histogram kernel's partial counts, in 64 bits.
#version 460
#include "onesweep.glsl"

void main() {
    const uint p = gl_WorkGroupID.x;
    for (uint d = gl_LocalInvocationIndex; d < 256; d += WORKGROUP_SIZE) {
        uint64_t sum = 0;
        for (uint g = 0; g < pc.histGroups; ++g) sum += word(pc.partialWord + (g * pc.passes + p) * 256 + d).v;
        qword(SORTLAB_OS_HIST + 2 * (256 * p + d)).v = sum;
    }
}
