// OneSweep step 1: the histogram of every pass's digit in one read of the keys. Each of
// pc.histGroups workgroups counts a contiguous share of the keys in shared memory and writes its
// partial counts (no global atomics); onesweep_reduce.comp adds them up.
#version 460
#include "onesweep.glsl"

shared uint counts[8 * 256];

void main() {
    const uint g = gl_WorkGroupID.x, tid = gl_LocalInvocationIndex;
    for (uint i = tid; i < pc.passes * 256; i += WORKGROUP_SIZE) counts[i] = 0;
    barrier();
    const uint64_t per = (pc.n + pc.histGroups - 1) / pc.histGroups;
    const uint64_t begin = min(pc.n, uint64_t(g) * per), end = min(pc.n, begin + per);
    for (uint64_t i = begin + tid; i < end; i += WORKGROUP_SIZE) {
        Key k = keyAt(pc.keys, i).v;
        for (uint p = 0; p < pc.passes; ++p) atomicAdd(counts[p * 256 + digitOf(k, p)], 1u);
    }
    barrier();
    for (uint i = tid; i < pc.passes * 256; i += WORKGROUP_SIZE)
        word(pc.partialWord + g * pc.passes * 256 + i).v = counts[i];
}
