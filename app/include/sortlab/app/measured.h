// Sort times the project measured on GPUs (docs/results), for the app to show beside a time taken
// on a CPU driver: lavapipe runs Vulkan on the CPU, and a class that sees its milliseconds alone
// would conclude that GPUs sort slowly.
#pragma once

#include <sortlab/variants.h>

#include <cstdint>
#include <string>
#include <vector>

namespace sortlab::app {

struct MeasuredTime {
    std::string_view variant; // the --algo name
    std::string_view device;  // as the driver names it
    uint64_t n;               // random (uniform) u32 keys, no values
    double medianMs;          // sortlab-bench's median
    std::string_view file;    // under docs/results/
    std::string_view build{}; // the rows' "build" where the file holds several builds' rows
};

// Every figure the app quotes (the unit tests check each against its file).
const std::vector<MeasuredTime>& measuredTimes();
// "NVIDIA H100 80GB HBM3: 0.405 ms, NVIDIA H200: 0.404 ms" for this variant at n, "" when none.
std::string measuredLine(Variant v, uint64_t n);

} // namespace sortlab::app
