#include <sortlab/app/density.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sortlab::app {

namespace {

bool floating(KeyType t) {
    return t == KeyType::f32 || t == KeyType::f64;
}

double floatAt(const std::byte* keys, uint64_t i, KeyType t) {
    if (t == KeyType::f32) {
        float f;
        std::memcpy(&f, keys + i * 4, 4);
        return f;
    }
    double d;
    std::memcpy(&d, keys + i * 8, 8);
    return d;
}

} // namespace

float KeyScale::height(const std::byte* keys, uint64_t i) const {
    if (floating(type)) {
        const double v = floatAt(keys, i, type);
        if (std::isnan(v)) return std::signbit(v) ? 0.0f : 1.0f;
        if (v <= flo) return fhi > flo || v < flo ? 0.0f : 0.5f;
        if (v >= fhi) return fhi > flo || v > fhi ? 1.0f : 0.5f;
        return float((v - flo) / (fhi - flo));
    }
    if (hi <= lo) return 0.5f;
    const uint64_t b = orderBitsAt(keys, i, type, Order::ascending);
    return float(double(b - lo) / double(hi - lo));
}

KeyScale keyScale(const std::byte* keys, uint64_t n, KeyType type) {
    KeyScale s;
    s.type = type;
    if (floating(type)) {
        double lo = INFINITY, hi = -INFINITY;
        for (uint64_t i = 0; i < n; ++i) {
            const double v = floatAt(keys, i, type);
            if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
        }
        s.flo = lo <= hi ? lo : 0;
        s.fhi = lo <= hi ? hi : 0;
        return s;
    }
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t b = orderBitsAt(keys, i, type, Order::ascending);
        lo = std::min(lo, b), hi = std::max(hi, b);
    }
    s.lo = n ? lo : 0;
    s.hi = n ? hi : 0;
    return s;
}

namespace {

// Every sampled key of each bucket into its value row: integers by a multiply of their order bits
// (the hot loop at 2^20 keys a step), floats through KeyScale::height.
template <class Row> void fill(Density& d, uint64_t first, uint64_t stride, Row row) {
    for (uint32_t b = 0; b < d.buckets && d.count; ++b) {
        const uint64_t lo = d.bucketFirst(b), hi = d.bucketFirst(b + 1);
        uint32_t* rows = &d.counts[size_t(b) * Density::kRows];
        double sum = 0;
        uint64_t seen = 0;
        // Sampling keeps to multiples of the stride from `first`, so that buckets share one grid.
        for (uint64_t i = lo + (stride - (lo - first) % stride) % stride; i < hi; i += stride) {
            const double x = row(i); // the height in rows, a fraction of one included
            ++rows[std::min<uint32_t>(Density::kRows - 1, uint32_t(x))];
            sum += x;
            ++seen;
        }
        d.mean[b] = seen ? float(std::clamp(sum / double(seen) / Density::kRows, 0.0, 1.0)) : 0.0f;
    }
}

} // namespace

Density densityOf(const std::byte* keys, const KeyScale& scale, uint64_t first, uint64_t count, uint32_t buckets,
                  uint64_t stride) {
    Density d;
    d.first = first;
    d.count = count;
    d.buckets = uint32_t(std::min<uint64_t>(std::max<uint32_t>(buckets, 1), std::max<uint64_t>(count, 1)));
    d.counts.assign(size_t(d.buckets) * Density::kRows, 0);
    d.mean.assign(d.buckets, 0.0f);
    stride = std::max<uint64_t>(stride, 1);
    if (floating(scale.type)) {
        fill(d, first, stride, [&](uint64_t i) { return double(scale.height(keys, i)) * Density::kRows; });
    } else if (scale.hi <= scale.lo) {
        fill(d, first, stride, [](uint64_t) { return 0.5 * Density::kRows; });
    } else {
        const double perRow = double(Density::kRows) / double(scale.hi - scale.lo);
        const KeyType t = scale.type;
        const uint64_t lo = scale.lo;
        fill(d, first, stride,
             [&](uint64_t i) { return double(orderBitsAt(keys, i, t, Order::ascending) - lo) * perRow; });
    }
    return d;
}

uint32_t stripColumns(float width) {
    return width >= 1 ? uint32_t(width) : 1u;
}

std::pair<uint32_t, uint32_t> columnBuckets(uint32_t buckets, uint32_t columns, uint32_t c) {
    columns = std::max(columns, 1u);
    const uint32_t lo = uint32_t(uint64_t(c) * buckets / columns);
    const uint32_t hi = uint32_t(uint64_t(c + 1) * buckets / columns);
    return {lo, std::max(hi, std::min(lo + 1, buckets))};
}

uint64_t keysPerColumn(uint64_t count, uint32_t columns) {
    columns = std::max(columns, 1u);
    return (count + columns / 2) / columns;
}

ColumnDensity mergeColumns(const Density& d, uint32_t columns) {
    ColumnDensity m;
    m.columns = std::max(columns, 1u);
    m.counts.assign(size_t(m.columns) * Density::kRows, 0);
    m.keys.assign(m.columns, 0);
    if (!d.buckets) return m;
    for (uint32_t c = 0; c < m.columns; ++c) {
        const auto [b0, b1] = columnBuckets(d.buckets, m.columns, c);
        uint32_t* out = &m.counts[size_t(c) * Density::kRows];
        for (uint32_t b = b0; b < b1; ++b) {
            const uint32_t* in = &d.counts[size_t(b) * Density::kRows];
            for (uint32_t r = 0; r < Density::kRows; ++r) out[r] += in[r];
        }
        for (uint32_t r = 0; r < Density::kRows; ++r) m.maxCount = std::max(m.maxCount, out[r]);
        m.keys[c] = d.bucketFirst(b1) - d.bucketFirst(b0);
    }
    return m;
}

uint32_t shadeLevel(uint32_t count, uint32_t maxCount, uint32_t levels) {
    if (count == 0 || levels == 0) return 0;
    if (maxCount <= 1) return levels;
    const double t = std::log1p(double(count)) / std::log1p(double(maxCount));
    return std::clamp<uint32_t>(uint32_t(std::ceil(t * double(levels))), 1u, levels);
}

} // namespace sortlab::app
