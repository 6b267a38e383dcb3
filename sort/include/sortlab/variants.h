// The sorts by name: for front ends (the app's algorithm menu, the --algo of sortlab and
// sortlab-bench, reports). One table behind all of them; a variant is an algorithm and the knobs
// of SortKnobs its name sets, so every name means the same plan everywhere. The labels and
// descriptions are the text people read.
#pragma once

#include <sortlab/sorter.h>

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sortlab {

enum class Variant : uint8_t { oddeven, oddevenLayer, radix4, onesweep, onesweepFallback, hybrid };
struct VariantInfo {
    Variant variant;
    std::string_view name; // --algo name
    Algorithm algorithm;
    std::string_view plan;        // its configuration's variantName(): "fused", "per-layer", ...
    std::string_view label;       // menu text
    std::string_view description; // one line: what its steps are
    bool perLayer = false;        // SortKnobs::perLayer
    bool forceFallback = false;   // SortKnobs::forceFallback
    bool stable = false;          // equal keys keep their input order
    bool diagnostic = false;      // the same result as another variant, slower: for checks, not timing
};
std::span<const VariantInfo> variants(); // in menu order
// The menu's variants and those the app does not offer yet (hybrid): what sortlab-bench runs.
std::span<const VariantInfo> allVariants();
const VariantInfo& variantInfo(Variant v);
// A menu variant by --algo name ("oddeven-fused" is accepted for "oddeven"); nullopt for an unknown name.
std::optional<Variant> parseVariant(std::string_view name);
// "oddeven, oddeven-layer, radix4, onesweep or onesweep-fallback": for messages.
std::string variantNamesText();
// config with the knobs of v set (perLayer, forceFallback), the rest kept.
SortConfig configure(Variant v, SortConfig config);
// The variant a configuration runs: the knobs decide (forceFallback on OneSweep, perLayer on odd-even).
Variant variantOf(Algorithm a, const SortConfig& c);
// The plan name of a configuration ("fused", "per-layer", "default", "lookback", "forced-fallback").
std::string variantName(Algorithm a, const SortConfig& c);

} // namespace sortlab
