#include <sortlab/data.h>

#include <algorithm>
#include <iterator>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <system_error>
#include <type_traits>

namespace sortlab {

namespace {

// Every distribution's name, custom's too, in the enum's order: distributionName reads it one way,
// parseDistribution the other.
constexpr std::string_view kDistributionNames[] = {"uniform",       "sorted",   "reversed", "equal", "few-unique",
                                                   "nearly-sorted", "gaussian", "special",  "small", "custom",
                                                   "narrow",        "bits",     "runs"};
static_assert(std::size(kDistributionNames) == std::size(kAllDistributions) + 1, "a name per Distribution");

} // namespace

std::string_view distributionName(Distribution d) {
    const size_t i = static_cast<size_t>(d);
    return i < std::size(kDistributionNames) ? kDistributionNames[i] : "?";
}

std::optional<Distribution> parseDistribution(std::string_view s) {
    for (size_t i = 0; i < std::size(kDistributionNames); ++i)
        if (kDistributionNames[i] == s && Distribution(i) != Distribution::custom)
            return Distribution(i); // custom keys are given, not generated
    return std::nullopt;
}

namespace {

// splitmix64: a counter-based generator, so key i depends only on (seed, i).
uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}
double unit(uint64_t r) {
    return double(r >> 11) * (1.0 / 9007199254740992.0);
} // [0, 1)
double normal(uint64_t a, uint64_t b) {
    double u1 = std::max(unit(a), 1e-300), u2 = unit(b);
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

// The raw bits of a key of `type` for a random draw.
uint64_t uniformBits(KeyType type, uint64_t r) {
    switch (type) {
    case KeyType::f32:
        return std::bit_cast<uint32_t>(static_cast<float>(unit(r) * 2e6 - 1e6));
    case KeyType::f64:
        return std::bit_cast<uint64_t>(unit(r) * 2e6 - 1e6);
    default:
        return keyBytes(type) == 4 ? (r >> 32) : r;
    }
}
uint64_t gaussianBits(KeyType type, double g) {
    switch (type) {
    case KeyType::f32:
        return std::bit_cast<uint32_t>(static_cast<float>(g * 1000.0));
    case KeyType::f64:
        return std::bit_cast<uint64_t>(g * 1000.0);
    case KeyType::i32:
        return static_cast<uint32_t>(static_cast<int32_t>(std::clamp(g * 1e8, -2e9, 2e9)));
    case KeyType::u32:
        return static_cast<uint32_t>(std::clamp(2147483648.0 + g * 1e8, 0.0, 4294967295.0));
    case KeyType::i64:
        return static_cast<uint64_t>(static_cast<int64_t>(g * 1e17));
    case KeyType::u64:
        return static_cast<uint64_t>(9.2e18 + g * 1e17);
    }
    return 0;
}
// The integer v (0..99) as a key of the type.
uint64_t smallBits(KeyType type, uint64_t v) {
    switch (type) {
    case KeyType::f32:
        return std::bit_cast<uint32_t>(static_cast<float>(v));
    case KeyType::f64:
        return std::bit_cast<uint64_t>(static_cast<double>(v));
    default:
        return v;
    }
}

// Keys that use the low half of their bits (floats: [1, 2), so every key has the same sign and exponent).
uint64_t narrowBits(KeyType type, uint64_t r) {
    switch (type) {
    case KeyType::f32:
        return std::bit_cast<uint32_t>(static_cast<float>(1.0 + 0.999 * unit(r)));
    case KeyType::f64:
        return std::bit_cast<uint64_t>(1.0 + 0.999 * unit(r));
    default:
        return keyBytes(type) == 4 ? (r >> 48) : (r >> 32);
    }
}

uint64_t specialBits(KeyType type, uint64_t r) {
    if (type == KeyType::f32) {
        static const uint32_t s[] = {0x7fc00000u, 0xffc00000u, 0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                     0x00000001u, 0x80000001u, 0x3f800000u, 0xbf800000u, 0x7f7fffffu};
        uint64_t pick = r % 16;
        return pick < std::size(s) ? s[pick] : uniformBits(type, mix(r));
    }
    if (type == KeyType::f64) {
        static const uint64_t s[] = {0x7ff8000000000000ull, 0xfff8000000000000ull, 0, 0x8000000000000000ull,
                                     0x7ff0000000000000ull, 0xfff0000000000000ull, 1, 0x8000000000000001ull,
                                     0x3ff0000000000000ull, 0xbff0000000000000ull};
        uint64_t pick = r % 16;
        return pick < std::size(s) ? s[pick] : uniformBits(type, mix(r));
    }
    // Integers: the extremes and neighbours of zero and of the sign boundary.
    static const uint64_t s[] = {
        0, 1, ~0ull, 0x7fffffffull, 0x80000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull};
    uint64_t pick = r % 12;
    uint64_t v = pick < std::size(s) ? s[pick] : uniformBits(type, mix(r));
    return keyBytes(type) == 4 ? (v & 0xffffffffull) : v;
}

void store(std::byte* out, size_t i, uint32_t bytes, uint64_t v) {
    if (bytes == 4) {
        uint32_t w = static_cast<uint32_t>(v);
        std::memcpy(out + i * 4, &w, 4);
    } else {
        std::memcpy(out + i * 8, &v, 8);
    }
}

} // namespace

std::vector<std::byte> generateKeys(KeyType type, uint64_t n, Distribution d, uint64_t seed) {
    const uint32_t kb = keyBytes(type);
    std::vector<std::byte> out(n * kb);
    const uint64_t s = mix(seed ^ 0x5eed5eed5eedull);
    switch (d) {
    case Distribution::equal: {
        uint64_t v = uniformBits(type, mix(s));
        for (uint64_t i = 0; i < n; ++i) store(out.data(), i, kb, v);
        return out;
    }
    case Distribution::few_unique:
        for (uint64_t i = 0; i < n; ++i) store(out.data(), i, kb, uniformBits(type, mix(s + mix(i) % 16)));
        return out;
    case Distribution::gaussian:
        for (uint64_t i = 0; i < n; ++i)
            store(out.data(), i, kb, gaussianBits(type, normal(mix(s + 2 * i), mix(s + 2 * i + 1))));
        return out;
    case Distribution::special:
        for (uint64_t i = 0; i < n; ++i) store(out.data(), i, kb, specialBits(type, mix(s + i)));
        return out;
    case Distribution::small:
    case Distribution::custom:
        for (uint64_t i = 0; i < n; ++i) store(out.data(), i, kb, smallBits(type, mix(s + i) % 100));
        return out;
    case Distribution::narrow:
        for (uint64_t i = 0; i < n; ++i) store(out.data(), i, kb, narrowBits(type, mix(s + i)));
        return out;
    case Distribution::bits:
        for (uint64_t i = 0; i < n; ++i) store(out.data(), i, kb, uniformBits(type, mix(s + i)) & ~uint64_t(0xff));
        return out;
    default:
        break;
    }
    for (uint64_t i = 0; i < n; ++i) store(out.data(), i, kb, uniformBits(type, mix(s + i)));
    if (d == Distribution::uniform) return out;
    if (d == Distribution::runs) { // each run of 1000 sorted; the runs stay in their random order
        for (uint64_t r = 0; r < n; r += 1000) {
            const uint64_t len = std::min<uint64_t>(1000, n - r);
            referenceSort(std::span(out).subspan(r * kb, len * kb), {}, type, Order::ascending);
        }
        return out;
    }
    referenceSort(out, {}, type, d == Distribution::reversed ? Order::descending : Order::ascending);
    if (d == Distribution::nearly_sorted) {
        for (uint64_t j = 0; j < n / 100; ++j) {
            uint64_t a = mix(s ^ (2 * j + 1)) % n, b = mix(s ^ (2 * j + 2)) % n;
            for (uint32_t q = 0; q < kb; ++q) std::swap(out[a * kb + q], out[b * kb + q]);
        }
    }
    return out;
}

std::vector<uint32_t> indexValues(uint64_t n) {
    std::vector<uint32_t> v(n);
    std::iota(v.begin(), v.end(), 0u);
    return v;
}

namespace {
template <class Word> void referenceTyped(Word* keys, uint32_t* values, size_t n, KeyType type, Order order) {
    const KeyKind kind = keyKind(type);
    auto bits = [&](Word w) { return orderBitsOf(w, kind, order); };
    if (!values) {
        std::vector<Word> tmp(keys, keys + n);
        std::stable_sort(tmp.begin(), tmp.end(), [&](Word a, Word b) { return bits(a) < bits(b); });
        std::copy(tmp.begin(), tmp.end(), keys);
        return;
    }
    std::vector<std::pair<Word, uint32_t>> tmp(n);
    for (size_t i = 0; i < n; ++i) tmp[i] = {keys[i], values[i]};
    std::stable_sort(tmp.begin(), tmp.end(),
                     [&](const auto& a, const auto& b) { return bits(a.first) < bits(b.first); });
    for (size_t i = 0; i < n; ++i) {
        keys[i] = tmp[i].first;
        values[i] = tmp[i].second;
    }
}
} // namespace

void referenceSort(std::span<std::byte> keys, std::span<uint32_t> values, KeyType type, Order order) {
    const size_t n = keys.size() / keyBytes(type);
    uint32_t* v = values.empty() ? nullptr : values.data();
    if (keyBytes(type) == 4)
        referenceTyped(reinterpret_cast<uint32_t*>(keys.data()), v, n, type, order);
    else
        referenceTyped(reinterpret_cast<uint64_t*>(keys.data()), v, n, type, order);
}

std::string formatKey(std::span<const std::byte> keys, size_t i, KeyType type) {
    char buf[64];
    uint32_t w = 0;
    uint64_t d = 0;
    if (keyBytes(type) == 4)
        std::memcpy(&w, keys.data() + i * 4, 4);
    else
        std::memcpy(&d, keys.data() + i * 8, 8);
    switch (type) {
    case KeyType::u32:
        std::snprintf(buf, sizeof buf, "%u", w);
        break;
    case KeyType::i32:
        std::snprintf(buf, sizeof buf, "%d", static_cast<int32_t>(w));
        break;
    case KeyType::u64:
        std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(d));
        break;
    case KeyType::i64:
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(d));
        break;
    case KeyType::f32:
    case KeyType::f64: {
        double x = type == KeyType::f32 ? double(std::bit_cast<float>(w)) : std::bit_cast<double>(d);
        if (std::isnan(x))
            std::snprintf(buf, sizeof buf, "%snan", std::signbit(x) ? "-" : "");
        else if (std::isinf(x))
            std::snprintf(buf, sizeof buf, "%sinf", x < 0 ? "-" : "");
        else
            std::snprintf(buf, sizeof buf, type == KeyType::f32 ? "%.9g" : "%.17g", x);
        break;
    }
    }
    return buf;
}

CheckResult compareSorted(std::span<const std::byte> expectedKeys, std::span<const uint32_t> expectedValues,
                          std::span<const std::byte> gotKeys, std::span<const uint32_t> gotValues, KeyType type,
                          Order order, bool stable) {
    const uint32_t kb = keyBytes(type);
    const size_t n = expectedKeys.size() / kb;
    if (gotKeys.size() != expectedKeys.size() || gotValues.size() != expectedValues.size())
        return {false, "result has the wrong size"};
    for (size_t i = 0; i < n; ++i) {
        if (std::memcmp(expectedKeys.data() + i * kb, gotKeys.data() + i * kb, kb) != 0)
            return {false, "key " + std::to_string(i) + " is " + formatKey(gotKeys, i, type) + ", expected " +
                               formatKey(expectedKeys, i, type)};
    }
    if (expectedValues.empty()) return {};
    if (stable) {
        for (size_t i = 0; i < n; ++i)
            if (expectedValues[i] != gotValues[i])
                return {false, "value " + std::to_string(i) + " is " + std::to_string(gotValues[i]) + ", expected " +
                                   std::to_string(expectedValues[i]) + " (the sort must be stable)"};
        return {};
    }
    // Runs of equal keys: same multiset of values.
    std::vector<uint32_t> a, b;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n &&
               orderBitsAt(expectedKeys.data(), j, type, order) == orderBitsAt(expectedKeys.data(), i, type, order))
            ++j;
        a.assign(expectedValues.begin() + i, expectedValues.begin() + j);
        b.assign(gotValues.begin() + i, gotValues.begin() + j);
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        if (a != b)
            return {false, "the values of keys " + std::to_string(i) + ".." + std::to_string(j - 1) +
                               " are not the ones that belong to those keys"};
        i = j;
    }
    return {};
}

} // namespace sortlab

namespace sortlab {

namespace {

// The values each key type holds, in KeyType's order, for the message about a key out of range.
constexpr const char* kTypeRanges[] = {"0 to 4294967295",                             // u32
                                       "-2147483648 to 2147483647",                   // i32
                                       "about -3.4e38 to 3.4e38, inf or nan",         // f32
                                       "0 to 18446744073709551615",                   // u64
                                       "-9223372036854775808 to 9223372036854775807", // i64
                                       "about -1.8e308 to 1.8e308, inf or nan"};      // f64
static_assert(std::size(kTypeRanges) == std::size(kAllKeyTypes), "kTypeRanges: one range per KeyType");

const char* typeRange(KeyType type) {
    return kTypeRanges[static_cast<size_t>(type)];
}

// One entry as the type's bits: "" and the bits, or why it is not a key.
template <class T> std::string parseAs(std::string_view word, uint64_t* bits) {
    const char* first = word.data();
    const char* last = word.data() + word.size();
    if (first != last && *first == '+') ++first; // from_chars takes no '+'
    T value{};
    std::from_chars_result r;
    if constexpr (std::is_floating_point_v<T>)
        r = std::from_chars(first, last, value, std::chars_format::general);
    else
        r = std::from_chars(first, last, value);
    if (r.ec == std::errc::result_out_of_range) return "out of range";
    if (r.ec != std::errc() || r.ptr != last) return "not";
    if constexpr (std::is_floating_point_v<T>) {
        if constexpr (sizeof(T) == 4)
            *bits = std::bit_cast<uint32_t>(value);
        else
            *bits = std::bit_cast<uint64_t>(value);
    } else {
        *bits = static_cast<uint64_t>(value);
        if constexpr (sizeof(T) == 4) *bits &= 0xffffffffull;
    }
    return "";
}

std::string parseWord(std::string_view word, KeyType type, uint64_t* bits) {
    switch (type) {
    case KeyType::u32:
        return word.starts_with('-') ? "negative" : parseAs<uint32_t>(word, bits);
    case KeyType::i32:
        return parseAs<int32_t>(word, bits);
    case KeyType::u64:
        return word.starts_with('-') ? "negative" : parseAs<uint64_t>(word, bits);
    case KeyType::i64:
        return parseAs<int64_t>(word, bits);
    case KeyType::f32:
        return parseAs<float>(word, bits);
    case KeyType::f64:
        return parseAs<double>(word, bits);
    }
    return "not";
}

bool isSeparator(char c) {
    return c == ',' || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';';
}

} // namespace

Result<std::vector<std::byte>> parseKeys(std::string_view text, KeyType type, std::string_view source,
                                         uint64_t maxKeys) {
    const uint32_t kb = keyBytes(type);
    const std::string typeName(keyTypeName(type));
    std::vector<std::byte> out;
    uint64_t line = 1, lineStart = 0, count = 0;
    size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
            lineStart = ++i;
            continue;
        }
        if (c == '#') { // a comment, to the end of the line
            while (i < text.size() && text[i] != '\n') ++i;
            continue;
        }
        if (isSeparator(c)) {
            ++i;
            continue;
        }
        size_t end = i;
        while (end < text.size() && !isSeparator(text[end]) && text[end] != '#') ++end;
        const std::string_view word = text.substr(i, end - i);
        const std::string where =
            std::string(source) + ":" + std::to_string(line) + ":" + std::to_string(i - lineStart + 1);
        uint64_t bits = 0;
        const std::string why = parseWord(word, type, &bits);
        if (!why.empty()) {
            std::string shown(word.substr(0, 40));
            if (word.size() > 40) shown += "...";
            if (why == "not")
                return makeError(Errc::parse_error,
                                 where + ": '" + shown + "' is not a " + typeName + " key (" + typeRange(type) + ")");
            return makeError(Errc::parse_error, where + ": " + shown + " is " + why + " for " + typeName + " keys (" +
                                                    typeRange(type) + ")");
        }
        if (maxKeys && count == maxKeys)
            return makeError(Errc::too_large, where + ": more than " + std::to_string(maxKeys) + " keys");
        out.resize(out.size() + kb);
        if (kb == 4) {
            const uint32_t w = static_cast<uint32_t>(bits);
            std::memcpy(out.data() + count * 4, &w, 4);
        } else {
            std::memcpy(out.data() + count * 8, &bits, 8);
        }
        ++count;
        i = end;
    }
    if (count == 0)
        return makeError(Errc::parse_error,
                         std::string(source) + ": no keys (expected numbers separated by commas, spaces or new lines)");
    return out;
}

Result<std::string> readTextFile(const std::string& path, uint64_t maxBytes) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return makeError(Errc::io_error, path + ": cannot read it (" + ec.message() + ")");
    if (size > maxBytes)
        return makeError(Errc::too_large, path + ": " + std::to_string(size) + " bytes, more than the " +
                                              std::to_string(maxBytes) + " a key file may have");
    std::ifstream in(path, std::ios::binary);
    if (!in) return makeError(Errc::io_error, path + ": cannot open it");
    std::string text(size, '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    if (!in) return makeError(Errc::io_error, path + ": cannot read it");
    return text;
}

Result<std::vector<std::byte>> readKeysFile(const std::string& path, KeyType type, uint64_t maxBytes) {
    auto text = readTextFile(path, maxBytes);
    if (!text) return text.error();
    return parseKeys(*text, type, path);
}

} // namespace sortlab
