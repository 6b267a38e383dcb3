// Keys and values reached by buffer device address, and the order-preserving map that every
// comparison goes through. Compiled with -DKEY_WORDS=1 (32-bit keys) or 2 (64-bit keys, held
// as uvec2 (low word, high word)) and -DHAS_VALUES=0|1.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#include "sortlab/shaders/constants.h"

layout(constant_id = SORTLAB_SPEC_KEY_KIND) const uint KEY_KIND = 0;
layout(constant_id = SORTLAB_SPEC_DESCENDING) const uint DESCENDING = 0;

#if KEY_WORDS == 1
#define Key uint
#define KEY_BYTES 4
#else
#define Key uvec2
#define KEY_BYTES 8
#endif

layout(buffer_reference, std430, buffer_reference_align = KEY_BYTES) buffer KeyRef { Key v; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer ValueRef { uint v; };

// Element i of an array at `base`: 64-bit address arithmetic, so arrays past 2^31 elements work.
KeyRef keyAt(uint64_t base, uint64_t i) { return KeyRef(base + i * uint64_t(KEY_BYTES)); }
ValueRef valueAt(uint64_t base, uint64_t i) { return ValueRef(base + i * 4ul); }

// Order bits: comparing them as unsigned integers gives the requested order (see sort/keys.h).
uint orderWord(uint hi, bool negative) {
    if (KEY_KIND == 1) hi ^= 0x80000000u;
    else if (KEY_KIND == 2) hi ^= negative ? 0xffffffffu : 0x80000000u;
    return DESCENDING != 0 ? ~hi : hi;
}

// The inverse of orderWord: the key's high (or only) word from its order bits.
uint keyWord(uint o) {
    if (DESCENDING != 0) o = ~o;
    if (KEY_KIND == 1) return o ^ 0x80000000u;
    if (KEY_KIND == 2) return (o >> 31) != 0 ? o ^ 0x80000000u : ~o;
    return o;
}

#if KEY_WORDS == 1
uint orderBits(Key k) { return orderWord(k, (k >> 31) != 0); }
Key keyFromOrderBits(uint o) { return keyWord(o); }
// True when a must come after b.
bool after(Key a, Key b) { return orderBits(a) > orderBits(b); }
#else
uvec2 orderBits(Key k) {
    bool negative = (k.y >> 31) != 0;
    uint lo = k.x;
    if (KEY_KIND == 2 && negative) lo = ~lo;
    if (DESCENDING != 0) lo = ~lo;
    return uvec2(lo, orderWord(k.y, negative));
}
Key keyFromOrderBits(uvec2 o) {
    const uint hi = keyWord(o.y);
    uint lo = DESCENDING != 0 ? ~o.x : o.x;
    if (KEY_KIND == 2 && (hi >> 31) != 0) lo = ~lo;
    return uvec2(lo, hi);
}
bool after(Key a, Key b) {
    uvec2 x = orderBits(a), y = orderBits(b);
    return x.y > y.y || (x.y == y.y && x.x > y.x);
}
#endif
