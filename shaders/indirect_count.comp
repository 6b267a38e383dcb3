// An indirect plan's first kernel (Sorter::planIndirect), after the algorithm's init kernel: reads
// the caller's key count (a uint32 at pc.count, written on the GPU), clamps it to the plan's
// maximum, and writes into scratch the words the sort's kernels and dispatches take instead of the
// host's numbers (constants.h, SORTLAB_IND_*): n, and per dispatch size d the workgroups
// clamp(ceil(n / perGroup), least, most) as a VkDispatchIndirectCommand folded into rows of rowX
// (the row width the host gives the kernels in groupsX, which is the plan's) and unfolded.
// One invocation: a few words.
#version 460
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#include "sortlab/shaders/constants.h"

layout(local_size_x = 1) in;

layout(push_constant) uniform Push {
    uint64_t count;   // the caller's uint32 key count
    uint64_t words;   // scratch word W (SORTLAB_R4_INDIRECT or SORTLAB_OS_INDIRECT)
    uint64_t maxN;    // the plan's maximum
    uint sizes;       // dispatch sizes to write (at most SORTLAB_IND_MAX_SIZES)
    uint pad;
    uvec4 size[SORTLAB_IND_MAX_SIZES]; // (perGroup, least, most, rowX) of each
} pc;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer WordRef { uint v; };
WordRef word(uint i) { return WordRef(pc.words + uint64_t(i) * 4ul); }

void main() {
    const uint count = WordRef(pc.count).v;
    const uint64_t n = min(uint64_t(count), pc.maxN);
    word(SORTLAB_IND_N).v = uint(n);
    word(SORTLAB_IND_N + 1).v = uint(n >> 32);
    word(SORTLAB_IND_COUNT).v = count;
    for (uint d = 0; d < pc.sizes && d < SORTLAB_IND_MAX_SIZES; ++d) {
        const uvec4 s = pc.size[d];
        const uint64_t groups = clamp((n + s.x - 1) / s.x, uint64_t(s.y), uint64_t(s.z));
        const uint x = uint(min(groups, uint64_t(s.w)));
        const uint at = SORTLAB_IND_SIZES + 4 * d;
        word(at).v = x;
        word(at + 1).v = x == 0u ? 0u : uint((groups + x - 1) / x);
        word(at + 2).v = 1u;
        word(at + 3).v = uint(groups);
    }
}
