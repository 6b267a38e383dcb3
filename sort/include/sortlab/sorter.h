// A sort is a plan of steps. plan() turns (n, config) into data: the list of steps, each one or
// a few dispatches with a label. record() puts a range of those steps into the caller's command
// buffer. The fast path records every step at once; the step path (SortJob) records one step,
// reads the buffers back, and shows them. Both run the same shaders through the same plan.
//
// Recording contract (for programs that bring their own buffers and command buffers):
//  * buffers are passed by device address (VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, memory
//    allocated with VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT); keys hold n keys of the configured
//    type (4 or 8 bytes each), values hold n u32 values when the config has values;
//    keysTemp/valuesTemp (same sizes) and scratch (plan.scratchBytes) when the plan asks for them;
//  * the caller makes the keys and values visible to compute-shader reads and writes before the
//    first recorded step, and waits for compute-shader writes after the last one;
//  * between steps, record() inserts compute-to-compute memory barriers itself;
//  * plan.steps[i].resultInTemp says where the keys are after step i (the sorted result is in
//    keys, not keysTemp, when plan.resultInTemp is false); where the GPU decides it (a radix
//    pass that is skipped does not move the keys), steps[i].locationWord names the scratch word
//    that says it (0: keys, 1: keysTemp);
//  * timestamps (optional): query slot firstQuery + i is written after step first + i - 1, slot
//    firstQuery before the first step; so a range of s steps needs s + 1 slots.
#pragma once

#include <sortlab/buffer.h>
#include <sortlab/keys.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sortlab {

enum class Algorithm : uint8_t { oddeven, radix4, onesweep };
std::string_view algorithmName(Algorithm a);
std::optional<Algorithm> parseAlgorithm(std::string_view s);

struct SortConfig {
    KeyType key = KeyType::u32;
    ValueType values = ValueType::none;
    Order order = Order::ascending;
    // oddeven: one dispatch per network layer (the seed's form, and what step-through shows).
    // Off: layers whose comparators stay inside a shared-memory tile are fused (same result).
    bool perLayer = false;
    // onesweep: every tile but the first counts its immediate predecessor's digits from that
    // tile's keys (the fallback path) instead of reading its status, then walks on normally
    // (same result; the tests run both paths).
    bool forceFallback = false;
    // Odd-even tile size in keys: a power of two up to one subgroup window (subgroup size x 32).
    // 0: a whole window. Tests set small values so that small n reach every step kind.
    uint32_t sharedElems = 0;
    // onesweep: tiles per portion of a pass (each portion is one chained scan). 0: as many as the
    // 29-bit counts of the tile status words allow (2^29 - 1 keys). Tests set small values so
    // that small n run in several portions.
    uint32_t portionTiles = 0;
    // onesweep: at most this many workgroups per pass dispatch, where the pass kernel is
    // persistent (each workgroup takes tiles in turn), but at least enough that none takes more
    // than tuning::OneSweepTuning::maxTilesPerWorkgroup (...Cpu on a CPU device). 0: the tuned number
    // (tuning::OneSweepTuning::persistentWorkgroups). Tests set small values so that small n make
    // workgroups take several tiles.
    uint32_t passWorkgroups = 0;
};

std::string variantName(Algorithm a, const SortConfig& c);

// One step of a plan. Which fields mean something depends on the algorithm.
struct Step {
    std::string label; // "merge 8, stride 2", "pass 2: bits 8..15, scatter"
    std::string kind;  // "layer", "tile", "window", "count", "scan", "scatter", ...
    bool resultInTemp = false;
    // Odd-even network: the layers this step runs, in network order (layer index l counts from
    // 0 over all (p, k) of the network), and the merge/stride range.
    uint32_t firstLayer = 0, layerCount = 0;
    uint32_t logP = 0, logKHi = 0, logKLo = 0; // merges of 2^logP (tile: all merges p < 2^logP)
    // Window geometry (kind == "window"), chosen by the planner.
    uint32_t logR = 0, centreRows = 0, halo = 0;
    uint64_t windows = 0; // windows (one subgroup each) the step runs
    // Radix sorts: which pass and digit bits [bitLo, bitHi).
    uint32_t pass = 0, bitLo = 0, bitHi = 0;
    // Radix sorts: workgroups, or tiles (OneSweep pass: a persistent pass kernel runs fewer
    // workgroups, each taking tiles in turn; see dispatchedWorkgroups).
    uint64_t workgroups = 0;
    // OneSweep pass: the workgroups each of its dispatches starts, at most (0: one per tile).
    uint64_t dispatchedWorkgroups = 0;
    // OneSweep pass: the chained scans it runs one after another (portions of at most 2^29 - 1
    // keys). The first tile of each is inclusive at once and never falls back, so under forced
    // fallback workgroups - portions tiles fall back.
    uint64_t portions = 0;
    // >= 0: after this step the keys are where scratch word locationWord says (0: keys,
    // 1: keysTemp), and resultInTemp means nothing. -1: resultInTemp says it.
    int32_t locationWord = -1;
};

// Part of the scratch buffer a snapshot shows after a step: `shape` (row-major) entries at word
// `wordOffset`, rows `rowStride` words apart (0: packed). Entries are 32-bit words, or 64-bit
// ones shown as their low 32 bits, or OneSweep's 32-bit tile status words shown as their flag
// (0 not ready, 1 aggregate, 2 inclusive prefix) or their count (shaders/constants.h).
struct SnapshotRegion {
    enum class Format : uint8_t { u32, u64, statusFlag, statusCount };
    std::string name;
    std::vector<uint32_t> shape;
    uint64_t wordOffset = 0;
    uint32_t rowStride = 0;
    Format format = Format::u32;
};

struct Plan {
    Algorithm algorithm = Algorithm::oddeven;
    SortConfig config;
    uint64_t n = 0;
    std::vector<Step> steps;
    bool needsTemp = false;    // keysTemp (and valuesTemp) must be provided
    uint64_t scratchBytes = 0; // auxiliary buffer the sort needs (0: none)
    bool resultInTemp = false;
    uint64_t bytesMovedFloor = 0; // bytes the plan must move through device memory at least
    uint32_t sharedElems = 0;     // odd-even: keys per tile of the tile step
    uint64_t tileKeys = 0;        // radix sorts: keys per workgroup tile (workgroup w has keys [w*t, (w+1)*t))
};

struct DeviceBuffers {
    VkDeviceAddress keys = 0, values = 0, keysTemp = 0, valuesTemp = 0, scratch = 0;
};

class Sorter {
public:
    virtual ~Sorter() = default;
    virtual Algorithm algorithm() const = 0;
    // Plans a sort of n keys; prepares the pipelines it needs. Errors: unsupported config, n too
    // large for the device.
    virtual Result<Plan> plan(uint64_t n, const SortConfig& config) = 0;
    // Records steps [first, last) of `plan` (last clamped to the plan's size).
    virtual void record(VkCommandBuffer cmd, const Plan& plan, const DeviceBuffers& buffers, size_t first = 0,
                        size_t last = SIZE_MAX, VkQueryPool timestamps = VK_NULL_HANDLE,
                        uint32_t firstQuery = 0) const = 0;
    // The auxiliary state a snapshot after steps [0, stepsDone) shows (counts, histograms,
    // offsets, tile status), as regions of the scratch buffer. Empty by default.
    virtual std::vector<SnapshotRegion> snapshotRegions(const Plan& plan, size_t stepsDone) const {
        (void)plan;
        (void)stepsDone;
        return {};
    }
};

Result<std::unique_ptr<Sorter>> makeSorter(Context& ctx, Algorithm algorithm);

} // namespace sortlab
