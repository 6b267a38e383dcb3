// The 4-bit LSD radix sort (radix4) on the GPU.
//
// RadixSort.MatchesStableSort: every key type x keys-only/key-value x order (24 instances), sizes
//   around the workgroup tile T (0, 1, 2, 3, T-1, T, T+1, 3T+5, a random odd size up to 8T) and
//   every distribution at small sizes; the result must equal std::stable_sort exactly, values
//   included (the sort is stable).
// RadixStep.EveryStepMatchesTheReference: after every step (count, scan, scatter of every pass,
//   and the final result step), the keys, values, per-workgroup digit counts, histogram, offsets
//   and workgroup offsets read back from the GPU equal radix::referencePass run up to that pass;
//   passes whose digit is the same for every key say "skipped" in the snapshot and move nothing.
#include <sortlab/testing/gpu_env.h>

#include <sortlab/radix.h>
#include <sortlab/radix_steps.h>

#include <algorithm>
#include <cstring>
#include <random>

namespace sortlab::test {
namespace {

class RadixTest : public AlgorithmTest<Algorithm::radix4> {
protected:
    Sorter& radix() { return algorithmSorter(); }
};

class RadixSort : public RadixTest, public ::testing::WithParamInterface<RadixParam> {};

TEST_P(RadixSort, MatchesStableSort) {
    const RadixParam& p = GetParam();
    // lavapipe is slow: 3 of 8 distributions at larger n. Steps: count, scan and scatter per 4-bit pass, result.
    radixSortsMatchStableSort(ctx(), radix(), p, false,
                              {.tiles = 3,
                               .extra = 5,
                               .spread = 7,
                               .seed = 7000,
                               .keepOf8 = 3,
                               .seedPerN = 17,
                               .steps = 3 * keyBits(p.key) / 4 + 1});
}

INSTANTIATE_TEST_SUITE_P(All, RadixSort, ::testing::ValuesIn(allRadixParams(false)),
                         [](const auto& info) { return radixParamName(info.param, false); });

// ---- The step path against the reference model ----------------------------------------------------

struct StepCase {
    const char* name;
    KeyType key;
    bool values;
    Order order;
    uint64_t tiles100; // n = tiles100 * T / 100 (+ extra)
    uint64_t extra;
    Distribution dist;
    uint64_t mask;         // keys are and-ed with this (0: none), so that high digits repeat
    uint32_t tileKeys = 0; // SortKnobs::radixTileKeys: a teaching tile (0: the tuned one)
};

class RadixStep : public RadixTest, public ::testing::WithParamInterface<StepCase> {};

TEST_P(RadixStep, EveryStepMatchesTheReference) {
    const StepCase c = GetParam();
    SortConfig cfg = configFor({c.key, c.values, c.order});
    cfg.knobs.radixTileKeys = c.tileKeys;
    uint64_t T = 0;
    ASSERT_TRUE(plannedTile(radix(), cfg, T));
    const uint64_t n = c.tiles100 * T / 100 + c.extra;
    SCOPED_TRACE(describe(cfg) + ", n = " + std::to_string(n));

    auto input = generateKeys(c.key, n, c.dist, 4242 + n);
    if (c.mask) maskKeys(input, c.key, c.mask);
    const auto inputValues = valuesFor(cfg, n);
    std::unique_ptr<SortJob> job;
    ASSERT_TRUE(uploadedJob(ctx(), radix(), cfg, input, inputValues, job));
    const Plan& plan = job->plan();
    ASSERT_EQ(plan.tileKeys, T);

    std::vector<std::byte> model = input;
    std::vector<uint32_t> modelValues = inputValues;
    radix::PassState state;
    const uint32_t passes = keyBits(c.key) / 4;
    uint32_t skipped = 0;
    ASSERT_EQ(plan.steps.size(), 3 * passes + 1);
    for (size_t i = 0; i < plan.steps.size(); ++i) {
        const Step& s = plan.steps[i];
        SCOPED_TRACE("after step " + std::to_string(i) + " '" + s.label + "'");
        if (s.kind == StepKind::count) {
            state = radix::referencePass(model, modelValues, c.key, c.order, s.bitLo, 4, T);
            ASSERT_EQ(s.bitHi, s.bitLo + 4);
            ASSERT_EQ(s.bitLo, 4 * s.pass);
        }
        ASSERT_TRUE(job->runTo(i + 1).ok());
        auto snap = job->capture();
        ASSERT_TRUE(snap.ok()) << snap.error().message;
        EXPECT_EQ(snap->label, s.label);
        if (s.kind == StepKind::result) {
            EXPECT_TRUE(snap->aux.empty());
        } else {
            const auto* info = snap->find(AuxKind::passInfo);
            const auto* counts = snap->find(AuxKind::digitCounts);
            const auto* hist = snap->find(AuxKind::histogram);
            ASSERT_TRUE(info && counts && hist);
            ASSERT_EQ(info->data.size(), 4u);
            EXPECT_EQ(info->data[0], s.pass);
            EXPECT_EQ(info->data[1], s.bitLo);
            EXPECT_EQ(info->data[2], s.bitHi);
            ASSERT_EQ(counts->shape, (std::vector<uint32_t>{16, static_cast<uint32_t>(state.workgroups)}));
            EXPECT_EQ(counts->data, state.counts);
            EXPECT_EQ(hist->data, narrow(state.histogram));
            const auto* offsets = snap->find(AuxKind::offsets);
            const auto* wgOffsets = snap->find(AuxKind::workgroupOffsets);
            if (s.kind == StepKind::count) {
                EXPECT_FALSE(offsets || wgOffsets) << "offsets shown before the scan ran";
            } else {
                ASSERT_TRUE(offsets && wgOffsets);
                EXPECT_EQ(offsets->data, narrow(state.offsets));
                EXPECT_EQ(wgOffsets->data, narrow(state.workgroupOffsets));
                EXPECT_EQ(info->data[3], state.skipped ? 1u : 0u);
            }
            if (s.kind == StepKind::scatter) skipped += state.skipped;
        }
        // The keys: unchanged by count and scan; after the scatter (or a skipped pass), the model's.
        if (s.kind == StepKind::scatter || s.kind == StepKind::result) {
            EXPECT_EQ(snap->keys, model);
            EXPECT_EQ(snap->values, modelValues);
        }
        if (HasFailure()) return;
    }
    // The model's end state is the stable sort of the input.
    std::vector<std::byte> ref = input;
    std::vector<uint32_t> refValues = inputValues;
    referenceSort(ref, refValues, c.key, c.order);
    EXPECT_EQ(model, ref);
    EXPECT_EQ(modelValues, refValues);
    std::printf("[sortlab] %s: %s n=%llu, %u of %u passes skipped\n", c.name, describe(cfg).c_str(),
                static_cast<unsigned long long>(n), skipped, passes);
}

// clang-format off
const StepCase kStepCases[] = {
    // name                  key           kv     order              tiles% extra dist                        mask
    {"u32_kv_three_tiles",   KeyType::u32, true,  Order::ascending,  300,   17,   Distribution::uniform,      0},
    {"u32_one_partial_tile", KeyType::u32, false, Order::ascending,  50,    3,    Distribution::uniform,      0},
    {"i32_desc_gaussian",    KeyType::i32, true,  Order::descending, 250,   0,    Distribution::gaussian,     0},
    {"f32_special",          KeyType::f32, true,  Order::ascending,  120,   1,    Distribution::special,      0},
    {"u32_odd_skips",        KeyType::u32, true,  Order::ascending,  200,   9,    Distribution::uniform,      0xfffff},
    {"u64_low_bits_only",    KeyType::u64, true,  Order::ascending,  230,   5,    Distribution::uniform,      0xffff},
    {"i64_desc",             KeyType::i64, false, Order::descending, 140,   0,    Distribution::uniform,      0},
    {"f64_few_unique",       KeyType::f64, true,  Order::descending, 180,   7,    Distribution::few_unique,   0},
    {"u32_all_equal",        KeyType::u32, true,  Order::ascending,  150,   0,    Distribution::equal,        0},
    // Teaching tiles (SortKnobs::radixTileKeys): 4, 8 and 16 keys a workgroup, fewer keys than a
    // subgroup's lanes where the subgroup is wider, so most workgroups' slots hold no key.
    {"u32_tile4",            KeyType::u32, true,  Order::ascending,  1500,  3,    Distribution::small,        0, 4},
    {"u32_tile8",            KeyType::u32, false, Order::ascending,  800,   0,    Distribution::small,        0, 8},
    {"i32_tile16_desc",      KeyType::i32, true,  Order::descending, 450,   5,    Distribution::uniform,      0, 16},
    {"f64_tile8",            KeyType::f64, true,  Order::ascending,  1200,  1,    Distribution::special,      0, 8},
    {"u64_tile4",            KeyType::u64, false, Order::descending, 7500,  2,    Distribution::uniform,      0, 4},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(Cases, RadixStep, ::testing::ValuesIn(kStepCases),
                         [](const auto& info) { return std::string(info.param.name); });

// Teaching tiles at every n from 1 to 300 (4-, 8- and 16-key tiles), and every tile size the
// planner refuses: below 4 keys or above the tuned tile, each with a message naming the sizes that work.
TEST_F(RadixTest, TeachingTilesSortEverySmallN) {
    for (uint32_t tile : {4u, 8u, 16u})
        for (bool kv : {false, true}) {
            SortConfig cfg;
            cfg.values = kv ? ValueType::u32 : ValueType::none;
            cfg.knobs.radixTileKeys = tile;
            for (uint64_t n = 1; n <= 300; n += (n < 40 ? 1 : 37)) {
                SCOPED_TRACE("tile " + std::to_string(tile) + ", n = " + std::to_string(n) + (kv ? ", kv" : ""));
                const auto keys = generateKeys(KeyType::u32, n, Distribution::small, n + tile);
                const auto values = valuesFor(cfg, n);
                auto job = SortJob::create(ctx(), radix(), n, cfg);
                ASSERT_TRUE(job.ok()) << job.error().message;
                ASSERT_EQ((*job)->plan().tileKeys, tile);
                EXPECT_EQ((*job)->plan().steps.front().workgroups, (n + tile - 1) / tile);
                SortRun got;
                ASSERT_TRUE(runJob(**job, keys, values, got));
                ASSERT_TRUE(matchesReference(keys, values, got, cfg, true));
            }
        }
    SortConfig cfg;
    auto tuned = radix().plan(1000, cfg);
    ASSERT_TRUE(tuned.ok());
    for (uint64_t bad : {uint64_t(1), uint64_t(3), tuned->tileKeys + 1}) {
        cfg.knobs.radixTileKeys = static_cast<uint32_t>(bad);
        auto p = radix().plan(1000, cfg);
        ASSERT_FALSE(p.ok()) << bad;
        EXPECT_EQ(p.error().code, Errc::invalid_argument);
        EXPECT_NE(p.error().message.find("radix4 tiles hold 4 to " + std::to_string(tuned->tileKeys) + " keys"),
                  std::string::npos)
            << p.error().message;
    }
}

// The steps the app checks a lesson against before it has a device (radix::radix4Steps,
// radix::oneSweepSteps) are the device's plans': the same kinds, labels, passes, bits and key
// locations, for either key width, with and without the result step.
TEST_F(RadixTest, StepsWithoutADeviceAreThePlans) {
    auto onesweep = makeSorter(ctx(), Algorithm::onesweep);
    ASSERT_TRUE(onesweep.ok()) << onesweep.error().message;
    using StepsOf = std::vector<Step> (*)(uint64_t, const SortConfig&);
    const std::pair<Sorter*, StepsOf> sorts[] = {{&radix(), radix::radix4Steps},
                                                 {onesweep->get(), radix::oneSweepSteps}};
    for (const auto& [sorter, stepsOf] : sorts)
        for (KeyType key : {KeyType::u32, KeyType::u64})
            for (bool either : {false, true})
                for (uint64_t n : {1u, 10u, 1000u}) {
                    SortConfig cfg;
                    cfg.key = key;
                    cfg.knobs.resultInEither = either;
                    cfg.knobs.radixTileKeys = 8;
                    SCOPED_TRACE(std::string(algorithmName(sorter->algorithm())) + " n = " + std::to_string(n) +
                                 (either ? ", result in either" : ""));
                    auto plan = sorter->plan(n, cfg);
                    ASSERT_TRUE(plan.ok()) << plan.error().message;
                    const std::vector<Step> steps = stepsOf(n, cfg);
                    ASSERT_EQ(steps.size(), plan->steps.size());
                    for (size_t i = 0; i < steps.size(); ++i) {
                        const Step &a = steps[i], &b = plan->steps[i];
                        EXPECT_EQ(a.kind, b.kind) << i;
                        EXPECT_EQ(a.label, b.label) << i;
                        EXPECT_EQ(a.pass, b.pass) << i;
                        EXPECT_EQ(a.bitLo, b.bitLo) << i;
                        EXPECT_EQ(a.bitHi, b.bitHi) << i;
                        EXPECT_EQ(a.keysAfter, b.keysAfter) << i;
                    }
                }
}

// A pass is skipped when every key has the same digit; with 0xfffff keys (5 digits) three passes
// of eight are skipped, an odd number, so the sorted keys end in keysTemp and the result step
// must copy them back.
TEST_F(RadixTest, OddNumberOfSkippedPassesStillEndsInTheKeyBuffer) {
    SortConfig cfg;
    cfg.values = ValueType::u32;
    const uint64_t n = 5000;
    auto keys = generateKeys(KeyType::u32, n, Distribution::uniform, 9);
    maskKeys(keys, KeyType::u32, 0xfffff);
    auto job = SortJob::create(ctx(), radix(), n, cfg);
    ASSERT_TRUE(job.ok()) << job.error().message;
    const auto values = valuesFor(cfg, n);
    SortRun got;
    ASSERT_TRUE(runJob(**job, keys, values, got));
    EXPECT_TRUE(matchesReference(keys, values, got, cfg, true));
    auto last = (*job)->capture();
    ASSERT_TRUE(last.ok());
    EXPECT_EQ(last->keys, got.keys);
    // Pass 7's snapshot says skipped.
    ASSERT_TRUE((*job)->reset().ok());
    ASSERT_TRUE((*job)->runTo(3 * 8).ok());
    auto snap = (*job)->capture();
    ASSERT_TRUE(snap.ok());
    const auto* info = snap->find(AuxKind::passInfo);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->data[0], 7u);
    EXPECT_EQ(info->data[3], 1u);
}

// SortKnobs::resultInEither: no copy back; keys below 2^20 run 5 of 8 passes and end in keysTemp.
TEST_F(RadixTest, ResultInEitherBufferSkipsTheCopyBack) {
    checkResultInEither(ctx(), radix(), 5, 8);
}

// One larger sort (over a million keys, hundreds of workgroups). The scan's multi-chunk path
// (more than 16384 workgroups per digit) needs more keys than lavapipe sorts in test time; the
// H200 benchmarks at 2^26 and 2^28 keys, run with --check, cover it.
TEST_F(RadixTest, LargeU32KeyValueSort) {
    SortConfig cfg;
    cfg.values = ValueType::u32;
    const uint64_t n = (uint64_t(1) << 20) + 12345;
    auto job = SortJob::create(ctx(), radix(), n, cfg);
    ASSERT_TRUE(job.ok()) << job.error().message;
    const auto keys = generateKeys(cfg.key, n, Distribution::uniform, 5);
    const auto values = valuesFor(cfg, n);
    SortRun got;
    ASSERT_TRUE(runJob(**job, keys, values, got));
    EXPECT_TRUE(matchesReference(keys, values, got, cfg, true));
}

} // namespace
} // namespace sortlab::test
