/* lavapipe (Mesa 22.3): vertex code cached at one vector width is run at another.
 *
 * The smallest reproduction of sortlab's issue 31 (docs/app.md, "4-lane lavapipe"): one triangle
 * drawn into a 64x64 image on lavapipe, with no window and nothing of sortlab (the Vulkan set-up is
 * repro_vk.h's, shared with lavapipe_lanes.c). Build and run
 * (Debian 12: mesa-vulkan-drivers, libvulkan-dev; a CPU with AVX, where lavapipe's default is 8
 * lanes = 256 bits):
 *
 *   cc -O2 -o lavapipe_width_cache lavapipe_width_cache.c -lvulkan
 *   export MESA_SHADER_CACHE_DIR=$(mktemp -d)
 *   ./lavapipe_width_cache                             # 8 lanes: compiles, caches the draw code; ok
 *   LP_NATIVE_VECTOR_WIDTH=128 ./lavapipe_width_cache  # 4 lanes: loads the 8-lane code; aborts
 *
 * The second run aborts in glibc ("double free or corruption (!prev)"; in sortlab also "malloc():
 * invalid next size", "corrupted size vs. prev_size" or a segfault). llvmpipe's draw module sizes
 * the vertex shader's output for batches of lp_native_vector_width / 32 = 4 vertices (3 vertices:
 * room for 4), while the cached code, compiled at 256 bits, writes 8 a batch: 4 vertices past the
 * end. The shader cache's key (the shader, the draw state, the CPU) has no vector width in it.
 * The 16 varyings make a vertex large enough (292 bytes) for the overrun to get past the 512 bytes
 * of padding that the draw module allocates after the buffer; with one varying nothing shows.
 * Under valgrind (both runs under it: valgrind's CPU has no AVX-512, and llvmpipe's cache is per
 * CPU) the second run reports invalid writes from the JIT code just past a 1,680-byte block that
 * libvulkan_lvp.so allocated (4 x 292 + 512; 8 vertices need 2,336), then valgrind's own heap
 * breaks.
 *
 * Each of these prints "ok" instead: the second run with MESA_SHADER_CACHE_DISABLE=true, or with a
 * fresh MESA_SHADER_CACHE_DIR, or the two runs in the other order (4-lane code in an 8-lane
 * buffer fits).
 */
#include "repro_vk.h"

/* The vertex shader, glslc -O -mfmt=c of:
 *   #version 450
 *   layout(location = 0) out vec4 v[16];
 *   void main() {
 *       for (int i = 0; i < 16; ++i) v[i] = vec4(float(i + gl_VertexIndex));
 *       gl_Position = vec4(float(gl_VertexIndex & 1) * 4.0 - 1.0, float(gl_VertexIndex >> 1) * 4.0 - 1.0, 0.0, 1.0);
 *   }
 */
static const uint32_t vert[] = {
    0x07230203, 0x00010000, 0x000d000b, 0x00000040, 0x00000000, 0x00020011, 0x00000001, 0x0006000b, 0x00000001,
    0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000, 0x0003000e, 0x00000000, 0x00000001, 0x0008000f, 0x00000000,
    0x00000004, 0x6e69616d, 0x00000000, 0x00000019, 0x0000001d, 0x0000002b, 0x00040047, 0x00000019, 0x0000001e,
    0x00000000, 0x00040047, 0x0000001d, 0x0000000b, 0x0000002a, 0x00050048, 0x00000029, 0x00000000, 0x0000000b,
    0x00000000, 0x00050048, 0x00000029, 0x00000001, 0x0000000b, 0x00000001, 0x00050048, 0x00000029, 0x00000002,
    0x0000000b, 0x00000003, 0x00050048, 0x00000029, 0x00000003, 0x0000000b, 0x00000004, 0x00030047, 0x00000029,
    0x00000002, 0x00020013, 0x00000002, 0x00030021, 0x00000003, 0x00000002, 0x00040015, 0x00000006, 0x00000020,
    0x00000001, 0x0004002b, 0x00000006, 0x00000009, 0x00000000, 0x0004002b, 0x00000006, 0x00000010, 0x00000010,
    0x00020014, 0x00000011, 0x00030016, 0x00000013, 0x00000020, 0x00040017, 0x00000014, 0x00000013, 0x00000004,
    0x00040015, 0x00000015, 0x00000020, 0x00000000, 0x0004002b, 0x00000015, 0x00000016, 0x00000010, 0x0004001c,
    0x00000017, 0x00000014, 0x00000016, 0x00040020, 0x00000018, 0x00000003, 0x00000017, 0x0004003b, 0x00000018,
    0x00000019, 0x00000003, 0x00040020, 0x0000001c, 0x00000001, 0x00000006, 0x0004003b, 0x0000001c, 0x0000001d,
    0x00000001, 0x00040020, 0x00000022, 0x00000003, 0x00000014, 0x0004002b, 0x00000006, 0x00000025, 0x00000001,
    0x0004002b, 0x00000015, 0x00000027, 0x00000001, 0x0004001c, 0x00000028, 0x00000013, 0x00000027, 0x0006001e,
    0x00000029, 0x00000014, 0x00000013, 0x00000028, 0x00000028, 0x00040020, 0x0000002a, 0x00000003, 0x00000029,
    0x0004003b, 0x0000002a, 0x0000002b, 0x00000003, 0x0004002b, 0x00000013, 0x0000002f, 0x40800000, 0x0004002b,
    0x00000013, 0x00000031, 0x3f800000, 0x0004002b, 0x00000013, 0x00000038, 0x00000000, 0x0004002b, 0x00000013,
    0x0000003f, 0xbf800000, 0x00050036, 0x00000002, 0x00000004, 0x00000000, 0x00000003, 0x000200f8, 0x00000005,
    0x000200f9, 0x0000000a, 0x000200f8, 0x0000000a, 0x000700f5, 0x00000006, 0x0000003b, 0x00000009, 0x00000005,
    0x00000026, 0x0000000b, 0x000500b1, 0x00000011, 0x00000012, 0x0000003b, 0x00000010, 0x000400f6, 0x0000000c,
    0x0000000b, 0x00000000, 0x000400fa, 0x00000012, 0x0000000b, 0x0000000c, 0x000200f8, 0x0000000b, 0x0004003d,
    0x00000006, 0x0000001e, 0x0000001d, 0x00050080, 0x00000006, 0x0000001f, 0x0000003b, 0x0000001e, 0x0004006f,
    0x00000013, 0x00000020, 0x0000001f, 0x00070050, 0x00000014, 0x00000021, 0x00000020, 0x00000020, 0x00000020,
    0x00000020, 0x00050041, 0x00000022, 0x00000023, 0x00000019, 0x0000003b, 0x0003003e, 0x00000023, 0x00000021,
    0x00050080, 0x00000006, 0x00000026, 0x0000003b, 0x00000025, 0x000200f9, 0x0000000a, 0x000200f8, 0x0000000c,
    0x0004003d, 0x00000006, 0x0000002c, 0x0000001d, 0x000500c7, 0x00000006, 0x0000002d, 0x0000002c, 0x00000025,
    0x0004006f, 0x00000013, 0x0000002e, 0x0000002d, 0x0008000c, 0x00000013, 0x00000032, 0x00000001, 0x00000032,
    0x0000002e, 0x0000002f, 0x0000003f, 0x000500c3, 0x00000006, 0x00000034, 0x0000002c, 0x00000025, 0x0004006f,
    0x00000013, 0x00000035, 0x00000034, 0x0008000c, 0x00000013, 0x00000037, 0x00000001, 0x00000032, 0x00000035,
    0x0000002f, 0x0000003f, 0x00070050, 0x00000014, 0x00000039, 0x00000032, 0x00000037, 0x00000038, 0x00000031,
    0x00050041, 0x00000022, 0x0000003a, 0x0000002b, 0x00000009, 0x0003003e, 0x0000003a, 0x00000039, 0x000100fd,
    0x00010038};

/* The fragment shader, glslc -O -mfmt=c of:
 *   #version 450
 *   layout(location = 0) in vec4 v[16];
 *   layout(location = 0) out vec4 colour;
 *   void main() {
 *       vec4 s = vec4(0.0);
 *       for (int i = 0; i < 16; ++i) s += v[i];
 *       colour = s;
 *   }
 */
static const uint32_t frag[] = {
    0x07230203, 0x00010000, 0x000d000b, 0x0000002c, 0x00000000, 0x00020011, 0x00000001, 0x0006000b, 0x00000001,
    0x4c534c47, 0x6474732e, 0x3035342e, 0x00000000, 0x0003000e, 0x00000000, 0x00000001, 0x0007000f, 0x00000004,
    0x00000004, 0x6e69616d, 0x00000000, 0x0000001d, 0x00000028, 0x00030010, 0x00000004, 0x00000007, 0x00040047,
    0x0000001d, 0x0000001e, 0x00000000, 0x00040047, 0x00000028, 0x0000001e, 0x00000000, 0x00020013, 0x00000002,
    0x00030021, 0x00000003, 0x00000002, 0x00030016, 0x00000006, 0x00000020, 0x00040017, 0x00000007, 0x00000006,
    0x00000004, 0x0004002b, 0x00000006, 0x0000000a, 0x00000000, 0x0007002c, 0x00000007, 0x0000000b, 0x0000000a,
    0x0000000a, 0x0000000a, 0x0000000a, 0x00040015, 0x0000000c, 0x00000020, 0x00000001, 0x0004002b, 0x0000000c,
    0x0000000f, 0x00000000, 0x0004002b, 0x0000000c, 0x00000016, 0x00000010, 0x00020014, 0x00000017, 0x00040015,
    0x00000019, 0x00000020, 0x00000000, 0x0004002b, 0x00000019, 0x0000001a, 0x00000010, 0x0004001c, 0x0000001b,
    0x00000007, 0x0000001a, 0x00040020, 0x0000001c, 0x00000001, 0x0000001b, 0x0004003b, 0x0000001c, 0x0000001d,
    0x00000001, 0x00040020, 0x0000001f, 0x00000001, 0x00000007, 0x0004002b, 0x0000000c, 0x00000025, 0x00000001,
    0x00040020, 0x00000027, 0x00000003, 0x00000007, 0x0004003b, 0x00000027, 0x00000028, 0x00000003, 0x00050036,
    0x00000002, 0x00000004, 0x00000000, 0x00000003, 0x000200f8, 0x00000005, 0x000200f9, 0x00000010, 0x000200f8,
    0x00000010, 0x000700f5, 0x00000007, 0x0000002b, 0x0000000b, 0x00000005, 0x00000023, 0x00000011, 0x000700f5,
    0x0000000c, 0x0000002a, 0x0000000f, 0x00000005, 0x00000026, 0x00000011, 0x000500b1, 0x00000017, 0x00000018,
    0x0000002a, 0x00000016, 0x000400f6, 0x00000012, 0x00000011, 0x00000000, 0x000400fa, 0x00000018, 0x00000011,
    0x00000012, 0x000200f8, 0x00000011, 0x00050041, 0x0000001f, 0x00000020, 0x0000001d, 0x0000002a, 0x0004003d,
    0x00000007, 0x00000021, 0x00000020, 0x00050081, 0x00000007, 0x00000023, 0x0000002b, 0x00000021, 0x00050080,
    0x0000000c, 0x00000026, 0x0000002a, 0x00000025, 0x000200f9, 0x00000010, 0x000200f8, 0x00000012, 0x0003003e,
    0x00000028, 0x0000002b, 0x000100fd, 0x00010038};

int main(void) {
    struct repro_device d = repro_open(VK_API_VERSION_1_1);
    VkDevice dev = d.device;
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(d.physical, &props);
    printf("%s\n", props.deviceName);

    /* A 64x64 colour target in device memory (lavapipe: any type will do). */
    VkImageCreateInfo imci = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    imci.imageType = VK_IMAGE_TYPE_2D;
    imci.format = VK_FORMAT_R8G8B8A8_UNORM;
    imci.extent = (VkExtent3D){64, 64, 1};
    imci.mipLevels = imci.arrayLayers = 1;
    imci.samples = VK_SAMPLE_COUNT_1_BIT;
    imci.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    VkImage image;
    CHECK(vkCreateImage(dev, &imci, NULL, &image));
    VkDeviceMemory mem = repro_bound_memory(dev, VK_NULL_HANDLE, image);
    VkImageViewCreateInfo vci = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = imci.format;
    vci.subresourceRange = (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view;
    CHECK(vkCreateImageView(dev, &vci, NULL, &view));

    VkAttachmentDescription att = {0,
                                   imci.format,
                                   VK_SAMPLE_COUNT_1_BIT,
                                   VK_ATTACHMENT_LOAD_OP_CLEAR,
                                   VK_ATTACHMENT_STORE_OP_STORE,
                                   VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                   VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                   VK_IMAGE_LAYOUT_UNDEFINED,
                                   VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription sub = {0, VK_PIPELINE_BIND_POINT_GRAPHICS};
    sub.colorAttachmentCount = 1;
    sub.pColorAttachments = &ref;
    VkRenderPassCreateInfo rpci = {VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    rpci.attachmentCount = 1;
    rpci.pAttachments = &att;
    rpci.subpassCount = 1;
    rpci.pSubpasses = &sub;
    VkRenderPass rp;
    CHECK(vkCreateRenderPass(dev, &rpci, NULL, &rp));
    VkFramebufferCreateInfo fci = {VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fci.renderPass = rp;
    fci.attachmentCount = 1;
    fci.pAttachments = &view;
    fci.width = fci.height = 64;
    fci.layers = 1;
    VkFramebuffer fb;
    CHECK(vkCreateFramebuffer(dev, &fci, NULL, &fb));

    VkShaderModule vs = repro_shader(dev, vert, sizeof vert), fs = repro_shader(dev, frag, sizeof frag);
    VkPipelineShaderStageCreateInfo stages[2] = {
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main"},
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main"}};
    VkPipelineVertexInputStateCreateInfo vin = {VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia = {VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkViewport vp = {0, 0, 64, 64, 0, 1};
    VkRect2D sc = {{0, 0}, {64, 64}};
    VkPipelineViewportStateCreateInfo vps = {VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    vps.viewportCount = 1;
    vps.pViewports = &vp;
    vps.scissorCount = 1;
    vps.pScissors = &sc;
    VkPipelineRasterizationStateCreateInfo rs = {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.lineWidth = 1;
    VkPipelineMultisampleStateCreateInfo ms = {VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState cba = {0};
    cba.colorWriteMask = 0xf;
    VkPipelineColorBlendStateCreateInfo cb = {VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = 1;
    cb.pAttachments = &cba;
    VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
    VkGraphicsPipelineCreateInfo gpci = {VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    gpci.stageCount = 2;
    gpci.pStages = stages;
    gpci.pVertexInputState = &vin;
    gpci.pInputAssemblyState = &ia;
    gpci.pViewportState = &vps;
    gpci.pRasterizationState = &rs;
    gpci.pMultisampleState = &ms;
    gpci.pColorBlendState = &cb;
    gpci.layout = layout;
    gpci.renderPass = rp;
    VkPipeline pipe;
    CHECK(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, NULL, &pipe));

    VkCommandPool pool;
    VkCommandBuffer cmd = repro_begin(dev, &pool);
    VkClearValue clear = {{{0, 0, 0, 1}}};
    VkRenderPassBeginInfo rpbi = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    rpbi.renderPass = rp;
    rpbi.framebuffer = fb;
    rpbi.renderArea = sc;
    rpbi.clearValueCount = 1;
    rpbi.pClearValues = &clear;
    vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
    vkCmdDraw(cmd, 3, 1, 0, 0); /* 3 vertices: room for 4 */
    vkCmdEndRenderPass(cmd);
    repro_run(d.queue, cmd);

    vkDestroyCommandPool(dev, pool, NULL);
    vkDestroyPipeline(dev, pipe, NULL);
    vkDestroyPipelineLayout(dev, layout, NULL);
    vkDestroyShaderModule(dev, vs, NULL);
    vkDestroyShaderModule(dev, fs, NULL);
    vkDestroyFramebuffer(dev, fb, NULL);
    vkDestroyRenderPass(dev, rp, NULL);
    vkDestroyImageView(dev, view, NULL);
    vkDestroyImage(dev, image, NULL);
    vkFreeMemory(dev, mem, NULL);
    vkDestroyDevice(dev, NULL);
    vkDestroyInstance(d.instance, NULL);
    printf("ok\n");
    return 0;
}
