// The array view's picture of a large array: value against index as a density-shaded dot plot.
// The keys are split into buckets of consecutive indices; for each bucket, a histogram of the
// keys' heights (the whole key, scaled to the array's own min..max) over kRows value rows. The view
// merges buckets into its pixel columns, so every column is a vertical histogram of its keys:
// a sorted array is one clean rising line, an LSD radix sort part-way is as many rising ramps as
// the unsorted high bits have values (noise when that is more than the rows can show).
// Pure functions, no ImGui: the worker computes a strip per step, the tests check them.
#pragma once

#include <sortlab/keys.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace sortlab::app {

// Where a key sits between the array's smallest and largest key, in sort order (ascending).
// Integers: by their order bits (sortlab/keys.h), exact for 64-bit keys whatever their range.
// Floats: by value, from the smallest to the largest finite key; -inf and NaNs with the sign bit
// set at the bottom, +inf and NaNs without it at the top (IEEE 754 totalOrder's ends).
struct KeyScale {
    KeyType type = KeyType::u32;
    uint64_t lo = 0, hi = 0; // integers: the order bits of the smallest and largest key
    double flo = 0, fhi = 0; // floats: the smallest and largest finite key
    // 0 for the smallest key, 1 for the largest (0.5 for all when they are equal).
    float height(const std::byte* keys, uint64_t i) const;
};
KeyScale keyScale(const std::byte* keys, uint64_t n, KeyType type);

struct Density {
    static constexpr uint32_t kRows = 128;
    uint64_t first = 0, count = 0; // the keys [first, first + count) it shows
    uint32_t buckets = 0;          // bucket b: keys first + [b * count / buckets, (b + 1) * count / buckets)
    std::vector<uint32_t> counts;  // counts[b * kRows + r]: the bucket's keys in value row r (0: lowest)
    std::vector<float> mean;       // per bucket: the mean height of its keys (0..1)
    uint64_t bucketFirst(uint64_t b) const { return first + b * count / buckets; }
};
// The density of keys [first, first + count) in `buckets` buckets (at most count), every key read
// once when `stride` is 1 (a zoomed range too long to read may sample every stride-th key).
Density densityOf(const std::byte* keys, const KeyScale& scale, uint64_t first, uint64_t count, uint32_t buckets,
                  uint64_t stride = 1);

// The pixel columns of a strip `width` pixels wide (the plot's own width, never what is left of a
// line of text), at least 1.
uint32_t stripColumns(float width);
// The buckets [first, last) of `buckets` that column c of `columns` shows (every bucket in exactly
// one column when there are at least as many buckets as columns; else a bucket may span columns).
std::pair<uint32_t, uint32_t> columnBuckets(uint32_t buckets, uint32_t columns, uint32_t c);
// About how many keys one pixel column shows (count / columns, rounded).
uint64_t keysPerColumn(uint64_t count, uint32_t columns);

// The density merged into pixel columns: counts[c * kRows + r], and each column's keys.
struct ColumnDensity {
    uint32_t columns = 0;
    std::vector<uint32_t> counts;
    std::vector<uint64_t> keys;
    uint32_t maxCount = 0;
};
ColumnDensity mergeColumns(const Density& d, uint32_t columns);

// How bright a cell of `count` keys is drawn (0: none, else 1..levels): log-scaled against the
// picture's largest count, so one key still shows and a sorted line is the brightest.
uint32_t shadeLevel(uint32_t count, uint32_t maxCount, uint32_t levels);

} // namespace sortlab::app
