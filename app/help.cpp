// The help overlay (F1), for someone alone at the app: where to start, which device runs the sorts,
// what each colour means (the palette's roles, drawn as the views draw them), the keys and the
// lessons. Two columns, sized to the window, scrolling where a small window cannot hold it.
#include <sortlab/app/app.h>

#include <sortlab/app/view_common.h>

#include <imgui.h>

#include <algorithm>
#include <string>

namespace sortlab::app {

namespace {

enum class Swatch { fill, outline, line, dashed, ramp };

// One colour's row: a swatch drawn the way the views use the role, then what it means.
void colourRow(Swatch kind, ImU32 colour, const char* meaning) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const float h = ImGui::GetTextLineHeight(), w = h * 2.2f, t = std::max(2.0f, h * 0.14f);
    const ImVec2 a = ImGui::GetCursorScreenPos(), b(a.x + w, a.y + h);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    switch (kind) {
    case Swatch::fill:
        dl->AddRectFilled(ImVec2(a.x, a.y + 2), ImVec2(b.x, b.y - 2), colour, 3.0f);
        break;
    case Swatch::outline:
        dl->AddRectFilled(ImVec2(a.x + t, a.y + 2 + t), ImVec2(b.x - t, b.y - 2 - t), palette().plotBg);
        dl->AddRect(ImVec2(a.x + t / 2, a.y + 2), ImVec2(b.x - t / 2, b.y - 2), colour, 3.0f, 0, t);
        break;
    case Swatch::line:
        dl->AddLine(ImVec2(a.x, (a.y + b.y) / 2), ImVec2(b.x, (a.y + b.y) / 2), colour, t * 1.5f);
        break;
    case Swatch::dashed:
        for (float x = a.x; x < b.x; x += h * 0.5f)
            dl->AddLine(ImVec2(x, (a.y + b.y) / 2), ImVec2(std::min(b.x, x + h * 0.3f), (a.y + b.y) / 2), colour, t);
        break;
    case Swatch::ramp: // the key heights' colours, low to high
        for (int i = 0; i < 5; ++i) {
            const float x0 = a.x + w * float(i) / 5, bar = h * (0.3f + 0.15f * float(i));
            dl->AddRectFilled(ImVec2(x0, b.y - bar), ImVec2(x0 + w / 5 - 1, b.y), heightColour(float(i) / 4));
        }
        break;
    }
    ImGui::Dummy(ImVec2(w, h));
    ImGui::TableNextColumn();
    textWrappedAtSpaces(meaning);
}

// A table of a narrow first column and a second that wraps.
bool beginTwoColumns(const char* id) {
    if (!ImGui::BeginTable(id, 2, ImGuiTableFlags_SizingStretchProp)) return false;
    ImGui::TableSetupColumn("a", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("b", ImGuiTableColumnFlags_WidthStretch);
    return true;
}

void bullet(const std::string& text) {
    ImGui::Bullet();
    ImGui::SameLine();
    ImGui::BeginGroup();
    textWrappedAtSpaces(text);
    ImGui::EndGroup();
}

void keyRows(const char* id, const char* const (*rows)[2], size_t count) {
    if (!beginTwoColumns(id)) return;
    for (size_t i = 0; i < count; ++i) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(vec4(palette().accent), "%s", rows[i][0]);
        ImGui::TableNextColumn();
        textWrappedAtSpaces(rows[i][1]);
    }
    ImGui::EndTable();
}

void heading(const char* text) {
    ImGui::Spacing();
    ImGui::TextColored(vec4(palette().title), "%s", text);
}

} // namespace

void App::drawHelp() {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->GetCenter(), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    // As wide as most of the window, as tall as its text (0: fit) up to most of the window (then it scrolls).
    ImGui::SetNextWindowSize(ImVec2(vp->Size.x * 0.94f, 0.0f), ImGuiCond_Always);
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(vp->Size.x, vp->Size.y * 0.9f));
    ImGui::SetNextWindowBgAlpha(1.0f); // the views behind it would show through the text
    if (!ImGui::Begin("Help (F1: close)", &ui_.help, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
        ImGui::End();
        return;
    }
    if (ImGui::BeginTable("help", 2, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        heading("Start here");
        textWrappedAtSpaces("Take a guided lesson: in Controls, under GUIDED LESSON, pick one and press Start "
                            "lesson (or run sortlab --lesson radix4). Page Down: the next stop. A question takes a "
                            "number and Enter.");
        heading("Where the sorts run");
        const bool cpu = device_.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
        textWrappedAtSpaces(
            "On " + deviceName_ + ", through Vulkan compute; after every step the app reads the buffers back. " +
            (cpu ? std::string("It is a CPU driver (CPU emulation, not a GPU): the shaders and the results are the GPU "
                               "code's, but its times are not a GPU's.")
                 : std::string("The times are this device's.")));
        heading("The lessons");
        for (const auto& [name, title] : builtinLessons()) bullet(name + ": " + title);
        textWrappedAtSpaces("Without a lesson: choose a sort and its keys in Controls, then press Right to run one "
                            "step, or Space to play.");
        heading("Keys");
        static const char* const keys[][2] = {
            {"Right / Left", "one step forward / back (back shows the stored snapshot)"},
            {"Space", "play / pause"},
            {"Home / End", "first step (the input) / run to the end"},
            {"Click a key", "pin it: its path through the steps is drawn (Esc or a click: unpin)"},
            {"R", "new input (next seed)"},
            {"+ / -", "faster / slower playback"},
            {"C", "check mode: compare every step with the CPU reference"},
            {"P", "presentation mode: large fonts, thick lines"},
            {"B", "benchmark panel: time the sorts over a size sweep, plot, export"},
            {"F11", "fullscreen"},
            {"F1", "this help"},
            {"Page Down / Up", "a lesson's next / previous stop"},
            {"Enter", "answer the stop's question (type the number first)"}};
        keyRows("keys", keys, std::size(keys));

        ImGui::TableNextColumn();
        heading("What the colours mean");
        if (beginTwoColumns("colours")) {
            const Palette& p = palette();
            colourRow(Swatch::ramp, 0, "a key's bar: the larger the key, the taller and brighter");
            colourRow(Swatch::outline, p.changedOutline, "a key this step moved");
            colourRow(Swatch::outline, p.highlight, "what the lesson's stop points at; a pinned key's path");
            colourRow(Swatch::outline, p.answer, "the cells the answer's arithmetic uses");
            colourRow(Swatch::fill, p.mismatchBar, "check mode: a key that differs from the CPU reference");
            colourRow(Swatch::fill, p.stepBand, "network: the layers of the step shown");
            colourRow(Swatch::line, p.comparatorCurrent, "network: a comparator of the step shown");
            colourRow(Swatch::line, p.swap, "network: ... that swapped its two keys");
            colourRow(Swatch::line, p.comparatorDone, "network: a comparator already run");
            colourRow(Swatch::line, p.comparatorPending, "network: a comparator still to run");
            colourRow(Swatch::dashed, p.comparatorSkipped,
                      "network: a position past the keys (n) and its skipped comparators");
            colourRow(Swatch::fill, p.keyBoxChanged, "network: a key box this step changed");
            colourRow(Swatch::fill, p.binaryDigitBg, "radix: the bits of the digit this pass sorts by");
            colourRow(Swatch::fill, p.codeHighlight, "pseudocode: the lines this step runs");
            colourRow(Swatch::fill, p.flag[0], "OneSweep replay: a tile's status not ready");
            colourRow(Swatch::fill, p.flag[1], "... an aggregate (its own count) published");
            colourRow(Swatch::fill, p.flag[2], "... an inclusive prefix (all tiles up to it) published");
            colourRow(Swatch::line, p.arc, "OneSweep replay: a walk back to the tile that ended it");
            colourRow(Swatch::line, p.arcFallback, "... a walk that fell back and counted keys itself");
            ImGui::EndTable();
        }
        ImGui::EndTable();
    }
    ImGui::End();
}

} // namespace sortlab::app
