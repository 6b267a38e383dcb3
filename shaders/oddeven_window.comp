// Several consecutive layers k = 2^logKHi ... 2^logKLo of one merge p = 2^logP, fused into one
// dispatch. Two facts make it possible:
//  * Residue classes: every stride in the group is a multiple of kMin = 2^logKLo, so element e
//    only ever meets elements with the same e mod kMin. Within a 2p block, write e as
//    blockBase + row * kMin + column: a layer of stride k pairs row j with row j + k/kMin in the
//    same column. A workgroup holds R = 2^logR adjacent columns (R consecutive addresses per row,
//    so loads and stores stay coalesced) and a window of rows.
//  * Halos: if the window is cut inside the block, rows near its edges miss partners. After the
//    group's layers, a row is exact when it lies at least sum(k/kMin) rows from a cut edge, so
//    each workgroup loads `halo` extra rows on each side and writes back only its centre rows.
// A window with halo rows reads rows that a neighbouring workgroup writes as its centre, so it
// must read one buffer and write the other (the planner alternates them).
// Block edges are exact cuts (no comparator crosses a 2p block), so windows are clipped there
// without halo. Indices >= n act as +infinity: they are never loaded, and comparators that touch
// them do nothing.
#version 460
#extension GL_GOOGLE_include_directive : require
#include "keys.glsl"

layout(constant_id = SORTLAB_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = 512;
layout(constant_id = SORTLAB_SPEC_SHARED_ELEMS) const uint SHARED_ELEMS = 4096;
layout(local_size_x_id = SORTLAB_SPEC_WORKGROUP_SIZE) in;

#define MAX_COLUMNS 64

layout(push_constant) uniform Push {
    uint64_t keys;     // read from here...
    uint64_t values;
    uint64_t outKeys;  // ...and write the result here (the same buffer, or the other of a pair)
    uint64_t outValues;
    uint64_t n;
    uint64_t rowsPerBlock;   // 2p / kMin
    uint logP, logKHi, logKLo, logR;
    uint centreRows;         // rows a workgroup writes back (C)
    uint halo;               // extra rows loaded on each side of the centre
    uint segments;           // windows per (block, column group): ceil(rowsPerBlock / C)
    uint groupsX;
    uint workgroups;         // blocks * column groups * segments
} pc;

shared Key windowKeys[SHARED_ELEMS];
#if HAS_VALUES
shared uint windowValues[SHARED_ELEMS];
#endif
shared uint rowsPresent[MAX_COLUMNS]; // per column: window rows whose element is < n

void main() {
    uint id = gl_WorkGroupID.y * pc.groupsX + gl_WorkGroupID.x;
    if (id >= pc.workgroups) return; // uniform across the workgroup, before any barrier
    const uint R = 1u << pc.logR;
    const uint columnGroups = 1u << (pc.logKLo - pc.logR);
    uint segment = id % pc.segments;
    uint rest = id / pc.segments;
    uint columnGroup = rest % columnGroups;
    uint64_t block = rest / columnGroups;

    uint64_t blockBase = block << (pc.logP + 1);
    uint64_t centreStart = uint64_t(segment) * pc.centreRows;
    uint64_t centreEnd = min(centreStart + pc.centreRows, pc.rowsPerBlock);
    uint64_t w0 = centreStart > pc.halo ? centreStart - pc.halo : 0ul;
    uint64_t w1 = min(centreEnd + pc.halo, pc.rowsPerBlock);
    uint rows = uint(w1 - w0);
    uint cs = uint(centreStart - w0), ce = uint(centreEnd - w0);
    uint columnBase = columnGroup << pc.logR;
    uint64_t inBlock = pc.n - blockBase; // elements of this block that exist (may exceed 2p)

    if (gl_LocalInvocationID.x < R) {
        uint64_t first = uint64_t(columnBase + gl_LocalInvocationID.x); // offset of row 0
        uint64_t rowsExisting = inBlock > first ? (inBlock - first + (1ul << pc.logKLo) - 1) >> pc.logKLo : 0ul;
        rowsPresent[gl_LocalInvocationID.x] = uint(clamp(int64_t(rowsExisting) - int64_t(w0), 0l, int64_t(rows)));
    }
    barrier();

    uint total = rows << pc.logR;
    for (uint i = gl_LocalInvocationID.x; i < total; i += WORKGROUP_SIZE) {
        uint r = i >> pc.logR, c = i & (R - 1);
        if (r >= rowsPresent[c]) continue;
        uint64_t e = blockBase + ((w0 + r) << pc.logKLo) + columnBase + c;
        windowKeys[i] = keyAt(pc.keys, e).v;
#if HAS_VALUES
        windowValues[i] = valueAt(pc.values, e).v;
#endif
    }
    barrier();

    uint rowBase = uint(w0); // low bits of the absolute row number decide left/right roles
    for (uint logK = pc.logKHi + 1; logK-- > pc.logKLo;) {
        uint s = 1u << (logK - pc.logKLo);
        bool top = logK == pc.logP; // first layer of the merge: left rows have bit s clear
        for (uint i = gl_LocalInvocationID.x; i < total; i += WORKGROUP_SIZE) {
            uint r = i >> pc.logR, c = i & (R - 1);
            bool bitSet = ((rowBase + r) & s) != 0;
            if (bitSet == top) continue;
            if (r + s >= rowsPresent[c]) continue;
            uint j = i + (s << pc.logR);
            Key ka = windowKeys[i], kb = windowKeys[j];
            if (after(ka, kb)) {
                windowKeys[i] = kb;
                windowKeys[j] = ka;
#if HAS_VALUES
                uint va = windowValues[i];
                windowValues[i] = windowValues[j];
                windowValues[j] = va;
#endif
            }
        }
        barrier();
    }

    for (uint i = gl_LocalInvocationID.x; i < total; i += WORKGROUP_SIZE) {
        uint r = i >> pc.logR, c = i & (R - 1);
        if (r < cs || r >= ce || r >= rowsPresent[c]) continue;
        uint64_t e = blockBase + ((w0 + r) << pc.logKLo) + columnBase + c;
        keyAt(pc.outKeys, e).v = windowKeys[i];
#if HAS_VALUES
        valueAt(pc.outValues, e).v = windowValues[i];
#endif
    }
}
