// Shared GPU state for one test binary: ONE sortlab::Context (validation on) and one odd-even
// Sorter, created by a gtest Environment before the first test and destroyed after the last.
// The device comes from $SORTLAB_TEST_DEVICE when set (same syntax as ContextOptions::device),
// else the default selection.
//
// Every GPU test derives from GpuTest: its TearDown fails the test when the validation layers
// reported anything during the test (the messages are printed), then clears them.
#pragma once

#include <sortlab/context.h>
#include <sortlab/data.h>
#include <sortlab/job.h>
#include <sortlab/sorter.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace sortlab::test {

// ContextOptions for the tests: validation on, device from $SORTLAB_TEST_DEVICE.
ContextOptions testContextOptions();

// The binary's shared context and odd-even sorter (valid inside tests; GpuTest::SetUp asserts it).
Context* sharedContext();
Sorter* sharedSorter();
// Why the shared context could not be made (empty when it was).
const std::string& sharedContextError();

// Fails the current test with the messages when `ctx` holds validation messages; clears them.
void expectNoValidationMessages(Context& ctx, const char* when);

// Destroys a context, failing the current test if the validation layers report anything while
// it goes (e.g. VUID-vkDestroyDevice-device-00378: an object was never destroyed). Those messages
// come after the last chance to read validationMessages(), so they are caught on stderr, where
// the context prints every message with a "[validation]" prefix.
void destroyContextExpectingNoValidationMessages(std::unique_ptr<Context>& ctx);

// What Context::adopt needs to wrap ctx's own instance, device and queue (nothing else set).
AdoptInfo adoptInfoOf(const Context& ctx);

class GpuTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
    Context& ctx() { return *sharedContext(); }
    Sorter& sorter() { return *sharedSorter(); }
};

// A GpuTest with its own Sorter of one algorithm, made once per test suite on the shared
// context (and destroyed before the context is).
template <Algorithm A> class AlgorithmTest : public GpuTest {
protected:
    static void SetUpTestSuite() {
        if (!sharedContext()) return;
        auto s = makeSorter(*sharedContext(), A);
        if (s.ok())
            sorter_ = std::move(s.value());
        else
            makeError_ = s.error().message;
    }
    static void TearDownTestSuite() { sorter_.reset(); }
    void SetUp() override {
        GpuTest::SetUp();
        ASSERT_TRUE(sorter_) << "makeSorter(" << algorithmName(A) << "): " << makeError_;
    }
    Sorter& algorithmSorter() { return *sorter_; }
    static inline std::unique_ptr<Sorter> sorter_;
    static inline std::string makeError_;
};

// The registered environment (gpu_main.cpp calls AddGlobalTestEnvironment with it).
class GpuEnvironment : public ::testing::Environment {
public:
    void SetUp() override;
    void TearDown() override;
};

// ---- Helpers shared by the GPU tests ------------------------------------------------------------

std::string describe(const SortConfig& c);

// A test's sort: key type, keys-only or key-value (u32 values: the input index), order.
SortConfig sortConfig(KeyType key, bool values, Order order);

// A radix sort's MatchesStableSort instance (radix4, onesweep): a sortConfig, and for OneSweep
// whether every tile falls back (SortKnobs::forceFallback).
struct RadixParam {
    KeyType key;
    bool values;
    Order order;
    bool fallback = false;
};
SortConfig configFor(const RadixParam& p);
// Every key type x keys-only/key-value x order (x lookback/forced fallback with `fallbacks`).
std::vector<RadixParam> allRadixParams(bool fallbacks);
// The instance's place in allRadixParams: it seeds the sizes and picks the distributions.
size_t radixParamIndex(const RadixParam& p, bool fallbacks);
// u32_kv_asc; with `fallbacks`, lookback_u32_kv_asc or fallback_u32_kv_asc (the ctest filters).
std::string radixParamName(const RadixParam& p, bool fallbacks);

// The workgroup tile T that `sorter` plans for cfg. A failure when planning fails, when T is 0, or
// when T is not SortKnobs::radixTileKeys where that names a tile.
::testing::AssertionResult plannedTile(Sorter& sorter, const SortConfig& cfg, uint64_t& T);

// Every key and-ed with `mask`, so that the high digits repeat (their radix passes are skipped).
void maskKeys(std::vector<std::byte>& keys, KeyType t, uint64_t mask);

// A new job for the keys with `keys` and `values` uploaded; a failure when either step fails.
::testing::AssertionResult uploadedJob(Context& ctx, Sorter& sorter, const SortConfig& cfg,
                                       std::span<const std::byte> keys, std::span<const uint32_t> values,
                                       std::unique_ptr<SortJob>& job);

// Values for a key-value sort of n keys (empty for keys-only).
std::vector<uint32_t> valuesFor(const SortConfig& c, uint64_t n);

struct SortRun {
    std::vector<std::byte> keys;
    std::vector<uint32_t> values;
};

// Uploads keys/values into the job, runs the whole plan and downloads the result; any error
// becomes a gtest failure (returns false).
::testing::AssertionResult runJob(SortJob& job, std::span<const std::byte> keys, std::span<const uint32_t> values,
                                  SortRun& out);

// The reference result (std::stable_sort) checked against `got` with compareSorted (stable: values
// must match exactly; otherwise as a multiset within each run of equal keys).
::testing::AssertionResult matchesReference(std::span<const std::byte> inputKeys, std::span<const uint32_t> inputValues,
                                            const SortRun& got, const SortConfig& c, bool stable = false);

template <class T> std::vector<uint32_t> narrow(const std::vector<T>& v) {
    return std::vector<uint32_t>(v.begin(), v.end());
}

// A radix sort's results at a list of sizes, against std::stable_sort (the tests' MatchesStableSort).
struct StableSortSweep {
    std::vector<uint64_t> sizes;
    size_t index = 0;        // the test instance: which distributions run above 300 keys
    size_t keepOf8 = 8;      // above 300 keys, the distributions d with (d + index + size index) % 8 < keepOf8
    uint64_t seedPerN = 1;   // input seed: n * seedPerN + d
    size_t steps = 0;        // the plan's steps for n > 0
    std::string traceSuffix; // after describe(cfg) in the trace
};
// Sorts with `sorter` at every size and the distributions the sweep picks, each result checked
// with matchesReference(stable); stops a size at its first failure. Returns how many sorts matched;
// any failure is a gtest failure.
size_t sortsMatchingStableSort(Context& ctx, Sorter& sorter, const SortConfig& cfg, const StableSortSweep& sweep);

// A radix sort's MatchesStableSort (radix4, onesweep) for instance p of allRadixParams(fallbacks):
// sizes 0, 1, 2, 3, T-1, T, T+1, tiles * T + extra and a random odd size from T+2 below
// (spread + 1) T, where T is the tile the sorter plans and the random size is seeded by seed + the
// instance's index; every distribution up to 300 keys, keepOf8 of 8 above. Every sort must match,
// and at least 4 x 8 + 5 x keepOf8 of them must run.
struct RadixSweep {
    uint64_t tiles, extra, spread, seed;
    size_t keepOf8;
    uint64_t seedPerN;
    size_t steps; // the plan's steps for n > 0
};
void radixSortsMatchStableSort(Context& ctx, Sorter& sorter, const RadixParam& p, bool fallbacks, const RadixSweep& s);

// A radix sort with SortKnobs::resultInEither (u32 keys, keys-only and key-value): its plan has
// no result step, and the sorted keys are where the last pass that ran left them: in keysTemp
// after an odd number of passes (keys below 2^20: the top passes are skipped), in keys after an
// even number (uniform keys) or none (equal keys). The sorter runs passesBelow2e20 passes on
// the keys below 2^20 and passesUniform on uniform keys. Any difference is a gtest failure.
void checkResultInEither(Context& ctx, Sorter& sorter, uint32_t passesBelow2e20, uint32_t passesUniform);

} // namespace sortlab::test
