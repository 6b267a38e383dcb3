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
//    that says it (0: keys, 1: keysTemp); with SortConfig::resultInEither the sorted result
//    itself may be in keysTemp: the last step's locationWord says;
//  * timestamps (optional): query slot firstQuery + i is written after step first + i - 1, slot
//    firstQuery before the first step; so a range of s steps needs s + 1 slots.
#pragma once

#include <sortlab/buffer.h>
#include <sortlab/keys.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sortlab {

enum class Algorithm : uint8_t { oddeven, radix4, onesweep };
std::string_view algorithmName(Algorithm a);

// What a step does. Code branches on the kind; Step::label is the text for people.
enum class StepKind : uint8_t {
    layer,     // odd-even: one layer of the network, one dispatch
    tile,      // odd-even (fused): every layer whose comparators stay inside one shared-memory tile
    window,    // odd-even (fused): layers of one merge in subgroup windows
    count,     // radix4: each workgroup counts its tile's keys per digit
    scan,      // radix4: histogram and offsets of a pass; OneSweep: the offsets of every pass
    scatter,   // radix4: every key to its digit's next slot (stable)
    result,    // radix4: the result into the keys buffer, where the passes left it in the temporary
    histogram, // OneSweep: every pass's digit histogram in one read of the keys
    pass,      // OneSweep: one digit pass (the chained scan and the scatter)
};
inline constexpr StepKind kAllStepKinds[] = {StepKind::layer,  StepKind::tile,      StepKind::window,
                                             StepKind::count,  StepKind::scan,      StepKind::scatter,
                                             StepKind::result, StepKind::histogram, StepKind::pass};
std::string_view stepKindName(StepKind k); // "layer", "tile", ... (the "kind" of --trace lines)
// The steps that move keys to new places by digit (radix4's scatters, OneSweep's passes).
constexpr bool isDigitPass(StepKind k) {
    return k == StepKind::scatter || k == StepKind::pass;
}

// What a snapshot shows beside the keys after a radix step (the sorters' snapshotRegions).
enum class AuxKind : uint8_t {
    passInfo,         // radix sorts {4}: pass, bit lo, bit hi, skipped (0/1: every key had the same digit)
    digitCounts,      // radix4 {16, workgroups}: keys of each workgroup's tile with each digit
    histogram,        // {radix}: keys with each digit in this pass
    offsets,          // {radix}: where each digit's keys start (exclusive scan of the histogram)
    workgroupOffsets, // radix4 {16, workgroups}: where each workgroup's keys of each digit start
    allHistograms,    // OneSweep {passes, 256}: every pass's histogram (one read of the keys)
    allOffsets,       // OneSweep {passes, 256}: every pass's offsets
    tileStatus,       // OneSweep {tiles, 256}: each tile's status flag (0 not ready, 1 aggregate, 2 inclusive)
    tileCounts,       // OneSweep {tiles, 256}: the count in each tile's status word
    fallbacks,        // OneSweep {1}: tiles of the pass that counted a predecessor's keys themselves
    lookbackLog,      // OneSweep with logLookback {tiles, record}: each tile's (sortlab/lookback.h reads them)
    uniformTiles,     // OneSweep {1}: tiles of the pass whose keys all had one digit (written out unranked)
};
inline constexpr AuxKind kAllAuxKinds[] = {
    AuxKind::passInfo,      AuxKind::digitCounts, AuxKind::histogram,  AuxKind::offsets,    AuxKind::workgroupOffsets,
    AuxKind::allHistograms, AuxKind::allOffsets,  AuxKind::tileStatus, AuxKind::tileCounts, AuxKind::fallbacks,
    AuxKind::lookbackLog,   AuxKind::uniformTiles};
// "pass", "digit counts", "histogram", ...: the names of --trace and --dump-state's "aux".
std::string_view auxKindName(AuxKind k);

struct SortConfig {
    KeyType key = KeyType::u32;
    ValueType values = ValueType::none;
    Order order = Order::ascending;
    // oddeven: one dispatch per network layer (Batcher's iterative form, and what step-through shows).
    // Off: layers whose comparators stay inside a shared-memory tile are fused (same result).
    bool perLayer = false;
    // onesweep: every tile but the first counts its immediate predecessor's digits from that
    // tile's keys (the fallback path) instead of reading its status, then walks on normally
    // (same result; the tests run both paths).
    bool forceFallback = false;
    // Odd-even tile size in keys: a power of two up to one subgroup window (subgroup size x 32).
    // 0: a whole window. Small tiles make small n reach every step kind (--shared-elems).
    uint32_t sharedElems = 0;
    // radix4: keys per workgroup tile, from 4 up to the tuned tile (0: the tuned tile). Small
    // teaching tiles make small n run several workgroups (16 keys in 4-key tiles: 4 workgroups),
    // so that their local counts and the global offsets show; same shaders, same result.
    uint32_t tileKeys = 0;
    // onesweep: the instrumented pass kernel (same kernel, a specialization constant) logs each
    // tile's lookback into scratch: AuxKind::lookbackLog after each pass (sortlab/lookback.h). It
    // costs time (on an H100, docs/onesweep.md), and takes at most 65536 tiles a pass.
    bool logLookback = false;
    // With logLookback: tiles log taking their ids in id order, each waiting for the one before, so
    // that a replay reads in order (the app, --lookback-log). That chain of waits changes the
    // schedule on a GPU; the statistics of --lookback-stats turn it off.
    bool logInIdOrder = true;
    // Radix sorts (radix4, onesweep): leave the sorted keys (and values) in whichever of keys and
    // keysTemp the last pass that ran wrote them to, as CUB's DoubleBuffer form does, instead of
    // copying them back into keys. The plan then has no result step, and its last step's
    // locationWord names the scratch word that says where they are (SortJob::download reads them
    // from there). Saves a read and a write of every key and value where an odd number of passes
    // ran, which skipped passes make common (keys whose low byte is zero: 3 passes of 4).
    bool resultInEither = false;
};

// The sorts by name: the one table behind the app's algorithm menu, the --algo of sortlab and
// sortlab-bench, and variantName(). A variant is an algorithm and the knobs of SortConfig its
// name sets; every name means the same plan everywhere.
enum class Variant : uint8_t { oddeven, oddevenLayer, radix4, onesweep, onesweepFallback };
struct VariantInfo {
    Variant variant;
    std::string_view name; // --algo name
    Algorithm algorithm;
    std::string_view plan;        // its configuration's variantName(): "fused", "per-layer", ...
    std::string_view label;       // menu text
    std::string_view description; // one line: what its steps are
    bool perLayer = false;        // SortConfig::perLayer
    bool forceFallback = false;   // SortConfig::forceFallback
    bool stable = false;          // equal keys keep their input order
    bool diagnostic = false;      // the same result as another variant, slower: for checks, not timing
};
std::span<const VariantInfo> variants(); // in menu order
const VariantInfo& variantInfo(Variant v);
// A variant by --algo name ("oddeven-fused" is accepted for "oddeven"); nullopt for an unknown name.
std::optional<Variant> parseVariant(std::string_view name);
// "oddeven, oddeven-layer, radix4, onesweep or onesweep-fallback": for messages.
std::string variantNamesText();
// config with the knobs of v set (perLayer, forceFallback), the rest kept.
SortConfig configure(Variant v, SortConfig config);
// The variant a configuration runs: the knobs decide (forceFallback on OneSweep, perLayer on odd-even).
Variant variantOf(Algorithm a, const SortConfig& c);
// The plan name of a configuration ("fused", "per-layer", "default", "lookback", "forced-fallback").
std::string variantName(Algorithm a, const SortConfig& c);

// One step of a plan. Which fields mean something depends on the algorithm.
struct Step {
    std::string label; // "merge 8, stride 2", "pass 2: bits 8..15, scatter"
    StepKind kind = StepKind::layer;
    bool resultInTemp = false;
    // Odd-even network: the layers this step runs, in network order (layer index l counts from
    // 0 over all (p, k) of the network), and the merge/stride range.
    uint32_t firstLayer = 0, layerCount = 0;
    uint32_t logP = 0, logKHi = 0, logKLo = 0; // merges of 2^logP (tile: all merges p < 2^logP)
    // Window geometry (StepKind::window), chosen by the planner.
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
    AuxKind kind = AuxKind::histogram;
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
    bool resultInTemp = false; // (SortConfig::resultInEither: the last step's locationWord says)
    uint64_t bytesMovedFloor = 0; // bytes the plan must move through device memory at least
    uint32_t sharedElems = 0;     // odd-even: keys per tile of the tile step
    uint64_t tileKeys = 0;        // radix sorts: keys per workgroup tile (workgroup w has keys [w*t, (w+1)*t))
};

// The device memory a plan needs, buffer by buffer: what SortJob allocates, and what a program
// that brings its own buffers to record() allocates (see the recording contract above).
struct StorageRequirements {
    uint64_t keys = 0, values = 0;         // n keys; n u32 values when the config has values
    uint64_t keysTemp = 0, valuesTemp = 0; // the same sizes, when Plan::needsTemp
    uint64_t scratch = 0;                  // Plan::scratchBytes
    uint64_t total() const { return keys + values + keysTemp + valuesTemp + scratch; }
    uint64_t largest() const; // the largest single buffer (against VkPhysicalDeviceLimits)
};
StorageRequirements storageRequirements(const Plan& plan);

// OneSweep's bytes floor (its plans' bytesMovedFloor) without a device: one read of the keys for
// the histogram, then per 8-bit digit one read and one write of every key and value. CUB's
// onesweep moves the same bytes, so sortlab-bench measures its cub rows against it too.
uint64_t oneSweepBytesFloor(uint64_t n, const SortConfig& config);

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
    // The buffers a sort of n keys needs (plans it: the plan decides temporaries and scratch).
    Result<StorageRequirements> storageRequirements(uint64_t n, const SortConfig& config) {
        auto p = plan(n, config);
        if (!p) return p.error();
        return sortlab::storageRequirements(*p);
    }
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
