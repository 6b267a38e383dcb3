// Radix4 step 1 ("count the number of symbols", docs/radix4.md): each workgroup counts the digits of
// its tile of TILE keys, writes its 16 counts to the count table, and adds them to the pass's
// global histogram (at most 16 atomics per workgroup, none for a digit it did not see: the
// reduction to global counts; no global atomic per key).
//
// Each invocation counts its KPT keys in registers, 8 bits per digit (16 digits in two 64-bit
// words: at most KPT = 16 keys per counter), then the subgroup adds its invocations' counts with
// subgroupAdd (16 bits per digit), and one lane per subgroup adds them to the workgroup's.
#version 460
#include "radix4.glsl"

layout(buffer_reference, std430, buffer_reference_align = 16) buffer VecRef { uvec4 v; };

shared uint counts[16];

uint64_t one(uint d) { return 1ul << ((d & 7u) * 8u); }

void main() {
    const uint wg = workgroupIndex();
    if (wg >= tileCount()) return;
    const uint tid = gl_LocalInvocationIndex;
    // (A workgroup of fewer than 16 invocations, a teaching tile's, takes several digits each.)
    for (uint d = tid; d < 16; d += WORKGROUP_SIZE) counts[d] = 0;
    if (wg == 0 && tid == 0) {
        word(SORTLAB_R4_INFO + 4 * pc.pass + 0).v = pc.pass;
        word(SORTLAB_R4_INFO + 4 * pc.pass + 1).v = pc.bitLo;
        word(SORTLAB_R4_INFO + 4 * pc.pass + 2).v = pc.bitHi;
    }
    barrier();

    const uint64_t src = inputInTemp() ? pc.keysTemp : pc.keys;
    const uint64_t tileBase = uint64_t(wg) * TILE;
    uint64_t low = 0, high = 0; // digits 0..7 and 8..15, 8 bits each
    if (TILE == SLOTS && KPT * KEY_BYTES % 16 == 0 && tileBase + TILE <= keyCount()) {
        // A whole tile: 16-byte loads, consecutive invocations reading consecutive vectors.
        const uint64_t base = src + tileBase * KEY_BYTES;
        [[unroll]] for (uint j = 0; j < KPT * KEY_BYTES / 16; ++j) {
            uvec4 x = VecRef(base + uint64_t(j * WORKGROUP_SIZE + tid) * 16ul).v;
#if KEY_WORDS == 1
            Key keys[4] = Key[4](x.x, x.y, x.z, x.w);
            [[unroll]] for (uint e = 0; e < 4; ++e) {
#else
            Key keys[2] = Key[2](x.xy, x.zw);
            [[unroll]] for (uint e = 0; e < 2; ++e) {
#endif
                uint d = digitOf(keys[e]);
                if (d < 8u) low += one(d);
                else high += one(d);
            }
        }
    } else {
        // The last, partial tile, and teaching tiles (fewer keys than slots).
        [[unroll]] for (uint i = 0; i < KPT; ++i) {
            uint64_t idx = tileBase + i * WORKGROUP_SIZE + tid;
            if (i * WORKGROUP_SIZE + tid < TILE && idx < keyCount()) {
                uint d = digitOf(keyAt(src, idx).v);
                if (d < 8u) low += one(d);
                else high += one(d);
            }
        }
    }
    // Widen to 16 bits per digit (word w holds digits a and a + 2, a = (w / 2) * 4 + (w % 2)),
    // then add across the subgroup.
    uint w[8];
    uint lo = uint(low), lh = uint(low >> 32), hl = uint(high), hh = uint(high >> 32);
    w[0] = lo & 0x00ff00ffu;
    w[1] = (lo >> 8) & 0x00ff00ffu;
    w[2] = lh & 0x00ff00ffu;
    w[3] = (lh >> 8) & 0x00ff00ffu;
    w[4] = hl & 0x00ff00ffu;
    w[5] = (hl >> 8) & 0x00ff00ffu;
    w[6] = hh & 0x00ff00ffu;
    w[7] = (hh >> 8) & 0x00ff00ffu;
    [[unroll]] for (uint i = 0; i < 8; ++i) w[i] = subgroupAdd(w[i]);
    if (subgroupElect()) {
        [[unroll]] for (uint i = 0; i < 8; ++i) {
            uint a = (i / 2) * 4 + (i % 2);
            if ((w[i] & 0xffffu) != 0) atomicAdd(counts[a], w[i] & 0xffffu);
            if ((w[i] >> 16) != 0) atomicAdd(counts[a + 2], w[i] >> 16);
        }
    }
    barrier();
    for (uint d = tid; d < 16; d += WORKGROUP_SIZE) {
        uint c = counts[d];
        word(SORTLAB_R4_COUNTS + d * pc.rowStride + wg).v = c;
        if (c != 0) atomicAdd(word(SORTLAB_R4_HIST + 16 * pc.pass + d).v, c);
    }
}
