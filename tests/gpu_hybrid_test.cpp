// The hybrid sort (Algorithm::hybrid) on the GPU, against std::stable_sort.
//
// All/HybridSort.MatchesStableSort/KEY[_kv]_ORDER: every key type (u32, i32, f32, u64, i64, f64),
//   keys only and with u32 values, in alternating orders, at sizes around its bucket tile T (0, 1, 2, 3, T-1,
//   T, T+1, 5T+7) and 70001, every distribution (equal, small and narrow keys put every key in one
//   bucket larger than T: the bucket sort's global-memory path); stable (the values match exactly).
// HybridTest.ManyBuckets: 2^18 u32 keys: uniform (65536 buckets of about 4), only the top 16 bits
//   random (each bucket's low bits equal), only the top 8 (256 buckets of about 1024), keys below
//   2^20 (16 buckets of about 16384: larger than T), one bucket of 2^17 keys beside uniform ones.
// HybridTest.ManyBuckets64: the same shapes of 2^17 u64 keys with values (the top 16 of 64 bits).
// HybridTest.WarmUpCoversLaterPlans: after warmUp(config, 2^24) (lavapipe: 2^20), planning at powers
//   of two, their neighbours and random sizes up to it creates no pipeline (the hybrid's own or the
//   MSD part's).
// HybridTest.RefusesWhatItDoesNotSort: bit ranges and the knobs it does not take return
//   invalid_argument with a message, and plan nothing.
// HybridTest.RefusesMoreKeysOnLavapipe: there, 2^20 + 1 32-bit keys and 2^18 + 1 64-bit keys are
//   too_large (a message that names lavapipe) and 2^20 and 2^18 plan; elsewhere both plan.
#include <sortlab/testing/gpu_env.h>

#include <cstring>
#include <random>

namespace sortlab::test {
namespace {

class HybridTest : public AlgorithmTest<Algorithm::hybrid> {
protected:
    Sorter& hybrid() { return algorithmSorter(); }
};

class HybridSort : public HybridTest, public ::testing::WithParamInterface<RadixParam> {};

// Steps: OneSweep's histogram, scan, two passes and result; the bounds; the bucket sort.
constexpr size_t kSteps = 7;

TEST_P(HybridSort, MatchesStableSort) {
    const SortConfig cfg = configFor(GetParam());
    uint64_t T = 0;
    ASSERT_TRUE(plannedTile(hybrid(), cfg, T));
    StableSortSweep sweep;
    sweep.sizes = {0, 1, 2, 3, T - 1, T, T + 1, 5 * T + 7, 70001};
    sweep.keepOf8 = 8;
    sweep.seedPerN = 7;
    sweep.steps = kSteps;
    const size_t sorts = sortsMatchingStableSort(ctx(), hybrid(), cfg, sweep);
    if (!HasFailure()) {
        EXPECT_EQ(sorts, sweep.sizes.size() * std::size(kAllDistributions));
    }
}

// Each key type keys only and with values, the orders alternating (every combination would double
// the cold-cache pipeline builds on lavapipe; the order is one constant of shared code, keys.glsl):
// the hybrid's own code differs by key width and by values.
std::vector<RadixParam> hybridParams() {
    std::vector<RadixParam> out;
    for (size_t t = 0; t < std::size(kAllKeyTypes); ++t)
        for (bool values : {false, true})
            out.push_back({kAllKeyTypes[t], values, (t + values) % 2 ? Order::descending : Order::ascending});
    return out;
}

INSTANTIATE_TEST_SUITE_P(All, HybridSort, ::testing::ValuesIn(hybridParams()),
                         [](const auto& info) { return radixParamName(info.param, false); });

// The keys `input` (u32, or u64 with values), sorted by the hybrid and checked against the reference.
template <class T> void sortsKeys(Context& ctx, Sorter& sorter, const std::vector<T>& input, const std::string& name) {
    SCOPED_TRACE(name + ", n = " + std::to_string(input.size()));
    const SortConfig cfg = sortConfig(sizeof(T) == 4 ? KeyType::u32 : KeyType::u64, sizeof(T) == 8, Order::ascending);
    std::vector<std::byte> keys(input.size() * sizeof(T));
    std::memcpy(keys.data(), input.data(), keys.size());
    const std::vector<uint32_t> values = valuesFor(cfg, input.size());
    std::unique_ptr<SortJob> job;
    ASSERT_TRUE(uploadedJob(ctx, sorter, cfg, keys, values, job));
    SortRun got;
    ASSERT_TRUE(runJob(*job, keys, values, got));
    EXPECT_TRUE(matchesReference(keys, values, got, cfg, /*stable=*/true));
}

TEST_F(HybridTest, ManyBuckets) {
    const size_t n = size_t(1) << 18;
    std::mt19937 rng(51);
    auto keysWith = [&](auto&& f) {
        std::vector<uint32_t> k(n);
        for (size_t i = 0; i < n; ++i) k[i] = f(i, uint32_t(rng()));
        return k;
    };
    sortsKeys(ctx(), hybrid(), keysWith([](size_t, uint32_t r) { return r; }), "uniform");
    sortsKeys(ctx(), hybrid(), keysWith([](size_t, uint32_t r) { return r & 0xffff0000u; }), "top 16 bits random");
    sortsKeys(ctx(), hybrid(), keysWith([](size_t, uint32_t r) { return r & 0xff000000u; }), "top 8 bits random");
    sortsKeys(ctx(), hybrid(), keysWith([](size_t, uint32_t r) { return r >> 12; }), "below 2^20");
    sortsKeys(ctx(), hybrid(), keysWith([](size_t i, uint32_t r) { return i % 2 ? 0x12340000u | (r & 0xffffu) : r; }),
              "one bucket of half the keys");
}

TEST_F(HybridTest, ManyBuckets64) {
    const size_t n = size_t(1) << 17;
    std::mt19937_64 rng(64);
    auto keysWith = [&](auto&& f) {
        std::vector<uint64_t> k(n);
        for (size_t i = 0; i < n; ++i) k[i] = f(i, rng());
        return k;
    };
    const uint64_t top16 = 0xffff000000000000ull, top8 = 0xff00000000000000ull;
    sortsKeys(ctx(), hybrid(), keysWith([](size_t, uint64_t r) { return r; }), "uniform");
    sortsKeys(ctx(), hybrid(), keysWith([&](size_t, uint64_t r) { return r & top16; }), "top 16 bits random");
    sortsKeys(ctx(), hybrid(), keysWith([&](size_t, uint64_t r) { return r & top8; }), "top 8 bits random");
    sortsKeys(ctx(), hybrid(), keysWith([](size_t, uint64_t r) { return r >> 44; }), "below 2^20");
    sortsKeys(ctx(), hybrid(), keysWith([](size_t, uint64_t r) { return r & 0xffff; }), "in one bucket, below 2^16");
    sortsKeys(ctx(), hybrid(),
              keysWith([](size_t i, uint64_t r) { return i % 2 ? 0x1234000000000000ull | (r >> 16) : r; }),
              "one bucket of half the keys");
}

TEST_F(HybridTest, WarmUpCoversLaterPlans) {
    const uint64_t maxN = uint64_t(1) << (ctx().info().isLavapipe ? 20 : 24); // (lavapipe: at most 2^20 keys)
    for (const SortConfig& cfg :
         {sortConfig(KeyType::u32, false, Order::ascending), sortConfig(KeyType::f32, false, Order::descending)}) {
        SCOPED_TRACE(describe(cfg));
        auto sorter = makeSorter(ctx(), Algorithm::hybrid); // its own pipelines: none made yet
        ASSERT_TRUE(sorter.ok()) << sorter.error().message;
        const uint64_t before = ctx().pipelinesCreated();
        ASSERT_TRUE((*sorter)->warmUp(cfg, maxN).ok());
        const uint64_t warmed = ctx().pipelinesCreated();
        EXPECT_GT(warmed, before);
        std::vector<uint64_t> sizes{1, 2, 3, maxN - 1, maxN};
        for (uint64_t p = 4; p <= maxN; p *= 2) sizes.insert(sizes.end(), {p - 1, p, p + 1, 3 * p / 2});
        std::mt19937_64 rng(24);
        for (int i = 0; i < 200; ++i) sizes.push_back(1 + rng() % maxN);
        for (uint64_t n : sizes) {
            if (n > maxN) continue;
            auto p = (*sorter)->plan(n, cfg);
            ASSERT_TRUE(p.ok()) << "n = " << n << ": " << p.error().message;
            ASSERT_EQ(ctx().pipelinesCreated(), warmed) << "planning n = " << n << " created a pipeline";
        }
    }
}

TEST_F(HybridTest, RefusesWhatItDoesNotSort) {
    struct Case {
        const char* name;
        SortConfig cfg;
    };
    std::vector<Case> cases;
    SortConfig range = sortConfig(KeyType::u32, false, Order::ascending);
    range.beginBit = 8;
    cases.push_back({"bit range", range});
    SortConfig range64 = sortConfig(KeyType::u64, true, Order::ascending);
    range64.endBit = 40;
    cases.push_back({"bit range of a u64 key", range64});
    SortConfig either = sortConfig(KeyType::u32, false, Order::ascending);
    either.knobs.resultInEither = true;
    cases.push_back({"resultInEither", either});
    SortConfig log = sortConfig(KeyType::f64, false, Order::ascending);
    log.knobs.logLookback = true;
    cases.push_back({"logLookback", log});
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(c.name) + ": " + describe(c.cfg));
        auto plan = hybrid().plan(1000, c.cfg);
        ASSERT_FALSE(plan.ok());
        EXPECT_EQ(plan.error().code, Errc::invalid_argument);
        EXPECT_NE(plan.error().message.find("hybrid"), std::string::npos) << plan.error().message;
    }
}

// lavapipe ends an invocation's loops after 65535 iterations in all, fewer than the one workgroup
// that sorts a bucket of over about 2^20 32-bit keys (2^18 64-bit ones: three times the passes)
// needs: the hybrid sort refuses more keys there.
TEST_F(HybridTest, RefusesMoreKeysOnLavapipe) {
    for (auto [key, log2] : {std::pair{KeyType::f32, 20}, std::pair{KeyType::i64, 18}}) {
        const SortConfig cfg = sortConfig(key, true, Order::ascending);
        SCOPED_TRACE(describe(cfg));
        auto plan = hybrid().plan((uint64_t(1) << log2) + 1, cfg);
        if (!ctx().info().isLavapipe) {
            EXPECT_TRUE(plan.ok()) << plan.error().message;
            continue;
        }
        ASSERT_FALSE(plan.ok());
        EXPECT_EQ(plan.error().code, Errc::too_large);
        EXPECT_NE(plan.error().message.find("lavapipe"), std::string::npos) << plan.error().message;
        EXPECT_NE(plan.error().message.find("2^" + std::to_string(log2)), std::string::npos) << plan.error().message;
        EXPECT_TRUE(hybrid().plan(uint64_t(1) << log2, cfg).ok());
    }
}

} // namespace
} // namespace sortlab::test
