// What the GPU sorters share around their own steps: the context and pipeline cache they plan
// with, a plan's start and its pipelines, the range record() may record, and the radix sorts'
// result step.
#pragma once

#include "pipelines.h"

#include <sortlab/sorter.h>
#include <sortlab/internal/tuning.h>

#include <sortlab/shaders/constants.h>

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

    // Indirect plans (Sorter::planIndirect): one dispatch size indirect_count.comp writes from the
    // GPU's count n: clamp(ceil(n / perGroup), least, most) workgroups, folded into rows as
    // dispatchPipeline folds `most` (so the kernels' groupsX stays the host's).
    struct IndirectSize {
        uint32_t perGroup = 1;
        uint64_t least = 0, most = 0;
    };
    // Where indirect_count.comp writes (scratch word `word` on) in scratchBuffer, for
    // vkCmdDispatchIndirect; invalid_argument where scratch does not start in scratchBuffer.
    struct IndirectArgs {
        VkBuffer buffer = VK_NULL_HANDLE;
        VkDeviceSize offset = 0; // of the scratch word `word`
    };
    Result<IndirectArgs> indirectArgs(const DeviceBuffers& buf, uint32_t word) const {
        VkBufferDeviceAddressInfo info{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
        info.buffer = buf.scratchBuffer;
        const VkDeviceAddress base = vkGetBufferDeviceAddress(ctx_.device(), &info);
        if (base == 0 || buf.scratch.address < base)
            return makeError(Errc::invalid_argument,
                             "record: DeviceBuffers::scratch does not lie in "
                             "DeviceBuffers::scratchBuffer (its address is below the buffer's)");
        return IndirectArgs{buf.scratchBuffer, buf.scratch.address - base + uint64_t(word) * 4};
    }
    // Records indirect_count.comp (pipeline `setup`): the count, clamped to maxN, and `sizes` into
    // the scratch words from `word` on; then the barrier from those writes to the dispatches that
    // read them (as indirect arguments and in the kernels).
    void recordIndirectCount(VkCommandBuffer cmd, VkPipeline setup, const DeviceBuffers& buf, uint32_t word,
                             uint64_t maxN, std::span<const IndirectSize> sizes) const {
        struct {
            uint64_t count, out, maxN;
            uint32_t sizes, pad;
            uint32_t size[SORTLAB_IND_MAX_SIZES][4];
        } pc{buf.count.address, buf.scratch.address + uint64_t(word) * 4, maxN, 0, 0, {}};
        static_assert(sizeof pc <= kPushConstantBytes);
        for (const IndirectSize& s : sizes.first(std::min<size_t>(sizes.size(), SORTLAB_IND_MAX_SIZES))) {
            const uint32_t most = static_cast<uint32_t>(s.most);
            pc.size[pc.sizes++][0] = s.perGroup;
            pc.size[pc.sizes - 1][1] = static_cast<uint32_t>(std::min(s.least, s.most));
            pc.size[pc.sizes - 1][2] = most;
            pc.size[pc.sizes - 1][3] = std::max(1u, foldGroups(s.most, tuning::kMaxGroupsX).x);
        }
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, setup);
        vkCmdPushConstants(cmd, pipelines_.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
        vkCmdDispatch(cmd, 1, 1, 1);
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0,
                             nullptr, 0, nullptr);
    }
    // dispatchPipeline's indirect form: the workgroups of dispatch size `size` (the one written
    // with `most` = plannedGroups), groupsX as dispatchPipeline sets it for plannedGroups.
    template <class Push>
    void dispatchIndirect(VkCommandBuffer cmd, VkPipeline pipeline, Push& pc, uint64_t plannedGroups,
                          const IndirectArgs& args, uint32_t size) const {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        pc.groupsX = foldGroups(plannedGroups, tuning::kMaxGroupsX).x;
        vkCmdPushConstants(cmd, pipelines_.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
        vkCmdDispatchIndirect(cmd, args.buffer, args.offset + (SORTLAB_IND_SIZES + 4 * uint64_t(size)) * 4);
    }

    // dispatchPipeline for a direct plan; for an indirect one, dispatchIndirect of size `size`.
    template <class Push>
    void dispatchSized(VkCommandBuffer cmd, const Plan& plan, VkPipeline pipeline, Push& pc, uint64_t groups,
                       const IndirectArgs& args, uint32_t size) const {
        if (plan.indirect)
            dispatchIndirect(cmd, pipeline, pc, groups, args, size);
        else
            dispatchPipeline(cmd, pipeline, pc, groups);
    }

    // missing_feature unless the device runs the 8-bit radix kernels (OneSweep's, the hybrid's):
    // subgroup ballot, arithmetic, shuffle and vote in compute shaders, subgroups of 4 or more.
    Result<void> needsRadixSubgroups(const char* sort) const {
        const DeviceInfo& dev = ctx_.info();
        constexpr uint32_t needed = VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT |
                                    VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT;
        if ((dev.subgroupOps & needed) != needed || dev.subgroupSize < 4)
            return makeError(Errc::missing_feature, std::string(sort) +
                                                        " needs subgroup ballot, arithmetic, shuffle and vote "
                                                        "operations in compute shaders and subgroups of 4 or more; " +
                                                        dev.name + " does not offer them");
        return {};
    }

    Context& ctx_;
    PipelineCache pipelines_;
};

// The addresses and key count a radix kernel's push constants start with (fields keys, keysTemp,
// values, valuesTemp, scratch and n), the scratch `scratchOffset` bytes into the plan's scratch.
template <class Push> void setBuffers(Push& pc, const DeviceBuffers& buf, uint64_t n, uint64_t scratchOffset = 0) {
    pc.keys = buf.keys.address;
    pc.keysTemp = buf.keysTemp.address;
    pc.values = buf.values.address;
    pc.valuesTemp = buf.valuesTemp.address;
    pc.scratch = buf.scratch.address + scratchOffset;
    pc.n = n;
}

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
    return plan.pipelines.size() == shaders + (plan.indirect ? 1 : 0); // (indirect: indirect_count last)
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
