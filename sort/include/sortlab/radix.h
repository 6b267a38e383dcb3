// The CPU reference model of an LSD radix sort pass: what the GPU's count, scan and scatter
// leave behind, computed the plain way (a counting sort on one digit). The tests compare the GPU
// with it after every step; the app's check mode shows where they differ.
#pragma once

#include <sortlab/keys.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace sortlab::radix {

// The digit of key i: bits [bitLo, bitLo + digitBits) of its order bits (see keys.h).
uint32_t digitAt(std::span<const std::byte> keys, size_t i, KeyType type, Order order, uint32_t bitLo,
                 uint32_t digitBits);

struct PassState {
    uint32_t bitLo = 0, digitBits = 0;
    uint64_t tileKeys = 0, workgroups = 0;
    std::vector<uint32_t> counts;           // [d * workgroups + w]: keys of tile w with digit d
    std::vector<uint64_t> histogram;        // [d]: keys with digit d
    std::vector<uint64_t> offsets;          // exclusive scan of the histogram
    std::vector<uint64_t> workgroupOffsets; // [d * workgroups + w]: where tile w's first key of digit d goes
    bool skipped = false;                   // every key has the same digit: nothing moves
    // Tiles whose keys all have one digit (OneSweep stages them in order instead of ranking them).
    uint64_t oneDigitTiles() const;
};

// Counts the digit of bits [bitLo, bitLo + digitBits) per tile of tileKeys keys, scans, and
// moves keys (and values, when not empty) to their places, keeping equal digits in input order.
PassState referencePass(std::span<std::byte> keys, std::span<uint32_t> values, KeyType type, Order order,
                        uint32_t bitLo, uint32_t digitBits, uint64_t tileKeys);

} // namespace sortlab::radix
