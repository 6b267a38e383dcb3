#include <sortlab/app/view_common.h>
#include <sortlab/app/views.h>

#include <sortlab/data.h>

#include <imgui_internal.h> // the current window's clip rectangle (noteVisible)

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>

namespace sortlab::app {

float keyHeight(const JobInfo& job, const Snapshot& s, uint64_t i) {
    return keyHeightIn(s.keys.data(), i, job.settings.key, job.minKey, job.maxKey);
}

namespace {
// The current theme. Process-wide, as ImGui's style is (setTheme sets both), since palette() is
// read by every function that draws; the one UI setting that is not in UiState for that reason.
Theme gTheme = Theme::dark;

// The panel roles into ImGui's style of the theme. Light: input fields get a border (white on a
// light panel has no edge otherwise).
void applyStyleColours(Theme t, const Palette& p) {
    ImGuiStyle& st = ImGui::GetStyle();
    ImVec4* c = st.Colors;
    c[ImGuiCol_WindowBg] = vec4(p.windowBg);
    c[ImGuiCol_TitleBg] = vec4(p.titleBg);
    c[ImGuiCol_TitleBgActive] = vec4(p.titleBgActive);
    c[ImGuiCol_Border] = vec4(p.border);
    c[ImGuiCol_FrameBg] = vec4(p.frameBg);
    c[ImGuiCol_CheckMark] = vec4(p.checkMark);
    c[ImGuiCol_Text] = vec4(p.text);
    c[ImGuiCol_TextDisabled] = vec4(p.textDim);
    st.FrameBorderSize = t == Theme::light ? 1.0f : 0.0f;
}
} // namespace

void setTheme(Theme t) {
    gTheme = t;
    if (t == Theme::light)
        ImGui::StyleColorsLight();
    else
        ImGui::StyleColorsDark();
    applyStyleColours(t, palette());
}

Theme theme() {
    return gTheme;
}

const Palette& palette() {
    return paletteFor(gTheme);
}

ImU32 heightColour(float h) {
    return heightColourFor(gTheme, h);
}

ImU32 heatColour(float t) {
    return heatColourFor(gTheme, t);
}

ImU32 heatTextColour(float t) {
    return heatTextColourFor(gTheme, t);
}

const char* const kFlagName[3] = {"not ready", "aggregate", "inclusive prefix"};

void flagLegend() {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float fs = ImGui::GetFontSize();
    for (int f = 0; f < 3; ++f) {
        if (f) ImGui::SameLine(0, fs);
        const ImVec2 p = ImGui::GetCursorScreenPos();
        dl->AddRectFilled(ImVec2(p.x, p.y + 2), ImVec2(p.x + fs - 2, p.y + fs), palette().flag[f]);
        ImGui::Dummy(ImVec2(fs, fs));
        ImGui::SameLine(0, 4);
        ImGui::TextUnformatted(kFlagName[f]);
    }
}

const Step* currentStep(const SortWorker::View& v) {
    if (!v.data || !v.job.plan || v.data->step == 0 || v.data->step > v.job.plan->steps.size()) return nullptr;
    return &v.job.plan->steps[v.data->step - 1];
}

const std::vector<oddeven::Layer>& networkLayers(const JobInfo& job) {
    // The UI thread asks every frame; the network depends only on n. A pure memo of
    // oddeven::layers(n), so it stays here rather than in UiState.
    static uint64_t cachedN = UINT64_MAX;
    static std::vector<oddeven::Layer> cached;
    const uint64_t n = job.settings.n;
    if (n != cachedN) {
        cached = oddeven::layers(n);
        cachedN = n;
    }
    return cached;
}

std::vector<bool> changedIndices(const StepData& d, uint64_t n, KeyType type) {
    std::vector<bool> out(n, false);
    if (!d.previous || !d.snapshot) return out;
    const uint32_t kb = keyBytes(type);
    const Snapshot& a = *d.previous;
    const Snapshot& b = *d.snapshot;
    for (uint64_t i = 0; i < n; ++i) {
        bool diff = std::memcmp(&a.keys[i * kb], &b.keys[i * kb], kb) != 0;
        if (!diff && !a.values.empty() && a.values.size() == b.values.size()) diff = a.values[i] != b.values[i];
        out[i] = diff;
    }
    return out;
}

std::string keyText(const Snapshot& s, uint64_t i, KeyType type) {
    std::string t = formatKey(s.keys, i, type);
    if (type == KeyType::f32 || type == KeyType::f64) {
        // Short form for the diagrams: 4 significant digits.
        double v = 0;
        if (type == KeyType::f32) {
            float f;
            std::memcpy(&f, &s.keys[i * 4], 4);
            v = f;
        } else {
            std::memcpy(&v, &s.keys[i * 8], 8);
        }
        if (std::isfinite(v) && v != 0) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.4g", v);
            t = buf;
        }
    }
    return t;
}

std::string windowTitle(const char* name, bool presentation) {
    if (!presentation) return name;
    return std::string(name) + "###" + name + "-presentation";
}

bool beginView(const char* name, bool presentation, bool* open) {
    if (ImGui::Begin(windowTitle(name, presentation).c_str(), open)) return true;
    ImGui::End();
    return false;
}

std::string bytesText(double bytes) {
    char buf[64];
    if (bytes >= 1e9)
        std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
    else if (bytes >= 1e6)
        std::snprintf(buf, sizeof buf, "%.2f MB", bytes / 1e6);
    else if (bytes >= 1e3)
        std::snprintf(buf, sizeof buf, "%.1f kB", bytes / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.0f B", bytes);
    return buf;
}

std::string classLabel(std::string label) {
    // OneSweep's first two steps in a line a projector shows whole (the Radix view says the rest).
    if (label == "histogram of every digit (one read of the keys)") return "histogram: every pass's, in one read";
    if (label == "exclusive scan of each digit's 256 counts, and which passes to skip")
        return "scan: the offsets of every pass";
    if (const size_t h = label.find(", halo "); h != std::string::npos) {
        const size_t end = label.find(" rows", h);
        if (end != std::string::npos) label.erase(h, end + 5 - h);
    }
    return label;
}

namespace {
// The part of the current window that shows: its clip rectangle within the main viewport.
ImRect shownArea() {
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImRect clip = w->ClipRect;
    clip.ClipWith(ImRect(vp->Pos, ImVec2(vp->Pos.x + vp->Size.x, vp->Pos.y + vp->Size.y)));
    return clip;
}
} // namespace

void noteVisible(const UiState& ui, ProbeItem item, ImVec2 a, ImVec2 b) {
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    const ImRect clip = shownArea();
    constexpr float eps = 3.0f; // outlines are drawn a few pixels outside their cell
    const bool inside = !w->SkipItems && a.x >= clip.Min.x - eps && a.y >= clip.Min.y - eps &&
                        b.x <= clip.Max.x + eps && b.y <= clip.Max.y + eps;
    UiState::Probe& p = ui.probe;
    switch (item) {
    case ProbeItem::highlight: {
        p.highlight = true;
        p.highlightVisible = p.highlightVisible || inside;
        // A new stop: bring the first thing it points at in each window into view (next frame).
        const bool first = p.highlightWindow != w->ID;
        p.highlightWindow = w->ID;
        if (first && !inside && ui.lesson.scrollFrames > 0 && (b.y > clip.Max.y || a.y < clip.Min.y))
            ImGui::SetScrollFromPosY(a.y - ImGui::GetWindowPos().y, 0.2f);
        break;
    }
    case ProbeItem::question:
        p.question = true;
        p.questionVisible = p.questionVisible && inside;
        break;
    case ProbeItem::feedback:
        p.feedback = true;
        p.feedbackVisible = p.feedbackVisible && inside;
        break;
    case ProbeItem::narration:
        p.narration = true;
        p.narrationVisible = p.narrationVisible && inside;
        break;
    }
}

bool isSubject(const UiState& ui, SubjectKind k) {
    return ui.lesson.lesson && (ui.lesson.subjects >> unsigned(k)) & 1u;
}

void noteSubject(const UiState& ui, SubjectKind k, ImVec2 a, ImVec2 b) {
    if (!isSubject(ui, k)) return;
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    const ImRect clip = shownArea();
    constexpr float eps = 3.0f;
    const bool inside = !w->SkipItems && a.x >= clip.Min.x - eps && a.y >= clip.Min.y - eps &&
                        b.x <= clip.Max.x + eps && b.y <= clip.Max.y + eps;
    UiState::Probe& p = ui.probe;
    p.subjectDrawn |= uint32_t(1) << unsigned(k);
    p.subjectVisible = p.subjectVisible && inside;
    // A new stop: scroll the first part it is about in each window to the window's top (next frame).
    const bool first = p.subjectWindow != w->ID;
    p.subjectWindow = w->ID;
    if (first && !inside && ui.lesson.scrollFrames > 0 && (b.y > clip.Max.y || a.y < clip.Min.y))
        ImGui::SetScrollFromPosY(a.y - ImGui::GetWindowPos().y - ImGui::GetStyle().ItemSpacing.y, 0.0f);
}

void noteLayer(const UiState& ui, ImVec2 a, ImVec2 b, float left) {
    const ImRect clip = shownArea();
    constexpr float eps = 3.0f;
    const bool inside = !ImGui::GetCurrentWindow()->SkipItems && a.x >= std::max(clip.Min.x, left) - eps &&
                        a.y >= clip.Min.y - eps && b.x <= clip.Max.x + eps && b.y <= clip.Max.y + eps;
    ui.probe.layersDrawn = true;
    ui.probe.layersVisible = ui.probe.layersVisible && inside;
}

float shownWidth() {
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    return std::min(ImGui::GetContentRegionAvail().x, w->ClipRect.Max.x - w->DC.CursorPos.x);
}

void noteLabel(const UiState& ui, ImVec2 min, ImVec2 max, const char* text) {
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    if (w->SkipItems) return;
    const ImRect clip = shownArea();
    // The window's name without its ImGui id ("Radix###Radix-presentation": "Radix").
    std::string name = w->Name;
    name = name.substr(0, name.find("###"));
    ui.probe.labels.push_back(
        {std::move(name), text, min, max, clip.Min, clip.Max, w->ScrollMax.y > 0, w->ScrollMax.x > 0});
}

ImVec2 drawLabel(const UiState& ui, ImDrawList* dl, ImVec2 pos, ImU32 colour, const char* text) {
    const ImVec2 size = ImGui::CalcTextSize(text);
    dl->AddText(pos, colour, text);
    noteLabel(ui, pos, ImVec2(pos.x + size.x, pos.y + size.y), text);
    return size;
}

ImVec2 drawLabel(const UiState& ui, ImDrawList* dl, ImFont* font, float size, ImVec2 pos, ImU32 colour,
                 const char* text) {
    const ImVec2 ts = font->CalcTextSizeA(size, FLT_MAX, 0.0f, text);
    dl->AddText(font, size, pos, colour, text);
    noteLabel(ui, pos, ImVec2(pos.x + ts.x, pos.y + ts.y), text);
    return ts;
}

void noteMissingLabel(const UiState& ui, const std::string& what) {
    ui.probe.missingLabels.push_back(what);
}

void noteTextItem(const UiState& ui, const char* text) {
    noteLabel(ui, ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), text);
}

std::vector<std::string> wrapAtSpaces(const std::string& text, float width) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t nl = std::min(text.find('\n', start), text.size());
        const std::string para = text.substr(start, nl - start);
        std::string line;
        size_t i = 0;
        while (i <= para.size()) {
            size_t sp = std::min(para.find(' ', i), para.size());
            const std::string word = para.substr(i, sp - i);
            const std::string tryLine = line.empty() ? word : line + " " + word;
            if (!line.empty() && ImGui::CalcTextSize(tryLine.c_str()).x > width) {
                lines.push_back(line);
                line = word;
            } else {
                line = tryLine;
            }
            i = sp + 1;
        }
        lines.push_back(line);
        start = nl + 1;
    }
    return lines;
}

std::pair<ImVec2, ImVec2> textWrappedAtSpaces(const std::string& text) {
    const ImVec2 a = ImGui::GetCursorScreenPos();
    const float width = std::max(ImGui::GetFontSize() * 4, ImGui::GetContentRegionAvail().x);
    float right = a.x;
    for (const std::string& line : wrapAtSpaces(text, width)) {
        ImGui::TextUnformatted(line.c_str());
        right = std::max(right, ImGui::GetItemRectMax().x);
    }
    return {a, ImVec2(right, ImGui::GetItemRectMax().y)};
}

void wrappedf(const char* format, ...) {
    char buf[2048];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buf, sizeof buf, format, args);
    va_end(args);
    textWrappedAtSpaces(buf);
}

float wrappedHeight(const std::string& text, float width) {
    const size_t lines = wrapAtSpaces(text, std::max(ImGui::GetFontSize() * 4, width)).size();
    return float(lines) * ImGui::GetTextLineHeightWithSpacing();
}

} // namespace sortlab::app
