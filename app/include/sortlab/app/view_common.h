// Helpers shared by the views: the theme and its colours, key heights, aux lookup, which indices
// a step touched.
#pragma once

#include <sortlab/app/app.h>
#include <sortlab/app/palette.h>
#include <sortlab/app/sort_worker.h>

#include <imgui.h>

#include <sortlab/oddeven.h>

#include <algorithm>
#include <optional>
#include <utility>
#include <string>
#include <vector>

namespace sortlab::app {

// The theme (palette.h): setTheme applies ImGui's style of that theme with the palette's panel
// colours; palette() is the current theme's colours, which the views draw with. Call them from the
// UI thread, with an ImGui context.
void setTheme(Theme t);
Theme theme();
const Palette& palette();
static_assert(IM_COL32(1, 2, 3, 4) == rgba(1, 2, 3, 4), "palette.h packs colours as IM_COL32 does");
inline ImVec4 vec4(ImU32 c) { // a palette colour for ImGui::TextColored and PushStyleColor
    return ImGui::ColorConvertU32ToFloat4(c);
}

// Key i of a snapshot as a fraction of the input's key range (0 lowest, 1 highest).
float keyHeight(const JobInfo& job, const Snapshot& s, uint64_t i);
// The current theme's ramps (palette.h): heights (dark: blue -> teal -> yellow), heat maps (dark:
// dark -> red -> yellow -> white), and the ink for a number on a heat map cell.
ImU32 heightColour(float h);
ImU32 heatColour(float t);
ImU32 heatTextColour(float t);
// OneSweep's status word flags (0 not ready, 1 aggregate, 2 inclusive prefix): name; the colour is
// palette().flag[f].
extern const char* const kFlagName[3];
void flagLegend();
// The dark theme's flag and outline colours under their old names, for the views not yet drawing
// with palette() (radix_view.cpp); they do not follow the theme.
// What a lesson's stop points at (outlined in palette().highlight): the index when it is of this kind.
inline std::optional<uint64_t> highlighted(const UiState& ui, HighlightKind kind) {
    if (!ui.lesson.lesson || ui.highlight.kind != kind) return std::nullopt;
    return ui.highlight.index;
}
// The cells an answer's arithmetic uses (its feedback names them) are outlined in palette().answer.
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
enum class ProbeItem : uint8_t { highlight, question, feedback, narration };
void noteVisible(const UiState& ui, ProbeItem item, ImVec2 min, ImVec2 max);
// A part of a view that the stop is about (lessonSubjects, UiState::LessonUi::subjects): whether it
// is; and, when it is, that this frame drew it at [min, max) (the probe's subject check; while the
// stop is new, the window scrolls it to its top when it is out of sight).
bool isSubject(const UiState& ui, SubjectKind k);
void noteSubject(const UiState& ui, SubjectKind k, ImVec2 min, ImVec2 max);
// A network layer the stop names (UiState::LessonUi::layers) drawn at [min, max): visible when all
// of it lies inside the window's visible area, right of `left` (the pinned keys' column).
void noteLayer(const UiState& ui, ImVec2 min, ImVec2 max, float left);
// The labels check (UiState::Probe::labels, app_check labels): every number or name a view writes
// on its pictures goes through drawLabel (drawn at pos, its rectangle noted; returns its size) or,
// for an ImGui text item just drawn (a table's cell), noteTextItem; a label a view has no room
// for is noted as missing (noteMissingLabel), which the check counts as a failure.
ImVec2 drawLabel(const UiState& ui, ImDrawList* dl, ImVec2 pos, ImU32 colour, const char* text);
ImVec2 drawLabel(const UiState& ui, ImDrawList* dl, ImFont* font, float size, ImVec2 pos, ImU32 colour,
                 const char* text);
void noteLabel(const UiState& ui, ImVec2 min, ImVec2 max, const char* text);
void noteTextItem(const UiState& ui, const char* text);
void noteMissingLabel(const UiState& ui, const std::string& what);
// The width from the cursor to the right edge of what shows of the window (or table column).
float shownWidth();
// Wrapped text that breaks lines only at spaces (ImGui's wrapping also breaks after '.' and ',',
// which splits numbers such as 849.72 over two lines); "\n" starts a new line. Returns its rectangle.
std::pair<ImVec2, ImVec2> textWrappedAtSpaces(const std::string& text);
// The lines of text at this width, broken at spaces only ("\n" breaks too).
std::vector<std::string> wrapAtSpaces(const std::string& text, float width);
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
