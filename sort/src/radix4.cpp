// The 4-bit LSD radix sort (docs/radix4.md): per pass, count (with subgroup ballots), scan, scatter,
// ping-ponging between keys and keysTemp. See docs/radix4.md and shaders/radix4_*.comp.
#include "sorter_common.h"
#include <sortlab/radix_steps.h>
#include <sortlab/internal/tuning.h>

#include <sortlab/shaders/constants.h>

#include <sortlab/sorter.h>

#include <algorithm>

namespace sortlab::radix4 {

namespace {

struct Push {
    uint64_t keys, keysTemp, values, valuesTemp, scratch, n;
    uint32_t pass, passes, bitLo, workgroups, rowStride, groupsX, bitHi;
};
static_assert(sizeof(Push) <= kPushConstantBytes);

constexpr uint32_t kDigitBits = 4;
constexpr uint32_t kRadix = 16;
constexpr uint32_t kMinTileKeys = 4; // the smallest teaching tile

// The shaders a plan binds, in Plan::pipelines order.
constexpr const char* kShaders[] = {"radix4_init", "radix4_count", "radix4_scan", "radix4_scatter", "radix4_result"};
// An indirect plan's (Sorter::planIndirect): the same, their pipelines reading n from scratch, and
// the kernel that writes it there.
constexpr const char* kIndirectShaders[] = {"radix4_init",    "radix4_count",  "radix4_scan",
                                            "radix4_scatter", "radix4_result", "indirect_count"};
enum Pipe : size_t { kInit, kCount, kScan, kScatter, kResult, kIndirectCount };

// The plan's steps, without the device's workgroup counts (radix4Steps).
// 4-bit passes from the config's beginBit up to its endBit (the last digit cut short there).
uint32_t passesOf(const SortConfig& config) {
    return (endBitOf(config) - config.beginBit + kDigitBits - 1) / kDigitBits;
}

std::vector<Step> planSteps(uint64_t n, const SortConfig& config) {
    if (n == 0) return {};
    Plan p;
    p.config = config;
    const uint32_t passes = passesOf(config);
    for (uint32_t pass = 0; pass < passes; ++pass) {
        const uint32_t lo = config.beginBit + pass * kDigitBits, hi = std::min(lo + kDigitBits, endBitOf(config));
        const std::string head =
            "pass " + std::to_string(pass) + ": bits " + std::to_string(lo) + ".." + std::to_string(hi - 1) + ", ";
        Step s;
        s.pass = pass;
        s.bitLo = lo;
        s.bitHi = hi;
        s.kind = StepKind::count;
        s.label = head + "count";
        s.keysAfter = KeyLocation::inScratchWord(SORTLAB_R4_WHERE + pass);
        p.steps.push_back(s);
        s.kind = StepKind::scan;
        s.label = head + "scan";
        p.steps.push_back(s);
        s.kind = StepKind::scatter;
        s.label = head + "scatter";
        s.keysAfter = KeyLocation::inScratchWord(SORTLAB_R4_WHERE + pass + 1);
        p.steps.push_back(s);
    }
    addResultStep(p, 0, passes);
    return p.steps;
}

tuning::Radix4Tuning tuningFor(const SortConfig& cfg) {
    return tuning::radix4(keyBytes(cfg.key), cfg.values != ValueType::none);
}

class Radix4Sorter final : public PipelineSorter {
public:
    explicit Radix4Sorter(Context& ctx) : PipelineSorter(ctx) {}
    Algorithm algorithm() const override { return Algorithm::radix4; }

    Result<Plan> makePlan(uint64_t n, const SortConfig& config) override { return planFor(n, config, false); }
    Result<Plan> makeIndirectPlan(uint64_t maxN, const SortConfig& config) override {
        return planFor(maxN, config, true);
    }
    // indirect: Plan::indirect's plan (pipelines that read n from scratch, and indirect_count.comp's).
    Result<Plan> planFor(uint64_t n, const SortConfig& config, bool indirect) {
        const DeviceInfo& dev = ctx_.info();
        constexpr uint32_t needed =
            VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
        if ((dev.subgroupOps & needed) != needed)
            return makeError(Errc::missing_feature, "the radix4 sort needs subgroup ballot, arithmetic and shuffle "
                                                    "operations in compute shaders; " +
                                                        dev.name + " does not offer them all");
        if (n > UINT32_MAX)
            return makeError(Errc::too_large, "radix4 keeps offsets in 32 bits: it sorts at most 2^32 - 1 keys (n = " +
                                                  std::to_string(n) + ")");
        Plan p = newPlan(Algorithm::radix4, n, config);
        p.indirect = indirect;
        if (n == 0) return p;

        auto geo = geometry(config);
        if (!geo) return geo.error();
        const uint64_t tile = geo->tile;
        const uint64_t workgroups = (n + tile - 1) / tile;
        const uint64_t rowStride = (workgroups + 3) / 4 * 4;
        p.tileKeys = tile;
        p.scratchBytes = (SORTLAB_R4_COUNTS + 2 * kRadix * rowStride) * 4;
        p.needsTemp = true;

        const uint32_t passes = passesOf(config);
        p.steps = planSteps(n, config);
        for (Step& s : p.steps) s.workgroups = s.kind == StepKind::scan ? kRadix : workgroups;
        p.resultLocation = p.steps.back().keysAfter;

        // Every pass reads the keys to count them, then reads and writes keys and values to scatter.
        const uint64_t kb = keyBytes(config.key), vb = valueBytes(config.values);
        p.bytesMovedFloor = passes * n * (kb + 2 * (kb + vb));

        return withPipelines(std::move(p), indirect ? std::span<const char* const>(kIndirectShaders) : kShaders,
                             [&](const char* shader) { return pipelineFor(shader, config, *geo, indirect); });
    }

    Result<void> recordSteps(VkCommandBuffer cmd, const Plan& plan, const DeviceBuffers& buf, size_t first, size_t last,
                             VkQueryPool timestamps, uint32_t firstQuery) const override {
        if (!hasPipelines(plan, std::size(kShaders)) || plan.tileKeys == 0) return lostPipelines();
        IndirectArgs args;
        if (plan.indirect) {
            auto a = indirectArgs(buf, SORTLAB_R4_INDIRECT);
            if (!a) return a.error();
            args = *a;
        }
        const SortConfig& cfg = plan.config;
        timestampBefore(cmd, timestamps, firstQuery);
        const uint64_t workgroups = (plan.n + plan.tileKeys - 1) / plan.tileKeys;
        const uint32_t passes = passesOf(cfg);
        Push pc{buf.keys.address,
                buf.keysTemp.address,
                buf.values.address,
                buf.valuesTemp.address,
                buf.scratch.address,
                plan.n,
                0,
                passes,
                0,
                static_cast<uint32_t>(workgroups),
                static_cast<uint32_t>((workgroups + 3) / 4 * 4),
                0,
                0};
        auto dispatch = [&](Pipe pipe, uint64_t groups) { dispatchPipeline(cmd, plan.pipelines[pipe], pc, groups); };
        // A workgroup a tile: the plan's n, or (indirect) the count's tiles, up to the plan's.
        auto dispatchTiles = [&](Pipe pipe) {
            dispatchSized(cmd, plan, plan.pipelines[pipe], pc, workgroups, args, 0);
        };
        for (size_t i = first; i < last; ++i) {
            const Step& s = plan.steps[i];
            if (i > first) computeToCompute(cmd);
            pc.pass = s.pass;
            pc.bitLo = s.bitLo;
            pc.bitHi = s.bitHi;
            if (s.kind == StepKind::count) {
                if (s.pass == 0) {
                    dispatch(kInit, 1);
                    computeToCompute(cmd);
                    if (plan.indirect) {
                        const IndirectSize tiles{static_cast<uint32_t>(plan.tileKeys), 0, workgroups};
                        recordIndirectCount(cmd, plan.pipelines[kIndirectCount], buf, SORTLAB_R4_INDIRECT, plan.n,
                                            std::span(&tiles, 1));
                    }
                }
                dispatchTiles(kCount);
            } else if (s.kind == StepKind::scan) {
                dispatch(kScan, kRadix);
            } else if (s.kind == StepKind::scatter) {
                dispatchTiles(kScatter);
            } else {
                dispatchTiles(kResult);
            }
            timestampAfter(cmd, timestamps, firstQuery, first, i);
        }
        return {};
    }

    std::vector<SnapshotRegion> snapshotRegions(const Plan& plan, size_t stepsDone) const override {
        const Step* s = radixSnapshotStep(plan, stepsDone);
        if (!s) return {};
        const uint32_t w = static_cast<uint32_t>((plan.n + plan.tileKeys - 1) / plan.tileKeys);
        const uint32_t stride = (w + 3) / 4 * 4;
        std::vector<SnapshotRegion> r;
        r.push_back({AuxKind::passInfo, {4}, SORTLAB_R4_INFO + 4u * s->pass, 0});
        r.push_back({AuxKind::digitCounts, {kRadix, w}, SORTLAB_R4_COUNTS, stride});
        r.push_back({AuxKind::histogram, {kRadix}, SORTLAB_R4_HIST + kRadix * s->pass, 0});
        if (s->kind != StepKind::count) {
            r.push_back({AuxKind::offsets, {kRadix}, SORTLAB_R4_OFFSETS + kRadix * s->pass, 0});
            r.push_back(
                {AuxKind::workgroupOffsets, {kRadix, w}, SORTLAB_R4_COUNTS + uint64_t(kRadix) * stride, stride});
        }
        return r;
    }

private:
    // The count and scatter kernels' workgroup, keys per lane and keys per tile: the tuned ones
    // (the workgroup halved where shared memory is short), or a teaching tile of config.knobs.radixTileKeys
    // keys in the fewest whole subgroups that hold it (slots past the tile hold no key).
    struct Geometry {
        uint32_t workgroup = 0, keysPerLane = 0, tile = 0;
        uint32_t tileKeysSpec() const { return tile == workgroup * keysPerLane ? 0u : tile; }
    };
    Result<Geometry> geometry(const SortConfig& config) const {
        const DeviceInfo& dev = ctx_.info();
        const tuning::Radix4Tuning t = tuningFor(config);
        uint32_t kpl = t.keysPerLane;
        uint32_t wg = std::min(t.workgroup, dev.maxWorkgroupSize);
        auto sharedBytes = [&](uint32_t w, uint32_t k) {
            return w * k * keyBytes(config.key) + maxSubgroups(w) * 16 * 4 + 128;
        };
        while (wg > dev.maxSubgroupSize && sharedBytes(wg, kpl) > dev.sharedMemoryBytes) wg /= 2;
        if (sharedBytes(wg, kpl) > dev.sharedMemoryBytes)
            return makeError(Errc::missing_feature, "radix4 needs " + std::to_string(sharedBytes(wg, kpl)) +
                                                        " bytes of shared memory; " + dev.name + " has " +
                                                        std::to_string(dev.sharedMemoryBytes));
        const uint32_t tuned = wg * kpl;
        const uint32_t asked = config.knobs.radixTileKeys;
        if (asked == 0 || asked == tuned) return Geometry{wg, kpl, tuned};
        if (asked < kMinTileKeys || asked > tuned)
            return makeError(Errc::invalid_argument, "radix4 tiles hold " + std::to_string(kMinTileKeys) + " to " +
                                                         std::to_string(tuned) + " keys on " + dev.name + " (" +
                                                         std::to_string(asked) + " asked for)");
        const uint32_t sub = std::max(1u, dev.subgroupSize);
        const uint32_t perSubgroup = sub * t.keysPerLane; // the most one subgroup's lanes hold
        wg = sub * ((asked + perSubgroup - 1) / perSubgroup);
        kpl = (asked + wg - 1) / wg;
        return Geometry{wg, kpl, asked};
    }

    uint32_t maxSubgroups(uint32_t wg) const { return std::max(1u, wg / std::max(1u, ctx_.info().subgroupSize)); }

    // geo: the count/scatter kernels' geometry of the plan (the scan has its own workgroup).
    Result<VkPipeline> pipelineFor(const std::string& shader, const SortConfig& cfg, const Geometry& geo,
                                   bool indirect) {
        if (shader == "indirect_count") return pipelineOf(shader, cfg, {});
        const tuning::Radix4Tuning t = tuningFor(cfg);
        const bool scan = shader == "radix4_scan";
        const uint32_t wg = scan ? std::min(t.scanWorkgroup, ctx_.info().maxWorkgroupSize) : geo.workgroup;
        const DeviceInfo& d = ctx_.info();
        SpecValues spec{{SORTLAB_SPEC_KEY_KIND, static_cast<uint32_t>(keyKind(cfg.key))},
                        {SORTLAB_SPEC_DESCENDING, cfg.order == Order::descending ? 1u : 0u},
                        {SORTLAB_SPEC_WORKGROUP_SIZE, wg},
                        {SORTLAB_SPEC_MAX_SUBGROUPS, maxSubgroups(wg)},
                        {SORTLAB_SPEC_SUBGROUP_SIZE, d.subgroupSize}};
        if (scan) {
            spec.push_back({SORTLAB_SPEC_SCAN_PER_LANE, t.scanPerLane});
        } else {
            spec.push_back({SORTLAB_SPEC_KEYS_PER_LANE, geo.keysPerLane});
            if (geo.tileKeysSpec()) spec.push_back({SORTLAB_SPEC_TILE_KEYS, geo.tileKeysSpec()});
        }
        if (indirect && shader != "radix4_init") spec.push_back({SORTLAB_SPEC_INDIRECT, 1u});
        return pipelineOf(shader, cfg, spec, subgroupSizeToPin(ctx_));
    }
};

} // namespace

std::unique_ptr<Sorter> makeRadix4Sorter(Context& ctx) {
    return std::make_unique<Radix4Sorter>(ctx);
}

} // namespace sortlab::radix4

namespace sortlab::radix {
std::vector<Step> radix4Steps(uint64_t n, const SortConfig& config) {
    return radix4::planSteps(n, config);
}
} // namespace sortlab::radix
