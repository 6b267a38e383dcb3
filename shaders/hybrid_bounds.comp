// Hybrid sort, after the keys are sorted by their top 16 order bits: each bucket's bounds, and the
// first and last bucket that begin in each window. Key i that begins a bucket (its bucket differs
// from key i - 1's) writes where its bucket begins and where the one before ends; empty buckets
// keep the bounds the clear kernel gave them (0, 0). The workgroups stride over the keys four at a
// time, each four in one 16-byte load (the keys' address is a multiple of 16: kBufferAlignment),
// so that more of the read is in flight than one key an invocation would keep.
#version 460
#include "hybrid.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) buffer QuadRef { uvec4 v; };

void main() {
    const uint64_t stride = uint64_t(pc.groups) * WORKGROUP_SIZE;
    const uint64_t quads = (pc.n + 3ul) / 4ul;
    for (uint64_t q = uint64_t(workgroupIndex()) * WORKGROUP_SIZE + gl_LocalInvocationIndex; q < quads; q += stride) {
        const uint64_t first = 4ul * q;
        uvec4 k;
        if (first + 4ul <= pc.n) {
            k = QuadRef(pc.keys + first * 4ul).v;
        } else {
            [[unroll]] for (uint j = 0; j < 4; ++j) k[j] = first + j < pc.n ? keyAt(pc.keys, first + j).v : 0u;
        }
        uint before = first == 0ul ? 0u : bucketOf(keyAt(pc.keys, first - 1ul).v);
        [[unroll]] for (uint j = 0; j < 4; ++j) {
            const uint64_t i = first + j;
            if (i >= pc.n) break;
            const uint b = bucketOf(k[j]);
            const bool begins = i == 0ul || before != b;
            if (begins) {
                if (i > 0ul) bucketEnd(before).v = i;
                bucketBegin(b).v = i;
                const uint w = uint(i / WINDOW);
                atomicMin(windowFirst(w).v, b);
                atomicMax(windowLast(w).v, b);
            }
            if (i == pc.n - 1ul) bucketEnd(b).v = pc.n;
            before = b;
        }
    }
}
