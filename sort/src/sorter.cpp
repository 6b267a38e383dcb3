#include <sortlab/sorter.h>

#include <algorithm>

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

namespace {

// Names by enum value, in the enums' order (a name table a switch would only repeat).
template <class Enum, size_t N> std::string_view nameIn(const std::string_view (&names)[N], Enum e) {
    const size_t i = static_cast<size_t>(e);
    return i < N ? names[i] : "?";
}

constexpr std::string_view kAlgorithmNames[] = {"oddeven", "radix4", "onesweep"};
constexpr std::string_view kStepKindNames[] = {"layer",   "tile",   "window",    "count", "scan",
                                               "scatter", "result", "histogram", "pass"};
constexpr std::string_view kAuxKindNames[] = {
    "pass",           "digit counts", "histogram",   "offsets",     "workgroup offsets",
    "all histograms", "all offsets",  "tile status", "tile counts", "fallbacks", "lookback log",
    "uniform tiles"};
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

StorageRequirements storageRequirements(const Plan& plan) {
    StorageRequirements r;
    r.keys = plan.n * keyBytes(plan.config.key);
    r.values = plan.n * valueBytes(plan.config.values);
    if (plan.needsTemp) {
        r.keysTemp = r.keys;
        r.valuesTemp = r.values;
    }
    r.scratch = plan.scratchBytes;
    return r;
}

Result<std::unique_ptr<Sorter>> makeSorter(Context& ctx, Algorithm algorithm) {
    switch (algorithm) {
    case Algorithm::oddeven:
        return oddeven::makeOddEvenSorter(ctx);
    case Algorithm::radix4:
        return radix4::makeRadix4Sorter(ctx);
    case Algorithm::onesweep:
        return onesweep::makeOneSweepSorter(ctx);
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
