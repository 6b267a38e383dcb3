// Radix4 step 2 ("exclusive scan to find global and local offsets", docs/radix4.md). One workgroup
// per digit d. The global offset of d is the sum of the histogram below d; the workgroups'
// counts of d are scanned in workgroup order on top of it, so that workgroup wg's keys of digit
// d go to [offset(d, wg), offset(d, wg) + count(d, wg)): every key gets a unique slot, and keys
// keep their input order (stability).
//
// Workgroup 0 also writes the pass's exclusive digit offsets, and decides whether the pass can
// be skipped: when every key has the same digit, the scatter would not move anything, so it
// does not run and the next pass reads the same buffer.
#version 460
#include "radix4.glsl"

// Entries each invocation scans serially in one chunk (tuning::radix4; a multiple of 4).
layout(constant_id = SORTLAB_SPEC_SCAN_PER_LANE) const uint PER_LANE = 16;

shared uint partial[MAX_SUBGROUPS];
shared uint carry;

void main() {
    const uint d = gl_WorkGroupID.x;
    const uint tid = gl_LocalInvocationIndex;
    uint hist[16];
    uint base = 0;
    [[unroll]] for (uint e = 0; e < 16; ++e) {
        hist[e] = word(SORTLAB_R4_HIST + 16 * pc.pass + e).v;
        if (e < d) base += hist[e];
    }
    if (d == 0 && tid == 0) {
        bool skip = false;
        uint run = 0;
        [[unroll]] for (uint e = 0; e < 16; ++e) {
            word(SORTLAB_R4_OFFSETS + 16 * pc.pass + e).v = run;
            run += hist[e];
            skip = skip || uint64_t(hist[e]) == keyCount();
        }
        word(SORTLAB_R4_INFO + 4 * pc.pass + 3).v = skip ? 1u : 0u;
        uint where = word(SORTLAB_R4_WHERE + pc.pass).v;
        word(SORTLAB_R4_WHERE + pc.pass + 1).v = skip ? where : 1u - where;
    }

    const uint W = tileCount();
    const uint inRow = SORTLAB_R4_COUNTS + d * pc.rowStride;
    const uint outRow = SORTLAB_R4_COUNTS + (16 + d) * pc.rowStride;
    uint running = base;
    for (uint chunk = 0; chunk < W; chunk += WORKGROUP_SIZE * PER_LANE) {
        // Each invocation scans PER_LANE consecutive counts in registers...
        const uint start = chunk + tid * PER_LANE;
        uint v[PER_LANE];
        [[unroll]] for (uint q = 0; q < PER_LANE / 4; ++q) {
            uvec4 x = start + 4 * q < W ? word4(inRow + start + 4 * q).v : uvec4(0);
            [[unroll]] for (uint e = 0; e < 4; ++e) v[4 * q + e] = start + 4 * q + e < W ? x[e] : 0u;
        }
        uint sum = 0;
        [[unroll]] for (uint j = 0; j < PER_LANE; ++j) {
            uint t = v[j];
            v[j] = sum;
            sum += t;
        }
        // ...then the invocations' sums are scanned across the subgroup and the workgroup.
        uint inclusive = subgroupInclusiveAdd(sum);
        if (gl_SubgroupInvocationID == gl_SubgroupSize - 1) partial[gl_SubgroupID] = inclusive;
        barrier();
        if (tid == 0) {
            uint run = 0;
            for (uint s = 0; s < gl_NumSubgroups; ++s) {
                uint t = partial[s];
                partial[s] = run;
                run += t;
            }
            carry = run;
        }
        barrier();
        const uint prefix = running + partial[gl_SubgroupID] + inclusive - sum;
        [[unroll]] for (uint q = 0; q < PER_LANE / 4; ++q)
            if (start + 4 * q < W)
                word4(outRow + start + 4 * q).v = uvec4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]) + prefix;
        running += carry;
        barrier(); // partial and carry are reused by the next chunk
    }
}
