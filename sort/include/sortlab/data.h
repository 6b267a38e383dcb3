// Host-side inputs and checks shared by sortlab-bench, the tests and the app: input
// distributions (same seed, same input, on any machine), the reference sort (std::stable_sort on
// the order bits) and a comparison that says where a result first differs.
#pragma once

#include <sortlab/keys.h>
#include <sortlab/result.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sortlab {

enum class Distribution : uint8_t {
    uniform,       // integers: every bit random; floats: uniform in [-1e6, 1e6)
    sorted,        // uniform, then sorted ascending
    reversed,      // uniform, then sorted descending
    equal,         // one key repeated
    few_unique,    // 16 distinct keys
    nearly_sorted, // sorted, then 1% of positions swapped with a random partner
    gaussian,      // normal around the middle of the type's range (floats: mean 0, sigma 1000)
    special,       // floats: NaN, -NaN, +-0.0, +-inf, denormals mixed with normal values
    small,         // integers 0..99 (floats too: 0.0 .. 99.0), readable at the sizes a class follows
    custom,        // keys a person gave (parseKeys, readKeysFile): never generated
    narrow,        // keys that use the low half of their bits: 32-bit integers below 2^16, 64-bit below 2^32;
                   // floats in [1, 2): one sign and exponent, so the top byte is the same
    bits,          // uniform with the low byte zero (floats: the low byte of their bits)
    runs,          // sorted runs of 1000 uniform keys, the runs in random order
};
// The distributions generateKeys makes (every one but custom).
inline constexpr Distribution kAllDistributions[] = {
    Distribution::uniform,    Distribution::sorted,        Distribution::reversed, Distribution::equal,
    Distribution::few_unique, Distribution::nearly_sorted, Distribution::gaussian, Distribution::special,
    Distribution::small,      Distribution::narrow,        Distribution::bits,     Distribution::runs};

std::string_view distributionName(Distribution d);
std::optional<Distribution> parseDistribution(std::string_view s);

// n keys of the given type as raw bytes (keyBytes(type) each), deterministic in (seed, n).
// Distribution::custom makes the small distribution's keys (custom keys come from parseKeys).
std::vector<std::byte> generateKeys(KeyType type, uint64_t n, Distribution d, uint64_t seed);
// Keys a person typed or a file holds, as raw bytes of `type`: numbers separated by commas, spaces,
// tabs or new lines; '#' starts a comment that runs to the end of its line. Integers in decimal
// (a leading '-' for signed types only), floats as C writes them, or inf, -inf, nan, -nan. Every
// error names `source`, the line and the column (from 1) of the entry, and what is wrong:
// "keys.txt:3:7: 'ten' is not a u32 key", "...: 5000000000 is out of range for u32 keys
// (0 to 4294967295)", "keys.txt: no keys (...)". At most maxKeys keys (0: no limit).
Result<std::vector<std::byte>> parseKeys(std::string_view text, KeyType type, std::string_view source = "keys",
                                         uint64_t maxKeys = 0);
// The same from a file (parse_error or io_error with the file's name: missing, unreadable, larger
// than maxBytes).
Result<std::vector<std::byte>> readKeysFile(const std::string& path, KeyType type,
                                            uint64_t maxBytes = uint64_t(1) << 30);
// A file's text, or an io_error naming it (missing, unreadable, larger than maxBytes).
Result<std::string> readTextFile(const std::string& path, uint64_t maxBytes = uint64_t(1) << 30);

// 0, 1, ..., n-1: the values of a key-value sort, so that stability can be checked.
std::vector<uint32_t> indexValues(uint64_t n);

// Sorts keys (and values alongside) with std::stable_sort on the order bits.
void referenceSort(std::span<std::byte> keys, std::span<uint32_t> values, KeyType type, Order order);

struct CheckResult {
    bool ok = true;
    std::string message; // empty when ok; otherwise where and how the result differs
};

// Compares a GPU result with the reference result. Keys must match bit for bit. Values must
// match exactly when `stable`; otherwise each run of equal keys must hold the same multiset of
// values (a non-stable sort may permute equal keys).
CheckResult compareSorted(std::span<const std::byte> expectedKeys, std::span<const uint32_t> expectedValues,
                          std::span<const std::byte> gotKeys, std::span<const uint32_t> gotValues, KeyType type,
                          Order order, bool stable);

// A key as text ("-0", "nan", "4294967295"), for messages and traces.
std::string formatKey(std::span<const std::byte> keys, size_t i, KeyType type);

} // namespace sortlab
