/* lavapipe (Mesa 22.3): how many subgroup lanes it runs correctly (docs/platforms.md, "Subgroup sizes").
 *
 * lavapipe's subgroup size is LP_NATIVE_VECTOR_WIDTH / 32, whatever the width asked for. This runs
 * lavapipe_lanes.comp on 4 workgroups of 128 invocations, without sortlab, and checks each
 * invocation's lane, gl_SubgroupSize and the count of a ballot of `true` against the subgroup size
 * the device reports (the Vulkan set-up is repro_vk.h's, shared with lavapipe_width_cache.c). Build
 * and run (Debian 12: mesa-vulkan-drivers, libvulkan-dev, glslc):
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
#include "repro_vk.h"

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
    if (fread(code, 1, sz, f) != (size_t)sz) {
        printf("lavapipe_lanes.spv: cannot read it\n");
        return 2;
    }
    fclose(f);
    struct repro_device d = repro_open(VK_API_VERSION_1_2);
    VkDevice dev = d.device;
    VkPhysicalDeviceSubgroupProperties sg = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &sg};
    vkGetPhysicalDeviceProperties2(d.physical, &p2);

    /* One storage buffer: 4 words an invocation, mapped. */
    const uint32_t N = 512;
    VkDeviceSize bytes = N * 16;
    VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = bytes;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    VkBuffer buf;
    CHECK(vkCreateBuffer(dev, &bci, NULL, &buf));
    VkDeviceMemory mem = repro_bound_memory(dev, buf, VK_NULL_HANDLE);
    uint32_t* out;
    CHECK(vkMapMemory(dev, mem, 0, bytes, 0, (void**)&out));
    for (uint32_t i = 0; i < N * 4; ++i) out[i] = 0xdeadbeef;

    /* The compute pipeline and its one descriptor set, the buffer at binding 0. */
    VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT};
    VkDescriptorSetLayoutCreateInfo dl = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dl.bindingCount = 1;
    dl.pBindings = &b;
    VkDescriptorSetLayout dsl;
    CHECK(vkCreateDescriptorSetLayout(dev, &dl, NULL, &dsl));
    VkPipelineLayoutCreateInfo pl = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pl.setLayoutCount = 1;
    pl.pSetLayouts = &dsl;
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(dev, &pl, NULL, &layout));
    VkComputePipelineCreateInfo cpi = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpi.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpi.stage.module = repro_shader(dev, code, sz);
    cpi.stage.pName = "main";
    cpi.layout = layout;
    VkPipeline pipe;
    CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpi, NULL, &pipe));
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo dpi = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpi.maxSets = 1;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &ps;
    VkDescriptorPool pool;
    CHECK(vkCreateDescriptorPool(dev, &dpi, NULL, &pool));
    VkDescriptorSetAllocateInfo dai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dai.descriptorPool = pool;
    dai.descriptorSetCount = 1;
    dai.pSetLayouts = &dsl;
    VkDescriptorSet set;
    CHECK(vkAllocateDescriptorSets(dev, &dai, &set));
    VkDescriptorBufferInfo dbi = {buf, 0, bytes};
    VkWriteDescriptorSet w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    w.dstSet = set;
    w.descriptorCount = 1;
    w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w.pBufferInfo = &dbi;
    vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);

    VkCommandPool cp;
    VkCommandBuffer cb = repro_begin(dev, &cp);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(cb, N / 128, 1, 1);
    repro_run(d.queue, cb);

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
