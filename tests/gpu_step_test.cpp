// The step path: SortJob::runTo(i + 1) + capture() after every step must equal the CPU model
// oddeven::applyLayers run up to that step's last layer (firstLayer + layerCount). Both run the
// same network with the same rule (swap when the left key comes strictly after the right one), so
// keys AND values must agree exactly, even with duplicate keys, NaNs and signed zeros.
// Also: reset() and run() start again from the uploaded input; run() twice gives the same result.
#include <sortlab/testing/gpu_env.h>

#include <sortlab/oddeven.h>

#include <cstring>
#include <set>

namespace sortlab::test {
namespace {

struct StepCase {
    const char* name;
    KeyType key;
    bool values;
    Order order;
    uint64_t n;
    uint32_t oddEvenTileKeys; // 0: the device's tile
    bool perLayer;
    Distribution dist;
};

SortConfig configFor(const StepCase& c) {
    SortConfig cfg = sortConfig(c.key, c.values, c.order);
    cfg.knobs.oddEvenTileKeys = c.oddEvenTileKeys;
    cfg.knobs.perLayer = c.perLayer;
    return cfg;
}

// Where two results first differ, in words.
std::string firstDifference(const std::vector<std::byte>& want, const std::vector<std::byte>& got,
                            const std::vector<uint32_t>& wantValues, const std::vector<uint32_t>& gotValues,
                            KeyType t) {
    const size_t kb = keyBytes(t);
    if (want.size() != got.size()) return "key arrays differ in size";
    for (size_t i = 0; i < want.size() / kb; ++i)
        if (std::memcmp(want.data() + i * kb, got.data() + i * kb, kb) != 0)
            return "key " + std::to_string(i) + " is " + formatKey(got, i, t) + ", the model has " +
                   formatKey(want, i, t);
    if (wantValues.size() != gotValues.size()) return "value arrays differ in size";
    for (size_t i = 0; i < wantValues.size(); ++i)
        if (wantValues[i] != gotValues[i])
            return "value " + std::to_string(i) + " is " + std::to_string(gotValues[i]) + ", the model has " +
                   std::to_string(wantValues[i]);
    return "";
}

class StepPath : public GpuTest, public ::testing::WithParamInterface<StepCase> {
protected:
    // The case's job, planned and with its buffers, and its input (keys from `seed`) uploaded.
    void start(uint64_t seed) {
        const StepCase& c = GetParam();
        input_ = generateKeys(c.key, c.n, c.dist, seed);
        inputValues_ = valuesFor(configFor(c), c.n);
        ASSERT_TRUE(uploadedJob(ctx(), sorter(), configFor(c), input_, inputValues_, job_));
    }
    std::unique_ptr<SortJob> job_;
    std::vector<std::byte> input_;
    std::vector<uint32_t> inputValues_;
};

TEST_P(StepPath, EveryStepMatchesTheCpuModel) {
    const StepCase c = GetParam();
    const SortConfig cfg = configFor(c);
    SCOPED_TRACE(describe(cfg) + ", n = " + std::to_string(c.n));
    ASSERT_NO_FATAL_FAILURE(start(c.n));
    SortJob& job = *job_;
    const std::vector<std::byte>& input = input_;
    const std::vector<uint32_t>& inputValues = inputValues_;
    const Plan& plan = job.plan();
    ASSERT_FALSE(plan.steps.empty());

    auto before = job.capture();
    ASSERT_TRUE(before.ok()) << before.error().message;
    EXPECT_EQ(before->stepsDone, 0u);
    EXPECT_EQ(before->label, "input");
    EXPECT_EQ(before->keys, input);
    EXPECT_EQ(before->values, inputValues);

    std::vector<std::byte> model = input;
    std::vector<uint32_t> modelValues = inputValues;
    uint32_t layersDone = 0;
    std::set<std::string> kinds;
    for (size_t i = 0; i < plan.steps.size(); ++i) {
        const Step& s = plan.steps[i];
        SCOPED_TRACE("after step " + std::to_string(i) + " '" + s.label + "' (" + std::string(stepKindName(s.kind)) +
                     ")");
        kinds.insert(s.kind == StepKind::window && s.halo ? "window+halo" : std::string(stepKindName(s.kind)));
        ASSERT_EQ(s.firstLayer, layersDone);
        ASSERT_TRUE(job.runTo(i + 1).ok());
        EXPECT_EQ(job.stepsDone(), i + 1);
        auto snap = job.capture();
        ASSERT_TRUE(snap.ok()) << snap.error().message;
        EXPECT_EQ(snap->stepsDone, i + 1);
        EXPECT_EQ(snap->label, s.label);
        oddeven::applyLayers(model, modelValues, c.key, c.order, c.n, layersDone, s.firstLayer + s.layerCount);
        layersDone = s.firstLayer + s.layerCount;
        const std::string diff = firstDifference(model, snap->keys, modelValues, snap->values, c.key);
        ASSERT_EQ(diff, "");
    }
    EXPECT_EQ(layersDone, oddeven::layers(c.n).size());
    // The model's end state is the sorted input.
    std::vector<std::byte> ref = input;
    std::vector<uint32_t> refValues = inputValues;
    referenceSort(ref, refValues, c.key, c.order);
    const CheckResult sorted = compareSorted(ref, refValues, model, modelValues, c.key, c.order, false);
    EXPECT_TRUE(sorted.ok) << sorted.message;

    // Running past the end is clamped; nothing changes.
    ASSERT_TRUE(job.runTo(plan.steps.size() + 5).ok());
    EXPECT_EQ(job.stepsDone(), plan.steps.size());
    auto end = job.capture();
    ASSERT_TRUE(end.ok());
    EXPECT_EQ(end->keys, model);
    std::printf("[sortlab] %s n=%llu: %zu steps, kinds:", describe(cfg).c_str(), static_cast<unsigned long long>(c.n),
                plan.steps.size());
    for (auto& k : kinds) std::printf(" %s", k.c_str());
    std::printf("\n");
}

TEST_P(StepPath, ResetAndRunStartAgainFromTheInput) {
    const StepCase c = GetParam();
    const SortConfig cfg = configFor(c);
    SCOPED_TRACE(describe(cfg) + ", n = " + std::to_string(c.n));
    ASSERT_NO_FATAL_FAILURE(start(c.n + 1));
    SortJob& job = *job_;
    const std::vector<std::byte>& input = input_;
    const std::vector<uint32_t>& inputValues = inputValues_;
    const size_t steps = job.plan().steps.size();

    // Part of the way, then reset: back to the input.
    ASSERT_TRUE(job.runTo(steps / 2 + 1).ok());
    ASSERT_TRUE(job.reset().ok());
    EXPECT_EQ(job.stepsDone(), 0u);
    auto snap = job.capture();
    ASSERT_TRUE(snap.ok());
    EXPECT_EQ(snap->keys, input);
    EXPECT_EQ(snap->values, inputValues);

    // run() after a partial step path: the whole sort, from the input.
    ASSERT_TRUE(job.runTo(steps / 2 + 1).ok());
    auto t = job.run();
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(job.stepsDone(), steps);
    if (t->gpuTimestamps) {
        EXPECT_EQ(t->stepMs.size(), steps);
    }
    SortRun first;
    first.keys.resize(input.size());
    first.values.resize(inputValues.size());
    ASSERT_TRUE(job.download(first.keys, first.values).ok());
    EXPECT_TRUE(matchesReference(input, inputValues, first, cfg));

    // run() again: the input is restored first, so the same result, bit for bit.
    ASSERT_TRUE(job.run(false).ok());
    SortRun second;
    second.keys.resize(input.size());
    second.values.resize(inputValues.size());
    ASSERT_TRUE(job.download(second.keys, second.values).ok());
    EXPECT_EQ(second.keys, first.keys);
    EXPECT_EQ(second.values, first.values);

    // reset() then run(): sorted again.
    ASSERT_TRUE(job.reset().ok());
    ASSERT_TRUE(job.run().ok());
    SortRun third;
    ASSERT_TRUE(runJob(job, input, inputValues, third)); // upload + run + download once more
    EXPECT_EQ(third.keys, first.keys);
    EXPECT_EQ(third.values, first.values);
}

// Names: variant, key type, keys/values, order, n.
const StepCase kStepCases[] = {
    {"Shared64_u32_kv_asc_1000", KeyType::u32, true, Order::ascending, 1000, 64, false, Distribution::few_unique},
    {"Shared64_f32_kv_desc_777", KeyType::f32, true, Order::descending, 777, 64, false, Distribution::special},
    {"Shared64_u64_kv_asc_1025", KeyType::u64, true, Order::ascending, 1025, 64, false, Distribution::uniform},
    {"Shared256_i64_kv_asc_2049", KeyType::i64, true, Order::ascending, 2049, 256, false, Distribution::few_unique},
    {"Shared256_f64_kv_desc_3001", KeyType::f64, true, Order::descending, 3001, 256, false, Distribution::special},
    {"Shared256_u32_keys_asc_4096", KeyType::u32, false, Order::ascending, 4096, 256, false, Distribution::uniform},
    {"Shared256_i32_kv_desc_4097", KeyType::i32, true, Order::descending, 4097, 256, false, Distribution::gaussian},
    {"Fused_u32_kv_asc_4099", KeyType::u32, true, Order::ascending, 4099, 0, false, Distribution::few_unique},
    {"Fused_i32_keys_desc_9001", KeyType::i32, false, Order::descending, 9001, 0, false, Distribution::gaussian},
    {"PerLayer_u64_kv_desc_300", KeyType::u64, true, Order::descending, 300, 0, true, Distribution::few_unique},
    {"PerLayer_f32_kv_asc_129", KeyType::f32, true, Order::ascending, 129, 0, true, Distribution::special},
    {"PerLayer_f64_keys_asc_64", KeyType::f64, false, Order::ascending, 64, 0, true, Distribution::nearly_sorted},
};

INSTANTIATE_TEST_SUITE_P(Cases, StepPath, ::testing::ValuesIn(kStepCases),
                         [](const auto& info) { return std::string(info.param.name); });

// A job that keeps no copy of its input sorts once; reset() is refused (an error value).
TEST_F(GpuTest, JobWithoutInputCopy) {
    SortConfig cfg;
    cfg.values = ValueType::u32;
    cfg.knobs.oddEvenTileKeys = 64;
    const uint64_t n = 500;
    auto job = SortJob::create(ctx(), sorter(), n, cfg, /*keepInput=*/false);
    ASSERT_TRUE(job.ok()) << job.error().message;
    const auto keys = generateKeys(cfg.key, n, Distribution::uniform, 3);
    const auto values = valuesFor(cfg, n);
    SortRun got;
    ASSERT_TRUE(runJob(**job, keys, values, got));
    EXPECT_TRUE(matchesReference(keys, values, got, cfg));
    auto r = (*job)->reset();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, Errc::invalid_argument);
}

} // namespace
} // namespace sortlab::test
