// data.h: the inputs and checks every GPU test leans on. If compareSorted accepted a wrong
// result, or 'special' held no NaN, the GPU tests would pass without proving anything; these
// tests make sure they can fail.
#include <sortlab/data.h>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <limits>
#include <set>
#include <vector>

namespace sortlab {
namespace {

uint64_t rawAt(const std::vector<std::byte>& keys, size_t i, KeyType t) {
    if (keyBytes(t) == 4) {
        uint32_t w;
        std::memcpy(&w, keys.data() + i * 4, 4);
        return w;
    }
    uint64_t w;
    std::memcpy(&w, keys.data() + i * 8, 8);
    return w;
}

TEST(GenerateKeys, DeterministicInSeedAndSized) {
    for (KeyType t : kAllKeyTypes)
        for (Distribution d : kAllDistributions) {
            auto a = generateKeys(t, 1000, d, 42), b = generateKeys(t, 1000, d, 42);
            ASSERT_EQ(a.size(), 1000u * keyBytes(t));
            EXPECT_EQ(a, b) << keyTypeName(t) << " " << distributionName(d);
            EXPECT_TRUE(generateKeys(t, 0, d, 42).empty());
            if (d != Distribution::equal) {
                EXPECT_NE(a, generateKeys(t, 1000, d, 43)) << keyTypeName(t) << " " << distributionName(d);
            }
        }
}

// narrow: the high half of every integer key's bits is zero, the top byte of every float key's is
// the same (one sign and exponent); bits: the low byte is zero; runs: each run of 1000 keys is
// sorted, the whole is not.
TEST(GenerateKeys, StructuredDistributions) {
    for (KeyType t : kAllKeyTypes) {
        SCOPED_TRACE(std::string(keyTypeName(t)));
        const uint32_t half = keyKind(t) == KeyKind::floating ? keyBits(t) - 8 : keyBits(t) / 2;
        const auto narrow = generateKeys(t, 5000, Distribution::narrow, 1),
                   bits = generateKeys(t, 5000, Distribution::bits, 1),
                   runs = generateKeys(t, 5000, Distribution::runs, 1);
        std::set<uint64_t> highs, lows;
        for (size_t i = 0; i < 5000; ++i) {
            highs.insert(rawAt(narrow, i, t) >> half);
            lows.insert(rawAt(narrow, i, t) & 0xffffff);
            EXPECT_EQ(rawAt(bits, i, t) & 0xff, 0u) << i;
        }
        EXPECT_EQ(highs.size(), 1u);
        EXPECT_GT(lows.size(), 1000u);
        if (keyKind(t) != KeyKind::floating) {
            EXPECT_EQ(*highs.begin(), 0u);
        }
        bool allSorted = true;
        for (size_t i = 1; i < 5000; ++i) {
            const bool up = orderBitsAt(runs.data(), i - 1, t, Order::ascending) <=
                            orderBitsAt(runs.data(), i, t, Order::ascending);
            if (i % 1000 != 0) {
                EXPECT_TRUE(up) << i;
            }
            allSorted = allSorted && up;
        }
        EXPECT_FALSE(allSorted);
    }
}

TEST(GenerateKeys, DistributionsHaveTheirShape) {
    for (KeyType t : kAllKeyTypes) {
        SCOPED_TRACE(std::string(keyTypeName(t)));
        auto isSorted = [&](const std::vector<std::byte>& k, Order o) {
            for (size_t i = 1; i < k.size() / keyBytes(t); ++i)
                if (orderBitsAt(k.data(), i - 1, t, o) > orderBitsAt(k.data(), i, t, o)) return false;
            return true;
        };
        auto distinct = [&](const std::vector<std::byte>& k) {
            std::set<uint64_t> s;
            for (size_t i = 0; i < k.size() / keyBytes(t); ++i) s.insert(rawAt(k, i, t));
            return s.size();
        };
        const auto uniform = generateKeys(t, 4096, Distribution::uniform, 1);
        EXPECT_FALSE(isSorted(uniform, Order::ascending));
        EXPECT_GT(distinct(uniform), 4000u);
        EXPECT_TRUE(isSorted(generateKeys(t, 4096, Distribution::sorted, 1), Order::ascending));
        EXPECT_TRUE(isSorted(generateKeys(t, 4096, Distribution::reversed, 1), Order::descending));
        EXPECT_EQ(distinct(generateKeys(t, 4096, Distribution::equal, 1)), 1u);
        EXPECT_LE(distinct(generateKeys(t, 4096, Distribution::few_unique, 1)), 16u);
        EXPECT_GT(distinct(generateKeys(t, 4096, Distribution::few_unique, 1)), 1u);
        const auto nearly = generateKeys(t, 4096, Distribution::nearly_sorted, 1);
        EXPECT_FALSE(isSorted(nearly, Order::ascending));
    }
}

// Which special values 2000 keys of the `special` distribution hold (F: float or double, U: its
// bits).
struct SpecialsSeen {
    bool posNan = false, negNan = false, negZero = false, posZero = false, inf = false, negInf = false,
         denormal = false;
};
template <class F, class U> SpecialsSeen specialsIn(KeyType t) {
    constexpr U sign = U(1) << (8 * sizeof(U) - 1);
    const U infBits = std::bit_cast<U>(std::numeric_limits<F>::infinity());
    auto k = generateKeys(t, 2000, Distribution::special, 5);
    SpecialsSeen seen;
    for (size_t i = 0; i < 2000; ++i) {
        const U w = static_cast<U>(rawAt(k, i, t));
        const F f = std::bit_cast<F>(w);
        seen.posNan |= std::isnan(f) && !std::signbit(f);
        seen.negNan |= std::isnan(f) && std::signbit(f);
        seen.negZero |= w == sign;
        seen.posZero |= w == 0u;
        seen.inf |= w == infBits;
        seen.negInf |= w == (infBits | sign);
        seen.denormal |= std::fpclassify(f) == FP_SUBNORMAL;
    }
    return seen;
}

TEST(GenerateKeys, SpecialFloatsHoldNanSignedZerosInfinitiesAndDenormals) {
    const SpecialsSeen f = specialsIn<float, uint32_t>(KeyType::f32);
    EXPECT_TRUE(f.posNan && f.negNan && f.negZero && f.posZero && f.inf && f.negInf && f.denormal);
    const SpecialsSeen d = specialsIn<double, uint64_t>(KeyType::f64);
    EXPECT_TRUE(d.posNan && d.negNan && d.negZero && d.inf && d.negInf);
}

TEST(ReferenceSort, SortsByOrderBitsAndIsStable) {
    for (KeyType t : kAllKeyTypes)
        for (Order o : {Order::ascending, Order::descending}) {
            auto k = generateKeys(t, 3000, Distribution::few_unique, 9);
            auto v = indexValues(3000);
            referenceSort(k, v, t, o);
            for (size_t i = 1; i < 3000; ++i) {
                const uint64_t a = orderBitsAt(k.data(), i - 1, t, o), b = orderBitsAt(k.data(), i, t, o);
                ASSERT_LE(a, b) << i;
                if (a == b) {
                    ASSERT_LT(v[i - 1], v[i]) << "stable: equal keys keep their input order";
                }
            }
        }
}

TEST(CompareSorted, AcceptsTheReferenceAndRejectsWrongResults) {
    const KeyType t = KeyType::i32;
    auto in = generateKeys(t, 500, Distribution::few_unique, 3);
    auto vin = indexValues(500);
    auto ek = in;
    auto ev = vin;
    referenceSort(ek, ev, t, Order::ascending);
    EXPECT_TRUE(compareSorted(ek, ev, ek, ev, t, Order::ascending, true).ok);

    // A different key somewhere.
    auto badKeys = ek;
    std::swap(badKeys[0], badKeys[499 * 4]);
    auto r = compareSorted(ek, ev, badKeys, ev, t, Order::ascending, false);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.message.find("key 0"), std::string::npos) << r.message;

    // Values permuted within a run of equal keys: fine unless stable.
    size_t i = 0;
    while (orderBitsAt(ek.data(), i, t, Order::ascending) != orderBitsAt(ek.data(), i + 1, t, Order::ascending)) ++i;
    auto permuted = ev;
    std::swap(permuted[i], permuted[i + 1]);
    EXPECT_TRUE(compareSorted(ek, ev, ek, permuted, t, Order::ascending, false).ok);
    EXPECT_FALSE(compareSorted(ek, ev, ek, permuted, t, Order::ascending, true).ok);

    // A value moved to a run of other keys: always wrong.
    auto moved = ev;
    std::swap(moved.front(), moved.back());
    EXPECT_FALSE(compareSorted(ek, ev, ek, moved, t, Order::ascending, false).ok);

    // Wrong sizes.
    std::vector<std::byte> shorter(ek.begin(), ek.end() - 4);
    EXPECT_FALSE(compareSorted(ek, {}, shorter, {}, t, Order::ascending, false).ok);
}

TEST(FormatKey, SpecialValues) {
    std::vector<std::byte> k(4 * 4);
    const uint32_t w[] = {0x80000000u, 0x7fc00000u, 0xff800000u, 0x3f800000u};
    std::memcpy(k.data(), w, sizeof w);
    EXPECT_EQ(formatKey(k, 0, KeyType::f32), "-0");
    EXPECT_EQ(formatKey(k, 1, KeyType::f32), "nan");
    EXPECT_EQ(formatKey(k, 2, KeyType::f32), "-inf");
    EXPECT_EQ(formatKey(k, 3, KeyType::f32), "1");
    EXPECT_EQ(formatKey(k, 0, KeyType::u32), "2147483648");
    EXPECT_EQ(formatKey(k, 0, KeyType::i32), "-2147483648");
}

// Keys a person types: every key type reads back what was written, separators and comments are
// skipped, and every error names the line and column of the entry and what is wrong.
TEST(ParseKeys, EveryTypeReadsWhatWasWritten) {
    auto u = parseKeys("10, 25,39\n92 1\t5;68 # comment, 77\n+23", KeyType::u32);
    ASSERT_TRUE(u.ok()) << u.error().message;
    const uint32_t wantU[] = {10, 25, 39, 92, 1, 5, 68, 23};
    ASSERT_EQ(u->size(), sizeof wantU);
    EXPECT_EQ(std::memcmp(u->data(), wantU, sizeof wantU), 0);

    auto i = parseKeys("-2147483648,2147483647,-1", KeyType::i32);
    ASSERT_TRUE(i.ok()) << i.error().message;
    const int32_t wantI[] = {INT32_MIN, INT32_MAX, -1};
    EXPECT_EQ(std::memcmp(i->data(), wantI, sizeof wantI), 0);

    auto u64 = parseKeys("18446744073709551615 0", KeyType::u64);
    ASSERT_TRUE(u64.ok()) << u64.error().message;
    EXPECT_EQ(formatKey(*u64, 0, KeyType::u64), "18446744073709551615");

    auto i64 = parseKeys("-9223372036854775808", KeyType::i64);
    ASSERT_TRUE(i64.ok()) << i64.error().message;
    EXPECT_EQ(formatKey(*i64, 0, KeyType::i64), "-9223372036854775808");

    for (KeyType t : {KeyType::f32, KeyType::f64}) {
        auto f = parseKeys("1.5, -0, inf, -inf, nan, -nan, 2.5e-1", t);
        ASSERT_TRUE(f.ok()) << f.error().message;
        const char* want[] = {"1.5", "-0", "inf", "-inf", "nan", "-nan", "0.25"};
        for (size_t k = 0; k < std::size(want); ++k) EXPECT_EQ(formatKey(*f, k, t), want[k]) << keyTypeName(t);
    }
}

TEST(ParseKeys, ErrorsNameLineColumnAndWhy) {
    auto expectError = [](std::string_view text, KeyType type, const std::string& want) {
        auto r = parseKeys(text, type, "in.txt");
        ASSERT_FALSE(r.ok()) << "'" << text << "' was accepted";
        EXPECT_EQ(r.error().code, Errc::parse_error);
        EXPECT_NE(r.error().message.find(want), std::string::npos) << r.error().message;
    };
    expectError("1, 2, ten", KeyType::u32, "in.txt:1:7: 'ten' is not a u32 key");
    expectError("1\n2\n  3x", KeyType::i64, "in.txt:3:3: '3x' is not a i64 key");
    expectError("1, -2", KeyType::u32, "in.txt:1:4: -2 is negative for u32 keys");
    expectError("4294967296", KeyType::u32, "in.txt:1:1: 4294967296 is out of range for u32 keys (0 to 4294967295)");
    expectError("-2147483649", KeyType::i32, "out of range for i32 keys (-2147483648 to 2147483647)");
    expectError("1e39", KeyType::f32, "out of range for f32 keys (about -3.4e38 to 3.4e38, inf or nan)");
    expectError("18446744073709551616", KeyType::u64, "out of range for u64 keys (0 to 18446744073709551615)");
    expectError("9223372036854775808", KeyType::i64,
                "out of range for i64 keys (-9223372036854775808 to 9223372036854775807)");
    expectError("1e309", KeyType::f64, "out of range for f64 keys (about -1.8e308 to 1.8e308, inf or nan)");
    expectError("1.5", KeyType::u32, "'1.5' is not a u32 key");
    expectError("", KeyType::f64, "in.txt: no keys");
    expectError(" ,\n# only a comment\n", KeyType::u32, "in.txt: no keys");
    auto limited = parseKeys("1 2 3", KeyType::u32, "in.txt", 2);
    ASSERT_FALSE(limited.ok());
    EXPECT_NE(limited.error().message.find("in.txt:1:5: more than 2 keys"), std::string::npos)
        << limited.error().message;
}

TEST(ParseKeys, FilesThatCannotBeReadAreNamed) {
    auto missing = readKeysFile("/nonexistent/sortlab-keys.txt", KeyType::u32);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("/nonexistent/sortlab-keys.txt: cannot read it"), std::string::npos)
        << missing.error().message;
    const std::string path = testing::TempDir() + "/sortlab-keys.txt";
    {
        std::ofstream out(path);
        out << "3\n1\n2\n";
    }
    auto keys = readKeysFile(path, KeyType::u32);
    ASSERT_TRUE(keys.ok()) << keys.error().message;
    EXPECT_EQ(keys->size(), 12u);
    auto tooLarge = readKeysFile(path, KeyType::u32, 4);
    ASSERT_FALSE(tooLarge.ok());
    EXPECT_EQ(tooLarge.error().code, Errc::too_large);
}

// The small distribution: integers 0..99 of every type, deterministic in the seed.
TEST(Distributions, SmallIsZeroToNinetyNine) {
    for (KeyType t : kAllKeyTypes) {
        const auto keys = generateKeys(t, 500, Distribution::small, 7);
        for (size_t i = 0; i < 500; ++i) {
            const std::string k = formatKey(keys, i, t);
            const double v = std::stod(k);
            EXPECT_TRUE(v >= 0 && v <= 99 && v == std::floor(v)) << keyTypeName(t) << " key " << k;
        }
        EXPECT_EQ(keys, generateKeys(t, 500, Distribution::small, 7));
    }
}

// Every generated distribution's name reads back as it; custom has a name but is never parsed (its
// keys are given, not generated).
TEST(Distributions, NamesReadBack) {
    std::set<std::string_view> names;
    for (Distribution d : kAllDistributions) {
        const std::string_view name = distributionName(d);
        EXPECT_TRUE(names.insert(name).second) << name << " twice";
        EXPECT_EQ(parseDistribution(name), d) << name;
    }
    // The names sortlab-bench's --dist documents, in kAllDistributions' order.
    const std::vector<std::string_view> documented = {"uniform",    "sorted",        "reversed", "equal",
                                                      "few-unique", "nearly-sorted", "gaussian", "special",
                                                      "small",      "narrow",        "bits",     "runs"};
    ASSERT_EQ(std::size(kAllDistributions), documented.size());
    for (size_t i = 0; i < documented.size(); ++i) EXPECT_EQ(distributionName(kAllDistributions[i]), documented[i]);
    EXPECT_EQ(distributionName(Distribution::custom), "custom");
    EXPECT_FALSE(parseDistribution("custom"));
    EXPECT_FALSE(parseDistribution("Uniform"));
}

} // namespace
} // namespace sortlab
