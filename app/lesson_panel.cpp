// Lessons in the window: the Lessons menu (Controls), the lesson panel (the stop's title and
// narration, its question, the GPU's answer, next / back / restart), and the stop's state reached
// over frames (settings, then the step once the worker has the plan, then the replay).
//
// Index: openLesson, goToStop, answerStop; noteScreenshot (what each screenshot showed: the
// visible checks); reachStop, updateLesson; lessonRecord (the JSONL line); [SECTION] The lesson
// panel: drawLessonPanel, drawLessonFooter, drawLessonRecording, drawLessonTiming, drawLessonMenu.
#include <sortlab/app/app.h>
#include <sortlab/app/measured.h>
#include <sortlab/app/state_dump.h>
#include <sortlab/app/view_common.h>
#include <sortlab/app/views.h>
#include <sortlab/oddeven.h>

#include <nlohmann/json.hpp>

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace sortlab::app {

std::string App::openLesson(const std::string& nameOrFile) {
    auto l = loadLesson(nameOrFile);
    if (!l) return l.error().message;
    // Its recordings: one that is missing leaves those stops live (the panel says so); one that
    // does not read is an error on screen, and those stops run live.
    ui_.recordingNotes.clear();
    ui_.recordingError.clear();
    ui_.live = false;
    for (const auto& [name, line] : l->recordings) {
        const std::string path = findRecording(name, l->dir);
        if (path.empty()) {
            ui_.recordingNotes.push_back("The recording " + name + " was not found, so this runs live.");
            continue;
        }
        auto r = readRecording(path);
        if (!r)
            ui_.recordingError = r.error().message;
        else
            addRecording(*r);
    }
    ui_.lesson.lesson = std::move(*l);
    const auto names = builtinLessons();
    for (size_t i = 0; i < names.size(); ++i)
        if (names[i].first == nameOrFile) ui_.lesson.choice = int(i); // the Lessons menu shows it
    ui_.bench.open = false;
    goToStop(0);
    return {};
}

void App::goToStop(size_t stop) {
    auto& L = ui_.lesson;
    if (!L.lesson || L.lesson->stops.empty()) return;
    stop = std::min(stop, L.lesson->stops.size() - 1);
    auto s = settingsAt(*L.lesson, stop, SortSettings{});
    L.stop = stop;
    // Whether the stop before replayed a recording: where this one runs live, its banner says so.
    const auto before = stop > 0 ? settingsAt(*L.lesson, stop - 1, SortSettings{}) : Result<SortSettings>(s);
    L.previousReplayed = stop > 0 && before && !ui_.live && recordingFor(*before) != nullptr;
    L.answering = L.answered = false;
    L.given.reset();
    L.answer.reset();
    L.result.clear();
    L.answerEdit[0] = 0;
    L.seenHighlight = L.seenQuestion = L.seenFeedback = L.seenSubject = L.seenNarration = std::nullopt;
    L.labelShots = nlohmann::json::array();
    L.hint.clear();
    ui_.highlight = L.lesson->stops[stop].highlight;
    if (!s) {
        L.result = s.error().message;
        L.pending = false;
        return;
    }
    if (!(*s == ui_.settings)) applySettings(*s);
    ui_.playing = false;
    L.pending = true;
}

void App::answerStop(std::optional<int64_t> given, UiState::LessonUi::Mode mode) {
    auto& L = ui_.lesson;
    if (!L.lesson || L.pending || L.answering || L.answered || !L.lesson->stops[L.stop].question) return;
    L.given = given;
    L.mode = mode;
    L.answering = true;
    L.hint.clear();
    // A graded question is about the next step: run it. A prediction is about the pass shown.
    if (graded(L.lesson->stops[L.stop].question->kind)) goTo(L.shownStep + 1);
}

namespace {
// The stop's subject on screen: every part its @subject names drawn, all it is about inside the
// window, and every network layer it names in view.
bool subjectShown(const UiState::LessonUi& L, const UiState::Probe& p) {
    return (L.subjectsNamed & ~p.subjectDrawn) == 0 && p.subjectVisible &&
           (L.layers.empty() || (p.layersDrawn && p.layersVisible));
}
} // namespace

void App::noteScreenshot() {
    auto& L = ui_.lesson;
    if (!L.lesson || L.pending || L.answering) return;
    const LessonStop& stop = L.lesson->stops[L.stop];
    const UiState::Probe& p = ui_.lastProbe;
    auto seen = [](std::optional<bool>& acc, bool visible) { acc = acc.value_or(true) && visible; };
    if (stop.highlight.kind != HighlightKind::none) seen(L.seenHighlight, p.highlight && p.highlightVisible);
    if (stop.question) seen(L.seenQuestion, p.question && p.questionVisible);
    if (stop.question && !L.result.empty()) seen(L.seenFeedback, p.feedback && p.feedbackVisible);
    if (L.subjects || p.subjectDrawn || !L.layers.empty()) seen(L.seenSubject, subjectShown(L, p));
    seen(L.seenNarration, p.narration && p.narrationVisible);
    nlohmann::json shot = labelsJson();
    // What the views showed of the state: the step, the step the array drew, the replay's events.
    const auto& d = worker_.view().data;
    shot["step"] = d ? nlohmann::json(d->step) : nlohmann::json(nullptr);
    shot["array_step"] = p.arrayStep;
    const ViewState& m = ui_.views;
    shot["replay"] = d && m.replay && m.replayFor == d->snapshot
                         ? nlohmann::json::array({m.replay->shown, m.replay->events.size()})
                         : nlohmann::json(nullptr);
    shot["histogram_bits"] =
        p.histogramLo >= 0 ? nlohmann::json::array({p.histogramLo, p.histogramHi}) : nlohmann::json(nullptr);
    L.labelShots.push_back(std::move(shot));
}

// The stop's state once the worker has its plan: the step, then the replay.
void App::reachStop(const SortWorker::View& v) {
    auto& L = ui_.lesson;
    const LessonStop& stop = L.lesson->stops[L.stop];
    if (v.busy || !v.job.plan || !(v.job.settings == ui_.settings) || !v.error.empty()) {
        if (!v.error.empty()) L.pending = false, L.result = v.error;
        return;
    }
    L.shownStep = stepAt(*L.lesson, L.stop, v.job.plan->steps.size());
    if (stop.question && graded(stop.question->kind) && L.shownStep >= v.job.plan->steps.size()) {
        L.result = L.lesson->source + ":" + std::to_string(stop.line) + ": a question needs a step after this one";
        L.pending = false;
        return;
    }
    goTo(L.shownStep);
    // A stop that points at a key pins it: the class sees where it goes from there on. That path
    // ends with the stop; a key the teacher pinned stays.
    if (stop.highlight.kind == HighlightKind::key && stop.highlight.index < v.job.settings.n) {
        worker_.pinKeyAt(L.shownStep, stop.highlight.index);
        L.stopPinned = true;
    } else if (L.stopPinned) {
        worker_.pinKeyAt(0, std::nullopt);
        L.stopPinned = false;
    }
    if (stop.replayDigit) ui_.replay.digit = *stop.replayDigit;
    if (stop.replayEvent) ui_.replay.shown = *stop.replayEvent;
    L.pending = false;
    L.scrollFrames = 8;
}

void App::updateLesson(const SortWorker::View& v) {
    auto& L = ui_.lesson;
    if (!L.lesson) return;
    L.subjects = lessonSubjects(L.lesson->stops[L.stop], ui_.settings.algorithm(), L.answered);
    L.subjectsNamed = 0;
    for (SubjectKind k : L.lesson->stops[L.stop].subjects) L.subjectsNamed |= uint32_t(1) << unsigned(k);
    if (L.layersOfStop != L.stop || L.layersOfN != v.job.settings.n) {
        L.layersOfStop = L.stop, L.layersOfN = v.job.settings.n;
        L.layers = v.job.settings.algorithm() == Algorithm::oddeven && v.job.settings.n >= 2
                       ? lessonLayers(L.lesson->stops[L.stop], oddeven::layers(v.job.settings.n).size())
                       : std::vector<uint32_t>{};
    }
    if (L.scrollFrames > 0 && !L.pending && !v.busy) --L.scrollFrames;
    if (L.pending) return reachStop(v);
    const LessonStop& stop = L.lesson->stops[L.stop];
    if (!L.answering || v.busy || !v.data) return;
    const bool next = graded(stop.question->kind);
    if (v.data->step != L.shownStep + (next ? 1 : 0)) return;
    auto answer = answerOf(*stop.question, *v.data, v.job, ui_.replay);
    L.answering = false;
    L.answered = true;
    lessonView_ = v;
    if (!answer) {
        L.result = "The GPU's state does not answer this: " + answer.error().message;
        return;
    }
    L.answer = *answer;
    using Mode = UiState::LessonUi::Mode;
    if (L.mode == Mode::right) L.given = int64_t(answer->value);
    if (L.mode == Mode::wrong) L.given = int64_t(answer->value + 1);
    if (stop.question->kind == QuestionKind::where && ui_.highlight.kind == HighlightKind::key)
        ui_.highlight.index = answer->value;                          // the key the stop pointed at, where it went
    if (answer->replayShown) ui_.replay.shown = *answer->replayShown; // the walk, played to its end
    L.result = feedbackText(*stop.question, L.given, *answer);
    L.scrollFrames = 8;
}

std::string App::lessonRecord() const {
    using nlohmann::json;
    const auto& L = ui_.lesson;
    json j;
    if (!L.lesson) return "{}";
    const LessonStop& stop = L.lesson->stops[L.stop];
    j["lesson"] = L.lesson->name;
    j["stop"] = L.stop;
    j["stops"] = L.lesson->stops.size();
    j["title"] = stop.title;
    j["step"] = L.shownStep;
    const auto& rec = worker_.view().job.recording; // the stop's run: replayed (the file) or live (null)
    j["recording"] = rec ? json(rec->path) : json(nullptr);
    j["highlight"] = {{"kind", std::string(highlightKindName(stop.highlight.kind))}, {"index", stop.highlight.index}};
    auto seen = [&](std::optional<bool> acc, bool has, bool visibleNow) {
        return has ? json(acc.value_or(visibleNow)) : json(nullptr);
    };
    const UiState::Probe& p = ui_.lastProbe;
    j["visible"] = {
        {"highlight",
         seen(L.seenHighlight, stop.highlight.kind != HighlightKind::none, p.highlight && p.highlightVisible)},
        {"question", seen(L.seenQuestion, bool(stop.question), p.question && p.questionVisible)},
        {"feedback", seen(L.seenFeedback, bool(stop.question), p.feedback && p.feedbackVisible)},
        {"subject", seen(L.seenSubject, L.subjects || p.subjectDrawn || !L.layers.empty(), subjectShown(L, p))},
        {"narration", seen(L.seenNarration, true, p.narration && p.narrationVisible)}};
    json subjects = json::array();
    for (unsigned k = 0; k < 32; ++k)
        if ((L.subjects >> k) & 1u) subjects.push_back(std::string(subjectKindName(SubjectKind(k))));
    j["subjects"] = subjects;
    json layers = json::array(); // the network layers the stop names, from 1 as lessons count them
    for (uint32_t l : L.layers) layers.push_back(l + 1);
    j["layers"] = layers;
    // The key whose path the views draw (its input index), and whether the stop pinned it.
    const auto& pinned = worker_.view().data ? worker_.view().data->pinned : std::nullopt;
    j["pinned"] = pinned ? json(*pinned) : json(nullptr);
    j["pinned_by_stop"] = L.stopPinned;
    j["hint"] = L.hint;
    j["label_shots"] = L.labelShots;
    if (!stop.question) return j.dump();
    j["question"] = {{"kind", std::string(questionKindName(stop.question->kind))},
                     {"arg", stop.question->arg},
                     {"text", stop.question->text},
                     {"graded", graded(stop.question->kind)}};
    j["given"] = L.given ? json(*L.given) : json(nullptr);
    j["right"] = L.answer ? json(L.answer->value) : json(nullptr);
    j["result"] = L.result;
    const SortWorker::View& v = lessonView_;
    if (!v.data || !v.data->snapshot) return j.dump();
    const SortSettings& s = v.job.settings;
    auto keys = [&](const Snapshot& snap) { return keysJson(snap.keys, s.n, s.key); };
    j["type"] = std::string(keyTypeName(s.key));
    if (v.data->previous) j["before"] = {{"keys", keys(*v.data->previous)}, {"values", v.data->previous->values}};
    j["after"] = {{"keys", keys(*v.data->snapshot)}, {"values", v.data->snapshot->values}};
    if (v.job.plan && v.data->step > 0) {
        const Step& st = v.job.plan->steps[v.data->step - 1];
        j["after"]["kind"] = std::string(stepKindName(st.kind));
        j["after"]["bit_lo"] = st.bitLo;
        j["after"]["bit_hi"] = st.bitHi;
    }
    json aux = json::object();
    for (const auto& a : v.data->snapshot->aux)
        aux[std::string(auxKindName(a.kind))] = {{"shape", a.shape}, {"data", a.data}};
    j["after"]["aux"] = aux;
    if (auto r = lookbackReplay(*v.data->snapshot, ui_.replay)) j["replay_digit"] = r->digit;
    return j.dump();
}

// [SECTION] The lesson panel -----------------------------------------------------------------------------

void App::drawLessonPanel(const SortWorker::View& v) {
    auto& L = ui_.lesson;
    bool open = true;
    if (!beginView("Lesson", ui_.presentation, &open)) {
        if (!open) L.lesson.reset();
        return;
    }
    const Lesson& lesson = *L.lesson;
    const LessonStop& stop = lesson.stops[L.stop];
    if (L.stop == 0) { // the lesson's title once, at its start: later stops need the room
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        textWrappedAtSpaces(lesson.title);
        ImGui::PopStyleColor();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, vec4(palette().title));
    textWrappedAtSpaces("Stop " + std::to_string(L.stop + 1) + " of " + std::to_string(lesson.stops.size()) + ": " +
                        stop.title);
    ImGui::PopStyleColor();
    // Navigation first, so that it never scrolls away.
    const bool busy = L.pending || L.answering;
    ImGui::BeginDisabled(busy || L.stop == 0);
    if (ImGui::Button("< Previous stop")) goToStop(L.stop - 1);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(busy || L.stop + 1 >= lesson.stops.size());
    if (ImGui::Button("Next stop >")) goToStop(L.stop + 1);
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Restart")) goToStop(0);
    const char* keysHint = "(Page Up / Page Down)";
    if (ImGui::GetContentRegionAvail().x > ImGui::CalcTextSize(keysHint).x + ImGui::GetFontSize() * 14) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", keysHint);
    }
    ImGui::Separator();
    // The question, the answer field and the feedback: a footer that never scrolls away.
    const float width = ImGui::GetContentRegionAvail().x, line = ImGui::GetTextLineHeightWithSpacing();
    float footer = 0;
    if (stop.question) {
        footer = ImGui::GetStyle().ItemSpacing.y * 3 + wrappedHeight("Question: " + stop.question->text, width);
        if (!L.answered) footer += ImGui::GetFrameHeightWithSpacing() + line;
        if (!L.answered && !L.hint.empty()) footer += wrappedHeight(L.hint, width);
        if (!L.result.empty()) footer += wrappedHeight(L.result, width);
    }
    drawLessonRecording(v);
    ImGui::BeginChild("##narration", ImVec2(0, -std::max(footer, 1.0f)), false);
    const ImVec2 text0 = textWrappedAtSpaces(stop.narration).first;
    drawLessonTiming(v);
    // The stop's text fits when all of it shows without scrolling (the lesson's check: narration).
    noteVisible(ui_, ProbeItem::narration, text0, ImVec2(text0.x, ImGui::GetItemRectMax().y));
    ImGui::EndChild();
    if (stop.question) drawLessonFooter(lesson, stop, busy);
    ImGui::End();
    if (!open) L.lesson.reset();
}

void App::drawLessonFooter(const Lesson&, const LessonStop& stop, bool busy) {
    auto& L = ui_.lesson;
    ImGui::Separator();
    ImGui::PushStyleColor(ImGuiCol_Text, vec4(palette().question));
    const auto q = textWrappedAtSpaces("Question: " + stop.question->text);
    ImGui::PopStyleColor();
    noteVisible(ui_, ProbeItem::question, q.first, q.second);
    if (!L.answered) {
        const bool predict = !graded(stop.question->kind);
        ImGui::BeginDisabled(busy);
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
        const bool enter = ImGui::InputText("##answer", L.answerEdit.data(), L.answerEdit.size(),
                                            ImGuiInputTextFlags_CharsDecimal | ImGuiInputTextFlags_EnterReturnsTrue);
        const ImVec2 field0 = ImGui::GetItemRectMin();
        ImGui::SameLine();
        if ((ImGui::Button(predict ? "Predict" : "Answer") || enter) && L.answerEdit[0])
            answerStop(std::strtoll(L.answerEdit.data(), nullptr, 10));
        ImGui::SameLine();
        if (ImGui::Button(predict ? "Watch" : "Show me")) answerStop(std::nullopt, UiState::LessonUi::Mode::showMe);
        noteVisible(ui_, ProbeItem::question, field0, ImGui::GetItemRectMax());
        ImGui::EndDisabled();
        ImGui::TextDisabled(predict                        ? "plays the replay to the walk's end"
                            : worker_.view().job.recording ? "shows the next step the GPU recorded"
                            : device_.isLavapipe           ? "runs the next step on lavapipe"
                                                           : "runs the next step on the GPU");
        if (!L.hint.empty()) { // Right (or >, Play) was pressed with the question open
            ImGui::PushStyleColor(ImGuiCol_Text, vec4(palette().question));
            textWrappedAtSpaces(L.hint);
            ImGui::PopStyleColor();
        }
    }
    if (!L.result.empty()) {
        const bool said = L.answer && L.given && graded(stop.question->kind);
        const bool right = said && *L.given >= 0 && L.answer->value == uint64_t(*L.given);
        const bool wrong = said && !right;
        ImGui::PushStyleColor(ImGuiCol_Text, right   ? vec4(palette().right)
                                             : wrong ? vec4(palette().wrong)
                                                     : ImGui::GetStyleColorVec4(ImGuiCol_Text));
        const auto f = textWrappedAtSpaces(L.result);
        ImGui::PopStyleColor();
        noteVisible(ui_, ProbeItem::feedback, f.first, f.second);
    }
}

// Where the stop's data come from, on a banner above its text that stands out from it: a replay
// of a recording (which GPU, when), or a live run on this device (and, where the stop before
// replayed a recording, that the source changed here); with the button that switches between them.
// One line where it fits, so the text keeps its room; the long form is the banner's tooltip.
void App::drawLessonRecording(const SortWorker::View& v) {
    const auto& rec = v.job.recording;
    const auto other = rec ? nullptr : recordingFor(ui_.settings);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    for (const std::string& note : ui_.recordingNotes) textWrappedAtSpaces(note);
    ImGui::PopStyleColor();
    // lavapipe, live, is why a lesson ships a GPU's recording. Mesa's llvmpipe hands each of its CPU
    // threads a range of the workgroups, which it runs one after another (lp_cs_tpool).
    const std::string here = device_.isLavapipe ? "lavapipe (CPU emulation)" : deviceName_;
    const std::string oneAtATime =
        device_.isLavapipe ? ", where each CPU thread runs its share of the workgroups one at a time" : "";
    if (!rec && !other && (recordings_.empty() || !ui_.recordingNotes.empty())) return;
    const bool busy = ui_.lesson.pending || ui_.lesson.answering;
    std::string line, tip;
    if (rec) {
        const RecordedDevice& d = rec->device;
        line = "RECORDED on " + d.name + ", " + d.date.substr(0, 10) + ": a replay of that GPU's run.";
        tip = "A replay: " + d.name + " ran this sort on " + d.date.substr(0, 10) + ". Live, it runs on " + here +
              oneAtATime + ".";
    } else if (other) {
        line = "LIVE on " + here + ", not the recording.";
        tip = "Live on " + here + oneAtATime + ". A recording of this run on " + other->device.name + " is open.";
    } else {
        line = ui_.lesson.previousReplayed
                   ? "Now LIVE on " + here + ": the recording has no run with this stop's settings."
                   : "LIVE on " + here + ": no recording has a run with this stop's settings.";
        tip = "Live on " + here + oneAtATime + ". A recording replays only the run it holds.";
    }
    // The banner: the line on a tinted box across the panel (drawn behind the text once its height
    // is known), its button after the last line where it fits.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const float right = top.x + ImGui::GetContentRegionAvail().x, pad = ImGui::GetStyle().FramePadding.x;
    const char* button = rec ? "Run it live" : other ? "Replay the recording" : nullptr;
    dl->ChannelsSplit(2);
    dl->ChannelsSetCurrent(1);
    ImGui::SetCursorScreenPos(ImVec2(top.x + pad, top.y + pad * 0.5f));
    ImGui::BeginGroup();
    bool hovered = false;
    float lastRight = top.x;
    for (const std::string& l : wrapAtSpaces(line, right - top.x - 2 * pad)) {
        ImGui::TextUnformatted(l.c_str());
        hovered = hovered || ImGui::IsItemHovered();
        lastRight = ImGui::GetItemRectMax().x;
    }
    if (button) {
        const float bw = ImGui::CalcTextSize(button).x + ImGui::GetStyle().FramePadding.x * 2;
        if (lastRight + ImGui::GetStyle().ItemSpacing.x + bw < right - pad) ImGui::SameLine();
        ImGui::BeginDisabled(busy);
        if (ImGui::SmallButton(button)) setLive(bool(rec));
        ImGui::EndDisabled();
    }
    ImGui::EndGroup();
    const float bottom = ImGui::GetItemRectMax().y + pad * 0.5f;
    dl->ChannelsSetCurrent(0);
    // Recorded and live in two hues (the accent's tan, the question's blue), not two shades of one.
    const ImU32 hue = rec ? palette().accent : palette().question;
    const ImU32 tint = (hue & ~IM_COL32_A_MASK) | (rec ? IM_COL32(0, 0, 0, 0x38) : IM_COL32(0, 0, 0, 0x40));
    dl->AddRectFilled(top, ImVec2(right, bottom), tint, 4.0f);
    dl->AddRect(top, ImVec2(right, bottom), hue, 4.0f, 0, rec ? 1.0f : 2.0f);
    dl->ChannelsMerge();
    ImGui::SetCursorScreenPos(ImVec2(top.x, bottom));
    ImGui::Dummy(ImVec2(0, pad * 0.5f));
    if (hovered) ImGui::SetTooltip("%s", tip.c_str());
}

// The last stop of a lesson: what this device took for the view, and, on a CPU driver, that it is
// an emulation, with the times the project measured on GPUs beside it.
void App::drawLessonTiming(const SortWorker::View& v) {
    const auto& L = ui_.lesson;
    const bool busy = L.pending || L.answering;
    if (L.stop + 1 != L.lesson->stops.size() || !v.data || !v.job.plan || v.data->step != v.job.plan->steps.size() ||
        busy || v.job.recording) // a replay times nothing
        return;
    char ms[32];
    std::snprintf(ms, sizeof ms, v.data->stepMs < 10 ? "%.2f ms" : "%.0f ms", v.data->stepMs);
    const bool cpu = device_.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    ImGui::Spacing();
    std::string text =
        cpu ? deviceName_ + " is CPU emulation, not a GPU: it took " + ms + " to run this sort and read it back."
            : deviceName_ + " took " + ms + " to run this sort and read it back.";
    const std::string gpus = measuredLine(v.job.settings.algo, v.job.settings.n);
    if (cpu && !gpus.empty() && v.job.settings.key == KeyType::u32 && !v.job.settings.keyValue &&
        v.job.settings.dist == Distribution::uniform)
        text += " The same sort measured on GPUs (sortlab-bench, the median of the sort alone): " + gpus + ".";
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    textWrappedAtSpaces(text);
    ImGui::PopStyleColor();
}

// The lesson chooser at the top of Controls: a guided lesson, not another algorithm.
void App::drawLessonMenu() {
    auto& L = ui_.lesson;
    static const std::vector<std::pair<std::string, std::string>> lessons = builtinLessons();
    if (lessons.empty()) return;
    ImGui::TextDisabled("GUIDED LESSON (for a class: stops with questions)");
    L.choice = std::clamp(L.choice, 0, int(lessons.size()) - 1);
    const char* start = L.lesson ? "Restart lesson" : "Start lesson";
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(start).x -
                            ImGui::GetStyle().FramePadding.x * 2 - ImGui::GetStyle().ItemSpacing.x);
    if (ImGui::BeginCombo("##lesson", lessons[size_t(L.choice)].second.c_str())) {
        for (size_t i = 0; i < lessons.size(); ++i)
            if (ImGui::Selectable(lessons[i].second.c_str(), int(i) == L.choice)) L.choice = int(i);
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    if (ImGui::Button(start)) {
        if (std::string e = openLesson(lessons[size_t(L.choice)].first); !e.empty()) ui_.status = e;
    }
}

} // namespace sortlab::app
