// [SECTION] Instance and device
// [SECTION] Swapchain
// [SECTION] ImGui backends
// [SECTION] Frames
// [SECTION] Capture to PNG
#include <sortlab/renderer/renderer.h>

#include <sortlab/context.h>

#define GLFW_INCLUDE_NONE
#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>

#include <stb_image_write.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace sortlab::gfx {
namespace {

PFN_vkVoidFunction loadImGuiFunction(const char* name, void* instance) {
    return vkGetInstanceProcAddr(static_cast<VkInstance>(instance), name);
}

} // namespace

// [SECTION] Instance and device ---------------------------------------------------------------------

Result<std::unique_ptr<Renderer>> Renderer::create(GLFWwindow* window, const RendererOptions& options) {
    std::unique_ptr<Renderer> r(new Renderer());
    r->window_ = window;
    r->vsync_ = options.vsync;
    SORTLAB_TRY(r->createInstance(options));
    SORTLAB_TRY(r->pickDevice(options));
    SORTLAB_TRY(r->createDevice());
    SORTLAB_TRY(r->createSwapchain());
    return r;
}

Result<void> Renderer::createInstance(const RendererOptions& o) {
    if (volkInitialize() != VK_SUCCESS)
        return makeError(Errc::no_vulkan, "no Vulkan loader found (libvulkan.so.1); install libvulkan1 and a driver "
                                          "(mesa-vulkan-drivers for the CPU driver, or your GPU vendor's)");
    if (!glfwVulkanSupported())
        return makeError(Errc::no_vulkan, "GLFW cannot use Vulkan here (no loader or no window-system support)");
    uint32_t glfwCount = 0;
    const char** glfwExts = glfwGetRequiredInstanceExtensions(&glfwCount);
    if (!glfwExts)
        return makeError(Errc::no_vulkan, "the Vulkan loader offers no surface extension for this window system; "
                                          "install mesa-vulkan-drivers or your GPU vendor's driver");
    auto instance = sortlab::createInstance(o.validation, std::vector<const char*>(glfwExts, glfwExts + glfwCount));
    if (!instance) return instance.error();
    instance_ = *instance;
    if (o.validation) {
        auto messenger = createDebugMessenger(instance_, &Renderer::debugCallback, this);
        if (!messenger) return messenger.error();
        messenger_ = *messenger;
    }
    SORTLAB_VK(glfwCreateWindowSurface(instance_, window_, nullptr, &surface_), "glfwCreateWindowSurface");
    return {};
}

Result<void> Renderer::pickDevice(const RendererOptions& o) {
    // The library's own inspection says which devices can run the sorts (same enumeration order).
    auto infos = Context::listDevices();
    if (!infos) return infos.error();
    volkLoadInstance(instance_); // listDevices loaded (and destroyed) an instance of its own
    uint32_t count = 0;
    SORTLAB_VK(vkEnumeratePhysicalDevices(instance_, &count, nullptr), "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> pds(count);
    SORTLAB_VK(vkEnumeratePhysicalDevices(instance_, &count, pds.data()), "vkEnumeratePhysicalDevices");
    if (pds.empty() || infos->empty())
        return makeError(Errc::no_device, "Vulkan found no device; install mesa-vulkan-drivers (CPU driver lavapipe) "
                                          "or your GPU vendor's driver");

    // The queue family that draws, computes and presents to this window (none: the device cannot).
    auto presentFamily = [&](VkPhysicalDevice pd) -> std::optional<uint32_t> {
        uint32_t fc = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &fc, nullptr);
        std::vector<VkQueueFamilyProperties> fams(fc);
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &fc, fams.data());
        for (uint32_t f = 0; f < fc; ++f) {
            VkBool32 present = VK_FALSE;
            vkGetPhysicalDeviceSurfaceSupportKHR(pd, f, surface_, &present);
            const VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
            if (present && (fams[f].queueFlags & need) == need) return f;
        }
        return std::nullopt;
    };
    // A device fits when the library can sort on it (chooseDevice checks that), it has a swapchain
    // and one queue family draws, computes and presents to this window.
    auto fits = [&](const DeviceInfo& d, std::string* why) {
        if (d.index >= pds.size()) {
            *why = "is not in this instance's list";
            return false;
        }
        if (!deviceHasExtension(pds[d.index], VK_KHR_SWAPCHAIN_EXTENSION_NAME)) {
            *why = "has no swapchain extension";
            return false;
        }
        if (!presentFamily(pds[d.index])) {
            *why = "has no queue that draws, computes and presents to this window";
            return false;
        }
        return true;
    };
    auto index = chooseDevice(*infos, o.device, fits, "the app");
    if (!index) return index.error();
    const uint32_t chosen = *index;
    family_ = *presentFamily(pds[chosen]); // fits() found one
    physical_ = pds[chosen];
    deviceName_ = (*infos)[chosen].name;
    apiVersion_ = (*infos)[chosen].apiVersion;
    // Fewer lanes than lavapipe's usual 8 (LP_NATIVE_VECTOR_WIDTH=128 gives 4): see createDevice.
    narrowLavapipe_ = (*infos)[chosen].isLavapipe && (*infos)[chosen].subgroupSize < 8;
    return {};
}

Result<void> Renderer::createDevice() {
    // The features the sort library needs (see Context::adopt), and the optional ones it uses.
    DeviceFeatures features(physical_, apiVersion_);
    // The swapchain; addTo adds what the library says every device must enable (the portability
    // subset on a portability implementation such as MoltenVK).
    std::vector<const char*> exts = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
    const float priority = 1.0f;
    const VkDeviceQueueCreateInfo qi{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                     .queueFamilyIndex = family_,
                                     .queueCount = 1,
                                     .pQueuePriorities = &priority};
    VkDeviceCreateInfo di{.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                          .queueCreateInfoCount = 1,
                          .pQueueCreateInfos = &qi,
                          .enabledExtensionCount = static_cast<uint32_t>(exts.size()),
                          .ppEnabledExtensionNames = exts.data()};
    SORTLAB_TRY(features.addTo(di));
    enabled_ = features.enabled(); // for the Contexts that adopt the device: the same pipelines as create()
    // Mesa's llvmpipe (22.3 here) keys its on-disk shader cache by the shader and the CPU, not by
    // its vector width. A lavapipe narrower than the usual 8 lanes (what every other process on an
    // AVX CPU compiles for) then loads 8-lane vertex code for ImGui's draws and runs it on vertex
    // buffers sized for 4-vertex batches: heap corruption in the first frames (issue 31; the
    // reproduction without sortlab is in docs/app.md, "4-lane lavapipe"). Such a device gets no
    // disk cache in this process: Mesa reads the variable in vkCreateDevice, below, and no thread
    // of ours runs yet. Chosen by the device (lavapipe, subgroup size), not by how it was made
    // narrow. (Compute showed no such problem: the sorts check out on 4 lanes from 8-lane entries.)
#ifdef _WIN32
    if (narrowLavapipe_) _putenv_s("MESA_SHADER_CACHE_DISABLE", "true");
#else
    if (narrowLavapipe_) setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
#endif
    SORTLAB_VK(vkCreateDevice(physical_, &di, nullptr, &device_), "vkCreateDevice");
    vkGetDeviceQueue(device_, family_, 0, &queue_);

    for (auto& f : frames_) {
        VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pi.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
        pi.queueFamilyIndex = family_;
        SORTLAB_VK(vkCreateCommandPool(device_, &pi, nullptr, &f.pool), "vkCreateCommandPool");
        VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        ai.commandPool = f.pool;
        ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ai.commandBufferCount = 1;
        SORTLAB_VK(vkAllocateCommandBuffers(device_, &ai, &f.cmd), "vkAllocateCommandBuffers");
        VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        fi.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        SORTLAB_VK(vkCreateFence(device_, &fi, nullptr, &f.fence), "vkCreateFence");
        VkSemaphoreCreateInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        SORTLAB_VK(vkCreateSemaphore(device_, &si, nullptr, &f.acquired), "vkCreateSemaphore");
    }

    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16}};
    VkDescriptorPoolCreateInfo dp{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dp.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    dp.maxSets = 16;
    dp.poolSizeCount = 1;
    dp.pPoolSizes = sizes;
    SORTLAB_VK(vkCreateDescriptorPool(device_, &dp, nullptr, &descriptorPool_), "vkCreateDescriptorPool");
    return {};
}

VkResult Renderer::submit(const VkSubmitInfo& info, VkFence fence) {
    std::lock_guard<std::mutex> lock(queueMutex_);
    return vkQueueSubmit(queue_, 1, &info, fence);
}

Renderer::~Renderer() {
    if (device_) {
        for (auto& f : frames_)
            if (f.fence) vkWaitForFences(device_, 1, &f.fence, VK_TRUE, UINT64_MAX);
        vkDeviceWaitIdle(device_);
        shutdownImGui();
        destroySwapchainViews();
        for (auto s : renderDone_) vkDestroySemaphore(device_, s, nullptr);
        if (swapchain_) vkDestroySwapchainKHR(device_, swapchain_, nullptr);
        if (renderPass_) vkDestroyRenderPass(device_, renderPass_, nullptr);
        if (descriptorPool_) vkDestroyDescriptorPool(device_, descriptorPool_, nullptr);
        for (auto& f : frames_) {
            if (f.fence) vkDestroyFence(device_, f.fence, nullptr);
            if (f.acquired) vkDestroySemaphore(device_, f.acquired, nullptr);
            if (f.pool) vkDestroyCommandPool(device_, f.pool, nullptr);
        }
        if (captureBuffer_) vkDestroyBuffer(device_, captureBuffer_, nullptr);
        if (captureMemory_) vkFreeMemory(device_, captureMemory_, nullptr);
        vkDestroyDevice(device_, nullptr);
    }
    if (instance_) {
        if (surface_) vkDestroySurfaceKHR(instance_, surface_, nullptr);
        if (messenger_) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
        vkDestroyInstance(instance_, nullptr);
    }
}

VkBool32 VKAPI_PTR Renderer::debugCallback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                           VkDebugUtilsMessageTypeFlagsEXT,
                                           const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    auto* self = static_cast<Renderer*>(user);
    const char* kind = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error" : "warning";
    std::fprintf(stderr, "[validation] %s: %s\n", kind, data && data->pMessage ? data->pMessage : "(no message)");
    self->validationMessages_++;
    return VK_FALSE;
}

Result<uint32_t> Renderer::memoryType(uint32_t bits, VkMemoryPropertyFlags flags) const {
    VkPhysicalDeviceMemoryProperties mem;
    vkGetPhysicalDeviceMemoryProperties(physical_, &mem);
    for (uint32_t i = 0; i < mem.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (mem.memoryTypes[i].propertyFlags & flags) == flags) return i;
    return makeError(Errc::missing_feature, "no host-visible memory type for the window capture");
}

// [SECTION] Swapchain ------------------------------------------------------------------------------

// The semaphores that presentation waits on are kept (renderDone_) and used again by the next
// swapchain: no fence tells when a present's wait has happened, so only the device's idle wait
// at the end makes them safe to destroy (destroyed on a resize, the validation layers found one
// still in use now and then).
void Renderer::destroySwapchainViews() {
    for (auto fb : framebuffers_) vkDestroyFramebuffer(device_, fb, nullptr);
    for (auto v : views_) vkDestroyImageView(device_, v, nullptr);
    framebuffers_.clear();
    views_.clear();
}

// The surface's image format (UNORM: ImGui's colours are written as they are, as in its own
// examples) and the present mode (FIFO; without vsync MAILBOX or IMMEDIATE where offered). Once.
Result<void> Renderer::chooseSurfaceFormat() {
    uint32_t n = 0;
    vkGetPhysicalDeviceSurfaceFormatsKHR(physical_, surface_, &n, nullptr);
    std::vector<VkSurfaceFormatKHR> formats(n);
    vkGetPhysicalDeviceSurfaceFormatsKHR(physical_, surface_, &n, formats.data());
    if (formats.empty()) return makeError(Errc::missing_feature, "the window surface offers no image format");
    format_ = formats[0];
    for (auto f : formats)
        if ((f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM) &&
            f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) {
            format_ = f;
            break;
        }
    uint32_t pm = 0;
    vkGetPhysicalDeviceSurfacePresentModesKHR(physical_, surface_, &pm, nullptr);
    std::vector<VkPresentModeKHR> modes(pm);
    vkGetPhysicalDeviceSurfacePresentModesKHR(physical_, surface_, &pm, modes.data());
    presentMode_ = VK_PRESENT_MODE_FIFO_KHR;
    if (!vsync_)
        for (auto want : {VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR})
            if (std::find(modes.begin(), modes.end(), want) != modes.end()) {
                presentMode_ = want;
                break;
            }
    return {};
}

// The render pass ImGui draws in: one colour attachment (no stencil, so no stencil ops), cleared,
// left ready to present. Once.
Result<void> Renderer::createRenderPass() {
    const VkAttachmentDescription color{.format = format_.format,
                                        .samples = VK_SAMPLE_COUNT_1_BIT,
                                        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                        .finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR};
    const VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    const VkSubpassDescription sub{
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1, .pColorAttachments = &ref};
    const VkSubpassDependency deps[] = {
        // The image comes from vkAcquireNextImageKHR through a semaphore waited at this stage.
        {.srcSubpass = VK_SUBPASS_EXTERNAL,
         .dstSubpass = 0,
         .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
         .dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
         .srcAccessMask = 0,
         .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT},
        // The screenshot copy reads the image after the final layout transition.
        {.srcSubpass = 0,
         .dstSubpass = VK_SUBPASS_EXTERNAL,
         .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
         .dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT,
         .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
         .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT}};
    const VkRenderPassCreateInfo rp{.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                    .attachmentCount = 1,
                                    .pAttachments = &color,
                                    .subpassCount = 1,
                                    .pSubpasses = &sub,
                                    .dependencyCount = 2,
                                    .pDependencies = deps};
    SORTLAB_VK(vkCreateRenderPass(device_, &rp, nullptr, &renderPass_), "vkCreateRenderPass");
    return {};
}

// The swapchain at the window's size (the first time also the format, present mode and render
// pass), then its views and framebuffers. A minimised window gets none until it is restored.
Result<void> Renderer::createSwapchain() {
    // Nothing may still use the old images: wait for our own frames (not the device, which may
    // be busy with a long sort step for a while).
    for (auto& f : frames_)
        if (f.fence) vkWaitForFences(device_, 1, &f.fence, VK_TRUE, UINT64_MAX);

    VkSurfaceCapabilitiesKHR caps;
    SORTLAB_VK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(physical_, surface_, &caps),
               "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
    if (format_.format == VK_FORMAT_UNDEFINED) SORTLAB_TRY(chooseSurfaceFormat());
    if (!renderPass_) SORTLAB_TRY(createRenderPass());

    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    extent_ = caps.currentExtent;
    if (extent_.width == 0xFFFFFFFFu) {
        extent_.width = std::clamp(static_cast<uint32_t>(w), caps.minImageExtent.width, caps.maxImageExtent.width);
        extent_.height = std::clamp(static_cast<uint32_t>(h), caps.minImageExtent.height, caps.maxImageExtent.height);
    }
    if (extent_.width == 0 || extent_.height == 0) return {}; // minimised: rebuilt when restored
    minImageCount_ = std::max(2u, caps.minImageCount);
    uint32_t imageCount = caps.minImageCount + 1;
    if (caps.maxImageCount) imageCount = std::min(imageCount, caps.maxImageCount);
    canCapture_ = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;

    VkSwapchainCreateInfoKHR sc{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    sc.surface = surface_;
    sc.minImageCount = imageCount;
    sc.imageFormat = format_.format;
    sc.imageColorSpace = format_.colorSpace;
    sc.imageExtent = extent_;
    sc.imageArrayLayers = 1;
    sc.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | (canCapture_ ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0);
    sc.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    sc.preTransform = caps.currentTransform;
    sc.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    if (!(caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR))
        sc.compositeAlpha = VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
    sc.presentMode = presentMode_;
    sc.clipped = VK_TRUE;
    VkSwapchainKHR old = swapchain_;
    sc.oldSwapchain = old;
    SORTLAB_VK(vkCreateSwapchainKHR(device_, &sc, nullptr, &swapchain_), "vkCreateSwapchainKHR");
    destroySwapchainViews();
    if (old) vkDestroySwapchainKHR(device_, old, nullptr);
    SORTLAB_TRY(createFramebuffers());
    if (imguiReady_) ImGui_ImplVulkan_SetMinImageCount(minImageCount_);
    rebuild_ = false;
    return {};
}

// The new swapchain's images: a view and a framebuffer each, and a semaphore each for its
// presentation (kept from the last swapchain where there are enough).
Result<void> Renderer::createFramebuffers() {
    uint32_t n = 0;
    vkGetSwapchainImagesKHR(device_, swapchain_, &n, nullptr);
    images_.resize(n);
    vkGetSwapchainImagesKHR(device_, swapchain_, &n, images_.data());
    for (VkImage image : images_) {
        VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        vi.image = image;
        vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
        vi.format = format_.format;
        vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VkImageView view;
        SORTLAB_VK(vkCreateImageView(device_, &vi, nullptr, &view), "vkCreateImageView");
        views_.push_back(view);
        VkFramebufferCreateInfo fi{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
        fi.renderPass = renderPass_;
        fi.attachmentCount = 1;
        fi.pAttachments = &view;
        fi.width = extent_.width;
        fi.height = extent_.height;
        fi.layers = 1;
        VkFramebuffer fb;
        SORTLAB_VK(vkCreateFramebuffer(device_, &fi, nullptr, &fb), "vkCreateFramebuffer");
        framebuffers_.push_back(fb);
        if (renderDone_.size() < views_.size()) { // one per image; a new swapchain reuses the old ones
            VkSemaphoreCreateInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
            VkSemaphore s;
            SORTLAB_VK(vkCreateSemaphore(device_, &si, nullptr, &s), "vkCreateSemaphore");
            renderDone_.push_back(s);
        }
    }
    return {};
}

// [SECTION] ImGui backends ---------------------------------------------------------------------------

Result<void> Renderer::initImGui() {
    if (!ImGui_ImplGlfw_InitForVulkan(window_, true))
        return makeError(Errc::vulkan_error, "ImGui's GLFW backend failed to start");
    if (!ImGui_ImplVulkan_LoadFunctions(&loadImGuiFunction, instance_))
        return makeError(Errc::vulkan_error, "ImGui's Vulkan backend could not load its Vulkan functions");
    ImGui_ImplVulkan_InitInfo info{.Instance = instance_,
                                   .PhysicalDevice = physical_,
                                   .Device = device_,
                                   .QueueFamily = family_,
                                   .Queue = queue_,
                                   .DescriptorPool = descriptorPool_,
                                   .MinImageCount = minImageCount_,
                                   .ImageCount =
                                       std::max<uint32_t>(minImageCount_, static_cast<uint32_t>(images_.size())),
                                   .MSAASamples = VK_SAMPLE_COUNT_1_BIT};
    if (!ImGui_ImplVulkan_Init(&info, renderPass_))
        return makeError(Errc::vulkan_error, "ImGui's Vulkan backend failed to start");
    imguiReady_ = true;

    // Upload the font atlas once, through frame 0's command buffer.
    Frame& f = frames_[0];
    SORTLAB_VK(vkWaitForFences(device_, 1, &f.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    SORTLAB_VK(vkResetCommandPool(device_, f.pool, 0), "vkResetCommandPool");
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    SORTLAB_VK(vkBeginCommandBuffer(f.cmd, &bi), "vkBeginCommandBuffer");
    ImGui_ImplVulkan_CreateFontsTexture(f.cmd);
    SORTLAB_VK(vkEndCommandBuffer(f.cmd), "vkEndCommandBuffer");
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &f.cmd;
    SORTLAB_VK(vkResetFences(device_, 1, &f.fence), "vkResetFences");
    SORTLAB_VK(submit(si, f.fence), "vkQueueSubmit");
    SORTLAB_VK(vkWaitForFences(device_, 1, &f.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    ImGui_ImplVulkan_DestroyFontUploadObjects();
    return {};
}

void Renderer::shutdownImGui() {
    if (!imguiReady_) return;
    for (auto& f : frames_)
        if (f.fence) vkWaitForFences(device_, 1, &f.fence, VK_TRUE, UINT64_MAX);
    ImGui_ImplVulkan_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    imguiReady_ = false;
}

// [SECTION] Frames ------------------------------------------------------------------------------------

bool Renderer::frameReady(bool wait) {
    Frame& f = frames_[frameIndex_];
    if (wait) return vkWaitForFences(device_, 1, &f.fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS;
    return vkGetFenceStatus(device_, f.fence) == VK_SUCCESS;
}

Result<void> Renderer::render(ImDrawData* drawData, const std::string& capturePath) {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    if (w == 0 || h == 0) return {}; // minimised
    if (rebuild_ || !swapchain_ || static_cast<uint32_t>(w) != extent_.width ||
        static_cast<uint32_t>(h) != extent_.height) {
        SORTLAB_TRY(createSwapchain());
        if (!swapchain_ || extent_.width == 0) return {};
    }
    Frame& f = frames_[frameIndex_];
    SORTLAB_VK(vkWaitForFences(device_, 1, &f.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");

    uint32_t imageIndex = 0;
    VkResult res = vkAcquireNextImageKHR(device_, swapchain_, UINT64_MAX, f.acquired, VK_NULL_HANDLE, &imageIndex);
    if (res == VK_ERROR_OUT_OF_DATE_KHR) {
        rebuild_ = true;
        return {};
    }
    if (res != VK_SUCCESS && res != VK_SUBOPTIMAL_KHR) return vkError(res, "vkAcquireNextImageKHR");

    SORTLAB_VK(vkResetCommandPool(device_, f.pool, 0), "vkResetCommandPool");
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    SORTLAB_VK(vkBeginCommandBuffer(f.cmd, &bi), "vkBeginCommandBuffer");
    VkClearValue clear{};
    clear.color = {{clear_[0], clear_[1], clear_[2], 1.0f}};
    VkRenderPassBeginInfo rb{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    rb.renderPass = renderPass_;
    rb.framebuffer = framebuffers_[imageIndex];
    rb.renderArea.extent = extent_;
    rb.clearValueCount = 1;
    rb.pClearValues = &clear;
    vkCmdBeginRenderPass(f.cmd, &rb, VK_SUBPASS_CONTENTS_INLINE);
    ImGui_ImplVulkan_RenderDrawData(drawData, f.cmd);
    vkCmdEndRenderPass(f.cmd);

    const bool capture = !capturePath.empty();
    if (capture) {
        if (!canCapture_)
            return makeError(Errc::missing_feature, "this swapchain cannot be read back for a screenshot");
        SORTLAB_TRY(ensureCaptureBuffer(VkDeviceSize(extent_.width) * extent_.height * 4));
        recordCapture(f.cmd, imageIndex);
    }
    SORTLAB_VK(vkEndCommandBuffer(f.cmd), "vkEndCommandBuffer");
    SORTLAB_TRY(submitAndPresent(f, imageIndex));

    if (capture) {
        SORTLAB_VK(vkWaitForFences(device_, 1, &f.fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
        SORTLAB_TRY(writeCapture(imageIndex, capturePath));
    }
    return {};
}

// Submits the frame's commands (after the image is acquired) and presents the image (after they
// ran); the next frame takes the other frame slot. An out-of-date or suboptimal swapchain is
// rebuilt on the next render.
Result<void> Renderer::submitAndPresent(Frame& f, uint32_t imageIndex) {
    VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.waitSemaphoreCount = 1;
    si.pWaitSemaphores = &f.acquired;
    si.pWaitDstStageMask = &waitStage;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &f.cmd;
    si.signalSemaphoreCount = 1;
    si.pSignalSemaphores = &renderDone_[imageIndex];
    SORTLAB_VK(vkResetFences(device_, 1, &f.fence), "vkResetFences");
    SORTLAB_VK(submit(si, f.fence), "vkQueueSubmit");

    VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    pi.waitSemaphoreCount = 1;
    pi.pWaitSemaphores = &renderDone_[imageIndex];
    pi.swapchainCount = 1;
    pi.pSwapchains = &swapchain_;
    pi.pImageIndices = &imageIndex;
    VkResult res;
    {
        std::lock_guard<std::mutex> lock(queueMutex_);
        res = vkQueuePresentKHR(queue_, &pi);
    }
    if (res == VK_ERROR_OUT_OF_DATE_KHR || res == VK_SUBOPTIMAL_KHR)
        rebuild_ = true;
    else if (res != VK_SUCCESS)
        return vkError(res, "vkQueuePresentKHR");
    frameIndex_ = (frameIndex_ + 1) % 2;
    return {};
}

// [SECTION] Capture to PNG ----------------------------------------------------------------------------

// The host-visible buffer the capture copies into, grown to `bytes` when smaller.
Result<void> Renderer::ensureCaptureBuffer(VkDeviceSize bytes) {
    if (bytes <= captureBytes_) return {};
    if (captureBuffer_) vkDestroyBuffer(device_, captureBuffer_, nullptr);
    if (captureMemory_) vkFreeMemory(device_, captureMemory_, nullptr);
    captureBuffer_ = VK_NULL_HANDLE;
    captureMemory_ = VK_NULL_HANDLE;
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = bytes;
    bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    SORTLAB_VK(vkCreateBuffer(device_, &bci, nullptr, &captureBuffer_), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device_, captureBuffer_, &req);
    auto type =
        memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    if (!type) return type.error();
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    mai.memoryTypeIndex = type.value();
    SORTLAB_VK(vkAllocateMemory(device_, &mai, nullptr, &captureMemory_), "vkAllocateMemory");
    SORTLAB_VK(vkBindBufferMemory(device_, captureBuffer_, captureMemory_, 0), "vkBindBufferMemory");
    captureBytes_ = bytes;
    return {};
}

// After the render pass: the image to a transfer source, copied into the capture buffer, and back
// to present; the copy made visible to the host.
void Renderer::recordCapture(VkCommandBuffer cmd, uint32_t imageIndex) {
    VkImageMemoryBarrier toSrc{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    toSrc.srcAccessMask = 0; // made available by the render pass's outgoing dependency
    toSrc.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    toSrc.oldLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    toSrc.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    toSrc.srcQueueFamilyIndex = toSrc.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toSrc.image = images_[imageIndex];
    toSrc.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
                         1, &toSrc);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {extent_.width, extent_.height, 1};
    vkCmdCopyImageToBuffer(cmd, images_[imageIndex], VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, captureBuffer_, 1, &region);
    VkImageMemoryBarrier toPresent = toSrc;
    toPresent.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    toPresent.dstAccessMask = 0;
    toPresent.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    toPresent.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    VkBufferMemoryBarrier toHost{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    toHost.srcQueueFamilyIndex = toHost.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    toHost.buffer = captureBuffer_;
    toHost.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 0, nullptr, 1, &toHost,
                         1, &toPresent);
}

Result<void> Renderer::writeCapture(uint32_t, const std::string& path) {
    void* mapped = nullptr;
    SORTLAB_VK(vkMapMemory(device_, captureMemory_, 0, VK_WHOLE_SIZE, 0, &mapped), "vkMapMemory");
    const uint32_t w = extent_.width, h = extent_.height;
    std::vector<uint8_t> rgba(size_t(w) * h * 4);
    std::memcpy(rgba.data(), mapped, rgba.size());
    vkUnmapMemory(device_, captureMemory_);
    const bool bgr = format_.format == VK_FORMAT_B8G8R8A8_UNORM || format_.format == VK_FORMAT_B8G8R8A8_SRGB;
    for (size_t i = 0; i < rgba.size(); i += 4) {
        if (bgr) std::swap(rgba[i], rgba[i + 2]);
        rgba[i + 3] = 255;
    }
    if (!stbi_write_png(path.c_str(), static_cast<int>(w), static_cast<int>(h), 4, rgba.data(),
                        static_cast<int>(w * 4)))
        return makeError(Errc::io_error, "cannot write the screenshot " + path);
    return {};
}

} // namespace sortlab::gfx
