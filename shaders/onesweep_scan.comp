// OneSweep step 2: for each pass, the exclusive scan of its 256 digit counts: where the keys of
// each digit start in the output. One workgroup per pass; the serial scan runs in shared memory.
#version 460
#include "onesweep.glsl"

shared uint64_t digitCounts[256];

void main() {
    const uint p = gl_WorkGroupID.x, tid = gl_LocalInvocationIndex;
    for (uint d = tid; d < 256; d += WORKGROUP_SIZE) digitCounts[d] = qword(SORTLAB_OS_HIST + 2 * (256 * p + d)).v;
    barrier();
    if (tid == 0) {
        uint64_t run = 0;
        for (uint d = 0; d < 256; ++d) {
            const uint64_t c = digitCounts[d];
            digitCounts[d] = run;
            run += c;
        }
    }
    barrier();
    for (uint d = tid; d < 256; d += WORKGROUP_SIZE) qword(SORTLAB_OS_OFFSETS + 2 * (256 * p + d)).v = digitCounts[d];
}
