// Sorter::record with the caller's own buffers: each wrong binding (a missing, too small,
// misaligned or overlapping buffer, a plan of another sorter, a null command buffer, a step range
// past the plan) is an invalid_argument error value that records nothing, with no crash and no
// validation message; the right binding sorts. GpuTest checks the validation messages after each.
#include <sortlab/testing/gpu_env.h>

#include <sortlab/buffer.h>

#include <algorithm>
#include <cstring>
#include <functional>

namespace sortlab::test {
namespace {

// A buffer of its own for each range the plan uses, sized as storageRequirements says, with
// `slack` bytes more (room to move an address within it).
struct OwnBuffers {
    Buffer keys, values, keysTemp, valuesTemp, scratch;
    DeviceBuffers ranges() const {
        auto r = [](const Buffer& b) { return b.valid() ? b.range() : BufferRange{}; };
        return {r(keys), r(values), r(keysTemp), r(valuesTemp), r(scratch)};
    }
};

::testing::AssertionResult makeBuffers(Context& ctx, const Plan& plan, OwnBuffers& out, uint64_t slack = 0) {
    const StorageRequirements need = storageRequirements(plan);
    auto make = [&](Buffer& b, uint64_t bytes) -> bool {
        if (!bytes) return true;
        auto r = Buffer::create(ctx, bytes + slack, MemoryKind::device, "a test buffer");
        if (r) b = std::move(r.value());
        return r.ok();
    };
    if (make(out.keys, need.keys) && make(out.values, need.values) && make(out.keysTemp, need.keysTemp) &&
        make(out.valuesTemp, need.valuesTemp) && make(out.scratch, need.scratch))
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "could not make the buffers";
}

// record() into a command buffer of the context's, submitted (empty where record() refused).
Result<void> recordAndRun(Context& ctx, const Sorter& sorter, const Plan& plan, const DeviceBuffers& b,
                          size_t first = 0, size_t last = SIZE_MAX) {
    Result<void> recorded;
    auto ran = ctx.submitAndWait([&](VkCommandBuffer cmd) {
        transferToCompute(cmd);
        recorded = sorter.record(cmd, plan, b, first, last);
        computeToTransfer(cmd);
    });
    if (!ran) return ran;
    return recorded;
}

::testing::AssertionResult refused(const Result<void>& r, const std::string& mentions) {
    if (r.ok()) return ::testing::AssertionFailure() << "record() accepted it";
    if (r.error().code != Errc::invalid_argument)
        return ::testing::AssertionFailure() << errcName(r.error().code) << ": " << r.error().message;
    if (r.error().message.find(mentions) == std::string::npos)
        return ::testing::AssertionFailure() << "the message does not name '" << mentions << "': " << r.error().message;
    return ::testing::AssertionSuccess() << r.error().message;
}

// The bindings every plan that uses `range` gets wrong: missing, one byte short, half, 1/16 of
// the size, misaligned by 4 (moved 4 bytes into a buffer 16 bytes larger).
void expectEachWrongSizeRefused(Context& ctx, Sorter& sorter, const Plan& plan, const OwnBuffers& own,
                                BufferRange DeviceBuffers::*range, const std::string& name) {
    SCOPED_TRACE(name);
    const DeviceBuffers good = own.ranges();
    const uint64_t need = (good.*range).size - 16; // the buffers hold 16 bytes of slack
    auto with = [&](BufferRange r) {
        DeviceBuffers b = good;
        b.*range = r;
        return recordAndRun(ctx, sorter, plan, b);
    };
    const VkDeviceAddress at = (good.*range).address;
    EXPECT_TRUE(refused(with({0, need}), name));
    EXPECT_TRUE(refused(with({at, 0}), name));
    EXPECT_TRUE(refused(with({at, need - 1}), name));
    EXPECT_TRUE(refused(with({at, need / 2}), name));
    EXPECT_TRUE(refused(with({at, need / 16}), name));
    EXPECT_TRUE(refused(with({at + 4, need}), name));
    EXPECT_TRUE(refused(with({at + 8, need}), name));
    EXPECT_TRUE(with({at + 16, need}).ok()) << "16 bytes in, the whole size: accepted";
}

// The keys and values after a recorded sort of `input` (u32 keys, values 0..n-1), read back.
::testing::AssertionResult sortedByRecord(Context& ctx, Sorter& sorter, const Plan& plan, const OwnBuffers& own,
                                          const std::vector<std::byte>& input) {
    const uint64_t n = plan.n;
    std::vector<uint32_t> values(n);
    for (uint32_t i = 0; i < n; ++i) values[i] = i;
    if (!uploadBytes(ctx, own.keys, 0, input).ok() ||
        !uploadBytes(ctx, own.values, 0, std::as_bytes(std::span(values))).ok())
        return ::testing::AssertionFailure() << "upload failed";
    auto r = recordAndRun(ctx, sorter, plan, own.ranges());
    if (!r) return ::testing::AssertionFailure() << r.error().message;
    if (plan.resultLocation.kind == KeyLocation::Kind::scratchWord)
        return ::testing::AssertionFailure() << "these tests leave resultInEither off";
    const bool temp = plan.resultLocation == KeyLocation::inKeysTemp();
    SortRun got;
    got.keys.resize(n * 4);
    got.values.resize(n);
    Readback rb(ctx);
    rb.add(temp ? own.keysTemp : own.keys, 0, n * 4, got.keys.data());
    rb.add(temp ? own.valuesTemp : own.values, 0, n * 4, got.values.data());
    if (auto read = rb.run(); !read) return ::testing::AssertionFailure() << read.error().message;
    return matchesReference(input, values, got, plan.config, plan.algorithm != Algorithm::oddeven);
}

class RecordBinding : public GpuTest, public ::testing::WithParamInterface<Algorithm> {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        auto s = makeSorter(ctx(), GetParam());
        ASSERT_TRUE(s.ok()) << s.error().message;
        sorter_ = std::move(s.value());
        cfg_ = sortConfig(KeyType::u32, true, Order::ascending);
        // Odd-even plans use keysTemp where a window with halo runs: a size that has them.
        auto p = sorter_->plan(GetParam() == Algorithm::oddeven ? (uint64_t(1) << 17) + 3 : 5000, cfg_);
        ASSERT_TRUE(p.ok()) << p.error().message;
        plan_ = std::move(p.value());
        ASSERT_TRUE(makeBuffers(ctx(), plan_, own_, 16));
        input_ = generateKeys(KeyType::u32, plan_.n, Distribution::uniform, 7);
    }
    void TearDown() override {
        own_ = {};
        sorter_.reset();
        GpuTest::TearDown();
    }
    std::unique_ptr<Sorter> sorter_;
    SortConfig cfg_;
    Plan plan_;
    OwnBuffers own_;
    std::vector<std::byte> input_;
};

TEST_P(RecordBinding, EachWrongBufferIsAnErrorValueAndTheRightOnesSort) {
    const StorageRequirements need = storageRequirements(plan_);
    expectEachWrongSizeRefused(ctx(), *sorter_, plan_, own_, &DeviceBuffers::keys, "keys");
    expectEachWrongSizeRefused(ctx(), *sorter_, plan_, own_, &DeviceBuffers::values, "values");
    if (need.keysTemp) {
        expectEachWrongSizeRefused(ctx(), *sorter_, plan_, own_, &DeviceBuffers::keysTemp, "keysTemp");
        expectEachWrongSizeRefused(ctx(), *sorter_, plan_, own_, &DeviceBuffers::valuesTemp, "valuesTemp");
    }
    if (need.scratch) expectEachWrongSizeRefused(ctx(), *sorter_, plan_, own_, &DeviceBuffers::scratch, "scratch");
    // Every kind of buffer is exercised: the radix sorts use them all; the odd-even plan at this
    // n has windows with halo, which write keysTemp.
    EXPECT_GT(need.keysTemp, 0u);
    if (GetParam() != Algorithm::oddeven) EXPECT_GT(need.scratch, 0u);
    // Overlaps: keysTemp at the keys; values over the end of the keys.
    DeviceBuffers b = own_.ranges();
    if (need.keysTemp) {
        b.keysTemp = b.keys;
        EXPECT_TRUE(refused(recordAndRun(ctx(), *sorter_, plan_, b), "overlap"));
        b = own_.ranges();
    }
    b.values = {b.keys.address + (need.keys / 2 & ~uint64_t(15)), need.values};
    EXPECT_TRUE(refused(recordAndRun(ctx(), *sorter_, plan_, b), "overlap"));
    // After all of that, the right binding sorts (stable for the radix sorts).
    EXPECT_TRUE(sortedByRecord(ctx(), *sorter_, plan_, own_, input_));
}

TEST_P(RecordBinding, APlanOfAnotherSorterIsRefused) {
    for (Algorithm other : {Algorithm::oddeven, Algorithm::radix4, Algorithm::onesweep}) {
        SCOPED_TRACE(algorithmName(other));
        auto s = makeSorter(ctx(), other); // another sorter, of the same algorithm or not
        ASSERT_TRUE(s.ok()) << s.error().message;
        auto p = (*s)->plan(plan_.n, cfg_);
        ASSERT_TRUE(p.ok()) << p.error().message;
        OwnBuffers theirs;
        ASSERT_TRUE(makeBuffers(ctx(), *p, theirs));
        EXPECT_TRUE(refused(recordAndRun(ctx(), *sorter_, *p, theirs.ranges()), "not made by this"));
        // Its own sorter records it.
        EXPECT_TRUE(recordAndRun(ctx(), **s, *p, theirs.ranges()).ok());
    }
}

TEST_P(RecordBinding, BadCallsAreErrorValues) {
    const DeviceBuffers b = own_.ranges();
    auto r = sorter_->record(VK_NULL_HANDLE, plan_, b);
    EXPECT_TRUE(refused(r, "command buffer"));
    const size_t steps = plan_.steps.size();
    EXPECT_TRUE(refused(recordAndRun(ctx(), *sorter_, plan_, b, steps + 1), "steps from"));
    EXPECT_TRUE(recordAndRun(ctx(), *sorter_, plan_, b, steps).ok()) << "an empty range records nothing";
    EXPECT_TRUE(refused(recordAndRun(ctx(), *sorter_, plan_, b, 3, 2), "steps from 3 to 2"));
    Plan stripped = plan_;
    stripped.pipelines.clear();
    EXPECT_TRUE(refused(recordAndRun(ctx(), *sorter_, stripped, b), "pipelines"));
    Plan handMade; // never planned
    handMade.algorithm = GetParam();
    handMade.n = plan_.n;
    handMade.steps = plan_.steps;
    EXPECT_TRUE(refused(recordAndRun(ctx(), *sorter_, handMade, b), "not made by this"));
}

INSTANTIATE_TEST_SUITE_P(All, RecordBinding,
                         ::testing::Values(Algorithm::oddeven, Algorithm::radix4, Algorithm::onesweep),
                         [](const auto& info) { return std::string(algorithmName(info.param)); });

} // namespace
} // namespace sortlab::test
