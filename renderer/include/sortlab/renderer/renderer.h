// The app's Vulkan graphics layer: instance (with the window-system extensions GLFW asks for),
// the device (which also runs the sorts: the app hands it to sortlab::Context::adopt), the GLFW
// surface and swapchain (rebuilt on resize), the render pass Dear ImGui draws into, and window
// capture to PNG for --screenshot. No sorting code lives here.
//
// Threads: every call is made from the main thread. The queue is shared with the sort worker
// (and the benchmark worker) through queueMutex(), which their Contexts hold around their
// submissions (AdoptInfo::queueMutex); the renderer never waits on a fence while holding it.
#pragma once

#include <sortlab/context.h>
#include <sortlab/result.h>

#include <volk.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct GLFWwindow;
struct ImDrawData;

namespace sortlab::gfx {

struct RendererOptions {
    std::string device;      // "" best device; digits: index; else part of the name ("lavapipe")
    bool validation = false; // VK_LAYER_KHRONOS_validation (+ synchronization validation)
    bool vsync = true;       // FIFO; false prefers MAILBOX/IMMEDIATE (frame-time measurements)
};

class Renderer {
public:
    static Result<std::unique_ptr<Renderer>> create(GLFWwindow* window, const RendererOptions& options);
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    const std::string& deviceName() const { return deviceName_; }
    // The device and queue, for the Contexts that adopt them (Context::adopt), with the mutex the
    // renderer holds around each of its vkQueueSubmit and vkQueuePresentKHR calls.
    AdoptInfo adoptInfo() {
        return {.instance = instance_,
                .physicalDevice = physical_,
                .device = device_,
                .queue = queue_,
                .queueFamily = family_,
                .queueMutex = &queueMutex_,
                .enabled = enabled_};
    }

    // ImGui's GLFW and Vulkan backends, and the font atlas upload (call after the fonts are added).
    Result<void> initImGui();
    void shutdownImGui();

    // True when the next frame slot is free (its previous submission finished). With wait, blocks
    // until it is. The main loop skips drawing while the GPU is still busy (on lavapipe a long
    // sort step delays the frame), so the window keeps handling events.
    bool frameReady(bool wait);
    // Draws ImGui's draw data into the next swapchain image and presents it. With a capture path,
    // the image is also copied back and written as PNG (the call then waits for the GPU).
    Result<void> render(ImDrawData* drawData, const std::string& capturePath = {});
    // What shows between the panels (the app's theme), from the next render on; 0..1 per channel.
    void setClearColour(float r, float g, float b) { clear_[0] = r, clear_[1] = g, clear_[2] = b; }

    size_t validationMessageCount() const { return validationMessages_.load(); }

private:
    Renderer() = default;
    Result<void> createInstance(const RendererOptions& o);
    Result<void> pickDevice(const RendererOptions& o);
    Result<void> createDevice();
    Result<void> chooseSurfaceFormat(); // the swapchain's parts, in the order createSwapchain makes them
    Result<void> createRenderPass();
    Result<void> createSwapchain();
    Result<void> createFramebuffers();
    void destroySwapchainViews();
    Result<uint32_t> memoryType(uint32_t bits, VkMemoryPropertyFlags flags) const;
    VkResult submit(const VkSubmitInfo& info, VkFence fence); // vkQueueSubmit under queueMutex_
    struct Frame;
    Result<void> submitAndPresent(Frame& f, uint32_t imageIndex);
    Result<void> ensureCaptureBuffer(VkDeviceSize bytes);
    void recordCapture(VkCommandBuffer cmd, uint32_t imageIndex);
    Result<void> writeCapture(uint32_t imageIndex, const std::string& path);
    static VkBool32 VKAPI_PTR debugCallback(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                            const VkDebugUtilsMessengerCallbackDataEXT*, void*);

    GLFWwindow* window_ = nullptr;
    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    std::string deviceName_;
    uint32_t apiVersion_ = 0;
    EnabledFeatures enabled_;     // what createDevice enabled of the sorts' features (AdoptInfo::enabled)
    bool narrowLavapipe_ = false; // lavapipe with fewer than 8 lanes: no shader disk cache
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t family_ = 0;
    std::mutex queueMutex_;
    bool vsync_ = true;

    VkSurfaceFormatKHR format_{};
    VkPresentModeKHR presentMode_ = VK_PRESENT_MODE_FIFO_KHR;
    VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
    VkExtent2D extent_{};
    uint32_t minImageCount_ = 2;
    bool canCapture_ = false; // swapchain images allow TRANSFER_SRC
    std::vector<VkImage> images_;
    std::vector<VkImageView> views_;
    std::vector<VkFramebuffer> framebuffers_;
    std::vector<VkSemaphore> renderDone_; // one per swapchain image (kept for the next swapchain)
    VkRenderPass renderPass_ = VK_NULL_HANDLE;
    VkDescriptorPool descriptorPool_ = VK_NULL_HANDLE;
    bool rebuild_ = false;
    float clear_[3] = {0.10f, 0.10f, 0.11f};
    bool imguiReady_ = false;

    struct Frame {
        VkCommandPool pool = VK_NULL_HANDLE;
        VkCommandBuffer cmd = VK_NULL_HANDLE;
        VkFence fence = VK_NULL_HANDLE;
        VkSemaphore acquired = VK_NULL_HANDLE;
    };
    Frame frames_[2];
    uint32_t frameIndex_ = 0;

    // Host-visible buffer the capture copies the swapchain image into.
    VkBuffer captureBuffer_ = VK_NULL_HANDLE;
    VkDeviceMemory captureMemory_ = VK_NULL_HANDLE;
    VkDeviceSize captureBytes_ = 0;

    std::atomic<size_t> validationMessages_{0};
};

} // namespace sortlab::gfx
