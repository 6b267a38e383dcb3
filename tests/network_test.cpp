// oddeven.h, the network: layers(), forEachComparator() against an independent model of
// Batcher's odd-even merge sort built from its recursive definition, the 0-1 principle, and the
// CPU reference model applyLayers() against std::stable_sort.
#include <sortlab/data.h>
#include <sortlab/oddeven.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace sortlab {
namespace {

using Pair = std::pair<uint64_t, uint64_t>;

// ---- The independent model ----------------------------------------------------------------------
//
// Batcher's network for N = 2^m keys, from the recursive definition:
//
//   sort(lo, n):       if n > 1: m = n/2; sort(lo, m); sort(lo+m, m); merge(lo, n, 1)
//   merge(lo, n, r):   step = 2r
//                      if step < n: merge(lo, n, step); merge(lo+r, n, step)
//                                   compare (i, i+r) for i = lo+r; i+r < lo+n; i += step
//                      else:        compare (lo, lo+r)
//
// Which layer (p, k) of the iterative network a comparator belongs to:
//  * merge(lo, n, 1) called from sort(lo, n) merges two sorted runs of n/2, so p = n/2. The
//    recursive merges it makes keep the same n (only lo and r change), so every comparator made
//    anywhere below merge(lo, n, 1) belongs to merge p = n/2.
//  * Within that merge, a call with stride r emits comparators (i, i+r): their stride is r, so
//    k = r. The base case fires when 2r >= n, i.e. r = n/2 = p (r doubles from 1 and n is a power
//    of two): compare (lo, lo+p) is the first layer of the merge, k = p. The recursion runs the
//    wider strides first (r = p, then p/2, ..., and the caller's stride r = 1 last), which matches
//    the network order k = p, p/2, ..., 1.
//  * Layer index: the merges before p = 2^logP have 1 + 2 + ... + logP layers (merge 2^q has q+1
//    strides), i.e. logP(logP+1)/2; within merge p the stride k = 2^logK comes after the strides
//    p, ..., 2k, so its index is logP(logP+1)/2 + (logP - logK).
//  Comparators within one layer touch disjoint keys, so their order inside a layer is free; the
//  model's layers are compared as sets.
// The network for n keys is the one for the next power of two with the comparators that touch an
// index >= n dropped (those indices hold +infinity, so such comparators never swap).

uint32_t log2Exact(uint64_t x) {
    uint32_t l = 0;
    while ((uint64_t(1) << l) < x) ++l;
    return l;
}

struct Model {
    uint64_t n = 0;
    std::map<size_t, std::vector<Pair>> layers; // layer index -> comparators
    void compare(uint64_t a, uint64_t b, uint64_t mergeN, uint64_t r) {
        if (b >= n) return;
        const uint32_t logP = log2Exact(mergeN) - 1, logK = log2Exact(r);
        layers[logP * (logP + 1) / 2 + (logP - logK)].push_back({a, b});
    }
    void merge(uint64_t lo, uint64_t len, uint64_t r) {
        const uint64_t step = 2 * r;
        if (step < len) {
            merge(lo, len, step);
            merge(lo + r, len, step);
            for (uint64_t i = lo + r; i + r < lo + len; i += step) compare(i, i + r, len, r);
        } else {
            compare(lo, lo + r, len, r);
        }
    }
    void sort(uint64_t lo, uint64_t len) {
        if (len > 1) {
            const uint64_t m = len / 2;
            sort(lo, m);
            sort(lo + m, m);
            merge(lo, len, 1);
        }
    }
};

Model batcher(uint64_t n) {
    Model m;
    m.n = n;
    uint64_t padded = 1;
    while (padded < n) padded *= 2;
    m.sort(0, padded);
    for (auto& [l, cs] : m.layers) std::sort(cs.begin(), cs.end());
    return m;
}

std::vector<Pair> comparators(uint64_t n, oddeven::Layer layer) {
    std::vector<Pair> out;
    oddeven::forEachComparator(n, layer, [&](uint64_t a, uint64_t b) { out.push_back({a, b}); });
    return out;
}

std::vector<uint64_t> networkTestSizes() {
    std::vector<uint64_t> s;
    for (uint64_t n = 1; n <= 70; ++n) s.push_back(n);
    for (uint64_t n : {96,  100,  127,  128,  129,  255,  256,  257,  333,  511,  512,
                       513, 1000, 1023, 1024, 1025, 2047, 2049, 4095, 4096, 4097, 5000})
        s.push_back(n);
    return s;
}

// ---- layers() -----------------------------------------------------------------------------------

TEST(Network, Log2Ceil) {
    EXPECT_EQ(oddeven::log2Ceil(0), 0u);
    EXPECT_EQ(oddeven::log2Ceil(1), 0u);
    EXPECT_EQ(oddeven::log2Ceil(2), 1u);
    EXPECT_EQ(oddeven::log2Ceil(3), 2u);
    EXPECT_EQ(oddeven::log2Ceil(4), 2u);
    EXPECT_EQ(oddeven::log2Ceil(5), 3u);
    for (uint32_t k = 1; k < 63; ++k) {
        EXPECT_EQ(oddeven::log2Ceil(uint64_t(1) << k), k);
        EXPECT_EQ(oddeven::log2Ceil((uint64_t(1) << k) + 1), k + 1);
        EXPECT_EQ(oddeven::log2Ceil((uint64_t(1) << k) - 1), k == 1 ? 0u : k);
    }
}

// comparatorsInLayer (the count the explanation panel shows) is the number forEachComparator visits.
TEST(Network, ComparatorsInLayerCountsWhatForEachComparatorVisits) {
    for (uint64_t n = 0; n <= 300; ++n)
        for (const auto& layer : oddeven::layers(n)) {
            uint64_t visited = 0;
            oddeven::forEachComparator(n, layer, [&](uint64_t, uint64_t) { ++visited; });
            ASSERT_EQ(oddeven::comparatorsInLayer(n, layer), visited)
                << "n " << n << ", p 2^" << layer.logP << ", k 2^" << layer.logK;
        }
}

TEST(Network, WholeNetworkOfAPowerOfTwoHasBatchersCount) {
    // Batcher: (k^2 - k + 4) 2^(k-2) - 1 comparators for n = 2^k.
    const uint32_t k = 16;
    uint64_t total = 0;
    for (const auto& layer : oddeven::layers(uint64_t(1) << k))
        total += oddeven::comparatorsInLayer(uint64_t(1) << k, layer);
    EXPECT_EQ(total, (uint64_t(k) * k - k + 4) * (uint64_t(1) << (k - 2)) - 1);
}

TEST(Network, LayersAreMergesThenStridesInOrder) {
    for (uint64_t n : {0ull, 1ull, 2ull, 3ull, 4ull, 5ull, 8ull, 9ull, 1000ull, 1024ull, 1025ull, 1ull << 20,
                       (1ull << 20) + 1, 1ull << 30, 1ull << 40}) {
        SCOPED_TRACE("n = " + std::to_string(n));
        uint32_t L = 0;
        while ((uint64_t(1) << L) < n) ++L;
        const auto ls = oddeven::layers(n);
        ASSERT_EQ(ls.size(), size_t(L) * (L + 1) / 2);
        size_t i = 0;
        for (uint32_t logP = 0; logP < L; ++logP)
            for (int logK = static_cast<int>(logP); logK >= 0; --logK, ++i) {
                EXPECT_EQ(ls[i].logP, logP) << "layer " << i;
                EXPECT_EQ(ls[i].logK, static_cast<uint32_t>(logK)) << "layer " << i;
            }
    }
}

// ---- forEachComparator() against the model ------------------------------------------------------

TEST(Network, ComparatorsMatchBatchersRecursiveNetwork) {
    for (uint64_t n : networkTestSizes()) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const Model model = batcher(n);
        const auto ls = oddeven::layers(n);
        size_t total = 0;
        for (size_t l = 0; l < ls.size(); ++l) {
            const auto got = comparators(n, ls[l]);
            auto it = model.layers.find(l);
            const std::vector<Pair> none;
            const auto& want = it == model.layers.end() ? none : it->second;
            ASSERT_EQ(got, want) << "layer " << l << " (merge 2^" << ls[l].logP + 1 << ", stride 2^" << ls[l].logK
                                 << ")";
            total += got.size();
        }
        // No comparator of the model fell outside the layers.
        size_t modelTotal = 0;
        for (auto& [l, cs] : model.layers) {
            EXPECT_LT(l, ls.size());
            modelTotal += cs.size();
        }
        EXPECT_EQ(total, modelTotal);
    }
}

TEST(Network, EachLayerIsAMatchingInIncreasingOrder) {
    for (uint64_t n : networkTestSizes()) {
        for (const auto& layer : oddeven::layers(n)) {
            std::set<uint64_t> touched;
            uint64_t last = 0;
            bool first = true;
            oddeven::forEachComparator(n, layer, [&](uint64_t a, uint64_t b) {
                EXPECT_LT(a, b);
                EXPECT_LT(b, n);
                EXPECT_EQ(b - a, uint64_t(1) << layer.logK) << "stride";
                EXPECT_EQ(a >> (layer.logP + 1), b >> (layer.logP + 1)) << "inside one block of 2p";
                if (!first) {
                    EXPECT_GT(a, last) << "increasing a";
                }
                first = false;
                last = a;
                EXPECT_TRUE(touched.insert(a).second) << "index " << a << " used twice in one layer, n = " << n;
                EXPECT_TRUE(touched.insert(b).second) << "index " << b << " used twice in one layer, n = " << n;
            });
        }
    }
}

// ---- The 0-1 principle ----------------------------------------------------------------------------

TEST(Network, SortsEveryZeroOneInputUpTo16) {
    for (uint64_t n = 1; n <= 16; ++n) {
        const size_t L = oddeven::layers(n).size();
        std::vector<std::byte> keys(n * 4);
        for (uint32_t mask = 0; mask < (1u << n); ++mask) {
            const int ones = __builtin_popcount(mask);
            for (Order o : {Order::ascending, Order::descending}) {
                for (uint64_t i = 0; i < n; ++i) {
                    const uint32_t bit = (mask >> i) & 1;
                    std::memcpy(keys.data() + i * 4, &bit, 4);
                }
                oddeven::applyLayers(keys, {}, KeyType::u32, o, n, 0, L);
                for (uint64_t i = 0; i < n; ++i) {
                    uint32_t v;
                    std::memcpy(&v, keys.data() + i * 4, 4);
                    // Ascending: n - ones zeros then ones; descending: the reverse.
                    const uint32_t want =
                        o == Order::ascending ? (i >= n - ones ? 1u : 0u) : (i < uint64_t(ones) ? 1u : 0u);
                    ASSERT_EQ(v, want) << "n = " << n << ", input mask " << mask << ", " << orderName(o)
                                       << ", position " << i;
                }
            }
        }
    }
}

TEST(Network, FewerLayersDoNotSortEveryInput) {
    // The network is not longer than needed for these n: dropping the last layer leaves some
    // 0-1 input unsorted (so the 0-1 test above would notice a missing layer).
    for (uint64_t n : {2ull, 3ull, 4ull, 5ull, 8ull, 13ull, 16ull}) {
        const size_t L = oddeven::layers(n).size();
        bool someUnsorted = false;
        std::vector<std::byte> keys(n * 4);
        for (uint32_t mask = 0; mask < (1u << n) && !someUnsorted; ++mask) {
            for (uint64_t i = 0; i < n; ++i) {
                const uint32_t bit = (mask >> i) & 1;
                std::memcpy(keys.data() + i * 4, &bit, 4);
            }
            oddeven::applyLayers(keys, {}, KeyType::u32, Order::ascending, n, 0, L - 1);
            for (uint64_t i = 1; i < n; ++i)
                if (orderBitsAt(keys.data(), i - 1, KeyType::u32, Order::ascending) >
                    orderBitsAt(keys.data(), i, KeyType::u32, Order::ascending))
                    someUnsorted = true;
        }
        EXPECT_TRUE(someUnsorted) << "n = " << n;
    }
}

// ---- applyLayers() --------------------------------------------------------------------------------

struct ApplyCase {
    KeyType type;
    Order order;
};

class ApplyLayers : public ::testing::TestWithParam<ApplyCase> {};

TEST_P(ApplyLayers, SortsLikeStableSortForRandomInputs) {
    const auto [type, order] = GetParam();
    std::mt19937_64 rng(17);
    std::vector<uint64_t> sizes = {0, 1, 2, 3, 4, 5, 7, 8, 9, 31, 33, 64, 100, 127, 129, 1000, 1025, 4099};
    for (int i = 0; i < 20; ++i) sizes.push_back(1 + rng() % 3000);
    for (uint64_t n : sizes)
        for (Distribution d : kAllDistributions) {
            SCOPED_TRACE("n = " + std::to_string(n) + ", " + std::string(distributionName(d)));
            auto keys = generateKeys(type, n, d, n * 31 + static_cast<int>(d));
            auto values = indexValues(n);
            auto ek = keys;
            auto ev = values;
            referenceSort(ek, ev, type, order);
            oddeven::applyLayers(keys, values, type, order, n, 0, oddeven::layers(n).size());
            const CheckResult r = compareSorted(ek, ev, keys, values, type, order, false);
            ASSERT_TRUE(r.ok) << r.message;
        }
}

TEST_P(ApplyLayers, LayerRangesComposeAndCountSwaps) {
    const auto [type, order] = GetParam();
    const uint64_t n = 777;
    const size_t L = oddeven::layers(n).size();
    auto keys = generateKeys(type, n, Distribution::uniform, 5);
    auto values = indexValues(n);
    auto whole = keys;
    auto wholeValues = values;
    const uint64_t swapsWhole = oddeven::applyLayers(whole, wholeValues, type, order, n, 0, L);
    EXPECT_GT(swapsWhole, 0u);
    uint64_t swapsParts = 0;
    for (size_t first = 0; first < L; first += 7)
        swapsParts += oddeven::applyLayers(keys, values, type, order, n, first, std::min(first + 7, L));
    EXPECT_EQ(keys, whole);
    EXPECT_EQ(values, wholeValues);
    EXPECT_EQ(swapsParts, swapsWhole);
    // Past the end: clamped, nothing happens.
    EXPECT_EQ(oddeven::applyLayers(keys, values, type, order, n, L, L + 10), 0u);
    EXPECT_EQ(keys, whole);
    // Sorted input and equal keys: the strict comparison never swaps.
    EXPECT_EQ(oddeven::applyLayers(keys, values, type, order, n, 0, L), 0u);
    auto equal = generateKeys(type, n, Distribution::equal, 5);
    auto ev = indexValues(n);
    EXPECT_EQ(oddeven::applyLayers(equal, ev, type, order, n, 0, L), 0u);
    EXPECT_EQ(ev, indexValues(n)) << "equal keys keep their values in place";
}

std::vector<ApplyCase> applyCases() {
    std::vector<ApplyCase> out;
    for (KeyType t : kAllKeyTypes)
        for (Order o : {Order::ascending, Order::descending}) out.push_back({t, o});
    return out;
}

INSTANTIATE_TEST_SUITE_P(AllKeyTypes, ApplyLayers, ::testing::ValuesIn(applyCases()), [](const auto& info) {
    return std::string(keyTypeName(info.param.type)) + "_" + std::string(orderName(info.param.order));
});

} // namespace
} // namespace sortlab
