#include <sortlab/radix.h>

#include <algorithm>
#include <cstring>

namespace sortlab::radix {

uint32_t digitAt(std::span<const std::byte> keys, size_t i, KeyType type, Order order, uint32_t bitLo,
                 uint32_t digitBits) {
    const uint64_t bits = orderBitsAt(keys.data(), i, type, order);
    return static_cast<uint32_t>((bits >> bitLo) & ((uint64_t(1) << digitBits) - 1));
}

uint64_t PassState::oneDigitTiles() const {
    uint64_t n = 0, tiles = 0;
    for (uint64_t h : histogram) n += h;
    for (uint64_t t = 0; t < workgroups; ++t) {
        const uint64_t keys = std::min(tileKeys, n - t * tileKeys);
        for (size_t d = 0; d < histogram.size(); ++d) tiles += counts[d * workgroups + t] == keys;
    }
    return tiles;
}

PassState referencePass(std::span<std::byte> keys, std::span<uint32_t> values, KeyType type, Order order,
                        uint32_t bitLo, uint32_t digitBits, uint64_t tileKeys) {
    const size_t kb = keyBytes(type);
    const uint64_t n = keys.size() / kb;
    const uint32_t radix = 1u << digitBits;
    PassState s;
    s.bitLo = bitLo;
    s.digitBits = digitBits;
    s.tileKeys = tileKeys;
    s.workgroups = tileKeys ? (n + tileKeys - 1) / tileKeys : 0;
    s.counts.assign(radix * s.workgroups, 0);
    s.histogram.assign(radix, 0);
    std::vector<uint32_t> digit(n);
    for (uint64_t i = 0; i < n; ++i) {
        digit[i] = digitAt(keys, i, type, order, bitLo, digitBits);
        ++s.histogram[digit[i]];
        ++s.counts[digit[i] * s.workgroups + i / tileKeys];
    }
    s.offsets.assign(radix, 0);
    for (uint32_t d = 1; d < radix; ++d) s.offsets[d] = s.offsets[d - 1] + s.histogram[d - 1];
    s.workgroupOffsets.assign(radix * s.workgroups, 0);
    for (uint32_t d = 0; d < radix; ++d) {
        uint64_t run = s.offsets[d];
        for (uint64_t w = 0; w < s.workgroups; ++w) {
            s.workgroupOffsets[d * s.workgroups + w] = run;
            run += s.counts[d * s.workgroups + w];
        }
        s.skipped = s.skipped || s.histogram[d] == n;
    }
    if (s.skipped) return s;

    // The stable counting sort: each key takes the next slot of its digit.
    std::vector<std::byte> outKeys(keys.size());
    std::vector<uint32_t> outValues(values.size());
    std::vector<uint64_t> next = s.offsets;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t to = next[digit[i]]++;
        std::memcpy(outKeys.data() + to * kb, keys.data() + i * kb, kb);
        if (!values.empty()) outValues[to] = values[i];
    }
    std::memcpy(keys.data(), outKeys.data(), keys.size());
    if (!values.empty()) std::memcpy(values.data(), outValues.data(), values.size() * 4);
    return s;
}

} // namespace sortlab::radix
