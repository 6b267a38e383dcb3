// OneSweep, after the last pass: when an odd number of passes ran (the others were skipped), the
// sorted keys are in keysTemp; copy them (and the values) back, so that the result is always in
// `keys`. Otherwise every workgroup returns at once. The workgroups stride over the keys, four
// loads in flight per invocation.
#version 460
#include "onesweep.glsl"

void main() {
    if (word(SORTLAB_OS_WHERE + pc.passes).v == 0u) return;
    const uint64_t stride = uint64_t(resultGroupCount()) * WORKGROUP_SIZE;
    for (uint64_t i = uint64_t(workgroupIndex()) * WORKGROUP_SIZE + gl_LocalInvocationIndex; i < keyCount(); i += 4 * stride) {
        Key k[4];
        [[unroll]] for (uint j = 0; j < 4; ++j)
            if (i + j * stride < keyCount()) k[j] = keyAt(pc.keysTemp, i + j * stride).v;
        [[unroll]] for (uint j = 0; j < 4; ++j)
            if (i + j * stride < keyCount()) keyAt(pc.keys, i + j * stride).v = k[j];
#if HAS_VALUES
        uint v[4];
        [[unroll]] for (uint j = 0; j < 4; ++j)
            if (i + j * stride < keyCount()) v[j] = valueAt(pc.valuesTemp, i + j * stride).v;
        [[unroll]] for (uint j = 0; j < 4; ++j)
            if (i + j * stride < keyCount()) valueAt(pc.values, i + j * stride).v = v[j];
#endif
    }
}
