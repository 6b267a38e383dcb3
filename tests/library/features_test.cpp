// A program's own device with its own features beside the sorts' (DeviceFeatures::addTo), adopted by
// a Context (docs/library.md, "Your own device"). The program's side is written as most programs
// write Vulkan: Vulkan's own prototypes, linked to libvulkan. The validation layer is on; any
// message fails a test.
//   library.Features.*  timeline semaphores, descriptor indexing and synchronization2 enabled by the
//                       program (through Vulkan12/13Features, or the per-feature structs, or
//                       pEnabledFeatures) beside the sorts' needs: the device is made, the
//                       program's features work, the adopted Context sorts and builds the same
//                       pipelines as Context::create(), and destroying it leaves the program's
//                       pending work alone. Descriptor indexing: its struct is always in the
//                       program's chain; its features are enabled and used where the device has
//                       them (lavapipe in Mesa 22.3, Debian 12's, has none of them).
//   library.OwnInstance.*  an instance the program made with its own Vulkan calls, shown to sortlab
//                       first through DeviceFeatures(instance, ...), then adopted.
// [SECTION] Validation messages and pNext chains
// [SECTION] The program: instance, device, its own features, adoption
// [SECTION] Features merged: Vulkan12/13Features, per-feature structs, pEnabledFeatures, errors
// [SECTION] Adoption: refused without the needs, destroyed without waiting for the device
// [SECTION] An instance of the program's own, shown to sortlab first
#include <sortlab/context.h>
#include <sortlab/sortlab.h>
#include <sortlab/testing/timeline.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace sortlab;

namespace {

// [SECTION] Validation messages and pNext chains --------------------------------------------------

std::mutex messagesMutex;
std::vector<std::string> messages;

VkBool32 VKAPI_PTR onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                             const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
    std::lock_guard<std::mutex> lock(messagesMutex);
    messages.push_back(data && data->pMessage ? data->pMessage : "(no message)");
    return VK_FALSE;
}

std::string takeMessages() {
    std::lock_guard<std::mutex> lock(messagesMutex);
    std::string all;
    for (auto& m : messages) all += m + "\n";
    messages.clear();
    return all;
}

// The structs of a pNext chain by sType, in order.
std::vector<VkStructureType> sTypes(const void* next) {
    std::vector<VkStructureType> out;
    for (auto* s = static_cast<const VkBaseInStructure*>(next); s; s = s->pNext) out.push_back(s->sType);
    return out;
}
bool holds(const std::vector<VkStructureType>& types, VkStructureType t) {
    return std::find(types.begin(), types.end(), t) != types.end();
}

// [SECTION] The program: instance, device, its own features, adoption ------------------------------

// The program: an instance with validation, its device of choice, a compute queue family.
class Features : public ::testing::Test {
protected:
    // Made once, by the first test (a failure in SetUpTestSuite would only skip the tests); a
    // failed setup fails every test.
    void SetUp() override {
        if (!attempted) {
            attempted = true;
            setUpProgram();
        }
        ASSERT_TRUE(instance && physical && !createdPipelines.empty()) << "the program's setup failed";
    }
    static void setUpProgram() {
        auto inst = createInstance(true);
        ASSERT_TRUE(inst.ok()) << inst.error().message;
        instance = *inst;
        auto messenger = createDebugMessenger(instance, &onMessage, nullptr);
        ASSERT_TRUE(messenger.ok()) << messenger.error().message;
        debugMessenger = *messenger;
        auto devices = Context::listDevices();
        ASSERT_TRUE(devices.ok()) << devices.error().message;
        const char* want = std::getenv("SORTLAB_TEST_DEVICE");
        auto index = chooseDevice(*devices, want ? want : "");
        ASSERT_TRUE(index.ok()) << index.error().message;
        uint32_t count = 0;
        vkEnumeratePhysicalDevices(instance, &count, nullptr);
        std::vector<VkPhysicalDevice> pds(count);
        vkEnumeratePhysicalDevices(instance, &count, pds.data());
        ASSERT_LT(*index, count);
        physical = pds[*index];
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(physical, &props);
        apiVersion = props.apiVersion;
        uint32_t families = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
        std::vector<VkQueueFamilyProperties> fam(families);
        vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, fam.data());
        family = 0;
        while (family < families && !(fam[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
        ASSERT_LT(family, families);
        // What the program wants must be there (lavapipe has all of it): a missing one fails.
        VkPhysicalDeviceVulkan12Features have12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
        VkPhysicalDeviceVulkan13Features have13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
        have12.pNext = &have13;
        VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &have12};
        ASSERT_GE(apiVersion, VK_API_VERSION_1_3);
        vkGetPhysicalDeviceFeatures2(physical, &have);
        ASSERT_TRUE(have12.timelineSemaphore && have13.synchronization2);
        indexing = have12.descriptorBindingPartiallyBound && have12.runtimeDescriptorArray;
        std::printf("descriptor indexing (partially bound runtime arrays): %s\n",
                    indexing ? "enabled and used" : "not offered by the device; struct only");
        // What Context::create() makes of the same device, to compare with.
        ContextOptions o;
        o.validation = true;
        if (want) o.device = want;
        auto created = Context::create(o);
        ASSERT_TRUE(created.ok()) << created.error().message;
        createdFullSubgroups = (*created)->fullSubgroups();
        createdSizeControl = (*created)->subgroupSizeControl();
        createdPipelines = pipelinesOf(**created);
        ASSERT_EQ((*created)->validationMessageCount(), 0u);
    }
    static void TearDownTestSuite() {
        if (debugMessenger) {
            auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
                vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
            destroy(instance, debugMessenger, nullptr);
        }
        if (instance) vkDestroyInstance(instance, nullptr);
    }
    void TearDown() override {
        if (device) vkDestroyDevice(device, nullptr);
        device = VK_NULL_HANDLE;
        EXPECT_EQ(takeMessages(), "") << "validation messages";
    }

    // The pipelines one OneSweep and one radix4 plan of 2^16 u32 pairs use, by name.
    static std::vector<std::string> pipelinesOf(Context& ctx) {
        std::vector<std::string> names;
        std::vector<std::unique_ptr<Sorter>> sorters; // a sorter's pipelines are forgotten with it
        ctx.beginPipelineUse();
        for (Algorithm a : {Algorithm::onesweep, Algorithm::radix4}) {
            auto sorter = makeSorter(ctx, a);
            EXPECT_TRUE(sorter.ok());
            if (!sorter) return names;
            SortConfig cfg;
            cfg.values = ValueType::u32;
            auto plan = (*sorter)->plan(1 << 16, cfg);
            EXPECT_TRUE(plan.ok()) << plan.error().message;
            sorters.push_back(std::move(*sorter));
        }
        for (auto& p : ctx.pipelinesUsed()) names.push_back(p.pipeline);
        return names;
    }

    // vkCreateDevice with `info` (its pNext already the program's chain), after addTo.
    VkDevice makeDevice(VkDeviceCreateInfo& info, DeviceFeatures& features) {
        static const float priority = 1.0f;
        queueInfo = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        queueInfo.queueFamilyIndex = family;
        queueInfo.queueCount = 1;
        queueInfo.pQueuePriorities = &priority;
        info.queueCreateInfoCount = 1;
        info.pQueueCreateInfos = &queueInfo;
        auto added = features.addTo(info);
        EXPECT_TRUE(added.ok()) << added.error().message;
        // No sType twice, no VulkanNNFeatures beside a struct it contains.
        const auto types = sTypes(info.pNext);
        EXPECT_EQ(std::set<VkStructureType>(types.begin(), types.end()).size(), types.size());
        if (holds(types, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)) {
            for (auto t : {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
                           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES,
                           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
                           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES,
                           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES,
                           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES})
                EXPECT_FALSE(holds(types, t)) << "Vulkan12Features beside sType " << t;
        }
        if (holds(types, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES)) {
            for (auto t : {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES,
                           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
                           VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES})
                EXPECT_FALSE(holds(types, t)) << "Vulkan13Features beside sType " << t;
        }
        VkDevice d = VK_NULL_HANDLE;
        EXPECT_EQ(vkCreateDevice(physical, &info, nullptr, &d), VK_SUCCESS);
        return d;
    }

    // The program's own features at work: a descriptor set layout with a partially bound runtime
    // array (descriptor indexing, where the device has it), a vkQueueSubmit2 (synchronization2)
    // that signals a timeline semaphore, waited for from the host.
    void useProgramFeatures(VkQueue queue) {
        if (indexing) useDescriptorIndexing();
        submitSignal(queue, sortlab::test::makeTimeline(device));
    }
    void useDescriptorIndexing() {
        VkDescriptorSetLayoutBinding binding{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 16, VK_SHADER_STAGE_COMPUTE_BIT};
        VkDescriptorBindingFlags flags = VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT;
        VkDescriptorSetLayoutBindingFlagsCreateInfo bf{
            VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO};
        bf.bindingCount = 1;
        bf.pBindingFlags = &flags;
        VkDescriptorSetLayoutCreateInfo li{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, &bf};
        li.bindingCount = 1;
        li.pBindings = &binding;
        VkDescriptorSetLayout layout = VK_NULL_HANDLE;
        ASSERT_EQ(vkCreateDescriptorSetLayout(device, &li, nullptr, &layout), VK_SUCCESS);
        vkDestroyDescriptorSetLayout(device, layout, nullptr);
    }
    void submitSignal(VkQueue queue, VkSemaphore timeline) {
        VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
        signal.semaphore = timeline;
        signal.value = 1;
        signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        VkSubmitInfo2 submit{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
        submit.signalSemaphoreInfoCount = 1;
        submit.pSignalSemaphoreInfos = &signal;
        ASSERT_EQ(vkQueueSubmit2(queue, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
        VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
        wi.semaphoreCount = 1;
        wi.pSemaphores = &timeline;
        wi.pValues = &signal.value;
        EXPECT_EQ(vkWaitSemaphores(device, &wi, 10'000'000'000ull), VK_SUCCESS);
        vkDestroySemaphore(device, timeline, nullptr);
    }

    // The device's first queue of the fixture's family.
    VkQueue firstQueue() const {
        VkQueue queue = VK_NULL_HANDLE;
        vkGetDeviceQueue(device, family, 0, &queue);
        return queue;
    }
    // A Context on the device and `queue`, told that `enabled` is what the device enables.
    Result<std::unique_ptr<Context>> adoptDevice(VkQueue queue, const EnabledFeatures& enabled) const {
        return Context::adopt({.instance = instance,
                               .physicalDevice = physical,
                               .device = device,
                               .queue = queue,
                               .queueFamily = family,
                               .enabled = enabled});
    }

    // Adopts the device, checks it builds create()'s pipelines, and sorts keys and pairs.
    void adoptAndSort(const DeviceFeatures& features) {
        const VkQueue queue = firstQueue();
        useProgramFeatures(queue);
        auto ctx = adoptDevice(queue, features.enabled());
        ASSERT_TRUE(ctx.ok()) << ctx.error().message;
        EXPECT_EQ((*ctx)->fullSubgroups(), createdFullSubgroups);
        EXPECT_EQ((*ctx)->subgroupSizeControl(), createdSizeControl);
        EXPECT_EQ(pipelinesOf(**ctx), createdPipelines);
        std::mt19937 rng(5);
        std::vector<uint32_t> keys(100'000), values(keys.size());
        for (auto& k : keys) k = rng() % 50;
        std::iota(values.begin(), values.end(), 0u);
        const auto input = keys;
        auto r = sortPairs(**ctx, std::span(keys), std::span(values), {.algorithm = Algorithm::onesweep});
        ASSERT_TRUE(r.ok()) << r.error().message;
        bool ok = true;
        for (size_t i = 0; i < keys.size(); ++i) {
            ok = ok && keys[i] == input[values[i]];
            if (i) ok = ok && (keys[i - 1] < keys[i] || (keys[i - 1] == keys[i] && values[i - 1] < values[i]));
        }
        EXPECT_TRUE(ok) << "sortPairs on the adopted device";
        std::vector<float> floats(50'000);
        for (auto& f : floats) f = float(rng()) / 1000.0f - 1e6f;
        auto want = floats;
        std::sort(want.begin(), want.end());
        r = sort(**ctx, std::span(floats));
        ASSERT_TRUE(r.ok()) << r.error().message;
        EXPECT_EQ(floats, want);
    }

    static inline VkInstance instance = VK_NULL_HANDLE;
    static inline VkDebugUtilsMessengerEXT debugMessenger = VK_NULL_HANDLE;
    static inline VkPhysicalDevice physical = VK_NULL_HANDLE;
    static inline uint32_t apiVersion = 0, family = 0;
    static inline bool createdFullSubgroups = false, createdSizeControl = false, indexing = false;
    static inline bool attempted = false;
    static inline std::vector<std::string> createdPipelines;
    VkDevice device = VK_NULL_HANDLE;
    VkDeviceQueueCreateInfo queueInfo{};
};

// [SECTION] Features merged: Vulkan12/13Features, per-feature structs, pEnabledFeatures, errors ----

// The program enables its features through VkPhysicalDeviceVulkan12Features and 13Features: the
// sorts' are set in those same structs, none is added beside them.
TEST_F(Features, MergedIntoVulkan12And13Features) {
    VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    v13.synchronization2 = VK_TRUE;
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
    v12.timelineSemaphore = VK_TRUE;
    v12.descriptorBindingPartiallyBound = indexing;
    v12.runtimeDescriptorArray = indexing;
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &v12};
    DeviceFeatures features(physical, apiVersion);
    device = makeDevice(info, features);
    ASSERT_TRUE(device);
    EXPECT_TRUE(v12.bufferDeviceAddress && v12.timelineSemaphore); // set, not cleared
    EXPECT_EQ(bool(v12.runtimeDescriptorArray), indexing);
    EXPECT_TRUE(v13.synchronization2);
    EXPECT_EQ(bool(v13.subgroupSizeControl), createdSizeControl);
    const auto types = sTypes(info.pNext);
    EXPECT_EQ(std::count(types.begin(), types.end(), VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES), 1);
    EXPECT_TRUE(holds(types, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2)); // shaderInt64, added in front
    adoptAndSort(features);
}

// The program enables them through the per-feature structs (and has a VkPhysicalDeviceFeatures2 and
// a VkPhysicalDeviceBufferDeviceAddressFeatures of its own): the sorts' needs go into those, and the
// structs missing from the chain are added as per-feature structs, not as Vulkan12/13Features.
TEST_F(Features, MergedIntoPerFeatureStructs) {
    VkPhysicalDeviceSynchronization2Features sync2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES};
    sync2.synchronization2 = VK_TRUE;
    VkPhysicalDeviceDescriptorIndexingFeatures indexingFeatures{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES, &sync2};
    indexingFeatures.descriptorBindingPartiallyBound = indexing;
    indexingFeatures.runtimeDescriptorArray = indexing;
    VkPhysicalDeviceTimelineSemaphoreFeatures timeline{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
                                                       &indexingFeatures};
    timeline.timelineSemaphore = VK_TRUE;
    VkPhysicalDeviceBufferDeviceAddressFeatures address{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES, &timeline};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &address};
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f2};
    DeviceFeatures features(physical, apiVersion);
    device = makeDevice(info, features);
    ASSERT_TRUE(device);
    EXPECT_TRUE(f2.features.shaderInt64); // in the program's own VkPhysicalDeviceFeatures2
    EXPECT_TRUE(address.bufferDeviceAddress);
    const auto types = sTypes(info.pNext);
    EXPECT_FALSE(holds(types, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES));
    EXPECT_FALSE(holds(types, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES));
    EXPECT_EQ(holds(types, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES), createdSizeControl);
    adoptAndSort(features);
}

// The program's core features at pEnabledFeatures: shaderInt64 is added to a copy there (a
// VkPhysicalDeviceFeatures2 in the chain would be invalid beside it).
TEST_F(Features, MergedIntoEnabledFeatures) {
    VkPhysicalDeviceFeatures core{};
    core.robustBufferAccess = VK_TRUE;
    VkPhysicalDeviceTimelineSemaphoreFeatures timeline{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
    timeline.timelineSemaphore = VK_TRUE;
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &timeline};
    info.pEnabledFeatures = &core;
    DeviceFeatures features(physical, apiVersion);
    device = makeDevice(info, features);
    ASSERT_TRUE(device);
    ASSERT_NE(info.pEnabledFeatures, nullptr);
    EXPECT_TRUE(info.pEnabledFeatures->shaderInt64 && info.pEnabledFeatures->robustBufferAccess);
    EXPECT_FALSE(holds(sTypes(info.pNext), VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2));
    EXPECT_TRUE(features.enabled().shaderInt64 && features.enabled().bufferDeviceAddress);
}

// chain(next): the same merge for a bare pNext chain (the program's Vulkan12Features, set in place).
TEST_F(Features, ChainMergesIntoABareChain) {
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    v12.timelineSemaphore = VK_TRUE;
    DeviceFeatures features(physical, apiVersion);
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, features.chain(&v12)};
    EXPECT_TRUE(v12.bufferDeviceAddress && v12.timelineSemaphore);
    const auto types = sTypes(info.pNext);
    EXPECT_EQ(std::count(types.begin(), types.end(), VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES), 1);
    EXPECT_TRUE(holds(types, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2));
    device = makeDevice(info, features); // addTo again: nothing more to add
    ASSERT_TRUE(device);
    EXPECT_EQ(sTypes(info.pNext), types);
}

// A chain Vulkan already forbids is refused with the reason, and left as it was.
TEST_F(Features, ForbiddenChainIsAnError) {
    VkPhysicalDeviceTimelineSemaphoreFeatures timeline{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES};
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &timeline};
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &v12};
    DeviceFeatures features(physical, apiVersion);
    auto r = features.addTo(info);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, Errc::invalid_argument);
    EXPECT_NE(r.error().message.find("VkPhysicalDeviceVulkan12Features"), std::string::npos) << r.error().message;
    EXPECT_EQ(info.pNext, &v12);
    EXPECT_FALSE(v12.bufferDeviceAddress);
}

// [SECTION] Adoption: refused without the needs, destroyed without waiting for the device ---------

// AdoptInfo::enabled without bufferDeviceAddress: refused, before anything is made.
TEST_F(Features, AdoptRefusesWhatTheDeviceLacks) {
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    DeviceFeatures features(physical, apiVersion);
    device = makeDevice(info, features);
    ASSERT_TRUE(device);
    EnabledFeatures lacking = features.enabled();
    lacking.bufferDeviceAddress = false;
    auto ctx = adoptDevice(firstQueue(), lacking);
    ASSERT_FALSE(ctx.ok());
    EXPECT_EQ(ctx.error().code, Errc::missing_feature);
    EXPECT_NE(ctx.error().message.find("bufferDeviceAddress"), std::string::npos) << ctx.error().message;
}

// Destroying an adopted Context waits for its own work only: the program's submission, waiting on
// a timeline value the host signals 3 s later, is still pending when the Context is gone.
TEST_F(Features, DestroyingAnAdoptedContextLeavesTheProgramsWork) {
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    v12.timelineSemaphore = VK_TRUE;
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &v12};
    DeviceFeatures features(physical, apiVersion);
    device = makeDevice(info, features);
    ASSERT_TRUE(device);
    const VkQueue queue = firstQueue();
    auto ctx = adoptDevice(queue, features.enabled());
    ASSERT_TRUE(ctx.ok()) << ctx.error().message;
    std::vector<uint32_t> keys(1000);
    std::iota(keys.rbegin(), keys.rend(), 0u);
    ASSERT_TRUE(sort(**ctx, std::span(keys)).ok());
    ASSERT_TRUE(std::is_sorted(keys.begin(), keys.end()));

    VkSemaphore timeline = sortlab::test::makeTimeline(device);
    const uint64_t one = 1;
    VkTimelineSemaphoreSubmitInfo ts{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    ts.waitSemaphoreValueCount = 1;
    ts.pWaitSemaphoreValues = &one;
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO, &ts};
    si.waitSemaphoreCount = 1;
    si.pWaitSemaphores = &timeline;
    si.pWaitDstStageMask = &stage;
    VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateFence(device, &fi, nullptr, &fence), VK_SUCCESS);
    ASSERT_EQ(vkQueueSubmit(queue, 1, &si, fence), VK_SUCCESS); // pending until the host signals
    std::thread signaller([&] {
        std::this_thread::sleep_for(std::chrono::seconds(3));
        VkSemaphoreSignalInfo sig{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
        sig.semaphore = timeline;
        sig.value = 1;
        vkSignalSemaphore(device, &sig);
    });
    const auto start = std::chrono::steady_clock::now();
    ctx->reset(); // must not wait for the device to idle
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_EQ(vkGetFenceStatus(device, fence), VK_NOT_READY) << "the program's submission finished first";
    signaller.join();
    EXPECT_LT(took, std::chrono::milliseconds(2500));
    EXPECT_EQ(vkWaitForFences(device, 1, &fence, VK_TRUE, 10'000'000'000ull), VK_SUCCESS);
    vkDestroyFence(device, fence, nullptr);
    vkDestroySemaphore(device, timeline, nullptr);
}

// [SECTION] An instance of the program's own, shown to sortlab first --------------------------------

// A program that makes its instance with its own Vulkan calls and shows it to sortlab first through
// DeviceFeatures (ctest runs each test in a process of its own: here nothing of sortlab ran before).
TEST(OwnInstance, DeviceFeaturesAndAdoptBeforeAnythingElse) {
    const char* layer = "VK_LAYER_KHRONOS_validation";
    const char* debugUtils = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    ci.enabledLayerCount = 1;
    ci.ppEnabledLayerNames = &layer;
    ci.enabledExtensionCount = 1;
    ci.ppEnabledExtensionNames = &debugUtils;
    VkInstance instance = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateInstance(&ci, nullptr, &instance), VK_SUCCESS);
    VkDebugUtilsMessengerCreateInfoEXT mi{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    mi.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    mi.pfnUserCallback = &onMessage;
    auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    auto destroyMessenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    ASSERT_EQ(createMessenger(instance, &mi, nullptr, &messenger), VK_SUCCESS);
    uint32_t count = 1;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    vkEnumeratePhysicalDevices(instance, &count, &physical); // the first device
    ASSERT_TRUE(physical);
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(physical, &props);
    VkPhysicalDeviceVulkan13Features have13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &have13};
    vkGetPhysicalDeviceFeatures2(physical, &have);
    const bool sizeControl = props.apiVersion >= VK_API_VERSION_1_3 && have13.subgroupSizeControl;

    DeviceFeatures features(instance, physical, props.apiVersion); // sortlab's first call
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    v12.timelineSemaphore = VK_TRUE;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qi.queueCount = 1; // family 0: lavapipe's only one, and the first on most GPUs, computes
    qi.pQueuePriorities = &priority;
    VkDeviceCreateInfo di{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &v12};
    di.queueCreateInfoCount = 1;
    di.pQueueCreateInfos = &qi;
    ASSERT_TRUE(features.addTo(di).ok());
    EXPECT_EQ(features.enabled().subgroupSizeControl, sizeControl) << "sortlab saw what the device has";
    VkDevice device = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateDevice(physical, &di, nullptr, &device), VK_SUCCESS);
    VkQueue queue = VK_NULL_HANDLE;
    vkGetDeviceQueue(device, 0, 0, &queue);
    {
        auto ctx = Context::adopt({.instance = instance,
                                   .physicalDevice = physical,
                                   .device = device,
                                   .queue = queue,
                                   .queueFamily = 0,
                                   .enabled = features.enabled()});
        ASSERT_TRUE(ctx.ok()) << ctx.error().message;
        EXPECT_EQ((*ctx)->subgroupSizeControl(), sizeControl);
        std::vector<uint64_t> keys(30'000);
        std::mt19937_64 rng(9);
        for (auto& k : keys) k = rng();
        auto want = keys;
        std::sort(want.begin(), want.end());
        auto r = sort(**ctx, std::span(keys));
        ASSERT_TRUE(r.ok()) << r.error().message;
        EXPECT_EQ(keys, want);
    }
    vkDestroyDevice(device, nullptr);
    destroyMessenger(instance, messenger, nullptr);
    vkDestroyInstance(instance, nullptr);
    EXPECT_EQ(takeMessages(), "") << "validation messages";
}

} // namespace
