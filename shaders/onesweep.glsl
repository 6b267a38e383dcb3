// Shared by the OneSweep kernels (onesweep_*.comp): push constants, scratch layout, digits.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_EXT_control_flow_attributes : require
#include "keys.glsl"

layout(constant_id = SORTLAB_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = 256;
layout(constant_id = SORTLAB_SPEC_MAX_SUBGROUPS) const uint MAX_SUBGROUPS = 32;
layout(constant_id = SORTLAB_SPEC_SUBGROUP_SIZE) const uint SUBGROUP_SIZE = 32;
layout(constant_id = SORTLAB_SPEC_FORCE_FALLBACK) const uint FORCE_FALLBACK = 0;
layout(local_size_x_id = SORTLAB_SPEC_WORKGROUP_SIZE) in;

#if KEY_WORDS == 1
#define KPT SORTLAB_ONESWEEP_KEYS_PER_LANE_32
#else
#define KPT SORTLAB_ONESWEEP_KEYS_PER_LANE_64
#endif
const uint TILE = WORKGROUP_SIZE * KPT;
const uint DIGITS_PER_LANE = (256 + WORKGROUP_SIZE - 1) / WORKGROUP_SIZE; // 1 with 256 invocations

#if KPT == 16
#define FOR_EACH_KEY(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#elif KPT == 8
#define FOR_EACH_KEY(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#endif

layout(push_constant) uniform Push {
    uint64_t keys, keysTemp, values, valuesTemp, scratch;
    uint64_t n;
    uint pass, passes, tiles, groupsX, partialWord, histGroups;
} pc;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer WordRef { uint v; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer QwordRef { uint64_t v; };
// Tile status words: read while other workgroups write them.
layout(buffer_reference, std430, buffer_reference_align = 8) coherent volatile buffer StatusRef { uint64_t v; };
WordRef word(uint i) { return WordRef(pc.scratch + uint64_t(i) * 4ul); }
QwordRef qword(uint i) { return QwordRef(pc.scratch + uint64_t(i) * 4ul); } // i even
StatusRef status(uint tile, uint d) {
    return StatusRef(pc.scratch + (uint64_t(SORTLAB_OS_STATUS) + (uint64_t(tile) * 256ul + d) * 2ul) * 4ul);
}
uint workgroupIndex() { return gl_WorkGroupID.y * pc.groupsX + gl_WorkGroupID.x; }

uint64_t statusWord(uint flag, uint64_t count) { return (uint64_t(flag) << 62) | count; }
uint statusFlag(uint64_t s) { return uint(s >> 62); }
uint64_t statusCount(uint64_t s) { return s & 0x3ffffffffffffffful; }

// The 8-bit digit of pass p.
uint digitOf(Key k, uint p) {
#if KEY_WORDS == 1
    return (orderBits(k) >> (8 * p)) & 255u;
#else
    uvec2 o = orderBits(k);
    return p < 4 ? (o.x >> (8 * p)) & 255u : (o.y >> (8 * (p - 4))) & 255u;
#endif
}
