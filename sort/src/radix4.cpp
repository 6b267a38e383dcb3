// The 4-bit LSD radix sort (docs/radix4.md): per pass, count (with subgroup ballots), scan, scatter,
// ping-ponging between keys and keysTemp. See docs/radix4.md and shaders/radix4_*.comp.
#include "pipelines.h"
#include <sortlab/tuning.h>

#include <sortlab/shaders/constants.h>

#include <sortlab/sorter.h>

#include <algorithm>

namespace sortlab::radix4 {

namespace {

struct Push {
    uint64_t keys, keysTemp, values, valuesTemp, scratch, n;
    uint32_t pass, passes, bitLo, workgroups, rowStride, groupsX;
};
static_assert(sizeof(Push) <= kPushConstantBytes);

constexpr uint32_t kDigitBits = 4;
constexpr uint32_t kRadix = 16;

tuning::Radix4Tuning tuningFor(const SortConfig& cfg) {
    return tuning::radix4(keyBytes(cfg.key), cfg.values != ValueType::none);
}

class Radix4Sorter final : public Sorter {
public:
    explicit Radix4Sorter(Context& ctx) : ctx_(ctx), pipelines_(ctx) {}
    Algorithm algorithm() const override { return Algorithm::radix4; }

    Result<Plan> plan(uint64_t n, const SortConfig& config) override {
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
        Plan p;
        p.algorithm = Algorithm::radix4;
        p.config = config;
        p.n = n;
        if (n == 0) return p;

        // The tile: workgroup x keys per lane, staged in shared memory with the per-subgroup counters.
        const tuning::Radix4Tuning t = tuningFor(config);
        const uint32_t kpl = t.keysPerLane;
        uint32_t wg = std::min(t.workgroup, dev.maxWorkgroupSize);
        auto sharedBytes = [&](uint32_t w) { return w * kpl * keyBytes(config.key) + maxSubgroups(w) * 16 * 4 + 128; };
        while (wg > dev.maxSubgroupSize && sharedBytes(wg) > dev.sharedMemoryBytes) wg /= 2;
        if (sharedBytes(wg) > dev.sharedMemoryBytes)
            return makeError(Errc::missing_feature, "radix4 needs " + std::to_string(sharedBytes(wg)) +
                                                        " bytes of shared memory; " + dev.name + " has " +
                                                        std::to_string(dev.sharedMemoryBytes));
        const uint64_t tile = uint64_t(wg) * kpl;
        const uint64_t workgroups = (n + tile - 1) / tile;
        const uint64_t rowStride = (workgroups + 3) / 4 * 4;
        p.tileKeys = tile;
        p.scratchBytes = (SORTLAB_R4_COUNTS + 2 * kRadix * rowStride) * 4;
        p.needsTemp = true;
        p.resultInTemp = false;

        const uint32_t passes = keyBits(config.key) / kDigitBits;
        for (uint32_t pass = 0; pass < passes; ++pass) {
            const uint32_t lo = pass * kDigitBits, hi = lo + kDigitBits;
            const std::string head =
                "pass " + std::to_string(pass) + ": bits " + std::to_string(lo) + ".." + std::to_string(hi - 1) + ", ";
            Step s;
            s.pass = pass;
            s.bitLo = lo;
            s.bitHi = hi;
            s.kind = StepKind::count;
            s.label = head + "count";
            s.workgroups = workgroups;
            s.locationWord = SORTLAB_R4_WHERE + pass;
            p.steps.push_back(s);
            s.kind = StepKind::scan;
            s.label = head + "scan";
            s.workgroups = kRadix;
            p.steps.push_back(s);
            s.kind = StepKind::scatter;
            s.label = head + "scatter";
            s.workgroups = workgroups;
            s.locationWord = SORTLAB_R4_WHERE + pass + 1;
            p.steps.push_back(s);
        }
        Step r;
        r.kind = StepKind::result;
        r.label = "result: copy back if an odd number of passes ran";
        r.workgroups = workgroups;
        r.pass = passes;
        p.steps.push_back(r);

        // Every pass reads the keys to count them, then reads and writes keys and values to scatter.
        const uint64_t kb = keyBytes(config.key), vb = valueBytes(config.values);
        p.bytesMovedFloor = passes * n * (kb + 2 * (kb + vb));

        SORTLAB_TRY(preparePipelines({"radix4_init", "radix4_count", "radix4_scan", "radix4_scatter", "radix4_result"},
                                     [&](const char* shader) { return pipelineFor(shader, config, wg); }));
        return p;
    }

    void record(VkCommandBuffer cmd, const Plan& plan, const DeviceBuffers& buf, size_t first, size_t last,
                VkQueryPool timestamps, uint32_t firstQuery) const override {
        last = std::min(last, plan.steps.size());
        if (first >= last || plan.tileKeys == 0) return;
        const SortConfig& cfg = plan.config;
        timestampBefore(cmd, timestamps, firstQuery);
        const uint64_t workgroups = (plan.n + plan.tileKeys - 1) / plan.tileKeys;
        const uint32_t wg = static_cast<uint32_t>(plan.tileKeys / tuningFor(cfg).keysPerLane);
        const uint32_t passes = keyBits(cfg.key) / kDigitBits;
        Push pc{buf.keys,
                buf.keysTemp,
                buf.values,
                buf.valuesTemp,
                buf.scratch,
                plan.n,
                0,
                passes,
                0,
                static_cast<uint32_t>(workgroups),
                static_cast<uint32_t>((workgroups + 3) / 4 * 4),
                0};
        auto dispatch = [&](const char* shader, uint64_t groups) {
            dispatchFolded(cmd, pipelines_.layout(), pipeline(shader, cfg, wg), pc, groups, tuning::kMaxGroupsX);
        };
        for (size_t i = first; i < last; ++i) {
            const Step& s = plan.steps[i];
            if (i > first) computeToCompute(cmd);
            pc.pass = s.pass;
            pc.bitLo = s.bitLo;
            if (s.kind == StepKind::count) {
                if (s.pass == 0) {
                    dispatch("radix4_init", 1);
                    computeToCompute(cmd);
                }
                dispatch("radix4_count", workgroups);
            } else if (s.kind == StepKind::scan) {
                dispatch("radix4_scan", kRadix);
            } else if (s.kind == StepKind::scatter) {
                dispatch("radix4_scatter", workgroups);
            } else {
                dispatch("radix4_result", workgroups);
            }
            timestampAfter(cmd, timestamps, firstQuery, first, i);
        }
    }

    std::vector<SnapshotRegion> snapshotRegions(const Plan& plan, size_t stepsDone) const override {
        if (stepsDone == 0 || stepsDone > plan.steps.size()) return {};
        const Step& s = plan.steps[stepsDone - 1];
        if (s.kind == StepKind::result) return {};
        const uint32_t w = static_cast<uint32_t>((plan.n + plan.tileKeys - 1) / plan.tileKeys);
        const uint32_t stride = (w + 3) / 4 * 4;
        std::vector<SnapshotRegion> r;
        r.push_back({AuxKind::passInfo, {4}, SORTLAB_R4_INFO + 4u * s.pass, 0});
        r.push_back({AuxKind::digitCounts, {kRadix, w}, SORTLAB_R4_COUNTS, stride});
        r.push_back({AuxKind::histogram, {kRadix}, SORTLAB_R4_HIST + kRadix * s.pass, 0});
        if (s.kind != StepKind::count) {
            r.push_back({AuxKind::offsets, {kRadix}, SORTLAB_R4_OFFSETS + kRadix * s.pass, 0});
            r.push_back(
                {AuxKind::workgroupOffsets, {kRadix, w}, SORTLAB_R4_COUNTS + uint64_t(kRadix) * stride, stride});
        }
        return r;
    }

private:
    uint32_t maxSubgroups(uint32_t wg) const { return std::max(1u, wg / std::max(1u, ctx_.info().subgroupSize)); }

    // tileWorkgroup: the count/scatter workgroup size of the plan (the scan has its own).
    Result<VkPipeline> pipelineFor(const std::string& shader, const SortConfig& cfg, uint32_t tileWorkgroup) {
        const tuning::Radix4Tuning t = tuningFor(cfg);
        const bool scan = shader == "radix4_scan";
        const uint32_t wg = scan ? std::min(t.scanWorkgroup, ctx_.info().maxWorkgroupSize) : tileWorkgroup;
        const DeviceInfo& d = ctx_.info();
        SpecValues spec{{SORTLAB_SPEC_KEY_KIND, static_cast<uint32_t>(keyKind(cfg.key))},
                        {SORTLAB_SPEC_DESCENDING, cfg.order == Order::descending ? 1u : 0u},
                        {SORTLAB_SPEC_WORKGROUP_SIZE, wg},
                        {SORTLAB_SPEC_MAX_SUBGROUPS, maxSubgroups(wg)},
                        {SORTLAB_SPEC_SUBGROUP_SIZE, d.subgroupSize}};
        if (scan)
            spec.push_back({SORTLAB_SPEC_SCAN_PER_LANE, t.scanPerLane});
        else
            spec.push_back({SORTLAB_SPEC_KEYS_PER_LANE, t.keysPerLane});
        return pipelines_.get(shader, keyBytes(cfg.key) / 4, cfg.values != ValueType::none, spec, subgroupSizeToPin(d));
    }
    VkPipeline pipeline(const std::string& shader, const SortConfig& cfg, uint32_t tileWorkgroup) const {
        return const_cast<Radix4Sorter*>(this)->pipelineFor(shader, cfg, tileWorkgroup).value();
    }

    Context& ctx_;
    PipelineCache pipelines_;
};

} // namespace

std::unique_ptr<Sorter> makeRadix4Sorter(Context& ctx) {
    return std::make_unique<Radix4Sorter>(ctx);
}

} // namespace sortlab::radix4
