// Hybrid sort, after the keys are sorted by their top 16 order bits: each bucket's bounds, and the
// first and last bucket that begin in each window. Key i that begins a bucket (its bucket differs
// from key i - 1's) writes where its bucket begins and where the one before ends; empty buckets
// keep the bounds the clear kernel gave them (0, 0). The workgroups stride over the keys 16 bytes at
// a time (four 32-bit keys or two 64-bit ones), each in one load (the keys' address is a multiple of
// 16: kBufferAlignment), so that more of the read is in flight than one key an invocation would keep.
#version 460
#include "hybrid.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) buffer QuadRef { uvec4 v; };

const uint PER_LOAD = 4 / KEY_WORDS; // keys a 16-byte load

void main() {
    const uint64_t stride = uint64_t(pc.groups) * WORKGROUP_SIZE;
    const uint64_t loads = (pc.n + PER_LOAD - 1ul) / PER_LOAD;
    for (uint64_t q = uint64_t(workgroupIndex()) * WORKGROUP_SIZE + gl_LocalInvocationIndex; q < loads; q += stride) {
        const uint64_t first = PER_LOAD * q;
        Key k[PER_LOAD];
        if (first + PER_LOAD <= pc.n) {
            const uvec4 w = QuadRef(pc.keys + first * uint64_t(KEY_BYTES)).v;
#if KEY_WORDS == 1
            k = Key[PER_LOAD](w.x, w.y, w.z, w.w);
#else
            k = Key[PER_LOAD](w.xy, w.zw);
#endif
        } else {
            [[unroll]] for (uint j = 0; j < PER_LOAD; ++j) k[j] = first + j < pc.n ? keyAt(pc.keys, first + j).v : Key(0u);
        }
        uint before = first == 0ul ? 0u : bucketOf(keyAt(pc.keys, first - 1ul).v);
        [[unroll]] for (uint j = 0; j < PER_LOAD; ++j) {
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
