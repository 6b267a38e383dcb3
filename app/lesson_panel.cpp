// Lessons in the window: the Lessons menu (Controls), the lesson panel (the stop's title and
// narration, its question, the GPU's answer, next / back / restart), and the stop's state reached
// over frames (settings, then the step once the worker has the plan, then the replay).
#include <sortlab/app/app.h>
#include <sortlab/app/state_dump.h>
#include <sortlab/app/view_common.h>
#include <sortlab/app/views.h>

#include <nlohmann/json.hpp>

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace sortlab::app {

std::string App::openLesson(const std::string& nameOrFile) {
    auto l = loadLesson(nameOrFile);
    if (!l) return l.error().message;
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
    L.answering = L.answered = false;
    L.given.reset();
    L.right.reset();
    L.result.clear();
    L.answerEdit[0] = 0;
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

void App::answerStop(std::optional<uint64_t> given) {
    auto& L = ui_.lesson;
    if (!L.lesson || L.pending || L.answering || L.answered || !L.lesson->stops[L.stop].question) return;
    L.given = given;
    L.answering = true;
    goTo(L.shownStep + 1);
}

void App::updateLesson(const SortWorker::View& v) {
    auto& L = ui_.lesson;
    if (!L.lesson) return;
    const LessonStop& stop = L.lesson->stops[L.stop];
    if (L.pending) {
        if (v.busy || !v.job.plan || !(v.job.settings == ui_.settings) || !v.error.empty()) {
            if (!v.error.empty()) L.pending = false, L.result = v.error;
            return;
        }
        L.shownStep = stepAt(*L.lesson, L.stop, v.job.plan->steps.size());
        if (stop.question && L.shownStep >= v.job.plan->steps.size()) {
            L.result = L.lesson->source + ":" + std::to_string(stop.line) + ": a question needs a step after this one";
            L.pending = false;
            return;
        }
        goTo(L.shownStep);
        if (stop.replayDigit) ui_.replay.digit = *stop.replayDigit;
        if (stop.replayEvent) ui_.replay.shown = *stop.replayEvent;
        L.pending = false;
        return;
    }
    if (L.answering && !v.busy && v.data && v.data->step == L.shownStep + 1) {
        auto right = answerOf(*stop.question, *v.data, v.job.settings, ui_.replay);
        L.answering = false;
        L.answered = true;
        lessonView_ = v;
        if (!right) {
            L.result = "The GPU's state does not answer this: " + right.error().message;
            return;
        }
        L.right = *right;
        if (stop.question->kind == QuestionKind::where && ui_.highlight.kind == HighlightKind::key)
            ui_.highlight.index = *right; // the key the stop pointed at, where it went
        if (!L.given) L.given = *right; // "show me" (and the headless runs): the GPU's answer
        char buf[160];
        if (*L.given == *right)
            std::snprintf(buf, sizeof buf, "Right: the GPU says %llu.", static_cast<unsigned long long>(*right));
        else
            std::snprintf(buf, sizeof buf, "Not this time: you said %llu, the GPU says %llu.",
                          static_cast<unsigned long long>(*L.given), static_cast<unsigned long long>(*right));
        L.result = buf;
    }
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
    j["highlight"] = {{"kind", std::string(highlightKindName(stop.highlight.kind))}, {"index", stop.highlight.index}};
    if (!stop.question) return j.dump();
    j["question"] = {{"kind", std::string(questionKindName(stop.question->kind))},
                     {"arg", stop.question->arg},
                     {"text", stop.question->text}};
    j["given"] = L.given ? json(*L.given) : json(nullptr);
    j["right"] = L.right ? json(*L.right) : json(nullptr);
    j["result"] = L.result;
    const SortWorker::View& v = lessonView_;
    if (!v.data || !v.data->snapshot || !v.data->previous) return j.dump();
    const SortSettings& s = v.job.settings;
    auto keys = [&](const Snapshot& snap) { return keysJson(snap.keys, s.n, s.key); };
    j["type"] = std::string(keyTypeName(s.key));
    j["before"] = {{"keys", keys(*v.data->previous)}, {"values", v.data->previous->values}};
    j["after"] = {{"keys", keys(*v.data->snapshot)}, {"values", v.data->snapshot->values}};
    if (v.job.plan && v.data->step > 0) {
        const Step& st = v.job.plan->steps[v.data->step - 1];
        j["after"]["kind"] = std::string(stepKindName(st.kind));
        j["after"]["bit_lo"] = st.bitLo;
        j["after"]["bit_hi"] = st.bitHi;
    }
    json aux = json::object();
    for (const auto& a : v.data->snapshot->aux) aux[std::string(auxKindName(a.kind))] = {{"shape", a.shape}, {"data", a.data}};
    j["after"]["aux"] = aux;
    if (auto r = lookbackReplay(*v.data->snapshot, ui_.replay)) j["replay_digit"] = r->digit;
    return j.dump();
}

// [SECTION] The lesson panel -----------------------------------------------------------------------------

void App::drawLessonPanel(const SortWorker::View& v) {
    auto& L = ui_.lesson;
    bool open = true;
    if (!ImGui::Begin(windowTitle("Lesson", ui_.presentation), &open)) {
        ImGui::End();
        if (!open) L.lesson.reset();
        return;
    }
    const Lesson& lesson = *L.lesson;
    const LessonStop& stop = lesson.stops[L.stop];
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", lesson.title.c_str());
    ImGui::PopStyleColor();
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.85f, 0.35f, 1.0f));
    ImGui::TextWrapped("Stop %zu of %zu: %s", L.stop + 1, lesson.stops.size(), stop.title.c_str());
    ImGui::PopStyleColor();
    // Navigation first, so that it never scrolls away.
    const bool busy = L.pending || L.answering;
    ImGui::BeginDisabled(busy || L.stop == 0);
    if (ImGui::Button("< Back")) goToStop(L.stop - 1);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(busy || L.stop + 1 >= lesson.stops.size());
    if (ImGui::Button("Next >")) goToStop(L.stop + 1);
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Restart")) goToStop(0);
    const char* keysHint = "(Page Up / Page Down)";
    if (ImGui::GetContentRegionAvail().x > ImGui::CalcTextSize(keysHint).x + ImGui::GetFontSize() * 14) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", keysHint);
    }
    ImGui::Separator();
    ImGui::BeginChild("##narration", ImVec2(0, 0), false);
    ImGui::TextWrapped("%s", stop.narration.c_str());
    if (stop.question) {
        ImGui::Spacing();
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.55f, 0.85f, 1.0f, 1.0f));
        ImGui::TextWrapped("Question: %s", stop.question->text.c_str());
        ImGui::PopStyleColor();
        if (!L.answered) {
            ImGui::BeginDisabled(busy);
            ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
            const bool enter = ImGui::InputText("##answer", L.answerEdit.data(), L.answerEdit.size(),
                                                ImGuiInputTextFlags_CharsDecimal | ImGuiInputTextFlags_EnterReturnsTrue);
            ImGui::SameLine();
            if ((ImGui::Button("Answer") || enter) && L.answerEdit[0])
                answerStop(std::strtoull(L.answerEdit.data(), nullptr, 10));
            ImGui::SameLine();
            if (ImGui::Button("Show me")) answerStop(std::nullopt);
            ImGui::EndDisabled();
            ImGui::TextDisabled("the answer runs the next step on the GPU and reads it back");
        }
    }
    if (!L.result.empty()) {
        const bool right = L.right && L.given && *L.right == *L.given;
        ImGui::PushStyleColor(ImGuiCol_Text, right ? ImVec4(0.45f, 0.9f, 0.5f, 1.0f) : ImVec4(1.0f, 0.6f, 0.35f, 1.0f));
        ImGui::TextWrapped("%s", L.result.c_str());
        ImGui::PopStyleColor();
    }
    if (L.stop + 1 == lesson.stops.size() && v.data && v.job.plan && v.data->step == v.job.plan->steps.size() &&
        !busy)
        ImGui::TextWrapped("This device sorted %llu keys: %.2f ms of GPU work and readback for the last view (%s).",
                           static_cast<unsigned long long>(v.job.settings.n), v.data->stepMs,
                           deviceName_.c_str());
    ImGui::EndChild();
    ImGui::End();
    if (!open) L.lesson.reset();
}

void App::drawLessonMenu() {
    auto& L = ui_.lesson;
    ImGui::TextDisabled("LESSONS");
    static const std::vector<std::pair<std::string, std::string>> lessons = builtinLessons();
    if (lessons.empty()) return;
    L.choice = std::clamp(L.choice, 0, int(lessons.size()) - 1);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.7f);
    if (ImGui::BeginCombo("##lesson", lessons[size_t(L.choice)].second.c_str())) {
        for (size_t i = 0; i < lessons.size(); ++i)
            if (ImGui::Selectable(lessons[i].second.c_str(), int(i) == L.choice)) L.choice = int(i);
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    if (ImGui::Button(L.lesson ? "Start" : "Start##lesson")) {
        if (std::string e = openLesson(lessons[size_t(L.choice)].first); !e.empty()) ui_.status = e;
    }
}

} // namespace sortlab::app
