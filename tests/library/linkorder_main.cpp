// One program, two translation units: plain_vulkan.cpp (Vulkan's prototypes, linked to libvulkan)
// and this one (sortlab). tests/library.cmake links it in both orders, and with the renderer as a
// shared library. The renderer calls Vulkan first, before sortlab has loaded anything (with
// sortlab's loader defining vkEnumerateInstanceVersion, that call jumped to a null pointer), then
// sortlab sorts with validation on, then the renderer again. Exit 0 and "both paths ran" when all
// of it works.
#include "plain_vulkan.h"

#include <sortlab/sortlab.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

int main() {
    std::string names;
    const int before = plainVulkanDevices(&names);
    if (before < 1) return std::fprintf(stderr, "linkorder: the renderer's Vulkan failed (%d)\n", before), 1;
    std::printf("renderer (libvulkan): %d device(s): %s\n", before, names.c_str());

    sortlab::ContextOptions options;
    options.validation = true;
    auto ctx = sortlab::Context::create(options);
    if (!ctx) return std::fprintf(stderr, "linkorder: %s\n", ctx.error().message.c_str()), 1;
    std::mt19937 rng(3);
    std::vector<uint32_t> keys(200'000);
    for (auto& k : keys) k = rng();
    auto want = keys;
    std::sort(want.begin(), want.end());
    if (auto r = sortlab::sort(**ctx, std::span(keys)); !r)
        return std::fprintf(stderr, "linkorder: %s\n", r.error().message.c_str()), 1;
    if (keys != want) return std::fprintf(stderr, "linkorder: sortlab's keys are not sorted\n"), 1;
    if ((*ctx)->validationMessageCount() != 0) return std::fprintf(stderr, "linkorder: validation messages\n"), 1;
    std::printf("sortlab: %zu keys sorted on %s\n", keys.size(), (*ctx)->info().name.c_str());

    std::string again;
    if (plainVulkanDevices(&again) != before || again != names)
        return std::fprintf(stderr, "linkorder: the renderer's second look found other devices\n"), 1;
    std::printf("both paths ran\n");
    return 0;
}
