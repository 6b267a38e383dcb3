// One layer of Batcher's odd-even merge network: merge of two sorted runs of p = 2^logP into
// 2p, at stride k = 2^logK (k <= p). One invocation per comparator slot; indices >= n act as
// +infinity, so a comparator that touches them does nothing (no padding is ever stored).
//
// The comparators of layer (p, k), as in the iterative form of the network:
//   k == p: (a, a + k) for every a whose bit k is clear
//   k <  p: (a, a + k) for every a whose bit k is set, when a and a + k lie in the same 2p block
#version 460
#extension GL_GOOGLE_include_directive : require
#include "keys.glsl"

layout(constant_id = SORTLAB_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = 256;
layout(local_size_x_id = SORTLAB_SPEC_WORKGROUP_SIZE) in;

layout(push_constant) uniform Push {
    uint64_t keys;
    uint64_t values;
    uint64_t n;
    uint64_t slots;    // comparator slots in this layer (invocations that do work)
    uint logP;
    uint logK;
    uint groupsX;      // workgroups per row of the 2-D dispatch
} pc;

void main() {
    uint64_t group = uint64_t(gl_WorkGroupID.y) * pc.groupsX + gl_WorkGroupID.x;
    uint64_t t = group * WORKGROUP_SIZE + gl_LocalInvocationID.x;
    if (t >= pc.slots) return;
    uint64_t k = 1ul << pc.logK;
    // Spread slot t over the indices with bit k clear, then set bit k for the inner layers.
    uint64_t a = ((t >> pc.logK) << (pc.logK + 1)) | (t & (k - 1));
    if (pc.logK < pc.logP) a += k;
    uint64_t b = a + k;
    if (b >= pc.n) return;
    if ((a >> (pc.logP + 1)) != (b >> (pc.logP + 1))) return;

    Key ka = keyAt(pc.keys, a).v;
    Key kb = keyAt(pc.keys, b).v;
    if (after(ka, kb)) {
        keyAt(pc.keys, a).v = kb;
        keyAt(pc.keys, b).v = ka;
#if HAS_VALUES
        uint va = valueAt(pc.values, a).v;
        valueAt(pc.values, a).v = valueAt(pc.values, b).v;
        valueAt(pc.values, b).v = va;
#endif
    }
}
