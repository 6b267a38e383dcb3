// Helpers shared by the views: key heights, colours, aux lookup, which indices a step touched.
#pragma once

#include <sortlab/app/app.h>
#include <sortlab/app/sort_worker.h>

#include <imgui.h>

#include <sortlab/oddeven.h>

#include <algorithm>
#include <optional>
#include <utility>
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
// The cells an answer's arithmetic uses (its feedback names them) are outlined in this colour.
constexpr ImU32 kAnswerColour = IM_COL32(120, 235, 140, 255);
inline const Answer* shownAnswer(const UiState& ui) {
    return ui.lesson.lesson && ui.lesson.answered && ui.lesson.answer ? &*ui.lesson.answer : nullptr;
}
inline bool answerMarksKey(const UiState& ui, uint64_t k) {
    const Answer* a = shownAnswer(ui);
    return a && std::find(a->keys.begin(), a->keys.end(), k) != a->keys.end();
}

// The lesson's probe (UiState::probe): this frame drew the stop's highlight (or its question, its
// feedback) at [min, max) in the current window. Visible when all of it lies inside the window's
// visible area and the main viewport; while the stop is new, a view scrolls to a hidden highlight.
enum class ProbeItem : uint8_t { highlight, question, feedback };
void noteVisible(const UiState& ui, ProbeItem item, ImVec2 min, ImVec2 max);
// Wrapped text that breaks lines only at spaces (ImGui's wrapping also breaks after '.' and ',',
// which splits numbers such as 849.72 over two lines); "\n" starts a new line. Returns its rectangle.
std::pair<ImVec2, ImVec2> textWrappedAtSpaces(const std::string& text);
// The same, formatted as printf does (ImGui::TextWrapped's replacement in the views).
void wrappedf(const char* format, ...) IM_FMTARGS(1);
// The height that text takes at this width (same breaks).
float wrappedHeight(const std::string& text, float width);

// A step's label without what only a GPU programmer needs (", halo 64 rows"), for a class.
std::string classLabel(std::string label);

// The step that produced the current state (nullptr before the first step).
const Step* currentStep(const SortWorker::View& v);
// Odd-even: the layers of the network for this job.
const std::vector<oddeven::Layer>& networkLayers(const JobInfo& job);

// Indices whose key or value changed between the previous and the current snapshot.
std::vector<bool> changedIndices(const StepData& d, uint64_t n, KeyType type);

std::string keyText(const Snapshot& s, uint64_t i, KeyType type);
std::string bytesText(double bytes);

} // namespace sortlab::app
