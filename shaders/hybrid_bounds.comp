// Hybrid sort, after the keys are sorted by their top 16 order bits: each bucket's bounds, and the
// first and last bucket that begin in each window. Key i that begins a bucket (its bucket differs
// from key i - 1's) writes where its bucket begins and where the one before ends; empty buckets
// keep the bounds the clear kernel gave them (0, 0). The workgroups stride over the keys.
#version 460
#include "hybrid.glsl"

void main() {
    const uint64_t stride = uint64_t(pc.groups) * WORKGROUP_SIZE;
    for (uint64_t i = uint64_t(workgroupIndex()) * WORKGROUP_SIZE + gl_LocalInvocationIndex; i < pc.n; i += stride) {
        const uint b = bucketOf(keyAt(pc.keys, i).v);
        bool begins = i == 0ul;
        if (!begins) {
            const uint before = bucketOf(keyAt(pc.keys, i - 1ul).v);
            begins = before != b;
            if (begins) bucketEnd(before).v = i;
        }
        if (begins) {
            bucketBegin(b).v = i;
            const uint w = uint(i / WINDOW);
            atomicMin(windowFirst(w).v, b);
            atomicMax(windowLast(w).v, b);
        }
        if (i == pc.n - 1ul) bucketEnd(b).v = pc.n;
    }
}
