/* lavapipe (Mesa 22.3): how many subgroup lanes it runs correctly (docs/platforms.md, "Subgroup sizes").
 *
 * lavapipe's subgroup size is LP_NATIVE_VECTOR_WIDTH / 32, whatever the width asked for. This runs
 * lavapipe_lanes.comp on 4 workgroups of 128 invocations, without sortlab, and checks each
 * invocation's lane, gl_SubgroupSize and the count of a ballot of `true` against the subgroup size
 * the device reports. Build and run (Debian 12: mesa-vulkan-drivers, libvulkan-dev, glslc):
 *
 *   glslc --target-env=vulkan1.2 -o lavapipe_lanes.spv lavapipe_lanes.comp
 *   cc -O2 -o lavapipe_lanes lavapipe_lanes.c -lvulkan
 *   for w in 128 256 512 1024 2048; do LP_NATIVE_VECTOR_WIDTH=$w ./lavapipe_lanes; done
 *
 * Here (an AVX-512 CPU): 128, 256 and 512 bits (4, 8, 16 lanes) are right; at 1024 and 2048 bits
 * the device reports 32 and 64 lanes and gl_SubgroupSize agrees, but every ballot counts 16 lanes
 * (exit status 1). llvmpipe's largest vector is 512 bits (LP_MAX_VECTOR_WIDTH in gallivm), so 16
 * lanes is the most sortlab can be tested at on lavapipe.
 */
#include <vulkan/vulkan.h>
#include <stdio.h>
#include <stdlib.h>
#define CK(x)                                                                                                          \
    do {                                                                                                               \
        VkResult r_ = (x);                                                                                             \
        if (r_) {                                                                                                      \
            printf("%s: %d\n", #x, r_);                                                                                \
            return 2;                                                                                                  \
        }                                                                                                              \
    } while (0)
int main(void) {
    FILE* f = fopen("lavapipe_lanes.spv", "rb");
    if (!f) {
        printf("lavapipe_lanes.spv: not found (see the header)\n");
        return 2;
    }
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    rewind(f);
    uint32_t* code = malloc(sz);
    fread(code, 1, sz, f);
    fclose(f);
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    VkInstance inst;
    CK(vkCreateInstance(&ici, NULL, &inst));
    uint32_t n = 1;
    VkPhysicalDevice pd;
    vkEnumeratePhysicalDevices(inst, &n, &pd);
    VkPhysicalDeviceSubgroupProperties sg = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &sg};
    vkGetPhysicalDeviceProperties2(pd, &p2);
    float prio = 1;
    VkDeviceQueueCreateInfo qi = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qi.queueCount = 1;
    qi.pQueuePriorities = &prio;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qi;
    VkDevice dev;
    CK(vkCreateDevice(pd, &dci, NULL, &dev));
    VkQueue q;
    vkGetDeviceQueue(dev, 0, 0, &q);
    const uint32_t N = 512;
    VkDeviceSize bytes = N * 16;
    VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = bytes;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    VkBuffer buf;
    CK(vkCreateBuffer(dev, &bci, NULL, &buf));
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(dev, buf, &mr);
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = mr.size;
    mai.memoryTypeIndex = 0;
    VkDeviceMemory mem;
    CK(vkAllocateMemory(dev, &mai, NULL, &mem));
    CK(vkBindBufferMemory(dev, buf, mem, 0));
    uint32_t* out;
    CK(vkMapMemory(dev, mem, 0, bytes, 0, (void**)&out));
    for (uint32_t i = 0; i < N * 4; ++i) out[i] = 0xdeadbeef;
    VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT};
    VkDescriptorSetLayoutCreateInfo dl = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dl.bindingCount = 1;
    dl.pBindings = &b;
    VkDescriptorSetLayout dsl;
    CK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &dsl));
    VkPipelineLayoutCreateInfo pl = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pl.setLayoutCount = 1;
    pl.pSetLayouts = &dsl;
    VkPipelineLayout layout;
    CK(vkCreatePipelineLayout(dev, &pl, NULL, &layout));
    VkShaderModuleCreateInfo smi = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smi.codeSize = sz;
    smi.pCode = code;
    VkShaderModule sm;
    CK(vkCreateShaderModule(dev, &smi, NULL, &sm));
    VkComputePipelineCreateInfo cpi = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpi.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpi.stage.module = sm;
    cpi.stage.pName = "main";
    cpi.layout = layout;
    VkPipeline pipe;
    CK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpi, NULL, &pipe));
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo dpi = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpi.maxSets = 1;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &ps;
    VkDescriptorPool pool;
    CK(vkCreateDescriptorPool(dev, &dpi, NULL, &pool));
    VkDescriptorSetAllocateInfo dai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dai.descriptorPool = pool;
    dai.descriptorSetCount = 1;
    dai.pSetLayouts = &dsl;
    VkDescriptorSet set;
    CK(vkAllocateDescriptorSets(dev, &dai, &set));
    VkDescriptorBufferInfo dbi = {buf, 0, bytes};
    VkWriteDescriptorSet w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = set;
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.pBufferInfo = &dbi;
    vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);
    VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    VkCommandPool cp;
    CK(vkCreateCommandPool(dev, &cpci, NULL, &cp));
    VkCommandBufferAllocateInfo cbai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = cp;
    cbai.commandBufferCount = 1;
    VkCommandBuffer cb;
    CK(vkAllocateCommandBuffers(dev, &cbai, &cb));
    VkCommandBufferBeginInfo cbbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CK(vkBeginCommandBuffer(cb, &cbbi));
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(cb, N / 128, 1, 1);
    CK(vkEndCommandBuffer(cb));
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    CK(vkQueueSubmit(q, 1, &si, VK_NULL_HANDLE));
    CK(vkQueueWaitIdle(q));
    uint32_t S = sg.subgroupSize, bad = 0;
    for (uint32_t i = 0; i < N; ++i) {
        uint32_t* e = out + 4 * i;
        if (e[0] != (i % 128) % S || e[1] != S || e[2] != S || e[3] != 3 * i + 1) {
            if (bad < 4)
                printf("invocation %u: lane %u size %u ballot %u arith %u (want %u %u %u %u)\n", i, e[0], e[1], e[2],
                       e[3], (i % 128) % S, S, S, 3 * i + 1);
            ++bad;
        }
    }
    printf("%s: subgroupSize %u, %u of %u invocations wrong\n", p2.properties.deviceName, S, bad, N);
    return bad ? 1 : 0;
}
