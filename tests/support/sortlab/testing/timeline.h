// A timeline semaphore for the tests that wait on one or signal one. Header-only: the tests that call
// Vulkan through libvulkan (tests/library) and those that call it through the library's own loader
// (sortlab_vk_names) each compile it with their own vk* names.
#pragma once

#include <vulkan/vulkan.h>

#include <gtest/gtest.h>

namespace sortlab::test {

// A new timeline semaphore at value 0 on `device` (a test failure, and VK_NULL_HANDLE, if it cannot be made).
inline VkSemaphore makeTimeline(VkDevice device) {
    VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo ci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &type};
    VkSemaphore s = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSemaphore(device, &ci, nullptr, &s), VK_SUCCESS);
    return s;
}

} // namespace sortlab::test
