#include <sortlab/bench/algos.h>

#include <sortlab/bench/errors.h>
#include <sortlab/bench/options.h>

#include <algorithm>

namespace sortlab::bench {

namespace {

std::vector<AlgoSpec> makeAlgos() {
    std::vector<AlgoSpec> out;
    // The app's menu's variants, then those it does not offer yet (hybrid: not in the app's
    // step-through, slower than OneSweep on every GPU measured, so not part of --algo all).
    const size_t menu = sortlab::variants().size();
    for (const sortlab::VariantInfo& v : sortlab::allVariants())
        out.push_back({v.name, v.variant, v.algorithm, v.stable, !v.diagnostic && out.size() < menu});
    out.push_back({"std", std::nullopt, std::nullopt, true, true});
    return out;
}

const std::vector<AlgoSpec>& algos() {
    static const std::vector<AlgoSpec> table = makeAlgos();
    return table;
}

} // namespace

std::span<const AlgoSpec> allAlgos() {
    return algos();
}

const AlgoSpec& autoAlgo() {
    static const AlgoSpec spec{"auto", std::nullopt, sortlab::Algorithm::automatic, true, false};
    return spec;
}

std::vector<const AlgoSpec*> everyAlgo() {
    std::vector<const AlgoSpec*> out;
    for (const AlgoSpec& a : algos()) out.push_back(&a);
    out.push_back(&autoAlgo());
    return out;
}

std::vector<const AlgoSpec*> parseAlgos(std::string_view text) {
    std::vector<const AlgoSpec*> out;
    auto add = [&](const AlgoSpec* a) {
        if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
    };
    const std::vector<AlgoSpec>& kAlgos = algos();
    for (const std::string& item : splitList(text, "algo")) {
        if (item == "all") {
            for (const AlgoSpec& a : kAlgos)
                if (a.inAll) add(&a);
            continue;
        }
        if (item == "auto") {
            add(&autoAlgo());
            continue;
        }
        const std::optional<sortlab::Variant> variant = sortlab::parseVariant(item); // "oddeven-fused" too (menu names)
        auto it = std::find_if(std::begin(kAlgos), std::end(kAlgos),
                               [&](const AlgoSpec& a) { return a.name == item || (variant && a.variant == variant); });
        if (it == std::end(kAlgos)) {
            std::string names;
            for (const AlgoSpec& a : kAlgos) names += std::string(a.name) + ", ";
            usageError("unknown --algo '" + item + "' (expected " + names +
                       "auto or all; several may be given as a comma list)");
        }
        add(&*it);
    }
    return out;
}

sortlab::SortConfig configFor(const AlgoSpec& algo, sortlab::KeyType key, sortlab::ValueType values,
                              sortlab::Order order, const sortlab::SortKnobs& knobs, bool trace) {
    sortlab::SortConfig c;
    c.key = key;
    c.values = values;
    c.order = order;
    c.knobs = knobs;
    if (algo.variant) c = sortlab::configure(*algo.variant, c);
    c.knobs.forceFallback = c.knobs.forceFallback || knobs.forceFallback;
    if (trace && algo.gpu == sortlab::Algorithm::oddeven) c.knobs.perLayer = true;
    if (algo.gpu != sortlab::Algorithm::radix4 && algo.gpu != sortlab::Algorithm::onesweep) {
        c.knobs.radixTileKeys = 0;
        c.knobs.resultInEither = false; // the variant column says "+either" only where it applies
    }
    return c;
}

std::string variantFor(const AlgoSpec& algo, const sortlab::SortConfig& config) {
    if (!algo.gpu) return config.values == sortlab::ValueType::none ? "std::sort" : "std::stable_sort";
    if (algo.gpu == sortlab::Algorithm::automatic) return "auto"; // (its rows: the pick's variant)
    // The instrumented OneSweep (--lookback-stats) is named apart: it is slower.
    // The result left in either buffer (--either-buffer) is named apart too: it copies less.
    return sortlab::variantName(*algo.gpu, config) + (config.knobs.logLookback ? "+log" : "") +
           (config.knobs.resultInEither ? "+either" : "");
}

} // namespace sortlab::bench
