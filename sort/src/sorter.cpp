#include <sortlab/sorter.h>

namespace sortlab {

namespace oddeven {
std::unique_ptr<Sorter> makeOddEvenSorter(Context& ctx);
}
namespace radix4 {
std::unique_ptr<Sorter> makeRadix4Sorter(Context& ctx);
}
namespace onesweep {
std::unique_ptr<Sorter> makeOneSweepSorter(Context& ctx);
}

std::string_view algorithmName(Algorithm a) {
    switch (a) {
    case Algorithm::oddeven: return "oddeven";
    case Algorithm::radix4: return "radix4";
    case Algorithm::onesweep: return "onesweep";
    }
    return "?";
}

std::optional<Algorithm> parseAlgorithm(std::string_view s) {
    if (s == "oddeven") return Algorithm::oddeven;
    if (s == "radix4") return Algorithm::radix4;
    if (s == "onesweep") return Algorithm::onesweep;
    return std::nullopt;
}

std::string variantName(Algorithm a, const SortConfig& c) {
    switch (a) {
    case Algorithm::oddeven: return c.perLayer ? "per-layer" : "fused";
    case Algorithm::onesweep: return c.forceFallback ? "forced-fallback" : "lookback";
    default: return "default";
    }
}

Result<std::unique_ptr<Sorter>> makeSorter(Context& ctx, Algorithm algorithm) {
    switch (algorithm) {
    case Algorithm::oddeven: return oddeven::makeOddEvenSorter(ctx);
    case Algorithm::radix4: return radix4::makeRadix4Sorter(ctx);
    case Algorithm::onesweep: return onesweep::makeOneSweepSorter(ctx);
    }
    return makeError(Errc::invalid_argument,
                     "unknown algorithm " + std::to_string(static_cast<int>(algorithm)));
}

std::string_view keyTypeName(KeyType t) {
    switch (t) {
    case KeyType::u32: return "u32";
    case KeyType::i32: return "i32";
    case KeyType::f32: return "f32";
    case KeyType::u64: return "u64";
    case KeyType::i64: return "i64";
    case KeyType::f64: return "f64";
    }
    return "?";
}
std::string_view valueTypeName(ValueType v) { return v == ValueType::u32 ? "u32" : "none"; }
std::string_view orderName(Order o) { return o == Order::descending ? "desc" : "asc"; }

std::optional<KeyType> parseKeyType(std::string_view s) {
    for (KeyType t : kAllKeyTypes)
        if (keyTypeName(t) == s) return t;
    return std::nullopt;
}
std::optional<ValueType> parseValueType(std::string_view s) {
    if (s == "none") return ValueType::none;
    if (s == "u32") return ValueType::u32;
    return std::nullopt;
}
std::optional<Order> parseOrder(std::string_view s) {
    if (s == "asc" || s == "ascending") return Order::ascending;
    if (s == "desc" || s == "descending") return Order::descending;
    return std::nullopt;
}

} // namespace sortlab
