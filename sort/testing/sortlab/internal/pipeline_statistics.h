// How the library reads one of the driver's pipeline statistics (VK_KHR_pipeline_executable_properties):
// by the format the driver declares for it. Not part of the public API: the library's sources and
// its tests include this (the sortlab_sort_testing target), so that a test can give it a statistic
// of each format without a driver that offers them.
#pragma once

#include <sortlab/context.h>

#include <optional>

namespace sortlab::internal {

// The statistic decoded by its declared format; none for a format this code does not know.
std::optional<PipelineStatistic> decodeStatistic(const VkPipelineExecutableStatisticKHR& st);

} // namespace sortlab::internal
