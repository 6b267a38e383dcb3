// Shared by the radix sorts' kernels (radix4_*.comp through radix4.glsl, onesweep_*.comp through
// onesweep.glsl): the subgroup operations they use, the keys, and the workgroup's shape.
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
// gl_SubgroupSize as a constant the driver's compiler can fold (loops over "digits per lane"
// disappear for subgroups of 16 or more lanes). The host pins the size where it could vary.
layout(constant_id = SORTLAB_SPEC_SUBGROUP_SIZE) const uint SUBGROUP_SIZE = 32;
layout(local_size_x_id = SORTLAB_SPEC_WORKGROUP_SIZE) in;
