// [SECTION] The form: BenchUi <-> sortlab-bench's Options
// [SECTION] An ImDrawList canvas for the plots of plot/plot.h
// [SECTION] The setup column: the form, device and limits
// [SECTION] The results column: plots, choices, table
// [SECTION] The panel: columns, run controls, export, throughput plot
// [SECTION] Start, export and loaded results
//
// The benchmark panel (B): sortlab-bench's sweep run by the BenchWorker, drawn with the same plot
// code as the PNG and SVG exports (sortlab::plot, plot/plot.h), on an ImDrawList, beside results
// loaded from files measured elsewhere (loaded_results.h). Hovering a point shows its figures;
// clicking it picks the n of the per-step breakdown.
#include <sortlab/app/app.h>
#include <sortlab/app/measured.h>
#include <sortlab/app/view_common.h>

#include <sortlab/bench/algos.h>
#include <sortlab/bench/errors.h>
#include <sortlab/bench/export.h>
#include <sortlab/bench/report.h>

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <filesystem>

namespace sortlab::app {

// [SECTION] The form: BenchUi <-> sortlab-bench's Options -----------------------------------------------

bench::Options BenchUi::toOptions() const {
    bench::Options o;
    for (const std::string& name : algos)
        for (const bench::AlgoSpec* a : bench::everyAlgo())
            if (a->name == name) o.algos.push_back(a);
    o.types = {type};
    o.values = {keyValue ? ValueType::u32 : ValueType::none};
    o.orders = {order};
    o.dists = {dist};
    for (int k = loExp; k <= hiExp; ++k) o.sizes.push_back(uint64_t(1) << k);
    o.seed = uint64_t(seed);
    o.reps = reps;
    o.warmupMs = warmupMs;
    o.check = check;
    return o;
}

void BenchUi::fromOptions(const bench::Options& o) {
    algos.clear();
    for (const bench::AlgoSpec* a : o.algos) algos.emplace_back(a->name);
    if (!o.types.empty()) type = o.types[0];
    if (!o.values.empty()) keyValue = o.values[0] != ValueType::none;
    if (!o.orders.empty()) order = o.orders[0];
    if (!o.dists.empty()) dist = o.dists[0];
    if (!o.sizes.empty()) {
        auto lo = *std::min_element(o.sizes.begin(), o.sizes.end());
        auto hi = *std::max_element(o.sizes.begin(), o.sizes.end());
        loExp = int(std::bit_width(lo) - 1);
        hiExp = int(std::bit_width(hi) - 1);
    }
    seed = int(o.seed);
    reps = o.reps;
    warmupMs = o.warmupMs;
    check = o.check;
    if (o.bandwidthGBs > 0) {
        bandwidthMode = 2;
        bandwidthGBs = float(o.bandwidthGBs);
    } else if (o.bandwidthGBs == 0) {
        bandwidthMode = 1;
    }
    if (o.plotN) breakdownN = o.plotN;
}

plot::FigureOptions BenchUi::figureOptions() const {
    plot::FigureOptions f;
    f.bandwidthGBs = bandwidthMode == 0 ? -1.0 : bandwidthMode == 1 ? 0.0 : double(bandwidthGBs);
    f.bandwidthSource = bandwidthMode == 2 ? "typed in the benchmark panel" : "";
    return f;
}

namespace {

// [SECTION] An ImDrawList canvas for the plots of plot/plot.h --------------------------------------------

class ImGuiCanvas : public plot::Canvas {
public:
    ImGuiCanvas(ImDrawList* dl, ImFont* font) : dl_(dl), font_(font) {}
    void line(plot::Vec2 a, plot::Vec2 b, plot::Colour c, float width) override {
        dl_->AddLine(v(a), v(b), col(c), width);
    }
    void fillRect(plot::Rect r, plot::Colour c) override {
        dl_->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), col(c));
    }
    void fillCircle(plot::Vec2 o, float radius, plot::Colour c) override {
        dl_->AddCircleFilled(v(o), radius, col(c), 16);
    }
    void fillTriangle(plot::Vec2 a, plot::Vec2 b, plot::Vec2 c, plot::Colour colour) override {
        dl_->AddTriangleFilled(v(a), v(b), v(c), col(colour));
    }
    void text(plot::Vec2 at, std::string_view s, plot::Colour c, float size, plot::HAlign h, plot::VAlign va) override {
        const ImVec2 sz = font_->CalcTextSizeA(size, FLT_MAX, 0, s.data(), s.data() + s.size());
        const float x = h == plot::HAlign::left ? at.x : h == plot::HAlign::centre ? at.x - sz.x / 2 : at.x - sz.x;
        const float y = va == plot::VAlign::top ? at.y : va == plot::VAlign::middle ? at.y - sz.y / 2 : at.y - sz.y;
        dl_->AddText(font_, size, ImVec2(std::round(x), std::round(y)), col(c), s.data(), s.data() + s.size());
    }
    float textWidth(std::string_view s, float size) override {
        return font_->CalcTextSizeA(size, FLT_MAX, 0, s.data(), s.data() + s.size()).x;
    }
    void pushClip(plot::Rect r) override { dl_->PushClipRect(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), true); }
    void popClip() override { dl_->PopClipRect(); }

private:
    static ImVec2 v(plot::Vec2 p) { return ImVec2(p.x, p.y); }
    static ImU32 col(plot::Colour c) { return IM_COL32(c.r, c.g, c.b, c.a); }
    ImDrawList* dl_;
    ImFont* font_;
};

template <class E, size_t N, class NameFn> bool enumCombo(const char* label, E* value, const E (&all)[N], NameFn name) {
    bool changed = false;
    if (ImGui::BeginCombo(label, std::string(name(*value)).c_str())) {
        for (E e : all)
            if (ImGui::Selectable(std::string(name(e)).c_str(), e == *value)) {
                *value = e;
                changed = true;
            }
        ImGui::EndCombo();
    }
    return changed;
}

std::string bytesWords(uint64_t b) {
    char buf[64];
    if (b >= (uint64_t(1) << 30))
        std::snprintf(buf, sizeof buf, "%.1f GiB", double(b) / double(uint64_t(1) << 30));
    else
        std::snprintf(buf, sizeof buf, "%.0f MiB", double(b) / double(1 << 20));
    return buf;
}

std::string algoHelp(const bench::AlgoSpec& algo) {
    if (algo.variant) return std::string(variantInfo(*algo.variant).description);
    if (algo.gpu == Algorithm::automatic)
        return "The library's pick for each size (sortlab::sort's Algorithm::automatic): OneSweep or the hybrid, "
               "whichever the keys' buckets and a timing of both say is faster; the table's variant column says "
               "which ran";
    return "std::sort (std::stable_sort with values) on one core of this host, the CPU baseline";
}

// Text with a meaning, in the current theme's colours.
ImVec4 warnColour() {
    return vec4(palette().warning);
}
ImVec4 goodColour() {
    return vec4(palette().pass);
}
ImVec4 badColour() {
    return vec4(palette().error);
}

// [SECTION] The setup column: the form, device and limits -----------------------------------------------

// One checkbox per algorithm, two to a line.
void drawAlgorithmChoice(BenchUi& b, float leftW) {
    ImGui::TextDisabled("ALGORITHMS");
    const auto all = bench::everyAlgo();
    for (size_t i = 0; i < all.size(); ++i) {
        const std::string name(all[i]->name);
        bool on = std::find(b.algos.begin(), b.algos.end(), name) != b.algos.end();
        if (i % 2) ImGui::SameLine(leftW * 0.5f);
        if (ImGui::Checkbox(name == "std" ? "std::sort" : name.c_str(), &on)) {
            // Keep the order of everyAlgo (the table and the legend follow it).
            std::vector<std::string> next;
            for (const bench::AlgoSpec* a : all) {
                const std::string n(a->name);
                const bool was = std::find(b.algos.begin(), b.algos.end(), n) != b.algos.end();
                if (n == name ? on : was) next.push_back(n);
            }
            b.algos = next;
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", algoHelp(*all[i]).c_str());
    }
}

// Key type, key-value, order, distribution and seed.
void drawInputChoice(BenchUi& b, float leftW) {
    ImGui::TextDisabled("INPUT");
    ImGui::PushItemWidth(leftW * 0.4f);
    enumCombo("key type", &b.type, kAllKeyTypes, keyTypeName);
    ImGui::SameLine();
    ImGui::Checkbox("key-value", &b.keyValue);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("u32 values (the input index) sorted along with the keys");
    const Order orders[] = {Order::ascending, Order::descending};
    enumCombo("order", &b.order, orders, orderName);
    enumCombo("distribution", &b.dist, kAllDistributions, distributionName);
    ImGui::InputInt("seed", &b.seed);
    b.seed = std::max(b.seed, 0);
    ImGui::PopItemWidth();
}

// Sizes: powers of two up to what the device holds for this configuration.
void drawSizeChoice(BenchUi& b, BenchWorker& bench, float leftW) {
    ImGui::TextDisabled("SIZES");
    const ValueType vt = b.keyValue ? ValueType::u32 : ValueType::none;
    const auto limits = bench.limits(b.type, vt);
    // The slider goes to the largest n of any selected algorithm; an algorithm asked for more
    // than it can hold gets an error row with the library's reason, and the sweep goes on.
    int maxExp = 30;
    std::string limitText = "working out the device's limits...";
    if (limits) {
        uint64_t most = 0;
        limitText = "The largest power of two each algorithm can sort here\n(its plan, the device-local heap, "
                    "maxBufferSize, host memory):";
        for (const std::string& name : b.algos)
            if (auto it = limits->find(name); it != limits->end()) {
                most = std::max(most, it->second.maxN);
                limitText += "\n  " + name + ": " +
                             (it->second.maxN ? plot::sizeLabel(it->second.maxN) : std::string("none")) +
                             (it->second.why.empty() ? "" : " (next: " + it->second.why + ")");
            }
        if (most) maxExp = int(std::bit_width(most) - 1);
    }
    b.hiExp = std::min(b.hiExp, maxExp);
    b.loExp = std::min(b.loExp, b.hiExp);
    ImGui::PushItemWidth(leftW * 0.38f);
    ImGui::SliderInt("##lo", &b.loExp, 1, maxExp, "from 2^%d");
    ImGui::SameLine();
    ImGui::SliderInt("##hi", &b.hiExp, 1, maxExp, "to 2^%d");
    ImGui::PopItemWidth();
    b.loExp = std::min(b.loExp, b.hiExp);
    ImGui::TextDisabled("up to 2^%d on this device (hover: per algorithm)", maxExp);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", limitText.c_str());
}

// Timed reps, warm-up and check.
void drawRepsChoice(BenchUi& b, float leftW) {
    ImGui::PushItemWidth(leftW * 0.5f);
    ImGui::SliderInt("timed reps", &b.reps, 1, 50);
    ImGui::SliderInt("warm-up ms", &b.warmupMs, 0, 2000);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Untimed runs before each case's reps, for at least this long (at least one run):\n"
                          "a GPU left idle drops its clocks. The median of the reps is plotted.");
    ImGui::PopItemWidth();
    ImGui::Checkbox("check results", &b.check);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Compare every sorted result with the CPU reference (after timing)");
}

// The device's name (and the lavapipe warning) and a table of its limits.
void drawDeviceAndLimits(const DeviceInfo& device) {
    ImGui::TextDisabled("DEVICE");
    wrappedf("%s (%s)", device.name.c_str(), device.typeName.c_str());
    if (device.isLavapipe) {
        ImGui::PushStyleColor(ImGuiCol_Text, warnColour());
        wrappedf("%s", "lavapipe: Vulkan emulated on the CPU. These are CPU timings, not GPU ones: good for "
                       "checking results, worthless for judging speed.");
        ImGui::PopStyleColor();
        // What the same sorts took on GPUs, as the project measured them (docs/results).
        for (Variant var : {Variant::oddeven, Variant::radix4, Variant::onesweep})
            if (const std::string line = measuredLine(var, 1u << 20); !line.empty())
                wrappedf("measured, 2^20 random u32 keys, %s: %s", std::string(variantInfo(var).name).c_str(),
                         line.c_str());
    }
    if (ImGui::BeginTable("limits", 2, ImGuiTableFlags_SizingFixedFit)) {
        ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthFixed);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
        auto row = [](const char* k, const std::string& val) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextDisabled("%s", k);
            ImGui::TableNextColumn();
            wrappedf("%s", val.c_str());
        };
        row("driver", device.driver.empty() ? "?" : device.driver);
        row("Vulkan", std::to_string(VK_API_VERSION_MAJOR(device.apiVersion)) + "." +
                          std::to_string(VK_API_VERSION_MINOR(device.apiVersion)) + "." +
                          std::to_string(VK_API_VERSION_PATCH(device.apiVersion)));
        std::string sg = std::to_string(device.subgroupSize);
        if (device.minSubgroupSize != device.maxSubgroupSize)
            sg += " (" + std::to_string(device.minSubgroupSize) + ".." + std::to_string(device.maxSubgroupSize) + ")";
        row("subgroup size", sg);
        row("shared memory", std::to_string(device.sharedMemoryBytes / 1024) + " KiB");
        row("device-local memory", bytesWords(device.deviceLocalBytes));
        row("max buffer", bytesWords(device.maxBufferSize));
        row("maxStorageBufferRange", bytesWords(device.maxStorageBufferRange));
        row("workgroup size", "<= " + std::to_string(device.maxWorkgroupSize));
        char ts[64];
        std::snprintf(ts, sizeof ts, "%s, %.3g ns", device.timestamps ? "yes" : "no", double(device.timestampPeriodNs));
        row("timestamps", ts);
        ImGui::EndTable();
    }
}

// The bandwidth of the plot's floor lines: the device's known figure, none, or typed in.
void drawBandwidthChoice(BenchUi& b, float leftW) {
    ImGui::TextDisabled("BANDWIDTH FLOOR");
    const char* modes[] = {"known figure for this device", "none", "typed in (GB/s)"};
    ImGui::SetNextItemWidth(leftW * 0.75f);
    ImGui::Combo("##bwmode", &b.bandwidthMode, modes, 3);
    if (b.bandwidthMode == 2) {
        ImGui::SetNextItemWidth(leftW * 0.4f);
        ImGui::InputFloat("GB/s copy", &b.bandwidthGBs, 0, 0, "%.0f");
        b.bandwidthGBs = std::max(b.bandwidthGBs, 1.0f);
    }
}

// [SECTION] The results column: plots, choices, table ----------------------------------------------------

// The sizes with per-step times (the choices of the breakdown's n), ascending.
std::vector<uint64_t> sizesWithSteps(const plot::Figure& f) {
    std::vector<uint64_t> withSteps;
    for (const auto& r : f.rows)
        if (r.algo != "std" && !r.steps.empty() && r.error.empty() &&
            std::find(withSteps.begin(), withSteps.end(), r.n) == withSteps.end())
            withSteps.push_back(r.n);
    std::sort(withSteps.begin(), withSteps.end());
    return withSteps;
}

// How many bars the breakdown at n has (the plot leaves them room).
size_t breakdownBars(const plot::Figure& f, uint64_t n) {
    size_t bars = 0;
    for (const auto& r : f.rows) bars += r.n == n && r.algo != "std" && !r.steps.empty() && r.error.empty();
    return bars;
}

plot::Style panelPlotStyle(const BenchUi& b, float fs, bool present) {
    plot::Style style;
    style.theme = theme() == Theme::light ? plot::lightTheme() : plot::darkTheme();
    style.fontSize = fs;
    style.smallScale = 1.0f;
    style.lineWidth = present ? 4.0f : 2.0f;
    style.markerRadius = present ? 6.0f : 3.5f;
    style.logY = b.yAxis == 0 ? -1 : b.yAxis == 1 ? 0 : 1;
    return style;
}

// The bandwidth note and the choices of n and axis, under the throughput plot.
void drawPlotChoices(BenchUi& b, const plot::Figure& f, const std::vector<uint64_t>& withSteps, uint64_t bn, float fs) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    wrappedf("%s", f.bandwidthNote.c_str());
    ImGui::PopStyleColor();
    ImGui::SetNextItemWidth(fs * 7);
    if (ImGui::BeginCombo("per-step times at n", bn ? plot::sizeLabel(bn).c_str() : "-")) {
        for (uint64_t n : withSteps)
            if (ImGui::Selectable(plot::sizeLabel(n).c_str(), n == bn)) b.breakdownN = n;
        ImGui::EndCombo();
    }
    ImGui::SameLine(0, fs * 2);
    ImGui::SetNextItemWidth(fs * 6);
    const char* yAxes[] = {"auto", "linear", "log"};
    ImGui::Combo("Gkeys/s axis", &b.yAxis, yAxes, 3);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("auto: a log scale when the points span more than 30x (std::sort beside a GPU sort)");
}

// The per-step breakdown at n, in what is left above the table; hovering a segment tells its times.
void drawBreakdownPlot(plot::Canvas& canvas, const plot::Figure& f, uint64_t bn, const plot::Style& style, float tableH,
                       float fs) {
    const ImVec2 q0 = ImGui::GetCursorScreenPos();
    const ImVec2 qa = ImGui::GetContentRegionAvail();
    const float breakdownH = std::max(fs * 6, qa.y - tableH - fs * 0.5f);
    const plot::BreakdownLayout bl =
        plot::drawBreakdown(canvas, {q0.x, q0.y, q0.x + qa.x, q0.y + breakdownH}, f, bn, style);
    ImGui::InvisibleButton("breakdown", ImVec2(qa.x, breakdownH));
    if (ImGui::IsItemHovered()) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        for (const auto& seg : bl.segments)
            if (seg.r.contains({m.x, m.y})) {
                const auto& r = f.rows[seg.row];
                double total = 0;
                for (const auto& s : r.steps) total += s.ms;
                ImGui::SetTooltip("%s at n = %s: %s\n%.4g ms in %zu step%s, %.1f%% of %.4g ms", r.algo.c_str(),
                                  plot::sizeLabel(r.n).c_str(), seg.group.c_str(), seg.ms, seg.steps,
                                  seg.steps == 1 ? "" : "s", total > 0 ? 100 * seg.ms / total : 0.0, total);
            }
    }
}

// The sweep's rows (the first `live` of the figure's; not the loaded ones), as the table of
// sortlab-bench.
void drawResultsTable(const plot::Figure& f, size_t live, float tableH, float fs) {
    if (!ImGui::BeginTable("rows", 9,
                           ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                               ImGuiTableFlags_SizingStretchProp,
                           ImVec2(0, std::max(tableH, fs * 4))))
        return;
    ImGui::TableSetupScrollFreeze(0, 1);
    for (const char* h : {"algo", "variant", "n", "median ms", "min ms", "Gkeys/s", "GB/s", "x std", "check"})
        ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (size_t i = 0; i < live && i < f.rows.size(); ++i) {
        const plot::Row& r = f.rows[i];
        ImGui::TableNextRow();
        auto cell = [](const std::string& t) {
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(t.c_str());
        };
        cell(r.algo);
        cell(r.variant);
        cell(plot::sizeLabel(r.n));
        if (!r.error.empty()) {
            ImGui::TableNextColumn();
            ImGui::TextColored(badColour(), "%s", r.error.c_str());
            for (int k = 0; k < 5; ++k) ImGui::TableNextColumn();
            ImGui::TextColored(badColour(), "error");
            continue;
        }
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.3f", r.medianMs);
        cell(buf);
        std::snprintf(buf, sizeof buf, "%.3f", r.minMs);
        cell(buf);
        cell(plot::sig3(r.gkeys));
        cell(r.gbytes ? plot::sig3(*r.gbytes) : "-");
        cell(r.speedupStd ? plot::sig3(*r.speedupStd) + "x" : "-");
        ImGui::TableNextColumn();
        ImGui::TextColored(r.check == "pass"   ? goodColour()
                           : r.check == "fail" ? badColour()
                                               : ImGui::GetStyle().Colors[ImGuiCol_TextDisabled],
                           "%s", r.check.c_str());
    }
    ImGui::EndTable();
}

// The line over the plot: the devices and what the rows share; with loaded results, what the rows
// share and the files loaded (the legend names each line's machine, the status bar this one).
std::string benchHeading(const plot::Figure& f, const LoadedResults& loaded) {
    if (loaded.empty()) return f.devices + ": " + f.workload;
    std::string files;
    for (const std::string& file : loaded.files())
        files += (files.empty() ? "" : ", ") + std::filesystem::path(file).filename().string();
    return f.workload + "; loaded: " + files;
}

} // namespace

// [SECTION] The panel: columns, run controls, export, throughput plot -------------------------------------------------

const plot::Figure& App::benchFigure(const BenchWorker::State& st) {
    plot::FigureOptions fo = ui_.bench.figureOptions();
    // The n axis spans the whole sweep from the start, so it does not move as results arrive.
    if (st.options && !st.options->sizes.empty()) {
        fo.nMin = *std::min_element(st.options->sizes.begin(), st.options->sizes.end());
        fo.nMax = *std::max_element(st.options->sizes.begin(), st.options->sizes.end());
    }
    const std::string key = std::to_string(fo.bandwidthGBs);
    if (st.generation != figureGeneration_ || key != figureKey_ || loaded_.generation() != figureLoaded_) {
        std::vector<plot::Row> rows = plot::rowsFromJson(bench::resultsJson(*st.results));
        figureLive_ = rows.size();
        rows.insert(rows.end(), loaded_.rows().begin(), loaded_.rows().end());
        // Once anything is loaded, every line says whose it is (this machine's too).
        fo.labelMachines = !loaded_.empty();
        figure_ = plot::makeFigure(std::move(rows), fo);
        figureGeneration_ = st.generation;
        figureLoaded_ = loaded_.generation();
        figureKey_ = key;
    }
    return figure_;
}

void App::drawBenchPanel() {
    BenchUi& b = ui_.bench;
    const bool present = ui_.presentation;
    ImGui::SetNextWindowBgAlpha(1.0f); // it covers the step-through views: none may show through
    if (!ImGui::Begin(present ? "Benchmark##present" : "Benchmark", &b.open, ImGuiWindowFlags_NoScrollbar)) {
        ImGui::End();
        return;
    }
    const BenchWorker::State st = bench_.state();
    // Left: setup, progress, export, device (not in presentation mode).
    if (!present) {
        const float leftW = std::min(ImGui::GetFontSize() * 24.0f, ImGui::GetContentRegionAvail().x * 0.36f);
        ImGui::BeginChild("setup", ImVec2(leftW, 0), false);
        drawBenchSetup(st, leftW);
        ImGui::EndChild();
        ImGui::SameLine();
    }
    // Right: plot, breakdown, table (presentation: the run line, plot and breakdown only).
    ImGui::BeginChild("results", ImVec2(0, 0), false);
    drawBenchResults(st);
    ImGui::EndChild();
    ImGui::End();
}

// Run / cancel, the progress bar and what runs now (the setup column, or presentation's top line:
// compact, the progress bar only while a sweep runs).
void App::drawBenchRunControls(const BenchWorker::State& st, float buttonW, bool compact) {
    BenchUi& b = ui_.bench;
    const bool running = st.phase == BenchWorker::Phase::running;
    if (!running) {
        ImGui::BeginDisabled(b.algos.empty());
        if (ImGui::Button("Run the sweep", ImVec2(buttonW, 0))) startBench(b.toOptions());
        ImGui::EndDisabled();
    } else {
        ImGui::BeginDisabled(st.cancelRequested);
        if (ImGui::Button(st.cancelRequested ? "Cancelling..." : "Cancel", ImVec2(buttonW, 0))) bench_.cancel();
        ImGui::EndDisabled();
    }
    ImGui::SameLine();
    const ImVec4 said = st.phase == BenchWorker::Phase::failed ? badColour() : ImGui::GetStyle().Colors[ImGuiCol_Text];
    if (running) {
        ImGui::Text("%.1f s, %zu of %zu runs", st.elapsedS, st.progress.unitsDone, st.progress.unitsTotal);
    } else if (compact) { // the summary on the button's line, and no progress bar: the plot gets the room
        ImGui::PushStyleColor(ImGuiCol_Text, said);
        wrappedf("%s", st.message.c_str());
        ImGui::PopStyleColor();
        return;
    } else if (!st.message.empty()) {
        ImGui::TextColored(said, "%s",
                           st.phase == BenchWorker::Phase::done        ? "done"
                           : st.phase == BenchWorker::Phase::cancelled ? "cancelled"
                                                                       : "failed");
    }
    // The fraction of the work, weighted by n (the time of a run grows with n).
    const float fraction = st.phase == BenchWorker::Phase::done ? 1.0f : float(st.progress.fraction());
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%.0f%%", double(fraction) * 100);
    ImGui::ProgressBar(fraction, ImVec2(-1, 0), overlay);
    if (running)
        wrappedf("%s%s", st.progress.current.c_str(),
                 st.progress.reps
                     ? (", rep " + std::to_string(st.progress.rep) + " of " + std::to_string(st.progress.reps)).c_str()
                     : ", warming up");
    else if (!st.message.empty())
        wrappedf("%s", st.message.c_str());
}

// The setup column: the form (disabled while a sweep runs), run / cancel and progress, export,
// the device and its limits, the bandwidth floor.
void App::drawBenchSetup(const BenchWorker::State& st, float leftW) {
    BenchUi& b = ui_.bench;
    ImGui::BeginDisabled(st.phase == BenchWorker::Phase::running);
    drawAlgorithmChoice(b, leftW);
    drawInputChoice(b, leftW);
    drawSizeChoice(b, bench_, leftW);
    drawRepsChoice(b, leftW);
    ImGui::EndDisabled();

    ImGui::Spacing();
    drawBenchRunControls(st, leftW * 0.5f, false);
    ImGui::Spacing();
    drawBenchExport(st, leftW);
    ImGui::Spacing();
    drawBenchLoad(leftW);
    ImGui::Spacing();
    drawDeviceAndLimits(device_);
    drawBandwidthChoice(b, leftW);
}

// The export directory, its button and what the last export said.
void App::drawBenchExport(const BenchWorker::State& st, float leftW) {
    BenchUi& b = ui_.bench;
    ImGui::TextDisabled("EXPORT");
    char dir[512];
    std::snprintf(dir, sizeof dir, "%s", b.exportDir.c_str());
    ImGui::SetNextItemWidth(leftW * 0.62f);
    if (ImGui::InputText("##dir", dir, sizeof dir)) b.exportDir = dir;
    ImGui::SameLine();
    ImGui::BeginDisabled(st.results->empty());
    if (ImGui::Button("Export")) exportBench(b.exportDir);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("results.json (the sortlab-bench --json schema), results.csv,\nplot.png and plot.svg "
                          "into this directory");
    if (!b.exportMessage.empty())
        ImGui::TextColored(b.exportFailed ? badColour() : goodColour(), "%s", b.exportMessage.c_str());
}

// Results measured elsewhere: a path, its button, what the last load said, the files loaded and
// a button that forgets them. (ImGui 1.86 has no file dialog.)
void App::drawBenchLoad(float leftW) {
    BenchUi& b = ui_.bench;
    ImGui::TextDisabled("LOAD RESULTS");
    char path[1024];
    std::snprintf(path, sizeof path, "%s", b.loadPath.c_str());
    ImGui::SetNextItemWidth(leftW * 0.55f);
    const bool enter = ImGui::InputTextWithHint("##load", "results.json or a --json file", path, sizeof path,
                                                ImGuiInputTextFlags_EnterReturnsTrue);
    b.loadPath = path;
    ImGui::SameLine();
    ImGui::BeginDisabled(b.loadPath.empty());
    if (ImGui::Button("Load results...") || (enter && !b.loadPath.empty())) loadResults(b.loadPath);
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("The --json output of sortlab-bench, or an export's results.json, measured on any machine\n"
                          "(docs/results/ holds the project's H100 and H200 runs): drawn beside this sweep,\n"
                          "each line labelled with its machine. Several files merge; the same file twice\n"
                          "replaces itself.");
    if (!b.loadMessage.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, b.loadFailed ? badColour() : goodColour());
        wrappedf("%s", b.loadMessage.c_str());
        ImGui::PopStyleColor();
    }
    if (loaded_.empty()) return;
    for (const std::string& file : loaded_.files()) {
        ImGui::TextDisabled("  %s", std::filesystem::path(file).filename().string().c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", file.c_str());
    }
    if (ImGui::SmallButton("Forget the loaded results")) {
        loaded_.clear();
        b.loadMessage.clear();
        b.loadFailed = false;
    }
}

// The results column: the figure's heading, the throughput plot, the choices under it, the
// per-step breakdown and the table (presentation mode: the run line on top, no choices, no table,
// and the breakdown only where it leaves the plot most of the height).
void App::drawBenchResults(const BenchWorker::State& st) {
    BenchUi& b = ui_.bench;
    const bool present = ui_.presentation;
    const float fs = ImGui::GetFontSize();
    if (present) {
        ImGui::PushItemWidth(-1);
        drawBenchRunControls(st, fs * 8, true);
        ImGui::PopItemWidth();
        if (b.loadFailed) ImGui::TextColored(badColour(), "%s", b.loadMessage.c_str()); // (the setup column is hidden)
    }
    const plot::Figure& f = benchFigure(st);
    const plot::Style style = panelPlotStyle(b, fs, present);
    ImGuiCanvas canvas(ImGui::GetWindowDrawList(), ImGui::GetFont());

    wrappedf("%s", benchHeading(f, loaded_).c_str());
    if (f.lavapipe) ImGui::TextColored(warnColour(), "lavapipe: CPU numbers, not GPU ones");
    // The n of the per-step breakdown, and how many bars it has (the plot leaves them room).
    uint64_t bn = b.breakdownN;
    const std::vector<uint64_t> withSteps = sizesWithSteps(f);
    if (std::find(withSteps.begin(), withSteps.end(), bn) == withSteps.end()) bn = plot::defaultBreakdownN(f);
    const size_t bars = breakdownBars(f, bn);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float tableH = figureLive_ == 0 || present ? 0 : std::min(fs * 9, avail.y * 0.25f);
    const float breakdownNeed = fs * (6.5f + 2.2f * float(std::max<size_t>(bars, 1)));
    // The plot gets at least half the height, the breakdown what its bars need of the rest.
    // Presentation mode: 60% and 40% where the plot keeps 16 lines and the breakdown's bars fit;
    // else (a projector's 1280x720) the plot takes the whole height.
    const bool breakdown =
        !present || (bars > 0 && avail.y * 0.6f >= fs * 16 && avail.y * 0.4f >= fs * (4.5f + 1.3f * float(bars)));
    const float plotH = present ? (breakdown ? avail.y * 0.6f : avail.y)
                                : std::max({fs * 10, avail.y * 0.5f,
                                            std::min(avail.y * 0.62f, avail.y - tableH - breakdownNeed - fs * 3.5f)});
    drawBenchThroughput(canvas, f, style, ImVec2(avail.x, plotH));
    // The bandwidth note and the choices of n and axis (presentation mode leaves them to the
    // normal layout: the keyboard drives it).
    if (!present) drawPlotChoices(b, f, withSteps, bn, fs);
    if (breakdown) drawBreakdownPlot(canvas, f, bn, style, tableH, fs);
    if (figureLive_ > 0 && !present) drawResultsTable(f, figureLive_, tableH, fs);
}

// The throughput plot at the cursor, `size` large; hovering a point shows its figures, clicking it
// picks the n of the breakdown. Remembers where the points are (benchPoint).
void App::drawBenchThroughput(plot::Canvas& canvas, const plot::Figure& f, const plot::Style& style, ImVec2 size) {
    const float fs = style.fontSize;
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const plot::Rect plotArea{p0.x, p0.y, p0.x + size.x, p0.y + size.y};
    // Hover: the point nearest the mouse (from last frame's layout, which this frame repeats).
    std::optional<size_t>& hovered = ui_.bench.hoveredRow;
    std::optional<size_t> hoverRow;
    if (hovered) hoverRow = *hovered;
    const plot::ThroughputLayout layout = plot::drawThroughput(canvas, plotArea, f, style, hoverRow);
    plotPoints_.clear();
    for (const auto& p : layout.points)
        plotPoints_.push_back({f.rows[p.row].algo, f.rows[p.row].n, ImVec2(p.at.x, p.at.y)});
    ImGui::InvisibleButton("plot", size);
    hovered.reset();
    if (ImGui::IsItemHovered()) {
        const ImVec2 m = ImGui::GetIO().MousePos;
        if (auto i = plot::nearestPoint(layout, {m.x, m.y}, fs * 1.2f)) {
            const size_t row = layout.points[*i].row;
            hovered = row;
            ImGui::BeginTooltip();
            ImGui::TextUnformatted(plot::describeRow(f.rows[row], plot::rowBandwidth(f, row)).c_str());
            ImGui::TextDisabled("click: per-step times at this n");
            ImGui::EndTooltip();
            if (ImGui::IsItemClicked()) ui_.bench.breakdownN = f.rows[row].n;
        }
    }
}

// [SECTION] Start, export and loaded results --------------------------------------------------------------------------

std::optional<ImVec2> App::benchPoint(const std::string& algo, uint64_t n) const {
    for (const PlotPoint& p : plotPoints_)
        if (p.algo == algo && p.n == n) return p.at;
    return std::nullopt;
}

void App::startBench(const bench::Options& options) {
    ui_.bench.open = true;
    ui_.bench.fromOptions(options);
    ui_.bench.breakdownN = options.plotN;
    bench_.start(options);
}

std::string App::exportBench(const std::string& dir) {
    BenchUi& b = ui_.bench;
    const BenchWorker::State st = bench_.state();
    bench::Options o = st.options ? *st.options : b.toOptions();
    const plot::FigureOptions fo = b.figureOptions();
    o.bandwidthGBs = fo.bandwidthGBs;
    o.plotN = b.breakdownN;
    o.plotLogY = b.yAxis == 0 ? -1 : b.yAxis == 1 ? 0 : 1;
    try {
        bench::ExportFiles files = bench::writeExport(dir, *st.results, o, fo.bandwidthSource);
        b.exportMessage = "wrote " + files.json + ", results.csv, plot.png, plot.svg";
        b.exportFailed = false;
        return {};
    } catch (const bench::BenchError& e) {
        b.exportMessage = e.what();
        b.exportFailed = true;
        return e.what();
    }
}

std::string App::loadResults(const std::string& path) {
    BenchUi& b = ui_.bench;
    b.open = true;
    auto loaded = loaded_.load(path);
    if (!loaded) { // the panel says why; what was loaded stays
        b.loadMessage = loaded.error().message;
        b.loadFailed = true;
        return b.loadMessage;
    }
    std::string machines;
    for (const std::string& m : loaded->machines) machines += (machines.empty() ? "" : ", ") + m;
    b.loadMessage = "loaded " + std::filesystem::path(path).filename().string() + ": " + std::to_string(loaded->rows) +
                    " results, " + machines;
    b.loadFailed = false;
    return {};
}

void App::setLoadedResults(LoadedResults loaded) {
    loaded_ = std::move(loaded);
    figureLoaded_ = UINT64_MAX; // another object's generation: the figure is made again
    if (!loaded_.empty()) ui_.bench.open = true;
}

std::vector<LoadedLine> App::loadedLines() {
    const plot::Figure& f = benchFigure(bench_.state());
    return app::loadedLines(f, figureLive_, loaded_);
}

} // namespace sortlab::app
