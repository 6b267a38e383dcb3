// A step drawn as a move: each key travels from its index before the step to its index after it,
// as the GPU moved it. Where each key went comes from the buffers read back at the two steps: the
// values (the input index) when the sort carries them; for one network layer, the pairs the layer
// compared (a pair whose keys changed swapped; equal keys never swap); otherwise, keys are matched
// by value, the j-th copy of a key before the step with its j-th copy after it, which is exact for
// the radix sorts (their passes are stable) and an assumption for a fused network step.
#pragma once

#include <sortlab/app/sort_worker.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace sortlab::app {

enum class MoveMatch : uint8_t { values, comparators, equalKeysInOrder };
const char* moveMatchName(MoveMatch m); // "values", "comparators", "equal keys in order"

struct KeyMoves {
    std::vector<uint64_t> to; // key i of the earlier state is at to[i] in the later one
    MoveMatch match = MoveMatch::values;
    // One network layer: the pairs it compared ({a, b}, a < b), for drawing them.
    std::vector<std::pair<uint64_t, uint64_t>> compared;
};
// The move of `step` (the step between two consecutive snapshots, `earlier` before it).
KeyMoves keyMoves(const Snapshot& earlier, const Snapshot& later, const JobInfo& job, const Step& step);

// A move on screen between two published states of one input, a step apart (forward or back).
struct Transition {
    std::shared_ptr<const StepData> from, to; // what was shown, what is shown at its end
    KeyMoves moves;                           // from the earlier of the two states to the later
    bool backward = false;                    // `to` is the earlier state: the move plays in reverse
    double start = 0;                         // seconds (the app's clock)
    double duration = 0;
    const Snapshot& earlier() const { return backward ? *to->snapshot : *from->snapshot; }
    const Snapshot& later() const { return backward ? *from->snapshot : *to->snapshot; }
    std::shared_ptr<const Plan> plan;
    const Step* step = nullptr; // the step between them (in plan)
};

// The move's progress in [0, 1] at `now`; `frozen` (headless --transition-at) overrides it.
float transitionFraction(const Transition& t, double now, std::optional<float> frozen);
// Where key i of the earlier state is drawn at progress f, as a (fractional) index. A network
// layer first shows its compared pairs (f < kComparePhase), then moves the swapped keys.
constexpr float kComparePhase = 0.35f;
double drawnIndex(const Transition& t, uint64_t i, float f);
// Smooth start and stop.
float ease(float f);

// Whether two published states can be drawn as a move: one input, a step apart, both stored.
bool movable(const StepData& a, const StepData& b);

} // namespace sortlab::app
