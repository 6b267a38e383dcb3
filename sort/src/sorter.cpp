// [SECTION] Names
// [SECTION] Planning: the checks every sorter's plan gets
// [SECTION] Recording: the checks of the caller's binding
#include <sortlab/sorter.h>

#include <algorithm>
#include <string>

namespace sortlab {

namespace oddeven {
std::unique_ptr<Sorter> makeOddEvenSorter(Context& ctx);
}
namespace radix4 {
std::unique_ptr<Sorter> makeRadix4Sorter(Context& ctx);
}
namespace onesweep {
std::unique_ptr<Sorter> makeOneSweepSorter(Context& ctx);
}
namespace hybrid {
std::unique_ptr<Sorter> makeHybridSorter(Context& ctx);
}

namespace {

// Names by enum value, in the enums' order (a name table a switch would only repeat).
template <class Enum, size_t N> std::string_view nameIn(const std::string_view (&names)[N], Enum e) {
    const size_t i = static_cast<size_t>(e);
    return i < N ? names[i] : "?";
}

constexpr std::string_view kAlgorithmNames[] = {"oddeven", "radix4", "onesweep", "hybrid", "automatic"};
constexpr std::string_view kStepKindNames[] = {"layer",  "tile",      "window", "count",  "scan",  "scatter",
                                               "result", "histogram", "pass",   "bounds", "bucket"};
constexpr std::string_view kAuxKindNames[] = {
    "pass",        "digit counts", "histogram",   "offsets",   "workgroup offsets", "all histograms",
    "all offsets", "tile status",  "tile counts", "fallbacks", "lookback log",      "uniform tiles"};
constexpr std::string_view kKeyTypeNames[] = {"u32", "i32", "f32", "u64", "i64", "f64"};

} // namespace

std::string_view algorithmName(Algorithm a) {
    return nameIn(kAlgorithmNames, a);
}

std::string_view stepKindName(StepKind k) {
    return nameIn(kStepKindNames, k);
}

std::string_view auxKindName(AuxKind k) {
    return nameIn(kAuxKindNames, k);
}

uint64_t StorageRequirements::largest() const {
    return std::max({keys, values, keysTemp, valuesTemp, scratch});
}

uint64_t StorageRequirements::total() const {
    uint64_t sum = 0;
    for (uint64_t b : {keys, values, keysTemp, valuesTemp, scratch})
        if (__builtin_add_overflow(sum, b, &sum)) return UINT64_MAX;
    return sum;
}

namespace {
uint64_t bytesOf(uint64_t n, uint32_t each) {
    uint64_t bytes;
    return __builtin_mul_overflow(n, uint64_t(each), &bytes) ? UINT64_MAX : bytes;
}
} // namespace

StorageRequirements storageRequirements(const Plan& plan) {
    StorageRequirements r;
    r.keys = bytesOf(plan.n, keyBytes(plan.config.key));
    r.values = bytesOf(plan.n, valueBytes(plan.config.values));
    if (plan.needsTemp) {
        r.keysTemp = r.keys;
        r.valuesTemp = r.values;
    }
    r.scratch = plan.scratchBytes;
    return r;
}

// [SECTION] Planning: the checks every sorter's plan gets ------------------------------------------

namespace {

Result<void> checkConfig(const SortConfig& c) {
    auto bad = [](const char* what, unsigned value, const char* valid) {
        return makeError(Errc::invalid_argument,
                         std::string("SortConfig::") + what + " is " + std::to_string(value) + ", not one of " + valid);
    };
    if (static_cast<unsigned>(c.key) > static_cast<unsigned>(KeyType::f64))
        return bad("key", static_cast<unsigned>(c.key), "u32, i32, f32, u64, i64, f64");
    if (static_cast<unsigned>(c.values) > static_cast<unsigned>(ValueType::u32))
        return bad("values", static_cast<unsigned>(c.values), "none, u32");
    if (static_cast<unsigned>(c.order) > static_cast<unsigned>(Order::descending))
        return bad("order", static_cast<unsigned>(c.order), "ascending, descending");
    if (c.beginBit >= endBitOf(c) || endBitOf(c) > keyBits(c.key))
        return makeError(Errc::invalid_argument, "SortConfig's bit range [" + std::to_string(c.beginBit) + ", " +
                                                     std::to_string(endBitOf(c)) + ") is not a non-empty range of a " +
                                                     std::to_string(keyBits(c.key)) + "-bit key's bits");
    return {};
}

// A need in MiB, rounded up (so that it never reads as fitting a limit it does not fit).
std::string mib(uint64_t bytes) {
    return std::to_string((bytes >> 20) + ((bytes & ((1u << 20) - 1)) ? 1 : 0)) + " MiB";
}

// Whether the device can hold the plan's buffers: all of them within the largest device-local
// heap, each within maxBufferSize. (maxStorageBufferRange bounds descriptor ranges; the sorts reach
// their buffers by device address, which it does not limit.)
Result<void> checkFits(const Plan& p, const DeviceInfo& dev) {
    const StorageRequirements need = storageRequirements(p);
    const std::string sorting = "sorting " + std::to_string(p.n) + " " + std::string(keyTypeName(p.config.key)) +
                                " keys" + (p.config.values == ValueType::none ? "" : " with values");
    if (dev.deviceLocalBytes && need.total() > dev.deviceLocalBytes)
        return makeError(Errc::out_of_memory, sorting + " needs " + mib(need.total()) + " on the GPU; " + dev.name +
                                                  " has " + std::to_string(dev.deviceLocalBytes >> 20) +
                                                  " MiB of device memory; use a smaller n");
    if (dev.maxBufferSize && need.largest() > dev.maxBufferSize)
        return makeError(Errc::too_large, sorting + " needs a buffer of " + mib(need.largest()) + "; " + dev.name +
                                              " allows at most " + std::to_string(dev.maxBufferSize >> 20) + " MiB" +
                                              " per buffer (maxBufferSize); use a smaller n");
    return {};
}

} // namespace

Result<Plan> Sorter::plan(uint64_t n, const SortConfig& config) {
    SORTLAB_TRY(checkConfig(config));
    if (n > kMaxKeys)
        return makeError(Errc::too_large, "n = " + std::to_string(n) + " is beyond what sortlab indexes (2^40 keys)");
    auto p = makePlan(n, config);
    if (!p) return p.error();
    SORTLAB_TRY(checkFits(*p, device()));
    p->planner = this;
    return p;
}

Result<Plan> Sorter::planIndirect(uint64_t maxN, const SortConfig& config) {
    SORTLAB_TRY(checkConfig(config));
    if (maxN > UINT32_MAX)
        return makeError(Errc::too_large, "maxN = " + std::to_string(maxN) +
                                              ": an indirect plan sorts at most 2^32 - 1 keys (its count is a uint32)");
    auto p = makeIndirectPlan(maxN, config);
    if (!p) return p.error();
    SORTLAB_TRY(checkFits(*p, device()));
    p->planner = this;
    p->indirect = true;
    return p;
}

Result<Plan> Sorter::makeIndirectPlan(uint64_t maxN, const SortConfig& config) {
    (void)maxN;
    (void)config;
    return makeError(Errc::invalid_argument, "the " + std::string(algorithmName(algorithm())) +
                                                 " sort has no indirect form (planIndirect): radix4 and onesweep "
                                                 "take their count from a GPU buffer");
}

std::vector<uint64_t> Sorter::warmUpSizes(const SortConfig& config, uint64_t maxN) const {
    (void)config;
    std::vector<uint64_t> sizes;
    for (uint64_t n = 1; n < maxN; n *= 2) sizes.push_back(n);
    sizes.push_back(maxN);
    return sizes;
}

Result<void> Sorter::warmUp(const SortConfig& config, uint64_t maxN) {
    SORTLAB_TRY(checkConfig(config));
    if (maxN == 0) return {};
    if (maxN > kMaxKeys)
        return makeError(Errc::too_large,
                         "maxN = " + std::to_string(maxN) + " is beyond what sortlab indexes (2^40 keys)");
    auto largest = plan(maxN, config); // first: what plan() refuses, it refuses before compiling the rest
    if (!largest) return largest.error();
    for (uint64_t n : warmUpSizes(config, maxN)) {
        if (n == 0 || n >= maxN) continue;
        auto p = plan(n, config); // makes the plan's pipelines, which the sorter keeps
        if (!p) return p.error();
    }
    return {};
}

// [SECTION] Recording: the checks of the caller's binding -------------------------------------------

namespace {

struct Need {
    const char* name;
    BufferRange range;
    uint64_t bytes;
};

Result<void> checkBuffers(const Plan& p, const DeviceBuffers& b) {
    const StorageRequirements need = storageRequirements(p);
    std::vector<Need> used;
    auto use = [&](const char* name, const BufferRange& r, uint64_t bytes) {
        if (bytes) used.push_back({name, r, bytes});
    };
    use("keys", b.keys, need.keys);
    use("values", b.values, need.values);
    use("keysTemp", b.keysTemp, need.keysTemp);
    use("valuesTemp", b.valuesTemp, need.valuesTemp);
    use("scratch", b.scratch, need.scratch);
    auto invalid = [](const std::string& m) { return makeError(Errc::invalid_argument, "record: " + m); };
    if (p.indirect) {
        // The count: a uint32 that the first step reads; the dispatch sizes go through scratchBuffer.
        if (b.count.address == 0)
            return invalid("DeviceBuffers::count is missing (address 0); an indirect plan reads its key count there");
        if (b.count.size < 4)
            return invalid("DeviceBuffers::count holds " + std::to_string(b.count.size) +
                           " bytes; the key count is a uint32 (4 bytes)");
        if (b.count.address % 4)
            return invalid("DeviceBuffers::count is at address " + std::to_string(b.count.address) +
                           ", not a multiple of 4");
        if (need.scratch && b.scratchBuffer == VK_NULL_HANDLE)
            return invalid("DeviceBuffers::scratchBuffer is null; an indirect plan's dispatches read their sizes "
                           "from scratch through it");
        use("count", b.count, 4);
    }
    for (const Need& u : used) {
        const std::string name = std::string("DeviceBuffers::") + u.name;
        if (u.range.address == 0)
            return invalid(name + " is missing (address 0); this plan needs " + std::to_string(u.bytes) +
                           " bytes there");
        if (u.range.size < u.bytes)
            return invalid(name + " holds " + std::to_string(u.range.size) + " bytes; this plan needs " +
                           std::to_string(u.bytes) + " (storageRequirements)");
        if (u.range.address % kBufferAlignment && std::string_view(u.name) != "count") // (its 4: above)
            return invalid(name + " is at address " + std::to_string(u.range.address) + ", not a multiple of " +
                           std::to_string(kBufferAlignment) + " (kBufferAlignment)");
        if (UINT64_MAX - u.range.address < u.bytes) return invalid(name + " runs past the end of the address space");
    }
    for (size_t i = 0; i < used.size(); ++i)
        for (size_t j = i + 1; j < used.size(); ++j) {
            const Need &a = used[i], &c = used[j];
            if (a.range.address < c.range.address + c.bytes && c.range.address < a.range.address + a.bytes)
                return invalid(std::string("DeviceBuffers::") + a.name + " and " + c.name +
                               " overlap in the bytes this plan uses");
        }
    return {};
}

} // namespace

Result<void> Sorter::record(VkCommandBuffer cmd, const Plan& plan, const DeviceBuffers& buffers, size_t first,
                            size_t last, VkQueryPool timestamps, uint32_t firstQuery) const {
    if (cmd == VK_NULL_HANDLE) return makeError(Errc::invalid_argument, "record: the command buffer is null");
    if (plan.planner != this)
        return makeError(Errc::invalid_argument, "record: this " + std::string(algorithmName(plan.algorithm)) +
                                                     " plan was not made by this " +
                                                     std::string(algorithmName(algorithm())) +
                                                     " sorter's plan(); record a plan with the sorter that made it");
    const size_t steps = plan.steps.size();
    if (first > std::min(last, steps))
        return makeError(Errc::invalid_argument,
                         "record: steps from " + std::to_string(first) + " to " +
                             (last == SIZE_MAX ? std::string("the end") : std::to_string(last)) + " of a plan of " +
                             std::to_string(steps) + " steps");
    last = std::min(last, steps);
    if (first == last) return {};
    SORTLAB_TRY(checkBuffers(plan, buffers));
    return recordSteps(cmd, plan, buffers, first, last, timestamps, firstQuery);
}

Result<std::unique_ptr<Sorter>> makeSorter(Context& ctx, Algorithm algorithm) {
    switch (algorithm) {
    case Algorithm::oddeven:
        return oddeven::makeOddEvenSorter(ctx);
    case Algorithm::radix4:
        return radix4::makeRadix4Sorter(ctx);
    case Algorithm::onesweep:
        return onesweep::makeOneSweepSorter(ctx);
    case Algorithm::hybrid:
        return hybrid::makeHybridSorter(ctx);
    case Algorithm::automatic:
        return makeError(Errc::invalid_argument, "Algorithm::automatic is a choice sortlab::sort makes for each call, "
                                                 "not a sorter: make a onesweep or hybrid sorter");
    }
    return makeError(Errc::invalid_argument, "unknown algorithm " + std::to_string(static_cast<int>(algorithm)));
}

std::string_view keyTypeName(KeyType t) {
    return nameIn(kKeyTypeNames, t);
}
std::string_view valueTypeName(ValueType v) {
    return v == ValueType::u32 ? "u32" : "none";
}
std::string_view orderName(Order o) {
    return o == Order::descending ? "desc" : "asc";
}

std::optional<KeyType> parseKeyType(std::string_view s) {
    for (KeyType t : kAllKeyTypes)
        if (keyTypeName(t) == s) return t;
    return std::nullopt;
}
std::optional<ValueType> parseValueType(std::string_view s) {
    if (s == "none") return ValueType::none;
    if (s == "u32") return ValueType::u32;
    return std::nullopt;
}
std::optional<Order> parseOrder(std::string_view s) {
    if (s == "asc" || s == "ascending") return Order::ascending;
    if (s == "desc" || s == "descending") return Order::descending;
    return std::nullopt;
}

} // namespace sortlab
