#include <sortlab/testing/gpu_env.h>

#include <sortlab/internal/context_access.h>
#include <sortlab/variants.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>

namespace sortlab::test {

namespace {
std::unique_ptr<Context> gContext;
std::unique_ptr<Sorter> gSorter;
std::string gError;
} // namespace

ContextOptions testContextOptions() {
    ContextOptions o;
    if (const char* d = std::getenv("SORTLAB_TEST_DEVICE")) o.device = d;
    o.validation = true;
    return o;
}

Context* sharedContext() {
    return gContext.get();
}
Sorter* sharedSorter() {
    return gSorter.get();
}
const std::string& sharedContextError() {
    return gError;
}

void GpuEnvironment::SetUp() {
    auto c = Context::create(testContextOptions());
    if (!c) {
        gError = std::string("Context::create failed (") + errcName(c.error().code) + "): " + c.error().message;
        return;
    }
    gContext = std::move(c.value());
    // $SORTLAB_TEST_SUBGROUP_SIZE: the lane count these tests are meant to run at (ctest's lane
    // tests set it with LP_NATIVE_VECTOR_WIDTH); every test fails when the device has another.
    if (const char* want = std::getenv("SORTLAB_TEST_SUBGROUP_SIZE")) {
        const uint32_t lanes = gContext->info().subgroupSize;
        if (std::to_string(lanes) != want) {
            gError = "the device has " + std::to_string(lanes) + "-lane subgroups, SORTLAB_TEST_SUBGROUP_SIZE=" + want;
            gContext.reset();
            return;
        }
    }
    // $SORTLAB_TEST_PIN_SUBGROUP_SIZE=1: the pipelines require the subgroup size (and full
    // subgroups), as on devices whose size can vary (AMD, Intel), though this one's cannot.
    if (const char* pin = std::getenv("SORTLAB_TEST_PIN_SUBGROUP_SIZE"); pin && std::strcmp(pin, "1") == 0) {
        if (!(gContext->info().requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
            !gContext->subgroupSizeControl()) {
            gError = "SORTLAB_TEST_PIN_SUBGROUP_SIZE=1, but the device cannot require a subgroup size in compute "
                     "(or the context did not enable subgroup size control)";
            gContext.reset();
            return;
        }
        internal::ContextAccess::setAlwaysPinSubgroupSize(*gContext, true);
    }
    auto s = makeSorter(*gContext, Algorithm::oddeven);
    if (!s) {
        gError = "makeSorter(oddeven) failed: " + s.error().message;
        return;
    }
    gSorter = std::move(s.value());
    const DeviceInfo& d = gContext->info();
    std::printf("[sortlab] device: %s (%s), subgroup %u%s, shared memory %u bytes, device-local %llu MiB\n",
                d.name.c_str(), d.typeName.c_str(), d.subgroupSize,
                internal::ContextAccess::alwaysPinsSubgroupSize(*gContext) ? " (pinned)" : "", d.sharedMemoryBytes,
                static_cast<unsigned long long>(d.deviceLocalBytes >> 20));
}

void GpuEnvironment::TearDown() {
    gSorter.reset(); // destroys pipelines while the device is still alive
    if (gContext) expectNoValidationMessages(*gContext, "while destroying the shared sorter");
    destroyContextExpectingNoValidationMessages(gContext);
}

void destroyContextExpectingNoValidationMessages(std::unique_ptr<Context>& ctx) {
    if (!ctx) return;
    ctx->clearValidationMessages();
    ::testing::internal::CaptureStderr();
    ctx.reset();
    const std::string err = ::testing::internal::GetCapturedStderr();
    std::fputs(err.c_str(), stderr); // keep whatever else was printed visible
    std::string lines;
    for (size_t at = err.find("[validation]"); at != std::string::npos; at = err.find("[validation]", at + 1))
        lines += "  " + err.substr(at, err.find('\n', at) - at) + "\n";
    if (!lines.empty()) ADD_FAILURE() << "validation messages while destroying the context:\n" << lines;
}

void expectNoValidationMessages(Context& ctx, const char* when) {
    const size_t count = ctx.validationMessageCount();
    if (count != 0) {
        std::ostringstream all;
        for (const auto& m : ctx.validationMessages()) all << "  " << m << "\n";
        ADD_FAILURE() << count << " validation message(s) " << when << ":\n" << all.str();
    }
    ctx.clearValidationMessages();
}

void GpuTest::SetUp() {
    ASSERT_NE(sharedContext(), nullptr) << "no shared GPU context: " << sharedContextError();
    ASSERT_NE(sharedSorter(), nullptr) << sharedContextError();
}

void GpuTest::TearDown() {
    // Messages from outside any test (context creation) are not cleared in SetUp, so they are
    // reported by the first test rather than lost.
    if (sharedContext()) expectNoValidationMessages(*sharedContext(), "during this test");
}

std::string describe(const SortConfig& c) {
    std::string s = std::string(keyTypeName(c.key)) + (c.values == ValueType::none ? " keys-only " : " key-value ") +
                    std::string(orderName(c.order)) + " " + variantName(Algorithm::oddeven, c);
    if (c.knobs.oddEvenTileKeys) s += " oddEvenTileKeys=" + std::to_string(c.knobs.oddEvenTileKeys);
    return s;
}

SortConfig sortConfig(KeyType key, bool values, Order order) {
    SortConfig c;
    c.key = key;
    c.values = values ? ValueType::u32 : ValueType::none;
    c.order = order;
    return c;
}

SortConfig configFor(const RadixParam& p) {
    SortConfig c = sortConfig(p.key, p.values, p.order);
    c.knobs.forceFallback = p.fallback;
    return c;
}

std::vector<RadixParam> allRadixParams(bool fallbacks) {
    std::vector<RadixParam> out;
    for (KeyType t : kAllKeyTypes)
        for (bool kv : {false, true})
            for (Order o : {Order::ascending, Order::descending}) {
                out.push_back({t, kv, o});
                if (fallbacks) out.push_back({t, kv, o, true});
            }
    return out;
}

size_t radixParamIndex(const RadixParam& p, bool fallbacks) {
    const size_t sort = (static_cast<size_t>(p.key) * 2 + p.values) * 2 + static_cast<size_t>(p.order);
    return fallbacks ? sort * 2 + p.fallback : sort;
}

std::string radixParamName(const RadixParam& p, bool fallbacks) {
    return std::string(!fallbacks   ? ""
                       : p.fallback ? "fallback_"
                                    : "lookback_") +
           std::string(keyTypeName(p.key)) + (p.values ? "_kv_" : "_keys_") + std::string(orderName(p.order));
}

AdoptInfo adoptInfoOf(const Context& ctx) {
    AdoptInfo info;
    info.instance = ctx.instance();
    info.physicalDevice = ctx.physicalDevice();
    info.device = ctx.device();
    info.queue = ctx.queue();
    info.queueFamily = ctx.queueFamily();
    return info;
}

::testing::AssertionResult plannedTile(Sorter& sorter, const SortConfig& cfg, uint64_t& T) {
    auto plan = sorter.plan(1, cfg);
    if (!plan) return ::testing::AssertionFailure() << "plan: " << plan.error().message;
    T = plan->tileKeys;
    if (T == 0) return ::testing::AssertionFailure() << "the plan has no tile";
    if (cfg.knobs.radixTileKeys && T != cfg.knobs.radixTileKeys)
        return ::testing::AssertionFailure() << "the plan's tile is " << T << ", not " << cfg.knobs.radixTileKeys;
    return ::testing::AssertionSuccess();
}

void maskKeys(std::vector<std::byte>& keys, KeyType t, uint64_t mask) {
    if (keyBytes(t) == 4) {
        for (size_t at = 0; at + 4 <= keys.size(); at += 4) {
            uint32_t k;
            std::memcpy(&k, keys.data() + at, 4);
            k &= static_cast<uint32_t>(mask);
            std::memcpy(keys.data() + at, &k, 4);
        }
    } else {
        for (size_t at = 0; at + 8 <= keys.size(); at += 8) {
            uint64_t k;
            std::memcpy(&k, keys.data() + at, 8);
            k &= mask;
            std::memcpy(keys.data() + at, &k, 8);
        }
    }
}

::testing::AssertionResult uploadedJob(Context& ctx, Sorter& sorter, const SortConfig& cfg,
                                       std::span<const std::byte> keys, std::span<const uint32_t> values,
                                       std::unique_ptr<SortJob>& job) {
    auto made = SortJob::create(ctx, sorter, keys.size() / keyBytes(cfg.key), cfg);
    if (!made) return ::testing::AssertionFailure() << "SortJob::create: " << made.error().message;
    job = std::move(made.value());
    if (auto r = job->upload(keys, values); !r) return ::testing::AssertionFailure() << "upload: " << r.error().message;
    return ::testing::AssertionSuccess();
}

std::vector<uint32_t> valuesFor(const SortConfig& c, uint64_t n) {
    if (c.values == ValueType::none) return {};
    return indexValues(n);
}

::testing::AssertionResult runJob(SortJob& job, std::span<const std::byte> keys, std::span<const uint32_t> values,
                                  SortRun& out) {
    if (auto r = job.upload(keys, values); !r)
        return ::testing::AssertionFailure() << "upload: " << errcName(r.error().code) << ": " << r.error().message;
    if (auto r = job.run(); !r)
        return ::testing::AssertionFailure() << "run: " << errcName(r.error().code) << ": " << r.error().message;
    out.keys.assign(keys.size(), std::byte{0x5a}); // a pattern the sort never writes by accident
    out.values.assign(values.size(), 0xdeadbeefu);
    if (auto r = job.download(out.keys, out.values); !r)
        return ::testing::AssertionFailure() << "download: " << errcName(r.error().code) << ": " << r.error().message;
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult matchesReference(std::span<const std::byte> inputKeys, std::span<const uint32_t> inputValues,
                                            const SortRun& got, const SortConfig& c, bool stable) {
    std::vector<std::byte> ek(inputKeys.begin(), inputKeys.end());
    std::vector<uint32_t> ev(inputValues.begin(), inputValues.end());
    referenceSort(ek, ev, c.key, c.order);
    CheckResult r = compareSorted(ek, ev, got.keys, got.values, c.key, c.order, stable);
    if (!r.ok) return ::testing::AssertionFailure() << r.message;
    return ::testing::AssertionSuccess();
}

size_t sortsMatchingStableSort(Context& ctx, Sorter& sorter, const SortConfig& cfg, const StableSortSweep& sweep) {
    size_t sorts = 0;
    for (size_t si = 0; si < sweep.sizes.size(); ++si) {
        const uint64_t n = sweep.sizes[si];
        auto job = SortJob::create(ctx, sorter, n, cfg);
        if (!job.ok()) {
            ADD_FAILURE() << "n = " << n << ": " << job.error().message;
            return sorts;
        }
        if (n) {
            EXPECT_EQ((*job)->plan().steps.size(), sweep.steps);
        }
        for (size_t d = 0; d < std::size(kAllDistributions); ++d) {
            if (n > 300 && (d + sweep.index + si) % 8 >= sweep.keepOf8) continue; // lavapipe is slow
            const Distribution dist = kAllDistributions[d];
            SCOPED_TRACE(describe(cfg) + sweep.traceSuffix + ", n = " + std::to_string(n) + ", " +
                         std::string(distributionName(dist)));
            const auto keys = generateKeys(cfg.key, n, dist, n * sweep.seedPerN + d);
            const auto values = valuesFor(cfg, n);
            SortRun got;
            const auto ran = runJob(**job, keys, values, got);
            EXPECT_TRUE(ran);
            if (!ran) break;
            const auto same = matchesReference(keys, values, got, cfg, /*stable=*/true);
            EXPECT_TRUE(same);
            if (!same) break;
            ++sorts;
        }
    }
    return sorts;
}

void radixSortsMatchStableSort(Context& ctx, Sorter& sorter, const RadixParam& p, bool fallbacks, const RadixSweep& s) {
    const SortConfig cfg = configFor(p);
    uint64_t T = 0;
    ASSERT_TRUE(plannedTile(sorter, cfg, T));
    StableSortSweep sweep;
    sweep.index = radixParamIndex(p, fallbacks);
    std::mt19937_64 rng(s.seed + sweep.index);
    sweep.sizes = {0, 1, 2, 3, T - 1, T, T + 1, s.tiles * T + s.extra, (T + 2 + rng() % (s.spread * T)) | 1};
    sweep.keepOf8 = s.keepOf8;
    sweep.seedPerN = s.seedPerN;
    sweep.steps = s.steps;
    if (fallbacks) sweep.traceSuffix = p.fallback ? " forced fallback" : " lookback";
    const size_t sorts = sortsMatchingStableSort(ctx, sorter, cfg, sweep);
    if (!::testing::Test::HasFailure()) {
        EXPECT_GE(sorts, 4u * 8u + 5u * s.keepOf8);
    }
}

void checkResultInEither(Context& ctx, Sorter& sorter, uint32_t passesBelow2e20, uint32_t passesUniform) {
    const uint64_t n = 5000;
    struct Case {
        const char* name;
        Distribution dist;
        uint32_t mask;   // applied to every key
        uint32_t passes; // the passes that run
    };
    const Case cases[] = {{"keys below 2^20", Distribution::uniform, 0xfffffu, passesBelow2e20},
                          {"uniform keys", Distribution::uniform, 0xffffffffu, passesUniform},
                          {"equal keys", Distribution::equal, 0xffffffffu, 0}};
    for (bool kv : {false, true})
        for (const Case& c : cases) {
            SortConfig cfg;
            cfg.values = kv ? ValueType::u32 : ValueType::none;
            cfg.knobs.resultInEither = true;
            SCOPED_TRACE(describe(cfg) + ", " + c.name);
            auto keys = generateKeys(KeyType::u32, n, c.dist, 21);
            maskKeys(keys, KeyType::u32, c.mask);
            auto job = SortJob::create(ctx, sorter, n, cfg);
            ASSERT_TRUE(job.ok()) << job.error().message;
            const Plan& plan = (*job)->plan();
            ASSERT_FALSE(plan.steps.empty());
            for (const Step& s : plan.steps) EXPECT_NE(s.kind, StepKind::result) << s.label;
            EXPECT_EQ(plan.resultLocation.kind, KeyLocation::Kind::scratchWord) << "the GPU says where the keys are";
            EXPECT_EQ(plan.resultLocation, plan.steps.back().keysAfter);
            SortConfig copied = cfg;
            copied.knobs.resultInEither = false;
            auto withCopy = sorter.plan(n, copied);
            ASSERT_TRUE(withCopy.ok()) << withCopy.error().message;
            EXPECT_EQ(withCopy->steps.size(), plan.steps.size() + 1) << "resultInEither drops the result step only";
            const auto values = valuesFor(cfg, n);
            SortRun got;
            ASSERT_TRUE(runJob(**job, keys, values, got));
            EXPECT_TRUE(matchesReference(keys, values, got, cfg, /*stable=*/true));
            auto inTemp = (*job)->keysInTemp();
            ASSERT_TRUE(inTemp.ok()) << inTemp.error().message;
            EXPECT_EQ(*inTemp, c.passes % 2 == 1) << c.passes << " passes ran";
        }
}

} // namespace sortlab::test
