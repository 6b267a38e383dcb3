// The checks Sorter::plan and Sorter::record make for every sorter, on a sorter with no GPU: its
// "device" has the limits a test sets, its steps record nothing but a count. plan() refuses what
// that device cannot hold; record() refuses each wrong binding before any step is recorded.
#include <sortlab/sorter.h>

#include <gtest/gtest.h>

#include <string>

namespace sortlab {
namespace {

class FakeSorter : public Sorter {
public:
    DeviceInfo info;
    mutable int recorded = 0; // recordSteps calls
    FakeSorter() {
        info.name = "a fake device";
        info.maxBufferSize = uint64_t(1) << 20;    // 1 MiB a buffer
        info.deviceLocalBytes = uint64_t(3) << 20; // 3 MiB in all
    }
    Algorithm algorithm() const override { return Algorithm::radix4; }

protected:
    const DeviceInfo& device() const override { return info; }
    // A radix-like plan: keys, values, both temporaries, 4 KiB of scratch, one step.
    Result<Plan> makePlan(uint64_t n, const SortConfig& config) override {
        Plan p;
        p.algorithm = Algorithm::radix4;
        p.config = config;
        p.n = n;
        p.needsTemp = true;
        p.scratchBytes = 4096;
        if (n) p.steps.resize(1);
        return p;
    }
    Result<void> recordSteps(VkCommandBuffer, const Plan&, const DeviceBuffers&, size_t, size_t, VkQueryPool,
                             uint32_t) const override {
        ++recorded;
        return {};
    }
};

::testing::AssertionResult failsWith(const Error& e, Errc code, const std::string& mentions) {
    if (e.code != code) return ::testing::AssertionFailure() << errcName(e.code) << ": " << e.message;
    if (e.message.find(mentions) == std::string::npos)
        return ::testing::AssertionFailure() << "no '" << mentions << "' in: " << e.message;
    return ::testing::AssertionSuccess();
}

TEST(SorterChecks, PlanRefusesBadEnumsAndWhatTheDeviceCannotHold) {
    FakeSorter s;
    SortConfig kv;
    kv.values = ValueType::u32;
    EXPECT_TRUE(s.plan(1000, kv).ok());
    SortConfig bad = kv;
    bad.order = static_cast<Order>(7);
    EXPECT_TRUE(failsWith(s.plan(1000, bad).error(), Errc::invalid_argument, "order is 7"));
    bad = kv;
    bad.key = static_cast<KeyType>(42);
    EXPECT_TRUE(failsWith(s.plan(1000, bad).error(), Errc::invalid_argument, "key is 42"));
    bad = kv;
    bad.values = static_cast<ValueType>(5);
    EXPECT_TRUE(failsWith(s.plan(1000, bad).error(), Errc::invalid_argument, "values is 5"));
    EXPECT_TRUE(failsWith(s.plan(UINT64_MAX, kv).error(), Errc::too_large, "2^40"));
    EXPECT_TRUE(failsWith(s.plan(kMaxKeys + 1, kv).error(), Errc::too_large, "2^40"));
    // u32 pairs: 16 bytes a key in all (keys, values, two temporaries). 3 MiB hold 196352 keys
    // with the scratch; 1 MiB of keys is 262144 keys.
    EXPECT_TRUE(s.plan(196352, kv).ok());
    EXPECT_TRUE(failsWith(s.plan(196353, kv).error(), Errc::out_of_memory, "3 MiB of device memory"));
    s.info.deviceLocalBytes = uint64_t(1) << 30;
    EXPECT_TRUE(s.plan(262144, kv).ok());
    auto over = s.plan(262145, kv);
    ASSERT_FALSE(over.ok());
    EXPECT_TRUE(failsWith(over.error(), Errc::too_large, "maxBufferSize"));
    EXPECT_TRUE(failsWith(over.error(), Errc::too_large, "at most 1 MiB per buffer"));
}

TEST(SorterChecks, RecordRefusesEachWrongBindingBeforeRecording) {
    FakeSorter s, other;
    SortConfig kv;
    kv.values = ValueType::u32;
    auto p = s.plan(1000, kv);
    ASSERT_TRUE(p.ok()) << p.error().message;
    EXPECT_EQ(p->planner, &s);
    const VkCommandBuffer cmd = reinterpret_cast<VkCommandBuffer>(uintptr_t(0x1000)); // never dereferenced
    // Regions of one pretend buffer at 0x10000: keys, values, keysTemp, valuesTemp, scratch.
    const DeviceBuffers good{{0x10000, 4000}, {0x11000, 4000}, {0x12000, 4000}, {0x13000, 4000}, {0x14000, 4096}};
    ASSERT_TRUE(s.record(cmd, *p, good).ok());
    EXPECT_EQ(s.recorded, 1);
    auto refused = [&](const DeviceBuffers& b, const std::string& mentions) {
        auto r = s.record(cmd, *p, b);
        return r.ok() ? ::testing::AssertionFailure() << "accepted"
                      : failsWith(r.error(), Errc::invalid_argument, mentions);
    };
    DeviceBuffers b = good;
    b.keysTemp.address = 0;
    EXPECT_TRUE(refused(b, "keysTemp is missing"));
    b = good;
    b.values.address = 0;
    EXPECT_TRUE(refused(b, "values is missing"));
    b = good;
    b.scratch.size = 4096 / 16;
    EXPECT_TRUE(refused(b, "scratch holds 256 bytes"));
    b = good;
    b.valuesTemp.size = 2000;
    EXPECT_TRUE(refused(b, "valuesTemp holds 2000 bytes"));
    b = good;
    b.keys.address += 4;
    EXPECT_TRUE(refused(b, "not a multiple of 16"));
    b = good;
    b.keysTemp.address = 0x10000 + 2000 / 16 * 16;
    EXPECT_TRUE(refused(b, "overlap"));
    b = good;
    b.scratch.address = UINT64_MAX - 15;
    EXPECT_TRUE(refused(b, "past the end"));
    EXPECT_TRUE(failsWith(s.record(VK_NULL_HANDLE, *p, good).error(), Errc::invalid_argument, "command buffer"));
    EXPECT_TRUE(failsWith(other.record(cmd, *p, good).error(), Errc::invalid_argument, "not made by this"));
    EXPECT_TRUE(failsWith(s.record(cmd, *p, good, 2).error(), Errc::invalid_argument, "steps from 2"));
    EXPECT_EQ(s.recorded, 1) << "a refused binding recorded steps";
    EXPECT_EQ(other.recorded, 0);
    // A keys-only plan needs no values: empty ones are fine.
    auto keysOnly = s.plan(1000, SortConfig{});
    ASSERT_TRUE(keysOnly.ok());
    b = good;
    b.values = {};
    b.valuesTemp = {};
    EXPECT_TRUE(s.record(cmd, *keysOnly, b).ok());
    EXPECT_EQ(s.recorded, 2);
}

TEST(SorterChecks, StorageRequirementsSaturateInsteadOfWrapping) {
    Plan huge;
    huge.n = UINT64_MAX;
    huge.config.key = KeyType::u64;
    huge.config.values = ValueType::u32;
    huge.needsTemp = true;
    const StorageRequirements need = storageRequirements(huge);
    EXPECT_EQ(need.keys, UINT64_MAX);
    EXPECT_EQ(need.total(), UINT64_MAX);
    StorageRequirements sum{UINT64_MAX / 2, UINT64_MAX / 2, 2, 0, 0};
    EXPECT_EQ(sum.total(), UINT64_MAX);
}

} // namespace
} // namespace sortlab
