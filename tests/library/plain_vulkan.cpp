// A renderer's Vulkan code as most programs write it: Vulkan's own prototypes (no VK_NO_PROTOTYPES,
// no volk), linked to libvulkan. Linked beside sortlab (tests/library.cmake), its calls must reach
// libvulkan, whatever the link order: sortlab defines no vk* symbol of its own.
#include "plain_vulkan.h"

#include <vulkan/vulkan.h>

#include <vector>

int plainVulkanDevices(std::string* names) {
    uint32_t version = 0;
    if (vkEnumerateInstanceVersion(&version) != VK_SUCCESS || version < VK_API_VERSION_1_1) return -1;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "plain renderer";
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    if (vkCreateInstance(&ci, nullptr, &instance) != VK_SUCCESS) return -2;
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance, &count, devices.data());
    for (VkPhysicalDevice d : devices) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(d, &props);
        *names += std::string(names->empty() ? "" : ", ") + props.deviceName;
    }
    vkDestroyInstance(instance, nullptr);
    return static_cast<int>(count);
}
