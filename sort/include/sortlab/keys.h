// Key and value types, sort order, and the order-preserving map from typed keys to unsigned
// "order bits" that every sort compares (on the GPU and in the CPU references alike).
//
// The order is IEEE 754 totalOrder for floats: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN.
// So -0.0 sorts before +0.0, NaNs with the sign bit clear (the usual quiet NaN) land after +inf,
// NaNs with the sign bit set land before -inf. Descending is the exact reverse of that order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

namespace sortlab {

enum class KeyType : uint8_t { u32, i32, f32, u64, i64, f64 };
enum class ValueType : uint8_t { none, u32 };
enum class Order : uint8_t { ascending, descending };

// How the raw bits of a key are turned into order bits (host and shader share these numbers).
enum class KeyKind : uint32_t { unsigned_int = 0, signed_int = 1, floating = 2 };

inline constexpr KeyType kAllKeyTypes[] = {KeyType::u32, KeyType::i32, KeyType::f32,
                                           KeyType::u64, KeyType::i64, KeyType::f64};

constexpr uint32_t keyBytes(KeyType t) {
    return (t == KeyType::u32 || t == KeyType::i32 || t == KeyType::f32) ? 4u : 8u;
}
constexpr uint32_t keyBits(KeyType t) {
    return keyBytes(t) * 8u;
}
constexpr uint32_t valueBytes(ValueType v) {
    return v == ValueType::u32 ? 4u : 0u;
}
constexpr KeyKind keyKind(KeyType t) {
    switch (t) {
    case KeyType::i32:
    case KeyType::i64:
        return KeyKind::signed_int;
    case KeyType::f32:
    case KeyType::f64:
        return KeyKind::floating;
    default:
        return KeyKind::unsigned_int;
    }
}

std::string_view keyTypeName(KeyType t);
std::string_view valueTypeName(ValueType v);
std::string_view orderName(Order o);
std::optional<KeyType> parseKeyType(std::string_view s);
std::optional<ValueType> parseValueType(std::string_view s);
std::optional<Order> parseOrder(std::string_view s);

// Order bits of a 32-bit key: comparing these as unsigned integers gives the sort order.
constexpr uint32_t orderBits32(uint32_t raw, KeyKind kind, Order order) {
    uint32_t x = raw;
    if (kind == KeyKind::signed_int)
        x ^= 0x80000000u;
    else if (kind == KeyKind::floating)
        x ^= (x >> 31) ? 0xffffffffu : 0x80000000u;
    return order == Order::descending ? ~x : x;
}
constexpr uint64_t orderBits64(uint64_t raw, KeyKind kind, Order order) {
    uint64_t x = raw;
    if (kind == KeyKind::signed_int)
        x ^= 0x8000000000000000ull;
    else if (kind == KeyKind::floating)
        x ^= (x >> 63) ? ~0ull : 0x8000000000000000ull;
    return order == Order::descending ? ~x : x;
}

// Order bits of a 32- or 64-bit key word: orderBits32 or orderBits64 by its width.
template <class Word> constexpr Word orderBitsOf(Word raw, KeyKind kind, Order order) {
    static_assert(sizeof(Word) == 4 || sizeof(Word) == 8, "keys are 32 or 64 bits");
    if constexpr (sizeof(Word) == 4)
        return orderBits32(raw, kind, order);
    else
        return orderBits64(raw, kind, order);
}

// Order bits of key i of a raw key array (4 or 8 bytes per key), widened to 64 bits.
inline uint64_t orderBitsAt(const void* keys, size_t i, KeyType t, Order order) {
    if (keyBytes(t) == 4) {
        uint32_t raw;
        std::memcpy(&raw, static_cast<const char*>(keys) + i * 4, 4);
        return orderBits32(raw, keyKind(t), order);
    }
    uint64_t raw;
    std::memcpy(&raw, static_cast<const char*>(keys) + i * 8, 8);
    return orderBits64(raw, keyKind(t), order);
}

} // namespace sortlab
