// Indirect plans (Sorter::planIndirect): a sort planned for up to maxN keys that reads its count
// from a GPU buffer when it runs.
//
// IndirectSort.CountFromGpu: radix4 and OneSweep (tuned tiles, teaching tiles, OneSweep's
//   persistent workgroups and tiles by index), u32 and u64 keys, f32 keys descending, u32 keys with
//   u32 values; one plan for maxN (5 tiles and a part), recorded with counts 0, 1, 37, a tile and 5
//   keys, 3 whole tiles, maxN, maxN + 1000 and 2^32 - 1, each written by vkCmdFillBuffer in the same
//   command buffer just before the sort. The first min(count, maxN) keys must come out as a stable
//   sort of them (values: their input indices), every key and value past them untouched.
// IndirectTest.*: what planIndirect refuses (the odd-even network, the lookback log, maxN past a
//   uint32, a OneSweep pass of several portions), what record() refuses of an indirect plan's
//   binding (count missing, too small, misaligned, overlapping; scratchBuffer null or not holding
//   scratch), resultInEither's scratch word, and a direct plan's kernels untouched by a count in
//   the binding.
#include <sortlab/testing/gpu_env.h>
#include <sortlab/testing/raw_keys.h>

#include <sortlab/buffer.h>
#include <sortlab/internal/tuning_overrides.h>
#include <sortlab/shaders/constants.h>

#include <volk.h> // the library's own Vulkan entry points (sortlab_vk_names)

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>

namespace sortlab::test {
namespace {

// How the sorter plans: tuned tiles, or 64-key teaching tiles, and for OneSweep persistent pass
// workgroups (3, each taking tiles in turn) or each workgroup's tile its own index.
enum class Mode { tuned, smallTiles, persistent, indexTiles };

struct IndirectParam {
    Algorithm algorithm;
    Mode mode;
    KeyType key;
    bool values;
    Order order;
};

std::string paramName(const ::testing::TestParamInfo<IndirectParam>& info) {
    const IndirectParam& p = info.param;
    static const char* modes[] = {"tuned", "tiles64", "persistent", "index"};
    return std::string(algorithmName(p.algorithm)) + "_" + modes[static_cast<int>(p.mode)] + "_" +
           std::string(keyTypeName(p.key)) + (p.values ? "_kv_" : "_keys_") + std::string(orderName(p.order));
}

std::vector<IndirectParam> allParams() {
    struct KeyCase {
        KeyType key;
        bool values;
        Order order;
    };
    const KeyCase keys[] = {{KeyType::u32, false, Order::ascending},
                            {KeyType::f32, false, Order::descending},
                            {KeyType::u64, false, Order::ascending},
                            {KeyType::u32, true, Order::ascending}};
    std::vector<IndirectParam> out;
    for (const KeyCase& k : keys) {
        for (Mode m : {Mode::tuned, Mode::smallTiles}) out.push_back({Algorithm::radix4, m, k.key, k.values, k.order});
        for (Mode m : {Mode::tuned, Mode::smallTiles, Mode::persistent, Mode::indexTiles})
            if (m != Mode::persistent || keyBytes(k.key) == 4) // (64-bit keys' passes are never persistent)
                out.push_back({Algorithm::onesweep, m, k.key, k.values, k.order});
    }
    return out;
}

// Random raw bits with runs of repeats (ties, so that stability shows), some small values, some
// negative floats and NaNs among the f32 keys' patterns.
std::vector<std::byte> randomKeys(KeyType t, uint64_t n, uint64_t seed) {
    return test::randomRawKeys(t, n, seed, 3, 8);
}

// The input with its first n keys stably sorted by their order bits, the values (input indices)
// moved with them; the rest as it was.
SortRun expectedPrefixSort(std::span<const std::byte> keys, uint64_t n, const SortConfig& c) {
    const uint64_t total = keys.size() / keyBytes(c.key), kb = keyBytes(c.key);
    std::vector<uint32_t> idx(total);
    std::iota(idx.begin(), idx.end(), 0u);
    std::stable_sort(idx.begin(), idx.begin() + n, [&](uint32_t a, uint32_t b) {
        return orderBitsAt(keys.data(), a, c.key, c.order) < orderBitsAt(keys.data(), b, c.key, c.order);
    });
    SortRun r;
    r.keys.resize(keys.size());
    for (uint64_t i = 0; i < total; ++i) std::memcpy(r.keys.data() + i * kb, keys.data() + idx[i] * kb, kb);
    r.values = idx;
    return r;
}

// The buffers of an indirect plan, each its own device buffer (sortlab's have
// VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT), and a 16-byte one for the count.
struct IndirectBuffers {
    Buffer keys, values, keysTemp, valuesTemp, scratch, count;
    DeviceBuffers ranges() const {
        auto r = [](const Buffer& b) { return b.valid() ? b.range() : BufferRange{}; };
        DeviceBuffers d{r(keys), r(values), r(keysTemp), r(valuesTemp), r(scratch)};
        d.count = count.range(0, 4);
        d.scratchBuffer = scratch.handle();
        return d;
    }
};

::testing::AssertionResult makeBuffers(Context& ctx, const Plan& plan, IndirectBuffers& out) {
    const StorageRequirements need = storageRequirements(plan);
    auto make = [&](Buffer& b, uint64_t bytes) -> bool {
        if (!bytes) return true;
        auto r = Buffer::create(ctx, bytes, MemoryKind::device, "a test buffer");
        if (r) b = std::move(r.value());
        return r.ok();
    };
    if (make(out.keys, need.keys) && make(out.values, need.values) && make(out.keysTemp, need.keysTemp) &&
        make(out.valuesTemp, need.valuesTemp) && make(out.scratch, need.scratch) && make(out.count, 16))
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "could not make the buffers";
}

// One command buffer: the count written by vkCmdFillBuffer, the barrier from that write to the
// sort's reads (and from the uploads before), the recorded sort, the barrier to the readback.
Result<void> recordWithCount(Context& ctx, const Sorter& sorter, const Plan& plan, const DeviceBuffers& b,
                             const Buffer& countBuffer, uint32_t count) {
    Result<void> recorded;
    auto ran = ctx.submitAndWait([&](VkCommandBuffer cmd) {
        vkCmdFillBuffer(cmd, countBuffer.handle(), 0, 4, count);
        transferToCompute(cmd);
        recorded = sorter.record(cmd, plan, b);
        computeToTransfer(cmd);
    });
    if (!ran) return ran;
    return recorded;
}

class IndirectSort : public GpuTest, public ::testing::WithParamInterface<IndirectParam> {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        const IndirectParam& p = GetParam();
        auto s = makeSorter(ctx(), p.algorithm);
        ASSERT_TRUE(s.ok()) << s.error().message;
        sorter_ = std::move(s.value());
        cfg_ = sortConfig(p.key, p.values, p.order);
        if (p.mode != Mode::tuned) cfg_.knobs.radixTileKeys = 64;
        internal::OneSweepLimits limits;
        if (p.mode == Mode::persistent) limits.passWorkgroups = 3;
        if (p.mode == Mode::indexTiles) limits.indexTiles = 1;
        if (p.algorithm == Algorithm::onesweep) {
            ASSERT_TRUE(internal::setOneSweepLimits(*sorter_, limits));
        }
    }
    std::unique_ptr<Sorter> sorter_;
    SortConfig cfg_;
};

TEST_P(IndirectSort, CountFromGpu) {
    uint64_t T = 0;
    ASSERT_TRUE(plannedTile(*sorter_, cfg_, T));
    const uint64_t maxN = 5 * T + 13;
    auto plan = sorter_->planIndirect(maxN, cfg_);
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    ASSERT_TRUE(plan->indirect);
    ASSERT_EQ(plan->n, maxN);
    ASSERT_EQ(plan->resultLocation, KeyLocation::inKeys());
    for (const Step& s : plan->steps) {
        if (GetParam().mode == Mode::persistent && s.kind == StepKind::pass) {
            ASSERT_GT(s.dispatchedWorkgroups, 0u) << "the pass is not persistent";
        }
    }
    IndirectBuffers own;
    ASSERT_TRUE(makeBuffers(ctx(), *plan, own));

    const std::vector<std::byte> input = randomKeys(cfg_.key, maxN, 1000 + T);
    std::vector<uint32_t> values(maxN);
    std::iota(values.begin(), values.end(), 0u);
    const uint64_t kb = keyBytes(cfg_.key);
    for (uint64_t count :
         {uint64_t(0), uint64_t(1), uint64_t(37), T + 5, 3 * T, maxN, maxN + 1000, uint64_t(UINT32_MAX)}) {
        SCOPED_TRACE("count " + std::to_string(count) + " of at most " + std::to_string(maxN));
        ASSERT_TRUE(uploadBytes(ctx(), own.keys, 0, input).ok());
        if (cfg_.values != ValueType::none) {
            ASSERT_TRUE(uploadBytes(ctx(), own.values, 0, std::as_bytes(std::span(values))).ok());
        }
        auto r = recordWithCount(ctx(), *sorter_, *plan, own.ranges(), own.count, static_cast<uint32_t>(count));
        ASSERT_TRUE(r.ok()) << r.error().message;

        SortRun got;
        got.keys.resize(maxN * kb);
        Readback rb(ctx());
        rb.add(own.keys, 0, maxN * kb, got.keys.data());
        if (cfg_.values != ValueType::none) {
            got.values.resize(maxN);
            rb.add(own.values, 0, maxN * 4, got.values.data());
        }
        // The words indirect_count.comp wrote: n, the count, and the tiles' dispatch (a workgroup a
        // tile: ceil(n / T) in one row).
        const uint32_t at = GetParam().algorithm == Algorithm::radix4 ? SORTLAB_R4_INDIRECT : SORTLAB_OS_INDIRECT;
        uint32_t words[SORTLAB_IND_WORDS];
        rb.add(own.scratch, uint64_t(at) * 4, sizeof words, words);
        ASSERT_TRUE(rb.run().ok());

        const uint64_t n = std::min(count, maxN);
        const uint32_t tiles = static_cast<uint32_t>((n + T - 1) / T);
        EXPECT_EQ(words[SORTLAB_IND_N] | uint64_t(words[SORTLAB_IND_N + 1]) << 32, n);
        EXPECT_EQ(words[SORTLAB_IND_COUNT], static_cast<uint32_t>(count));
        const uint32_t* size = words + SORTLAB_IND_SIZES; // (radix4's one size, OneSweep's SORTLAB_OS_IND_TILES)
        EXPECT_EQ(size[0], tiles);
        EXPECT_EQ(size[1], tiles ? 1u : 0u);
        EXPECT_EQ(size[2], 1u);
        EXPECT_EQ(size[3], tiles);
        const SortRun want = expectedPrefixSort(input, n, cfg_);
        for (uint64_t i = 0; i < maxN; ++i) {
            const bool keyOk = std::memcmp(got.keys.data() + i * kb, want.keys.data() + i * kb, kb) == 0;
            const bool valueOk = cfg_.values == ValueType::none || got.values[i] == want.values[i];
            ASSERT_TRUE(keyOk && valueOk) << "first difference at " << i << " (n = " << n << ", "
                                          << (i < n ? "in the sorted prefix" : "past it: should be untouched") << ")"
                                          << (valueOk ? "" : ": a value (stability)");
        }
    }
}

INSTANTIATE_TEST_SUITE_P(All, IndirectSort, ::testing::ValuesIn(allParams()), paramName);

// ---- What planIndirect and record() refuse -----------------------------------------------------

class IndirectTest : public GpuTest {};

::testing::AssertionResult failsWith(const Error& e, Errc code, const std::string& mentions) {
    if (e.code != code) return ::testing::AssertionFailure() << errcName(e.code) << ": " << e.message;
    if (e.message.find(mentions) == std::string::npos)
        return ::testing::AssertionFailure() << "the message does not name '" << mentions << "': " << e.message;
    return ::testing::AssertionSuccess() << e.message;
}

TEST_F(IndirectTest, PlanIndirectRefuses) {
    const SortConfig cfg = sortConfig(KeyType::u32, true, Order::ascending);
    auto oddeven = makeSorter(ctx(), Algorithm::oddeven);
    ASSERT_TRUE(oddeven.ok());
    auto p = (*oddeven)->planIndirect(1000, cfg);
    ASSERT_FALSE(p.ok());
    EXPECT_TRUE(failsWith(p.error(), Errc::invalid_argument, "indirect"));

    auto onesweep = makeSorter(ctx(), Algorithm::onesweep);
    ASSERT_TRUE(onesweep.ok());
    SortConfig logged = cfg;
    logged.knobs.logLookback = true;
    p = (*onesweep)->planIndirect(1000, logged);
    ASSERT_FALSE(p.ok());
    EXPECT_TRUE(failsWith(p.error(), Errc::invalid_argument, "logLookback"));
    for (Algorithm a : {Algorithm::radix4, Algorithm::onesweep}) {
        auto s = makeSorter(ctx(), a);
        ASSERT_TRUE(s.ok());
        p = (*s)->planIndirect(uint64_t(UINT32_MAX) + 1, cfg);
        ASSERT_FALSE(p.ok());
        EXPECT_TRUE(failsWith(p.error(), Errc::too_large, "uint32"));
        SortConfig bad = cfg;
        bad.key = KeyType(42);
        p = (*s)->planIndirect(1000, bad);
        ASSERT_FALSE(p.ok());
        EXPECT_TRUE(failsWith(p.error(), Errc::invalid_argument, "SortConfig::key"));
    }
    // A OneSweep pass in several portions (4 tiles each here) takes its tile counts from the host.
    internal::OneSweepLimits limits;
    limits.portionTiles = 4;
    ASSERT_TRUE(internal::setOneSweepLimits(**onesweep, limits));
    SortConfig small = cfg;
    small.knobs.radixTileKeys = 64;
    p = (*onesweep)->planIndirect(64 * 4, small);
    EXPECT_TRUE(p.ok()) << p.error().message; // one portion
    p = (*onesweep)->planIndirect(64 * 4 + 1, small);
    ASSERT_FALSE(p.ok());
    EXPECT_TRUE(failsWith(p.error(), Errc::too_large, "one portion"));
    EXPECT_TRUE((*onesweep)->planIndirect(0, cfg).ok()); // nothing to sort: no steps
}

TEST_F(IndirectTest, RecordChecksCountAndScratchBuffer) {
    const SortConfig cfg = sortConfig(KeyType::u32, true, Order::ascending);
    for (Algorithm a : {Algorithm::radix4, Algorithm::onesweep}) {
        SCOPED_TRACE(std::string(algorithmName(a)));
        auto s = makeSorter(ctx(), a);
        ASSERT_TRUE(s.ok());
        auto plan = (*s)->planIndirect(3000, cfg);
        ASSERT_TRUE(plan.ok()) << plan.error().message;
        IndirectBuffers own;
        ASSERT_TRUE(makeBuffers(ctx(), *plan, own));
        const DeviceBuffers good = own.ranges();
        auto refusedWith = [&](const DeviceBuffers& b, const std::string& mentions) {
            auto r = recordWithCount(ctx(), **s, *plan, b, own.count, 10);
            if (r.ok()) return ::testing::AssertionFailure() << "record() accepted it";
            return failsWith(r.error(), Errc::invalid_argument, mentions);
        };
        DeviceBuffers b = good;
        b.count = {};
        EXPECT_TRUE(refusedWith(b, "count is missing"));
        b.count = {good.count.address, 3};
        EXPECT_TRUE(refusedWith(b, "uint32"));
        b.count = {good.count.address + 2, 4};
        EXPECT_TRUE(refusedWith(b, "multiple of 4"));
        b.count = {good.keys.address, 4};
        EXPECT_TRUE(refusedWith(b, "overlap"));
        b = good;
        b.scratchBuffer = VK_NULL_HANDLE;
        EXPECT_TRUE(refusedWith(b, "scratchBuffer is null"));
        // Scratch below the scratchBuffer's address: another buffer of scratch's size, and the range
        // of whichever of the two is lower with the handle of the other.
        auto other = Buffer::create(ctx(), storageRequirements(*plan).scratch, MemoryKind::device, "another");
        ASSERT_TRUE(other.ok());
        const bool otherAbove = other->address() > own.scratch.address();
        b.scratch = otherAbove ? good.scratch : other->range();
        b.scratchBuffer = otherAbove ? other->handle() : own.scratch.handle();
        EXPECT_TRUE(refusedWith(b, "does not lie in"));
        // A count at a 4-byte (not 16-byte) address is fine.
        b = good;
        b.count = own.count.range(4, 4);
        Result<void> r;
        auto ran = ctx().submitAndWait([&](VkCommandBuffer cmd) {
            vkCmdFillBuffer(cmd, own.count.handle(), 4, 4, 10);
            transferToCompute(cmd);
            r = (*s)->record(cmd, *plan, b);
        });
        ASSERT_TRUE(ran.ok()) << ran.error().message;
        EXPECT_TRUE(r.ok()) << r.error().message;
    }
}

// With resultInEither, the scratch word the plan names says where the sorted prefix is.
TEST_F(IndirectTest, ResultInEither) {
    SortConfig cfg = sortConfig(KeyType::u32, false, Order::ascending);
    cfg.knobs.resultInEither = true;
    for (Algorithm a : {Algorithm::radix4, Algorithm::onesweep}) {
        SCOPED_TRACE(std::string(algorithmName(a)));
        auto s = makeSorter(ctx(), a);
        ASSERT_TRUE(s.ok());
        const uint64_t maxN = 3000, n = 1234;
        auto plan = (*s)->planIndirect(maxN, cfg);
        ASSERT_TRUE(plan.ok()) << plan.error().message;
        ASSERT_EQ(plan->resultLocation.kind, KeyLocation::Kind::scratchWord);
        IndirectBuffers own;
        ASSERT_TRUE(makeBuffers(ctx(), *plan, own));
        // Keys whose low byte is 0: a pass is skipped, so the result may stay in keysTemp.
        std::vector<std::byte> input = randomKeys(cfg.key, maxN, 11);
        for (uint64_t i = 0; i < maxN; ++i) input[i * 4] = std::byte{0};
        ASSERT_TRUE(uploadBytes(ctx(), own.keys, 0, input).ok());
        auto r = recordWithCount(ctx(), **s, *plan, own.ranges(), own.count, n);
        ASSERT_TRUE(r.ok()) << r.error().message;
        uint32_t where = 2;
        Readback rb(ctx());
        rb.add(own.scratch, plan->resultLocation.wordOffset * 4, 4, &where);
        ASSERT_TRUE(rb.run().ok());
        ASSERT_LE(where, 1u);
        std::vector<std::byte> got(n * 4);
        Readback keys(ctx());
        keys.add(where ? own.keysTemp : own.keys, 0, n * 4, got.data());
        ASSERT_TRUE(keys.run().ok());
        std::vector<std::byte> want = expectedPrefixSort(input, n, cfg).keys;
        want.resize(n * 4);
        EXPECT_EQ(got, want) << "read from " << (where ? "keysTemp" : "keys");
    }
}

// A direct plan sorts its n whatever a binding's count says (its kernels never read it).
TEST_F(IndirectTest, DirectPlanIgnoresCount) {
    const SortConfig cfg = sortConfig(KeyType::u32, false, Order::ascending);
    for (Algorithm a : {Algorithm::radix4, Algorithm::onesweep}) {
        SCOPED_TRACE(std::string(algorithmName(a)));
        auto s = makeSorter(ctx(), a);
        ASSERT_TRUE(s.ok());
        const uint64_t n = 2000;
        auto plan = (*s)->plan(n, cfg);
        ASSERT_TRUE(plan.ok()) << plan.error().message;
        EXPECT_FALSE(plan->indirect);
        IndirectBuffers own;
        ASSERT_TRUE(makeBuffers(ctx(), *plan, own));
        const std::vector<std::byte> input = randomKeys(cfg.key, n, 7);
        ASSERT_TRUE(uploadBytes(ctx(), own.keys, 0, input).ok());
        auto r = recordWithCount(ctx(), **s, *plan, own.ranges(), own.count, 5);
        ASSERT_TRUE(r.ok()) << r.error().message;
        std::vector<std::byte> got(n * 4);
        Readback rb(ctx());
        rb.add(own.keys, 0, n * 4, got.data());
        ASSERT_TRUE(rb.run().ok());
        EXPECT_EQ(got, expectedPrefixSort(input, n, cfg).keys);
    }
}

} // namespace
} // namespace sortlab::test
