// The algorithms sortlab-bench knows, by command-line name. Each is either a GPU sort that the
// library makes (sortlab::makeSorter) with a configuration variant, or the CPU baseline.
//
// To add a sort (radix4, onesweep are listed already; makeSorter returns "not available yet"
// for them until they land): add a row to kAlgos in algos.cpp, and set inAll once it works.
#pragma once

#include <sortlab/sorter.h>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sortlab::bench {

struct AlgoSpec {
    std::string_view name;                   // --algo name, and the "algo" column
    std::optional<sortlab::Algorithm> gpu;   // the library's sort; nullopt: the CPU baseline (std)
    void (*configure)(sortlab::SortConfig&); // the variant's knobs (may be null)
    // The configuration --trace uses (may be null: the same as configure). The odd-even sorts
    // trace the per-layer plan, so that every trace line is exactly one network layer.
    void (*configureTrace)(sortlab::SortConfig&);
    bool stable; // --check: equal keys keep their input order
    bool inAll;  // part of --algo all
};

std::span<const AlgoSpec> allAlgos();
// "oddeven,std", "all" -> the specs, in the order given (duplicates dropped).
std::vector<const AlgoSpec*> parseAlgos(std::string_view text);

// The configuration a GPU algorithm runs (trace=false) or traces (trace=true) with.
sortlab::SortConfig configFor(const AlgoSpec& algo, sortlab::KeyType key, sortlab::ValueType values,
                              sortlab::Order order, uint32_t sharedElems, bool trace, bool forceFallback = false);

// The "variant" column: the library's variant name for GPU sorts; std::sort / std::stable_sort.
std::string variantFor(const AlgoSpec& algo, const sortlab::SortConfig& config);

} // namespace sortlab::bench
