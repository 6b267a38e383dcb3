// sortlab in one call: sort an array that is in host memory on the GPU, in place.
//
//   auto ctx = sortlab::Context::create();          // once: a Vulkan device for the sorts
//   if (!ctx) return std::puts(ctx.error().message.c_str()), 1;
//   std::vector<float> keys = ...;
//   if (auto r = sortlab::sort(**ctx, std::span(keys)); !r) std::puts(r.error().message.c_str());
//
// sort() uploads the keys, sorts them on the GPU and downloads them into the same span;
// sortPairs() moves a u32 value with each key (stable: equal keys keep their order; so it takes
// onesweep, radix4, hybrid or automatic, and refuses oddeven, the network, which is not stable). The sorters
// and device buffers stay with the context and are reused by the next call of the same kind and
// size. One call at a time per context (calls from several threads on one context take turns).
// Errors come back as values (never exceptions, never an abort): an invalid argument (an enum
// value out of range, values.size() != keys.size(), oddeven for pairs), a size the device cannot
// hold (too_large, out_of_memory), a GPU that does not finish within the context's fence timeout
// (timeout; the context takes work again once the GPU has finished, see Context::submitAndWait).
// SortOptions::wait and signal order the sort with other GPU work through timeline semaphores.
// Programs that keep their data on the GPU record the sorts into their own command buffers
// instead: Sorter::plan and Sorter::record (sortlab/sorter.h, docs/library.md).
#pragma once

#include <sortlab/context.h>
#include <sortlab/result.h>
#include <sortlab/sorter.h>

#include <cstdint>
#include <span>
#include <string>
#include <type_traits>

namespace sortlab {

// What a call ran, and why (SortOptions::report): with Algorithm::automatic, the sort it chose.
struct SortReport {
    Algorithm algorithm = Algorithm::onesweep;
    std::string why; // one sentence; empty when the algorithm was given
};

struct SortOptions {
    Order order = Order::ascending;
    // onesweep: the fastest on every GPU measured; radix4 too; hybrid (docs/hybrid.md); oddeven (the
    // fused network) for sort() only: it is not stable. automatic: OneSweep or the hybrid, whichever
    // sorts these keys faster on this device (below).
    Algorithm algorithm = Algorithm::onesweep;
    // Sort by order bits [beginBit, endBit) only (endBit 0: the key's width): SortConfig::beginBit
    // (sortlab/sorter.h) says which bits those are. The radix sorts only.
    uint32_t beginBit = 0, endBit = 0;
    // Timeline semaphores (on a device with the timelineSemaphore feature enabled: Context::
    // timelineSemaphore(); else invalid_argument): the sort's GPU work starts once `wait` reaches its
    // value, and sets `signal` to its value when done (also for n < 2, which does no GPU work). The
    // call still returns only when the sort is done, so something else (another thread, another
    // queue's submission) must signal `wait`. After an error `signal` may stay unsignaled.
    TimelinePoint wait, signal;
    // Where the call writes what it ran (optional; also on an error, as far as it got).
    SortReport* report = nullptr;
};

// Algorithm::automatic picks between OneSweep and the hybrid sort for each call:
//  - OneSweep for a bit range (the hybrid sorts whole keys), and where the hybrid cannot plan the
//    sort (lavapipe: at most 2^20 keys);
//  - OneSweep where a sample of the keys' top 16 order bits (a histogram of up to 65536 keys at an
//    even stride, on the host) says a bucket would hold more than a 64th of them and more than the
//    hybrid's tile: one workgroup would sort that bucket;
//  - otherwise the faster of the two on this device, timed (GPU timestamps) on the first such call
//    for each key size, with values or without, and power of two of n: that call runs both sorts
//    and keeps the faster one's result; the context remembers the times for later calls (where the
//    device cannot hold both sorts' buffers, OneSweep, untimed). The default stays onesweep: on every
//    GPU measured so far automatic would time both and then pick it (docs/hybrid.md).

// The KeyType of a C++ key type, as sort<T>() and sortPairs<T>() take them.
template <class T> constexpr KeyType keyTypeOf() {
    if constexpr (std::is_same_v<T, uint32_t>)
        return KeyType::u32;
    else if constexpr (std::is_same_v<T, int32_t>)
        return KeyType::i32;
    else if constexpr (std::is_same_v<T, float>)
        return KeyType::f32;
    else if constexpr (std::is_same_v<T, uint64_t>)
        return KeyType::u64;
    else if constexpr (std::is_same_v<T, int64_t>)
        return KeyType::i64;
    else {
        static_assert(std::is_same_v<T, double>, "keys are uint32_t, int32_t, float, uint64_t, int64_t or double");
        return KeyType::f64;
    }
}

// T: uint32_t, int32_t, float, uint64_t, int64_t or double. Floats sort in IEEE total order
// (-NaN < -inf < ... < -0.0 < +0.0 < ... < inf < NaN).
template <class T> Result<void> sort(Context& ctx, std::span<T> keys, const SortOptions& options = {});
template <class T>
Result<void> sortPairs(Context& ctx, std::span<T> keys, std::span<uint32_t> values, const SortOptions& options = {});

} // namespace sortlab
