// [SECTION] The network and the CPU reference model
// [SECTION] The planner (which layers share a dispatch)
// [SECTION] The GPU sorter (pipelines, push constants, recording)
#include <sortlab/oddeven.h>

#include "pipelines.h"
#include "tuning.h"
#include "../../shaders/constants.h"

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
    auto bits = [&](Word w) -> uint64_t {
        if constexpr (sizeof(Word) == 4) return orderBits32(w, kind, order);
        else return orderBits64(w, kind, order);
    };
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

uint64_t applyLayers(std::span<std::byte> keys, std::span<uint32_t> values, KeyType type, Order order, uint64_t n,
                     size_t first, size_t last) {
    auto ls = layers(n);
    uint32_t* v = values.empty() ? nullptr : values.data();
    if (keyBytes(type) == 4) return applyTyped(reinterpret_cast<uint32_t*>(keys.data()), v, type, order, n, ls, first, last);
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
    double score = 1.0;  // layers per unit of cost (one read + one write of every key = 1)
};

// The best way to run the layers of merge 2^logP starting at stride 2^logK.
WindowChoice chooseGroup(uint32_t logP, uint32_t logK, const PlanParams& pp) {
    WindowChoice best; // a single global layer: cost 1, score 1
    for (uint32_t g = 2; g <= logK + 1; ++g) {
        uint32_t logKLo = logK - g + 1;
        uint32_t logR = std::min(logKLo, pp.logMaxColumns);
        uint64_t rowsPerBlock = uint64_t(2) << (logP - logKLo);
        uint64_t rowsCap = pp.windowElems >> logR;
        uint64_t centre = 0, halo = 0;
        if (rowsPerBlock <= rowsCap) {
            centre = rowsPerBlock; // the whole block: exact, no halo
        } else {
            if (logK == logP) continue; // the first layer of a merge pairs rows half a block apart
            halo = (uint64_t(1) << g) - 1; // sum of the strides, in rows
            if (rowsCap <= 2 * halo) continue;
            centre = rowsCap - 2 * halo;
            if (centre < halo) continue; // too little useful work per window
        }
        double efficiency = double(centre) / double(centre + 2 * halo);
        // One write of every key, a read amplified by the halo, and a small shared-memory cost
        // per fused layer.
        double cost = 0.5 + 0.5 / efficiency + 0.04 * g;
        double score = g / cost;
        if (score > best.score * 1.02) {
            best = {g, logR, static_cast<uint32_t>(centre), static_cast<uint32_t>(halo), score};
        }
    }
    return best;
}

} // namespace

std::vector<Step> planSteps(uint64_t n, const PlanParams& pp) {
    std::vector<Step> steps;
    const uint32_t depth = log2Ceil(n);
    if (n < 2) return steps;
    uint32_t layerIndex = 0;
    auto layerStep = [&](uint32_t logP, uint32_t logK) {
        Step s;
        s.kind = "layer";
        s.label = "merge " + pow2(logP + 1) + ", stride " + pow2(logK);
        s.firstLayer = layerIndex++;
        s.layerCount = 1;
        s.logP = logP;
        s.logKHi = s.logKLo = logK;
        uint64_t k = uint64_t(1) << logK;
        s.workgroups = ((n + 2 * k - 1) / (2 * k) * k + tuning::kOddEvenLayerWorkgroup - 1) /
                       tuning::kOddEvenLayerWorkgroup;
        steps.push_back(std::move(s));
    };
    if (pp.perLayer) {
        for (uint32_t logP = 0; logP < depth; ++logP)
            for (uint32_t logK = logP + 1; logK-- > 0;) layerStep(logP, logK);
        return steps;
    }

    uint32_t logTile = log2Ceil(pp.tileElems);
    uint32_t tileMerges = std::min(logTile, depth);
    {
        Step s;
        s.kind = "tile";
        s.logP = tileMerges;
        s.firstLayer = 0;
        s.layerCount = tileMerges * (tileMerges + 1) / 2;
        s.label = "tiles of " + pow2(logTile) + ": merges 2.." + pow2(tileMerges) + " (" +
                  std::to_string(s.layerCount) + " layers)";
        s.workgroups = (n + pp.tileElems - 1) / pp.tileElems;
        layerIndex = s.layerCount;
        steps.push_back(std::move(s));
    }
    for (uint32_t logP = tileMerges; logP < depth; ++logP) {
        int logK = static_cast<int>(logP);
        while (logK >= 0) {
            WindowChoice c = chooseGroup(logP, static_cast<uint32_t>(logK), pp);
            if (c.layers == 1) {
                layerStep(logP, static_cast<uint32_t>(logK));
                --logK;
                continue;
            }
            Step s;
            s.kind = "window";
            s.logP = logP;
            s.logKHi = static_cast<uint32_t>(logK);
            s.logKLo = static_cast<uint32_t>(logK) - c.layers + 1;
            s.logR = c.logR;
            s.centreRows = c.centreRows;
            s.halo = c.halo;
            s.firstLayer = layerIndex;
            s.layerCount = c.layers;
            layerIndex += c.layers;
            uint64_t blocks = (n + (uint64_t(2) << logP) - 1) >> (logP + 1);
            uint64_t rowsPerBlock = uint64_t(2) << (logP - s.logKLo);
            uint64_t segments = (rowsPerBlock + c.centreRows - 1) / c.centreRows;
            s.workgroups = blocks * (uint64_t(1) << (s.logKLo - s.logR)) * segments;
            s.label = "merge " + pow2(logP + 1) + ", strides " + pow2(s.logKHi) + ".." + pow2(s.logKLo) + " (" +
                      std::to_string(c.layers) + " layers" + (c.halo ? ", halo " + std::to_string(c.halo) + " rows" : "") +
                      ")";
            steps.push_back(std::move(s));
            logK -= static_cast<int>(c.layers);
        }
    }
    // Buffers: a window with halo reads rows its neighbours write, so it reads one buffer of the
    // pair and writes the other. The tile step may do the same at no cost (it rewrites every
    // key), so it takes the extra flip when the halo windows alone would leave the result in the
    // temporary buffer. Layer steps and windows without halo work in place.
    size_t flips = 0;
    for (auto& s : steps) flips += (s.kind == "window" && s.halo) ? 1 : 0;
    bool inTemp = false;
    for (auto& s : steps) {
        if ((s.kind == "window" && s.halo) || (s.kind == "tile" && flips % 2 == 1)) inTemp = !inTemp;
        s.resultInTemp = inTemp;
    }
    return steps;
}

// [SECTION] The GPU sorter ----------------------------------------------------------------------------

namespace {

struct LayerPush {
    uint64_t keys, values, n, slots;
    uint32_t logP, logK, groupsX;
};
struct TilePush {
    uint64_t keys, values, outKeys, outValues, n;
    uint32_t logPEnd, groupsX, tiles;
};
struct WindowPush {
    uint64_t keys, values, outKeys, outValues, n, rowsPerBlock;
    uint32_t logP, logKHi, logKLo, logR, centreRows, halo, segments, groupsX, workgroups;
};
static_assert(sizeof(WindowPush) <= kPushConstantBytes);

class OddEvenSorter final : public Sorter {
public:
    explicit OddEvenSorter(Context& ctx) : ctx_(ctx), pipelines_(ctx) {}
    Algorithm algorithm() const override { return Algorithm::oddeven; }

    Result<Plan> plan(uint64_t n, const SortConfig& config) override {
        Plan p;
        p.algorithm = Algorithm::oddeven;
        p.config = config;
        p.n = n;
        const uint32_t elemBytes = keyBytes(config.key) + valueBytes(config.values);
        if (n > (uint64_t(1) << 40))
            return makeError(Errc::too_large, "n = " + std::to_string(n) + " is beyond what sortlab indexes (2^40 keys)");

        // The shared-memory tile: what the device gives a workgroup, capped by tuning.
        uint32_t shared = ctx_.info().sharedMemoryBytes - tuning::kOddEvenSharedReserveBytes;
        uint32_t elems = std::min(tuning::kOddEvenMaxSharedElems, shared / elemBytes);
        uint32_t tile = 1;
        while (tile * 2 <= elems) tile *= 2;
        if (config.sharedElems) tile = config.sharedElems; // tests: small tiles reach every step kind
        if (tile < 64 || (tile & (tile - 1)))
            return makeError(Errc::invalid_argument, "the odd-even tile must be a power of two of at least 64");
        PlanParams pp;
        pp.tileElems = tile;
        pp.windowElems = tile;
        pp.logMaxColumns = tuning::kOddEvenLogMaxColumns;
        pp.perLayer = config.perLayer;
        p.steps = planSteps(n, pp);
        p.sharedElems = tile;
        for (auto& s : p.steps) p.needsTemp = p.needsTemp || s.resultInTemp;
        p.resultInTemp = !p.steps.empty() && p.steps.back().resultInTemp;

        // Bytes moved at least: every layer step reads and writes each present key (and value)
        // once; a window step reads its halo rows twice.
        double bytes = 0;
        for (auto& s : p.steps) {
            double amplification = 1.0;
            if (s.kind == "window" && s.halo) amplification = 0.5 + 0.5 * (s.centreRows + 2.0 * s.halo) / s.centreRows;
            bytes += 2.0 * amplification * double(n) * elemBytes;
        }
        p.bytesMovedFloor = static_cast<uint64_t>(bytes);

        // Prepare every pipeline the plan uses now, so record() cannot fail.
        for (auto& s : p.steps) {
            auto pipe = pipelineFor(s.kind, config, tile);
            if (!pipe) return pipe.error();
        }
        return p;
    }

    void record(VkCommandBuffer cmd, const Plan& plan, const DeviceBuffers& buf, size_t first, size_t last,
                VkQueryPool timestamps, uint32_t firstQuery) const override {
        last = std::min(last, plan.steps.size());
        const SortConfig& cfg = plan.config;
        if (timestamps && first < last)
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, timestamps, firstQuery);
        for (size_t i = first; i < last; ++i) {
            const Step& s = plan.steps[i];
            if (i > first) computeToCompute(cmd);
            VkPipeline pipe = const_cast<OddEvenSorter*>(this)->pipelineFor(s.kind, cfg, plan.sharedElems).value();
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
            const bool readsTemp = i > 0 && plan.steps[i - 1].resultInTemp;
            const uint64_t inKeys = readsTemp ? buf.keysTemp : buf.keys, inValues = readsTemp ? buf.valuesTemp : buf.values;
            const uint64_t outKeys = s.resultInTemp ? buf.keysTemp : buf.keys;
            const uint64_t outValues = s.resultInTemp ? buf.valuesTemp : buf.values;
            uint32_t groupsX = static_cast<uint32_t>(std::min<uint64_t>(s.workgroups, tuning::kMaxGroupsX));
            uint32_t groupsY = static_cast<uint32_t>((s.workgroups + groupsX - 1) / groupsX);
            if (s.kind == "layer") {
                uint64_t k = uint64_t(1) << s.logKHi;
                LayerPush pc{inKeys, inValues, plan.n, (plan.n + 2 * k - 1) / (2 * k) * k, s.logP, s.logKHi, groupsX};
                vkCmdPushConstants(cmd, pipelines_.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
            } else if (s.kind == "tile") {
                TilePush pc{inKeys, inValues, outKeys, outValues, plan.n, s.logP, groupsX, static_cast<uint32_t>(s.workgroups)};
                vkCmdPushConstants(cmd, pipelines_.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
            } else {
                uint64_t rowsPerBlock = uint64_t(2) << (s.logP - s.logKLo);
                uint32_t segments = static_cast<uint32_t>((rowsPerBlock + s.centreRows - 1) / s.centreRows);
                WindowPush pc{inKeys,     inValues,   outKeys,    outValues,    plan.n, rowsPerBlock, s.logP,
                              s.logKHi,   s.logKLo,   s.logR,     s.centreRows, s.halo,
                              segments,   groupsX,    static_cast<uint32_t>(s.workgroups)};
                vkCmdPushConstants(cmd, pipelines_.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
            }
            if (s.workgroups) vkCmdDispatch(cmd, groupsX, groupsY, 1);
            if (timestamps)
                vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, timestamps,
                                    firstQuery + static_cast<uint32_t>(i - first) + 1);
        }
    }

private:
    Result<VkPipeline> pipelineFor(const std::string& kind, const SortConfig& cfg, uint32_t sharedElems) {
        SpecValues spec{{SORTLAB_SPEC_KEY_KIND, static_cast<uint32_t>(keyKind(cfg.key))},
                        {SORTLAB_SPEC_DESCENDING, cfg.order == Order::descending ? 1u : 0u}};
        if (kind == "layer") {
            spec.push_back({SORTLAB_SPEC_WORKGROUP_SIZE, tuning::kOddEvenLayerWorkgroup});
        } else {
            spec.push_back({SORTLAB_SPEC_WORKGROUP_SIZE, tuning::kOddEvenSharedWorkgroup});
            spec.push_back({SORTLAB_SPEC_SHARED_ELEMS, sharedElems});
        }
        return pipelines_.get("oddeven_" + kind, keyBytes(cfg.key) / 4, cfg.values != ValueType::none, spec);
    }

    Context& ctx_;
    PipelineCache pipelines_;
};

} // namespace

std::unique_ptr<Sorter> makeOddEvenSorter(Context& ctx) { return std::make_unique<OddEvenSorter>(ctx); }

} // namespace sortlab::oddeven
