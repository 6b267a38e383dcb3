// OneSweep, after the last pass: when an odd number of passes ran (the others were skipped), the
// sorted keys are in keysTemp; copy them (and the values) back, so that the result is always in
// `keys`. Otherwise every workgroup returns at once. The workgroups stride over the keys.
#version 460
#include "onesweep.glsl"

void main() {
    if (word(SORTLAB_OS_WHERE + pc.passes).v == 0u) return;
    const uint64_t stride = uint64_t(pc.histGroups) * WORKGROUP_SIZE;
    for (uint64_t i = uint64_t(workgroupIndex()) * WORKGROUP_SIZE + gl_LocalInvocationIndex; i < pc.n; i += stride) {
        keyAt(pc.keys, i).v = keyAt(pc.keysTemp, i).v;
#if HAS_VALUES
        valueAt(pc.values, i).v = valueAt(pc.valuesTemp, i).v;
#endif
    }
}
