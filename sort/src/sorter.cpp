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

namespace {

// clang-format off
constexpr VariantInfo kVariants[] = {
    {Variant::oddeven, "oddeven", Algorithm::oddeven, "fused", "Odd-even merge, fused layers (fast path)",
     "Batcher's odd-even merge network; layers inside a shared-memory tile or a subgroup window run fused",
     false, false, false, false},
    {Variant::oddevenLayer, "oddeven-layer", Algorithm::oddeven, "per-layer", "Odd-even merge, one step per layer",
     "Batcher's odd-even merge network, one dispatch per network layer (the form to step through)",
     true, false, false, false},
    {Variant::radix4, "radix4", Algorithm::radix4, "default", "Radix sort, 4-bit digits",
     "LSD radix sort with 4-bit digits: per pass count, scan and stable scatter", false, false, true, false},
    {Variant::onesweep, "onesweep", Algorithm::onesweep, "lookback", "OneSweep radix, 8-bit digits",
     "OneSweep: 8-bit digits, one histogram read, passes with a chained scan by decoupled lookback",
     false, false, true, false},
    {Variant::onesweepFallback, "onesweep-fallback", Algorithm::onesweep, "forced-fallback",
     "OneSweep radix, forced fallback", "OneSweep where every tile counts its predecessor's keys itself (the fallback)",
     false, true, true, true},
};
// clang-format on

} // namespace

std::span<const VariantInfo> variants() {
    return kVariants;
}

const VariantInfo& variantInfo(Variant v) {
    for (const VariantInfo& i : kVariants)
        if (i.variant == v) return i;
    return kVariants[0];
}

std::optional<Variant> parseVariant(std::string_view name) {
    if (name == "oddeven-fused") name = "oddeven";
    for (const VariantInfo& i : kVariants)
        if (i.name == name) return i.variant;
    return std::nullopt;
}

std::string variantNamesText() {
    std::string out;
    for (size_t i = 0; i < std::size(kVariants); ++i) {
        if (i) out += i + 1 == std::size(kVariants) ? " or " : ", ";
        out += kVariants[i].name;
    }
    return out;
}

SortConfig configure(Variant v, SortConfig config) {
    const VariantInfo& i = variantInfo(v);
    config.perLayer = i.perLayer;
    config.forceFallback = i.forceFallback;
    return config;
}

Variant variantOf(Algorithm a, const SortConfig& c) {
    switch (a) {
    case Algorithm::oddeven:
        return c.perLayer ? Variant::oddevenLayer : Variant::oddeven;
    case Algorithm::radix4:
        return Variant::radix4;
    case Algorithm::onesweep:
        return c.forceFallback ? Variant::onesweepFallback : Variant::onesweep;
    }
    return Variant::oddeven;
}

std::string variantName(Algorithm a, const SortConfig& c) {
    return std::string(variantInfo(variantOf(a, c)).plan);
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
