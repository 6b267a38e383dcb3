// Bit ranges (SortConfig::beginBit/endBit, SortOptions): the radix sorts sort by order bits
// [beginBit, endBit) only.
//
// BitRangeSort.MatchesStableSortOfTheBits: radix4 and OneSweep, every key type x order, key-value
//   (the values are the input indices, so the order of equal keys shows), ranges inside one digit,
//   not aligned to 4 or 8 bits, across the two 32-bit words of 64-bit keys, at the top (the sign),
//   and the whole key; n spans several tiles (70 teaching tiles of 64 keys, 2 tuned tiles). The
//   result must equal a CPU stable sort by (orderBits >> beginBit) & mask exactly, and the plan
//   must run only the passes that cover the range.
// BitRangeTest.*: bad ranges give invalid_argument (empty, past the key, the odd-even network
//   with a part of the key, the one-call API), and the one-call API sorts a range.
#include <sortlab/testing/gpu_env.h>
#include <sortlab/testing/raw_keys.h>

#include <sortlab/sortlab.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>

namespace sortlab::test {
namespace {

struct Range {
    uint32_t begin, end; // end 0: the key's width
};

// The ranges each key type is sorted by.
std::vector<Range> rangesFor(KeyType t) {
    const uint32_t w = keyBits(t);
    std::vector<Range> r = {{0, 0}, {1, 3}, {3, 13}, {8, 16}, {w - 7, w}, {w - 1, w}, {5, w - 2}};
    if (w == 64) r.push_back({28, 37});
    return r;
}

// Random raw bits, with runs of repeats so that narrow ranges and whole keys both have ties.
std::vector<std::byte> randomKeys(KeyType t, uint64_t n, uint64_t seed) {
    return test::randomRawKeys(t, n, seed, 4);
}

// The expected result: the input stably sorted by bits [begin, end) of its order bits, with the
// input indices as values.
SortRun expectedSort(std::span<const std::byte> keys, const SortConfig& c) {
    const uint64_t n = keys.size() / keyBytes(c.key);
    const uint32_t bits = endBitOf(c) - c.beginBit;
    const uint64_t mask = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    std::vector<uint64_t> digit(n);
    for (uint64_t i = 0; i < n; ++i) digit[i] = (orderBitsAt(keys.data(), i, c.key, c.order) >> c.beginBit) & mask;
    std::vector<uint32_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0u);
    std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) { return digit[a] < digit[b]; });
    SortRun r;
    r.keys.resize(keys.size());
    for (uint64_t i = 0; i < n; ++i)
        std::memcpy(r.keys.data() + i * keyBytes(c.key), keys.data() + idx[i] * keyBytes(c.key), keyBytes(c.key));
    r.values = idx;
    return r;
}

// The digit passes a plan runs (radix4's scatters, OneSweep's passes).
size_t digitPasses(const Plan& p) {
    return std::count_if(p.steps.begin(), p.steps.end(), [](const Step& s) { return isDigitPass(s.kind); });
}
size_t expectedPasses(Algorithm a, const SortConfig& c) {
    if (a == Algorithm::radix4) return (endBitOf(c) - c.beginBit + 3) / 4;
    return (endBitOf(c) + 7) / 8 - c.beginBit / 8; // the bytes the range touches
}

struct BitRangeParam {
    Algorithm algorithm;
    KeyType key;
    Order order;
};

class BitRangeSort : public GpuTest, public ::testing::WithParamInterface<BitRangeParam> {};

TEST_P(BitRangeSort, MatchesStableSortOfTheBits) {
    const BitRangeParam& p = GetParam();
    auto sorter = makeSorter(ctx(), p.algorithm);
    ASSERT_TRUE(sorter.ok()) << sorter.error().message;
    size_t sorts = 0;
    for (const Range& range : rangesFor(p.key)) {
        for (uint32_t tileKeys : {64u, 0u}) {
            SortConfig cfg = sortConfig(p.key, /*values=*/true, p.order);
            cfg.beginBit = range.begin;
            cfg.endBit = range.end;
            cfg.knobs.radixTileKeys = tileKeys;
            uint64_t tile = 0;
            ASSERT_TRUE(plannedTile(**sorter, cfg, tile));
            // 70 teaching tiles: OneSweep's persistent passes on CPUs (from 64 tiles), dispatched as twins.
            const uint64_t n = tileKeys ? 70 * tile + 13 : 2 * tile + 7;
            SCOPED_TRACE(describe(cfg) + " bits [" + std::to_string(cfg.beginBit) + ", " +
                         std::to_string(endBitOf(cfg)) + ") n = " + std::to_string(n));
            auto plan = (*sorter)->plan(n, cfg);
            ASSERT_TRUE(plan.ok()) << plan.error().message;
            EXPECT_EQ(digitPasses(*plan), expectedPasses(p.algorithm, cfg));
            const auto keys = randomKeys(p.key, n, n * 31 + range.begin * 7 + range.end);
            std::vector<uint32_t> values(n);
            std::iota(values.begin(), values.end(), 0u);
            auto job = SortJob::create(ctx(), **sorter, n, cfg);
            ASSERT_TRUE(job.ok()) << job.error().message;
            SortRun got;
            ASSERT_TRUE(runJob(**job, keys, values, got));
            const SortRun want = expectedSort(keys, cfg);
            ASSERT_EQ(got.values, want.values) << "the values (input indices) differ";
            ASSERT_TRUE(got.keys == want.keys) << "the keys differ";
            ++sorts;
        }
    }
    EXPECT_EQ(sorts, 2 * rangesFor(p.key).size());
}

std::vector<BitRangeParam> allParams() {
    std::vector<BitRangeParam> v;
    for (Algorithm a : {Algorithm::radix4, Algorithm::onesweep})
        for (KeyType k : kAllKeyTypes)
            for (Order o : {Order::ascending, Order::descending}) v.push_back({a, k, o});
    return v;
}

INSTANTIATE_TEST_SUITE_P(All, BitRangeSort, ::testing::ValuesIn(allParams()),
                         [](const ::testing::TestParamInfo<BitRangeParam>& i) {
                             return std::string(algorithmName(i.param.algorithm)) + "_" +
                                    std::string(keyTypeName(i.param.key)) + "_" +
                                    (i.param.order == Order::ascending ? "asc" : "desc");
                         });

class BitRangeTest : public GpuTest {};

TEST_F(BitRangeTest, BadRangesAreInvalidArguments) {
    for (Algorithm a : {Algorithm::oddeven, Algorithm::radix4, Algorithm::onesweep}) {
        auto sorter = makeSorter(ctx(), a);
        ASSERT_TRUE(sorter.ok()) << sorter.error().message;
        for (KeyType k : {KeyType::u32, KeyType::f64}) {
            const uint32_t w = keyBits(k);
            for (Range bad : std::vector<Range>{{5, 5}, {9, 3}, {0, w + 1}, {w, 0}}) {
                SortConfig cfg = sortConfig(k, false, Order::ascending);
                cfg.beginBit = bad.begin;
                cfg.endBit = bad.end;
                auto plan = (*sorter)->plan(1000, cfg);
                ASSERT_FALSE(plan.ok()) << algorithmName(a) << " [" << bad.begin << ", " << bad.end << ")";
                EXPECT_EQ(plan.error().code, Errc::invalid_argument);
            }
            SortConfig part = sortConfig(k, false, Order::ascending);
            part.beginBit = 4;
            auto plan = (*sorter)->plan(1000, part);
            EXPECT_EQ(plan.ok(), a != Algorithm::oddeven) << algorithmName(a); // the network: whole keys only
            if (!plan.ok()) {
                EXPECT_EQ(plan.error().code, Errc::invalid_argument);
            }
            SortConfig whole = sortConfig(k, false, Order::ascending);
            whole.endBit = w; // the key's width, spelt out
            EXPECT_TRUE((*sorter)->plan(1000, whole).ok()) << algorithmName(a);
        }
    }
}

TEST_F(BitRangeTest, OneCallApiSortsARange) {
    std::vector<int32_t> keys(3000);
    std::mt19937 rng(7);
    for (int32_t& k : keys) k = int32_t(rng());
    const auto input = keys;
    std::vector<uint32_t> values(keys.size());
    std::iota(values.begin(), values.end(), 0u);
    // Bits [8, 20) of i32 order bits are bits [8, 20) of the raw key (only bit 31 is flipped).
    auto r = sortPairs(ctx(), std::span(keys), std::span(values), {.beginBit = 8, .endBit = 20});
    ASSERT_TRUE(r.ok()) << r.error().message;
    std::vector<uint32_t> idx(keys.size());
    std::iota(idx.begin(), idx.end(), 0u);
    auto field = [&](uint32_t i) { return (uint32_t(input[i]) >> 8) & 0xfffu; };
    std::stable_sort(idx.begin(), idx.end(), [&](uint32_t a, uint32_t b) { return field(a) < field(b); });
    EXPECT_EQ(values, idx);
    for (size_t i = 0; i < keys.size(); ++i) ASSERT_EQ(keys[i], input[idx[i]]) << i;

    std::vector<float> none;
    for (auto opts : {SortOptions{.beginBit = 3, .endBit = 3}, SortOptions{.endBit = 33},
                      SortOptions{.algorithm = Algorithm::oddeven, .beginBit = 1}}) {
        auto bad = sort(ctx(), std::span(none), opts); // checked before the n < 2 shortcut
        ASSERT_FALSE(bad.ok());
        EXPECT_EQ(bad.error().code, Errc::invalid_argument);
    }
}

} // namespace
} // namespace sortlab::test
