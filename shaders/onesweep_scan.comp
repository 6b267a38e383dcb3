// OneSweep step 2: for each pass, the exclusive scan of its 256 digit counts: where the keys of
// each digit start in the output. One workgroup per pass; the scan runs in shared memory, each
// invocation over a run of consecutive digits (one where the workgroup has 256 or more invocations)
// and the runs' sums scanned in log2 steps. (A serial scan by one invocation took about 5 us.)
//
// It also decides which passes run. A pass in which every key has the same digit would move no
// key: it is skipped (its dispatches return at once), and the next pass reads the buffer it would
// have read. Each workgroup finds every pass's verdict (256 reads of each histogram) and writes
// its own pass's info words; workgroup 0 writes where the keys are before each pass and after the
// last (the parity of the passes that ran), which the result step reads, and stops the pass
// dispatches that must not run (onesweep_pass.comp): the twin that reads the other buffer, and
// both twins of a skipped pass.
#version 460
#include "onesweep.glsl"

shared uint64_t digitCounts[256];
shared uint64_t runSums[256]; // the inclusive scan of the runs' sums
const uint PER_LANE = (256 + WORKGROUP_SIZE - 1) / WORKGROUP_SIZE; // digits an invocation's run holds
const uint RUNS = (256 + PER_LANE - 1) / PER_LANE;
shared uint skipMask;  // bit p: pass p is skipped
shared uint whereMask; // bit p: the keys are in keysTemp before pass p

void main() {
    const uint p = gl_WorkGroupID.x, tid = gl_LocalInvocationIndex;
    if (tid == 0) skipMask = 0u;
    barrier();
    for (uint i = tid; i < 256 * pc.passes; i += WORKGROUP_SIZE)
        if (qword(SORTLAB_OS_HIST + 2 * i).v == keyCount()) atomicOr(skipMask, 1u << (i / 256));
    for (uint d = tid; d < 256; d += WORKGROUP_SIZE) digitCounts[d] = qword(SORTLAB_OS_HIST + 2 * (256 * p + d)).v;
    barrier();
    uint64_t sum = 0; // this invocation's run of digits tid * PER_LANE ...
    if (tid < RUNS) {
        for (uint k = 0; k < PER_LANE; ++k)
            if (tid * PER_LANE + k < 256) sum += digitCounts[tid * PER_LANE + k];
        runSums[tid] = sum;
    }
    for (uint step = 1; step < RUNS; step <<= 1) {
        barrier();
        const uint64_t before = tid < RUNS && tid >= step ? runSums[tid - step] : 0ul;
        barrier();
        if (tid < RUNS) runSums[tid] += before;
    }
    barrier();
    if (tid < RUNS) {
        uint64_t run = runSums[tid] - sum; // the keys of every digit before this run
        for (uint k = 0; k < PER_LANE; ++k) {
            const uint d = tid * PER_LANE + k;
            if (d < 256) {
                const uint64_t c = digitCounts[d];
                digitCounts[d] = run;
                run += c;
            }
        }
    }
    if (tid == 0) {
        const uint skipped = (skipMask >> p) & 1u;
        word(SORTLAB_OS_INFO + 4 * p).v = p;
        word(SORTLAB_OS_INFO + 4 * p + 1).v = 8 * p;
        word(SORTLAB_OS_INFO + 4 * p + 2).v = 8 * p + 8;
        word(SORTLAB_OS_INFO + 4 * p + 3).v = skipped;
        if (p == 0) {
            uint where = 0;
            whereMask = 0u;
            for (uint q = 0; q < pc.passes; ++q) {
                word(SORTLAB_OS_WHERE + q).v = where;
                whereMask |= where << q;
                where ^= ((skipMask >> q) & 1u) ^ 1u;
            }
            word(SORTLAB_OS_WHERE + pc.passes).v = where;
        }
    }
    barrier();
    // Twin t of pass q's dispatch of portion r is counter 2 (q * portions + r) + t (without twins,
    // t = 0 is the dispatch).
    if (p == 0)
        for (uint i = tid; i < 2 * pc.passes * pc.portions; i += WORKGROUP_SIZE) {
            const uint q = i / (2 * pc.portions), t = i & 1u;
            if (((skipMask >> q) & 1u) != 0u) word(SORTLAB_OS_COUNTER + i).v = SORTLAB_OS_SKIPPED;
            else if (pc.twins != 0u && t != ((whereMask >> q) & 1u)) word(SORTLAB_OS_COUNTER + i).v = SORTLAB_OS_STOPPED;
        }
    for (uint d = tid; d < 256; d += WORKGROUP_SIZE) qword(SORTLAB_OS_OFFSETS + 2 * (256 * p + d)).v = digitCounts[d];
}
