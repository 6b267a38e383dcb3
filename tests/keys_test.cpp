// keys.h: the order bits every sort compares. Checked against independent models of the orders:
// IEEE 754 totalOrder written out from its definition for floats, the C++ signed comparison for
// two's complement integers, plain unsigned comparison for unsigned keys.
#include <sortlab/keys.h>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <vector>

namespace sortlab {
namespace {

uint64_t orderBits(KeyType t, uint64_t raw, Order o) {
    return keyBytes(t) == 4 ? orderBits32(static_cast<uint32_t>(raw), keyKind(t), o) : orderBits64(raw, keyKind(t), o);
}

// IEEE 754-2008 totalOrder(x, y) && x != y bitwise, from the definition (5.10), not from bit tricks:
// ordered values compare numerically, -0 < +0, negative NaNs sit below everything (a larger payload
// lower), positive NaNs above everything (a larger payload higher).
template <class F, class U> bool totalOrderLess(U a, U b) {
    const F x = std::bit_cast<F>(a), y = std::bit_cast<F>(b);
    const U payloadMask = (U(1) << (std::numeric_limits<F>::digits - 1)) - 1; // mantissa bits
    const bool nx = std::isnan(x), ny = std::isnan(y);
    if (nx || ny) {
        if (nx && ny) {
            const bool sx = std::signbit(x), sy = std::signbit(y);
            if (sx != sy) return sx; // -NaN < +NaN
            const U px = a & payloadMask, py = b & payloadMask;
            // The quiet bit is part of the payload order: for positive NaNs a larger significand is
            // larger, and the reverse for negative ones.
            return sx ? px > py : px < py;
        }
        if (nx) return std::signbit(x); // -NaN < anything, +NaN > anything
        return !std::signbit(y);        // x < +NaN; x > -NaN
    }
    if (x < y) return true;
    if (x > y) return false;
    if (x == 0 && y == 0) return std::signbit(x) && !std::signbit(y); // -0 < +0
    return false;                                                     // equal numbers, same bits
}

bool modelLess(KeyType t, uint64_t a, uint64_t b) {
    switch (t) {
    case KeyType::u32:
        return static_cast<uint32_t>(a) < static_cast<uint32_t>(b);
    case KeyType::u64:
        return a < b;
    case KeyType::i32:
        return static_cast<int32_t>(static_cast<uint32_t>(a)) < static_cast<int32_t>(static_cast<uint32_t>(b));
    case KeyType::i64:
        return static_cast<int64_t>(a) < static_cast<int64_t>(b);
    case KeyType::f32:
        return totalOrderLess<float, uint32_t>(static_cast<uint32_t>(a), static_cast<uint32_t>(b));
    case KeyType::f64:
        return totalOrderLess<double, uint64_t>(a, b);
    }
    return false;
}

// Raw bits listed in strictly increasing order of each type.
std::vector<uint64_t> increasingSamples(KeyType t) {
    switch (t) {
    case KeyType::f32:
        return {0xffffffffu,
                0xffc00001u,
                0xffc00000u /* -qNaN */,
                0xff800001u /* -sNaN */,
                0xff800000u /* -inf */,
                0xff7fffffu /* -max */,
                0xc0000000u /* -2 */,
                0xbf800000u /* -1 */,
                0x80800000u /* -min normal */,
                0x807fffffu,
                0x80000001u /* -min denormal */,
                0x80000000u /* -0 */,
                0x00000000u /* +0 */,
                0x00000001u,
                0x007fffffu,
                0x00800000u,
                0x3f800000u /* 1 */,
                0x40000000u,
                0x7f7fffffu /* max */,
                0x7f800000u /* inf */,
                0x7f800001u /* sNaN */,
                0x7fc00000u /* qNaN */,
                0x7fffffffu};
    case KeyType::f64:
        return {0xffffffffffffffffull,
                0xfff8000000000000ull /* -qNaN */,
                0xfff0000000000001ull /* -sNaN */,
                0xfff0000000000000ull /* -inf */,
                0xffefffffffffffffull /* -max */,
                0xbff0000000000000ull /* -1 */,
                0x8010000000000000ull,
                0x8000000000000001ull,
                0x8000000000000000ull /* -0 */,
                0ull /* +0 */,
                1ull,
                0x0010000000000000ull,
                0x3ff0000000000000ull /* 1 */,
                0x7fefffffffffffffull /* max */,
                0x7ff0000000000000ull /* inf */,
                0x7ff0000000000001ull /* sNaN */,
                0x7ff8000000000000ull /* qNaN */,
                0x7fffffffffffffffull};
    case KeyType::i32:
        return {0x80000000u /* INT_MIN */,
                0x80000001u,
                0xc4653600u /* -1e9 */,
                0xffffff00u,
                0xfffffffeu,
                0xffffffffu /* -1 */,
                0u,
                1u,
                0xffu,
                0x3b9aca00u /* 1e9 */,
                0x7ffffffeu,
                0x7fffffffu /* INT_MAX */};
    case KeyType::i64:
        return {0x8000000000000000ull,
                0x8000000000000001ull,
                0xffffffff00000000ull,
                0xffffffff80000000ull,
                0xffffffffffffffffull /* -1 */,
                0ull,
                1ull,
                0x7fffffffull,
                0x80000000ull,
                0xffffffffull,
                0x7fffffffffffffffull};
    case KeyType::u32:
        return {0u, 1u, 0xffu, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu};
    case KeyType::u64:
        return {0ull,
                1ull,
                0xffffffffull,
                0x100000000ull,
                0x7fffffffffffffffull,
                0x8000000000000000ull,
                0xfffffffffffffffeull,
                0xffffffffffffffffull};
    }
    return {};
}

// Random raw bits, biased towards the interesting encodings (NaN/inf exponents, zeros, signs).
std::vector<uint64_t> randomSamples(KeyType t, size_t count, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<uint64_t> out;
    const bool wide = keyBytes(t) == 8;
    for (size_t i = 0; i < count; ++i) {
        uint64_t r = rng();
        if (!wide) r &= 0xffffffffull;
        switch (rng() % 8) {
        case 0: // all-ones exponent: inf or NaN with a random payload, either sign
            if (t == KeyType::f32)
                r |= 0x7f800000ull;
            else if (t == KeyType::f64)
                r |= 0x7ff0000000000000ull;
            break;
        case 1: // zero exponent: zero or denormal
            if (t == KeyType::f32)
                r &= 0x80000003ull;
            else if (t == KeyType::f64)
                r &= 0x8000000000000003ull;
            else
                r &= 3;
            break;
        case 2: // near the sign boundary
            r = wide ? (0x8000000000000000ull + (rng() % 5) - 2) : (0x80000000ull + (rng() % 5) - 2);
            break;
        default:
            break;
        }
        out.push_back(r);
    }
    return out;
}

std::string hex(uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}

class KeyOrder : public ::testing::TestWithParam<KeyType> {};

TEST_P(KeyOrder, ListedSamplesAreStrictlyIncreasing) {
    const KeyType t = GetParam();
    const auto s = increasingSamples(t);
    for (size_t i = 0; i + 1 < s.size(); ++i) {
        // The model agrees that the list is increasing (checks the list and the model)...
        EXPECT_TRUE(modelLess(t, s[i], s[i + 1])) << hex(s[i]) << " vs " << hex(s[i + 1]);
        // ...and so do the order bits, ascending; descending is the exact reverse.
        EXPECT_LT(orderBits(t, s[i], Order::ascending), orderBits(t, s[i + 1], Order::ascending))
            << hex(s[i]) << " must sort before " << hex(s[i + 1]);
        EXPECT_GT(orderBits(t, s[i], Order::descending), orderBits(t, s[i + 1], Order::descending))
            << hex(s[i]) << " must sort after " << hex(s[i + 1]) << " descending";
    }
}

TEST_P(KeyOrder, RandomPairsAgreeWithTheModel) {
    const KeyType t = GetParam();
    auto s = randomSamples(t, 4000, 1234 + static_cast<int>(t));
    const auto listed = increasingSamples(t);
    s.insert(s.end(), listed.begin(), listed.end());
    size_t checked = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        for (size_t j = i; j < s.size() && j < i + 40; ++j) { // each sample against its next 40
            const uint64_t a = s[i], b = s[j];
            const bool less = modelLess(t, a, b), greater = modelLess(t, b, a);
            const uint64_t oa = orderBits(t, a, Order::ascending), ob = orderBits(t, b, Order::ascending);
            ASSERT_EQ(oa < ob, less) << hex(a) << " vs " << hex(b);
            ASSERT_EQ(oa > ob, greater) << hex(a) << " vs " << hex(b);
            ASSERT_EQ(oa == ob, a == b) << hex(a) << " vs " << hex(b); // totalOrder is total: equal only if identical
            const uint64_t da = orderBits(t, a, Order::descending), db = orderBits(t, b, Order::descending);
            ASSERT_EQ(da < db, greater) << "descending " << hex(a) << " vs " << hex(b);
            ASSERT_EQ(da > db, less) << "descending " << hex(a) << " vs " << hex(b);
            ++checked;
        }
    }
    EXPECT_GT(checked, 100000u);
}

TEST_P(KeyOrder, DescendingIsTheComplementOfAscending) {
    const KeyType t = GetParam();
    const uint64_t mask = keyBytes(t) == 4 ? 0xffffffffull : ~0ull;
    for (uint64_t raw : randomSamples(t, 2000, 99)) {
        EXPECT_EQ(orderBits(t, raw, Order::descending), ~orderBits(t, raw, Order::ascending) & mask) << hex(raw);
    }
}

TEST_P(KeyOrder, MappingIsABijectionOnSamples) {
    const KeyType t = GetParam();
    auto s = randomSamples(t, 50000, 7);
    const auto listed = increasingSamples(t);
    s.insert(s.end(), listed.begin(), listed.end());
    for (Order o : {Order::ascending, Order::descending}) {
        std::set<uint64_t> raws, bits;
        for (uint64_t r : s) {
            raws.insert(r);
            const uint64_t b = orderBits(t, r, o);
            if (keyBytes(t) == 4) {
                EXPECT_LE(b, 0xffffffffull) << "32-bit keys map into 32 bits";
            }
            bits.insert(b);
        }
        EXPECT_EQ(raws.size(), bits.size()) << "distinct raw bits must give distinct order bits";
    }
    // 32-bit keys: every raw word of a contiguous window across each boundary (0, the sign bit,
    // the NaN/inf exponents) maps to a distinct order word.
    if (keyBytes(t) == 4) {
        for (uint32_t centre : {0u, 0x80000000u, 0x7f800000u, 0xff800000u, 0xffffffffu}) {
            std::set<uint32_t> seen;
            for (uint32_t d = 0; d < 4096; ++d)
                seen.insert(orderBits32(centre + d - 2048, keyKind(t), Order::ascending));
            EXPECT_EQ(seen.size(), 4096u) << "around " << hex(centre);
        }
    }
}

TEST_P(KeyOrder, OrderBitsAtReadsRawArrays) {
    const KeyType t = GetParam();
    const auto s = increasingSamples(t);
    std::vector<std::byte> raw(s.size() * keyBytes(t));
    for (size_t i = 0; i < s.size(); ++i) {
        if (keyBytes(t) == 4) {
            uint32_t w = static_cast<uint32_t>(s[i]);
            std::memcpy(raw.data() + i * 4, &w, 4);
        } else {
            std::memcpy(raw.data() + i * 8, &s[i], 8);
        }
    }
    for (Order o : {Order::ascending, Order::descending})
        for (size_t i = 0; i < s.size(); ++i) EXPECT_EQ(orderBitsAt(raw.data(), i, t, o), orderBits(t, s[i], o));
}

INSTANTIATE_TEST_SUITE_P(AllKeyTypes, KeyOrder, ::testing::ValuesIn(kAllKeyTypes),
                         [](const auto& info) { return std::string(keyTypeName(info.param)); });

TEST(KeyTraits, SizesKindsAndNames) {
    EXPECT_EQ(keyBytes(KeyType::u32), 4u);
    EXPECT_EQ(keyBytes(KeyType::i32), 4u);
    EXPECT_EQ(keyBytes(KeyType::f32), 4u);
    EXPECT_EQ(keyBytes(KeyType::u64), 8u);
    EXPECT_EQ(keyBytes(KeyType::i64), 8u);
    EXPECT_EQ(keyBytes(KeyType::f64), 8u);
    EXPECT_EQ(keyBits(KeyType::f64), 64u);
    EXPECT_EQ(valueBytes(ValueType::u32), 4u);
    EXPECT_EQ(valueBytes(ValueType::none), 0u);
    EXPECT_EQ(keyKind(KeyType::u64), KeyKind::unsigned_int);
    EXPECT_EQ(keyKind(KeyType::i32), KeyKind::signed_int);
    EXPECT_EQ(keyKind(KeyType::f32), KeyKind::floating);
    for (KeyType t : kAllKeyTypes) EXPECT_EQ(parseKeyType(keyTypeName(t)), t);
    EXPECT_FALSE(parseKeyType("u16").has_value());
    EXPECT_EQ(parseOrder("desc"), Order::descending);
    EXPECT_EQ(parseOrder("ascending"), Order::ascending);
    EXPECT_FALSE(parseOrder("up").has_value());
    EXPECT_EQ(parseValueType("u32"), ValueType::u32);
    EXPECT_EQ(parseValueType("none"), ValueType::none);
}

} // namespace
} // namespace sortlab
