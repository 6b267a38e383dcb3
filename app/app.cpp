// [SECTION] Frame: layout and views
// [SECTION] Keyboard
// [SECTION] Playback
// [SECTION] Status bar (the help overlay: help.cpp)
#include <sortlab/app/app.h>

#include <sortlab/app/view_common.h>
#include <sortlab/app/views.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <imgui.h>
#include <imgui_internal.h> // FindWindowByName: panels follow a window resize

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace sortlab::app {

App::App(GLFWwindow* window, SortWorker& worker, BenchWorker& bench, const DeviceInfo& device, gfx::Fonts fonts,
         std::string deviceName)
    : window_(window), worker_(worker), bench_(bench), device_(device), fonts_(fonts),
      deviceName_(std::move(deviceName)) {
    algos_ = worker_.algorithms();
}

void App::applySettings(const SortSettings& s) {
    ui_.settings = s;
    ui_.playing = false;
    ui_.jumpTo = 0;
    ui_.replay.shown = -1;
    if (auto r = ui_.live ? nullptr : recordingFor(s))
        worker_.openRecording(r, s);
    else
        worker_.setSettings(s);
}

// The lesson panel asks every frame: the answer is kept until the settings or the recordings change
// (sameRun makes the settings' input keys).
std::shared_ptr<const Recording> App::recordingFor(const SortSettings& s) const {
    if (matchMemo_ && matchMemo_->first == s) return matchMemo_->second;
    std::shared_ptr<const Recording> found;
    for (const auto& r : recordings_)
        if (sameRun(*r, s)) {
            found = r;
            break;
        }
    matchMemo_.emplace(s, found);
    return found;
}

void App::addRecording(std::shared_ptr<const Recording> r) {
    std::erase_if(recordings_, [&](const auto& x) { return x->path == r->path; });
    recordings_.push_back(std::move(r));
    matchMemo_.reset();
}

std::string App::openRecording(const std::string& path) {
    std::string found = findRecording(path, "");
    auto r = readRecording(found.empty() ? path : found);
    if (!r) {
        ui_.recordingError = r.error().message;
        return ui_.recordingError;
    }
    ui_.recordingError.clear();
    addRecording(*r);
    ui_.live = false;
    ui_.lesson.lesson.reset(); // the recording's run, not a lesson's stop
    applySettings(r.value()->settings);
    return {};
}

void App::setLive(bool on) {
    if (ui_.live == on) return;
    ui_.live = on;
    const SortWorker::View v = worker_.view();
    const size_t at = v.data ? v.data->step : 0;
    applySettings(ui_.settings);
    if (ui_.lesson.lesson)
        goToStop(ui_.lesson.stop);
    else
        goTo(at);
}

bool App::goTo(size_t step) {
    // A lesson's open question is about the next step: stepping on would show its answer.
    auto& L = ui_.lesson;
    if (L.lesson && !L.pending && !L.answering && !L.answered && L.lesson->stops[L.stop].question &&
        step > L.shownStep) {
        const bool predict = !graded(L.lesson->stops[L.stop].question->kind);
        L.hint = predict ? "Predict first, or press \"Watch\": stepping on would skip the question."
                         : "Answer first, or press \"Show me\": the next step is the question's answer.";
        ui_.playing = false;
        ui_.jumpTo = int(L.shownStep);
        return false;
    }
    worker_.goTo(step);
    ui_.jumpTo = int(step);
    ui_.replay.shown = -1;
    return true;
}

void App::stepBy(int delta) {
    const SortWorker::View v = worker_.view();
    const size_t steps = v.job.plan ? v.job.plan->steps.size() : 0;
    const size_t at = v.data ? v.data->step : 0;
    const size_t target = v.target;
    if (delta > 0 && target < steps) {
        ui_.playing = false;
        goTo(std::max(at, target) + 1 > steps ? steps : target + 1);
    }
    if (delta < 0 && target > 0) {
        ui_.playing = false;
        goTo(target - 1);
    }
}

void App::setCheck(bool on) {
    ui_.check = on;
    worker_.setCheck(on);
}

void App::toggleFullscreen() {
    if (glfwGetWindowMonitor(window_)) {
        glfwSetWindowMonitor(window_, nullptr, windowedPos_[0], windowedPos_[1], windowedSize_[0], windowedSize_[1], 0);
        return;
    }
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    if (!monitor) return;
    const GLFWvidmode* mode = glfwGetVideoMode(monitor);
    glfwGetWindowPos(window_, &windowedPos_[0], &windowedPos_[1]);
    glfwGetWindowSize(window_, &windowedSize_[0], &windowedSize_[1]);
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}

void App::setWindowSize(int width, int height) {
    glfwSetWindowSize(window_, width, height);
}

void App::recordFrameCpu(double ms, double buildMs) {
    // The means of the last 120 frames.
    frameBuild_[frameCpuNext_ % frameCpu_.size()] = buildMs;
    frameCpu_[frameCpuNext_++ % frameCpu_.size()] = ms;
    const size_t count = std::min(frameCpuNext_, frameCpu_.size());
    double sum = 0, build = 0;
    for (size_t i = 0; i < count; ++i) sum += frameCpu_[i], build += frameBuild_[i];
    frameCpuAvg_ = sum / double(count);
    frameBuildAvg_ = build / double(count);
}

bool App::radixAvailable(const SortWorker::View& v) const {
    return hasRadixData(v);
}

// [SECTION] Frame: layout and views --------------------------------------------------------------------

void App::frame() {
    const SortWorker::View v = worker_.view();
    if (!v.busy && v.data) ui_.jumpTo = int(v.data->step);
    handleKeys(v);
    updateMove(v);
    advancePlayback(v);
    updateLesson(v);

    const ImVec2 viewport = ImGui::GetMainViewport()->Size;
    viewportResized_ =
        lastViewport_.x > 0 && lastViewport_.y > 0 && (viewport.x != lastViewport_.x || viewport.y != lastViewport_.y);
    ImGui::PushFont(ui_.presentation ? fonts_.uiLarge : fonts_.ui);
    // A replay's device is the recording's.
    const bool cpu = v.job.recording ? v.job.recording->device.cpu() : device_.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    ViewContext c{v, ui_, ui_.views, fonts_, ui_.presentation ? 2.2f : 1.0f, cpu};
    // Presentation mode: a fixed layout for a projector (the views only; the keyboard drives it).
    const bool present = ui_.presentation;
    if (!present) {
        place(Panel::controls, "Controls");
        drawControls(v);
    }
    if (ui_.showArray) {
        place(Panel::array, "Array");
        const std::optional<SortWorker::View> input = replayedPassInput(v);
        const ViewContext ca{input ? *input : v, ui_, ui_.views, fonts_, c.line, cpu};
        drawArrayView(ca, &ui_.showArray);
        ui_.probe.arrayStep = ca.v.data ? int64_t(ca.v.data->step) : -1;
    }
    const bool radix = radixAvailable(v);
    if (ui_.settings.algorithm() == Algorithm::oddeven) {
        if (ui_.showNetwork) {
            place(Panel::main, "Network");
            drawNetworkView(c, &ui_.showNetwork);
        }
    } else if (radix && ui_.showRadix) {
        place(Panel::main, "Radix");
        drawRadixView(c, ui_.replay, &ui_.showRadix);
    }
    if (ui_.lesson.lesson) { // a lesson takes the explanation's place
        place(Panel::explain, windowTitle("Lesson", present).c_str());
        drawLessonPanel(v);
    } else if (ui_.showExplain) {
        place(Panel::explain, "Explanation");
        drawExplainView(c, &ui_.showExplain);
    }
    if (ui_.showCheck && (!present || ui_.check)) {
        place(Panel::check, "Check");
        drawCheckView(c, &ui_.showCheck);
    }
    if (ui_.bench.open) {
        place(Panel::bench, "Benchmark");
        drawBenchPanel();
    }
    drawStatusBar(v);
    drawRecordingDialog();
    if (ui_.help) drawHelp();
    ImGui::PopFont();
    ui_.lastProbe = ui_.probe; // what the views drew of the lesson's stop, now that all of it is drawn
    ui_.probe = {};
    if (ui_.pinClick && v.data) {
        worker_.pinKeyAt(v.data->step, *ui_.pinClick);
        ui_.lesson.stopPinned = false; // the teacher's pin stays across stops
    }
    ui_.pinClick.reset();
    if (viewport.x > 0 && viewport.y > 0) lastViewport_ = viewport;
}

// A OneSweep pass replayed before its last event has not written its keys out yet (each tile
// writes its keys to the other buffer when its walks end): the array shows the pass's input, the
// keys after the step before, until the replay reaches the end. None otherwise.
std::optional<SortWorker::View> App::replayedPassInput(const SortWorker::View& v) const {
    const ViewState& m = ui_.views;
    if (!v.data || !v.data->previous || v.data->step == 0 || m.replayFor != v.data->snapshot || !m.replay ||
        m.replay->shown >= m.replay->events.size())
        return std::nullopt;
    auto before = std::make_shared<StepData>(*v.data);
    before->step = v.data->step - 1;
    before->snapshot = v.data->previous;
    before->previous = nullptr;
    before->strip = nullptr;
    before->stripBits = 0;
    SortWorker::View out = v;
    out.data = std::move(before);
    return out;
}

// Where each panel goes: on first use (later imgui.ini remembers the user's layout), or always in
// presentation mode. Fractions of the main viewport, so any window size gets the same layout.
void App::place(Panel p, const char* title) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    // The window was resized (or went fullscreen): scale every panel with it, so none is left
    // outside and the user's arrangement keeps its proportions.
    if (!ui_.presentation && viewportResized_) {
        if (ImGuiWindow* w = ImGui::FindWindowByName(title)) {
            const float sx = vp->Size.x / lastViewport_.x, sy = vp->Size.y / lastViewport_.y;
            ImGui::SetNextWindowPos(
                ImVec2(vp->Pos.x + (w->Pos.x - vp->Pos.x) * sx, vp->Pos.y + (w->Pos.y - vp->Pos.y) * sy),
                ImGuiCond_Always);
            ImGui::SetNextWindowSize(ImVec2(w->Size.x * sx, w->Size.y * sy), ImGuiCond_Always);
            return;
        }
    }
    const float W = vp->Size.x, H = vp->Size.y - ImGui::GetFrameHeight() - 4; // above the status bar
    const float m = 8, left = ui_.presentation ? 0.0f : std::min(360.0f * W / 1600.0f + m, 0.3f * W);
    float x = 0, y = 0, w = 0, h = 0;
    // A lesson in presentation mode: a lower array view leaves its panels the room their stops need.
    const float topH = ui_.presentation ? (ui_.lesson.lesson ? 0.26f : 0.34f) * H : 0.30f * H;
    // A lesson in presentation mode gives its panel more of the width: a stop's words and its
    // question share it.
    const float mainW = ui_.presentation ? (ui_.lesson.lesson ? 0.58f : 0.62f) * W : 0.62f * (W - left);
    switch (p) {
    case Panel::controls:
        x = m, y = m, w = left - 2 * m, h = 0.68f * H - m;
        break;
    case Panel::check:
        x = m, y = 0.68f * H + m, w = left - 2 * m, h = 0.32f * H - 2 * m;
        break;
    case Panel::array:
        x = left + m, y = m, w = W - left - 2 * m, h = topH - m;
        break;
    case Panel::main:
        x = left + m, y = topH + m, w = mainW - m, h = H - topH - 2 * m;
        break;
    case Panel::explain:
        x = left + mainW + m, y = topH + m, w = W - left - mainW - 2 * m, h = H - topH - 2 * m;
        break;
    case Panel::bench: // over the views, beside the controls (presentation mode: the whole window)
        x = left + m, y = m, w = W - left - 2 * m, h = H - 2 * m;
        break;
    }
    // A lesson in presentation mode: its panel takes the right-hand column from the top, so that a
    // stop's text, its question and the feedback all fit at 1280x720; the array is the left column's top.
    if (ui_.presentation && ui_.lesson.lesson && p == Panel::array) w = mainW - m;
    if (ui_.presentation && ui_.lesson.lesson && p == Panel::explain) y = m, h = H - 2 * m;
    if (ui_.presentation && p == Panel::check)
        x = left + mainW + m, y = H * 0.75f, w = W - left - mainW - 2 * m, h = H * 0.25f - m;
    const ImGuiCond cond = ui_.presentation ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + x, vp->Pos.y + y), cond);
    ImGui::SetNextWindowSize(ImVec2(w, h), cond);
}

// [SECTION] Keyboard ---------------------------------------------------------------------------------------

void App::handleKeys(const SortWorker::View& v) {
    ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput) return;
    const size_t steps = v.job.plan ? v.job.plan->steps.size() : 0;
    auto pressed = [](int key) { return ImGui::IsKeyPressed(key, true); };
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) ui_.playing = !ui_.playing;
    if (pressed(GLFW_KEY_RIGHT)) stepBy(+1);
    if (pressed(GLFW_KEY_LEFT)) stepBy(-1);
    if (ImGui::IsKeyPressed(GLFW_KEY_HOME, false)) {
        ui_.playing = false;
        goTo(0);
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_END, false)) {
        ui_.playing = false;
        goTo(steps);
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) {
        SortSettings s = ui_.settings;
        ++s.seed;
        applySettings(s);
    }
    if (pressed(GLFW_KEY_EQUAL) || pressed(GLFW_KEY_KP_ADD)) ui_.speed = std::min(120.0f, ui_.speed * 1.5f);
    if (pressed(GLFW_KEY_MINUS) || pressed(GLFW_KEY_KP_SUBTRACT)) ui_.speed = std::max(0.25f, ui_.speed / 1.5f);
    if (ImGui::IsKeyPressed(GLFW_KEY_F11, false)) toggleFullscreen();
    if (ImGui::IsKeyPressed(GLFW_KEY_F1, false)) ui_.help = !ui_.help;
    if (ImGui::IsKeyPressed(GLFW_KEY_P, false)) ui_.presentation = !ui_.presentation;
    if (ImGui::IsKeyPressed(GLFW_KEY_C, false)) setCheck(!ui_.check);
    if (ImGui::IsKeyPressed(GLFW_KEY_B, false)) ui_.bench.open = !ui_.bench.open;
    if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false)) {
        if (ui_.help)
            ui_.help = false;
        else if (v.data && v.data->pinned)
            worker_.pinKeyAt(0, std::nullopt), ui_.lesson.stopPinned = false; // Esc: unpin
    }
    if (ui_.lesson.lesson && !lessonBusy()) { // a lesson's stops
        if (ImGui::IsKeyPressed(GLFW_KEY_PAGE_DOWN, false) && ui_.lesson.stop + 1 < ui_.lesson.lesson->stops.size())
            goToStop(ui_.lesson.stop + 1);
        if (ImGui::IsKeyPressed(GLFW_KEY_PAGE_UP, false) && ui_.lesson.stop > 0) goToStop(ui_.lesson.stop - 1);
    }
}

// [SECTION] Playback ----------------------------------------------------------------------------------------

// A new state a step away from the one on screen is drawn as a move from it (forward or back);
// anything else (a jump, a new input) is shown at once.
void App::updateMove(const SortWorker::View& v) {
    const double now = glfwGetTime();
    if (v.data && v.data != shown_ && !v.busy) {
        ui_.move.reset();
        const bool on = ui_.moveSeconds > 0 || ui_.frozenMove;
        // A lesson's stop that replays a pass from before its end shows the pass's input: no move.
        const bool replayBefore =
            ui_.replay.shown >= 0 && v.data->snapshot && v.data->snapshot->find(AuxKind::lookbackLog);
        if (on && shown_ && v.job.plan && !replayBefore && movable(*shown_, *v.data)) {
            Transition t;
            t.from = shown_;
            t.to = v.data;
            t.backward = v.data->step < shown_->step;
            t.plan = v.job.plan;
            t.step = &t.plan->steps[std::max(shown_->step, v.data->step) - 1];
            // Up to 4096 keys each key moves; more fade from one strip to the other (no matching).
            if (v.job.settings.n <= 4096) t.moves = keyMoves(t.earlier(), t.later(), v.job, *t.step);
            t.start = now;
            t.duration = ui_.moveSeconds * 4.0 / std::max(0.25, double(ui_.speed)); // 0.6 s at 4 steps/s
            // A pass moved one bucket at a time: half of that a bucket, so that a class can follow
            // each, but at most ten times the move (OneSweep's 8-bit digits can be dozens).
            t.duration *= std::clamp(0.5 * double(t.moves.digits.size()), 1.0, 10.0);
            ui_.move = std::move(t);
        }
        shown_ = v.data;
    }
    if (!ui_.move) return;
    ui_.moveFraction = transitionFraction(*ui_.move, now, ui_.frozenMove);
    if (ui_.moveFraction >= 1.0f && !ui_.frozenMove) ui_.move.reset(); // the last frame shows the new state
}

nlohmann::json App::viewState() const {
    nlohmann::json j = nlohmann::json::object();
    if (!shown_ || !shown_->snapshot) return j;
    const uint64_t n = shown_->snapshot->keys.size() / std::max<size_t>(1, keyBytes(ui_.settings.key));
    std::vector<double> drawn(n);
    for (uint64_t i = 0; i < n; ++i) drawn[i] = double(i);
    if (const auto& m = ui_.move; m && m->moves.to.size() == n) {
        // Indexed by the key's index in the state the move starts from (the later one, going back).
        for (uint64_t e = 0; e < n; ++e) drawn[m->backward ? m->moves.to[e] : e] = drawnIndex(*m, e, ui_.moveFraction);
        j["move"] = {{"from_step", m->from->step},
                     {"to_step", m->to->step},
                     {"fraction", ui_.moveFraction},
                     {"matched", moveMatchName(m->moves.match)},
                     {"stages", m->moves.digits.size()}};
    }
    if (n <= 4096) j["drawn_index"] = drawn;
    j["labels"] = labelsJson();
    if (shown_->pinned) j["pinned"] = {{"input_index", *shown_->pinned}, {"path", shown_->pinPath}};
    return j;
}

nlohmann::json App::labelsJson() const {
    nlohmann::json labels = nlohmann::json::array();
    for (const UiState::Probe::Label& l : ui_.lastProbe.labels)
        labels.push_back({{"window", l.window},
                          {"text", l.text},
                          {"rect", {l.min.x, l.min.y, l.max.x, l.max.y}},
                          {"shown", {l.clipMin.x, l.clipMin.y, l.clipMax.x, l.clipMax.y}},
                          {"scrolls", l.scrolls},
                          {"scrolls_x", l.scrollsX}});
    return {{"labels", labels}, {"missing", ui_.lastProbe.missingLabels}};
}

void App::advancePlayback(const SortWorker::View& v) {
    if (!ui_.playing || !v.job.plan || !v.data) return;
    if (ui_.move) return; // the next step waits for the move to end
    const size_t steps = v.job.plan->steps.size();
    if (v.data->step >= steps) {
        ui_.playing = false;
        return;
    }
    const double now = glfwGetTime();
    if (v.busy || v.data->step != v.target) return;
    if (now - ui_.lastAdvance < 1.0 / ui_.speed) return;
    ui_.lastAdvance = now;
    goTo(v.data->step + 1);
}

// [SECTION] Status bar (the help overlay: help.cpp) -------------------------------------------------

void App::drawStatusBar(const SortWorker::View& v) {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float h = ImGui::GetFrameHeight() + 4;
    ImGui::SetNextWindowPos(ImVec2(vp->Pos.x, vp->Pos.y + vp->Size.y - h));
    ImGui::SetNextWindowSize(ImVec2(vp->Size.x, h));
    ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                             ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                             ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8, 2));
    if (ImGui::Begin("##status", nullptr, flags)) {
        if (!v.error.empty())
            ImGui::TextColored(vec4(palette().error), "%s", v.error.c_str());
        else if (!ui_.recordingError.empty())
            ImGui::TextColored(vec4(palette().error), "%s (the run shown is unchanged)", ui_.recordingError.c_str());
        else {
            const BenchWorker::State b = bench_.state();
            char sweep[96] = "";
            if (b.phase == BenchWorker::Phase::running)
                std::snprintf(sweep, sizeof sweep, " | benchmark %.0f%% (B)", b.progress.fraction() * 100);
            // In front of a class: the device (a CPU driver said to be one) and the state, no frame times.
            // A replay: the device that ran it, instead of this one.
            const auto& rec = v.job.recording;
            const std::string device = rec ? recordedOn(rec->device) + " (replay)" : deviceName_;
            const bool cpu = rec ? rec->device.cpu() : device_.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
            if (ui_.presentation || ui_.lesson.lesson)
                ImGui::Text("%s%s | %s | %s%s | F1 help", device.c_str(), cpu ? " (CPU emulation, not a GPU)" : "",
                            v.busy ? "GPU working..." : "ready", ui_.playing ? "playing" : "paused", sweep);
            else
                ImGui::Text("%s | %s | frame CPU %.2f ms (UI %.2f ms) | %s%s | F1 help", device.c_str(),
                            v.busy ? "GPU working..." : "ready", frameCpuAvg_, frameBuildAvg_,
                            ui_.playing ? "playing" : "paused", sweep);
        }
    }
    ImGui::End();
    ImGui::PopStyleVar();
}

// File > Open recording: a path typed in, or one of the recordings in the app's data folders.
void App::drawRecordingDialog() {
    if (ui_.recordingDialog) {
        ImGui::OpenPopup("Open recording");
        ui_.recordingDialog = false;
    }
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal("Open recording", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
    ImGui::TextUnformatted("A recording replays a sort as a GPU ran it (sortlab --record FILE makes one).");
    std::vector<std::filesystem::path> shipped;
    std::error_code ec;
    for (const std::string& dir : recordingDirs(""))
        for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            if (it->path().extension() == ".slrec") shipped.push_back(it->path());
    std::sort(shipped.begin(), shipped.end());
    bool open = false;
    if (!shipped.empty()) {
        ImGui::TextDisabled("Shipped with sortlab:");
        for (const auto& p : shipped)
            if (ImGui::Selectable(p.filename().string().c_str())) {
                std::snprintf(ui_.recordingPath.data(), ui_.recordingPath.size(), "%s", p.string().c_str());
                open = ImGui::IsMouseDoubleClicked(0);
            }
    }
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 30);
    open |= ImGui::InputText("file", ui_.recordingPath.data(), ui_.recordingPath.size(),
                             ImGuiInputTextFlags_EnterReturnsTrue);
    if (!ui_.recordingError.empty()) {
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34);
        ImGui::TextColored(vec4(palette().error), "%s", ui_.recordingError.c_str());
        ImGui::PopTextWrapPos();
    }
    open |= ImGui::Button("Open");
    ImGui::SameLine();
    if (ImGui::Button("Cancel")) {
        ui_.recordingError.clear();
        ImGui::CloseCurrentPopup();
    }
    if (open && ui_.recordingPath[0] && openRecording(ui_.recordingPath.data()).empty()) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

} // namespace sortlab::app
