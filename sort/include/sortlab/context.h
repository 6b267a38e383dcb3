// The Vulkan compute context the sorts run on: it either creates its own instance and device
// (best discrete GPU, else any GPU, else Mesa lavapipe; or the one the caller names) or adopts
// a caller's. The library loads Vulkan at run time through entry points of its own (sortlab_vk*,
// never a global vk* symbol), so a machine without a Vulkan loader gets an error value, not a
// failed program start, and a program's own Vulkan (libvulkan's prototypes, or its own volk) is
// left alone. This header includes only <vulkan/vulkan_core.h>, with or without VK_NO_PROTOTYPES.
//
// Contract for adopt(): the caller's device must have been created with Vulkan 1.2 or newer,
// with the features bufferDeviceAddress and shaderInt64 enabled (DeviceFeatures::addTo adds them,
// and the optional ones, to the caller's VkDeviceCreateInfo), and the queue must support compute.
// The caller keeps ownership of what it passed in; the Context destroys only what it made (its
// command pool and fence, and the one-call API's sorters and buffers), after waiting for its own
// submissions only: it never waits for the device to idle (see ~Context).
#pragma once

#include <sortlab/result.h>

#include <vulkan/vulkan_core.h>

#include <optional>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sortlab {

namespace internal {
struct ContextAccess; // sortlab/internal/context_access.h: what the tests may read and set
} // namespace internal

struct DeviceInfo {
    uint32_t index = 0; // position in vkEnumeratePhysicalDevices
    std::string name;
    std::string typeName; // "discrete GPU", "integrated GPU", "virtual GPU", "CPU", "other"
    VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
    std::string driver; // driver name and version, as the driver reports it
    uint32_t apiVersion = 0;
    uint32_t vendorId = 0;
    uint32_t subgroupSize = 0;
    uint32_t minSubgroupSize = 0, maxSubgroupSize = 0;
    // Stages where a pipeline may require a subgroup size (VK_EXT_subgroup_size_control; 0 on a
    // device without it, and on MoltenVK, which reports none).
    uint32_t requiredSubgroupSizeStages = 0;
    uint32_t maxComputeWorkgroupSubgroups = 0; // (with it) subgroups a workgroup may hold at a required size
    uint32_t subgroupOps = 0;                  // VkSubgroupFeatureFlags in compute
    uint64_t maxStorageBufferRange = 0;
    uint64_t maxMemoryAllocationSize = 0;
    uint64_t maxBufferSize = 0;
    uint32_t sharedMemoryBytes = 0;
    uint32_t maxWorkgroupSize = 0;
    uint32_t maxWorkgroupCount[3] = {0, 0, 0};
    uint32_t multiprocessors = 0;  // NVIDIA's SM count (VK_NV_shader_sm_builtins); 0 where not told
    uint64_t deviceLocalBytes = 0; // the largest device-local heap
    float timestampPeriodNs = 0;
    bool timestamps = false;
    bool isLavapipe = false;
    bool suitable = false;     // can run the sorts
    std::string unsuitableWhy; // when not suitable: what is missing
};

struct ContextOptions {
    // "" picks the best device; digits pick by index; anything else is a case-insensitive
    // substring of the device name ("lavapipe" and "llvmpipe" both find Mesa's CPU driver).
    std::string device;
    // Khronos validation with synchronization validation; every message is counted and kept
    // (see validationMessages()). Used by the tests.
    bool validation = false;
    std::chrono::nanoseconds fenceTimeout = std::chrono::seconds(60);
    // Keep the driver's statistics of every pipeline (VK_KHR_pipeline_executable_properties, where
    // the driver offers it: registers, shared memory, spills on NVIDIA; pipelinesUsed()).
    bool pipelineStats = false;
};

// One statistic of a compiled pipeline as the driver describes it (VK_KHR_pipeline_executable_properties):
// its name and description in the driver's words, and its value decoded by the format the driver
// declares. Vulkan gives no unit: text() takes bytes for a name that ends in "Size" or mentions bytes
// (NVIDIA's "Shared Memory Size", "Local Memory Size"), a plain number otherwise.
struct PipelineStatistic {
    enum class Format { boolean, int64, uint64, float64 };
    std::string name, description;
    Format format = Format::uint64;
    bool b = false;           // Format::boolean
    int64_t i = 0;            // Format::int64
    uint64_t u = 0;           // Format::uint64
    double f = 0;             // Format::float64
    double value() const;     // any format as a number (true 1, false 0)
    bool bytes() const;       // the unit text() gives: bytes
    std::string text() const; // "80", "23564 bytes", "64 GiB (68719476736 bytes)", "yes", "0.25"
};
struct PipelineStatistics {
    std::string pipeline; // "onesweep_pass.k1.v0 (spec 0=512 1=18 ...)"
    std::vector<PipelineStatistic> stats;
};

// The features a device was created with, of those the sorts need or use: what DeviceFeatures::
// enabled() reports after addTo(), or what enabledFeatures() reads from a VkDeviceCreateInfo.
struct EnabledFeatures {
    bool shaderInt64 = false;
    bool bufferDeviceAddress = false;
    bool subgroupSizeControl = false;  // pipelines may require a subgroup size
    bool computeFullSubgroups = false; // ...and full subgroups
    bool timelineSemaphore = false;    // the one-call API may wait on and signal timeline semaphores
};

// A timeline semaphore and a value: a submission waits until the semaphore reaches the value, or
// sets it to the value when done. A null semaphore: none.
struct TimelinePoint {
    VkSemaphore semaphore = VK_NULL_HANDLE;
    uint64_t value = 0;
};
// What a submission waits for before it starts (every stage) and signals when it is done.
struct SubmitSemaphores {
    TimelinePoint wait, signal;
};

struct AdoptInfo {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t queueFamily = 0;
    std::chrono::nanoseconds fenceTimeout = std::chrono::seconds(60);
    // Where the caller submits to the same queue from other threads (Vulkan wants those calls
    // externally synchronized): the mutex the Context holds around each of its vkQueueSubmit
    // calls, and that the caller holds around its own. Null: the Context is the queue's only user.
    std::mutex* queueMutex = nullptr;
    // What the device was created with (DeviceFeatures::enabled(), or enabledFeatures(createInfo)).
    // Given, the Context builds the same pipelines as Context::create() on a device made with the same
    // features (a required subgroup size, full subgroups where enabled), and adopt() refuses a
    // device without shaderInt64 or bufferDeviceAddress. Left out, the Context assumes subgroup size
    // control is off: no pipeline requires a subgroup size or full subgroups.
    std::optional<EnabledFeatures> enabled;
    // A VkPipelineCache of the device for the sorters' pipelines: Context::setPipelineCache.
    VkPipelineCache pipelineCache = VK_NULL_HANDLE;
};

// The device features the sorts need (shaderInt64, bufferDeviceAddress) and the optional ones they
// use when the device has them (the Vulkan memory model, 64-bit buffer atomics, host query reset,
// timeline semaphores, and on Vulkan 1.3 subgroup size control with full subgroups and maintenance4). A program that
// creates its own device for Context::adopt adds these to its own VkDeviceCreateInfo with addTo().
class DeviceFeatures {
public:
    // What `physicalDevice` of `instance` has of the above. apiVersion: the lower of the device's
    // and the instance's API version (the 1.3 features are used only at 1.3). Points the library's
    // own loader at `instance` (an instance your program made with its own Vulkan calls works).
    DeviceFeatures(VkInstance instance, VkPhysicalDevice physicalDevice, uint32_t apiVersion);
    // The same for a physical device of an instance the library knows already: one from
    // createInstance(), a Context's, or one given to adopt() or the constructor above. Of any other,
    // it sees nothing the device has, and enables only shaderInt64 and bufferDeviceAddress.
    DeviceFeatures(VkPhysicalDevice physicalDevice, uint32_t apiVersion);
    DeviceFeatures(const DeviceFeatures&) = delete; // the chain points into this object
    DeviceFeatures& operator=(const DeviceFeatures&) = delete;
    // Adds the features above to `info`, merged with the caller's own: each is set (never cleared)
    // in the caller's struct that holds it, wherever it is in info.pNext: VkPhysicalDeviceFeatures2
    // (or pEnabledFeatures, copied here), VkPhysicalDeviceVulkan12Features/13Features, or the
    // per-feature structs (VkPhysicalDeviceBufferDeviceAddressFeatures, ...SubgroupSizeControl-
    // Features, ...). A struct the chain lacks is put in front of it, owned by this object: a
    // VulkanNNFeatures where the chain holds none of the structs it contains, the per-feature struct
    // otherwise, so that no sType appears twice and no VulkanNNFeatures meets a struct it contains
    // (VUID-VkDeviceCreateInfo-sType-unique, -pNext-02830, -pNext-06532). Also adds
    // requiredDeviceExtensions() to the extensions, once (the array is then this object's). This
    // object must outlive vkCreateDevice. Errors (invalid_argument, `info` unchanged): a chain Vulkan
    // already forbids (an sType twice, a VulkanNNFeatures beside a struct it contains, pEnabledFeatures
    // beside VkPhysicalDeviceFeatures2).
    Result<void> addTo(VkDeviceCreateInfo& info);
    // The same for a pNext chain alone: returns the new head for VkDeviceCreateInfo::pNext (with
    // VkPhysicalDeviceFeatures2; so pEnabledFeatures must be null). `next` may be null.
    void* chain(void* next = nullptr);
    // What the last addTo() or chain() left enabled, for AdoptInfo::enabled.
    EnabledFeatures enabled() const { return enabled_; }
    // The device has subgroup size control and computeFullSubgroups at 1.3: addTo enables both.
    bool fullSubgroups() const { return fullSubgroups_; }

private:
    VkPhysicalDeviceFeatures2 have_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan12Features have12_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features have13_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    // The structs addTo may put in front of the caller's chain.
    VkPhysicalDeviceFeatures core_{};
    VkPhysicalDeviceFeatures2 features_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan12Features v12_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features v13_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceBufferDeviceAddressFeatures address_{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES};
    VkPhysicalDeviceVulkanMemoryModelFeatures memoryModel_{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES};
    VkPhysicalDeviceShaderAtomicInt64Features atomics_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES};
    VkPhysicalDeviceHostQueryResetFeatures queryReset_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES};
    VkPhysicalDeviceTimelineSemaphoreFeatures timeline_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
    VkPhysicalDeviceSubgroupSizeControlFeatures sizeControl_{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES};
    VkPhysicalDeviceMaintenance4Features maintenance4_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES};
    std::vector<const char*> extensions_;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    EnabledFeatures enabled_;
    bool v13 = false, fullSubgroups_ = false;
    // addTo's parts: the caller's chain and the structs of ours it puts in front of it.
    struct Merge;
    void merge12(Merge& m);
    void merge13(Merge& m);
    void addExtensions(VkDeviceCreateInfo& info);
};

// What `info` enables of the features the sorts need or use (its pNext chain and pEnabledFeatures).
EnabledFeatures enabledFeatures(const VkDeviceCreateInfo& info);

// An instance for the sorts: Vulkan 1.3 where the loader has it (1.2 at least), the debug-utils
// extension where offered, VK_KHR_portability_enumeration with its create flag where the loader
// offers it (so that portability implementations such as MoltenVK are listed too), `extensions`
// on top (a window system's, say), and with validation the Khronos layer with synchronization
// validation. Loads volk's functions for it (device functions through the loader's trampolines).
// The caller destroys it. Errors: no loader or driver, a loader older than 1.2, validation asked
// for but not installed.
Result<VkInstance> createInstance(bool validation, const std::vector<const char*>& extensions = {});

// The device extensions a device made for the sorts must enable besides the caller's own (of an
// instance the library knows, as for DeviceFeatures; DeviceFeatures::addTo adds them):
// VK_KHR_portability_subset where the device advertises it (a portability implementation such as
// MoltenVK; Vulkan requires it enabled then). Empty on other devices. A program that creates its own
// device for Context::adopt enables these too.
std::vector<const char*> requiredDeviceExtensions(VkPhysicalDevice device);

// A messenger that calls `callback` (with `user`) for validation warnings and errors.
Result<VkDebugUtilsMessengerEXT> createDebugMessenger(VkInstance instance,
                                                      PFN_vkDebugUtilsMessengerCallbackEXT callback, void* user);

// Whether the Vulkan loader offers this instance layer; whether the device offers this extension.
bool instanceHasLayer(const char* name);
bool deviceHasExtension(VkPhysicalDevice device, const char* name);

// Picks a device from listDevices(): `want` "" picks the best suitable device (a discrete GPU
// before an integrated, virtual or CPU one; then the largest device-local heap); digits pick by
// index; anything else is a case-insensitive part of the name or driver ("lavapipe" finds Mesa's
// llvmpipe). `fits` adds the caller's own needs (a queue that presents, say): it returns false and
// says why for a device that lacks them. `user` names what must run in the errors ("the sorts").
using DeviceFits = std::function<bool(const DeviceInfo&, std::string* why)>;
Result<uint32_t> chooseDevice(const std::vector<DeviceInfo>& devices, const std::string& want,
                              const DeviceFits& fits = {}, const std::string& user = "the sorts");

class Context {
public:
    // Every physical device with what it offers and whether it can run the sorts.
    static Result<std::vector<DeviceInfo>> listDevices();
    static Result<std::unique_ptr<Context>> create(const ContextOptions& options = {});
    static Result<std::unique_ptr<Context>> adopt(const AdoptInfo& info);
    // Frees the one-call API's sorters and buffers and the Context's command pool and fence. An
    // adopted Context first waits for its own submissions only (they have all finished, unless one
    // timed out: then one more fenceTimeout(), and if it still runs, nothing is freed), never for
    // the device: vkDeviceWaitIdle would wait for the program's own work too and need every queue
    // of the device externally synchronized. What the program recorded with (sorters, plans,
    // buffers) it keeps until its own command buffers have run. A Context from create() also
    // waits for its device to idle, then destroys the device and the instance.
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    VkInstance instance() const { return instance_; }
    VkPhysicalDevice physicalDevice() const { return physical_; }
    VkDevice device() const { return device_; }
    VkQueue queue() const { return queue_; }
    uint32_t queueFamily() const { return queueFamily_; }
    const DeviceInfo& info() const { return info_; }
    std::chrono::nanoseconds fenceTimeout() const { return fenceTimeout_; }
    void setFenceTimeout(std::chrono::nanoseconds t) { fenceTimeout_ = t; }

    // A memory type with all of `required`, preferring one that also has `preferred`.
    VkMemoryPropertyFlags memoryTypeFlags(uint32_t type) const { return memory_.memoryTypes[type].propertyFlags; }
    Result<uint32_t> memoryType(uint32_t typeBits, VkMemoryPropertyFlags required,
                                VkMemoryPropertyFlags preferred = 0) const;

    // Record with `record` into a fresh primary command buffer, submit, and wait on a fence at
    // most fenceTimeout(). Past it: Errc::timeout ("did not finish within 50 us"). The submission
    // may still be running then, so until its fence signals every submission on this context
    // (sorts, uploads, readbacks) returns Errc::timeout too without queueing anything, and what it
    // may use is freed only after it (destroyWhenIdle); once it has finished, the context works
    // as before. Errc::device_lost only where Vulkan reports VK_ERROR_DEVICE_LOST: the device,
    // and with it this context, cannot be used again. `semaphores`: timeline semaphores the
    // submission waits on and signals (VkTimelineSemaphoreSubmitInfo); Errc::invalid_argument, with
    // nothing submitted, where one is given and timelineSemaphore() is false.
    Result<void> submitAndWait(const std::function<void(VkCommandBuffer)>& record,
                               const SubmitSemaphores& semaphores = {});
    // What sortlab::sort and sortPairs (sortlab/sortlab.h) keep between calls on this context:
    // their sorters and buffers. Released first when the context is destroyed.
    std::shared_ptr<void>& oneCallState() { return oneCall_; }

    // True while a submission that timed out may still be running on the GPU. Objects it may
    // use (buffers, pipelines) must not be destroyed then: see destroyWhenIdle().
    bool timedOutWorkPending();
    // Runs `destroy` now, or, while timed-out work is pending, once that work has finished (at
    // the latest when the Context is destroyed). Every owner of a Vulkan object the GPU may use
    // (buffers, pipelines, query pools) destroys it through here.
    void destroyWhenIdle(std::function<void(VkDevice)> destroy);

    // Validation messages (errors and warnings) seen since creation, when validation is on.
    size_t validationMessageCount() const;
    std::vector<std::string> validationMessages() const;
    void clearValidationMessages();
    // ContextOptions::pipelineStats (or SORTLAB_PIPELINE_STATS=1) and the driver offers pipeline
    // executable statistics.
    bool pipelineStats() const { return pipelineStats_; }
    // The pipelines sorts looked up (planning, for their plans to bind) since beginPipelineUse(), in
    // first-use order, with their statistics where pipelineStats() (else none). The sorters report
    // each lookup.
    void beginPipelineUse() { pipelinesUsed_.clear(); }
    std::vector<PipelineStatistics> pipelinesUsed() const;
    void notePipelineUse(VkPipeline pipeline, const std::function<PipelineStatistics()>& describe);
    void forgetPipelines(const std::vector<VkPipeline>& pipelines);
    // computeFullSubgroups is enabled: pipelines that pin a subgroup size can also ask for every
    // subgroup to be full (the radix kernels assume it).
    bool fullSubgroups() const { return fullSubgroups_; }
    // subgroupSizeControl is enabled: pipelines may require a subgroup size.
    bool subgroupSizeControl() const { return subgroupSizeControl_; }
    // timelineSemaphore is enabled (create(): where the device has it; adopt(): AdoptInfo::enabled
    // says so): submissions may wait on and signal timeline semaphores.
    bool timelineSemaphore() const { return timelineSemaphore_; }

    // The VkPipelineCache (made on device()) that every compute pipeline the sorters of this
    // context create from now on goes through (vkCreateComputePipelines' pipelineCache), so that a
    // program can keep what the driver compiled (vkGetPipelineCacheData) and hand it to the next
    // run (VkPipelineCacheCreateInfo::pInitialData). VK_NULL_HANDLE, the default: none. The caller
    // owns the cache and keeps it alive while it is set (pipelines already made do not need it).
    // A cache made with VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT must not be in use
    // elsewhere while sorters plan. Pipelines are made by Sorter::plan (the first plan of each
    // tuning range) and by Sorter::warmUp.
    void setPipelineCache(VkPipelineCache cache) { pipelineCache_ = cache; }
    VkPipelineCache pipelineCache() const { return pipelineCache_; }
    // Compute pipelines the sorters of this context have created so far (what a warm-up saves
    // later plans from creating).
    uint64_t pipelinesCreated() const { return pipelinesCreated_; }

private:
    friend struct internal::ContextAccess;
    friend class PipelineCache; // counts the pipelines it creates
    Context() = default;
    Result<void> finishSetup(); // command pool, fence, info_
    static VkBool32 VKAPI_PTR debugCallback(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                            const VkDebugUtilsMessengerCallbackDataEXT*, void*);

    bool ownsDevice_ = false;
    VkInstance instance_ = VK_NULL_HANDLE;
    // create(): the instance's create flags and extensions, and the device's extensions.
    VkInstanceCreateFlags instanceFlags_ = 0;
    std::vector<std::string> instanceExtensions_, deviceExtensions_;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    std::shared_ptr<void> oneCall_; // sortlab.h's sorters and buffers
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t queueFamily_ = 0;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
    DeviceInfo info_;
    VkPhysicalDeviceMemoryProperties memory_{};
    std::chrono::nanoseconds fenceTimeout_{std::chrono::seconds(60)};
    bool pipelineStats_ = false;
    std::map<VkPipeline, PipelineStatistics> pipelineInfo_; // every pipeline seen, described once
    std::vector<VkPipeline> pipelinesUsed_;
    bool fullSubgroups_ = false;
    bool subgroupSizeControl_ = false;
    bool timelineSemaphore_ = false;
    bool alwaysPinSubgroupSize_ = false; // internal::ContextAccess: the tests' knob
    std::atomic<VkPipelineCache> pipelineCache_{VK_NULL_HANDLE};
    std::atomic<uint64_t> pipelinesCreated_{0};
    std::mutex* queueMutex_ = nullptr;            // AdoptInfo::queueMutex
    bool lost_ = false;                           // a fence timed out: refuse new work until that submission finishes
    VkCommandBuffer pendingCmd_ = VK_NULL_HANDLE; // the timed-out submission's command buffer
    std::vector<std::function<void(VkDevice)>> deferred_; // run once that submission ends

    mutable std::mutex messagesMutex_;
    std::vector<std::string> messages_;
};

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" etc.
const char* vkResultName(VkResult r);
// An Error for a failed Vulkan call: maps memory errors to out_of_memory, DEVICE_LOST to device_lost.
Error vkError(VkResult r, const std::string& what);

} // namespace sortlab

#define SORTLAB_VK(call, what)                                                                                         \
    do {                                                                                                               \
        VkResult sortlab_vk_result_ = (call);                                                                          \
        if (sortlab_vk_result_ != VK_SUCCESS) return ::sortlab::vkError(sortlab_vk_result_, what);                     \
    } while (0)
