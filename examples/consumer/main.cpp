// A consumer of the installed sortlab library (docs/library.md):
//  1. sortlab::sort and sortlab::sortPairs sort host arrays of every key type, checked here against
//     std::sort / std::stable_sort;
//  2. on a Vulkan device this program creates itself (its own features merged with the sorts' by
//     DeviceFeatures::addTo), the sort is recorded into its own command buffer between its own
//     upload and download (Sorter::plan and Sorter::record).
// Its own Vulkan calls are Vulkan's prototypes, linked to libvulkan (Vulkan::Vulkan); sortlab's
// entry points are its own and do not meet them.
// Exit 0 when every check passes, 1 otherwise; a one-line message on stderr for any error.
#include <sortlab/buffer.h>
#include <sortlab/context.h>
#include <sortlab/sortlab.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

namespace {

int failures = 0;
void expect(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "consumer: FAIL: %s\n", what);
        ++failures;
    }
}

template <class T> std::vector<T> randomKeys(size_t n, uint32_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<T> v(n);
    for (T& x : v) {
        if constexpr (std::is_floating_point_v<T>)
            x = T(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
        else
            x = T(rng() % 1000); // few distinct keys: stability shows
    }
    return v;
}

// 1. The one-call API.
template <class T> void oneCall(sortlab::Context& ctx, const char* type) {
    for (sortlab::Order order : {sortlab::Order::ascending, sortlab::Order::descending}) {
        const bool asc = order == sortlab::Order::ascending;
        auto keys = randomKeys<T>(100003, 7);
        auto want = keys;
        if (asc)
            std::sort(want.begin(), want.end());
        else
            std::sort(want.begin(), want.end(), std::greater<T>());
        auto r = sortlab::sort(ctx, std::span(keys), {.order = order});
        if (!r) {
            std::fprintf(stderr, "consumer: sort %s: %s\n", type, r.error().message.c_str());
            ++failures;
            continue;
        }
        expect(keys == want, "sortlab::sort");

        auto pk = randomKeys<T>(50001, 9);
        const auto input = pk;
        std::vector<uint32_t> values(pk.size());
        std::iota(values.begin(), values.end(), 0u);
        r = sortlab::sortPairs(ctx, std::span(pk), std::span(values), {.order = order});
        if (!r) {
            std::fprintf(stderr, "consumer: sortPairs %s: %s\n", type, r.error().message.c_str());
            ++failures;
            continue;
        }
        bool ok = true;
        for (size_t i = 0; i < pk.size(); ++i) {
            ok = ok && pk[i] == input[values[i]]; // each value came with its key
            if (i > 0)
                ok = ok && (asc ? pk[i - 1] <= pk[i] : pk[i - 1] >= pk[i]) &&
                     (pk[i - 1] != pk[i] || values[i - 1] < values[i]); // stable
        }
        expect(ok, "sortlab::sortPairs");
    }
    std::printf("one call: %s keys sorted, with and without values, both orders\n", type);
}

#define CHECK_VK(call)                                                                                                 \
    do {                                                                                                               \
        if (VkResult res_ = (call); res_ != VK_SUCCESS) {                                                              \
            std::fprintf(stderr, "consumer: %s failed (%d)\n", #call, int(res_));                                      \
            return 1;                                                                                                  \
        }                                                                                                              \
    } while (0)

// 2. Our own device; the sort recorded into our own command buffer.
int ownDevice() {
    auto instance = sortlab::createInstance(false);
    if (!instance) return std::fprintf(stderr, "consumer: %s\n", instance.error().message.c_str()), 1;
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(*instance, &count, nullptr);
    std::vector<VkPhysicalDevice> pds(count);
    vkEnumeratePhysicalDevices(*instance, &count, pds.data());
    if (pds.empty()) return std::fprintf(stderr, "consumer: no Vulkan device\n"), 1;
    VkPhysicalDevice pd = pds[0];
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &families, nullptr);
    std::vector<VkQueueFamilyProperties> fam(families);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &families, fam.data());
    uint32_t family = 0;
    while (family < families && !(fam[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
    // Our own features (timeline semaphores), and what the sorts need added to the same structs.
    VkPhysicalDeviceVulkan12Features ours{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    ours.timelineSemaphore = VK_TRUE;
    sortlab::DeviceFeatures features(*instance, pd, props.apiVersion);
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qi.queueFamilyIndex = family;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    VkDeviceCreateInfo di{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    di.pNext = &ours;
    di.queueCreateInfoCount = 1;
    di.pQueueCreateInfos = &qi;
    // shaderInt64, bufferDeviceAddress (into `ours`), the optional features, MoltenVK's extension.
    if (auto added = features.addTo(di); !added)
        return std::fprintf(stderr, "consumer: %s\n", added.error().message.c_str()), 1;
    VkDevice device = VK_NULL_HANDLE;
    CHECK_VK(vkCreateDevice(pd, &di, nullptr, &device));
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(device, family, 0, &queue);
    int rc = 0;
    {
        // With what the device enabled: the same pipelines as Context::create() would build.
        auto ctx = sortlab::Context::adopt({.instance = *instance,
                                            .physicalDevice = pd,
                                            .device = device,
                                            .queue = queue,
                                            .queueFamily = family,
                                            .enabled = features.enabled()});
        if (!ctx) return std::fprintf(stderr, "consumer: %s\n", ctx.error().message.c_str()), 1;
        auto sorter = sortlab::makeSorter(**ctx, sortlab::Algorithm::onesweep);
        if (!sorter) return std::fprintf(stderr, "consumer: %s\n", sorter.error().message.c_str()), 1;
        const uint64_t n = 1 << 18;
        sortlab::SortConfig cfg;
        cfg.key = sortlab::KeyType::u32;
        auto plan = (*sorter)->plan(n, cfg);
        if (!plan) return std::fprintf(stderr, "consumer: %s\n", plan.error().message.c_str()), 1;
        // Our buffers: the keys, the plan's temporaries and scratch, and a host-visible staging buffer.
        auto make = [&](uint64_t bytes, sortlab::MemoryKind kind) {
            return sortlab::Buffer::create(**ctx, bytes, kind, "the consumer's buffer");
        };
        const sortlab::StorageRequirements need = sortlab::storageRequirements(*plan);
        auto keys = make(n * 4, sortlab::MemoryKind::device), temp = make(need.keysTemp, sortlab::MemoryKind::device),
             scratch = make(need.scratch, sortlab::MemoryKind::device),
             staging = make(n * 4, sortlab::MemoryKind::upload), back = make(n * 4, sortlab::MemoryKind::readback);
        for (auto* b : {&keys, &temp, &scratch, &staging, &back})
            if (!*b) return std::fprintf(stderr, "consumer: %s\n", b->error().message.c_str()), 1;
        std::vector<uint32_t> input = randomKeys<uint32_t>(n, 11);
        std::memcpy(staging->mapped(), input.data(), n * 4);
        staging->flush();

        VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pi.queueFamilyIndex = family;
        VkCommandPool pool = VK_NULL_HANDLE;
        CHECK_VK(vkCreateCommandPool(device, &pi, nullptr, &pool));
        VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        ai.commandPool = pool;
        ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ai.commandBufferCount = 1;
        VkCommandBuffer cmd = VK_NULL_HANDLE;
        CHECK_VK(vkAllocateCommandBuffers(device, &ai, &cmd));
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        CHECK_VK(vkBeginCommandBuffer(cmd, &bi));
        auto barrier = [&](VkPipelineStageFlags from, VkAccessFlags fromAccess, VkPipelineStageFlags to,
                           VkAccessFlags toAccess) {
            VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, fromAccess, toAccess};
            vkCmdPipelineBarrier(cmd, from, to, 0, 1, &mb, 0, nullptr, 0, nullptr);
        };
        VkBufferCopy region{0, 0, n * 4};
        vkCmdCopyBuffer(cmd, staging->handle(), keys->handle(), 1, &region); // our upload
        barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
        sortlab::DeviceBuffers buffers; // each an address and a size: record() checks them
        buffers.keys = keys->range();
        buffers.keysTemp = temp->range();
        buffers.scratch = scratch->range();
        auto recorded = (*sorter)->record(cmd, *plan, buffers); // the whole sort, in our command buffer
        if (!recorded) return std::fprintf(stderr, "consumer: %s\n", recorded.error().message.c_str()), 1;
        barrier(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                VK_ACCESS_TRANSFER_READ_BIT);
        // Where the sorted keys are: keys or keysTemp (a scratch word the GPU writes only with
        // SortKnobs::resultInEither, which this program leaves off).
        expect(plan->resultLocation.kind != sortlab::KeyLocation::Kind::scratchWord,
               "the plan names the result's buffer");
        const sortlab::Buffer& result = plan->resultLocation == sortlab::KeyLocation::inKeysTemp() ? *temp : *keys;
        vkCmdCopyBuffer(cmd, result.handle(), back->handle(), 1, &region); // our download
        barrier(VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                VK_ACCESS_HOST_READ_BIT);
        CHECK_VK(vkEndCommandBuffer(cmd));
        VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VkFence fence = VK_NULL_HANDLE;
        CHECK_VK(vkCreateFence(device, &fi, nullptr, &fence));
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cmd;
        CHECK_VK(vkQueueSubmit(queue, 1, &si, fence));
        CHECK_VK(vkWaitForFences(device, 1, &fence, VK_TRUE, 60'000'000'000ull));
        back->invalidate();
        std::vector<uint32_t> got(n);
        std::memcpy(got.data(), back->mapped(), n * 4);
        std::sort(input.begin(), input.end());
        expect(got == input, "Sorter::record into our own command buffer");
        vkDestroyFence(device, fence, nullptr);
        vkDestroyCommandPool(device, pool, nullptr);
        std::printf("own device: %llu u32 keys sorted in our own command buffer on %s\n",
                    static_cast<unsigned long long>(n), props.deviceName);
    } // the context, the sorter and the buffers go before the device
    vkDestroyDevice(device, nullptr);
    vkDestroyInstance(*instance, nullptr);
    return rc;
}

} // namespace

int main() {
    auto ctx = sortlab::Context::create();
    if (!ctx) return std::fprintf(stderr, "consumer: %s\n", ctx.error().message.c_str()), 1;
    oneCall<uint32_t>(**ctx, "u32");
    oneCall<int32_t>(**ctx, "i32");
    oneCall<float>(**ctx, "f32");
    oneCall<uint64_t>(**ctx, "u64");
    oneCall<int64_t>(**ctx, "i64");
    oneCall<double>(**ctx, "f64");
    ctx->reset();
    if (ownDevice() != 0) return 1;
    if (failures) return std::fprintf(stderr, "consumer: %d checks failed\n", failures), 1;
    std::printf("consumer: every check passed\n");
    return 0;
}
