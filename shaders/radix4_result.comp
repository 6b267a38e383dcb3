// Radix4, after the last pass: when an odd number of passes ran (some were skipped), the sorted
// keys are in keysTemp; copy them back, so the result is always in `keys`. Otherwise every
// workgroup returns at once.
#version 460
#include "radix4.glsl"

void main() {
    if (word(SORTLAB_R4_WHERE + pc.passes).v == 0) return;
    const uint64_t first = uint64_t(workgroupIndex()) * TILE + gl_LocalInvocationIndex;
    [[unroll]] for (uint i = 0; i < KPT; ++i) {
        uint64_t idx = first + uint64_t(i) * WORKGROUP_SIZE;
        if (i * WORKGROUP_SIZE + gl_LocalInvocationIndex < TILE && idx < keyCount()) {
            keyAt(pc.keys, idx).v = keyAt(pc.keysTemp, idx).v;
#if HAS_VALUES
            valueAt(pc.values, idx).v = valueAt(pc.valuesTemp, idx).v;
#endif
        }
    }
}
