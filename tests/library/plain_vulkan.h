#pragma once

#include <string>

// The renderer's side: the number of Vulkan devices (their names appended to *names), or < 0 when
// a Vulkan call failed.
int plainVulkanDevices(std::string* names);
