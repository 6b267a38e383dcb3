// Bad inputs come back as error values with the right Errc, never as crashes or validation
// errors (GpuTest checks the validation messages after each test).
#include <sortlab/testing/gpu_env.h>

#include <sortlab/buffer.h>
#include <sortlab/sortlab.h>

#include <algorithm>
#include <utility>

namespace sortlab::test {
namespace {

::testing::AssertionResult failsWith(const Error& e, std::initializer_list<Errc> allowed) {
    for (Errc c : allowed)
        if (e.code == c) {
            if (e.message.empty()) return ::testing::AssertionFailure() << "the error has no message";
            return ::testing::AssertionSuccess();
        }
    return ::testing::AssertionFailure() << "unexpected error " << errcName(e.code) << ": " << e.message;
}

TEST_F(GpuTest, HugeNIsRefused) {
    SortConfig cfg;
    for (uint64_t n : {uint64_t(1) << 40, (uint64_t(1) << 40) + 1, uint64_t(1) << 50, ~uint64_t(0)}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        auto job = SortJob::create(ctx(), sorter(), n, cfg);
        ASSERT_FALSE(job.ok());
        EXPECT_TRUE(failsWith(job.error(), {Errc::too_large, Errc::out_of_memory}));
    }
}

TEST_F(GpuTest, MoreKeysThanDeviceMemoryIsOutOfMemoryWithSizes) {
    const uint64_t local = ctx().info().deviceLocalBytes;
    ASSERT_GT(local, 0u);
    SortConfig cfg; // u32 keys
    // One key more than the whole device-local heap holds, with no extra buffers.
    const uint64_t n = local / 4 + 1;
    auto job = SortJob::create(ctx(), sorter(), n, cfg, /*keepInput=*/false);
    ASSERT_FALSE(job.ok());
    EXPECT_TRUE(failsWith(job.error(), {Errc::out_of_memory, Errc::too_large}));
    const std::string& m = job.error().message;
    EXPECT_NE(m.find(std::to_string(n)), std::string::npos) << "the message names n: " << m;
    EXPECT_NE(m.find(std::to_string(local >> 20)), std::string::npos) << "the message names the device's memory: " << m;

    // Each buffer would fit, but not all of them together (keys + the kept input copy).
    const uint64_t n2 = local / 8 + 1;
    auto job2 = SortJob::create(ctx(), sorter(), n2, cfg, /*keepInput=*/true);
    ASSERT_FALSE(job2.ok());
    EXPECT_TRUE(failsWith(job2.error(), {Errc::out_of_memory, Errc::too_large}));
    EXPECT_NE(job2.error().message.find(std::to_string(n2)), std::string::npos) << job2.error().message;
}

TEST_F(GpuTest, SharedElemsMustBeAPowerOfTwo) {
    for (uint32_t shared : {100u, 3u, 63u, 96u, 1000u, 0x80000001u}) {
        SCOPED_TRACE("oddEvenTileKeys = " + std::to_string(shared));
        SortConfig cfg;
        cfg.knobs.oddEvenTileKeys = shared;
        auto job = SortJob::create(ctx(), sorter(), 1000, cfg);
        ASSERT_FALSE(job.ok());
        EXPECT_TRUE(failsWith(job.error(), {Errc::invalid_argument}));
        auto plan = sorter().plan(1000, cfg);
        ASSERT_FALSE(plan.ok());
        EXPECT_EQ(plan.error().code, Errc::invalid_argument);
    }
    // The sizes the tests use are accepted.
    for (uint32_t shared : {64u, 256u}) {
        SortConfig cfg;
        cfg.knobs.oddEvenTileKeys = shared;
        auto plan = sorter().plan(1000, cfg);
        ASSERT_TRUE(plan.ok()) << shared << ": " << plan.error().message;
        EXPECT_EQ(plan->tileKeys, shared);
    }
}

// SortKnobs::oddEvenTileKeys = 0 picks "the largest that the device allows"; anything larger must be
// refused as an error value, not handed to the driver.
TEST_F(GpuTest, SharedElemsBeyondWhatTheDeviceHoldsIsRefused) {
    for (KeyType key : {KeyType::u32, KeyType::u64}) {
        SortConfig cfg;
        cfg.key = key;
        cfg.values = ValueType::u32;
        auto def = sorter().plan(1 << 16, cfg);
        ASSERT_TRUE(def.ok()) << def.error().message;
        const uint32_t largest = def->tileKeys;
        ASSERT_GE(largest, 64u);
        cfg.knobs.oddEvenTileKeys = largest;
        auto same = sorter().plan(1 << 16, cfg);
        ASSERT_TRUE(same.ok()) << "the default tile (" << largest << ") must be accepted: " << same.error().message;
        for (uint32_t s : {2 * largest, 1u << 20, 1u << 31}) {
            cfg.knobs.oddEvenTileKeys = s;
            auto plan = sorter().plan(1 << 16, cfg);
            ASSERT_FALSE(plan.ok()) << "oddEvenTileKeys = " << s << " was accepted; the device's largest tile is "
                                    << largest;
            EXPECT_TRUE(failsWith(plan.error(), {Errc::invalid_argument, Errc::missing_feature, Errc::too_large}));
        }
    }
}

TEST_F(GpuTest, UploadWithWrongSizesIsRefused) {
    const uint64_t n = 100;
    SortConfig keysOnly;
    SortConfig kv;
    kv.values = ValueType::u32;
    auto a = SortJob::create(ctx(), sorter(), n, keysOnly);
    auto b = SortJob::create(ctx(), sorter(), n, kv);
    ASSERT_TRUE(a.ok() && b.ok());
    const auto keys = generateKeys(KeyType::u32, n, Distribution::uniform, 1);
    const auto values = indexValues(n);
    const std::span<const std::byte> k(keys);
    auto expectInvalid = [](Result<void> r, const char* what) {
        ASSERT_FALSE(r.ok()) << what;
        EXPECT_EQ(r.error().code, Errc::invalid_argument) << what << ": " << r.error().message;
    };
    expectInvalid((*a)->upload(k.first(keys.size() - 4), {}), "one key short");
    expectInvalid((*a)->upload(k.first(keys.size() - 1), {}), "one byte short");
    std::vector<std::byte> longer(keys.size() + 4);
    expectInvalid((*a)->upload(longer, {}), "one key too many");
    expectInvalid((*a)->upload(keys, values), "values for a keys-only sort");
    expectInvalid((*b)->upload(keys, {}), "no values for a key-value sort");
    expectInvalid((*b)->upload(keys, std::span<const uint32_t>(values).first(n - 1)), "one value short");
    // And the right sizes work.
    EXPECT_TRUE((*a)->upload(keys, {}).ok());
    EXPECT_TRUE((*b)->upload(keys, values).ok());

    // download() checks its sizes too.
    std::vector<std::byte> out(keys.size() - 4);
    std::vector<uint32_t> outValues(n);
    expectInvalid((*a)->download(out, {}), "download: key buffer too small");
    out.resize(keys.size());
    expectInvalid((*a)->download(out, outValues), "download: values from a keys-only sort");
    expectInvalid((*b)->download(out, std::span<uint32_t>(outValues).first(n - 1)), "download: value buffer too small");
}

TEST_F(GpuTest, ContextCreateWithUnknownDeviceIsNoDevice) {
    for (const char* name : {"no-such-device", "99", "99999999999999999999999999"}) {
        SCOPED_TRACE(std::string("device = ") + name);
        ContextOptions o = testContextOptions();
        o.device = name;
        auto c = Context::create(o);
        ASSERT_FALSE(c.ok());
        EXPECT_EQ(c.error().code, Errc::no_device) << c.error().message;
        EXPECT_FALSE(c.error().message.empty());
    }
}

TEST_F(GpuTest, ContextAdoptWithNullHandlesIsInvalidArgument) {
    auto r = Context::adopt(AdoptInfo{});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, Errc::invalid_argument);
    // Some handles but not all.
    AdoptInfo partial;
    partial.instance = ctx().instance();
    partial.physicalDevice = ctx().physicalDevice();
    partial.device = ctx().device();
    partial.queue = VK_NULL_HANDLE;
    r = Context::adopt(partial);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, Errc::invalid_argument);
}

// A stranger's program brings its own instance, device and queue: a non-owning Context over
// them sorts correctly, and destroying it leaves the caller's device usable.
TEST_F(GpuTest, AdoptedDeviceSortsAndStaysTheCallersToDestroy) {
    AdoptInfo info = adoptInfoOf(ctx());
    auto adopted = Context::adopt(info);
    ASSERT_TRUE(adopted.ok()) << adopted.error().message;
    EXPECT_EQ(adopted.value()->device(), ctx().device());
    {
        auto sorter = makeSorter(*adopted.value(), Algorithm::oddeven);
        ASSERT_TRUE(sorter.ok()) << sorter.error().message;
        const uint64_t n = 3001;
        auto job = SortJob::create(*adopted.value(), *sorter.value(), n, SortConfig{});
        ASSERT_TRUE(job.ok()) << job.error().message;
        auto keys = generateKeys(KeyType::u32, n, Distribution::uniform, 5);
        ASSERT_TRUE(job.value()->upload(keys, {}).ok());
        ASSERT_TRUE(job.value()->run(false).ok());
        std::vector<std::byte> out(keys.size());
        ASSERT_TRUE(job.value()->download(out, {}).ok());
        auto expected = keys;
        referenceSort(expected, {}, KeyType::u32, Order::ascending);
        auto check = compareSorted(expected, {}, out, {}, KeyType::u32, Order::ascending, false);
        EXPECT_TRUE(check.ok) << check.message;
    }
    adopted.value().reset(); // must not destroy the caller's device
    // The owning context still works.
    auto job = SortJob::create(ctx(), sorter(), 100, SortConfig{});
    ASSERT_TRUE(job.ok()) << job.error().message;
    auto keys = generateKeys(KeyType::u32, 100, Distribution::uniform, 6);
    ASSERT_TRUE(job.value()->upload(keys, {}).ok());
    EXPECT_TRUE(job.value()->run(false).ok());
}

TEST_F(GpuTest, EveryAlgorithmHasASorter) {
    for (Algorithm a : {Algorithm::oddeven, Algorithm::radix4, Algorithm::onesweep}) {
        auto s = makeSorter(ctx(), a);
        ASSERT_TRUE(s.ok()) << algorithmName(a) << ": " << s.error().message;
        EXPECT_EQ((*s)->algorithm(), a);
    }
    auto bad = makeSorter(ctx(), static_cast<Algorithm>(42));
    EXPECT_FALSE(bad.ok());
}

TEST_F(GpuTest, Radix4RefusesMoreKeysThanItsOffsetsHold) {
    auto s = makeSorter(ctx(), Algorithm::radix4);
    ASSERT_TRUE(s.ok()) << s.error().message;
    auto p = (*s)->plan(uint64_t(1) << 32, SortConfig{});
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().code, Errc::too_large);
    EXPECT_NE(p.error().message.find("2^32"), std::string::npos) << p.error().message;
    // 2^32 - 1 keys are within radix4's offsets: planned, or refused only for the device's memory.
    auto fits = (*s)->plan(UINT32_MAX, SortConfig{});
    if (!fits.ok()) {
        EXPECT_TRUE(failsWith(fits.error(), {Errc::out_of_memory, Errc::too_large}));
        EXPECT_EQ(fits.error().message.find("2^32"), std::string::npos) << fits.error().message;
    }
}

TEST_F(GpuTest, ListDevicesIncludesTheTestDevice) {
    auto list = Context::listDevices();
    ASSERT_TRUE(list.ok()) << list.error().message;
    bool found = false;
    for (const auto& d : *list) found = found || (d.name == ctx().info().name && d.suitable);
    EXPECT_TRUE(found) << ctx().info().name;
}

TEST_F(GpuTest, EmptyAndSingleKeyJobs) {
    for (uint64_t n : {0ull, 1ull})
        for (bool kv : {false, true}) {
            SCOPED_TRACE("n = " + std::to_string(n) + (kv ? ", key-value" : ", keys only"));
            SortConfig cfg;
            cfg.key = KeyType::f64;
            cfg.values = kv ? ValueType::u32 : ValueType::none;
            auto job = SortJob::create(ctx(), sorter(), n, cfg);
            ASSERT_TRUE(job.ok()) << job.error().message;
            EXPECT_TRUE((*job)->plan().steps.empty());
            const auto keys = generateKeys(cfg.key, n, Distribution::special, 1);
            const auto values = valuesFor(cfg, n); // n = 0: an empty span is the n values of an empty sort
            SortRun got;
            const auto ran = runJob(**job, keys, values, got);
            EXPECT_TRUE(ran);
            if (!ran) continue;
            EXPECT_EQ(got.keys, keys);
            EXPECT_EQ(got.values, values);
            EXPECT_TRUE((*job)->runTo(10).ok());
            EXPECT_TRUE((*job)->reset().ok());
            auto snap = (*job)->capture();
            ASSERT_TRUE(snap.ok());
            EXPECT_EQ(snap->keys, keys);
        }
}

// Enum values out of range are refused by every sorter's plan() (and so by SortJob) and by the
// one-call API, before anything reaches a shader.
TEST_F(GpuTest, EnumValuesOutOfRangeAreInvalidArgument) {
    SortConfig badOrder, badKey, badValues;
    badOrder.order = static_cast<Order>(7);
    badKey.key = static_cast<KeyType>(42);
    badValues.values = static_cast<ValueType>(5);
    for (Algorithm a : {Algorithm::oddeven, Algorithm::radix4, Algorithm::onesweep}) {
        auto s = makeSorter(ctx(), a);
        ASSERT_TRUE(s.ok()) << s.error().message;
        for (auto [cfg, field] :
             {std::pair{badOrder, "order is 7"}, std::pair{badKey, "key is 42"}, std::pair{badValues, "values is 5"}}) {
            SCOPED_TRACE(std::string(algorithmName(a)) + ": " + field);
            for (uint64_t n : {uint64_t(0), uint64_t(1000)}) {
                auto p = (*s)->plan(n, cfg);
                ASSERT_FALSE(p.ok());
                EXPECT_TRUE(failsWith(p.error(), {Errc::invalid_argument}));
                EXPECT_NE(p.error().message.find(field), std::string::npos) << p.error().message;
            }
            auto job = SortJob::create(ctx(), **s, 1000, cfg);
            ASSERT_FALSE(job.ok());
            EXPECT_TRUE(failsWith(job.error(), {Errc::invalid_argument}));
        }
    }
    std::vector<float> keys = {3, 1, 2};
    std::vector<uint32_t> values = {0, 1, 2};
    for (size_t n : {size_t(0), size_t(3)}) {
        auto k = std::span(keys).first(n);
        auto r = sort(ctx(), k, {.order = static_cast<Order>(7)});
        ASSERT_FALSE(r.ok());
        EXPECT_TRUE(failsWith(r.error(), {Errc::invalid_argument}));
        r = sortPairs(ctx(), k, std::span(values).first(n), {.order = static_cast<Order>(7)});
        ASSERT_FALSE(r.ok());
        EXPECT_TRUE(failsWith(r.error(), {Errc::invalid_argument}));
        r = sort(ctx(), k, {.algorithm = static_cast<Algorithm>(9)});
        ASSERT_FALSE(r.ok());
        EXPECT_TRUE(failsWith(r.error(), {Errc::invalid_argument}));
    }
    EXPECT_EQ(keys, (std::vector<float>{3, 1, 2})); // untouched
}

// Sizes past 2^40 keys are refused before any arithmetic could wrap, and a hand-made plan's
// storage requirements saturate instead of wrapping to a small number.
TEST_F(GpuTest, SizeArithmeticDoesNotWrap) {
    for (Algorithm a : {Algorithm::oddeven, Algorithm::radix4, Algorithm::onesweep}) {
        auto s = makeSorter(ctx(), a);
        ASSERT_TRUE(s.ok()) << s.error().message;
        SortConfig cfg = sortConfig(KeyType::u64, true, Order::ascending);
        for (uint64_t n : {UINT64_MAX, UINT64_MAX / 8 + 1, kMaxKeys + 1}) {
            SCOPED_TRACE(std::string(algorithmName(a)) + " n = " + std::to_string(n));
            auto p = (*s)->plan(n, cfg);
            ASSERT_FALSE(p.ok()) << "total " << sortlab::storageRequirements(*p).total();
            EXPECT_TRUE(failsWith(p.error(), {Errc::too_large}));
            auto need = (*s)->storageRequirements(n, cfg);
            EXPECT_FALSE(need.ok());
        }
    }
    Plan huge;
    huge.n = UINT64_MAX;
    huge.config = sortConfig(KeyType::u64, true, Order::ascending);
    huge.needsTemp = true;
    huge.scratchBytes = 1 << 20;
    const StorageRequirements need = storageRequirements(huge);
    EXPECT_EQ(need.keys, UINT64_MAX);
    EXPECT_EQ(need.total(), UINT64_MAX);
}

// plan() refuses what the device cannot hold: buffers that together exceed the largest
// device-local heap (out_of_memory), a buffer past maxBufferSize (too_large); each message names
// the limit it hit.
TEST_F(GpuTest, PlanRefusesWhatTheDeviceCannotHold) {
    const DeviceInfo& dev = ctx().info();
    ASSERT_GT(dev.maxBufferSize, 0u);
    ASSERT_GT(dev.deviceLocalBytes, 0u);
    std::printf("[sortlab] %s: maxBufferSize %llu MiB, maxStorageBufferRange %llu MiB, device-local heap %llu MiB\n",
                dev.name.c_str(), (unsigned long long)(dev.maxBufferSize >> 20),
                (unsigned long long)(dev.maxStorageBufferRange >> 20),
                (unsigned long long)(dev.deviceLocalBytes >> 20));
    auto onesweep = makeSorter(ctx(), Algorithm::onesweep);
    ASSERT_TRUE(onesweep.ok()) << onesweep.error().message;
    const SortConfig kv = sortConfig(KeyType::u64, true, Order::ascending);
    const std::string heapMiB = std::to_string(dev.deviceLocalBytes >> 20) + " MiB";
    const std::string bufferMiB = std::to_string(dev.maxBufferSize >> 20) + " MiB";

    // The case: 2^32 + 1 u64 pairs (32 GiB of keys, 96 GiB in all).
    auto p = (*onesweep)->plan((uint64_t(1) << 32) + 1, kv);
    ASSERT_FALSE(p.ok()) << "2^32 + 1 u64 pairs planned on " << dev.name;
    EXPECT_TRUE(failsWith(p.error(), {Errc::out_of_memory, Errc::too_large}));
    const std::string& m = p.error().message;
    EXPECT_TRUE(m.find(heapMiB) != std::string::npos || m.find("maxBufferSize") != std::string::npos) << m;

    // More than the heap: keys, values and their temporaries take 24 bytes a u64 pair.
    const uint64_t overHeap = dev.deviceLocalBytes / 24 + 1;
    if (overHeap <= kMaxKeys) {
        auto q = (*onesweep)->plan(overHeap, kv);
        ASSERT_FALSE(q.ok()) << overHeap << " u64 pairs planned";
        EXPECT_TRUE(failsWith(q.error(), {Errc::out_of_memory}));
        EXPECT_NE(q.error().message.find(heapMiB), std::string::npos) << q.error().message;
        EXPECT_NE(q.error().message.find(std::to_string(overHeap)), std::string::npos) << q.error().message;
    }
    // One buffer past maxBufferSize, within the heap: u32 keys only, where the keys and their
    // temporary fit the heap.
    const uint64_t overBuffer = dev.maxBufferSize / 4 + 1;
    if ((overBuffer * 4) * 2 <= dev.deviceLocalBytes && overBuffer <= kMaxKeys) {
        auto q = (*onesweep)->plan(overBuffer, SortConfig{});
        ASSERT_FALSE(q.ok()) << overBuffer << " u32 keys planned";
        EXPECT_TRUE(failsWith(q.error(), {Errc::too_large}));
        EXPECT_NE(q.error().message.find("maxBufferSize"), std::string::npos) << q.error().message;
        EXPECT_NE(q.error().message.find(bufferMiB), std::string::npos) << q.error().message;
    }
}

} // namespace
} // namespace sortlab::test
