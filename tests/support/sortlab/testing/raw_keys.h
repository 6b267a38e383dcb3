// Random keys as raw bits for the GPU tests that need ties: each key repeats the one before with
// probability 1/repeatOneIn (runs of equal keys, so that stability shows), is a small value below 16
// with probability 1/smallOneIn among the rest (0: never), and random bits otherwise. Stored
// little-endian in the key type's width (the low bytes of the 64 random bits).
#pragma once

#include <sortlab/keys.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace sortlab::test {

inline std::vector<std::byte> randomRawKeys(KeyType t, uint64_t n, uint64_t seed, uint32_t repeatOneIn,
                                            uint32_t smallOneIn = 0) {
    std::mt19937_64 rng(seed);
    std::vector<std::byte> keys(n * keyBytes(t));
    uint64_t last = 0;
    for (uint64_t i = 0; i < n; ++i) {
        uint64_t raw = last;
        if (rng() % repeatOneIn != 0) raw = smallOneIn != 0 && rng() % smallOneIn == 0 ? rng() % 16 : rng();
        last = raw;
        std::memcpy(keys.data() + i * keyBytes(t), &raw, keyBytes(t));
    }
    return keys;
}

} // namespace sortlab::test
