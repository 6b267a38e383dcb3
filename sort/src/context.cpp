// [SECTION] Errors and names
// [SECTION] Device inspection (what a physical device offers, whether it can run the sorts)
// [SECTION] Instance and device creation
// [SECTION] Device features merged into the caller's
// [SECTION] Device choice
// [SECTION] Submission with a fence timeout
// [SECTION] Validation messages
#include <sortlab/context.h>

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace sortlab {

// [SECTION] Errors and names ---------------------------------------------------------------------

const char* errcName(Errc code) {
    // In Errc's order.
    static const char* const names[] = {"no Vulkan",    "no device",        "missing feature", "out of memory",
                                        "too large",    "invalid argument", "timeout",         "device lost",
                                        "Vulkan error", "I/O error",        "parse error"};
    const size_t i = static_cast<size_t>(code);
    return i < std::size(names) ? names[i] : "error";
}

const char* vkResultName(VkResult r) {
    switch (r) {
#define SORTLAB_CASE(x)                                                                                                \
    case x:                                                                                                            \
        return #x;
        SORTLAB_CASE(VK_SUCCESS)
        SORTLAB_CASE(VK_NOT_READY)
        SORTLAB_CASE(VK_TIMEOUT)
        SORTLAB_CASE(VK_INCOMPLETE)
        SORTLAB_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
        SORTLAB_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        SORTLAB_CASE(VK_ERROR_INITIALIZATION_FAILED)
        SORTLAB_CASE(VK_ERROR_DEVICE_LOST)
        SORTLAB_CASE(VK_ERROR_MEMORY_MAP_FAILED)
        SORTLAB_CASE(VK_ERROR_LAYER_NOT_PRESENT)
        SORTLAB_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
        SORTLAB_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
        SORTLAB_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
        SORTLAB_CASE(VK_ERROR_TOO_MANY_OBJECTS)
        SORTLAB_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
        SORTLAB_CASE(VK_ERROR_UNKNOWN)
        SORTLAB_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
        SORTLAB_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
        SORTLAB_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
#undef SORTLAB_CASE
    default:
        return "VkResult(unknown)";
    }
}

Error vkError(VkResult r, const std::string& what) {
    std::string msg = what + " failed: " + vkResultName(r);
    switch (r) {
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
        return makeError(Errc::out_of_memory, msg + " (the GPU has too little free memory; try a smaller n)");
    case VK_ERROR_OUT_OF_HOST_MEMORY:
        return makeError(Errc::out_of_memory, msg + " (host memory exhausted; try a smaller n)");
    case VK_ERROR_DEVICE_LOST:
        return makeError(Errc::device_lost, msg + " (the GPU stopped responding; this context cannot be used again)");
    case VK_TIMEOUT:
        return makeError(Errc::timeout, msg);
    default:
        return makeError(Errc::vulkan_error, msg);
    }
}

bool deviceHasExtension(VkPhysicalDevice device, const char* name) {
    if (!vkEnumerateDeviceExtensionProperties) return false; // an instance the library was never shown
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> exts(count);
    vkEnumerateDeviceExtensionProperties(device, nullptr, &count, exts.data());
    for (auto& e : exts)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

namespace {

// (Declared in vulkan_beta.h, which the build does not include.)
constexpr const char* kPortabilitySubsetExtension = "VK_KHR_portability_subset";

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

const char* typeName(VkPhysicalDeviceType t) {
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return "CPU";
    default:
        return "other";
    }
}

int typeScore(VkPhysicalDeviceType t) {
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return 1;
    default:
        return 0;
    }
}

Result<void> loadVulkan() {
    static VkResult loaded = volkInitialize();
    if (loaded != VK_SUCCESS)
        return makeError(Errc::no_vulkan, "no Vulkan loader found (libvulkan.so.1); install libvulkan1 and a driver "
                                          "(mesa-vulkan-drivers for the CPU driver, or your GPU vendor's)");
    return {};
}

// The library's loader pointed at `instance` (made by the program, perhaps, with its own Vulkan).
void loadInstance(VkInstance instance) {
    if (instance && loadVulkan() && volkGetLoadedInstance() != instance) volkLoadInstance(instance);
}

bool hasInstanceExtension(const char* name) {
    uint32_t count = 0;
    vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> exts(count);
    vkEnumerateInstanceExtensionProperties(nullptr, &count, exts.data());
    for (auto& e : exts)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

void addOnce(std::vector<const char*>& names, const char* name) {
    for (const char* n : names)
        if (std::strcmp(n, name) == 0) return;
    names.push_back(name);
}

// The first queue family with compute (preferring one with timestamps).
std::optional<uint32_t> computeFamily(VkPhysicalDevice pd, bool* timestamps) {
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, nullptr);
    std::vector<VkQueueFamilyProperties> fams(count);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, fams.data());
    std::optional<uint32_t> best;
    for (uint32_t i = 0; i < count; ++i) {
        if (!(fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
        if (!best || (fams[i].timestampValidBits > 0 && fams[*best].timestampValidBits == 0)) best = i;
    }
    if (best && timestamps) *timestamps = fams[*best].timestampValidBits > 0;
    return best;
}

// [SECTION] Device inspection --------------------------------------------------------------------

DeviceInfo inspect(VkPhysicalDevice pd, uint32_t index) {
    DeviceInfo d;
    d.index = index;
    VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceSubgroupSizeControlPropertiesEXT sizeControl{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES_EXT};
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceMaintenance4Properties m4{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES};
    VkPhysicalDeviceMaintenance3Properties m3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
    VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    VkPhysicalDeviceProperties basic;
    vkGetPhysicalDeviceProperties(pd, &basic);
    props.pNext = &subgroup;
    subgroup.pNext = &m3;
    if (basic.apiVersion >= VK_API_VERSION_1_2) m3.pNext = &driver;
    if (basic.apiVersion >= VK_API_VERSION_1_3) {
        driver.pNext = &sizeControl;
        sizeControl.pNext = &m4;
    }
    // NVIDIA's count of multiprocessors (VK_NV_shader_sm_builtins), where the driver offers it.
    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV};
    if (deviceHasExtension(pd, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME)) {
        sm.pNext = props.pNext;
        props.pNext = &sm;
    }
    vkGetPhysicalDeviceProperties2(pd, &props);
    d.multiprocessors = sm.shaderSMCount;
    const auto& p = props.properties;

    d.name = p.deviceName;
    d.type = p.deviceType;
    d.typeName = typeName(p.deviceType);
    d.apiVersion = p.apiVersion;
    d.vendorId = p.vendorID;
    if (basic.apiVersion >= VK_API_VERSION_1_2) d.driver = std::string(driver.driverName) + " " + driver.driverInfo;
    d.subgroupSize = subgroup.subgroupSize;
    d.minSubgroupSize = sizeControl.minSubgroupSize ? sizeControl.minSubgroupSize : subgroup.subgroupSize;
    d.maxSubgroupSize = sizeControl.maxSubgroupSize ? sizeControl.maxSubgroupSize : subgroup.subgroupSize;
    d.requiredSubgroupSizeStages = sizeControl.requiredSubgroupSizeStages;
    d.maxComputeWorkgroupSubgroups = sizeControl.maxComputeWorkgroupSubgroups;
    d.subgroupOps = (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ? subgroup.supportedOperations : 0;
    d.maxStorageBufferRange = p.limits.maxStorageBufferRange;
    d.maxMemoryAllocationSize = m3.maxMemoryAllocationSize;
    // Vulkan 1.3 reports the largest buffer; before that, only the guaranteed allocation size.
    d.maxBufferSize = m4.maxBufferSize ? m4.maxBufferSize : m3.maxMemoryAllocationSize;
    d.sharedMemoryBytes = p.limits.maxComputeSharedMemorySize;
    d.maxWorkgroupSize = std::min(p.limits.maxComputeWorkGroupInvocations, p.limits.maxComputeWorkGroupSize[0]);
    for (int i = 0; i < 3; ++i) d.maxWorkgroupCount[i] = p.limits.maxComputeWorkGroupCount[i];
    d.timestampPeriodNs = p.limits.timestampPeriod;
    d.isLavapipe =
        d.name.find("llvmpipe") != std::string::npos || lower(d.driver).find("llvmpipe") != std::string::npos;

    VkPhysicalDeviceMemoryProperties mem;
    vkGetPhysicalDeviceMemoryProperties(pd, &mem);
    for (uint32_t i = 0; i < mem.memoryHeapCount; ++i)
        if (mem.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            d.deviceLocalBytes = std::max<uint64_t>(d.deviceLocalBytes, mem.memoryHeaps[i].size);

    // What the sorts need.
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    if (basic.apiVersion >= VK_API_VERSION_1_2) f2.pNext = &f12;
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    bool ts = false;
    auto family = computeFamily(pd, &ts);
    d.timestamps = ts && p.limits.timestampPeriod > 0;
    std::string why;
    auto need = [&](bool ok, const char* what) {
        if (!ok) why += (why.empty() ? "" : ", ") + std::string(what);
    };
    need(p.apiVersion >= VK_API_VERSION_1_2, "Vulkan 1.2");
    need(family.has_value(), "a compute queue");
    need(f2.features.shaderInt64, "shaderInt64");
    need(f12.bufferDeviceAddress, "bufferDeviceAddress");
    need((d.subgroupOps & VK_SUBGROUP_FEATURE_BASIC_BIT) != 0, "subgroup operations in compute shaders");
    need((d.subgroupOps & VK_SUBGROUP_FEATURE_SHUFFLE_BIT) != 0, "subgroup shuffles in compute shaders");
    d.suitable = why.empty();
    if (!d.suitable) d.unsuitableWhy = "lacks " + why;
    return d;
}

Result<std::vector<VkPhysicalDevice>> physicalDevices(VkInstance instance) {
    uint32_t count = 0;
    SORTLAB_VK(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> pds(count);
    SORTLAB_VK(vkEnumeratePhysicalDevices(instance, &count, pds.data()), "vkEnumeratePhysicalDevices");
    return pds;
}

// [SECTION] Instance and device creation ---------------------------------------------------------

// *flags: the VkInstanceCreateFlags used; *enabled (if not null): the instance extensions enabled.
Result<VkInstance> makeInstance(bool validation, bool* debugUtils, VkInstanceCreateFlags* flags,
                                const std::vector<const char*>& extensions = {},
                                std::vector<std::string>* enabled = nullptr);

struct InstanceHandle {
    VkInstance instance = VK_NULL_HANDLE;
    ~InstanceHandle() {
        if (instance) vkDestroyInstance(instance, nullptr);
    }
};

} // namespace

Result<VkInstance> createInstance(bool validation, const std::vector<const char*>& extensions) {
    bool debugUtils = false;
    VkInstanceCreateFlags flags = 0;
    return makeInstance(validation, &debugUtils, &flags, extensions);
}

std::vector<const char*> requiredDeviceExtensions(VkPhysicalDevice device) {
    std::vector<const char*> exts;
    // A portability implementation (MoltenVK) advertises this, and then it must be enabled.
    if (deviceHasExtension(device, kPortabilitySubsetExtension)) exts.push_back(kPortabilitySubsetExtension);
    return exts;
}

namespace {

Result<VkInstance> makeInstance(bool validation, bool* debugUtils, VkInstanceCreateFlags* flags,
                                const std::vector<const char*>& extensions, std::vector<std::string>* enabled) {
    SORTLAB_TRY(loadVulkan());
    uint32_t loaderVersion = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion) vkEnumerateInstanceVersion(&loaderVersion);
    if (loaderVersion < VK_API_VERSION_1_2)
        return makeError(Errc::no_vulkan, "the Vulkan loader is older than 1.2; update libvulkan1");

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "sortlab";
    app.apiVersion = loaderVersion >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;

    std::vector<const char*> layers, exts = extensions;
    *debugUtils = false;
    *flags = 0;
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    if (validation) {
        // Under Wine, winevulkan lists no layers, but the host's loader under it enables those that
        // the host's VK_INSTANCE_LAYERS names (a variable Wine keeps from Windows programs), and
        // their messages reach our messenger: SORTLAB_HOST_VALIDATION=1 says so (docs/windows.md).
        const bool listed = instanceHasLayer("VK_LAYER_KHRONOS_validation");
        const char* host = std::getenv("SORTLAB_HOST_VALIDATION");
        if (!listed && !(host && std::strcmp(host, "1") == 0))
            return makeError(Errc::missing_feature, "validation was requested but VK_LAYER_KHRONOS_validation "
                                                    "is not installed (apt install vulkan-validationlayers)");
        if (listed) layers.push_back("VK_LAYER_KHRONOS_validation");
        ci.pNext = &features;
    }
    if (hasInstanceExtension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME) || validation) {
        exts.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        *debugUtils = true;
    }
    // Portability implementations (MoltenVK on macOS) are listed only to an instance that asks for
    // them; where the loader offers the extension, ask (other devices are listed as before).
    if (hasInstanceExtension(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
        addOnce(exts, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
        *flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    }
    ci.flags = *flags;
    ci.pApplicationInfo = &app;
    ci.enabledLayerCount = static_cast<uint32_t>(layers.size());
    ci.ppEnabledLayerNames = layers.data();
    ci.enabledExtensionCount = static_cast<uint32_t>(exts.size());
    ci.ppEnabledExtensionNames = exts.data();
    VkInstance instance = VK_NULL_HANDLE;
    VkResult r = vkCreateInstance(&ci, nullptr, &instance);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER || r == VK_ERROR_INITIALIZATION_FAILED)
        return makeError(Errc::no_vulkan, std::string("no Vulkan driver could be loaded (") + vkResultName(r) +
                                              "); install mesa-vulkan-drivers or your GPU vendor's driver");
    SORTLAB_VK(r, "vkCreateInstance");
    // Device functions through the loader's trampolines, which dispatch on the handle: the sorts'
    // device and a caller's (or a second Context's) can be used side by side.
    volkLoadInstance(instance);
    if (enabled) enabled->assign(exts.begin(), exts.end());
    return instance;
}

} // namespace

Result<VkDebugUtilsMessengerEXT> createDebugMessenger(VkInstance instance,
                                                      PFN_vkDebugUtilsMessengerCallbackEXT callback, void* user) {
    loadInstance(instance);
    if (!vkCreateDebugUtilsMessengerEXT)
        return makeError(Errc::missing_feature, "the instance was created without VK_EXT_debug_utils");
    VkDebugUtilsMessengerCreateInfoEXT mi{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    mi.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    mi.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
    mi.pfnUserCallback = callback;
    mi.pUserData = user;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    SORTLAB_VK(vkCreateDebugUtilsMessengerEXT(instance, &mi, nullptr, &messenger), "vkCreateDebugUtilsMessengerEXT");
    return messenger;
}

bool instanceHasLayer(const char* name) {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    for (auto& l : layers)
        if (std::strcmp(l.layerName, name) == 0) return true;
    return false;
}

// [SECTION] Device features merged into the caller's -------------------------------------------------

namespace {

// The structs each VulkanNNFeatures contains: Vulkan forbids a VulkanNNFeatures and one of its
// structs in the same chain (VUID-VkDeviceCreateInfo-pNext-02829, -02830, -06532).
VkStructureType containerOf(VkStructureType t) {
    switch (t) {
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTIVIEW_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES:
        return VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES:
        return VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXTURE_COMPRESSION_ASTC_HDR_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES:
    case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES:
        return VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    default:
        return VK_STRUCTURE_TYPE_MAX_ENUM;
    }
}

std::string containerName(VkStructureType t) {
    return t == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES   ? "VkPhysicalDeviceVulkan11Features"
           : t == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES ? "VkPhysicalDeviceVulkan12Features"
                                                                        : "VkPhysicalDeviceVulkan13Features";
}

// The structs of a pNext chain by sType.
struct FeatureChain {
    std::map<VkStructureType, VkBaseOutStructure*> structs;
    template <class T> T* find(VkStructureType type) const {
        auto it = structs.find(type);
        return it == structs.end() ? nullptr : reinterpret_cast<T*>(it->second);
    }
    bool holdsPartOf(VkStructureType container) const {
        for (auto& [type, s] : structs)
            if (containerOf(type) == container) return true;
        return false;
    }
};

// The chain at `next`; an error for one that Vulkan forbids.
Result<FeatureChain> readChain(const void* next, bool enabledFeatures) {
    FeatureChain chain;
    size_t length = 0;
    for (auto* s = static_cast<VkBaseOutStructure*>(const_cast<void*>(next)); s; s = s->pNext) {
        if (++length > 4096) return makeError(Errc::invalid_argument, "the pNext chain does not end (a loop?)");
        if (!chain.structs.emplace(s->sType, s).second)
            return makeError(Errc::invalid_argument,
                             "the pNext chain holds sType " + std::to_string(int(s->sType)) + " twice");
    }
    for (auto& [type, s] : chain.structs) {
        const VkStructureType container = containerOf(type);
        if (container != VK_STRUCTURE_TYPE_MAX_ENUM && chain.structs.count(container))
            return makeError(Errc::invalid_argument, "the pNext chain holds " + containerName(container) +
                                                         " and sType " + std::to_string(int(type)) +
                                                         ", a struct it contains");
    }
    if (enabledFeatures && chain.structs.count(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2))
        return makeError(Errc::invalid_argument, "pEnabledFeatures is set and the pNext chain holds "
                                                 "VkPhysicalDeviceFeatures2; Vulkan allows one of them");
    return chain;
}

void enable(VkBool32& feature, bool on) {
    if (on) feature = VK_TRUE;
}

} // namespace

DeviceFeatures::DeviceFeatures(VkInstance instance, VkPhysicalDevice physicalDevice, uint32_t apiVersion)
    : DeviceFeatures((loadInstance(instance), physicalDevice), apiVersion) {}

DeviceFeatures::DeviceFeatures(VkPhysicalDevice physicalDevice, uint32_t apiVersion) : physical_(physicalDevice) {
    if (!vkGetPhysicalDeviceFeatures2) return; // an instance the library was never shown: the needs alone
    have_.pNext = &have12_;
    v13 = apiVersion >= VK_API_VERSION_1_3;
    if (v13) have12_.pNext = &have13_;
    vkGetPhysicalDeviceFeatures2(physicalDevice, &have_);
    have12_.pNext = nullptr;
    fullSubgroups_ = v13 && have13_.computeFullSubgroups && have13_.subgroupSizeControl;
}

// The caller's chain, and ours to put in front of it: use() gives the caller's struct of a type,
// else ours (reset, and put in front).
struct DeviceFeatures::Merge {
    std::map<VkStructureType, VkBaseOutStructure*> structs; // the caller's, by sType
    std::vector<VkBaseOutStructure*> front;
    template <class T> T& use(T& ours, VkStructureType type) {
        if (auto it = structs.find(type); it != structs.end()) return *reinterpret_cast<T*>(it->second);
        ours = T{};
        ours.sType = type;
        front.push_back(reinterpret_cast<VkBaseOutStructure*>(&ours));
        return ours;
    }
    // The caller's chain has container (a VulkanNNFeatures) or a struct that container holds.
    bool holds(VkStructureType container) const {
        if (structs.count(container)) return true;
        for (auto& [type, s] : structs)
            if (containerOf(type) == container) return true;
        return false;
    }
};

Result<void> DeviceFeatures::addTo(VkDeviceCreateInfo& info) {
    auto read = readChain(info.pNext, info.pEnabledFeatures != nullptr);
    if (!read) return read.error();
    Merge m{read->structs, {}};

    // shaderInt64: VkPhysicalDeviceFeatures, in the chain or at pEnabledFeatures.
    const VkPhysicalDeviceFeatures* enabledCore = info.pEnabledFeatures;
    if (info.pEnabledFeatures) {
        core_ = *info.pEnabledFeatures;
        core_.shaderInt64 = VK_TRUE;
        enabledCore = &core_;
    } else {
        m.use(features_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2).features.shaderInt64 = VK_TRUE;
    }
    merge12(m);
    merge13(m);

    // Ours in front of the caller's chain.
    for (size_t i = 0; i < m.front.size(); ++i)
        m.front[i]->pNext =
            i + 1 < m.front.size() ? m.front[i + 1] : static_cast<VkBaseOutStructure*>(const_cast<void*>(info.pNext));
    if (!m.front.empty()) info.pNext = m.front.front();
    info.pEnabledFeatures = enabledCore;
    addExtensions(info);
    enabled_ = enabledFeatures(info);
    return {};
}

// Vulkan 1.2: one VkPhysicalDeviceVulkan12Features, or the per-feature structs where the chain
// already has some of those.
void DeviceFeatures::merge12(Merge& m) {
    const bool memoryModel = have12_.vulkanMemoryModel, atomics = have12_.shaderBufferInt64Atomics,
               queryReset = have12_.hostQueryReset, timeline = have12_.timelineSemaphore;
    // Ours where the chain has the VulkanNNFeatures or nothing of it; else the per-feature structs.
    if (m.structs.count(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES) ||
        !m.holds(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES)) {
        auto& f = m.use(v12_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
        f.bufferDeviceAddress = VK_TRUE;
        enable(f.vulkanMemoryModel, memoryModel);
        enable(f.vulkanMemoryModelDeviceScope, memoryModel && have12_.vulkanMemoryModelDeviceScope);
        enable(f.shaderBufferInt64Atomics, atomics);
        enable(f.hostQueryReset, queryReset);
        enable(f.timelineSemaphore, timeline);
        return;
    }
    m.use(address_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES).bufferDeviceAddress = VK_TRUE;
    if (memoryModel) {
        auto& f = m.use(memoryModel_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES);
        f.vulkanMemoryModel = VK_TRUE;
        enable(f.vulkanMemoryModelDeviceScope, have12_.vulkanMemoryModelDeviceScope);
    }
    if (atomics)
        m.use(atomics_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES).shaderBufferInt64Atomics =
            VK_TRUE;
    if (queryReset)
        m.use(queryReset_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES).hostQueryReset = VK_TRUE;
    if (timeline)
        m.use(timeline_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES).timelineSemaphore = VK_TRUE;
}

// Vulkan 1.3 (only on a 1.3 device, and only what it has): the same choice.
void DeviceFeatures::merge13(Merge& m) {
    const bool sizeControl = v13 && have13_.subgroupSizeControl, full = fullSubgroups_,
               maintenance4 = v13 && have13_.maintenance4;
    if (!sizeControl && !maintenance4) return;
    // Ours where the chain has the VulkanNNFeatures or nothing of it; else the per-feature structs.
    if (m.structs.count(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES) ||
        !m.holds(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES)) {
        auto& f = m.use(v13_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
        enable(f.subgroupSizeControl, sizeControl);
        enable(f.computeFullSubgroups, full);
        enable(f.maintenance4, maintenance4);
        return;
    }
    if (sizeControl) {
        auto& f = m.use(sizeControl_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES);
        f.subgroupSizeControl = VK_TRUE;
        enable(f.computeFullSubgroups, full);
    }
    if (maintenance4)
        m.use(maintenance4_, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES).maintenance4 = VK_TRUE;
}

// The extensions every device for the sorts enables, each once.
void DeviceFeatures::addExtensions(VkDeviceCreateInfo& info) {
    std::vector<const char*> exts(info.ppEnabledExtensionNames,
                                  info.ppEnabledExtensionNames + info.enabledExtensionCount);
    bool added = false;
    for (const char* name : requiredDeviceExtensions(physical_))
        if (std::none_of(exts.begin(), exts.end(), [&](const char* e) { return std::strcmp(e, name) == 0; })) {
            exts.push_back(name);
            added = true;
        }
    if (added) {
        extensions_ = std::move(exts);
        info.enabledExtensionCount = static_cast<uint32_t>(extensions_.size());
        info.ppEnabledExtensionNames = extensions_.data();
    }
}

void* DeviceFeatures::chain(void* next) {
    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.pNext = next;
    (void)addTo(info); // a chain Vulkan forbids comes back as it was
    return const_cast<void*>(info.pNext);
}

EnabledFeatures enabledFeatures(const VkDeviceCreateInfo& info) {
    EnabledFeatures e;
    for (auto* s = static_cast<const VkBaseInStructure*>(info.pNext); s; s = s->pNext) {
        switch (s->sType) {
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2:
            e.shaderInt64 |= reinterpret_cast<const VkPhysicalDeviceFeatures2*>(s)->features.shaderInt64 != 0;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
            auto* f = reinterpret_cast<const VkPhysicalDeviceVulkan12Features*>(s);
            e.bufferDeviceAddress |= f->bufferDeviceAddress != 0;
            e.timelineSemaphore |= f->timelineSemaphore != 0;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES:
            e.timelineSemaphore |=
                reinterpret_cast<const VkPhysicalDeviceTimelineSemaphoreFeatures*>(s)->timelineSemaphore != 0;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES:
            e.bufferDeviceAddress |=
                reinterpret_cast<const VkPhysicalDeviceBufferDeviceAddressFeatures*>(s)->bufferDeviceAddress != 0;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES: {
            auto* f = reinterpret_cast<const VkPhysicalDeviceVulkan13Features*>(s);
            e.subgroupSizeControl |= f->subgroupSizeControl != 0;
            e.computeFullSubgroups |= f->computeFullSubgroups != 0;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES: {
            auto* f = reinterpret_cast<const VkPhysicalDeviceSubgroupSizeControlFeatures*>(s);
            e.subgroupSizeControl |= f->subgroupSizeControl != 0;
            e.computeFullSubgroups |= f->computeFullSubgroups != 0;
            break;
        }
        default:
            break;
        }
    }
    if (info.pEnabledFeatures) e.shaderInt64 |= info.pEnabledFeatures->shaderInt64 != 0;
    return e;
}

// [SECTION] Device choice -----------------------------------------------------------------------------

Result<uint32_t> chooseDevice(const std::vector<DeviceInfo>& devices, const std::string& want, const DeviceFits& fits,
                              const std::string& user) {
    if (devices.empty())
        return makeError(Errc::no_device, "Vulkan found no device; install mesa-vulkan-drivers (CPU driver "
                                          "lavapipe) or your GPU vendor's driver");
    // Suitable for the sorts and for the caller; why not, when not.
    auto usable = [&](const DeviceInfo& d, std::string* why) {
        if (!d.suitable) {
            *why = d.unsuitableWhy;
            return false;
        }
        return !fits || fits(d, why);
    };
    std::string why;
    if (!want.empty()) {
        const bool digits =
            std::all_of(want.begin(), want.end(), [](char c) { return std::isdigit((unsigned char)c); });
        std::string w = lower(want);
        if (w == "lavapipe") w = "llvmpipe";
        const DeviceInfo* chosen = nullptr;
        if (digits) {
            size_t idx = SIZE_MAX; // stays so where the digits overflow size_t: refused below
            std::from_chars(want.data(), want.data() + want.size(), idx);
            if (idx >= devices.size())
                return makeError(Errc::no_device, "no device with index " + want + " (there are " +
                                                      std::to_string(devices.size()) + "; see --list-devices)");
            chosen = &devices[idx];
        } else {
            for (auto& d : devices)
                if (lower(d.name).find(w) != std::string::npos || lower(d.driver).find(w) != std::string::npos) {
                    chosen = &d;
                    break;
                }
            if (!chosen) return makeError(Errc::no_device, "no device named like '" + want + "' (see --list-devices)");
        }
        if (!usable(*chosen, &why))
            return makeError(Errc::missing_feature, chosen->name + " cannot run " + user + ": it " + why);
        return chosen->index;
    }
    const DeviceInfo* chosen = nullptr;
    for (auto& d : devices) {
        std::string w;
        if (!usable(d, &w)) {
            if (why.empty()) why = d.name + " " + w;
            continue;
        }
        if (!chosen || typeScore(d.type) > typeScore(chosen->type) ||
            (typeScore(d.type) == typeScore(chosen->type) && d.deviceLocalBytes > chosen->deviceLocalBytes))
            chosen = &d;
    }
    if (!chosen)
        return makeError(Errc::missing_feature,
                         "no Vulkan device can run " + user + ": " + why + "; update the driver or use another device");
    return chosen->index;
}

Result<std::vector<DeviceInfo>> Context::listDevices() {
    bool debugUtils = false;
    VkInstanceCreateFlags flags = 0;
    auto inst = makeInstance(false, &debugUtils, &flags);
    if (!inst) return inst.error();
    InstanceHandle owner{inst.value()};
    auto pds = physicalDevices(owner.instance);
    if (!pds) return pds.error();
    std::vector<DeviceInfo> out;
    for (uint32_t i = 0; i < pds->size(); ++i) out.push_back(inspect((*pds)[i], i));
    return out;
}

Result<std::unique_ptr<Context>> Context::create(const ContextOptions& options) {
    std::unique_ptr<Context> ctx(new Context());
    ctx->ownsDevice_ = true;
    ctx->fenceTimeout_ = options.fenceTimeout;
    bool debugUtils = false;
    auto inst = makeInstance(options.validation, &debugUtils, &ctx->instanceFlags_, {}, &ctx->instanceExtensions_);
    if (!inst) return inst.error();
    ctx->instance_ = inst.value();

    if (options.validation) {
        auto messenger = createDebugMessenger(ctx->instance_, &Context::debugCallback, ctx.get());
        if (!messenger) return messenger.error();
        ctx->messenger_ = *messenger;
    }

    auto pds = physicalDevices(ctx->instance_);
    if (!pds) return pds.error();
    std::vector<DeviceInfo> infos;
    for (uint32_t i = 0; i < pds->size(); ++i) infos.push_back(inspect((*pds)[i], i));
    auto index = chooseDevice(infos, options.device);
    if (!index) return index.error();
    const DeviceInfo* chosen = &infos[*index];
    ctx->physical_ = (*pds)[chosen->index];
    ctx->info_ = *chosen;
    ctx->queueFamily_ = *computeFamily(ctx->physical_, nullptr);

    DeviceFeatures features(ctx->physical_, chosen->apiVersion);
    // The pipelines' compiler statistics (registers, shared memory, spills, ...) where the driver
    // offers VK_KHR_pipeline_executable_properties: ContextOptions::pipelineStats (sortlab-bench
    // --pipeline-stats), or SORTLAB_PIPELINE_STATS=1, which also prints them as they are made.
    std::vector<const char*> deviceExts;
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR execProps{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    if (options.pipelineStats || std::getenv("SORTLAB_PIPELINE_STATS")) {
        if (deviceHasExtension(ctx->physical_, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) {
            deviceExts.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
            execProps.pipelineExecutableInfo = VK_TRUE;
            ctx->pipelineStats_ = true;
        }
    }
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qi{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qi.queueFamilyIndex = ctx->queueFamily_;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    VkDeviceCreateInfo di{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    if (ctx->pipelineStats_) di.pNext = &execProps;
    di.queueCreateInfoCount = 1;
    di.pQueueCreateInfos = &qi;
    di.enabledExtensionCount = static_cast<uint32_t>(deviceExts.size());
    di.ppEnabledExtensionNames = deviceExts.data();
    SORTLAB_TRY(features.addTo(di)); // and the extensions every such device enables
    ctx->subgroupSizeControl_ = features.enabled().subgroupSizeControl;
    ctx->fullSubgroups_ = ctx->subgroupSizeControl_ && features.enabled().computeFullSubgroups;
    ctx->timelineSemaphore_ = features.enabled().timelineSemaphore;
    SORTLAB_VK(vkCreateDevice(ctx->physical_, &di, nullptr, &ctx->device_), "vkCreateDevice");
    ctx->deviceExtensions_.assign(di.ppEnabledExtensionNames, di.ppEnabledExtensionNames + di.enabledExtensionCount);
    vkGetDeviceQueue(ctx->device_, ctx->queueFamily_, 0, &ctx->queue_);
    SORTLAB_TRY(ctx->finishSetup());
    return ctx;
}

Result<std::unique_ptr<Context>> Context::adopt(const AdoptInfo& a) {
    if (!a.instance || !a.physicalDevice || !a.device || !a.queue)
        return makeError(Errc::invalid_argument, "Context::adopt needs an instance, physical device, device and queue");
    SORTLAB_TRY(loadVulkan());
    volkLoadInstance(a.instance); // trampolines: the caller's device and ours share the globals
    std::unique_ptr<Context> ctx(new Context());
    ctx->ownsDevice_ = false;
    ctx->instance_ = a.instance;
    ctx->physical_ = a.physicalDevice;
    ctx->device_ = a.device;
    ctx->queue_ = a.queue;
    ctx->queueFamily_ = a.queueFamily;
    ctx->fenceTimeout_ = a.fenceTimeout;
    ctx->queueMutex_ = a.queueMutex;
    ctx->pipelineCache_ = a.pipelineCache;
    ctx->info_ = inspect(a.physicalDevice, 0);
    if (!ctx->info_.suitable)
        return makeError(Errc::missing_feature,
                         ctx->info_.name + " cannot run the sorts: it " + ctx->info_.unsuitableWhy);
    if (a.enabled) {
        // What the program says it enabled: the same pipelines as create() with the same features.
        if (!a.enabled->shaderInt64 || !a.enabled->bufferDeviceAddress)
            return makeError(Errc::missing_feature,
                             std::string("the device was created without ") +
                                 (a.enabled->shaderInt64 ? "bufferDeviceAddress" : "shaderInt64") +
                                 " enabled; add the sorts' features with sortlab::DeviceFeatures::addTo");
        ctx->subgroupSizeControl_ = a.enabled->subgroupSizeControl && ctx->info_.apiVersion >= VK_API_VERSION_1_3;
        ctx->fullSubgroups_ = ctx->subgroupSizeControl_ && a.enabled->computeFullSubgroups;
        ctx->timelineSemaphore_ = a.enabled->timelineSemaphore;
    }
    SORTLAB_TRY(ctx->finishSetup());
    return ctx;
}

Result<void> Context::finishSetup() {
    vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
    VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT | VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pi.queueFamilyIndex = queueFamily_;
    SORTLAB_VK(vkCreateCommandPool(device_, &pi, nullptr, &pool_), "vkCreateCommandPool");
    VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    SORTLAB_VK(vkCreateFence(device_, &fi, nullptr, &fence_), "vkCreateFence");
    return {};
}

Context::~Context() {
    oneCall_.reset(); // sortlab::sort's sorters and buffers, while the device is still there
    if (device_ && lost_) {
        // A submission timed out. Give it one more timeout to finish; if it never does, leak the
        // device rather than destroy objects the GPU may still use.
        if (vkWaitForFences(device_, 1, &fence_, VK_TRUE, static_cast<uint64_t>(fenceTimeout_.count())) != VK_SUCCESS)
            return;
        timedOutWorkPending(); // signalled now: frees what was deferred
    }
    if (device_) {
        // Every submission of ours was waited for on fence_ (a timed-out one, above). An adopted
        // device is the program's: waiting for it to idle would wait for the program's own work
        // and need every queue of it externally synchronized.
        if (ownsDevice_) vkDeviceWaitIdle(device_);
        if (fence_) vkDestroyFence(device_, fence_, nullptr);
        if (pool_) vkDestroyCommandPool(device_, pool_, nullptr);
    }
    if (!ownsDevice_) return;
    if (device_) vkDestroyDevice(device_, nullptr);
    if (messenger_) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    if (instance_) vkDestroyInstance(instance_, nullptr);
}

Result<uint32_t> Context::memoryType(uint32_t typeBits, VkMemoryPropertyFlags required,
                                     VkMemoryPropertyFlags preferred) const {
    int fallback = -1;
    for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
        if (!(typeBits & (1u << i))) continue;
        VkMemoryPropertyFlags f = memory_.memoryTypes[i].propertyFlags;
        if ((f & required) != required) continue;
        if ((f & preferred) == preferred) return i;
        if (fallback < 0) fallback = static_cast<int>(i);
    }
    if (fallback >= 0) return static_cast<uint32_t>(fallback);
    return makeError(Errc::missing_feature, "the device has no memory type with the needed properties");
}

// [SECTION] Submission with a fence timeout -------------------------------------------------------

bool Context::timedOutWorkPending() {
    if (!lost_) return false;
    if (vkGetFenceStatus(device_, fence_) != VK_SUCCESS) return true;
    // The timed-out submission has finished since: what it used can go, work can resume.
    lost_ = false;
    if (pendingCmd_) vkFreeCommandBuffers(device_, pool_, 1, &pendingCmd_);
    pendingCmd_ = VK_NULL_HANDLE;
    auto deferred = std::move(deferred_);
    deferred_.clear();
    for (auto& destroy : deferred) destroy(device_);
    return false;
}

void Context::destroyWhenIdle(std::function<void(VkDevice)> destroy) {
    if (timedOutWorkPending())
        deferred_.push_back(std::move(destroy)); // the GPU may still use it
    else
        destroy(device_);
}

// "50 us", "1.5 ms", "60 s": a fence timeout in the unit a person reads it in.
static std::string durationText(std::chrono::nanoseconds t) {
    const auto ns = static_cast<unsigned long long>(t.count());
    auto in = [&](unsigned long long unit, const char* name) {
        char buf[48];
        if (ns % unit == 0)
            std::snprintf(buf, sizeof buf, "%llu %s", ns / unit, name);
        else
            std::snprintf(buf, sizeof buf, "%.3g %s", double(ns) / double(unit), name);
        return std::string(buf);
    };
    if (ns >= 1000000000ull) return in(1000000000ull, "s");
    if (ns >= 1000000ull) return in(1000000ull, "ms");
    if (ns >= 1000ull) return in(1000ull, "us");
    return in(1, "ns");
}

Result<void> Context::submitAndWait(const std::function<void(VkCommandBuffer)>& record,
                                    const SubmitSemaphores& semaphores) {
    const bool waits = semaphores.wait.semaphore != VK_NULL_HANDLE,
               signals = semaphores.signal.semaphore != VK_NULL_HANDLE;
    if ((waits || signals) && !timelineSemaphore_)
        return makeError(Errc::invalid_argument,
                         "a timeline semaphore to wait on or signal, on a device without the timelineSemaphore feature "
                         "enabled (adopt(): AdoptInfo::enabled tells what the device was created with)");
    if (timedOutWorkPending())
        return makeError(Errc::timeout, "an earlier GPU submission ran past the fence timeout and is still running; "
                                        "this context takes new work once it has finished");
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = pool_;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    SORTLAB_VK(vkAllocateCommandBuffers(device_, &ai, &cmd), "vkAllocateCommandBuffers");
    struct Free {
        VkDevice d;
        VkCommandPool p;
        VkCommandBuffer c;
        bool skip = false;
        ~Free() {
            if (!skip) vkFreeCommandBuffers(d, p, 1, &c);
        }
    } freeCmd{device_, pool_, cmd};

    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    SORTLAB_VK(vkBeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer");
    record(cmd);
    SORTLAB_VK(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");

    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    VkTimelineSemaphoreSubmitInfo ti{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
    const VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    if (waits || signals) {
        si.pNext = &ti;
        ti.waitSemaphoreValueCount = si.waitSemaphoreCount = waits ? 1 : 0;
        ti.pWaitSemaphoreValues = &semaphores.wait.value;
        si.pWaitSemaphores = &semaphores.wait.semaphore;
        si.pWaitDstStageMask = &waitStage;
        ti.signalSemaphoreValueCount = si.signalSemaphoreCount = signals ? 1 : 0;
        ti.pSignalSemaphoreValues = &semaphores.signal.value;
        si.pSignalSemaphores = &semaphores.signal.semaphore;
    }
    SORTLAB_VK(vkResetFences(device_, 1, &fence_), "vkResetFences");
    {
        std::unique_lock<std::mutex> queueLock;
        if (queueMutex_) queueLock = std::unique_lock<std::mutex>(*queueMutex_);
        SORTLAB_VK(vkQueueSubmit(queue_, 1, &si, fence_), "vkQueueSubmit");
    }
    VkResult r = vkWaitForFences(device_, 1, &fence_, VK_TRUE, static_cast<uint64_t>(fenceTimeout_.count()));
    if (r == VK_TIMEOUT) {
        lost_ = true;
        freeCmd.skip = true; // still in use by the GPU: freed once the fence signals
        pendingCmd_ = cmd;
        return makeError(Errc::timeout, "the GPU did not finish within " + durationText(fenceTimeout_) +
                                            " (hung or far too slow); try a smaller n or a longer fence timeout");
    }
    SORTLAB_VK(r, "vkWaitForFences");
    return {};
}

// [SECTION] Validation messages -------------------------------------------------------------------

VkBool32 VKAPI_PTR Context::debugCallback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT,
                                          const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    auto* ctx = static_cast<Context*>(user);
    std::string msg = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error: " : "warning: ";
    msg += data && data->pMessage ? data->pMessage : "(no message)";
    std::fprintf(stderr, "[validation] %s\n", msg.c_str());
    std::lock_guard<std::mutex> lock(ctx->messagesMutex_);
    ctx->messages_.push_back(std::move(msg));
    return VK_FALSE;
}

size_t Context::validationMessageCount() const {
    std::lock_guard<std::mutex> lock(messagesMutex_);
    return messages_.size();
}
std::vector<std::string> Context::validationMessages() const {
    std::lock_guard<std::mutex> lock(messagesMutex_);
    return messages_;
}
void Context::clearValidationMessages() {
    std::lock_guard<std::mutex> lock(messagesMutex_);
    messages_.clear();
}

} // namespace sortlab

namespace sortlab {

void Context::notePipelineUse(VkPipeline pipeline, const std::function<PipelineStatistics()>& describe) {
    if (!pipelineInfo_.count(pipeline)) pipelineInfo_[pipeline] = describe();
    if (std::find(pipelinesUsed_.begin(), pipelinesUsed_.end(), pipeline) == pipelinesUsed_.end())
        pipelinesUsed_.push_back(pipeline);
}

void Context::forgetPipelines(const std::vector<VkPipeline>& pipelines) {
    for (VkPipeline p : pipelines) {
        pipelineInfo_.erase(p);
        pipelinesUsed_.erase(std::remove(pipelinesUsed_.begin(), pipelinesUsed_.end(), p), pipelinesUsed_.end());
    }
}

std::vector<PipelineStatistics> Context::pipelinesUsed() const {
    std::vector<PipelineStatistics> out;
    for (VkPipeline p : pipelinesUsed_) out.push_back(pipelineInfo_.at(p));
    return out;
}

} // namespace sortlab
