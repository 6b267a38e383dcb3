// Host-only tests of the app's own logic (no window, no Vulkan device): the comparator count the
// explanation panel shows, bar heights of typed keys, the algorithm names and the script parser.
#include <sortlab/app/options.h>
#include <sortlab/app/settings.h>
#include <sortlab/app/sort_worker.h>

#include <sortlab/oddeven.h>

#include <gtest/gtest.h>

#include <tuple>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

namespace sortlab::app {
namespace {

TEST(AppCounters, ComparatorsInLayerMatchesTheNetwork) {
    for (uint64_t n = 0; n <= 300; ++n)
        for (const auto& layer : oddeven::layers(n)) {
            uint64_t visited = 0;
            oddeven::forEachComparator(n, layer, [&](uint64_t, uint64_t) { ++visited; });
            ASSERT_EQ(oddeven::comparatorsInLayer(n, layer), visited)
                << "n " << n << ", p 2^" << layer.logP << ", k 2^" << layer.logK;
        }
}

TEST(AppCounters, WholeNetworkOfAPowerOfTwo) {
    // Batcher: (k^2 - k + 4) 2^(k-2) - 1 comparators for n = 2^k.
    const uint32_t k = 16;
    uint64_t total = 0;
    for (const auto& layer : oddeven::layers(uint64_t(1) << k))
        total += oddeven::comparatorsInLayer(uint64_t(1) << k, layer);
    EXPECT_EQ(total, (uint64_t(k) * k - k + 4) * (uint64_t(1) << (k - 2)) - 1);
}

TEST(AppHeights, FloatsByValueWithNaNAndInfinitiesAtTheEnds) {
    const float keys[] = {-1.0f,
                          0.0f,
                          1.0f,
                          std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN(),
                          -std::numeric_limits<float>::quiet_NaN()};
    const auto* raw = reinterpret_cast<const std::byte*>(keys);
    EXPECT_FLOAT_EQ(keyHeightIn(raw, 0, KeyType::f32, -1, 1), 0.0f);
    EXPECT_FLOAT_EQ(keyHeightIn(raw, 1, KeyType::f32, -1, 1), 0.5f);
    EXPECT_FLOAT_EQ(keyHeightIn(raw, 2, KeyType::f32, -1, 1), 1.0f);
    EXPECT_FLOAT_EQ(keyHeightIn(raw, 3, KeyType::f32, -1, 1), 1.0f);
    EXPECT_FLOAT_EQ(keyHeightIn(raw, 4, KeyType::f32, -1, 1), 0.0f);
    EXPECT_FLOAT_EQ(keyHeightIn(raw, 5, KeyType::f32, -1, 1), 1.0f);
    EXPECT_FLOAT_EQ(keyHeightIn(raw, 6, KeyType::f32, -1, 1), 0.0f);
}

TEST(AppHeights, SignedIntegersByValue) {
    const int64_t keys[] = {-5, 0, 5};
    const auto* raw = reinterpret_cast<const std::byte*>(keys);
    EXPECT_LT(keyHeightIn(raw, 0, KeyType::i64, -5, 5), keyHeightIn(raw, 1, KeyType::i64, -5, 5));
    EXPECT_LT(keyHeightIn(raw, 1, KeyType::i64, -5, 5), keyHeightIn(raw, 2, KeyType::i64, -5, 5));
}

// The app's menu and --algo are the library's variant table: every name means the same plan as in
// sortlab-bench.
TEST(AppSettings, AlgorithmNames) {
    SortSettings s;
    EXPECT_EQ(s.algo, Variant::oddevenLayer) << "the app starts on the network to step through";
    // name -> variant, and whether the odd-even plan runs one step per layer
    const std::tuple<const char*, Variant, bool> names[] = {
        {"oddeven", Variant::oddeven, false},
        {"oddeven-layer", Variant::oddevenLayer, true},
        {"oddeven-fused", Variant::oddeven, false}, // the app's old name for the fused plan
    };
    for (auto [name, variant, perLayer] : names) {
        ASSERT_TRUE(applySetting(s, "algo", name).ok()) << name;
        EXPECT_EQ(s.algo, variant) << name;
        EXPECT_EQ(s.config().perLayer, perLayer) << name;
    }
    EXPECT_FALSE(applySetting(s, "algo", "bubble").ok());
    for (const VariantInfo& v : variants()) {
        ASSERT_TRUE(applySetting(s, "algo", std::string(v.name)).ok()) << v.name;
        EXPECT_EQ(s.algo, v.variant);
        EXPECT_EQ(variantName(s.algorithm(), s.config()), v.plan) << v.name;
    }
}

TEST(AppSettings, ApplySetting) {
    SortSettings s;
    EXPECT_TRUE(applySetting(s, "n", "2^10").ok());
    EXPECT_EQ(s.n, 1024u);
    EXPECT_TRUE(applySetting(s, "type", "f64").ok());
    EXPECT_EQ(s.key, KeyType::f64);
    EXPECT_TRUE(applySetting(s, "values", "u32").ok());
    EXPECT_TRUE(s.keyValue);
    EXPECT_FALSE(applySetting(s, "n", "12x").ok());
    EXPECT_FALSE(applySetting(s, "n", "0").ok());
    EXPECT_FALSE(applySetting(s, "order", "up").ok());
    EXPECT_FALSE(applySetting(s, "colour", "red").ok());
}

// OneSweep's forced fallback: the bench's algorithm name, and a setting of its own (scripts).
TEST(AppSettings, OneSweepForcedFallback) {
    SortSettings s;
    EXPECT_TRUE(applySetting(s, "algo", "onesweep-fallback").ok());
    EXPECT_EQ(s.algo, Variant::onesweepFallback);
    EXPECT_TRUE(s.config().forceFallback);
    EXPECT_TRUE(applySetting(s, "force-fallback", "off").ok());
    EXPECT_EQ(s.algo, Variant::onesweep);
    EXPECT_FALSE(s.config().forceFallback);
    EXPECT_TRUE(applySetting(s, "force-fallback", "on").ok());
    EXPECT_TRUE(s.forceFallback);
    EXPECT_TRUE(s.config().forceFallback);
    EXPECT_FALSE(applySetting(s, "force-fallback", "yes").ok());
}

TEST(AppScript, ParsesActionsAndRejectsUnknownOnes) {
    const std::string path = testing::TempDir() + "/app_unit.script";
    {
        std::ofstream out(path);
        out << "# comment\nn 13   # trailing comment\nstep +2\n\nscreenshot a.png\nframes 5\n";
    }
    auto a = readScript(path);
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_EQ(a->size(), 4u);
    EXPECT_EQ((*a)[0].verb, "set");
    EXPECT_EQ((*a)[0].args, (std::vector<std::string>{"n", "13"}));
    EXPECT_EQ((*a)[1].verb, "step");
    EXPECT_EQ((*a)[2].args[0], "a.png");
    EXPECT_EQ((*a)[3].line, 6);
    {
        std::ofstream out(path);
        out << "n 13\nfly away\n";
    }
    auto bad = readScript(path);
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find(":2: unknown action 'fly'"), std::string::npos) << bad.error().message;
    EXPECT_FALSE(readScript(testing::TempDir() + "/no/such/file").ok());
}

// The benchmark panel's actions: bench-run takes sortlab-bench's flags, checked when the script is read.
TEST(AppScript, BenchActions) {
    const std::string path = testing::TempDir() + "/app_bench.script";
    {
        std::ofstream out(path);
        out << "bench on\nbench-run --algo radix4,std --sizes 2^10..2^12 --reps 2\nbench-wait\nbench-cancel\n"
               "bench-export out\nmouse 10 20\nmouse off\nkey B\n";
    }
    auto a = readScript(path);
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_EQ(a->size(), 8u);
    EXPECT_EQ((*a)[1].verb, "bench-run");
    EXPECT_EQ((*a)[1].args.size(), 6u);
    EXPECT_TRUE((*a)[2].args.empty());
    EXPECT_EQ((*a)[4].args[0], "out");
    for (const char* wrong : {"bench-run --algo bubble\n", "bench-export\n", "mouse\n"}) {
        {
            std::ofstream out(path);
            out << wrong;
        }
        EXPECT_FALSE(readScript(path).ok()) << wrong;
    }
}

} // namespace
} // namespace sortlab::app
