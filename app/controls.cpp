// The controls panel: the sort (algorithm and variant; entries the library cannot make yet are
// shown disabled with makeSorter's reason, and light up once it succeeds), the input (n, key type,
// key-value, order, distribution, seed), playback (play/pause, step, jump, speed, reset, run to
// end) and which views are open; its View menu: the theme, the panels, presentation mode.
#include <sortlab/app/app.h>
#include <sortlab/app/options.h>

#include <sortlab/app/view_common.h>
#include <sortlab/app/views.h>

#include <imgui.h>
#include <imgui_internal.h> // MarkIniSettingsDirty: the theme is saved with the layout

#include <algorithm>
#include <cstdio>
#include <utility>

namespace sortlab::app {
namespace {

template <class E, size_t N, class NameFn> bool enumCombo(const char* label, E* value, const E (&all)[N], NameFn name) {
    bool changed = false;
    if (ImGui::BeginCombo(label, std::string(name(*value)).c_str())) {
        for (E e : all) {
            if (ImGui::Selectable(std::string(name(e)).c_str(), e == *value)) {
                *value = e;
                changed = true;
            }
        }
        ImGui::EndCombo();
    }
    return changed;
}

} // namespace

// Keys typed by hand: "10, 25, 39" or one a line. "Use these keys" reads them as the key type;
// an error names line and column and keeps the input in use.
void App::drawKeysField(SortSettings& s, bool& changed) {
    if (ui_.keysUse) ImGui::SetNextItemOpen(true);
    if (ImGui::TreeNode("your own keys")) {
        if (s.dist == Distribution::custom && ui_.keysEdit[0] == 0)
            std::snprintf(ui_.keysEdit.data(), ui_.keysEdit.size(), "%s", s.keysText.c_str());
        ImGui::InputTextMultiline("##keys", ui_.keysEdit.data(), ui_.keysEdit.size(),
                                  ImVec2(-1, ImGui::GetTextLineHeight() * 4));
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "numbers separated by commas, spaces or new lines, e.g. 10, 25, 39, 92, 1, 5, 68, 23, 21, 10");
        if (ImGui::Button("Use these keys") || std::exchange(ui_.keysUse, false)) {
            SortSettings t = s;
            if (auto ok = applySetting(t, "keys", ui_.keysEdit.data()); ok) {
                s = t;
                ui_.keysError.clear();
                changed = true;
            } else {
                ui_.keysError = ok.error().message;
            }
        }
        if (!ui_.keysError.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, vec4(palette().inputError));
            wrappedf("%s", ui_.keysError.c_str());
            ImGui::PopStyleColor();
        }
        ImGui::TreePop();
    }
}

// The radix sorts' tile: auto (8 keys up to 256 keys, so that small n run several workgroups),
// the tuned tile, or a teaching size. The plan's tile is shown beside it.
void App::drawTileChoice(SortSettings& s, const SortWorker::View& v, bool& changed) {
    const uint64_t planTile = v.job.plan && v.job.plan->algorithm != Algorithm::oddeven ? v.job.plan->tileKeys : 0;
    std::string current = s.tileAuto                   ? "auto"
                          : s.knobs.radixTileKeys == 0 ? "tuned"
                                                       : std::to_string(s.knobs.radixTileKeys);
    if (planTile) current += " (" + std::to_string(planTile) + " keys)";
    if (ImGui::BeginCombo("tile", current.c_str())) {
        if (ImGui::Selectable("auto: 8 keys up to n = 256", s.tileAuto))
            changed |= applySetting(s, "tile-keys", "auto").ok();
        if (ImGui::Selectable("tuned (the fast tile)", !s.tileAuto && s.knobs.radixTileKeys == 0))
            changed |= applySetting(s, "tile-keys", "0").ok();
        for (uint32_t k : {4u, 8u, 16u, 32u, 64u, 256u}) {
            const std::string label = std::to_string(k) + " keys";
            if (ImGui::Selectable(label.c_str(), !s.tileAuto && s.knobs.radixTileKeys == k))
                changed |= applySetting(s, "tile-keys", std::to_string(k)).ok();
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("keys per workgroup: small tiles make small n run several workgroups, so their own counts "
                          "and the chained scan between them show; the same shaders and the same result");
}

// The View menu, in the Controls panel's menu bar: the theme (dark, or light for a projector), the
// panels, presentation mode.
void App::drawViewMenu(const SortWorker::View& v) {
    if (!ImGui::BeginMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Open recording...")) {
            ui_.recordingDialog = true;
            ui_.recordingError.clear();
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        ImGui::TextDisabled("Theme");
        for (auto [t, label] : {std::pair{Theme::dark, "Dark"}, std::pair{Theme::light, "Light (projector)"}})
            if (ImGui::MenuItem(label, nullptr, theme() == t) && theme() != t) {
                setTheme(t);
                ImGui::MarkIniSettingsDirty(); // imgui.ini keeps it (main.cpp)
            }
        ImGui::Separator();
        ImGui::MenuItem("Array", nullptr, &ui_.showArray);
        ImGui::MenuItem("Network (odd-even)", nullptr, &ui_.showNetwork);
        ImGui::MenuItem("Radix", nullptr, &ui_.showRadix, hasRadixData(v));
        ImGui::MenuItem("Explanation", nullptr, &ui_.showExplain);
        ImGui::MenuItem("Check", nullptr, &ui_.showCheck);
        ImGui::MenuItem("Benchmark", "B", &ui_.bench.open);
        ImGui::Separator();
        ImGui::MenuItem("Presentation mode", "P", &ui_.presentation);
        ImGui::EndMenu();
    }
    ImGui::EndMenuBar();
}

void App::drawControls(const SortWorker::View& v) {
    if (!ImGui::Begin("Controls", nullptr, ImGuiWindowFlags_MenuBar)) {
        ImGui::End();
        return;
    }
    drawViewMenu(v);
    SortSettings s = ui_.settings;
    bool changed = false;

    drawLessonMenu();
    ImGui::Separator();
    drawSortControls(s, changed);
    ImGui::Spacing();
    drawInputControls(s, v, changed);
    if (changed) applySettings(s);
    ImGui::Spacing();
    drawPlaybackControls(v);
    ImGui::Spacing();
    drawViewToggles(v);
    if (v.job.plan) {
        ImGui::Spacing();
        drawPlanSummary(v, s);
    }
    ImGui::End();
}

// SORT: the algorithm menu (entries the library cannot make yet disabled, with makeSorter's
// reason), OneSweep's fallback and lookback log, and why each unavailable sort is.
void App::drawSortControls(SortSettings& s, bool& changed) {
    ImGui::TextDisabled("SORT");
    const std::span<const VariantInfo> menu = variants();
    if (ImGui::BeginCombo("algorithm", std::string(s.algoName()).c_str())) {
        for (size_t i = 0; i < menu.size(); ++i) {
            const VariantInfo& c = menu[i];
            const bool ok = i < algos_.size() && algos_[i].available;
            std::string label = std::string(c.name) + "  -  " + std::string(c.label);
            if (ImGui::Selectable(label.c_str(), c.variant == s.algo, ok ? 0 : ImGuiSelectableFlags_Disabled) && ok) {
                s.algo = c.variant;
                changed = true;
            }
            if (ImGui::IsItemHovered() && ok) ImGui::SetTooltip("%s", std::string(c.description).c_str());
            if (!ok && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
                ImGui::SetTooltip("%s", i < algos_.size() ? algos_[i].why.c_str() : "");
        }
        ImGui::EndCombo();
    }
    if (s.algorithm() == Algorithm::onesweep) {
        // The onesweep-fallback entry is onesweep with this box ticked.
        bool forced = s.config().knobs.forceFallback;
        if (ImGui::Checkbox("force the fallback (each tile counts tile t-1 itself)", &forced)) {
            s.algo = Variant::onesweep;
            s.knobs.forceFallback = forced;
            changed = true;
        }
        bool logged = s.effectiveLookbackLog();
        if (ImGui::Checkbox(s.lookbackAuto ? "log the lookback (auto: up to n = 65536)" : "log the lookback", &logged))
            changed |= applySetting(s, "lookback-log", logged ? "on" : "off").ok();
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("run the instrumented pass kernel, which logs every tile's lookback: the radix view "
                              "replays each pass event by event (slower; at most 65536 tiles a pass)");
    }
    for (size_t i = 0; i < menu.size() && i < algos_.size(); ++i)
        if (!algos_[i].available)
            ImGui::TextDisabled("%s: %s", std::string(menu[i].name).c_str(), algos_[i].why.c_str());
}

// INPUT: n (typed, or a power of two), key type, key-value, order, distribution, keys of one's
// own, the radix sorts' tile, the seed and a new input.
void App::drawInputControls(SortSettings& s, const SortWorker::View& v, bool& changed) {
    ImGui::TextDisabled("INPUT");
    uint64_t& nEdit = ui_.nEdit;
    if (!ImGui::IsAnyItemActive()) nEdit = s.n;
    const uint64_t step1 = 1, stepBig = 16;
    if (ImGui::InputScalar("n", ImGuiDataType_U64, &nEdit, &step1, &stepBig, "%llu",
                           ImGuiInputTextFlags_EnterReturnsTrue) ||
        (ImGui::IsItemDeactivatedAfterEdit() && nEdit != s.n)) {
        changed |= applySetting(s, "n", std::to_string(std::clamp<uint64_t>(nEdit, 1, uint64_t(1) << 28))).ok();
    }
    for (uint32_t e : {4u, 6u, 10u, 16u, 20u}) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "2^%u", e);
        if (e != 4) ImGui::SameLine();
        if (ImGui::SmallButton(buf)) changed |= applySetting(s, "n", std::to_string(uint64_t(1) << e)).ok();
    }
    KeyType key = s.key;
    if (enumCombo("key type", &key, kAllKeyTypes, keyTypeName)) {
        // Keys given by hand must read as the new type (a float key is no u32 one): else keep the old.
        if (auto ok = applySetting(s, "type", std::string(keyTypeName(key))); ok)
            changed = true;
        else
            ui_.keysError = ok.error().message;
    }
    changed |= ImGui::Checkbox("key-value (u32 values = input index)", &s.keyValue);
    const Order orders[] = {Order::ascending, Order::descending};
    changed |= enumCombo("order", &s.order, orders, orderName);
    Distribution dist = s.dist;
    if (enumCombo("distribution", &dist, kAllDistributions, distributionName))
        changed |= applySetting(s, "dist", std::string(distributionName(dist))).ok();
    drawKeysField(s, changed);
    if (s.algorithm() == Algorithm::radix4 || s.algorithm() == Algorithm::onesweep) drawTileChoice(s, v, changed);
    uint64_t& seedEdit = ui_.seedEdit;
    if (!ImGui::IsAnyItemActive()) seedEdit = s.seed;
    if (ImGui::InputScalar("seed", ImGuiDataType_U64, &seedEdit, &step1, nullptr, "%llu",
                           ImGuiInputTextFlags_EnterReturnsTrue) ||
        (ImGui::IsItemDeactivatedAfterEdit() && seedEdit != s.seed)) {
        s.seed = seedEdit;
        changed = true;
    }
    if (ImGui::Button("New input (R)")) {
        ++s.seed;
        changed = true;
    }
}

// PLAYBACK: play/pause, step back and forward, run to the end, reset, jump, speed, move.
void App::drawPlaybackControls(const SortWorker::View& v) {
    ImGui::TextDisabled("PLAYBACK");
    const size_t steps = v.job.plan ? v.job.plan->steps.size() : 0;
    const size_t at = v.data ? v.data->step : 0;
    // The next button beside the last where it fits, else on the next line: no label cut.
    auto besideIfItFits = [](const char* label) {
        const float w = ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2;
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
    };
    const char* play = ui_.playing ? "Pause (Space)" : "Play (Space)";
    if (ImGui::Button(play)) ui_.playing = !ui_.playing;
    besideIfItFits("< Step back");
    if (ImGui::Button("< Step back") && v.target > 0) {
        ui_.playing = false;
        goTo(v.target - 1);
    }
    besideIfItFits("Step on >");
    if (ImGui::Button("Step on >") && v.target < steps) {
        ui_.playing = false;
        goTo(v.target + 1);
    }
    besideIfItFits("Run to end");
    if (ImGui::Button("Run to end")) {
        ui_.playing = false;
        goTo(steps);
    }
    if (ImGui::Button("Reset")) {
        ui_.playing = false;
        worker_.resetJob();
        goTo(0);
    }
    ImGui::SameLine();
    ImGui::TextDisabled("(back to the input)");
    int jump = ui_.jumpTo;
    if (ImGui::SliderInt("step", &jump, 0, int(steps), "%d", ImGuiSliderFlags_AlwaysClamp)) ui_.jumpTo = jump;
    if (ImGui::IsItemDeactivatedAfterEdit()) {
        ui_.playing = false;
        goTo(size_t(ui_.jumpTo));
    }
    ImGui::SliderFloat("speed", &ui_.speed, 0.25f, 120.0f, "%.2f steps/s", ImGuiSliderFlags_Logarithmic);
    ImGui::SliderFloat("move", &ui_.moveSeconds, 0.0f, 2.0f,
                       ui_.moveSeconds > 0 ? "%.1f s a step" : "off (steps jump)");
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("each step drawn as a move: keys travel from their index before the step to the one the GPU "
                          "gave them (at 4 steps/s; the speed scales it). A radix pass of up to 64 keys moves one "
                          "bucket at a time, half of this a bucket (up to ten times this)");
    ImGui::Text("at step %zu of %zu%s", at, steps, v.busy ? " (GPU working...)" : "");
}

// VIEWS: check mode, presentation mode, and which views are open.
void App::drawViewToggles(const SortWorker::View& v) {
    ImGui::TextDisabled("VIEWS");
    bool check = ui_.check;
    if (ImGui::Checkbox("check mode (C)", &check)) setCheck(check);
    ImGui::SameLine();
    ImGui::Checkbox("presentation (P)", &ui_.presentation);
    ImGui::Checkbox("array", &ui_.showArray);
    ImGui::SameLine();
    ImGui::Checkbox("network", &ui_.showNetwork);
    ImGui::SameLine();
    ImGui::Checkbox("explain", &ui_.showExplain);
    ImGui::Checkbox("check", &ui_.showCheck);
    ImGui::SameLine();
    ImGui::BeginDisabled(!hasRadixData(v));
    ImGui::Checkbox("radix", &ui_.showRadix);
    ImGui::EndDisabled();
    ImGui::Checkbox("benchmark panel (B)", &ui_.bench.open);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Time the sorts over a sweep of sizes (sortlab-bench's code), plot Gkeys/s against n "
                          "and the per-step times, export JSON, CSV and PNG");
}

// PLAN: the variant the plan runs, its keys, steps and the bytes it moves at least.
void App::drawPlanSummary(const SortWorker::View& v, const SortSettings& s) {
    const size_t steps = v.job.plan->steps.size();
    ImGui::TextDisabled("PLAN");
    ImGui::Text("%s, %s keys%s, %s", std::string(variantName(v.job.plan->algorithm, v.job.plan->config)).c_str(),
                std::string(keyTypeName(s.key)).c_str(), s.keyValue ? " + u32 values" : "",
                std::string(orderName(s.order)).c_str());
    ImGui::Text("%zu steps, %s moved at least", steps, bytesText(double(v.job.plan->bytesMovedFloor)).c_str());
}

} // namespace sortlab::app
