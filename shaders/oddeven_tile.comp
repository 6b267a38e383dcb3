// Every layer of the merges p = 1, 2, ..., 2^(logPEnd-1) at once, for one aligned tile of
// SHARED_ELEMS (a power of two) elements per workgroup: those comparators never leave the tile,
// so the tile is loaded into shared memory once, sorted there, and written back once.
// Elements at or past n are never loaded; comparators that touch them do nothing.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "keys.glsl"

layout(constant_id = SORTLAB_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = 512;
layout(constant_id = SORTLAB_SPEC_SHARED_ELEMS) const uint SHARED_ELEMS = 4096;
layout(local_size_x_id = SORTLAB_SPEC_WORKGROUP_SIZE) in;

layout(push_constant) uniform Push {
    uint64_t keys;     // read from here...
    uint64_t values;
    uint64_t outKeys;  // ...and write the result here (the same buffer, or the other of a pair)
    uint64_t outValues;
    uint64_t n;
    uint logPEnd;      // run merges p < 2^logPEnd (2^logPEnd <= SHARED_ELEMS)
    uint groupsX;
    uint tiles;
} pc;

shared Key tileKeys[SHARED_ELEMS];
#if HAS_VALUES
shared uint tileValues[SHARED_ELEMS];
#endif

void main() {
    uint tile = gl_WorkGroupID.y * pc.groupsX + gl_WorkGroupID.x;
    if (tile >= pc.tiles) return; // uniform across the workgroup, before any barrier
    uint64_t base = uint64_t(tile) * SHARED_ELEMS;
    uint present = uint(min(pc.n - base, uint64_t(SHARED_ELEMS))); // elements of this tile < n

    for (uint i = gl_LocalInvocationID.x; i < present; i += WORKGROUP_SIZE) {
        tileKeys[i] = keyAt(pc.keys, base + i).v;
#if HAS_VALUES
        tileValues[i] = valueAt(pc.values, base + i).v;
#endif
    }
    barrier();

    for (uint logP = 0; logP < pc.logPEnd; ++logP) {
        for (int logK = int(logP); logK >= 0; --logK) {
            uint k = 1u << logK;
            for (uint t = gl_LocalInvocationID.x; t < SHARED_ELEMS / 2; t += WORKGROUP_SIZE) {
                uint a = ((t >> logK) << (logK + 1)) | (t & (k - 1));
                if (uint(logK) < logP) a += k;
                uint b = a + k;
                if (b >= present || (a >> (logP + 1)) != (b >> (logP + 1))) continue;
                Key ka = tileKeys[a], kb = tileKeys[b];
                if (after(ka, kb)) {
                    tileKeys[a] = kb;
                    tileKeys[b] = ka;
#if HAS_VALUES
                    uint va = tileValues[a];
                    tileValues[a] = tileValues[b];
                    tileValues[b] = va;
#endif
                }
            }
            barrier();
        }
    }

    for (uint i = gl_LocalInvocationID.x; i < present; i += WORKGROUP_SIZE) {
        keyAt(pc.outKeys, base + i).v = tileKeys[i];
#if HAS_VALUES
        valueAt(pc.outValues, base + i).v = tileValues[i];
#endif
    }
}
