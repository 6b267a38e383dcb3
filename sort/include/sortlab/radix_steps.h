// The radix sorts' steps without a device: for front ends that check a step number before there
// is one (the app's lessons). The odd-even network's are oddeven::planSteps (sortlab/oddeven.h).
#pragma once

#include <sortlab/sorter.h>
#include <sortlab/steps.h>

#include <cstdint>
#include <vector>

namespace sortlab::radix {

// The steps a radix sort's plan lists for n keys: their kinds, labels, passes, digit bits and
// where the keys are after each (the workgroup counts, which the device decides, are 0).
// Sorter::plan builds its steps from these.
std::vector<Step> radix4Steps(uint64_t n, const SortConfig& config);
std::vector<Step> oneSweepSteps(uint64_t n, const SortConfig& config);

} // namespace sortlab::radix
