// Sorter::warmUp and Context::setPipelineCache.
//
// WarmUpTest.LaterPlansCreateNoPipeline: for each algorithm and a few configs, after warmUp(config,
//   maxN) planning at many sizes up to maxN (powers of two and their neighbours, tuning-row and
//   tile-schedule boundaries among them, random sizes, maxN) creates no pipeline
//   (Context::pipelinesCreated() unchanged), while the warm-up itself created some.
// WarmUpTest.PipelinesGoThroughTheCallersCache: a VkPipelineCache given to adopt() or the setter
//   is the context's, warm-ups through it make pipelines (and fill it, where the driver keeps
//   data), with no validation message, and a sort planned afterwards is right.
#include <sortlab/testing/gpu_env.h>

#include <sortlab/sortlab.h>

#include <volk.h> // the library's own Vulkan entry points (sortlab_vk_names)

#include <random>

namespace sortlab::test {
namespace {

class WarmUpTest : public GpuTest {};

// Sizes to plan after a warm-up to maxN: around every power of two, and random ones.
std::vector<uint64_t> sizesUpTo(uint64_t maxN, uint64_t seed) {
    std::vector<uint64_t> sizes{1, 2, 3, maxN - 1, maxN};
    for (uint64_t p = 4; p <= maxN; p *= 2) sizes.insert(sizes.end(), {p - 1, p, p + 1, 3 * p / 2});
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 200; ++i) sizes.push_back(1 + rng() % maxN);
    for (int i = 0; i < 50; ++i) sizes.push_back(1 + rng() % (maxN < 100000 ? maxN : 100000));
    return sizes;
}

TEST_F(WarmUpTest, LaterPlansCreateNoPipeline) {
    const uint64_t maxN = uint64_t(1) << 24;
    for (Algorithm a : {Algorithm::oddeven, Algorithm::radix4, Algorithm::onesweep}) {
        for (SortConfig cfg :
             {sortConfig(KeyType::u32, false, Order::ascending), sortConfig(KeyType::u32, true, Order::descending),
              sortConfig(KeyType::f64, true, Order::ascending)}) {
            if (a != Algorithm::oddeven) cfg.beginBit = 3; // a bit range: warmUp covers it too
            SCOPED_TRACE(std::string(algorithmName(a)) + " " + describe(cfg));
            auto sorter = makeSorter(ctx(), a);
            ASSERT_TRUE(sorter.ok()) << sorter.error().message;
            const uint64_t before = ctx().pipelinesCreated();
            auto warm = (*sorter)->warmUp(cfg, maxN);
            ASSERT_TRUE(warm.ok()) << warm.error().message;
            const uint64_t warmed = ctx().pipelinesCreated();
            EXPECT_GT(warmed, before) << "the warm-up created no pipeline";
            for (uint64_t n : sizesUpTo(maxN, maxN + static_cast<uint64_t>(a))) {
                auto p = (*sorter)->plan(n, cfg);
                ASSERT_TRUE(p.ok()) << "n = " << n << ": " << p.error().message;
                ASSERT_EQ(ctx().pipelinesCreated(), warmed) << "planning n = " << n << " created a pipeline";
            }
            // radix4 sorts a bit range with the whole key's pipelines; OneSweep builds masked ones
            // for a range (SORTLAB_SPEC_BIT_RANGE), so that the whole key runs its tuned kernels.
            cfg.beginBit = 0;
            ASSERT_TRUE((*sorter)->plan(maxN, cfg).ok());
            if (a == Algorithm::onesweep)
                EXPECT_GT(ctx().pipelinesCreated(), warmed) << "the whole key ran the bit range's masked pipelines";
            else
                EXPECT_EQ(ctx().pipelinesCreated(), warmed) << "the whole key needed other pipelines";
        }
    }
}

TEST_F(WarmUpTest, RefusesWhatPlanRefuses) {
    auto sorter = makeSorter(ctx(), Algorithm::radix4);
    ASSERT_TRUE(sorter.ok());
    SortConfig bad = sortConfig(KeyType::u32, false, Order::ascending);
    bad.endBit = 40;
    auto r = (*sorter)->warmUp(bad, 1000);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, Errc::invalid_argument);
    auto big = (*sorter)->warmUp(SortConfig{}, uint64_t(1) << 33); // radix4 sorts at most 2^32 - 1
    ASSERT_FALSE(big.ok());
    EXPECT_EQ(big.error().code, Errc::too_large);
}

size_t cacheBytes(VkDevice device, VkPipelineCache cache) {
    size_t bytes = 0;
    EXPECT_EQ(vkGetPipelineCacheData(device, cache, &bytes, nullptr), VK_SUCCESS);
    return bytes;
}

// Debian 12's lavapipe keeps nothing in a VkPipelineCache (its data stays the 32-byte header), so
// there the test can check that the cache is passed on and used without a validation message and
// the sorts stay right, not that the driver stored anything; on other devices it checks that too.
TEST_F(WarmUpTest, PipelinesGoThroughTheCallersCache) {
    VkPipelineCacheCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    VkPipelineCache cache = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreatePipelineCache(ctx().device(), &ci, nullptr, &cache), VK_SUCCESS);
    const size_t empty = cacheBytes(ctx().device(), cache);
    AdoptInfo info = adoptInfoOf(ctx());
    info.pipelineCache = cache;
    auto adopted = Context::adopt(info);
    ASSERT_TRUE(adopted.ok()) << adopted.error().message;
    Context& other = **adopted;
    EXPECT_EQ(other.pipelineCache(), cache);
    {
        auto sorter = makeSorter(other, Algorithm::onesweep);
        ASSERT_TRUE(sorter.ok()) << sorter.error().message;
        const SortConfig cfg = sortConfig(KeyType::i32, true, Order::ascending);
        const uint64_t before = other.pipelinesCreated();
        ASSERT_TRUE((*sorter)->warmUp(cfg, 100000).ok());
        EXPECT_GT(other.pipelinesCreated(), before);
        if (other.info().type != VK_PHYSICAL_DEVICE_TYPE_CPU)
            EXPECT_GT(cacheBytes(other.device(), cache), empty) << "the pipelines did not go through the cache";
        std::vector<std::byte> keys(5000 * 4);
        std::mt19937 rng(3);
        for (auto& b : keys) b = std::byte(rng());
        const auto values = valuesFor(cfg, 5000);
        auto job = SortJob::create(other, **sorter, 5000, cfg);
        ASSERT_TRUE(job.ok()) << job.error().message;
        SortRun got;
        ASSERT_TRUE(runJob(**job, keys, values, got));
        EXPECT_TRUE(matchesReference(keys, values, got, cfg, /*stable=*/true));
    }
    expectNoValidationMessages(other, "sorting through the caller's pipeline cache");
    ctx().setPipelineCache(cache); // the setter, on the shared context
    EXPECT_EQ(ctx().pipelineCache(), cache);
    auto sorter = makeSorter(ctx(), Algorithm::radix4);
    ASSERT_TRUE(sorter.ok());
    EXPECT_TRUE((*sorter)->warmUp(sortConfig(KeyType::u64, false, Order::descending), 1000).ok());
    ctx().setPipelineCache(VK_NULL_HANDLE);
    adopted->reset();
    vkDestroyPipelineCache(ctx().device(), cache, nullptr);
}

} // namespace
} // namespace sortlab::test
