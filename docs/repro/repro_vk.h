/* What the two lavapipe reproductions share (lavapipe_lanes.c, lavapipe_width_cache.c): a checked
 * Vulkan call, lavapipe's device with one queue, memory, a shader module, and one command buffer
 * run to its end. Header-only, so that each reproduction still builds with one cc command. */
#ifndef REPRO_VK_H
#define REPRO_VK_H

#include <vulkan/vulkan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A Vulkan call that must succeed; otherwise its name and result on stderr, and exit status 2. */
#define CHECK(x)                                                                                                       \
    do {                                                                                                               \
        VkResult r_ = (x);                                                                                             \
        if (r_ != VK_SUCCESS) {                                                                                        \
            fprintf(stderr, "%s failed: %d\n", #x, (int)r_);                                                           \
            exit(2);                                                                                                   \
        }                                                                                                              \
    } while (0)

struct repro_device {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
};

/* An instance of Vulkan `api`, lavapipe's physical device ("llvmpipe" in its name; exit status 2
 * where there is none), and a device with one queue of family 0 (lavapipe has one family, graphics
 * and compute). */
static struct repro_device repro_open(uint32_t api) {
    struct repro_device d = {0};
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = api;
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    CHECK(vkCreateInstance(&ici, NULL, &d.instance));
    uint32_t n = 8;
    VkPhysicalDevice pds[8];
    VkResult listed = vkEnumeratePhysicalDevices(d.instance, &n, pds);
    if (listed != VK_INCOMPLETE) CHECK(listed);
    for (uint32_t i = 0; i < n && !d.physical; ++i) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(pds[i], &props);
        if (strstr(props.deviceName, "llvmpipe")) d.physical = pds[i];
    }
    if (!d.physical) {
        fprintf(stderr, "no lavapipe device\n");
        exit(2);
    }
    float prio = 1;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueCount = 1;
    qci.pQueuePriorities = &prio;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    CHECK(vkCreateDevice(d.physical, &dci, NULL, &d.device));
    vkGetDeviceQueue(d.device, 0, 0, &d.queue);
    return d;
}

/* Memory of the first type the object allows (lavapipe: each type is host-visible), bound to the
 * buffer or, where `buffer` is VK_NULL_HANDLE, to the image. */
static VkDeviceMemory repro_bound_memory(VkDevice dev, VkBuffer buffer, VkImage image) {
    VkMemoryRequirements req;
    if (buffer)
        vkGetBufferMemoryRequirements(dev, buffer, &req);
    else
        vkGetImageMemoryRequirements(dev, image, &req);
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = (uint32_t)__builtin_ctz(req.memoryTypeBits);
    VkDeviceMemory mem;
    CHECK(vkAllocateMemory(dev, &mai, NULL, &mem));
    CHECK(buffer ? vkBindBufferMemory(dev, buffer, mem, 0) : vkBindImageMemory(dev, image, mem, 0));
    return mem;
}

static VkShaderModule repro_shader(VkDevice dev, const uint32_t* code, size_t bytes) {
    VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = bytes;
    smci.pCode = code;
    VkShaderModule module;
    CHECK(vkCreateShaderModule(dev, &smci, NULL, &module));
    return module;
}

/* A new command pool's one command buffer, begun. */
static VkCommandBuffer repro_begin(VkDevice dev, VkCommandPool* pool) {
    VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    CHECK(vkCreateCommandPool(dev, &cpci, NULL, pool));
    VkCommandBufferAllocateInfo cbai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = *pool;
    cbai.commandBufferCount = 1;
    VkCommandBuffer cmd;
    CHECK(vkAllocateCommandBuffers(dev, &cbai, &cmd));
    VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK(vkBeginCommandBuffer(cmd, &bi));
    return cmd;
}

/* The command buffer ended, submitted, and waited for. */
static void repro_run(VkQueue queue, VkCommandBuffer cmd) {
    CHECK(vkEndCommandBuffer(cmd));
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    CHECK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
    CHECK(vkQueueWaitIdle(queue));
}

#endif
