// OneSweep step 2: for each pass, the exclusive scan of its 256 digit counts: where the keys of
// each digit start in the output. One workgroup per pass.
#version 460
#include "onesweep.glsl"

void main() {
    const uint p = gl_WorkGroupID.x;
    if (gl_LocalInvocationIndex != 0) return;
    uint64_t run = 0;
    for (uint d = 0; d < 256; ++d) {
        qword(SORTLAB_OS_OFFSETS + 2 * (256 * p + d)).v = run;
        run += qword(SORTLAB_OS_HIST + 2 * (256 * p + d)).v;
    }
}
