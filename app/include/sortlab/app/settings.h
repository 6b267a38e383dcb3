// What the user chose: the sort (algorithm and variant) and its input. Same settings, same input:
// the keys come from sortlab::generateKeys(type, n, distribution, seed), as in sortlab-bench.
#pragma once

#include <sortlab/data.h>
#include <sortlab/sorter.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace sortlab::app {

// The entries of the algorithm menu. Odd-even comes in two plans of the same network.
enum class AlgoChoice : uint8_t { oddevenLayer, oddevenFused, radix4, onesweep };
inline constexpr AlgoChoice kAllAlgoChoices[] = {AlgoChoice::oddevenLayer, AlgoChoice::oddevenFused, AlgoChoice::radix4,
                                                 AlgoChoice::onesweep};
inline constexpr size_t kAlgoChoiceCount = 4;

Algorithm algorithmOf(AlgoChoice c);
// Command-line names: "oddeven" (per layer: one step per network layer), "oddeven-fused",
// "radix4", "onesweep"; "oddeven-layer" is accepted for "oddeven".
std::string_view choiceName(AlgoChoice c);
std::string_view choiceLabel(AlgoChoice c); // menu text
bool parseChoice(std::string_view s, AlgoChoice* out);

struct SortSettings {
    AlgoChoice algo = AlgoChoice::oddevenLayer;
    uint64_t n = 16;
    KeyType key = KeyType::u32;
    bool keyValue = false; // u32 values (the input index) sorted along with the keys
    Order order = Order::ascending;
    Distribution dist = Distribution::uniform;
    uint64_t seed = 1;
    uint32_t sharedElems = 0;   // odd-even tile size (0: the device's window)
    bool forceFallback = false; // onesweep

    SortConfig config() const;
    bool operator==(const SortSettings&) const = default;
};

} // namespace sortlab::app
