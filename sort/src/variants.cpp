// The table of variants (sortlab/variants.h) and what is worked out from it.
#include <sortlab/variants.h>

namespace sortlab {

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
    // Not in the app's menu yet (variants() ends before it): sortlab-bench's --algo hybrid.
    {Variant::hybrid, "hybrid", Algorithm::hybrid, "msd16", "Hybrid radix, MSD then buckets",
     "Hybrid radix sort: two OneSweep passes by the top 16 bits, then each bucket sorted in one workgroup",
     false, false, true, false},
};
constexpr size_t kMenuVariants = 5;
// clang-format on

} // namespace

std::span<const VariantInfo> variants() {
    return std::span<const VariantInfo>(kVariants, kMenuVariants);
}

std::span<const VariantInfo> allVariants() {
    return kVariants;
}

const VariantInfo& variantInfo(Variant v) {
    for (const VariantInfo& i : kVariants)
        if (i.variant == v) return i;
    return kVariants[0];
}

std::optional<Variant> parseVariant(std::string_view name) {
    if (name == "oddeven-fused") name = "oddeven";
    for (const VariantInfo& i : variants())
        if (i.name == name) return i.variant;
    return std::nullopt;
}

std::string variantNamesText() {
    std::string out;
    for (size_t i = 0; i < kMenuVariants; ++i) {
        if (i) out += i + 1 == kMenuVariants ? " or " : ", ";
        out += kVariants[i].name;
    }
    return out;
}

SortConfig configure(Variant v, SortConfig config) {
    const VariantInfo& i = variantInfo(v);
    config.knobs.perLayer = i.perLayer;
    config.knobs.forceFallback = i.forceFallback;
    return config;
}

Variant variantOf(Algorithm a, const SortConfig& c) {
    switch (a) {
    case Algorithm::oddeven:
        return c.knobs.perLayer ? Variant::oddevenLayer : Variant::oddeven;
    case Algorithm::radix4:
        return Variant::radix4;
    case Algorithm::onesweep:
        return c.knobs.forceFallback ? Variant::onesweepFallback : Variant::onesweep;
    case Algorithm::hybrid:
    case Algorithm::automatic: // (no sorter plans as automatic)
        return Variant::hybrid;
    }
    return Variant::oddeven;
}

std::string variantName(Algorithm a, const SortConfig& c) {
    return std::string(variantInfo(variantOf(a, c)).plan);
}

} // namespace sortlab
