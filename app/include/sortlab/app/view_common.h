// Helpers shared by the views: key heights, colours, aux lookup, which indices a step touched.
#pragma once

#include <sortlab/app/app.h>
#include <sortlab/app/sort_worker.h>

#include <imgui.h>

#include <sortlab/oddeven.h>

#include <optional>
#include <string>
#include <vector>

namespace sortlab::app {

// Key i of a snapshot as a fraction of the input's key range (0 lowest, 1 highest).
float keyHeight(const JobInfo& job, const Snapshot& s, uint64_t i);
// A colour ramp for heights (blue -> teal -> yellow), alpha 255.
ImU32 heightColour(float h);
ImU32 heatColour(float t); // heat map: dark -> red -> yellow -> white
// OneSweep's status word flags (0 not ready, 1 aggregate, 2 inclusive prefix): colour and name.
extern const ImU32 kFlagColour[3];
extern const char* const kFlagName[3];
void flagLegend();
// What a lesson's stop points at is outlined in this colour; the index when it is of this kind.
constexpr ImU32 kHighlightColour = IM_COL32(80, 220, 255, 255);
inline std::optional<uint64_t> highlighted(const UiState& ui, HighlightKind kind) {
    if (!ui.lesson.lesson || ui.highlight.kind != kind) return std::nullopt;
    return ui.highlight.index;
}

// The step that produced the current state (nullptr before the first step).
const Step* currentStep(const SortWorker::View& v);
// Odd-even: the layers of the network for this job.
const std::vector<oddeven::Layer>& networkLayers(const JobInfo& job);

// Indices whose key or value changed between the previous and the current snapshot.
std::vector<bool> changedIndices(const StepData& d, uint64_t n, KeyType type);

std::string keyText(const Snapshot& s, uint64_t i, KeyType type);
std::string bytesText(double bytes);

} // namespace sortlab::app
