// What the user chose: the sort (algorithm and variant) and its input. Same settings, same input:
// the keys come from sortlab::generateKeys(type, n, distribution, seed), as in sortlab-bench.
#pragma once

#include <sortlab/data.h>
#include <sortlab/sorter.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace sortlab::app {

struct SortSettings {
    // The algorithm menu's entry: a variant of the library's table (sortlab::variants()), by the
    // same names as --algo. The app starts on the per-layer network, the form to step through.
    Variant algo = Variant::oddevenLayer;
    uint64_t n = 16;
    KeyType key = KeyType::u32;
    bool keyValue = false; // u32 values (the input index) sorted along with the keys
    Order order = Order::ascending;
    Distribution dist = Distribution::uniform;
    uint64_t seed = 1;
    uint32_t sharedElems = 0;   // odd-even tile size (0: the device's window)
    bool forceFallback = false; // onesweep: forced fallback on top of the variant's (--force-fallback)

    Algorithm algorithm() const { return variantInfo(algo).algorithm; }
    std::string_view algoName() const { return variantInfo(algo).name; }
    SortConfig config() const;
    bool operator==(const SortSettings&) const = default;
};

} // namespace sortlab::app
