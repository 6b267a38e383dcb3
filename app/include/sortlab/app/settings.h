// What the user chose: the sort (algorithm and variant) and its input. Same settings, same input:
// the keys come from sortlab::generateKeys(type, n, distribution, seed), as in sortlab-bench.
#pragma once

#include <sortlab/data.h>
#include <sortlab/variants.h>

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
    // The input: a distribution, or keys a person gave (Distribution::custom: keysText, parsed per
    // key type, with keysSource naming them in errors: "keys" or the file). Until a distribution is
    // chosen (distAuto), small n (<= kSmallDistMaxN) get Distribution::small, keys 0..99 a class can
    // read, and larger n uniform ones.
    Distribution dist = Distribution::small;
    bool distAuto = true;
    std::string keysText, keysSource;
    uint64_t seed = 1;
    static constexpr uint64_t kSmallDistMaxN = 64;

    // The knobs chosen: oddEvenTileKeys (--shared-elems; 0: the device's window), forceFallback
    // (--force-fallback, on top of the variant's), radixTileKeys (--tile-keys), logLookback
    // (--lookback-log). config() adds the variant's and the automatic choices below.
    SortKnobs knobs;

    // The radix sorts' tile: until one is chosen (tileAuto), up to kTeachingTileMaxN keys run in
    // kTeachingTileKeys-key tiles, so that 64 keys make 8 workgroups and the chained scan has 8
    // tiles to walk; then knobs.radixTileKeys (0: the tuned tile).
    bool tileAuto = true;
    static constexpr uint64_t kTeachingTileMaxN = 256;
    static constexpr uint32_t kTeachingTileKeys = 8;
    uint32_t effectiveTileKeys() const {
        if (!tileAuto) return knobs.radixTileKeys;
        return n <= kTeachingTileMaxN ? kTeachingTileKeys : 0;
    }

    // OneSweep's lookback log (the instrumented pass kernel), which the radix view replays. Until
    // one is chosen (lookbackAuto), on up to kLookbackLogMaxN keys; then knobs.logLookback.
    bool lookbackAuto = true;
    static constexpr uint64_t kLookbackLogMaxN = 65536;
    bool effectiveLookbackLog() const { return lookbackAuto ? n <= kLookbackLogMaxN : knobs.logLookback; }
    Algorithm algorithm() const { return variantInfo(algo).algorithm; }
    std::string_view algoName() const { return variantInfo(algo).name; }
    SortConfig config() const;
    bool operator==(const SortSettings&) const = default;
};

} // namespace sortlab::app
