// The recording contract: for programs that plan a sort and record it into their own command
// buffers, with their own buffers (and for SortJob, which does the same for them). plan() turns
// (n, config) into data: the list of steps (sortlab/steps.h), the buffers they need and the
// pipelines they bind. record() puts a range of those steps into the caller's command buffer.
// The variants by name (the menus' and --algo's table) are in sortlab/variants.h. docs/library.md
// walks through it with an example.
//
// Contract:
//  * buffers are passed as BufferRange (device address + size): memory allocated with
//    VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT, buffers made with
//    VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT. keys hold n keys of the configured type (4 or 8
//    bytes each), values n u32 values when the config has values; keysTemp/valuesTemp (same sizes)
//    and scratch (plan.scratchBytes) when the plan asks for them (storageRequirements(plan) gives
//    every size). Each address is a multiple of kBufferAlignment (16: the kernels read keys and
//    scratch as 16-byte vectors), and the ranges a plan uses do not overlap; they may all be
//    regions of one VkBuffer. record() checks these and returns invalid_argument otherwise;
//  * record() binds compute pipelines and sets push constants (the shaders take the addresses
//    there): after it, the command buffer's compute pipeline and push constants are the sort's;
//    rebind yours. It binds no descriptor sets and leaves other bind points alone;
//  * the caller makes the keys and values visible to compute-shader reads and writes before the
//    first recorded step, and waits for compute-shader writes after the last one (memory
//    barriers from/to VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT). keysTemp, valuesTemp and scratch are
//    written too: a sort recorded again (the next frame) or another user of those buffers needs the
//    same compute-to-compute (or compute-to-your-stage) barrier after the last step before it;
//  * between steps, record() inserts compute-to-compute memory barriers itself;
//  * the shaders reach the buffers by device address, which the validation layers cannot track:
//    a missing barrier, a buffer too small or freed too early gives no validation message;
//  * plan.resultLocation says where the sorted keys (and values) are after the last step: keys,
//    keysTemp, or (SortKnobs::resultInEither) the scratch word the GPU writes it into;
//    plan.steps[i].keysAfter says the same after step i;
//  * timestamps (optional): query slot firstQuery + i is written after step first + i - 1, slot
//    firstQuery before the first step; so a range of s steps needs s + 1 slots;
//  * the plan holds pipelines of the sorter that made it: record it with that sorter, while it lives
//    (record() refuses a plan of another sorter);
//  * an indirect plan (Sorter::planIndirect) sorts n = min(count, maxN) keys, count being the
//    uint32 at DeviceBuffers::count when the sort runs: write it before (in the same command buffer
//    or an earlier submission) and make the write visible to compute-shader reads (a barrier from
//    your writing stage, e.g. VK_PIPELINE_STAGE_TRANSFER_BIT after vkCmdFillBuffer, to
//    VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT with VK_ACCESS_SHADER_READ_BIT). Its first step writes
//    the dispatch sizes into scratch and its dispatches read them (vkCmdDispatchIndirect), so
//    scratch must lie in DeviceBuffers::scratchBuffer, made with VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
//    record() puts the barrier from that write to the indirect reads itself. Keys past n are not
//    read or written;
//  * stability: radix4, onesweep and hybrid keep equal keys in input order (their values too); the odd-even
//    network does not (equal keys' values may come out in any order). sortPairs() (sortlab.h) is
//    stable and refuses Algorithm::oddeven.
#pragma once

#include <sortlab/buffer.h>
#include <sortlab/keys.h>
#include <sortlab/steps.h>

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace sortlab {

// hybrid: an MSD radix sort by the top 16 bits (OneSweep's passes), then each of the 65536 buckets
// sorted in one workgroup (docs/hybrid.md); slower than OneSweep on every GPU measured.
// automatic: not a sorter (makeSorter refuses it), the choice sortlab::sort makes between onesweep and
// hybrid (sortlab/sortlab.h).
enum class Algorithm : uint8_t { oddeven, radix4, onesweep, hybrid, automatic };
std::string_view algorithmName(Algorithm a);

// Switches that change how a sort runs, never what it sorts to (resultInEither: only where the
// result is). Each algorithm reads its own and ignores the others. The variants set perLayer and
// forceFallback (sortlab/variants.h); sortlab-bench's options and the app's settings hold one
// SortKnobs for their command-line flags (--shared-elems, --tile-keys, --force-fallback, ...).
struct SortKnobs {
    // oddeven: one dispatch per network layer (Batcher's iterative form, and what step-through shows).
    // Off: layers whose comparators stay inside a shared-memory tile are fused (same result).
    bool perLayer = false;
    // oddeven: keys per tile of the tile step, a power of two up to one subgroup window (subgroup
    // size x 32). 0: a whole window. Small tiles make small n reach every step kind (--shared-elems).
    uint32_t oddEvenTileKeys = 0;
    // radix4, onesweep: keys per workgroup tile, from 4 up to the tuned tile (0: the tuned tile).
    // Small teaching tiles make small n run several workgroups (16 keys in 4-key tiles: 4
    // workgroups), so that their local counts and the global offsets show; same shaders, same result.
    uint32_t radixTileKeys = 0;
    // onesweep: every tile but the first counts its immediate predecessor's digits from that
    // tile's keys (the fallback path) instead of reading its status, then walks on normally
    // (same result; the tests run both paths).
    bool forceFallback = false;
    // onesweep: the instrumented pass kernel (same kernel, a specialization constant) logs each
    // tile's lookback into scratch: AuxKind::lookbackLog after each pass (sortlab/lookback.h). It
    // costs time (on an H100, docs/onesweep.md), and takes at most 65536 tiles a pass.
    bool logLookback = false;
    // With logLookback: tiles log taking their ids in id order, each waiting for the one before, so
    // that a replay reads in order (the app, --lookback-log). That chain of waits changes the
    // schedule on a GPU; the statistics of --lookback-stats turn it off.
    bool logInIdOrder = true;
    // radix4, onesweep: leave the sorted keys (and values) in whichever of keys and keysTemp the
    // last pass that ran wrote them to, as CUB's DoubleBuffer form does, instead of copying them
    // back into keys. The plan then has no result step, and its resultLocation is the scratch word
    // that says where they are (SortJob::download reads them from there). Saves a read and a write
    // of every key and value where an odd number of passes ran, which skipped passes make common
    // (keys whose low byte is zero: 3 passes of 4).
    bool resultInEither = false;
    bool operator==(const SortKnobs&) const = default;
};

struct SortConfig {
    KeyType key = KeyType::u32;
    ValueType values = ValueType::none;
    Order order = Order::ascending;
    // The bits the radix sorts sort by (CUB's begin_bit/end_bit): bits [beginBit, endBit) of each
    // key's order bits (sortlab/keys.h: the raw bits with the sign flipped for signed keys, the
    // IEEE total-order flip for floats, all bits inverted for descending), bit 0 the least
    // significant. endBit 0 means the key's width (32 or 64), so the default sorts by the whole key.
    // Keys come out ordered by (orderBits >> beginBit) & (2^(endBit - beginBit) - 1), keys equal
    // there in input order (stable). Fewer bits, fewer passes: radix4 runs 4-bit passes from
    // beginBit; OneSweep the 8-bit passes of the bytes the range touches (so [4, 12) takes two).
    // A range on signed or float keys is of the flipped bits: [0, 31) of i32 keys ignores the order
    // bits' top bit, the sign. beginBit < endBit <= key width, otherwise plan() returns
    // invalid_argument (an empty range too); the odd-even network takes only the whole key.
    uint32_t beginBit = 0, endBit = 0;
    SortKnobs knobs;
};
// The end of config's bit range (its endBit, or the key's width where that is 0), and whether the
// range is the whole key.
constexpr uint32_t endBitOf(const SortConfig& c) {
    return c.endBit ? c.endBit : keyBits(c.key);
}
constexpr bool sortsWholeKey(const SortConfig& c) {
    return c.beginBit == 0 && endBitOf(c) == keyBits(c.key);
}

class Sorter;

struct Plan {
    Algorithm algorithm = Algorithm::oddeven;
    SortConfig config;
    uint64_t n = 0;
    std::vector<Step> steps;
    bool needsTemp = false;       // keysTemp (and valuesTemp) must be provided
    uint64_t scratchBytes = 0;    // auxiliary buffer the sort needs (0: none)
    KeyLocation resultLocation;   // where the sorted keys are after the last step
    uint64_t bytesMovedFloor = 0; // bytes the plan must move through device memory at least
    // Keys per tile: odd-even's tile step; the radix sorts' workgroup tile (workgroup w has keys
    // [w*t, (w+1)*t)). 0 for n = 0.
    uint64_t tileKeys = 0;
    // The pipelines record() binds, made by plan() and owned by the sorter that planned (in that
    // sorter's order; VK_NULL_HANDLE for one this plan does not use).
    std::vector<VkPipeline> pipelines;
    // The sorter that made this plan (record() takes plans of that sorter only).
    const Sorter* planner = nullptr;
    // Sorter::planIndirect's plan: n above is the most keys it sorts (its buffers are sized for
    // that many); the count it sorts is read from DeviceBuffers::count when it runs.
    bool indirect = false;
};

// The largest n a plan takes (2^40 keys): the library's sizes and offsets stay far from overflow.
inline constexpr uint64_t kMaxKeys = uint64_t(1) << 40;
// What every buffer address given to record() is a multiple of.
inline constexpr uint64_t kBufferAlignment = 16;

// The device memory a plan needs, buffer by buffer: what SortJob allocates, and what a program
// that brings its own buffers to record() allocates (see the contract above).
struct StorageRequirements {
    uint64_t keys = 0, values = 0;         // n keys; n u32 values when the config has values
    uint64_t keysTemp = 0, valuesTemp = 0; // the same sizes, when Plan::needsTemp
    uint64_t scratch = 0;                  // Plan::scratchBytes
    uint64_t total() const;                // the sum (UINT64_MAX if it does not fit in 64 bits)
    uint64_t largest() const;              // the largest single buffer (against VkPhysicalDeviceLimits)
};
StorageRequirements storageRequirements(const Plan& plan);

// OneSweep's bytes floor (its plans' bytesMovedFloor) without a device: one read of the keys for
// the histogram, then per 8-bit digit one read and one write of every key and value. CUB's
// onesweep moves the same bytes, so sortlab-bench measures its cub rows against it too.
uint64_t oneSweepBytesFloor(uint64_t n, const SortConfig& config);

// The buffers record() binds (see the contract above); those the plan does not use may stay empty.
struct DeviceBuffers {
    BufferRange keys, values, keysTemp, valuesTemp, scratch;
    // Indirect plans only (Plan::indirect): the key count, one uint32 at an address that is a
    // multiple of 4 (size at least 4), read by the GPU when the sort runs; and the VkBuffer that
    // scratch is a region of (made with VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT besides
    // VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT: vkCmdDispatchIndirect reads the dispatch sizes
    // there, through the handle). Buffer::range() leaves scratchBuffer null: set it to handle().
    BufferRange count;
    VkBuffer scratchBuffer = VK_NULL_HANDLE;
};

class Sorter {
public:
    virtual ~Sorter() = default;
    virtual Algorithm algorithm() const = 0;
    // Plans a sort of n keys and makes the pipelines it binds (Plan::pipelines). Errors:
    // invalid_argument for a config with an enum value out of range or knobs the sorter refuses;
    // too_large for n beyond kMaxKeys or the algorithm's own limit, or a buffer larger than the
    // device's maxBufferSize; out_of_memory for buffers that together exceed the device's largest
    // device-local heap; missing_feature; a pipeline the device could not make.
    Result<Plan> plan(uint64_t n, const SortConfig& config);
    // Plans a sort of up to maxN keys that takes its count from the GPU when it runs
    // (DeviceBuffers::count, see the contract above): n = min(count, maxN), so a count above maxN
    // sorts the first maxN keys (clamped, never refused: the GPU cannot return an error). The
    // plan's buffers, steps and pipelines are those of maxN keys; its dispatches take their sizes
    // from the count (vkCmdDispatchIndirect), so a small count runs few workgroups (the one-workgroup
    // init and the scans' few run whatever the count).
    // The kernels are the direct ones with a specialization constant set: pipelines of their own,
    // which planIndirect makes (warmUp does not). The first step reads the count; a range of steps
    // recorded from a later one uses what the last run of the first step read.
    // radix4 and onesweep only: the odd-even network returns invalid_argument, as does onesweep
    // for a config with SortKnobs::logLookback; onesweep returns too_large where maxN needs more
    // than one portion a pass (2^29 - 1 keys at most, less with large tiles); otherwise plan()'s
    // errors for maxN.
    Result<Plan> planIndirect(uint64_t maxN, const SortConfig& config);
    // The buffers a sort of n keys needs (plans it: the plan decides temporaries and scratch).
    Result<StorageRequirements> storageRequirements(uint64_t n, const SortConfig& config) {
        auto p = plan(n, config);
        if (!p) return p.error();
        return sortlab::storageRequirements(*p);
    }
    // Creates every pipeline that plans of `config` for 1 to maxN keys bind (plan() makes those of
    // a tuning range the first time n enters it: about 100 ms each on lavapipe), so that later
    // plans of that config up to maxN create none (Context::pipelinesCreated() stays the same; the
    // bit range and n change no pipeline). Through the context's pipeline cache where one is set
    // (Context::setPipelineCache). Errors: plan()'s, for a config or maxN that plan() refuses.
    // SortKnobs::logLookback makes pipelines per tile count: a warm-up does not cover those.
    Result<void> warmUp(const SortConfig& config, uint64_t maxN);
    // Records steps [first, last) of `plan` (last clamped to the plan's size) into `cmd`, with
    // the barriers between them. Checks what it can before recording anything, and returns
    // invalid_argument (recording nothing) for: a null command buffer, a plan this sorter did not
    // make, first past the last step, a buffer the plan uses that is missing (address 0), smaller
    // than storageRequirements(plan) says, at an address not a multiple of kBufferAlignment, or
    // overlapping another. It cannot check the buffers' usage flags, that the memory is still
    // there, or the query pool's size. An indirect plan's count (missing, smaller than 4 bytes, at
    // an address not a multiple of 4, overlapping a buffer of the plan) and scratchBuffer (null, or a
    // buffer scratch does not start in) are checked too; the count's value when the sort runs cannot be.
    Result<void> record(VkCommandBuffer cmd, const Plan& plan, const DeviceBuffers& buffers, size_t first = 0,
                        size_t last = SIZE_MAX, VkQueryPool timestamps = VK_NULL_HANDLE, uint32_t firstQuery = 0) const;
    // The auxiliary state a snapshot after steps [0, stepsDone) shows (counts, histograms,
    // offsets, tile status), as regions of the scratch buffer. Empty by default.
    virtual std::vector<SnapshotRegion> snapshotRegions(const Plan& plan, size_t stepsDone) const {
        (void)plan;
        (void)stepsDone;
        return {};
    }

protected:
    // The device the sorter plans for (plan() checks the buffers against its limits).
    virtual const DeviceInfo& device() const = 0;
    // The sizes whose plans together bind every pipeline plans of config up to maxN bind (warmUp
    // plans each): 1, every power of two below maxN, and maxN; a sorter whose pipelines change at
    // other sizes adds those.
    virtual std::vector<uint64_t> warmUpSizes(const SortConfig& config, uint64_t maxN) const;
    // The algorithm's plan for a valid config and n <= kMaxKeys (plan() checks both, then the device).
    virtual Result<Plan> makePlan(uint64_t n, const SortConfig& config) = 0;
    // The same for planIndirect (Plan::indirect set). By default: invalid_argument (no indirect form).
    virtual Result<Plan> makeIndirectPlan(uint64_t maxN, const SortConfig& config);
    // Records steps [first, last) (first < last <= steps) of a plan this sorter made, with buffers
    // record() checked; invalid_argument for a plan that lost its pipelines.
    virtual Result<void> recordSteps(VkCommandBuffer cmd, const Plan& plan, const DeviceBuffers& buffers, size_t first,
                                     size_t last, VkQueryPool timestamps, uint32_t firstQuery) const = 0;
};

Result<std::unique_ptr<Sorter>> makeSorter(Context& ctx, Algorithm algorithm);

} // namespace sortlab
