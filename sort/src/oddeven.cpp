// [SECTION] The network and the CPU reference model
// [SECTION] The planner (which layers share a dispatch)
// [SECTION] The GPU sorter (pipelines, push constants, recording)
#include <sortlab/oddeven.h>
#include <sortlab/sorter.h>

#include "sorter_common.h"
#include <sortlab/internal/tuning.h>
#include <sortlab/shaders/constants.h>

#include <algorithm>
#include <cstring>

namespace sortlab::oddeven {

// [SECTION] The network and the CPU reference model ----------------------------------------------

uint32_t log2Ceil(uint64_t n) {
    uint32_t l = 0;
    while ((uint64_t(1) << l) < n) ++l;
    return l;
}

std::vector<Layer> layers(uint64_t n) {
    std::vector<Layer> out;
    const uint32_t depth = log2Ceil(n);
    for (uint32_t logP = 0; logP < depth; ++logP)
        for (uint32_t logK = logP + 1; logK-- > 0;) out.push_back({logP, logK});
    return out;
}

namespace {
template <class Word>
uint64_t applyTyped(Word* keys, uint32_t* values, KeyType type, Order order, uint64_t n, const std::vector<Layer>& ls,
                    size_t first, size_t last) {
    uint64_t swaps = 0;
    const KeyKind kind = keyKind(type);
    auto bits = [&](Word w) { return orderBitsOf(w, kind, order); };
    for (size_t l = first; l < last && l < ls.size(); ++l) {
        forEachComparator(n, ls[l], [&](uint64_t a, uint64_t b) {
            if (bits(keys[a]) > bits(keys[b])) {
                std::swap(keys[a], keys[b]);
                if (values) std::swap(values[a], values[b]);
                ++swaps;
            }
        });
    }
    return swaps;
}
} // namespace

uint64_t comparatorsInLayer(uint64_t n, Layer layer) {
    const uint32_t logK = layer.logK, logP = layer.logP;
    const uint64_t k = uint64_t(1) << logK, p = uint64_t(1) << logP, block = 2 * p;
    if (n <= k) return 0;
    const uint64_t m = n - k;                                                          // left ends a < n - k
    const uint64_t clear = ((m >> (logK + 1)) << logK) + std::min(m & (2 * k - 1), k); // bit k clear
    if (logK == logP) return clear;
    const uint64_t set = m - clear;
    const uint64_t lastRun = (m / block) * k + (m % block > block - k ? m % block - (block - k) : 0);
    return set - lastRun;
}

uint64_t applyLayers(std::span<std::byte> keys, std::span<uint32_t> values, KeyType type, Order order, uint64_t n,
                     size_t first, size_t last) {
    auto ls = layers(n);
    uint32_t* v = values.empty() ? nullptr : values.data();
    if (keyBytes(type) == 4)
        return applyTyped(reinterpret_cast<uint32_t*>(keys.data()), v, type, order, n, ls, first, last);
    return applyTyped(reinterpret_cast<uint64_t*>(keys.data()), v, type, order, n, ls, first, last);
}

// [SECTION] The planner ----------------------------------------------------------------------------

namespace {

std::string pow2(uint32_t log) {
    return log < 20 ? std::to_string(1u << log) : "2^" + std::to_string(log);
}

struct WindowChoice {
    uint32_t layers = 1; // 1: a single global layer step
    uint32_t logR = 0, centreRows = 0, halo = 0;
    double score = 1.0; // layers per unit of cost (one read + one write of every key = 1)
};

// The best way to run the layers of merge 2^logP starting at stride 2^logK: one global layer,
// or a subgroup window of g layers with 2^logR adjacent columns.
WindowChoice chooseGroup(uint32_t logP, uint32_t logK, const PlanParams& pp, const tuning::OddEvenTuning& t) {
    WindowChoice best; // a single global layer: cost 1, score 1
    const uint32_t logSubgroup = log2Ceil(pp.subgroupSize);
    for (uint32_t g = 2; g <= logK + 1; ++g) {
        const uint32_t logKLo = logK - g + 1;
        const uint64_t rowsPerBlock = uint64_t(2) << (logP - logKLo);
        for (uint32_t logR = 0; logR <= std::min({logKLo, logSubgroup, pp.logMaxColumns}); ++logR) {
            const uint64_t windowRows = uint64_t(pp.subgroupSize) * t.keysPerLane >> logR;
            const uint64_t rowAlign = pp.subgroupSize >> logR; // windows start on whole subgroup rows
            uint64_t centre = 0, halo = 0;
            if (rowsPerBlock <= windowRows) {
                centre = rowsPerBlock; // the whole block: exact, no halo
            } else {
                if (logK == logP) continue; // the first layer of a merge pairs rows half a block apart
                halo = ((uint64_t(1) << g) - 1 + rowAlign - 1) / rowAlign * rowAlign;
                if (windowRows < 2 * halo + rowAlign) continue;
                centre = windowRows - 2 * halo;
            }
            const double efficiency = double(centre) / double(centre + 2 * halo);
            // Rows of a column are 2^logKLo keys apart (the smallest stride): a run of R keys shorter
            // than a memory sector wastes the rest of the sector (unless the runs touch: R = 2^logKLo).
            const double runBytes = (logR == logKLo) ? 1e9 : double(pp.keyBytes << logR);
            const double sectorEfficiency = std::min(1.0, runBytes / double(t.sectorBytes));
            const double cost = (0.5 + 0.5 / efficiency) / sectorEfficiency + t.layerCost * g;
            const double score = g / cost;
            if (score > best.score * t.minGain)
                best = {g, logR, static_cast<uint32_t>(centre), static_cast<uint32_t>(halo), score};
        }
    }
    return best;
}

} // namespace

namespace {

// The tile step: every merge whose 2p blocks fit in one subgroup window (2^tileMerges keys), in
// registers.
Step tileStep(uint64_t n, uint32_t tileMerges, uint64_t windowsPerGroup) {
    Step s;
    s.kind = StepKind::tile;
    s.logP = tileMerges - 1; // the last merge run
    s.logKHi = s.logKLo = 0;
    s.centreRows = 1u << tileMerges;
    s.firstLayer = 0;
    s.layerCount = tileMerges * (tileMerges + 1) / 2;
    s.label = "tiles of " + pow2(tileMerges) + ": merges 2.." + pow2(tileMerges) + " (" + std::to_string(s.layerCount) +
              " layers)";
    s.windows = (n + s.centreRows - 1) / s.centreRows;
    s.workgroups = (s.windows + windowsPerGroup - 1) / windowsPerGroup;
    return s;
}

// A window step: c.layers layers of merge 2^(logP+1) from stride 2^logK down, in one subgroup
// window each.
Step windowStep(uint64_t n, uint32_t logP, uint32_t logK, const WindowChoice& c, uint32_t firstLayer,
                uint64_t windowsPerGroup) {
    Step s;
    s.kind = StepKind::window;
    s.logP = logP;
    s.logKHi = logK;
    s.logKLo = logK - c.layers + 1;
    s.logR = c.logR;
    s.centreRows = c.centreRows;
    s.halo = c.halo;
    s.firstLayer = firstLayer;
    s.layerCount = c.layers;
    const uint64_t blocks = (n + (uint64_t(2) << logP) - 1) >> (logP + 1);
    const uint64_t rowsPerBlock = uint64_t(2) << (logP - s.logKLo);
    const uint64_t segments = (rowsPerBlock + c.centreRows - 1) / c.centreRows;
    s.windows = blocks * (uint64_t(1) << (s.logKLo - s.logR)) * segments;
    s.workgroups = (s.windows + windowsPerGroup - 1) / windowsPerGroup;
    s.label = "merge " + pow2(logP + 1) + ", strides " + pow2(s.logKHi) + ".." + pow2(s.logKLo) + " (" +
              std::to_string(c.layers) + " layers" + (c.halo ? ", halo " + std::to_string(c.halo) + " rows" : "") + ")";
    return s;
}

// Buffers: a window with halo reads rows its neighbours write, so it reads one buffer of the
// pair and writes the other. The tile step may do the same at no cost (it rewrites every key), so
// it takes the extra flip when the halo windows alone would leave the result in the temporary
// buffer. Layer steps and windows without halo work in place.
void assignBuffers(std::vector<Step>& steps) {
    size_t flips = 0;
    for (auto& s : steps) flips += (s.kind == StepKind::window && s.halo) ? 1 : 0;
    bool inTemp = false;
    for (auto& s : steps) {
        if ((s.kind == StepKind::window && s.halo) || (s.kind == StepKind::tile && flips % 2 == 1)) inTemp = !inTemp;
        s.keysAfter = inTemp ? KeyLocation::inKeysTemp() : KeyLocation::inKeys();
    }
}

} // namespace

std::vector<Step> planSteps(uint64_t n, const PlanParams& pp) {
    std::vector<Step> steps;
    const uint32_t depth = log2Ceil(n);
    if (n < 2) return steps;
    const tuning::OddEvenTuning t = tuning::oddEven(pp.keyBytes, pp.values);
    uint32_t layerIndex = 0;
    auto layerStep = [&](uint32_t logP, uint32_t logK) {
        Step s;
        s.kind = StepKind::layer;
        s.label = "merge " + pow2(logP + 1) + ", stride " + pow2(logK);
        s.firstLayer = layerIndex++;
        s.layerCount = 1;
        s.logP = logP;
        s.logKHi = s.logKLo = logK;
        uint64_t k = uint64_t(1) << logK;
        s.workgroups = ((n + 2 * k - 1) / (2 * k) * k + t.layerWorkgroup - 1) / t.layerWorkgroup;
        steps.push_back(std::move(s));
    };
    if (pp.perLayer) {
        for (uint32_t logP = 0; logP < depth; ++logP)
            for (uint32_t logK = logP + 1; logK-- > 0;) layerStep(logP, logK);
        return steps;
    }
    const uint32_t tileMerges = std::min(log2Ceil(std::min(pp.tileKeys, pp.windowKeys)), depth);
    const uint64_t windowsPerGroup = t.warpWorkgroup / pp.subgroupSize;
    steps.push_back(tileStep(n, tileMerges, windowsPerGroup));
    layerIndex = steps.back().layerCount;
    for (uint32_t logP = tileMerges; logP < depth; ++logP) {
        int logK = static_cast<int>(logP);
        while (logK >= 0) {
            WindowChoice c = chooseGroup(logP, static_cast<uint32_t>(logK), pp, t);
            if (c.layers == 1) {
                layerStep(logP, static_cast<uint32_t>(logK));
                --logK;
                continue;
            }
            steps.push_back(windowStep(n, logP, static_cast<uint32_t>(logK), c, layerIndex, windowsPerGroup));
            layerIndex += c.layers;
            logK -= static_cast<int>(c.layers);
        }
    }
    assignBuffers(steps);
    return steps;
}

// [SECTION] The GPU sorter ----------------------------------------------------------------------------

namespace {

struct LayerPush {
    uint64_t keys, values, n, slots;
    uint32_t logP, logK, groupsX;
};
struct WindowPush {
    uint64_t keys, values, outKeys, outValues, n, rowsPerBlock;
    uint32_t logPFirst, logPLast, logKHi, logKLo, logR, centreRows, halo, segments, windows, groupsX;
};
static_assert(sizeof(WindowPush) <= kPushConstantBytes);

// The pipelines a plan binds, in Plan::pipelines order: layer steps run oddeven_layer.comp; tile
// and window steps oddeven_warp.comp.
enum Pipe : size_t { kLayer, kWarp, kPipes };
Pipe pipeOf(StepKind kind) {
    return kind == StepKind::layer ? kLayer : kWarp;
}

class OddEvenSorter final : public PipelineSorter {
public:
    explicit OddEvenSorter(Context& ctx) : PipelineSorter(ctx) {}
    Algorithm algorithm() const override { return Algorithm::oddeven; }

    Result<Plan> makePlan(uint64_t n, const SortConfig& config) override {
        if (!sortsWholeKey(config))
            return makeError(Errc::invalid_argument, "the odd-even network compares whole keys: a bit range "
                                                     "(SortConfig::beginBit, endBit) takes radix4 or onesweep");
        Plan p = newPlan(Algorithm::oddeven, n, config);
        const uint32_t elemBytes = keyBytes(config.key) + valueBytes(config.values);

        // A window is one subgroup holding keysPerLane keys per lane; the tile step sorts aligned
        // tiles of that size. Tests may ask for smaller tiles so that small n reach every step kind.
        const tuning::OddEvenTuning t = tuningFor(config);
        const uint32_t subgroup = ctx_.info().subgroupSize;
        const uint32_t windowKeys = subgroup * t.keysPerLane;
        uint32_t tile = windowKeys;
        if (config.knobs.oddEvenTileKeys) {
            tile = config.knobs.oddEvenTileKeys;
            if (tile < 2 || (tile & (tile - 1)) || tile > windowKeys)
                return makeError(Errc::invalid_argument, "the odd-even tile must be a power of two from 2 to " +
                                                             std::to_string(windowKeys) + " on this device");
        }
        PlanParams pp;
        pp.tileKeys = tile;
        pp.subgroupSize = subgroup;
        pp.windowKeys = windowKeys;
        pp.keyBytes = keyBytes(config.key);
        pp.values = config.values != ValueType::none;
        pp.logMaxColumns = t.logMaxColumns;
        pp.perLayer = config.knobs.perLayer;
        p.steps = planSteps(n, pp);
        p.tileKeys = tile;
        for (auto& s : p.steps) p.needsTemp = p.needsTemp || s.keysAfter == KeyLocation::inKeysTemp();
        if (!p.steps.empty()) p.resultLocation = p.steps.back().keysAfter;

        // Bytes moved at least: every step reads and writes each present key (and value) once; a
        // window with halo reads its halo rows twice.
        double bytes = 0;
        for (auto& s : p.steps) {
            double amplification = 1.0;
            if (s.kind == StepKind::window && s.halo)
                amplification = 0.5 + 0.5 * (s.centreRows + 2.0 * s.halo) / s.centreRows;
            bytes += 2.0 * amplification * double(n) * elemBytes;
        }
        p.bytesMovedFloor = static_cast<uint64_t>(bytes);

        // Make every pipeline the plan binds now, so record() compiles nothing.
        p.pipelines.assign(kPipes, VK_NULL_HANDLE);
        for (auto& s : p.steps) {
            VkPipeline& slot = p.pipelines[pipeOf(s.kind)];
            if (slot) continue;
            auto pipe = pipelineFor(s.kind, config);
            if (!pipe) return pipe.error();
            slot = *pipe;
        }
        return p;
    }

    Result<void> recordSteps(VkCommandBuffer cmd, const Plan& plan, const DeviceBuffers& buf, size_t first, size_t last,
                             VkQueryPool timestamps, uint32_t firstQuery) const override {
        if (!hasPipelines(plan, kPipes)) return lostPipelines();
        for (size_t i = first; i < last; ++i)
            if (!plan.pipelines[pipeOf(plan.steps[i].kind)]) return lostPipelines();
        timestampBefore(cmd, timestamps, firstQuery);
        auto inTemp = [](const Step& s) { return s.keysAfter == KeyLocation::inKeysTemp(); };
        for (size_t i = first; i < last; ++i) {
            const Step& s = plan.steps[i];
            if (i > first) computeToCompute(cmd);
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, plan.pipelines[pipeOf(s.kind)]);
            const bool readsTemp = i > 0 && inTemp(plan.steps[i - 1]);
            const uint64_t inKeys = readsTemp ? buf.keysTemp.address : buf.keys.address,
                           inValues = readsTemp ? buf.valuesTemp.address : buf.values.address;
            const uint64_t outKeys = inTemp(s) ? buf.keysTemp.address : buf.keys.address;
            const uint64_t outValues = inTemp(s) ? buf.valuesTemp.address : buf.values.address;
            const FoldedGroups folded = foldGroups(s.workgroups, tuning::kMaxGroupsX);
            const uint32_t groupsX = folded.x, groupsY = folded.y;
            if (s.kind == StepKind::layer) {
                uint64_t k = uint64_t(1) << s.logKHi;
                LayerPush pc{inKeys, inValues, plan.n, (plan.n + 2 * k - 1) / (2 * k) * k, s.logP, s.logKHi, groupsX};
                vkCmdPushConstants(cmd, pipelines_.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
            } else {
                // "tile": merges 0..logP on aligned blocks of 2^(logP+1); "window": one merge.
                const bool tile = s.kind == StepKind::tile;
                const uint32_t logPFirst = tile ? 0 : s.logP;
                const uint64_t rowsPerBlock = uint64_t(2) << (s.logP - s.logKLo);
                const uint32_t segments = static_cast<uint32_t>((rowsPerBlock + s.centreRows - 1) / s.centreRows);
                WindowPush pc{inKeys,       inValues,     outKeys, outValues, plan.n,
                              rowsPerBlock, logPFirst,    s.logP,  s.logKHi,  s.logKLo,
                              s.logR,       s.centreRows, s.halo,  segments,  static_cast<uint32_t>(s.windows),
                              groupsX};
                vkCmdPushConstants(cmd, pipelines_.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
            }
            if (s.workgroups) vkCmdDispatch(cmd, groupsX, groupsY, 1);
            timestampAfter(cmd, timestamps, firstQuery, first, i);
        }
        return {};
    }

private:
    static tuning::OddEvenTuning tuningFor(const SortConfig& cfg) {
        return tuning::oddEven(keyBytes(cfg.key), cfg.values != ValueType::none);
    }

    Result<VkPipeline> pipelineFor(StepKind kind, const SortConfig& cfg) {
        const tuning::OddEvenTuning t = tuningFor(cfg);
        SpecValues spec{{SORTLAB_SPEC_KEY_KIND, static_cast<uint32_t>(keyKind(cfg.key))},
                        {SORTLAB_SPEC_DESCENDING, cfg.order == Order::descending ? 1u : 0u}};
        if (kind == StepKind::layer) {
            spec.push_back({SORTLAB_SPEC_WORKGROUP_SIZE, t.layerWorkgroup});
            return pipelineOf("oddeven_layer", cfg, spec);
        }
        spec.push_back({SORTLAB_SPEC_WORKGROUP_SIZE, t.warpWorkgroup});
        spec.push_back({SORTLAB_SPEC_KEYS_PER_LANE, t.keysPerLane});
        return pipelineOf("oddeven_warp", cfg, spec, subgroupSizeToPin(ctx_));
    }
};

} // namespace

std::unique_ptr<Sorter> makeOddEvenSorter(Context& ctx) {
    return std::make_unique<OddEvenSorter>(ctx);
}

} // namespace sortlab::oddeven
