// Consecutive layers of Batcher's network fused in registers: one subgroup owns one window and
// never waits on a barrier.
//
// Geometry (docs/oddeven.md; kMin = 2^logKLo, the smallest stride of the step): within a 2p
// block, element blockBase + row * kMin + column. Every stride k of the fused layers is a multiple
// of kMin, so a layer pairs row j with row j + k/kMin in the same column. A window holds R = 2^logR adjacent columns of consecutive rows, laid out
// as slots x = (row - firstRow) * R + column, SLOTS = SG * PER_LANE slots, and lane l holds slots
// l + SG * i (i < PER_LANE): so each load instruction reads SG consecutive slots (runs of R
// adjacent keys), and a layer whose slot stride sigma = s * R is at least SG pairs registers
// inside a lane, while a smaller sigma pairs lane l with lane (l +- sigma) mod SG, one shuffle
// per key.
//
// Two uses:
//  * tile (logPFirst < logPLast or kMin = 1 with the whole block in the window): every layer of
//    the merges p = 2^logPFirst .. 2^logPLast, on aligned blocks that fit in one window;
//  * window: the layers k = 2^logKHi .. 2^logKLo of one merge. Windows cut inside a block
//    carry `halo` rows on each side (at least the sum of the strides, in rows) whose results are
//    wrong and are not written back, and such a step reads one buffer of the pair and writes the
//    other, since neighbouring windows overlap.
// Slots past the block or past n hold a sentinel that sorts after every key and never moves:
// exactly the network's "indices >= n act as +infinity".
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_EXT_control_flow_attributes : require
#include "keys.glsl"

// Keys per lane (registers: keys, plus values): 16 or 32 (tuning::oddEven).
layout(constant_id = SORTLAB_SPEC_KEYS_PER_LANE) const uint PER_LANE = 32;
// The register arrays have this many entries, the most PER_LANE may be: a fixed length lets glslc
// split them into single registers at build time (entries past PER_LANE are never touched). Register
// indices are clamped to MAX_PER_LANE - 1 (a literal) where the code that uses them needs i < PER_LANE.
#define MAX_PER_LANE 32

// Every per-register loop is unrolled by the preprocessor, so that each register index is a
// literal: a driver that leaves such a loop rolled must put the array in memory (seen on NVIDIA:
// the array moved to shared memory, 197 registers otherwise). MAX_PER_LANE copies, each under a
// condition on the specialization constant PER_LANE that the driver folds.
#define REGISTER_IF_(M, i) if ((i) < PER_LANE) { M(i) }
#define REPEAT(M)                                                                                  \
    REGISTER_IF_(M, 0) REGISTER_IF_(M, 1) REGISTER_IF_(M, 2) REGISTER_IF_(M, 3) REGISTER_IF_(M, 4)  \
    REGISTER_IF_(M, 5) REGISTER_IF_(M, 6) REGISTER_IF_(M, 7) REGISTER_IF_(M, 8) REGISTER_IF_(M, 9)  \
    REGISTER_IF_(M, 10) REGISTER_IF_(M, 11) REGISTER_IF_(M, 12) REGISTER_IF_(M, 13)                 \
    REGISTER_IF_(M, 14) REGISTER_IF_(M, 15) REGISTER_IF_(M, 16) REGISTER_IF_(M, 17)                 \
    REGISTER_IF_(M, 18) REGISTER_IF_(M, 19) REGISTER_IF_(M, 20) REGISTER_IF_(M, 21)                 \
    REGISTER_IF_(M, 22) REGISTER_IF_(M, 23) REGISTER_IF_(M, 24) REGISTER_IF_(M, 25)                 \
    REGISTER_IF_(M, 26) REGISTER_IF_(M, 27) REGISTER_IF_(M, 28) REGISTER_IF_(M, 29)                 \
    REGISTER_IF_(M, 30) REGISTER_IF_(M, 31)

layout(constant_id = SORTLAB_SPEC_WORKGROUP_SIZE) const uint WORKGROUP_SIZE = 256;
layout(local_size_x_id = SORTLAB_SPEC_WORKGROUP_SIZE) in;

layout(push_constant) uniform Push {
    uint64_t keys;
    uint64_t values;
    uint64_t outKeys;
    uint64_t outValues;
    uint64_t n;
    uint64_t rowsPerBlock; // 2^(logPLast + 1) / kMin
    uint logPFirst, logPLast; // merges run; a window step has logPFirst == logPLast
    uint logKHi, logKLo;      // strides of the first merge run: 2^logKHi .. 2^logKLo (later: p .. 2^logKLo)
    uint logR;
    uint centreRows; // rows a window writes back
    uint halo;       // rows loaded on each side of the centre (halo * R is a multiple of SG)
    uint segments;   // windows per (block, column group)
    uint windows;    // blocks * column groups * segments
    uint groupsX;
} pc;

#if KEY_WORDS == 1
Key sentinelKey() { // the raw key whose order bits are all ones
    uint ob = DESCENDING != 0 ? 0u : 0xffffffffu;
    if (KEY_KIND == 1) return ob ^ 0x80000000u;
    if (KEY_KIND == 2) return (ob >> 31) != 0 ? ob ^ 0x80000000u : ~ob;
    return ob;
}
#else
Key sentinelKey() {
    uint hi = DESCENDING != 0 ? 0u : 0xffffffffu, lo = hi;
    if (KEY_KIND == 1) hi ^= 0x80000000u;
    if (KEY_KIND == 2) {
        if ((hi >> 31) != 0) hi ^= 0x80000000u;
        else { hi = ~hi; lo = ~lo; }
    }
    return uvec2(lo, hi);
}
#endif

// Compare-exchange of registers i < j of this lane.
#if HAS_VALUES
#define CAS(i, j)                                                                                  \
    if (after(k[i], k[j])) {                                                                       \
        Key t_ = k[i]; k[i] = k[j]; k[j] = t_;                                                     \
        uint u_ = v[i]; v[i] = v[j]; v[j] = u_;                                                    \
    }
#else
#define CAS(i, j)                                                                                  \
    if (after(k[i], k[j])) {                                                                       \
        Key t_ = k[i]; k[i] = k[j]; k[j] = t_;                                                     \
    }
#endif

void main() {
    const uint SG = gl_SubgroupSize;
    const uint logSG = findMSB(SG);
    uint window = (gl_WorkGroupID.y * pc.groupsX + gl_WorkGroupID.x) * (WORKGROUP_SIZE / SG) + gl_SubgroupID;
    if (window >= pc.windows) return; // whole subgroups leave together; no barriers below

    const uint lane = gl_SubgroupInvocationID;
    const uint R = 1u << pc.logR;
    const uint columnGroups = 1u << (pc.logKLo - pc.logR);
    // Column groups vary fastest: windows that run at the same time then cover adjacent columns
    // of the same rows (whole cache lines and pages), not one narrow column far apart. With
    // segments fastest, a strided step at 2^31 keys took 2.3 s instead of ~0.1 s (H200).
    uint columnBase = (window % columnGroups) << pc.logR;
    uint rest = window / columnGroups;
    uint segment = rest % pc.segments;
    uint64_t block = rest / pc.segments;

    uint64_t blockBase = block << (pc.logPLast + 1);
    uint64_t centreStart = uint64_t(segment) * pc.centreRows;
    uint64_t firstRow = centreStart > pc.halo ? centreStart - pc.halo : 0ul;
    uint64_t centreEnd = min(centreStart + pc.centreRows, pc.rowsPerBlock);
    uint64_t inBlock = pc.n - blockBase; // keys of this block that exist (may exceed the block)
    const uint slotBase = uint(firstRow) << pc.logR; // low bits of the absolute slot of slot 0

    // Register i of this lane is row laneRow0 + i * rowsPerStep of column `column`, so every
    // per-register test reduces to comparing i with a bound computed once per lane.
    const uint logRowsPerStep = logSG - pc.logR;
    const uint64_t column = uint64_t(columnBase + (lane & (R - 1)));
    const uint64_t laneRow0 = firstRow + (lane >> pc.logR);
    uint64_t rowsExisting = inBlock > column ? (inBlock - column + (1ul << pc.logKLo) - 1) >> pc.logKLo : 0ul;
    rowsExisting = min(rowsExisting, pc.rowsPerBlock);
#define REGISTERS_BELOW(row) /* registers whose row is below `row` */                           \
    int(row > laneRow0 ? min((row - laneRow0 + (1ul << logRowsPerStep) - 1) >> logRowsPerStep, uint64_t(PER_LANE)) : 0ul)
    const int present = REGISTERS_BELOW(rowsExisting);
    const int centreLo = REGISTERS_BELOW(centreStart);
    const int centreHi = min(REGISTERS_BELOW(centreEnd), present);
    const uint64_t offset0 = blockBase + (laneRow0 << pc.logKLo) + column;
    const uint64_t stepBytes = (uint64_t(1) << (logRowsPerStep + pc.logKLo)) * KEY_BYTES;
    const uint64_t keyAddr0 = pc.keys + offset0 * KEY_BYTES;
#if HAS_VALUES
    const uint64_t valueStepBytes = uint64_t(1) << (logRowsPerStep + pc.logKLo + 2);
    const uint64_t valueAddr0 = pc.values + offset0 * 4ul;
#endif

    Key k[MAX_PER_LANE];
#if HAS_VALUES
    uint v[MAX_PER_LANE];
#endif
    const Key sentinel = sentinelKey();
#if HAS_VALUES
#define LOAD(i)                                                                                    \
    k[i] = (i) < present ? KeyRef(keyAddr0 + uint64_t(i) * stepBytes).v : sentinel;                \
    v[i] = (i) < present ? ValueRef(valueAddr0 + uint64_t(i) * valueStepBytes).v : 0u;
#else
#define LOAD(i) k[i] = (i) < present ? KeyRef(keyAddr0 + uint64_t(i) * stepBytes).v : sentinel;
#endif
    REPEAT(LOAD)

    // Several merges in one window (the tile use): comparators must also stay in their 2p block.
    const bool severalMerges = pc.logPFirst < pc.logPLast;
    for (uint logP = pc.logPFirst; logP <= pc.logPLast; ++logP) {
        uint logKStart = logP == pc.logPFirst ? pc.logKHi : logP;
        const uint logBlockSlots = logP + 1 - pc.logKLo + pc.logR; // 2p in slots
        for (uint logK = logKStart + 1; logK-- > pc.logKLo;) {
            const bool top = logK == logP;                       // the merge's first layer
            const uint logSigma = logK - pc.logKLo + pc.logR;    // stride in slots
            if (logSigma >= logSG) {
                // Registers i and i + t of this lane, t = sigma / SG. Left ends: bit t of the
                // absolute register row clear (top layer) or set (inner layers).
                const uint logT = logSigma - logSG;
                const uint rowBase = slotBase >> logSG;
                // One straight-line copy per t, so that every register index is a constant.
#define IN_LANE_PAIR(i, LOG_T)                                                                     \
    if ((i) + (1 << LOG_T) < PER_LANE) {                                                           \
        uint r_ = rowBase + uint(i);                                                               \
        bool bitSet_ = ((r_ >> LOG_T) & 1u) != 0u;                                                 \
        bool same_ = !severalMerges || ((r_ ^ (r_ + (1u << LOG_T))) >> (logBlockSlots - logSG)) == 0u; \
        if (bitSet_ != top && same_) { CAS(i, min((i) + (1 << LOG_T), MAX_PER_LANE - 1)) }             \
    }
#define IN_LANE_0(i) IN_LANE_PAIR(i, 0)
#define IN_LANE_1(i) IN_LANE_PAIR(i, 1)
#define IN_LANE_2(i) IN_LANE_PAIR(i, 2)
#define IN_LANE_3(i) IN_LANE_PAIR(i, 3)
#define IN_LANE_4(i) IN_LANE_PAIR(i, 4)
                switch (logT) {
                case 0: REPEAT(IN_LANE_0) break;
                case 1: REPEAT(IN_LANE_1) break;
                case 2: REPEAT(IN_LANE_2) break;
                case 3: REPEAT(IN_LANE_3) break;
                case 4: REPEAT(IN_LANE_4) break; // PER_LANE = 32 only
                default: break;
                }
            } else {
                // Lane l pairs with lane (l +- sigma) mod SG; wrapping moves one register on.
                const uint sigma = 1u << logSigma;
                const bool left = ((lane & sigma) != 0u) != top;
                const uint src = (left ? lane + sigma : lane - sigma) & (SG - 1u);
                const bool wrap = left ? lane + sigma >= SG : lane < sigma;
                // Shuffle each register once, before it changes: partner values of registers
                // i - 1, i and i + 1 are what lanes that wrap or not need.
                Key prev = sentinel, cur = subgroupShuffle(k[0], src), next;
#if HAS_VALUES
                uint prevV = 0u, curV = subgroupShuffle(v[0], src), nextV;
#define CROSS_VALUES_NEXT(i) nextV = (i) + 1 < PER_LANE ? subgroupShuffle(v[min((i) + 1, MAX_PER_LANE - 1)], src) : 0u;
#define CROSS_VALUES_SWAP(i) if (swap_) v[i] = wrap ? (left ? nextV : prevV) : curV; prevV = curV; curV = nextV;
#else
#define CROSS_VALUES_NEXT(i)
#define CROSS_VALUES_SWAP(i)
#endif
#define CROSS(i)                                                                                   \
    {                                                                                              \
        next = (i) + 1 < PER_LANE ? subgroupShuffle(k[min((i) + 1, MAX_PER_LANE - 1)], src) : sentinel; \
        CROSS_VALUES_NEXT(i)                                                                       \
        const bool inLane_ = left ? (i) + 1 < PER_LANE : (i) > 0; /* a register to wrap to */      \
        bool has_ = !wrap || inLane_;                                                              \
        if (severalMerges) {                                                                       \
            uint x_ = slotBase + lane + (uint(i) << logSG);                                        \
            uint y_ = left ? x_ + sigma : x_ - sigma;                                               \
            has_ = has_ && ((x_ ^ y_) >> logBlockSlots) == 0u;                                     \
        }                                                                                          \
        Key other_ = wrap ? (left ? next : prev) : cur;                                            \
        bool swap_ = has_ && (left ? after(k[i], other_) : after(other_, k[i]));                   \
        CROSS_VALUES_SWAP(i)                                                                       \
        if (swap_) k[i] = other_;                                                                  \
        prev = cur;                                                                                \
        cur = next;                                                                                \
    }
                REPEAT(CROSS)
            }
        }
    }

    // Write back the centre rows that exist.
    const uint64_t outKeyAddr0 = pc.outKeys + offset0 * KEY_BYTES;
#if HAS_VALUES
    const uint64_t outValueAddr0 = pc.outValues + offset0 * 4ul;
#define STORE_VALUE(i) ValueRef(outValueAddr0 + uint64_t(i) * valueStepBytes).v = v[i];
#else
#define STORE_VALUE(i)
#endif
#define STORE(i)                                                                                   \
    if ((i) >= centreLo && (i) < centreHi) {                                                       \
        KeyRef(outKeyAddr0 + uint64_t(i) * stepBytes).v = k[i];                                    \
        STORE_VALUE(i)                                                                             \
    }
    REPEAT(STORE)
}
