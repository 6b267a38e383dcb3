// Shared by the 4-bit LSD radix sort kernels (radix4_*.comp): the push constants, the scratch
// layout (constants.h), the digit of a key, and the subgroup match that gives each key its rank
// among the keys of its subgroup with the same digit.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_EXT_control_flow_attributes : require
#include "keys.glsl"

layout(constant_id = SORTLAB_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = 256;
layout(constant_id = SORTLAB_SPEC_MAX_SUBGROUPS) const uint MAX_SUBGROUPS = 32;
layout(local_size_x_id = SORTLAB_SPEC_WORKGROUP_SIZE) in;

#if KEY_WORDS == 1
#define KPT SORTLAB_RADIX4_KEYS_PER_LANE_32
#else
#define KPT SORTLAB_RADIX4_KEYS_PER_LANE_64
#endif
const uint TILE = WORKGROUP_SIZE * KPT; // keys per workgroup in the count and scatter kernels

// The same block for every radix4 kernel. keys/keysTemp (and values/valuesTemp) are the
// ping-pong pair; which one holds the keys before pass p is scratch word WHERE + p.
layout(push_constant) uniform Push {
    uint64_t keys, keysTemp, values, valuesTemp, scratch;
    uint64_t n;
    uint pass, passes, bitLo, workgroups, rowStride, groupsX;
} pc;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer WordRef { uint v; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Word4Ref { uvec4 v; };
WordRef word(uint i) { return WordRef(pc.scratch + uint64_t(i) * 4ul); }
Word4Ref word4(uint i) { return Word4Ref(pc.scratch + uint64_t(i) * 4ul); } // i % 4 == 0

uint workgroupIndex() { return gl_WorkGroupID.y * pc.groupsX + gl_WorkGroupID.x; }
bool inputInTemp() { return word(SORTLAB_R4_WHERE + pc.pass).v != 0; }

// The 4-bit digit of this pass, taken from the key's order bits (so signed, float and
// descending orders sort as unsigned integers do).
uint digitOf(Key k) {
#if KEY_WORDS == 1
    return (orderBits(k) >> pc.bitLo) & 15u;
#else
    uvec2 o = orderBits(k);
    return pc.bitLo < 32 ? (o.x >> pc.bitLo) & 15u : (o.y >> (pc.bitLo - 32)) & 15u;
#endif
}

// The lanes of this subgroup whose digit equals mine (digit 16: an absent key, in no group).
// Four ballots, one per digit bit: a lane stays in my set when its bit equals mine.
uvec4 sameDigit(uint d) {
    uvec4 m = subgroupBallot(d < 16u);
    [[unroll]] for (uint b = 0; b < 4; ++b) {
        bool bit = ((d >> b) & 1u) != 0;
        uvec4 set = subgroupBallot(bit);
        m &= bit ? set : ~set;
    }
    return m;
}
