// Shared by the hybrid sort's kernels (hybrid_*.comp): push constants and the scratch layout.
// The hybrid sort (sort/src/hybrid.cpp, docs/hybrid.md) first sorts the keys by their top 16
// order bits with OneSweep's kernels (two 8-bit passes), which leaves them in 65536 buckets,
// then finds each bucket's bounds and sorts each bucket by its bits below the top 16 in one workgroup.
#extension GL_GOOGLE_include_directive : require
#include "radix_common.glsl"

layout(push_constant) uniform Push {
    uint64_t keys, keysTemp, values, valuesTemp, scratch; // scratch: the hybrid's own region
    uint64_t n;
    uint groupsX; // workgroups per row of a folded dispatch
    uint groups;  // workgroups of the dispatch (the bounds kernel strides over the keys with them)
    uint windows; // the bucket sort's windows (and workgroups): ceil(n / WINDOW)
} pc;
// Keys a window holds: the bucket sort's workgroup w sorts the buckets that begin in keys
// [w WINDOW, (w + 1) WINDOW) as one region.
layout(constant_id = SORTLAB_SPEC_HY_WINDOW) const uint WINDOW = 2048;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer WordRef { uint v; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer QwordRef { uint64_t v; };
WordRef word(uint64_t i) { return WordRef(pc.scratch + i * 4ul); }
QwordRef qword(uint64_t i) { return QwordRef(pc.scratch + i * 4ul); } // i even
uint workgroupIndex() { return gl_WorkGroupID.y * pc.groupsX + gl_WorkGroupID.x; }

// The bucket of a key: its top 16 order bits (keys.glsl).
#if KEY_WORDS == 1
uint bucketOf(Key k) { return orderBits(k) >> 16; }
#else
uint bucketOf(Key k) { return orderBits(k).y >> 16; }
#endif
// Where bucket b begins and ends in the keys sorted by bucket (both 0 for an empty bucket).
QwordRef bucketBegin(uint b) { return qword(SORTLAB_HY_BOUNDS + 4u * b); }
QwordRef bucketEnd(uint b) { return qword(SORTLAB_HY_BOUNDS + 4u * b + 2u); }
// The first and the last bucket that begin in window w (SORTLAB_HY_NO_BUCKET and 0 when none does).
WordRef windowFirst(uint w) { return word(SORTLAB_HY_WINDOWS + 2ul * w); }
WordRef windowLast(uint w) { return word(SORTLAB_HY_WINDOWS + 2ul * w + 1ul); }
