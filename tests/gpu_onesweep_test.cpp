// OneSweep on the GPU, with its lookback and with forced fallback (SortKnobs::forceFallback),
// against std::stable_sort and against the CPU reference pass by pass.
//
// OneSweepSort.MatchesStableSort: every key type x keys-only/key-value x order x {lookback,
//   forced fallback} (48 instances); sizes around the tile T (0, 1, 2, 3, T-1, T, T+1, 5T+7,
//   a random odd size up to 9T); every distribution at small sizes.
// OneSweepStep.EveryStepMatchesTheReference: after the histogram step every pass's histogram;
//   after the scan the offsets; after each pass the keys and values (radix::referencePass with
//   8-bit digits), that pass's histogram and offsets, every tile's status (all inclusive once
//   the pass is done) with its inclusive count, and the fallback count (every tile but the
//   first under forced fallback).
// OneSweepTest.LookbackLogReplaysToTheStatusBuffer: the instrumented kernel's log, replayed to the
//   status buffer each pass left; its statistics; every pass's log after a whole run.
// OneSweepTest.ResultInEitherBufferSkipsTheCopyBack: SortKnobs::resultInEither leaves the result
//   where the last pass wrote it (keysTemp after an odd number of passes).
// OneSweepTest.PortionsMatchStableSort: passes split into portions of 1 or 3 tiles.
// OneSweepTest.ManyTilesAgreeWithAndWithoutFallback: lookback and forced fallback give identical keys and values on
//   many tiles; run several times (lavapipe's scheduling varies; lavapipe is no evidence of forward progress, so do not
//   trust one green run of a spin-wait).
#include <sortlab/testing/gpu_env.h>
#include <sortlab/internal/tuning_overrides.h>
#include <sortlab/internal/tuning.h>

#include <sortlab/lookback.h>
#include <sortlab/radix.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <random>

namespace sortlab::test {
namespace {

class OneSweepTest : public AlgorithmTest<Algorithm::onesweep> {
protected:
    Sorter& onesweep() { return algorithmSorter(); }
    // Under `limits`, a job of `tiles` tiles, the last of `lastKeys` keys, sorts each input (as
    // sortsInput: the keys' and values' seeds), and its last pass falls back as it must; `shape`
    // names the case in failure messages; `checkPlan` (if given) looks at the job's plan first.
    // Defined below, after the helpers it uses.
    void sortsUnderLimits(const SortConfig& cfg, const internal::OneSweepLimits& limits, uint64_t tiles,
                          uint64_t lastKeys, std::initializer_list<const char*> inputs, uint64_t keySeed,
                          uint64_t valueSeed, const std::string& shape,
                          const std::function<void(const Plan&)>& checkPlan = {});
};

class OneSweepSort : public OneSweepTest, public ::testing::WithParamInterface<RadixParam> {};

TEST_P(OneSweepSort, MatchesStableSort) {
    const RadixParam& p = GetParam();
    // lavapipe is slow: 2 of 8 distributions at larger n. Steps: histogram, scan, the 8-bit passes, result.
    radixSortsMatchStableSort(ctx(), onesweep(), p, true,
                              {.tiles = 5,
                               .extra = 7,
                               .spread = 8,
                               .seed = 9000,
                               .keepOf8 = 2,
                               .seedPerN = 31,
                               .steps = 3 + keyBits(p.key) / 8});
}

INSTANTIATE_TEST_SUITE_P(All, OneSweepSort, ::testing::ValuesIn(allRadixParams(true)),
                         [](const auto& info) { return radixParamName(info.param, true); });

// ---- The step path against the reference ------------------------------------------------------

struct StepCase {
    const char* name;
    KeyType key;
    bool values;
    Order order;
    uint64_t tiles100;
    uint64_t extra;
    Distribution dist;
    bool fallback;
    uint32_t tileKeys = 0;      // SortKnobs::radixTileKeys: a teaching tile (0: the tuned one)
    uint32_t skippedPasses = 0; // passes in which one digit holds every key (the keys' structure)
    bool uniformTiles = false;  // whether some tile has keys of one digit only
};

class OneSweepStep : public OneSweepTest, public ::testing::WithParamInterface<StepCase> {};

TEST_P(OneSweepStep, EveryStepMatchesTheReference) {
    const StepCase c = GetParam();
    SortConfig cfg = configFor({c.key, c.values, c.order, c.fallback});
    cfg.knobs.radixTileKeys = c.tileKeys;
    uint64_t T = 0;
    ASSERT_TRUE(plannedTile(onesweep(), cfg, T));
    const uint64_t n = c.tiles100 * T / 100 + c.extra;
    SCOPED_TRACE(describe(cfg) + ", n = " + std::to_string(n));
    const auto input = generateKeys(c.key, n, c.dist, 777 + n);
    const auto inputValues = valuesFor(cfg, n);
    std::unique_ptr<SortJob> job;
    ASSERT_TRUE(uploadedJob(ctx(), onesweep(), cfg, input, inputValues, job));
    const Plan& plan = job->plan();
    const uint32_t passes = keyBits(c.key) / 8;
    ASSERT_EQ(plan.steps.size(), 3u + passes); // histogram, scan, the passes, result
    const uint64_t tiles = (n + T - 1) / T;
    uint32_t skipped = 0, uniformTiles = 0; // passes skipped, tiles written out unranked

    // The reference for every pass, run ahead (the histograms of all passes are known first).
    std::vector<radix::PassState> ref;
    std::vector<std::vector<std::byte>> refKeys;
    std::vector<std::vector<uint32_t>> refValues;
    {
        std::vector<std::byte> k = input;
        std::vector<uint32_t> v = inputValues;
        for (uint32_t p = 0; p < passes; ++p) {
            // Histograms do not depend on the order of the keys, so the input's are every pass's.
            ref.push_back(radix::referencePass(k, v, c.key, c.order, 8 * p, 8, T));
            refKeys.push_back(k);
            refValues.push_back(v);
        }
    }
    // What the case is there to show: the passes the distribution makes trivial, tiles of one digit.
    uint32_t trivial = 0;
    for (const auto& r : ref) trivial += r.skipped;
    EXPECT_EQ(trivial, c.skippedPasses) << "the case's keys skip other passes than the table says";
    for (size_t i = 0; i < plan.steps.size(); ++i) {
        const Step& s = plan.steps[i];
        SCOPED_TRACE("after step " + std::to_string(i) + " '" + s.label + "'");
        ASSERT_TRUE(job->runTo(i + 1).ok());
        auto snap = job->capture();
        ASSERT_TRUE(snap.ok()) << snap.error().message;
        if (s.kind == StepKind::result) { // the sorted keys, in `keys` whatever number of passes ran
            EXPECT_EQ(snap->keys, refKeys.back());
            EXPECT_EQ(snap->values, refValues.back());
            continue;
        }
        const auto* hist = snap->find(AuxKind::histogram);
        ASSERT_TRUE(hist);
        if (s.kind == StepKind::histogram || s.kind == StepKind::scan) {
            // Every pass's histogram (and after the scan its offsets), passes one after another.
            auto everyPass = [&](std::vector<uint64_t> radix::PassState::*field) {
                std::vector<uint32_t> want;
                for (auto& r : ref)
                    for (uint64_t x : r.*field) want.push_back(static_cast<uint32_t>(x));
                return want;
            };
            const auto* all = snap->find(AuxKind::allHistograms);
            ASSERT_TRUE(all);
            EXPECT_EQ(all->data, everyPass(&radix::PassState::histogram));
            EXPECT_EQ(hist->data, narrow(ref[0].histogram));
            EXPECT_EQ(snap->keys, input); // nothing moved yet
            if (s.kind == StepKind::scan) {
                const auto* off = snap->find(AuxKind::allOffsets);
                ASSERT_TRUE(off);
                EXPECT_EQ(off->data, everyPass(&radix::PassState::offsets));
            }
            continue;
        }
        ASSERT_EQ(s.kind, StepKind::pass);
        const radix::PassState& r = ref[s.pass];
        EXPECT_EQ(hist->data, narrow(r.histogram));
        const auto* off = snap->find(AuxKind::offsets);
        const auto* status = snap->find(AuxKind::tileStatus);
        const auto* counts = snap->find(AuxKind::tileCounts);
        const auto* fallbacks = snap->find(AuxKind::fallbacks);
        const auto* info = snap->find(AuxKind::passInfo);
        const auto* uniform = snap->find(AuxKind::uniformTiles);
        ASSERT_TRUE(off && status && counts && fallbacks && info && uniform);
        EXPECT_EQ(off->data, narrow(r.offsets));
        // A pass in which one digit holds every key is skipped: no tile runs, no key moves.
        EXPECT_EQ(info->data, (std::vector<uint32_t>{s.pass, s.bitLo, s.bitHi, r.skipped ? 1u : 0u}));
        if (r.skipped) {
            skipped += 1;
            EXPECT_EQ(uniform->data, std::vector<uint32_t>{0u});
            EXPECT_EQ(fallbacks->data, std::vector<uint32_t>{0u});
            EXPECT_EQ(snap->keys, refKeys[s.pass]);
            EXPECT_EQ(snap->values, refValues[s.pass]);
            if (HasFailure()) return;
            continue;
        }
        // The tiles whose keys all have one digit are staged unranked, and counted.
        const uint32_t oneDigit = static_cast<uint32_t>(r.oneDigitTiles());
        uniformTiles += oneDigit;
        EXPECT_EQ(uniform->data, std::vector<uint32_t>{oneDigit});
        ASSERT_EQ(status->shape, (std::vector<uint32_t>{static_cast<uint32_t>(tiles), 256u}));
        // After the pass every tile holds its inclusive prefix: digit d's count over tiles 0..t.
        std::vector<uint32_t> wantCounts(tiles * 256);
        for (uint32_t d = 0; d < 256; ++d) {
            uint64_t run = 0;
            for (uint64_t t = 0; t < tiles; ++t) {
                run += r.counts[d * tiles + t];
                wantCounts[t * 256 + d] = static_cast<uint32_t>(run);
            }
        }
        EXPECT_EQ(status->data, std::vector<uint32_t>(tiles * 256, 2u));
        EXPECT_EQ(counts->data, wantCounts);
        ASSERT_EQ(fallbacks->data.size(), 1u);
        if (c.fallback) {
            EXPECT_EQ(fallbacks->data[0], tiles - 1);
        } else {
            EXPECT_LE(fallbacks->data[0], tiles - 1);
        }
        EXPECT_EQ(snap->keys, refKeys[s.pass]);
        EXPECT_EQ(snap->values, refValues[s.pass]);
        if (HasFailure()) return;
    }
    std::vector<std::byte> sorted = input;
    std::vector<uint32_t> sortedValues = inputValues;
    referenceSort(sorted, sortedValues, c.key, c.order);
    EXPECT_EQ(refKeys.back(), sorted);
    EXPECT_EQ(refValues.back(), sortedValues);
    EXPECT_EQ(skipped, c.skippedPasses);
    if (c.uniformTiles) {
        EXPECT_GT(uniformTiles, 0u) << "no tile of one digit: the case does not reach the unranked write-out";
    }
    std::printf("[sortlab] %s: %u of %u passes skipped, %u tiles written out unranked\n", describe(cfg).c_str(),
                skipped, passes, uniformTiles);
}

// clang-format off
const StepCase kStepCases[] = {
    // name                  key           kv     order              tiles% extra dist                      fallback
    {"u32_kv_lookback", KeyType::u32, true, Order::ascending, 400, 13, Distribution::uniform, false},
    {"u32_kv_fallback", KeyType::u32, true, Order::ascending, 400, 13, Distribution::uniform, true},
    {"i32_desc_partial", KeyType::i32, false, Order::descending, 60, 0, Distribution::gaussian, false},
    {"f32_special_fallback", KeyType::f32, true, Order::ascending, 230, 1, Distribution::special, true},
    {"u64_kv_lookback", KeyType::u64, true, Order::ascending, 310, 5, Distribution::uniform, false},
    {"f64_desc_fallback", KeyType::f64, false, Order::descending, 210, 3, Distribution::few_unique, true},
    // Teaching tiles (SortKnobs::radixTileKeys): 64 keys in 8-key tiles, so that the chained scan runs
    // over 8 tiles (keys below 100: passes 1..3 skipped); 4- and 16-key tiles, with lookback and
    // with forced fallback.
    {"u32_tile8_lookback", KeyType::u32, true, Order::ascending, 800, 0, Distribution::small, false, 8, 3},
    {"u32_tile8_fallback", KeyType::u32, true, Order::ascending, 800, 0, Distribution::small, true, 8, 3},
    {"i32_tile4_fallback", KeyType::i32, false, Order::descending, 2500, 3, Distribution::uniform, true, 4},
    {"u64_tile16_lookback", KeyType::u64, true, Order::ascending, 1700, 9, Distribution::uniform, false, 16},
    {"f32_tile4_lookback", KeyType::f32, false, Order::ascending, 1900, 1, Distribution::special, false, 4},
    // Keys with structure: passes skipped (narrow: the top two of u32 keys, four of u64 keys, an
    // even number; bits: pass 0, so three passes run and the result step copies the keys back;
    // equal: every pass), and few-unique keys, whose tiles after pass 0 mostly hold one key.
    {"u32_narrow_kv", KeyType::u32, true, Order::ascending, 300, 7, Distribution::narrow, false, 0, 2},
    {"u64_narrow_fallback", KeyType::u64, false, Order::descending, 250, 3, Distribution::narrow, true, 0, 4},
    {"i32_bits_kv_fallback", KeyType::i32, true, Order::ascending, 350, 1, Distribution::bits, true, 0, 1},
    {"i64_bits_lookback", KeyType::i64, true, Order::descending, 1700, 5, Distribution::bits, false, 16, 1},
    {"u32_equal_kv", KeyType::u32, true, Order::ascending, 200, 9, Distribution::equal, false, 0, 4},
    {"u64_equal_fallback", KeyType::u64, false, Order::ascending, 150, 0, Distribution::equal, true, 0, 8},
    {"u32_few_tile16_kv", KeyType::u32, true, Order::ascending, 2000, 3, Distribution::few_unique, false, 16, 0, true},
    {"u64_few_tile16_fb", KeyType::u64, true, Order::descending, 1500, 0, Distribution::few_unique, true, 16, 0, true},
    {"u32_few_kv", KeyType::u32, true, Order::ascending, 3000, 0, Distribution::few_unique, false, 0, 0, true},
};
// clang-format on

INSTANTIATE_TEST_SUITE_P(Cases, OneSweepStep, ::testing::ValuesIn(kStepCases),
                         [](const auto& info) { return std::string(info.param.name); });

// n keys, each one of two values that differ in every byte, in a random order.
std::vector<std::byte> twoKeys(KeyType key, uint64_t n, uint64_t seed) {
    const uint32_t kb = keyBytes(key);
    const uint64_t a = 0x1122334455667788ull, b = 0x99aabbccddeeff01ull;
    std::vector<std::byte> out(n * kb);
    std::mt19937_64 rng(seed);
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t v = (rng() & 1) ? a : b;
        std::memcpy(out.data() + i * kb, &v, kb); // the low kb bytes (little-endian)
    }
    return out;
}

// The keys of one of the inputs the pass tests sort: "uniform" and "bits" (random, from `seed`),
// "two keys" (twoKeys, from `twoKeysSeed`), "byte 1 zero" (uniform keys whose byte 1 is zero:
// integer keys skip pass 1).
std::vector<std::byte> inputKeys(KeyType key, uint64_t n, const std::string& input, uint64_t twoKeysSeed,
                                 uint64_t seed) {
    if (input == "two keys") return twoKeys(key, n, twoKeysSeed);
    auto keys = generateKeys(key, n, input == "bits" ? Distribution::bits : Distribution::uniform, seed);
    if (input == "byte 1 zero")
        for (uint64_t i = 0; i < n; ++i) keys[i * keyBytes(key) + 1] = std::byte{0};
    return keys;
}

// One of inputKeys' inputs sorted by `job` and checked against the reference sort (stable: the
// values keep their order); the failure names the input.
::testing::AssertionResult sortsInput(SortJob& job, const SortConfig& cfg, uint64_t n, const std::string& input,
                                      uint64_t twoKeysSeed, uint64_t seed) {
    const auto keys = inputKeys(cfg.key, n, input, twoKeysSeed, seed);
    const auto values = valuesFor(cfg, n);
    SortRun got;
    if (auto ran = runJob(job, keys, values, got); !ran) return ran << " (" << input << ")";
    if (auto same = matchesReference(keys, values, got, cfg, true); !same) return same << " (" << input << ")";
    return ::testing::AssertionSuccess();
}

// The plan's last pass (the result step comes after it).
const Step& lastPassStep(const Plan& plan) {
    size_t at = plan.steps.size();
    while (at > 1 && plan.steps[at - 1].kind != StepKind::pass) --at;
    return plan.steps[at - 1];
}

// The last pass's `fallbacks` after a run: every tile but the first of each portion under forced
// fallback (exactly), at most that many otherwise.
::testing::AssertionResult lastPassFallbacks(SortJob& job, bool forced) {
    const auto& steps = job.plan().steps;
    size_t at = steps.size();
    while (at > 0 && steps[at - 1].kind != StepKind::pass) --at;
    if (at == 0) return ::testing::AssertionFailure() << "no pass step";
    auto aux = job.captureAuxOf(at, AuxKind::fallbacks);
    if (!aux) return ::testing::AssertionFailure() << aux.error().message;
    const Step& last = steps[at - 1];
    auto info = job.captureAuxOf(at, AuxKind::passInfo);
    if (!info || info->empty() || info->front().data.size() != 4)
        return ::testing::AssertionFailure() << "no pass info";
    // A skipped pass (every key with one digit, as tiny n often are) ran no tile.
    const uint64_t most = info->front().data[3] ? 0 : last.workgroups - last.portions;
    for (const auto& a : *aux)
        if (a.kind == AuxKind::fallbacks && a.data.size() == 1) {
            if (forced ? a.data[0] == most : a.data[0] <= most) return ::testing::AssertionSuccess();
            return ::testing::AssertionFailure()
                   << "fallbacks " << a.data[0] << (forced ? ", want " : ", want at most ") << most;
        }
    return ::testing::AssertionFailure() << "no fallbacks array";
}

void OneSweepTest::sortsUnderLimits(const SortConfig& cfg, const internal::OneSweepLimits& limits, uint64_t tiles,
                                    uint64_t lastKeys, std::initializer_list<const char*> inputs, uint64_t keySeed,
                                    uint64_t valueSeed, const std::string& shape,
                                    const std::function<void(const Plan&)>& checkPlan) {
    const bool fb = cfg.knobs.forceFallback;
    internal::ScopedOneSweepLimits scoped(onesweep(), limits);
    auto probe = onesweep().plan(1, cfg);
    ASSERT_TRUE(probe.ok()) << probe.error().message;
    const uint64_t n = (tiles - 1) * probe->tileKeys + lastKeys;
    SCOPED_TRACE(describe(cfg) + (fb ? " forced fallback" : " lookback") + ", " + shape + ", tile of " +
                 std::to_string(probe->tileKeys) + ", n = " + std::to_string(n));
    auto job = SortJob::create(ctx(), onesweep(), n, cfg);
    ASSERT_TRUE(job.ok()) << job.error().message;
    if (checkPlan) {
        checkPlan((*job)->plan());
        if (HasFatalFailure()) return;
    }
    for (const char* input : inputs) {
        ASSERT_TRUE(sortsInput(**job, cfg, n, input, keySeed, valueSeed));
    }
    EXPECT_TRUE(lastPassFallbacks(**job, fb));
}

// Teaching tiles at n from 1 to 300 (4-, 8- and 16-key tiles, with lookback and forced fallback),
// and the tile sizes the planner refuses, with a message naming the sizes that work.
// SortKnobs::resultInEither: no copy back; keys below 2^20 run 3 of 4 passes and end in keysTemp.
TEST_F(OneSweepTest, ResultInEitherBufferSkipsTheCopyBack) {
    checkResultInEither(ctx(), onesweep(), 3, 4);
}

TEST_F(OneSweepTest, TeachingTilesSortEverySmallN) {
    for (uint32_t tile : {4u, 8u, 16u})
        for (bool fb : {false, true}) {
            SortConfig cfg;
            cfg.values = ValueType::u32;
            cfg.knobs.forceFallback = fb;
            cfg.knobs.radixTileKeys = tile;
            for (uint64_t n = 1; n <= 300; n += (n < 24 ? 1 : 41)) {
                SCOPED_TRACE("tile " + std::to_string(tile) + ", n = " + std::to_string(n) + (fb ? ", fallback" : ""));
                const auto keys = generateKeys(KeyType::u32, n, Distribution::uniform, n + tile);
                const auto values = valuesFor(cfg, n);
                auto job = SortJob::create(ctx(), onesweep(), n, cfg);
                ASSERT_TRUE(job.ok()) << job.error().message;
                ASSERT_EQ((*job)->plan().tileKeys, tile);
                ASSERT_EQ((*job)->plan().steps.front().kind, StepKind::histogram);
                ASSERT_EQ((*job)->plan().steps[2].workgroups, (n + tile - 1) / tile); // pass 0's tiles
                SortRun got;
                ASSERT_TRUE(runJob(**job, keys, values, got));
                ASSERT_TRUE(matchesReference(keys, values, got, cfg, true));
                EXPECT_TRUE(lastPassFallbacks(**job, fb));
            }
        }
    SortConfig cfg;
    auto tuned = onesweep().plan(1000, cfg);
    ASSERT_TRUE(tuned.ok());
    for (uint64_t bad : {uint64_t(2), tuned->tileKeys + 1}) {
        cfg.knobs.radixTileKeys = static_cast<uint32_t>(bad);
        auto p = onesweep().plan(1000, cfg);
        ASSERT_FALSE(p.ok()) << bad;
        EXPECT_NE(p.error().message.find("onesweep tiles hold 4 to " + std::to_string(tuned->tileKeys) + " keys"),
                  std::string::npos)
            << p.error().message;
    }
}

// The lookback log (SortKnobs::logLookback) at 8-key tiles, step by step: after each pass the
// replay's last state is the status buffer the pass left (flags and counts, every digit); every
// tile's record took an id and published every digit; the statistics add up over the records; a
// digit's events come in event order. After a whole run (run()), each pass's log is still there
// (SortJob::captureAuxOf), and the sort is right.
TEST_F(OneSweepTest, LookbackLogReplaysToTheStatusBuffer) {
    for (bool fb : {false, true}) {
        SCOPED_TRACE(fb ? "forced fallback" : "lookback");
        SortConfig cfg;
        cfg.values = ValueType::u32;
        cfg.knobs.forceFallback = fb;
        cfg.knobs.radixTileKeys = 8;
        cfg.knobs.logLookback = true;
        const uint64_t n = 61, tiles = 8;
        // Few distinct keys: no pass is skipped (a skipped pass logs nothing), and some tiles after
        // pass 0 hold one key (written out unranked, and logged like any other).
        const auto keys = generateKeys(KeyType::u32, n, Distribution::few_unique, 3);
        const auto values = valuesFor(cfg, n);
        auto job = SortJob::create(ctx(), onesweep(), n, cfg);
        ASSERT_TRUE(job.ok()) << job.error().message;
        SortJob& j = **job;
        ASSERT_TRUE(j.upload(keys, values).ok());
        size_t passes = 0;
        for (size_t step = 0; step < j.plan().steps.size(); ++step) {
            ASSERT_TRUE(j.runTo(step + 1).ok());
            if (j.plan().steps[step].kind != StepKind::pass) continue;
            ++passes;
            auto snap = j.capture();
            ASSERT_TRUE(snap.ok()) << snap.error().message;
            const Snapshot::Aux *log = snap->find(AuxKind::lookbackLog), *flags = snap->find(AuxKind::tileStatus),
                                *counts = snap->find(AuxKind::tileCounts);
            ASSERT_TRUE(log && flags && counts);
            const std::vector<LookbackRecord> records = lookbackRecords(*log);
            ASSERT_EQ(records.size(), tiles);
            uint32_t last = 0;
            for (size_t t = 0; t < tiles; ++t) {
                EXPECT_GT(records[t].took, 0u) << t;
                EXPECT_GT(records[t].inclusive, records[t].took) << t;
                // Forced: every tile but the first falls back. Otherwise a tile may still fall back (a
                // status not ready 64 reads in a row: lavapipe under load does it), never tile 0.
                if (fb || t == 0) {
                    EXPECT_EQ(records[t].fellBack, t > 0) << t;
                }
                last = std::max(last, records[t].inclusive);
                for (uint32_t d = 0; d < 256 && t > 0; ++d) {
                    EXPECT_GT(records[t].walks[d].published, records[t].aggregate) << t << " " << d;
                    EXPECT_GE(records[t].walks[d].depth(), 1u);
                    if (fb) {
                        EXPECT_GT(records[t].walks[d].counted, 0u) << t << " " << d; // forced: t-1 counted
                    }
                    if (records[t].walks[d].counted > 0) {
                        EXPECT_TRUE(records[t].fellBack) << t << " " << d;
                    }
                }
            }
            for (uint32_t d = 0; d < 256; ++d) {
                const LookbackState end = lookbackStateAt(records, *counts, d, last);
                const LookbackState before = lookbackStateAt(records, *counts, d, 0);
                for (size_t t = 0; t < tiles; ++t) {
                    ASSERT_EQ(end.flag[t], flags->data[t * 256 + d]) << "tile " << t << " digit " << d;
                    ASSERT_EQ(end.count[t], counts->data[t * 256 + d]) << "tile " << t << " digit " << d;
                    ASSERT_EQ(before.flag[t], 0u);
                }
                const std::vector<LookbackEvent> events = lookbackEvents(records, d);
                EXPECT_EQ(events.size(), 3 * tiles - 1); // took, aggregate (not tile 0), published
                EXPECT_TRUE(
                    std::is_sorted(events.begin(), events.end(),
                                   [](const LookbackEvent& a, const LookbackEvent& b) { return a.event < b.event; }));
            }
            const LookbackStats st = lookbackStats(records);
            EXPECT_EQ(st.tiles, tiles);
            EXPECT_EQ(st.walks, (tiles - 1) * 256);
            uint64_t walks = 0;
            for (uint64_t c : st.depthCount) walks += c;
            EXPECT_EQ(walks, st.walks);
            // The log's fallbacks are the pass's own count of them (SORTLAB_OS_FALLBACKS).
            const Snapshot::Aux* gpuFallbacks = snap->find(AuxKind::fallbacks);
            ASSERT_TRUE(gpuFallbacks && gpuFallbacks->data.size() == 1);
            EXPECT_EQ(st.fallbacks, gpuFallbacks->data[0]);
            if (fb) {
                EXPECT_EQ(st.fallbacks, tiles - 1);
            }
            EXPECT_GE(st.maxDepth, st.p99Depth);
            EXPECT_GE(st.p99Depth, st.medianDepth);
            EXPECT_GE(st.medianDepth, 1u);
            EXPECT_GE(st.inFlightMax, 1u);
            EXPECT_LE(st.inFlightMax, tiles);
        }
        EXPECT_EQ(passes, 4u);
        // A whole run: every pass's log is read after the last step.
        SortRun got;
        ASSERT_TRUE(runJob(j, keys, values, got));
        ASSERT_TRUE(matchesReference(keys, values, got, cfg, true));
        for (size_t step = 0; step < j.plan().steps.size(); ++step) {
            if (j.plan().steps[step].kind != StepKind::pass) continue;
            auto aux = j.captureAuxOf(step + 1, AuxKind::lookbackLog);
            ASSERT_TRUE(aux.ok()) << aux.error().message;
            ASSERT_EQ(aux->size(), 1u);
            EXPECT_EQ(lookbackRecords(aux->front()).size(), tiles);
        }
        EXPECT_FALSE(j.captureAuxOf(j.plan().steps.size() + 1, AuxKind::lookbackLog).ok());
    }
}

// Passes in several portions (internal::OneSweepLimits::portionTiles), each its own chained scan whose last tile
// tells the next portion where its digits start: 32- and 64-bit keys (64-bit keys run 8 passes,
// so the status rows a short last portion leaves behind are cleared before the next pass), both
// paths, portion sizes that do and do not divide the tiles, and one job run twice with other keys
// (statuses left by the first run must not read as ready).
TEST_F(OneSweepTest, PortionsMatchStableSort) {
    for (KeyType key : {KeyType::u32, KeyType::u64, KeyType::f32})
        for (bool kv : {false, true})
            for (bool fb : {false, true})
                for (uint32_t portion : {1u, 3u}) {
                    const SortConfig cfg = configFor({key, kv, Order::ascending, fb});
                    internal::ScopedOneSweepLimits limits(onesweep(), {portion, 0});
                    auto probe = onesweep().plan(1, cfg);
                    ASSERT_TRUE(probe.ok()) << probe.error().message;
                    const uint64_t n = 7 * probe->tileKeys + 5; // 8 tiles: portions of 3, 3, 2 (or 8 of 1)
                    SCOPED_TRACE(describe(cfg) + (fb ? " forced fallback" : " lookback") + ", portions of " +
                                 std::to_string(portion) + " tiles, n = " + std::to_string(n));
                    auto job = SortJob::create(ctx(), onesweep(), n, cfg);
                    ASSERT_TRUE(job.ok()) << job.error().message;
                    const Step& last = lastPassStep((*job)->plan());
                    ASSERT_EQ(last.workgroups, 8u);
                    EXPECT_EQ(last.portions, portion == 1 ? 8u : 3u);
                    // Run 2: keys whose low byte is zero skip pass 0 (integer keys), so the passes
                    // that run take their epochs and buffers from the passes that ran before them.
                    for (int run = 0; run < 3; ++run) {
                        const Distribution dist = run == 0   ? Distribution::uniform
                                                  : run == 1 ? Distribution::gaussian
                                                             : Distribution::bits;
                        const auto keys = generateKeys(key, n, dist, 100 + run + portion);
                        const auto values = valuesFor(cfg, n);
                        SortRun got;
                        ASSERT_TRUE(runJob(**job, keys, values, got));
                        ASSERT_TRUE(matchesReference(keys, values, got, cfg, true)) << "run " << run;
                        // The first tile of each portion never falls back; under forced fallback
                        // every other tile does.
                        EXPECT_TRUE(lastPassFallbacks(**job, fb));
                    }
                }
}

// A persistent pass kernel (tuning::OneSweepTuning::persistent) with internal::OneSweepLimits::passWorkgroups capped
// at 1, 2 and 3: each workgroup takes several tiles in turn, loading the next one's keys while it
// works on this one; alone and with portions of 2 and 3 tiles (a dispatch per portion and twin,
// each with its own tile counter; 4 and 3 portions, so that a twin's epoch, (twin x portions +
// portion) & 1, is tested with an even and an odd number); both paths. Sorts of 64-bit keys run one tile per workgroup
// and must ignore the cap; 32-bit key-value sorts are persistent too (their values loaded after the ranking). 64-bit
// keys stage their tiles in halves: signed and descending float keys too, whose halves map back to keys differently
// (the float's low word by its high word's sign).
TEST_F(OneSweepTest, PersistentWorkgroupsTakeSeveralTiles) {
    for (KeyType key : {KeyType::u32, KeyType::u64, KeyType::i32, KeyType::i64, KeyType::f64})
        for (bool kv : {false, true})
            for (bool fb : {false, true})
                for (uint32_t groups : {1u, 2u, 3u})
                    for (uint32_t portion : {0u, 2u, 3u}) {
                        const Order order =
                            key == KeyType::i32 || key == KeyType::f64 ? Order::descending : Order::ascending;
                        const SortConfig cfg = configFor({key, kv, order, fb});
                        internal::ScopedOneSweepLimits limits(onesweep(), {portion, groups});
                        auto probe = onesweep().plan(1, cfg);
                        ASSERT_TRUE(probe.ok()) << probe.error().message;
                        const uint64_t n = 7 * probe->tileKeys + 5; // 8 tiles
                        SCOPED_TRACE(describe(cfg) + (fb ? " forced fallback" : " lookback") + ", " +
                                     std::to_string(groups) + " workgroups, portions of " + std::to_string(portion) +
                                     " tiles, n = " + std::to_string(n));
                        auto job = SortJob::create(ctx(), onesweep(), n, cfg);
                        ASSERT_TRUE(job.ok()) << job.error().message;
                        const Step& last = lastPassStep((*job)->plan());
                        ASSERT_EQ(last.workgroups, 8u);
                        const bool persistent = tuning::oneSweep(keyBytes(key), kv, n).tiles.persistent;
                        EXPECT_EQ(last.dispatchedWorkgroups,
                                  persistent ? std::min<uint64_t>(groups, portion ? portion : 8) : 0u);
                        for (const char* input : {"uniform", "two keys", "bits", "byte 1 zero"}) {
                            // Two distinct keys (differing in every byte): after pass 0 they lie in
                            // two runs, so most tiles of the later passes hold one digit and are
                            // written out unranked, and a workgroup loads its next tile after that.
                            // Integer keys whose low byte is zero skip pass 0: each later pass runs
                            // as its other twin (reading `keys`). With byte 1 zero pass 1 is
                            // skipped, and passes 0 and 2 are dispatches of the same parity: pass 2
                            // must not read pass 0's statuses as its own (the twins' epochs, and the
                            // epoch one tile a workgroup works out from where the keys are).
                            ASSERT_TRUE(sortsInput(**job, cfg, n, input, 300 + groups, 300 + groups + portion));
                        }
                        // Every tile but each portion's first counts its predecessor under forced
                        // fallback, whichever workgroup takes it.
                        EXPECT_TRUE(lastPassFallbacks(**job, fb));
                    }
}

// The subgroups' digit counts in the staged tile's shared memory (tuning::OneSweepTuning::countsInTile)
// and apart, whatever the table says for the key type: the ranking keeps each key's place and
// stages the keys after a barrier, the fallback counts past the counts, and a persistent workgroup's
// write-out zeroes the counts for its next tile. One tile a workgroup and 2 persistent workgroups
// (5 tiles each way); random keys, tiles of one digit (staged in order), forced fallback, values
// and 64-bit keys (staged in halves). And a workgroup of 64 invocations, 2 keys each: fewer slots
// than count words, so the count words past the tile are zeroed on their own.
TEST_F(OneSweepTest, CountsInTheStagedTileOrApart) {
    struct Shape {
        uint32_t workgroup, keysPerLane;
    };
    for (Shape shape : {Shape{0, 0}, Shape{64, 2}})
        for (int inTile : {0, 1})
            for (uint32_t groups : {0u, 2u})
                for (KeyType key : {KeyType::u32, KeyType::u64})
                    for (bool kv : {false, true})
                        for (bool fb : {false, true}) {
                            sortsUnderLimits(configFor({key, kv, Order::ascending, fb}),
                                             {.passWorkgroups = groups,
                                              .workgroup = shape.workgroup,
                                              .keysPerLane = shape.keysPerLane,
                                              .countsInTile = inTile},
                                             5, 5, {"uniform", "two keys"}, 500 + groups, 500 + inTile,
                                             std::string(inTile ? "counts in the tile" : "counts apart") + ", " +
                                                 (groups ? "2 persistent workgroups" : "one tile a workgroup"));
                            if (HasFatalFailure()) return;
                        }
}

// One tile a workgroup, each workgroup's tile its own index (tuning::OneSweepTuning::minIndexTiles;
// forced here at every size) or the next id from the pass's counter: 32- and 64-bit keys, with and
// without values, lookback and forced fallback; random keys, two keys (tiles of one digit, staged in
// order) and keys whose byte 1 is zero (integer keys: pass 1 skipped, its workgroups leave on the
// scan's word before anything else, and pass 2 reads where pass 0 left the keys, with pass 0's
// epoch parity). lavapipe hands each of its threads a range of workgroups, so that a tile may start
// before its predecessors: its walk, stuck on them, falls back. (At thousands of tiles it falls back
// on thousands, and lavapipe ends its loops: cli_onesweep_index_tiles_folded runs on one thread.)
TEST_F(OneSweepTest, TilesByWorkgroupIndexOrCounter) {
    for (int byIndex : {0, 1})
        for (KeyType key : {KeyType::u32, KeyType::u64})
            for (bool kv : {false, true})
                for (bool fb : {false, true}) {
                    sortsUnderLimits(
                        configFor({key, kv, Order::ascending, fb}), {.oneTileAWorkgroup = true, .indexTiles = byIndex},
                        7, 7, {"uniform", "two keys", "byte 1 zero"}, 700 + byIndex, 710 + byIndex,
                        byIndex ? "tiles by workgroup index" : "tiles from the counter", [](const Plan& plan) {
                            const Step& last = lastPassStep(plan);
                            ASSERT_EQ(last.workgroups, 7u);
                            EXPECT_EQ(last.dispatchedWorkgroups, 0u); // one tile a workgroup
                        });
                    if (HasFatalFailure()) return;
                }
}

// u32 keys without values, u64 keys without values from 3 x 2^20 keys and u32/u32 pairs from 3 x 2^20
// to 2^26 run the pass module built for their tuning row's keys a lane and lookback stride
// (onesweep_pass(_index)_kpt20_s7 or _s0 where the plan takes no lookback steps,
// onesweep_pass(_index)_kpt28_s0, onesweep_pass(_index)_kpt20_s0.k1.v1: both constants, the loops
// unrolled by spirv-opt), so a retuned row that the build makes no module for fails here instead of
// running slower; a teaching tile, whose keys a lane differ, u64 keys below 3 x 2^20 (their row of 17
// keys a lane) and u32/u32 pairs below it (18) run the module that takes them as specialization
// constants. All sort.
TEST_F(OneSweepTest, TunedKeysPerLaneRunTheirOwnPassModule) {
    const bool cpu = ctx().info().type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    auto passModule = [&] {
        std::string found;
        for (const PipelineStatistics& p : ctx().pipelinesUsed())
            if (p.pipeline.rfind("onesweep_pass", 0) == 0) found = p.pipeline.substr(0, p.pipeline.find(' '));
        return found;
    };
    struct Case {
        KeyType key;
        uint64_t n;
        uint32_t tileKeys;
        bool ownModule;
        bool values = false;
    };
    const uint64_t large = 3u << 20;
    static_assert(tuning::oneSweep(8, false, large - 1).pass.keysPerLane == 17);
    static_assert(tuning::oneSweep(8, false, large).pass.keysPerLane == 28);
    static_assert(tuning::oneSweep(4, true, large - 1).pass.keysPerLane == 18);
    static_assert(tuning::oneSweep(4, true, large).pass.keysPerLane == 20);
    static_assert(tuning::oneSweep(4, true, uint64_t(1) << 26).pass.keysPerLane == 20);
    static_assert(tuning::oneSweep(4, true, (uint64_t(1) << 26) + 1).pass.keysPerLane == 18);
    for (const Case c : {Case{KeyType::u32, 100003, 0, true}, Case{KeyType::u32, 300000, 0, true},
                         Case{KeyType::u32, 100003, 64, false}, Case{KeyType::u64, 100003, 0, false},
                         Case{KeyType::u64, large + 3, 0, true}, Case{KeyType::u32, 100003, 0, false, true},
                         Case{KeyType::u32, large + 3, 0, true, true}}) {
        const tuning::OneSweepTuning t = tuning::oneSweep(keyBytes(c.key), c.values, c.n);
        const std::string kpt = "_kpt" + std::to_string(t.pass.keysPerLane) + "_s";
        SortConfig cfg = configFor({c.key, c.values, Order::ascending, false});
        cfg.knobs.radixTileKeys = c.tileKeys;
        SCOPED_TRACE(describe(cfg) + (c.tileKeys ? ", a teaching tile of 64 keys, n = " : ", the tuned tile, n = ") +
                     std::to_string(c.n));
        ctx().beginPipelineUse();
        auto job = SortJob::create(ctx(), onesweep(), c.n, cfg);
        ASSERT_TRUE(job.ok()) << job.error().message;
        const std::string module = passModule();
        if (!c.ownModule) {
            EXPECT_EQ(module.find("_kpt"), std::string::npos) << module;
        } else {
            EXPECT_NE(module.find(kpt), std::string::npos) << module;
            EXPECT_TRUE(module.ends_with(c.key == KeyType::u64 ? ".k2.v0" : c.values ? ".k1.v1" : ".k1.v0")) << module;
            // On a CPU device the first has too few tiles to be persistent, so no lookback steps;
            // the second is persistent, with the row's steps. (u64 keys take none.)
            if (cpu && c.key == KeyType::u32 && !c.values) {
                EXPECT_NE(module.find(kpt + std::to_string(c.n == 100003 ? 0 : t.tiles.lookbackStride) + "."),
                          std::string::npos)
                    << module;
            }
        }
        ASSERT_TRUE(sortsInput(**job, cfg, c.n, "uniform", 720, 721));
    }
}

// The write-out in rounds (tuning::OneSweepTuning::exchangeRounds, forced here at 2 and 4 rounds
// of 8 keys a lane, the counts apart): the staged tile holds a half or a quarter of the tile, each
// round stages the keys whose places fall in it, and 64-bit keys stage their two halves in turn
// within each round. 32- and 64-bit keys, both orders, with and without values, lookback and forced
// fallback; random keys, two keys (tiles of one digit, staged in order) and a last tile short of
// keys (its missing keys staged in the last round, never written).
TEST_F(OneSweepTest, WriteOutInRounds) {
    for (uint32_t rounds : {2u, 4u})
        for (KeyType key : {KeyType::u32, KeyType::u64, KeyType::f64})
            for (bool kv : {false, true})
                for (bool fb : {false, true}) {
                    const Order order = key == KeyType::f64 ? Order::descending : Order::ascending;
                    sortsUnderLimits(
                        configFor({key, kv, order, fb}),
                        {.keysPerLane = 8, .countsInTile = 0, .exchangeRounds = rounds, .oneTileAWorkgroup = true}, 5,
                        5, {"uniform", "two keys"}, 800 + rounds, 810 + rounds,
                        std::to_string(rounds) + " rounds"); // (the last tile of 5 keys)
                    if (HasFatalFailure()) return;
                }
}

// Without internal::OneSweepLimits::passWorkgroups a pass is persistent only from
// tuning::OneSweepTuning::minPersistentTiles tiles on (minPersistentTilesCpu on a CPU device, with
// persistentWorkgroupsCpu workgroups at most; plans only: nothing runs).
TEST_F(OneSweepTest, PersistentFromEnoughTiles) {
    SortConfig cfg;
    auto probe = onesweep().plan(1, cfg);
    ASSERT_TRUE(probe.ok()) << probe.error().message;
    const tuning::OneSweepTuning t = tuning::oneSweep(4, false, 0);    // (one row for u32 keys at every n)
    const bool cpu = ctx().info().type == VK_PHYSICAL_DEVICE_TYPE_CPU; // the CPU rows (lavapipe)
    const uint64_t T = probe->tileKeys, most = cpu ? t.tiles.persistentWorkgroupsCpu : t.tiles.persistentWorkgroups;
    const uint64_t from = cpu ? t.tiles.minPersistentTilesCpu : t.tiles.minPersistentTiles;
    const bool never = from == tuning::kNever; // one tile a workgroup at every size
    for (uint64_t tiles : {uint64_t(1), never ? 1000 : from - 1, never ? 5000 : from, 4 * most}) {
        auto p = onesweep().plan(tiles * T, cfg);
        ASSERT_TRUE(p.ok()) << p.error().message;
        const Step& last = lastPassStep(*p);
        EXPECT_EQ(last.workgroups, tiles);
        const bool persistent = t.tiles.persistent && !never && tiles >= from;
        EXPECT_EQ(last.dispatchedWorkgroups, persistent ? std::min(tiles, most) : 0u) << tiles << " tiles";
    }
}

// Persistent passes at their real size (minPersistentTiles tiles and more), for the sorts that run
// them (tuning::OneSweepTuning::persistent: 32-bit keys and u32/u32 pairs; 64-bit keys run one
// tile per workgroup since run26), with the default workgroup cap and with a cap of 1, which the
// planner must raise so that no workgroup takes more than maxTilesPerWorkgroup
// tiles; several runs of one job with other keys each time (one for pairs). Workgroups fall back
// on one another's taken but unstarted tiles here. Without the per-workgroup limit lavapipe failed
// this: one workgroup that took every tile stopped after about 740 of them (lavapipe ends a
// shader's loops after ~65535 iterations).
TEST_F(OneSweepTest, PersistentPassesAtFullSize) {
    for (KeyType key : {KeyType::u32, KeyType::u64})
        for (bool kv : {false, true})
            for (uint32_t cap : {0u, 1u}) {
                // (The rows from 0 keys: every row from more keys is one tile a workgroup.)
                const tuning::OneSweepTuning t = tuning::oneSweep(keyBytes(key), kv, 0);
                const bool cpu = ctx().info().type == VK_PHYSICAL_DEVICE_TYPE_CPU;
                const uint64_t from = cpu ? t.tiles.minPersistentTilesCpu : t.tiles.minPersistentTiles;
                if (!t.tiles.persistent || from == tuning::kNever) continue; // one tile per workgroup
                const SortConfig cfg = sortConfig(key, kv, Order::ascending);
                internal::ScopedOneSweepLimits limits(onesweep(), {0, cap});
                auto probe = onesweep().plan(1, cfg);
                ASSERT_TRUE(probe.ok()) << probe.error().message;
                const uint64_t n = (std::max<uint64_t>(from, 1024) + 77) * probe->tileKeys + 11;
                auto job = SortJob::create(ctx(), onesweep(), n, cfg);
                ASSERT_TRUE(job.ok()) << job.error().message;
                const uint64_t tiles = (n + probe->tileKeys - 1) / probe->tileKeys,
                               per = cpu ? t.tiles.maxTilesPerWorkgroupCpu : t.tiles.maxTilesPerWorkgroup;
                const uint64_t most = cpu ? t.tiles.persistentWorkgroupsCpu : t.tiles.persistentWorkgroups;
                EXPECT_EQ(lastPassStep((*job)->plan()).dispatchedWorkgroups,
                          cap ? (tiles + per - 1) / per : std::min(tiles, std::max(most, (tiles + per - 1) / per)));
                for (int run = 0; run < (cap || kv ? 1 : 3); ++run) {
                    SCOPED_TRACE(describe(cfg) + ", cap " + std::to_string(cap) + ", n = " + std::to_string(n) +
                                 ", run " + std::to_string(run));
                    const auto keys = generateKeys(key, n, Distribution::uniform, 500 + run);
                    const auto values = valuesFor(cfg, n);
                    SortRun got;
                    ASSERT_TRUE(runJob(**job, keys, values, got));
                    EXPECT_TRUE(matchesReference(keys, values, got, cfg, true));
                }
            }
}

// Many tiles, both paths, several runs: the same keys and values every time.
TEST_F(OneSweepTest, ManyTilesAgreeWithAndWithoutFallback) {
    for (bool kv : {false, true}) {
        SortConfig cfg;
        cfg.values = kv ? ValueType::u32 : ValueType::none;
        const uint64_t n = 200000 + 17;
        const auto keys = generateKeys(cfg.key, n, Distribution::uniform, 11);
        const auto values = valuesFor(cfg, n);
        std::vector<std::byte> first;
        for (int run = 0; run < 2; ++run) {
            for (bool fb : {false, true}) {
                cfg.knobs.forceFallback = fb;
                SCOPED_TRACE(std::string(kv ? "kv" : "keys") + (fb ? " forced fallback" : " lookback") + ", run " +
                             std::to_string(run));
                auto job = SortJob::create(ctx(), onesweep(), n, cfg);
                ASSERT_TRUE(job.ok()) << job.error().message;
                SortRun got;
                ASSERT_TRUE(runJob(**job, keys, values, got));
                ASSERT_TRUE(matchesReference(keys, values, got, cfg, true));
                if (first.empty()) first = got.keys;
                EXPECT_EQ(got.keys, first);
            }
        }
    }
}

// The tiles in flight at once, from the events of taking an id and publishing the last prefix.
TEST(OneSweepLookbackStats, InFlightMax) {
    auto rec = [](uint32_t took, uint32_t inclusive) {
        LookbackRecord r;
        r.took = took;
        r.inclusive = inclusive;
        r.walks.resize(256);
        return r;
    };
    // Tiles 0 and 1 overlap, tile 2 starts after both ended, tile 3 overlaps tile 2 only.
    EXPECT_EQ(lookbackStats({rec(1, 4), rec(2, 5), rec(6, 9), rec(7, 8)}).inFlightMax, 2u);
    EXPECT_EQ(lookbackStats({rec(1, 10), rec(2, 9), rec(3, 8)}).inFlightMax, 3u);
    EXPECT_EQ(lookbackStats({rec(1, 2), rec(3, 4)}).inFlightMax, 1u);
    EXPECT_EQ(lookbackStats({}).inFlightMax, 0u);
}

} // namespace
} // namespace sortlab::test
