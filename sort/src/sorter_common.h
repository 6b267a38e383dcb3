// What the GPU sorters share around their own steps: the context and pipeline cache they plan
// with, a plan's start and its pipelines, the range record() may record, and the radix sorts'
// result step.
#pragma once

#include "pipelines.h"

#include <sortlab/sorter.h>
#include <sortlab/internal/tuning.h>

#include <algorithm>
#include <span>
#include <string>
#include <utility>

namespace sortlab {

class PipelineSorter : public Sorter {
protected:
    explicit PipelineSorter(Context& ctx) : ctx_(ctx), pipelines_(ctx) {}
    const DeviceInfo& device() const override { return ctx_.info(); }

    // The pipeline of `shader` for the configuration's key width and values.
    Result<VkPipeline> pipelineOf(const std::string& shader, const SortConfig& cfg, const SpecValues& spec,
                                  uint32_t requiredSubgroupSize = 0) {
        return pipelines_.get(shader, keyBytes(cfg.key) / 4, cfg.values != ValueType::none, spec, requiredSubgroupSize);
    }

    // Binds `pipeline` and dispatches `groups` workgroups of it with `pc`, folded into rows of at most
    // tuning::kMaxGroupsX (the radix kernels' push constants).
    template <class Push>
    void dispatchPipeline(VkCommandBuffer cmd, VkPipeline pipeline, Push& pc, uint64_t groups) const {
        dispatchFolded(cmd, pipelines_.layout(), pipeline, pc, groups, tuning::kMaxGroupsX);
    }

    Context& ctx_;
    PipelineCache pipelines_;
};

// The step a radix sort's snapshot after `stepsDone` steps shows the buffers of: none before the
// first step, past the plan's end, or after the result step (the keys alone are then the story).
inline const Step* radixSnapshotStep(const Plan& plan, size_t stepsDone) {
    if (stepsDone == 0 || stepsDone > plan.steps.size()) return nullptr;
    const Step& s = plan.steps[stepsDone - 1];
    return s.kind == StepKind::result ? nullptr : &s;
}

// A plan of `algorithm` for n keys, with no steps yet.
inline Plan newPlan(Algorithm algorithm, uint64_t n, const SortConfig& config) {
    Plan p;
    p.algorithm = algorithm;
    p.config = config;
    p.n = n;
    return p;
}

// The plan with the pipeline of every shader it binds, in Plan::pipelines order (preparePipelines),
// or the first error.
template <class F> Result<Plan> withPipelines(Plan p, std::span<const char* const> shaders, F&& pipelineFor) {
    auto pipelines = preparePipelines(shaders, std::forward<F>(pipelineFor));
    if (!pipelines) return pipelines.error();
    p.pipelines = std::move(*pipelines);
    return p;
}

// Whether a plan (that Sorter::record checked was this sorter's) has the pipelines of `shaders`
// shaders: plan() made them; a plan edited by hand may have lost them.
inline bool hasPipelines(const Plan& plan, size_t shaders) {
    return plan.pipelines.size() == shaders;
}
inline Error lostPipelines() {
    return makeError(Errc::invalid_argument, "record: the plan lacks the pipelines plan() made for it");
}

// The radix sorts' last step: the result copied back into `keys` where an odd number of passes ran
// (the GPU knows); none with resultInEither, where the last pass's scratch word says where the
// result is. Then where the plan leaves the sorted keys.
inline void addResultStep(Plan& p, uint64_t workgroups, uint32_t passes) {
    if (!p.config.knobs.resultInEither) {
        Step r;
        r.kind = StepKind::result;
        r.label = "result: copy back if an odd number of passes ran";
        r.workgroups = workgroups;
        r.pass = passes;
        p.steps.push_back(r);
    }
    p.resultLocation = p.steps.back().keysAfter;
}

} // namespace sortlab
