// Hybrid sort, before the bucket bounds: every bucket's bounds to 0 (empty), every window to "no
// bucket begins here", the flags to 0.
#version 460
#include "hybrid.glsl"

void main() {
    const uint i = workgroupIndex() * WORKGROUP_SIZE + gl_LocalInvocationIndex;
    if (i < 65536u) {
        bucketBegin(i).v = 0ul;
        bucketEnd(i).v = 0ul;
    }
    if (i < pc.windows) {
        windowFirst(i).v = SORTLAB_HY_NO_BUCKET;
        windowLast(i).v = 0u;
    }
    if (i < 16u) word(SORTLAB_HY_FLAGS + i).v = 0u;
}
