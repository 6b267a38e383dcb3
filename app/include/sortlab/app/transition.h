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
    // A radix pass on up to kMaxStagedKeys keys, drawn one bucket at a time (stagedScatter): the
    // keys of stage s go to their bucket while the keys still waiting close up behind them.
    // at[s][i]: where key i is when stage s begins (at.back() == to); stage[i]: the stage that takes
    // key i to its bucket; digits[s]: that stage's digit. Empty when the keys all move at once.
    std::vector<std::vector<uint64_t>> at;
    std::vector<uint32_t> stage;
    std::vector<uint64_t> digits;
};
constexpr uint64_t kMaxStagedKeys = 64;
// The move of `step` (the step between two consecutive snapshots, `earlier` before it).
KeyMoves keyMoves(const Snapshot& earlier, const Snapshot& later, const JobInfo& job, const Step& step);
// Splits the moves `to` into stages, one per digit (digit[i]: key i's), in the order of the buckets
// from left to right: in each stage that digit's keys go to their places and the keys not yet
// placed close up, in their order, in the places left, so that no two keys ever share a place.
void stagedScatter(KeyMoves& m, const std::vector<uint64_t>& digit);

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
// Where key i of the earlier state is drawn at progress f. A network layer first shows its compared
// pairs (f < kComparePhase), then moves the swapped keys; a staged radix pass gives each stage an
// equal share of the move. A key that moves first rises into its lane (the first kLanePhase of
// its share), then travels, then lands: so two keys that trade places pass around each other,
// never through. Lanes: `above` for a key moving right (a layer) or going to its bucket (a staged
// pass), `below` for a key moving left (a layer) or closing up (a staged pass).
constexpr float kComparePhase = 0.35f;
constexpr float kLanePhase = 0.15f;
enum class Lane : int8_t { below = -1, still = 0, above = 1 };
struct KeyPlace {
    double index = 0; // the (fractional) index it is drawn at
    Lane lane = Lane::still;
    float rise = 0;     // how far into its lane, 0..1: 1 while it travels
    float arc = 0;      // sin(pi * its travel so far), 0..1: 1 half-way
    uint32_t stage = 0; // a staged pass: the stage under way (the same for every key)
};
KeyPlace keyPlace(const Transition& t, uint64_t i, float f);
double drawnIndex(const Transition& t, uint64_t i, float f); // keyPlace(t, i, f).index
// A staged radix pass: the stage under way at f (moves.digits.size() at the end), else 0.
uint32_t stageAt(const Transition& t, float f);
// Smooth start and stop.
float ease(float f);

// Whether two published states can be drawn as a move: one input, a step apart, both stored.
bool movable(const StepData& a, const StepData& b);

} // namespace sortlab::app
