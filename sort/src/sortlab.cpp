#include <sortlab/sortlab.h>

#include <sortlab/job.h>

#include <map>
#include <mutex>
#include <tuple>

namespace sortlab {
namespace {

// What a context keeps between calls: a sorter per algorithm and the last job of each kind of
// sort (algorithm, key type, values, order, bit range), reused while n stays the same.
struct OneCallState {
    std::mutex mutex;
    std::map<Algorithm, std::unique_ptr<Sorter>> sorters;
    std::map<std::tuple<Algorithm, KeyType, ValueType, Order, uint32_t, uint32_t>, std::unique_ptr<SortJob>> jobs;
};

Result<void> sortBytes(Context& ctx, KeyType type, std::span<std::byte> keys, std::span<uint32_t> values,
                       bool withValues, const SortOptions& o) {
    const uint64_t n = keys.size() / keyBytes(type);
    if (static_cast<unsigned>(o.order) > static_cast<unsigned>(Order::descending))
        return makeError(Errc::invalid_argument, "SortOptions::order is " + std::to_string(unsigned(o.order)) +
                                                     ", not ascending or descending");
    if (static_cast<unsigned>(o.algorithm) > static_cast<unsigned>(Algorithm::hybrid))
        return makeError(Errc::invalid_argument, "SortOptions::algorithm is " + std::to_string(unsigned(o.algorithm)) +
                                                     ", not oddeven, radix4, onesweep or hybrid");
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
    if (n < 2 && !synced) return {};
    auto& slot = ctx.oneCallState();
    if (!slot) slot = std::make_shared<OneCallState>();
    OneCallState& state = *std::static_pointer_cast<OneCallState>(slot);
    std::lock_guard lock(state.mutex);
    if (n < 2) return ctx.submitAndWait([](VkCommandBuffer) {}, semaphores); // nothing to sort: the semaphores alone
    std::unique_ptr<Sorter>& sorter = state.sorters[o.algorithm];
    if (!sorter) {
        auto s = makeSorter(ctx, o.algorithm);
        if (!s) return s.error();
        sorter = std::move(*s);
    }
    SortConfig cfg;
    cfg.key = type;
    cfg.values = withValues ? ValueType::u32 : ValueType::none;
    cfg.order = o.order;
    cfg.beginBit = o.beginBit;
    cfg.endBit = o.endBit == keyBits(type) ? 0 : o.endBit;
    std::unique_ptr<SortJob>& job = state.jobs[{o.algorithm, type, cfg.values, o.order, cfg.beginBit, cfg.endBit}];
    if (!job || job->n() != n) {
        job.reset(); // its buffers go before the new ones are made
        auto j = SortJob::create(ctx, *sorter, n, cfg, /*keepInput=*/false);
        if (!j) return j.error();
        job = std::move(*j);
    }
    SORTLAB_TRY(job->upload(keys, withValues ? values : std::span<uint32_t>{}));
    if (auto t = job->run(false, semaphores); !t) return t.error();
    return job->download(keys, withValues ? values : std::span<uint32_t>{});
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
