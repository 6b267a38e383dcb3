#include "pipelines.h"

#include <sortlab/internal/pipeline_statistics.h>
#include <sortlab/shaders/constants.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace sortlab {

namespace internal {
std::optional<PipelineStatistic> decodeStatistic(const VkPipelineExecutableStatisticKHR& st) {
    PipelineStatistic p;
    p.name = std::string(st.name, strnlen(st.name, VK_MAX_DESCRIPTION_SIZE));
    p.description = std::string(st.description, strnlen(st.description, VK_MAX_DESCRIPTION_SIZE));
    switch (st.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
        p.format = PipelineStatistic::Format::boolean, p.b = st.value.b32 != VK_FALSE;
        break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
        p.format = PipelineStatistic::Format::int64, p.i = st.value.i64;
        break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
        p.format = PipelineStatistic::Format::uint64, p.u = st.value.u64;
        break;
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
        p.format = PipelineStatistic::Format::float64, p.f = st.value.f64;
        break;
    default:
        return std::nullopt; // a format newer than this code
    }
    return p;
}
} // namespace internal

double PipelineStatistic::value() const {
    switch (format) {
    case Format::boolean:
        return b ? 1 : 0;
    case Format::int64:
        return double(i);
    case Format::uint64:
        return double(u);
    case Format::float64:
        return f;
    }
    return 0;
}

bool PipelineStatistic::bytes() const {
    auto endsWith = [](const std::string& s, const char* tail) {
        const size_t n = std::strlen(tail);
        return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
    };
    auto mentions = [](const std::string& s, const char* word) { return s.find(word) != std::string::npos; };
    return format != Format::boolean && (endsWith(name, "Size") || mentions(name, "bytes") || mentions(name, "Bytes") ||
                                         mentions(description, "bytes"));
}

std::string PipelineStatistic::text() const {
    char buf[64];
    switch (format) {
    case Format::boolean:
        return b ? "yes" : "no";
    case Format::float64:
        std::snprintf(buf, sizeof buf, "%g", f);
        return buf;
    case Format::int64:
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(i));
        break;
    case Format::uint64:
        std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(u));
        break;
    }
    if (!bytes()) return buf;
    // Whole binary units where the value is one (2^36 bytes: "64 GiB (68719476736 bytes)").
    const uint64_t v = format == Format::uint64 ? u : uint64_t(i < 0 ? 0 : i);
    static const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
    for (int k = 3; k >= 0; --k) {
        const uint64_t unit = uint64_t(1) << (10 * (k + 1));
        if (v >= unit && v % unit == 0 && (format == Format::uint64 || i >= 0)) {
            char whole[96];
            std::snprintf(whole, sizeof whole, "%llu %s (%s bytes)", static_cast<unsigned long long>(v / unit),
                          units[k], buf);
            return whole;
        }
    }
    return std::string(buf) + " bytes";
}

namespace {
// " (spec 0=512 1=18)": the specialization constants, which set a pipeline's tile and options.
std::string specText(const SpecValues& spec) {
    if (spec.empty()) return {};
    std::string out = " (spec";
    for (auto [id, value] : spec) out += " " + std::to_string(id) + "=" + std::to_string(value);
    return out + ")";
}
} // namespace

// The driver's statistics of a pipeline (none where it offers none); SORTLAB_PIPELINE_STATS=1 also
// prints them on stderr as the pipeline is made.
PipelineStatistics PipelineCache::statisticsOf(VkPipeline pipeline, const std::string& name) const {
    PipelineStatistics out{name, {}};
    if (!ctx_.pipelineStats()) return out;
    VkPipelineExecutableInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    info.pipeline = pipeline;
    info.executableIndex = 0;
    uint32_t count = 0;
    if (vkGetPipelineExecutableStatisticsKHR(ctx_.device(), &info, &count, nullptr) != VK_SUCCESS) return out;
    std::vector<VkPipelineExecutableStatisticKHR> stats(count, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    if (vkGetPipelineExecutableStatisticsKHR(ctx_.device(), &info, &count, stats.data()) != VK_SUCCESS) return out;
    for (const auto& st : stats)
        if (auto p = internal::decodeStatistic(st)) out.stats.push_back(std::move(*p));
    if (std::getenv("SORTLAB_PIPELINE_STATS")) {
        std::fprintf(stderr, "[pipeline] %s:", name.c_str());
        for (const auto& p : out.stats) std::fprintf(stderr, " %s=%s", p.name.c_str(), p.text().c_str());
        std::fprintf(stderr, "\n");
        for (const auto& p : out.stats)
            std::fprintf(stderr, "[pipeline]   %s: %s\n", p.name.c_str(), p.description.c_str());
    }
    return out;
}

PipelineCache::~PipelineCache() {
    std::vector<VkPipeline> pipelines;
    std::vector<VkShaderModule> modules;
    for (auto& [key, p] : pipelines_) pipelines.push_back(p);
    ctx_.forgetPipelines(pipelines); // a later pipeline may get the same handle
    for (auto& [key, m] : modules_) modules.push_back(m);
    ctx_.destroyWhenIdle([pipelines, modules, layout = layout_](VkDevice d) {
        for (VkPipeline p : pipelines) vkDestroyPipeline(d, p, nullptr);
        for (VkShaderModule m : modules) vkDestroyShaderModule(d, m, nullptr);
        if (layout) vkDestroyPipelineLayout(d, layout, nullptr);
    });
}

Result<void> PipelineCache::ensureLayout() {
    if (layout_) return {};
    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushConstantBytes};
    VkPipelineLayoutCreateInfo li{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    li.pushConstantRangeCount = 1;
    li.pPushConstantRanges = &range;
    SORTLAB_VK(vkCreatePipelineLayout(ctx_.device(), &li, nullptr, &layout_), "vkCreatePipelineLayout");
    return {};
}

std::string moduleName(const std::string& shader, uint32_t keyWords, bool hasValues) {
    return shader + ".k" + std::to_string(keyWords) + ".v" + (hasValues ? "1" : "0");
}

const SpirvBlob* findEmbeddedShader(const std::string& module) {
    for (auto& b : embeddedShaders())
        if (module == b.name) return &b;
    return nullptr;
}

Result<VkPipeline> PipelineCache::get(const std::string& shader, uint32_t keyWords, bool hasValues,
                                      const SpecValues& spec, uint32_t requiredSubgroupSize) {
    // A required size holds workgroups of at most that many lanes times maxComputeWorkgroupSubgroups
    // (lavapipe: 32 subgroups, 256 invocations at 8 lanes, below its 1024). A larger workgroup runs
    // unpinned, at the device's subgroupSize, as a SPIR-V 1.5 module does.
    for (auto& [id, value] : spec)
        if (id == SORTLAB_SPEC_WORKGROUP_SIZE && requiredSubgroupSize &&
            uint64_t(value) > uint64_t(requiredSubgroupSize) * ctx_.info().maxComputeWorkgroupSubgroups)
            requiredSubgroupSize = 0;
    const std::string name = moduleName(shader, keyWords, hasValues);
    auto key = std::make_tuple(name, spec, requiredSubgroupSize);
    // Every lookup is a use (the sorters look up the pipelines a plan binds as they plan it): the
    // Context lists them for sortlab-bench --pipeline-stats.
    auto describe = [&](VkPipeline p) {
        return [this, p, label = name + specText(spec)] { return statisticsOf(p, label); };
    };
    if (auto it = pipelines_.find(key); it != pipelines_.end()) {
        ctx_.notePipelineUse(it->second, describe(it->second));
        return it->second;
    }
    SORTLAB_TRY(ensureLayout());

    VkShaderModule module = VK_NULL_HANDLE;
    if (auto it = modules_.find(name); it != modules_.end()) {
        module = it->second;
    } else {
        const SpirvBlob* blob = findEmbeddedShader(name);
        if (!blob) return makeError(Errc::invalid_argument, "no embedded shader named " + name);
        VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        mi.codeSize = blob->count * 4;
        mi.pCode = blob->words;
        SORTLAB_VK(vkCreateShaderModule(ctx_.device(), &mi, nullptr, &module), "vkCreateShaderModule " + name);
        modules_[name] = module;
    }

    std::vector<VkSpecializationMapEntry> entries;
    std::vector<uint32_t> data;
    for (auto& [id, value] : spec) {
        entries.push_back({id, static_cast<uint32_t>(data.size() * 4), 4});
        data.push_back(value);
    }
    VkSpecializationInfo si{};
    si.mapEntryCount = static_cast<uint32_t>(entries.size());
    si.pMapEntries = entries.data();
    si.dataSize = data.size() * 4;
    si.pData = data.data();

    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo sizeInfo{
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
    sizeInfo.requiredSubgroupSize = requiredSubgroupSize;
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = module;
    ci.stage.pName = "main";
    ci.stage.pSpecializationInfo = &si;
    if (requiredSubgroupSize) {
        ci.stage.pNext = &sizeInfo;
        // With the size pinned, also ask for full subgroups where the device can promise them
        // (a workgroup whose size is a multiple of the subgroup size then has no partial one).
        if (ctx_.fullSubgroups()) ci.stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    }
    ci.layout = layout_;
    if (ctx_.pipelineStats()) ci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    VkPipeline pipeline = VK_NULL_HANDLE;
    SORTLAB_VK(vkCreateComputePipelines(ctx_.device(), ctx_.pipelineCache(), 1, &ci, nullptr, &pipeline),
               "creating the compute pipeline " + name);
    ++ctx_.pipelinesCreated_;
    pipelines_[key] = pipeline;
    ctx_.notePipelineUse(pipeline, describe(pipeline));
    return pipeline;
}

} // namespace sortlab
