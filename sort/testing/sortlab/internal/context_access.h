// What the tests may read and set of a Context: how Context::create made its instance and device,
// and the knob that pins every pipeline's subgroup size. Not part of the public API: the library's
// sources and its tests include this (the sortlab_sort_testing target); sortlab-bench does not,
// and nothing installs it.
#pragma once

#include <sortlab/context.h>

#include <string>
#include <vector>

namespace sortlab::internal {

// How Context::create made its instance and device: the instance's create flags and extensions,
// and the device's extensions. Empty for an adopted Context.
struct ContextSetup {
    std::vector<std::string> instanceExtensions, deviceExtensions;
    VkInstanceCreateFlags instanceFlags = 0;
};

struct ContextAccess {
    static ContextSetup setup(const Context& ctx) {
        return {ctx.instanceExtensions_, ctx.deviceExtensions_, ctx.instanceFlags_};
    }
    // Pipelines made from now on require the device's subgroup size (and full subgroups where the
    // device offers them) even where it cannot vary, as they do where it can (AMD, Intel): so that
    // lavapipe runs that path under validation. Only where the device lets compute pipelines
    // require a size (requiredSubgroupSizeStages).
    static void setAlwaysPinSubgroupSize(Context& ctx, bool on) { ctx.alwaysPinSubgroupSize_ = on; }
    static bool alwaysPinsSubgroupSize(const Context& ctx) { return ctx.alwaysPinSubgroupSize_; }
};
inline ContextSetup contextSetup(const Context& ctx) {
    return ContextAccess::setup(ctx);
}

} // namespace sortlab::internal
