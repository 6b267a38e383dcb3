// The algorithms sortlab-bench knows, by command-line name: every variant of the library's table
// (sortlab::variants(): the same names and plans as the app's menu and `sortlab --algo`), and the
// CPU baseline std.
#pragma once

#include <sortlab/variants.h>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sortlab::bench {

struct AlgoSpec {
    std::string_view name;                   // --algo name, and the "algo" column
    std::optional<sortlab::Variant> variant; // the library's variant; nullopt: the CPU baseline (std)
    std::optional<sortlab::Algorithm> gpu;   // its algorithm (nullopt for std)
    bool stable;                             // --check: equal keys keep their input order
    bool inAll;                              // part of --algo all (not the diagnostic variants)
};

std::span<const AlgoSpec> allAlgos();
// --algo auto: sortlab::sort's Algorithm::automatic (sortlab/sortlab.h) picks OneSweep or the hybrid
// for each case, and the case then runs the one it picked (its row says which: "chose", "why").
// Not in allAlgos (it is not a variant of the library's); the app's panel offers it last.
const AlgoSpec& autoAlgo();
// allAlgos, then autoAlgo: every --algo name but "all".
std::vector<const AlgoSpec*> everyAlgo();
// "oddeven,std", "all" -> the specs, in the order given (duplicates dropped).
std::vector<const AlgoSpec*> parseAlgos(std::string_view text);

// The configuration a GPU algorithm runs (trace=false) or traces (trace=true) with: the command
// line's knobs (Options::knobs), with its variant's on top (forceFallback stays on where either
// sets it); resultInEither only for the radix sorts. The odd-even variants are traced with the
// per-layer plan, so that every trace line is exactly one network layer (docs/trace.md); the
// fused plan runs the same comparators in the same order.
sortlab::SortConfig configFor(const AlgoSpec& algo, sortlab::KeyType key, sortlab::ValueType values,
                              sortlab::Order order, const sortlab::SortKnobs& knobs, bool trace = false);

// The "variant" column: the library's variant name for GPU sorts ("+log" with --lookback-stats,
// "+either" with --either-buffer); std::sort / std::stable_sort.
std::string variantFor(const AlgoSpec& algo, const sortlab::SortConfig& config);

} // namespace sortlab::bench
