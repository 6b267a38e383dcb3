// Batcher's odd-even merge sort as an iterative network (docs/oddeven.md): layers in the order
// merge p = 1, 2, 4, ... and, within a merge, stride k = p, p/2, ..., 1. Any n: the network is
// the one for the next power of two, with every index >= n acting as +infinity, so comparators
// that touch such an index do nothing and no padding is stored.
//
// This header holds the network itself (for the planner, the CPU reference model, the tests and
// the app's comparator diagram) and the planner that groups layers into GPU steps.
#pragma once

#include <sortlab/keys.h>
#include <sortlab/steps.h>

#include <cstdint>
#include <span>
#include <vector>

namespace sortlab::oddeven {

struct Layer {
    uint32_t logP = 0; // merges two sorted runs of p = 2^logP into runs of 2p
    uint32_t logK = 0; // compare-exchange stride k = 2^logK, k <= p
};

// ceil(log2(n)) for n >= 1; 0 for n <= 1.
uint32_t log2Ceil(uint64_t n);
// Every layer of the network for n keys, in order (empty for n < 2).
std::vector<Layer> layers(uint64_t n);

// Calls f(a, b) for every comparator (a < b < n) of one layer, in increasing a.
template <class F> void forEachComparator(uint64_t n, Layer layer, F&& f) {
    const uint64_t k = uint64_t(1) << layer.logK;
    const uint64_t block = uint64_t(2) << layer.logP; // 2p
    for (uint64_t a = (layer.logK < layer.logP) ? k : 0; a + k < n; ++a) {
        bool left = ((a >> layer.logK) & 1) == (layer.logK < layer.logP ? 1u : 0u);
        if (!left) {
            a += k - 1; // skip to the next run of candidate left ends
            continue;
        }
        if (a / block != (a + k) / block) continue;
        f(a, a + k);
    }
}

// How many comparators of one layer touch only indices < n (what forEachComparator visits), in
// O(1): the count the app shows per layer and the bench's comparisons per key.
uint64_t comparatorsInLayer(uint64_t n, Layer layer);

// The CPU reference model: applies layers [first, last) of the network to host keys (raw bytes,
// keyBytes(type) each) and optional values, exactly as the GPU does (swap when the left key
// comes strictly after the right one in the configured order). Returns the number of swaps.
uint64_t applyLayers(std::span<std::byte> keys, std::span<uint32_t> values, KeyType type, Order order, uint64_t n,
                     size_t first, size_t last);

// The rest of the planner's numbers (workgroup sizes, keys per lane, the cost model) come from
// tuning::oddEven(keyBytes, values).
struct PlanParams {
    uint32_t tileKeys = 1024;   // power of two <= windowKeys: the tile step sorts aligned tiles of this many keys
    uint32_t subgroupSize = 32; // a window is one subgroup holding keysPerLane keys per lane...
    uint32_t windowKeys = 1024; // ...so subgroupSize * keysPerLane keys (rows x columns)
    uint32_t logMaxColumns = 5; // widest run of adjacent columns a window holds (2^5 = 32)
    uint32_t keyBytes = 4;      // for the cost of partly used memory sectors, and the tuning row
    bool values = false;        // the tuning row
    bool perLayer = false;
};

// The planner: the steps for n keys. perLayer gives one step per layer; otherwise a tile step
// for every merge that fits in a tile, then, per larger merge, a choice between single global
// layers and fused windows (see docs/oddeven.md for the cost model).
std::vector<Step> planSteps(uint64_t n, const PlanParams& params);

} // namespace sortlab::oddeven
