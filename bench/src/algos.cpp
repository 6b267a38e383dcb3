#include <sortlab/bench/algos.h>

#include <sortlab/bench/errors.h>
#include <sortlab/bench/options.h>

#include <algorithm>

namespace sortlab::bench {

namespace {

void fused(sortlab::SortConfig& c) {
    c.perLayer = false;
}
void perLayer(sortlab::SortConfig& c) {
    c.perLayer = true;
}
void forcedFallback(sortlab::SortConfig& c) {
    c.forceFallback = true;
}

// clang-format off
const AlgoSpec kAlgos[] = {
    // name            gpu                            configure  trace      stable inAll
    {"oddeven",       sortlab::Algorithm::oddeven,  fused,     perLayer,  false, true},
    {"oddeven-layer", sortlab::Algorithm::oddeven,  perLayer,  perLayer,  false, true},
    {"radix4",        sortlab::Algorithm::radix4,   nullptr,   nullptr,   true,  true},
    {"onesweep",      sortlab::Algorithm::onesweep, nullptr,   nullptr,   true,  true},
    {"onesweep-fallback", sortlab::Algorithm::onesweep, forcedFallback, nullptr, true, false},
    {"std",           std::nullopt,                 nullptr,   nullptr,   true,  true},
};
// clang-format on

} // namespace

std::span<const AlgoSpec> allAlgos() {
    return kAlgos;
}

std::vector<const AlgoSpec*> parseAlgos(std::string_view text) {
    std::vector<const AlgoSpec*> out;
    auto add = [&](const AlgoSpec* a) {
        if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
    };
    for (const std::string& item : splitList(text, "algo")) {
        if (item == "all") {
            for (const AlgoSpec& a : kAlgos)
                if (a.inAll) add(&a);
            continue;
        }
        auto it = std::find_if(std::begin(kAlgos), std::end(kAlgos), [&](const AlgoSpec& a) { return a.name == item; });
        if (it == std::end(kAlgos)) {
            std::string names;
            for (const AlgoSpec& a : kAlgos) names += std::string(a.name) + ", ";
            usageError("unknown --algo '" + item + "' (expected " + names +
                       "or all; several may be given as a comma list)");
        }
        add(&*it);
    }
    return out;
}

sortlab::SortConfig configFor(const AlgoSpec& algo, sortlab::KeyType key, sortlab::ValueType values,
                              sortlab::Order order, uint32_t sharedElems, bool trace, bool forceFallback) {
    sortlab::SortConfig c;
    c.key = key;
    c.values = values;
    c.order = order;
    c.sharedElems = sharedElems;
    c.forceFallback = forceFallback;
    if (algo.configure) algo.configure(c);
    if (trace && algo.configureTrace) algo.configureTrace(c);
    return c;
}

std::string variantFor(const AlgoSpec& algo, const sortlab::SortConfig& config) {
    if (!algo.gpu) return config.values == sortlab::ValueType::none ? "std::sort" : "std::stable_sort";
    return sortlab::variantName(*algo.gpu, config);
}

} // namespace sortlab::bench
