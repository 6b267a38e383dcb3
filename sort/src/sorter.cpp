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

std::string_view algorithmName(Algorithm a) {
    switch (a) {
    case Algorithm::oddeven:
        return "oddeven";
    case Algorithm::radix4:
        return "radix4";
    case Algorithm::onesweep:
        return "onesweep";
    }
    return "?";
}

std::optional<Algorithm> parseAlgorithm(std::string_view s) {
    if (s == "oddeven") return Algorithm::oddeven;
    if (s == "radix4") return Algorithm::radix4;
    if (s == "onesweep") return Algorithm::onesweep;
    return std::nullopt;
}

std::string_view stepKindName(StepKind k) {
    switch (k) {
    case StepKind::layer:
        return "layer";
    case StepKind::tile:
        return "tile";
    case StepKind::window:
        return "window";
    case StepKind::count:
        return "count";
    case StepKind::scan:
        return "scan";
    case StepKind::scatter:
        return "scatter";
    case StepKind::result:
        return "result";
    case StepKind::histogram:
        return "histogram";
    case StepKind::pass:
        return "pass";
    }
    return "?";
}

std::string_view auxKindName(AuxKind k) {
    switch (k) {
    case AuxKind::passInfo:
        return "pass";
    case AuxKind::digitCounts:
        return "digit counts";
    case AuxKind::histogram:
        return "histogram";
    case AuxKind::offsets:
        return "offsets";
    case AuxKind::workgroupOffsets:
        return "workgroup offsets";
    case AuxKind::allHistograms:
        return "all histograms";
    case AuxKind::allOffsets:
        return "all offsets";
    case AuxKind::tileStatus:
        return "tile status";
    case AuxKind::tileCounts:
        return "tile counts";
    case AuxKind::fallbacks:
        return "fallbacks";
    }
    return "?";
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
    switch (t) {
    case KeyType::u32:
        return "u32";
    case KeyType::i32:
        return "i32";
    case KeyType::f32:
        return "f32";
    case KeyType::u64:
        return "u64";
    case KeyType::i64:
        return "i64";
    case KeyType::f64:
        return "f64";
    }
    return "?";
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
