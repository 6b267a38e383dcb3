// The app's UI state and its frame: panels (controls, array, network, radix, explanation,
// check), keyboard shortcuts, presentation mode and help. Everything it draws comes from the
// StepData the sort worker published (GPU buffers read back by SortJob::capture).
#pragma once

#include "settings.h"
#include "sort_worker.h"

#include <fonts.h>

#include <imgui.h>

#include <array>
#include <string>
#include <vector>

struct GLFWwindow;

namespace sortlab::app {

struct UiState {
    SortSettings settings;
    bool playing = false;
    float speed = 4.0f;        // steps per second while playing
    double lastAdvance = 0;    // glfwGetTime() of the last automatic step
    bool presentation = false; // large fonts, thick lines
    bool help = false;
    bool check = false;
    bool showArray = true, showNetwork = true, showExplain = true, showRadix = true, showCheck = true;
    int jumpTo = 0;
    std::string status; // one line for the status bar (errors, hints)
};

class App {
public:
    App(GLFWwindow* window, SortWorker& worker, gfx::Fonts fonts, std::string deviceName);

    // Builds this frame's UI (between ImGui::NewFrame and ImGui::Render).
    void frame();

    UiState& ui() { return ui_; }
    void applySettings(const SortSettings& s); // new input
    void goTo(size_t step);
    void setCheck(bool on);
    void setPresentation(bool on) { ui_.presentation = on; }
    void toggleFullscreen();
    // Frame statistics (CPU time of building + recording a frame on the main thread).
    void recordFrameCpu(double ms, double buildMs);
    double frameCpuMs() const { return frameCpuAvg_; }
    double frameBuildCpuMs() const { return frameBuildAvg_; }
    const std::vector<AlgoStatus>& algorithms() const { return algos_; }
    const std::string& deviceName() const { return deviceName_; }

private:
    void handleKeys(const SortWorker::View& v);
    void advancePlayback(const SortWorker::View& v);
    void drawControls(const SortWorker::View& v);
    void drawStatusBar(const SortWorker::View& v);
    void drawHelp();
    bool radixAvailable(const SortWorker::View& v) const;
    enum class Panel { controls, check, array, main, explain };
    void place(Panel p, const char* title);
    ImVec2 lastViewport_{0, 0};
    bool viewportResized_ = false;

    GLFWwindow* window_;
    SortWorker& worker_;
    gfx::Fonts fonts_;
    std::string deviceName_;
    std::vector<AlgoStatus> algos_;
    UiState ui_;
    double frameCpuAvg_ = 0, frameBuildAvg_ = 0;
    std::array<double, 120> frameCpu_{}, frameBuild_{};
    size_t frameCpuNext_ = 0;
    int windowedPos_[2] = {100, 100}, windowedSize_[2] = {1600, 1000};
};

} // namespace sortlab::app
