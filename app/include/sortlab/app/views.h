// One function per view, each drawing one ImGui window from the worker's published state.
#pragma once

#include <sortlab/app/app.h>
#include <sortlab/app/sort_worker.h>

#include <string>

namespace sortlab::app {

struct ViewContext {
    const SortWorker::View& v;
    const UiState& ui;
    ViewState& views; // ui.views, which the views change as they draw
    const gfx::Fonts& fonts;
    float line = 1.0f;      // line thickness (presentation mode: thicker)
    bool cpuDriver = false; // the sorts run on a CPU driver (lavapipe): its times are no GPU's
};

// A view's window title. Presentation mode uses windows of its own (same title, another ImGui id),
// so its fixed layout never overwrites the positions the user gave the normal windows.
std::string windowTitle(const char* name, bool presentation);
// ImGui::Begin of a view's window, by windowTitle. False when the window is collapsed or hidden:
// it is ended already and there is nothing to draw.
bool beginView(const char* name, bool presentation, bool* open);

void drawArrayView(const ViewContext& c, bool* open);
// Shows keys [first, first + count) of the job with this generation in the array view (scripts;
// count 0: all of them).
void setArrayZoom(ViewState& views, uint64_t generation, uint64_t first, uint64_t count);
void drawNetworkView(const ViewContext& c, bool* open);
void drawExplainView(const ViewContext& c, bool* open);
void drawCheckView(const ViewContext& c, bool* open);
// The radix view draws from Snapshot::aux ("digit counts", "histogram", "offsets", "workgroup
// offsets", "pass"; OneSweep: "tile status", "fallbacks"); hasRadixData (sort_worker.h) says when
// it has something to show.
// The radix view; a OneSweep pass with its lookback log also shows the replay (drawLookbackReplay),
// which changes the user's choice of digit and event.
void drawRadixView(const ViewContext& c, LookbackReplayChoice& replay, bool* open);
void drawLookbackReplay(const ViewContext& c, LookbackReplayChoice& choice);

} // namespace sortlab::app
