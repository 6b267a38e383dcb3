#include <sortlab/sortlab.h>

#include <sortlab/job.h>

#include <sortlab/keys.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

namespace sortlab {
namespace {

// Algorithm::automatic's times of both sorts, per key size, values or not, and n's power of two
// (ceil(log2 n)).
struct Timed {
    double oneSweepMs = 0, hybridMs = 0;
    Algorithm faster() const { return hybridMs < oneSweepMs ? Algorithm::hybrid : Algorithm::onesweep; }
};

// What a context keeps between calls: a sorter per algorithm, the last job of each kind of sort
// (algorithm, key type, values, order, bit range), reused while n stays the same, and
// Algorithm::automatic's times.
struct OneCallState {
    std::mutex mutex;
    std::map<Algorithm, std::unique_ptr<Sorter>> sorters;
    std::map<std::tuple<Algorithm, KeyType, ValueType, Order, uint32_t, uint32_t>, std::unique_ptr<SortJob>> jobs;
    std::map<std::tuple<uint32_t, bool, uint32_t>, Timed> timed;
};

// Keys sampled for Algorithm::automatic's look at the buckets, and the share of them one bucket
// may hold before the hybrid is not tried.
constexpr uint64_t kSampleKeys = 65536;
constexpr uint64_t kBucketShareLimit = 64; // a 64th

std::string fixed(double v, int digits) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

// The report of a choice by these times, `when` saying where they come from.
SortReport timedReport(const Timed& t, const std::string& when) {
    return {t.faster(), std::string(t.faster() == Algorithm::hybrid ? "the hybrid" : "OneSweep") + ": " +
                            fixed(t.hybridMs, 3) + " ms (hybrid) against " + fixed(t.oneSweepMs, 3) +
                            " ms (OneSweep), " + when};
}

// The largest of the buckets (top 16 order bits) of a sample of the keys at an even stride: its
// keys in the sample, of `sampled`.
uint64_t largestSampledBucket(std::span<const std::byte> keys, KeyType type, Order order, uint64_t& sampled) {
    const uint64_t n = keys.size() / keyBytes(type);
    sampled = std::min(n, kSampleKeys);
    std::vector<uint32_t> counts(65536, 0);
    const uint32_t shift = keyBits(type) - 16;
    for (uint64_t j = 0; j < sampled; ++j)
        ++counts[static_cast<uint32_t>(orderBitsAt(keys.data(), j * n / sampled, type, order) >> shift)];
    return *std::max_element(counts.begin(), counts.end());
}

Result<void> sortBytes(Context& ctx, KeyType type, std::span<std::byte> keys, std::span<uint32_t> values,
                       bool withValues, const SortOptions& o) {
    const uint64_t n = keys.size() / keyBytes(type);
    if (static_cast<unsigned>(o.order) > static_cast<unsigned>(Order::descending))
        return makeError(Errc::invalid_argument, "SortOptions::order is " + std::to_string(unsigned(o.order)) +
                                                     ", not ascending or descending");
    if (static_cast<unsigned>(o.algorithm) > static_cast<unsigned>(Algorithm::automatic))
        return makeError(Errc::invalid_argument, "SortOptions::algorithm is " + std::to_string(unsigned(o.algorithm)) +
                                                     ", not oddeven, radix4, onesweep, hybrid or automatic");
    if (withValues && o.algorithm == Algorithm::oddeven)
        return makeError(Errc::invalid_argument, "sortPairs is stable and the odd-even network is not (equal keys' "
                                                 "values may swap): use Algorithm::onesweep or radix4");
    if (withValues && values.size() != n)
        return makeError(Errc::invalid_argument,
                         "sortPairs: " + std::to_string(values.size()) + " values for " + std::to_string(n) + " keys");
    const uint32_t endBit = o.endBit ? o.endBit : keyBits(type);
    if (o.beginBit >= endBit || endBit > keyBits(type))
        return makeError(Errc::invalid_argument, "SortOptions' bit range [" + std::to_string(o.beginBit) + ", " +
                                                     std::to_string(endBit) + ") is not a non-empty range of a " +
                                                     std::to_string(keyBits(type)) + "-bit key's bits");
    if (o.algorithm == Algorithm::oddeven && (o.beginBit != 0 || endBit != keyBits(type)))
        return makeError(Errc::invalid_argument, "the odd-even network compares whole keys: a bit range takes "
                                                 "Algorithm::onesweep or radix4");
    const SubmitSemaphores semaphores{o.wait, o.signal};
    const bool synced = o.wait.semaphore != VK_NULL_HANDLE || o.signal.semaphore != VK_NULL_HANDLE;
    if (synced && !ctx.timelineSemaphore())
        return makeError(Errc::invalid_argument, "SortOptions::wait or signal names a timeline semaphore, and the "
                                                 "device was made without the timelineSemaphore feature enabled "
                                                 "(adopt(): say so in AdoptInfo::enabled)");
    if (n < 2 && o.report)
        *o.report = SortReport{o.algorithm == Algorithm::automatic ? Algorithm::onesweep : o.algorithm,
                               o.algorithm == Algorithm::automatic ? "nothing to sort (fewer than 2 keys)" : ""};
    if (n < 2 && !synced) return {};
    auto& slot = ctx.oneCallState();
    if (!slot) slot = std::make_shared<OneCallState>();
    OneCallState& state = *std::static_pointer_cast<OneCallState>(slot);
    std::lock_guard lock(state.mutex);
    if (n < 2) return ctx.submitAndWait([](VkCommandBuffer) {}, semaphores); // nothing to sort: the semaphores alone
    SortConfig cfg;
    cfg.key = type;
    cfg.values = withValues ? ValueType::u32 : ValueType::none;
    cfg.order = o.order;
    cfg.beginBit = o.beginBit;
    cfg.endBit = o.endBit == keyBits(type) ? 0 : o.endBit;
    const std::span<uint32_t> vals = withValues ? values : std::span<uint32_t>{};
    // The sorter of `algorithm`, made where there is none yet.
    auto sorterFor = [&](Algorithm algorithm) -> Result<Sorter*> {
        std::unique_ptr<Sorter>& sorter = state.sorters[algorithm];
        if (!sorter) {
            auto s = makeSorter(ctx, algorithm);
            if (!s) return s.error();
            sorter = std::move(*s);
        }
        return sorter.get();
    };
    // The job of this kind of sort with `algorithm` at n, planned where there is none yet.
    auto jobFor = [&](Algorithm algorithm) -> Result<SortJob*> {
        auto sorter = sorterFor(algorithm);
        if (!sorter) return sorter.error();
        std::unique_ptr<SortJob>& job = state.jobs[{algorithm, type, cfg.values, o.order, cfg.beginBit, cfg.endBit}];
        if (!job || job->n() != n) {
            job.reset(); // its buffers go before the new ones are made
            auto j = SortJob::create(ctx, **sorter, n, cfg, /*keepInput=*/false);
            if (!j) return j.error();
            job = std::move(*j);
        }
        return job.get();
    };
    // Frees the job of this kind of sort with `algorithm` (automatic keeps only its pick's buffers).
    auto dropJob = [&](Algorithm algorithm) {
        state.jobs.erase({algorithm, type, cfg.values, o.order, cfg.beginBit, cfg.endBit});
    };
    auto runWith = [&](Algorithm algorithm, std::string why) -> Result<void> {
        if (o.report) *o.report = SortReport{algorithm, std::move(why)};
        auto job = jobFor(algorithm);
        if (!job) return job.error();
        SORTLAB_TRY((*job)->upload(keys, vals));
        if (auto t = (*job)->run(false, semaphores); !t) return t.error();
        return (*job)->download(keys, vals);
    };
    if (o.algorithm != Algorithm::automatic) return runWith(o.algorithm, "");

    // Algorithm::automatic: OneSweep or the hybrid (sortlab.h says how it picks).
    if (cfg.beginBit != 0 || cfg.endBit != 0)
        return runWith(Algorithm::onesweep, "OneSweep: a bit range, and the hybrid sorts whole keys");
    uint64_t sampled = 0;
    const uint64_t largest = largestSampledBucket(keys, type, o.order, sampled);
    auto hybridSorter = sorterFor(Algorithm::hybrid);
    if (!hybridSorter) return hybridSorter.error();
    const auto hybridPlan = (*hybridSorter)->plan(n, cfg);
    if (!hybridPlan)
        return runWith(Algorithm::onesweep,
                       "OneSweep: the hybrid cannot sort these keys here (" + hybridPlan.error().message + ")");
    const uint64_t tile = hybridPlan->tileKeys;
    if (largest * kBucketShareLimit > sampled && largest * n / sampled > tile)
        return runWith(Algorithm::onesweep, "OneSweep: " + std::to_string(largest) + " of " + std::to_string(sampled) +
                                                " sampled keys share their top 16 bits, a bucket of about " +
                                                std::to_string(largest * n / sampled) +
                                                " keys that one workgroup of the hybrid would sort");
    const auto classKey = std::make_tuple(keyBytes(type), withValues, uint32_t(std::bit_width(n - 1)));
    if (auto it = state.timed.find(classKey); it != state.timed.end()) {
        SortReport r = timedReport(it->second, "timed on this device by an earlier call of its kind (n up to 2^" +
                                                   std::to_string(std::get<2>(classKey)) + ")");
        if (r.algorithm != Algorithm::hybrid) dropJob(Algorithm::hybrid);
        return runWith(r.algorithm, std::move(r.why));
    }
    // The first call of its class: both sorts, timed; the faster one's result is kept.
    auto hybridJob = jobFor(Algorithm::hybrid);
    if (!hybridJob && (hybridJob.error().code == Errc::out_of_memory || hybridJob.error().code == Errc::too_large))
        return runWith(Algorithm::onesweep,
                       "OneSweep: the device cannot hold the hybrid's buffers (" + hybridJob.error().message + ")");
    if (!hybridJob) return hybridJob.error();
    auto oneSweepJob = jobFor(Algorithm::onesweep);
    if (!oneSweepJob &&
        (oneSweepJob.error().code == Errc::out_of_memory || oneSweepJob.error().code == Errc::too_large)) {
        // Both sorts' buffers do not fit beside each other: OneSweep alone, untimed (and not remembered).
        dropJob(Algorithm::hybrid);
        return runWith(Algorithm::onesweep, "OneSweep: the device cannot hold both sorts' buffers to time them (" +
                                                oneSweepJob.error().message + ")");
    }
    if (!oneSweepJob) return oneSweepJob.error(); // (the hybrid's job stays where it is: a map keeps its nodes)
    Timed t;
    for (Algorithm a : {Algorithm::hybrid, Algorithm::onesweep}) {
        SortJob& job = a == Algorithm::hybrid ? **hybridJob : **oneSweepJob;
        SORTLAB_TRY(job.upload(keys, vals));
        auto run =
            job.run(true, a == Algorithm::hybrid ? SubmitSemaphores{o.wait, {}} : SubmitSemaphores{{}, o.signal});
        if (!run) return run.error();
        (a == Algorithm::hybrid ? t.hybridMs : t.oneSweepMs) = run->totalMs;
    }
    state.timed[classKey] = t;
    const SortReport r = timedReport(t, "both timed on these keys (the first call of its kind)");
    if (o.report) *o.report = r;
    const bool hybrid = r.algorithm == Algorithm::hybrid;
    SORTLAB_TRY((hybrid ? **hybridJob : **oneSweepJob).download(keys, vals));
    dropJob(hybrid ? Algorithm::onesweep : Algorithm::hybrid); // (the other's buffers)
    return {};
}

} // namespace

template <class T> Result<void> sort(Context& ctx, std::span<T> keys, const SortOptions& options) {
    return sortBytes(ctx, keyTypeOf<T>(), std::as_writable_bytes(keys), {}, false, options);
}

template <class T>
Result<void> sortPairs(Context& ctx, std::span<T> keys, std::span<uint32_t> values, const SortOptions& options) {
    return sortBytes(ctx, keyTypeOf<T>(), std::as_writable_bytes(keys), values, true, options);
}

#define SORTLAB_ONE_CALL(T)                                                                                            \
    template Result<void> sort<T>(Context&, std::span<T>, const SortOptions&);                                         \
    template Result<void> sortPairs<T>(Context&, std::span<T>, std::span<uint32_t>, const SortOptions&);
SORTLAB_ONE_CALL(uint32_t)
SORTLAB_ONE_CALL(int32_t)
SORTLAB_ONE_CALL(float)
SORTLAB_ONE_CALL(uint64_t)
SORTLAB_ONE_CALL(int64_t)
SORTLAB_ONE_CALL(double)
#undef SORTLAB_ONE_CALL

} // namespace sortlab
