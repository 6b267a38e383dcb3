// sortlab::sort and sortPairs (sortlab/sortlab.h): every key type and algorithm (the hybrid and
// Algorithm::automatic too) against std::sort (the installed copy of the library is tested by
// examples/consumer), sizes that change between calls on one context (its kept buffers are
// replaced), 0 and 1 keys, pairs stable with many equal keys (oddeven refused for pairs), a values
// span of the wrong size refused, timeline semaphores waited on and signalled (refused on a device
// without the feature), and what Algorithm::automatic picks and says (SortReport).
#include <sortlab/testing/gpu_env.h>
#include <sortlab/testing/timeline.h>

#include <sortlab/sortlab.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

namespace sortlab::test {
namespace {

template <class T> std::vector<T> keysOf(size_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    for (T& x : v) {
        if constexpr (std::is_floating_point_v<T>)
            x = T(std::uniform_real_distribution<double>(-1e3, 1e3)(rng));
        else
            x = T(int64_t(rng() % 200) - (std::is_signed_v<T> ? 100 : 0));
    }
    return v;
}

template <class T> void sortsLikeStd(Context& ctx, Algorithm algorithm) {
    for (size_t n : {size_t(0), size_t(1), size_t(1000), size_t(77777), size_t(1000)}) {
        for (Order order : {Order::ascending, Order::descending}) {
            SCOPED_TRACE(std::string(algorithmName(algorithm)) + " n = " + std::to_string(n));
            auto keys = keysOf<T>(n, n + 1);
            const auto input = keys;
            std::vector<uint32_t> values(n);
            std::iota(values.begin(), values.end(), 0u);
            auto want = keys;
            if (order == Order::ascending)
                std::stable_sort(want.begin(), want.end());
            else
                std::stable_sort(want.begin(), want.end(), std::greater<T>());
            auto k2 = keys;
            ASSERT_TRUE(sort(ctx, std::span(k2), {.order = order, .algorithm = algorithm}).ok());
            EXPECT_EQ(k2, want);
            if (algorithm == Algorithm::oddeven) continue; // the network is not stable: keys only
            ASSERT_TRUE(
                sortPairs(ctx, std::span(keys), std::span(values), {.order = order, .algorithm = algorithm}).ok());
            EXPECT_EQ(keys, want);
            std::vector<T> moved(n);
            for (size_t i = 0; i < n; ++i) moved[i] = input[values[i]];
            EXPECT_EQ(moved, want); // each value came with its key
            for (size_t i = 1; i < n; ++i) {
                if (keys[i - 1] == keys[i]) {
                    ASSERT_LT(values[i - 1], values[i]) << i;
                } // stable
            }
        }
    }
}

TEST_F(GpuTest, OneCallSortsEveryKeyTypeLikeStdSort) {
    for (Algorithm a : {Algorithm::onesweep, Algorithm::radix4, Algorithm::oddeven}) {
        sortsLikeStd<uint32_t>(ctx(), a);
        sortsLikeStd<double>(ctx(), a);
    }
    sortsLikeStd<int32_t>(ctx(), Algorithm::onesweep);
    sortsLikeStd<float>(ctx(), Algorithm::onesweep);
    sortsLikeStd<uint64_t>(ctx(), Algorithm::onesweep);
    sortsLikeStd<int64_t>(ctx(), Algorithm::onesweep);
}

// (The keys are in a narrow range: at 77777 one bucket holds them all, the hybrid's one-workgroup path.)
TEST_F(GpuTest, OneCallHybridAndAutomaticSortEveryKeyTypeLikeStdSort) {
    for (Algorithm a : {Algorithm::hybrid, Algorithm::automatic}) {
        sortsLikeStd<uint32_t>(ctx(), a);
        sortsLikeStd<int32_t>(ctx(), a);
        sortsLikeStd<float>(ctx(), a);
        sortsLikeStd<uint64_t>(ctx(), a);
        sortsLikeStd<int64_t>(ctx(), a);
        sortsLikeStd<double>(ctx(), a);
    }
}

// The case: 4096 keys in 0..49 (each key about 80 times), values their positions. Every
// algorithm sortPairs takes keeps equal keys in input order, for every key type and both orders;
// the odd-even network, which does not, is refused with the keys untouched.
template <class T> void pairsAreStable(Context& ctx) {
    const size_t n = 4096;
    std::mt19937 rng(50);
    std::vector<T> input(n);
    for (T& k : input) k = T(int(rng() % 50) - (std::is_signed_v<T> ? 25 : 0));
    for (Order order : {Order::ascending, Order::descending}) {
        std::vector<uint32_t> want(n);
        std::iota(want.begin(), want.end(), 0u);
        std::stable_sort(want.begin(), want.end(), [&](uint32_t a, uint32_t b) {
            return order == Order::ascending ? input[a] < input[b] : input[a] > input[b];
        });
        for (Algorithm a :
             {Algorithm::onesweep, Algorithm::radix4, Algorithm::hybrid, Algorithm::automatic, Algorithm::oddeven}) {
            SCOPED_TRACE(std::string(algorithmName(a)) + " " + std::string(orderName(order)) + " " +
                         std::string(keyTypeName(keyTypeOf<T>())));
            auto keys = input;
            std::vector<uint32_t> values(n);
            std::iota(values.begin(), values.end(), 0u);
            auto r = sortPairs(ctx, std::span(keys), std::span(values), {.order = order, .algorithm = a});
            if (a == Algorithm::oddeven) {
                ASSERT_FALSE(r.ok());
                EXPECT_EQ(r.error().code, Errc::invalid_argument);
                EXPECT_NE(r.error().message.find("stable"), std::string::npos) << r.error().message;
                EXPECT_EQ(keys, input);
                continue;
            }
            ASSERT_TRUE(r.ok()) << r.error().message;
            EXPECT_EQ(values, want) << "equal keys must keep their input order";
            size_t swapped = 0;
            for (size_t i = 1; i < n; ++i) swapped += keys[i - 1] == keys[i] && values[i - 1] > values[i];
            EXPECT_EQ(swapped, 0u);
            for (size_t i = 0; i < n; ++i) ASSERT_EQ(keys[i], input[want[i]]) << i;
        }
    }
}

TEST_F(GpuTest, OneCallPairsAreStableWithManyEqualKeys) {
    pairsAreStable<uint32_t>(ctx());
    pairsAreStable<int32_t>(ctx());
    pairsAreStable<float>(ctx());
    pairsAreStable<uint64_t>(ctx());
    pairsAreStable<int64_t>(ctx());
    pairsAreStable<double>(ctx());
}

TEST_F(GpuTest, OneCallRefusesValuesOfTheWrongSize) {
    std::vector<uint32_t> keys = {3, 1, 2};
    std::vector<uint32_t> values = {0, 1};
    auto r = sortPairs(ctx(), std::span(keys), std::span(values));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, Errc::invalid_argument);
    EXPECT_NE(r.error().message.find("2 values for 3 keys"), std::string::npos) << r.error().message;
    EXPECT_EQ(keys, (std::vector<uint32_t>{3, 1, 2})); // untouched
}

// Algorithm::automatic (sortlab.h): uniform keys are timed with both sorts on the first call of
// their kind and the remembered times decide the next; keys whose sampled top 16 bits pile into
// one bucket, and a bit range, take OneSweep without timing; the report says which ran and why,
// and a given algorithm is reported with no reason.
TEST_F(GpuTest, OneCallAutomaticPicksAndSaysWhy) {
    std::mt19937_64 rng(51);
    auto uniform = [&](size_t n) {
        std::vector<uint32_t> k(n);
        for (auto& x : k) x = uint32_t(rng());
        return k;
    };
    auto sortedCopy = [](std::vector<uint32_t> k) {
        std::sort(k.begin(), k.end());
        return k;
    };
    SortReport first, second, skewed, range, given;
    auto keys = uniform(50000);
    auto want = sortedCopy(keys);
    ASSERT_TRUE(sort(ctx(), std::span(keys), {.algorithm = Algorithm::automatic, .report = &first}).ok());
    EXPECT_EQ(keys, want);
    EXPECT_TRUE(first.algorithm == Algorithm::onesweep || first.algorithm == Algorithm::hybrid);
    EXPECT_NE(first.why.find("both timed on these keys"), std::string::npos) << first.why;
    EXPECT_EQ(first.why.rfind(first.algorithm == Algorithm::hybrid ? "the hybrid:" : "OneSweep:", 0), 0u) << first.why;

    keys = uniform(40000); // (the same power of two, 2^16: the times above decide)
    want = sortedCopy(keys);
    ASSERT_TRUE(sort(ctx(), std::span(keys), {.algorithm = Algorithm::automatic, .report = &second}).ok());
    EXPECT_EQ(keys, want);
    EXPECT_EQ(second.algorithm, first.algorithm);
    EXPECT_NE(second.why.find("by an earlier call"), std::string::npos) << second.why;

    keys = uniform(50000);
    for (auto& x : keys) x %= 200; // every key in bucket 0
    want = sortedCopy(keys);
    ASSERT_TRUE(sort(ctx(), std::span(keys), {.algorithm = Algorithm::automatic, .report = &skewed}).ok());
    EXPECT_EQ(keys, want);
    EXPECT_EQ(skewed.algorithm, Algorithm::onesweep);
    EXPECT_NE(skewed.why.find("50000 of 50000 sampled keys share their top 16 bits"), std::string::npos) << skewed.why;

    keys = uniform(3000);
    auto low = keys;
    for (auto& x : low) x &= 0xffffu;
    std::vector<uint32_t> order(keys.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return low[a] < low[b]; });
    ASSERT_TRUE(sort(ctx(), std::span(keys), {.algorithm = Algorithm::automatic, .endBit = 16, .report = &range}).ok());
    for (size_t i = 1; i < keys.size(); ++i) ASSERT_LE(keys[i - 1] & 0xffffu, keys[i] & 0xffffu) << i;
    EXPECT_EQ(range.algorithm, Algorithm::onesweep);
    EXPECT_NE(range.why.find("bit range"), std::string::npos) << range.why;

    keys = uniform(1000);
    ASSERT_TRUE(sort(ctx(), std::span(keys), {.algorithm = Algorithm::radix4, .report = &given}).ok());
    EXPECT_EQ(given.algorithm, Algorithm::radix4);
    EXPECT_TRUE(given.why.empty()) << given.why;
    std::printf("automatic: %s | %s | %s | %s\n", first.why.c_str(), second.why.c_str(), skewed.why.c_str(),
                range.why.c_str());
}

uint64_t counter(VkDevice device, VkSemaphore s) {
    uint64_t v = ~0ull;
    EXPECT_EQ(vkGetSemaphoreCounterValue(device, s, &v), VK_SUCCESS);
    return v;
}

// The sort waits for the host's signal (its signal semaphore stays 0 until then), then signals its
// own value; the keys come out sorted. n = 1 does no GPU work and still waits and signals.
TEST_F(GpuTest, OneCallWaitsOnAndSignalsTimelineSemaphores) {
    ASSERT_TRUE(ctx().timelineSemaphore()) << "Context::create() enables timelineSemaphore where the device has it";
    const VkDevice device = ctx().device();
    VkSemaphore before = makeTimeline(device), after = makeTimeline(device);
    auto keys = keysOf<uint32_t>(100000, 5);
    auto want = keys;
    std::sort(want.begin(), want.end());
    Result<void> r;
    std::atomic<bool> returned = false;
    std::thread sorting([&] {
        r = sort(ctx(), std::span(keys), {.wait = {before, 5}, .signal = {after, 9}});
        returned = true;
    });
    // Long enough for the sort to finish several times over on lavapipe, were it not waiting.
    std::this_thread::sleep_for(std::chrono::seconds(2));
    EXPECT_EQ(counter(device, after), 0u) << "the sort ran before its wait semaphore was signalled";
    EXPECT_FALSE(returned) << "sort() returned before its wait semaphore was signalled";
    VkSemaphoreSignalInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    signal.semaphore = before;
    signal.value = 5;
    ASSERT_EQ(vkSignalSemaphore(device, &signal), VK_SUCCESS);
    VkSemaphoreWaitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wait.semaphoreCount = 1;
    wait.pSemaphores = &after;
    const uint64_t nine = 9;
    wait.pValues = &nine;
    EXPECT_EQ(vkWaitSemaphores(device, &wait, 60'000'000'000ull), VK_SUCCESS);
    sorting.join();
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(keys, want);
    EXPECT_EQ(counter(device, after), 9u);

    std::vector<uint32_t> one = {7}, value = {3};
    signal.value = 6;
    ASSERT_EQ(vkSignalSemaphore(device, &signal), VK_SUCCESS);
    r = sortPairs(ctx(), std::span(one), std::span(value), {.wait = {before, 6}, .signal = {after, 10}});
    ASSERT_TRUE(r.ok()) << r.error().message;
    // (lavapipe may set the counter a moment after the submission's fence: wait for it, briefly.)
    const uint64_t ten = 10;
    wait.pValues = &ten;
    EXPECT_EQ(vkWaitSemaphores(device, &wait, 10'000'000'000ull), VK_SUCCESS);
    EXPECT_EQ(counter(device, after), 10u);
    vkDestroySemaphore(device, before, nullptr);
    vkDestroySemaphore(device, after, nullptr);
}

// A context adopted without timelineSemaphore in AdoptInfo::enabled refuses a semaphore, and touches
// nothing; with it, takes one.
TEST_F(GpuTest, OneCallRefusesSemaphoresWithoutTheTimelineFeature) {
    AdoptInfo info = adoptInfoOf(ctx());
    info.enabled = EnabledFeatures{.shaderInt64 = true, .bufferDeviceAddress = true};
    auto adopted = Context::adopt(info);
    ASSERT_TRUE(adopted.ok()) << adopted.error().message;
    EXPECT_FALSE((*adopted)->timelineSemaphore());
    VkSemaphore s = makeTimeline(ctx().device());
    std::vector<uint32_t> keys = {3, 1, 2};
    for (SortOptions o : {SortOptions{.signal = {s, 1}}, SortOptions{.wait = {s, 1}}}) {
        auto r = sort(**adopted, std::span(keys), o);
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().code, Errc::invalid_argument);
        EXPECT_NE(r.error().message.find("timelineSemaphore"), std::string::npos) << r.error().message;
        EXPECT_EQ(keys, (std::vector<uint32_t>{3, 1, 2}));
    }
    EXPECT_EQ(counter(ctx().device(), s), 0u);
    adopted->reset();
    info.enabled->timelineSemaphore = true;
    adopted = Context::adopt(info);
    ASSERT_TRUE(adopted.ok()) << adopted.error().message;
    EXPECT_TRUE((*adopted)->timelineSemaphore());
    ASSERT_TRUE(sort(**adopted, std::span(keys), {.signal = {s, 1}}).ok());
    EXPECT_EQ(keys, (std::vector<uint32_t>{1, 2, 3}));
    EXPECT_EQ(counter(ctx().device(), s), 1u);
    adopted->reset();
    vkDestroySemaphore(ctx().device(), s, nullptr);
}

} // namespace
} // namespace sortlab::test
