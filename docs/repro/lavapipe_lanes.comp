// For lavapipe_lanes.c: each invocation writes its lane, gl_SubgroupSize, the number of lanes a
// ballot of `true` counts, and 3i + 1 (plain arithmetic, as a control).
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 128) in;
layout(std430, binding = 0) buffer Out { uint v[]; };
void main() {
    const uint i = gl_GlobalInvocationID.x;
    v[i * 4 + 0] = gl_SubgroupInvocationID;
    v[i * 4 + 1] = gl_SubgroupSize;
    v[i * 4 + 2] = subgroupBallotBitCount(subgroupBallot(true));
    v[i * 4 + 3] = i * 3u + 1u;
}
