// GPU correctness of the odd-even sort against std::stable_sort (referenceSort + compareSorted,
// stable = false: a sorting network is not stable, so values are compared as a multiset within
// each run of equal keys; keys must match bit for bit).
//
// One test instance per (variant, key type, keys-only/key-value, order); 4 x 6 x 2 x 2 = 96. Each
// runs the sizes {0, 1, 2, 3, T-1, T, T+1, 2^k, 2^k+1, a random odd size between T and 2^k}, T
// being the plan's tile (Plan::tileKeys). Variants:
//   Fused     the default plan: T = one subgroup window (256 keys on lavapipe), 2^k = max(2T, 8192),
//             large enough for windows with halo of one and of several columns;
//   PerLayer  one dispatch per layer, the same sizes as Fused;
//   Shared64  SortKnobs::oddEvenTileKeys = 64, 2^k = 1024;
//   Shared256 SortKnobs::oddEvenTileKeys = 256, 2^k = 4096.
// Small tiles make small n reach every fused step kind (tile, window with and without halo); the
// per-layer plans hold the layer steps; each instance asserts that its plans did. Every
// distribution runs at sizes up to kAllDistsUpTo; larger sizes run 3 of the 8, rotated over the
// instances so that every distribution meets every size class somewhere in the suite (lavapipe is
// slow). Plus one sort of 1000003 u32 keys with the default plan.
#include <sortlab/testing/gpu_env.h>

#include <sortlab/oddeven.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <set>

namespace sortlab::test {
namespace {

// The variants above: the tag that starts an instance's name (the ctest filters select by it), the
// knobs, 2^k (0: max(2T, 8192)) and the step kinds the variant's plans must contain.
struct Variant {
    const char* tag;
    bool perLayer;
    uint32_t tileKeys; // SortKnobs::oddEvenTileKeys
    uint64_t pow2;
    std::set<std::string> kinds;
};
const Variant kVariants[] = {
    {"Fused", false, 0, 0, {"tile", "window", "window+halo"}},
    {"PerLayer", true, 0, 0, {"layer"}},
    {"Shared64", false, 64, 1024, {"tile", "window", "window+halo"}},
    {"Shared256", false, 256, 4096, {"tile", "window", "window+halo"}},
};

struct SortParam {
    size_t variant; // in kVariants
    KeyType key;
    bool values;
    Order order;
};

std::string paramName(const SortParam& p) {
    return std::string(kVariants[p.variant].tag) + "_" + std::string(keyTypeName(p.key)) +
           (p.values ? "_kv_" : "_keys_") + std::string(orderName(p.order));
}

SortConfig configFor(const SortParam& p) {
    SortConfig c = sortConfig(p.key, p.values, p.order);
    c.knobs.perLayer = kVariants[p.variant].perLayer;
    c.knobs.oddEvenTileKeys = kVariants[p.variant].tileKeys;
    return c;
}

constexpr uint64_t kAllDistsUpTo = 300;

class GpuSort : public GpuTest, public ::testing::WithParamInterface<SortParam> {};

TEST_P(GpuSort, MatchesStableSort) {
    const SortParam p = GetParam();
    const Variant& variant = kVariants[p.variant];
    const SortConfig cfg = configFor(p);
    const size_t paramIndex =
        p.variant * 24 + static_cast<size_t>(p.key) * 4 + p.values * 2 + static_cast<size_t>(p.order);

    // The tile the plan uses (per-layer plans use the same sizes as the fused ones).
    SortConfig tileCfg = cfg;
    tileCfg.knobs.perLayer = false;
    auto probe = sorter().plan(2, tileCfg);
    ASSERT_TRUE(probe.ok()) << probe.error().message;
    const uint64_t T = probe->tileKeys;
    if (cfg.knobs.oddEvenTileKeys) {
        ASSERT_EQ(T, cfg.knobs.oddEvenTileKeys);
    }
    const uint64_t pow2 = variant.pow2 ? variant.pow2 : std::max<uint64_t>(2 * T, 8192);
    std::mt19937_64 rng(1000 + paramIndex);
    const uint64_t randomOdd = (T + 2 + rng() % (pow2 - T - 2)) | 1;
    const std::vector<uint64_t> sizes = {0, 1, 2, 3, T - 1, T, T + 1, pow2, pow2 + 1, randomOdd};

    std::set<std::string> kinds;
    size_t sorts = 0;
    for (size_t si = 0; si < sizes.size(); ++si) {
        const uint64_t n = sizes[si];
        auto job = SortJob::create(ctx(), sorter(), n, cfg);
        ASSERT_TRUE(job.ok()) << "n = " << n << ": " << job.error().message;
        for (const Step& s : (*job)->plan().steps)
            kinds.insert(s.kind == StepKind::window && s.halo ? "window+halo" : std::string(stepKindName(s.kind)));
        if (cfg.knobs.perLayer) {
            for (const Step& s : (*job)->plan().steps) EXPECT_EQ(s.kind, StepKind::layer);
            EXPECT_EQ((*job)->plan().steps.size(), oddeven::layers(n).size());
        }
        std::vector<Distribution> dists;
        for (size_t d = 0; d < std::size(kAllDistributions); ++d)
            if (n <= kAllDistsUpTo || (d + paramIndex + si) % 8 < 3) dists.push_back(kAllDistributions[d]);
        // A failure ends this size (one message, not eight) but not the other sizes.
        for (Distribution d : dists) {
            SCOPED_TRACE(describe(cfg) + ", n = " + std::to_string(n) + ", " + std::string(distributionName(d)));
            const auto keys = generateKeys(cfg.key, n, d, n * 131 + static_cast<uint64_t>(d));
            const auto values = valuesFor(cfg, n);
            SortRun got;
            const auto ran = runJob(**job, keys, values, got);
            EXPECT_TRUE(ran);
            if (!ran) break;
            const auto same = matchesReference(keys, values, got, cfg);
            EXPECT_TRUE(same);
            if (!same) break;
            ++sorts;
        }
    }
    if (!HasFailure()) {
        EXPECT_GE(sorts, 4u * 8u + 6u * 3u);
    }
    // The plans must really contain the step kinds this variant is meant to exercise.
    for (const auto& k : variant.kinds)
        EXPECT_TRUE(kinds.count(k)) << "no '" << k << "' step in any plan of " << describe(cfg);
}

std::vector<SortParam> allParams() {
    std::vector<SortParam> out;
    for (size_t v = 0; v < std::size(kVariants); ++v)
        for (KeyType t : kAllKeyTypes)
            for (bool kv : {false, true})
                for (Order o : {Order::ascending, Order::descending}) out.push_back({v, t, kv, o});
    return out;
}

INSTANTIATE_TEST_SUITE_P(All, GpuSort, ::testing::ValuesIn(allParams()),
                         [](const auto& info) { return paramName(info.param); });

// One large sort: a million odd keys, the default plan (all step kinds at the device's tile).
TEST_F(GpuTest, LargeU32Sort) {
    const uint64_t n = 1000003;
    SortConfig cfg; // u32 keys-only ascending, fused
    auto job = SortJob::create(ctx(), sorter(), n, cfg);
    ASSERT_TRUE(job.ok()) << job.error().message;
    std::set<std::string> kinds;
    for (const Step& s : (*job)->plan().steps)
        kinds.insert(s.kind == StepKind::window && s.halo ? "window+halo" : std::string(stepKindName(s.kind)));
    EXPECT_TRUE(kinds.count("tile") && kinds.count("window+halo")) << "expected tile and halo-window steps";
    const auto keys = generateKeys(cfg.key, n, Distribution::uniform, 77);
    SortRun got;
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_TRUE(runJob(**job, keys, {}, got));
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_TRUE(matchesReference(keys, {}, got, cfg));
    std::printf("[sortlab] %llu u32 keys: %zu steps, upload+sort+download %.0f ms\n",
                static_cast<unsigned long long>(n), (*job)->plan().steps.size(), ms);
}

} // namespace
} // namespace sortlab::test
