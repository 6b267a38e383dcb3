// The plots that sortlab-bench --export, sortlab-plot and the app's benchmark panel draw (host only,
// no Vulkan device): the axes' tick math, the figure built from --json rows (series, labels, floors,
// notes), the breakdown's grouping, hover, the legend, and the PNG and SVG canvases.
#include <sortlab/plot/file_canvas.h>
#include <sortlab/plot/plot.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace sortlab::plot;
using Json = nlohmann::ordered_json;

namespace {

Json row(const std::string& algo, uint64_t n, double medianMs, const std::string& type = "u32",
         std::optional<uint64_t> bytesFloor = std::nullopt, const std::string& device = "NVIDIA H200") {
    Json o;
    o["algo"] = algo;
    o["variant"] = algo == "std" ? "std::sort" : "default";
    o["type"] = type;
    o["values"] = "none";
    o["order"] = "asc";
    o["n"] = n;
    o["dist"] = "uniform";
    o["seed"] = 1;
    o["device"] = algo == "std" ? "host CPU" : device;
    o["driver"] = "test";
    o["timer"] = algo == "std" ? "host clock" : "gpu timestamps";
    o["reps"] = 3;
    o["median_ms"] = medianMs;
    o["min_ms"] = medianMs;
    o["gkeys_per_s"] = double(n) / (medianMs * 1e6);
    o["check"] = "pass";
    o["bytes_floor"] = bytesFloor ? Json(*bytesFloor) : Json(nullptr);
    o["step_ms"] = Json::array();
    return o;
}

} // namespace

// [SECTION] Axes --------------------------------------------------------------------------------------

TEST(PlotAxes, LinearTicksAreOneTwoFiveStepsCoveringTheRange) {
    double lo = -1, hi = -1;
    auto t = linearTicks(0, 0.37, 6, &lo, &hi);
    ASSERT_EQ(t.size(), 5u); // 0 .. 0.4 in steps of 0.1
    EXPECT_DOUBLE_EQ(lo, 0);
    EXPECT_NEAR(hi, 0.4, 1e-12);
    EXPECT_EQ(t[0].label, "0.0");
    EXPECT_EQ(t[3].label, "0.3");
    t = linearTicks(0, 95, 5, &lo, &hi); // raw step 23.75 -> 50
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t[2].label, "100");
    t = linearTicks(0, 23.4, 8, &lo, &hi); // raw 3.3 -> 5
    EXPECT_EQ(t.back().label, "25");
    EXPECT_DOUBLE_EQ(hi, 25);
    // A zero range still gives an axis.
    t = linearTicks(0, 0, 5, &lo, &hi);
    EXPECT_GE(t.size(), 2u);
    EXPECT_GT(hi, lo);
}

TEST(PlotAxes, Log2TicksAtPowersOfTwoWithThinnedLabels) {
    auto t = log2Ticks(1000, 70000, 20); // 2^10 .. 2^16
    ASSERT_EQ(t.size(), 7u);
    EXPECT_EQ(t.front().label, "2^10");
    EXPECT_EQ(t.back().label, "2^16");
    t = log2Ticks(1000, 70000, 3); // every third exponent labelled
    ASSERT_EQ(t.size(), 7u);
    std::vector<std::string> labelled;
    for (auto& k : t)
        if (!k.label.empty()) labelled.push_back(k.label);
    EXPECT_EQ(labelled, (std::vector<std::string>{"2^12", "2^15"}));
    EXPECT_TRUE(log2Ticks(0, 10, 5).empty());
}

TEST(PlotAxes, Log10TicksOneTwoFivePerDecade) {
    auto t = log10Ticks(0.01, 10, 20);
    std::vector<std::string> labels;
    for (auto& k : t) labels.push_back(k.label);
    EXPECT_EQ(labels, (std::vector<std::string>{"0.01", "0.02", "0.05", "0.1", "0.2", "0.5", "1", "2", "5", "10"}));
    t = log10Ticks(0.001, 1000, 6); // too many: powers of ten labelled, the rest are grid lines
    size_t labelled = 0;
    for (auto& k : t) labelled += !k.label.empty();
    EXPECT_EQ(labelled, 7u);
    EXPECT_EQ(t.size(), 19u);
}

TEST(PlotAxes, AxisMapsBothWays) {
    Axis x{1024, 1 << 20, true, 100, 1100};
    EXPECT_FLOAT_EQ(x.toPixel(1024), 100);
    EXPECT_FLOAT_EQ(x.toPixel(1 << 20), 1100);
    EXPECT_FLOAT_EQ(x.toPixel(1 << 15), 600); // halfway in log2
    EXPECT_NEAR(x.fromPixel(600), 32768, 1e-6);
    Axis y{0, 10, false, 500, 100}; // grows upwards
    EXPECT_FLOAT_EQ(y.toPixel(0), 500);
    EXPECT_FLOAT_EQ(y.toPixel(5), 300);
    EXPECT_NEAR(y.fromPixel(140), 9, 1e-6);
}

TEST(PlotAxes, Labels) {
    EXPECT_EQ(sizeLabel(1 << 20), "2^20");
    EXPECT_EQ(sizeLabel(1000003), "1000003");
    EXPECT_EQ(sig3(23.456), "23.5");
    EXPECT_EQ(sig3(0.012345), "0.0123");
    EXPECT_EQ(sig3(0), "0");
}

// [SECTION] The figure ---------------------------------------------------------------------------------

TEST(PlotFigure, OneSeriesPerAlgorithmAndConfigurationOrderedByN) {
    Json rows = Json::array();
    for (uint64_t n : {uint64_t(1) << 12, uint64_t(1) << 10, uint64_t(1) << 11}) {
        rows.push_back(row("radix4", n, 1.0, "u32", 96 * n));
        rows.push_back(row("std", n, 2.0));
        rows.push_back(row("radix4", n, 1.5, "f32", 96 * n));
    }
    Figure f = makeFigure(rowsFromJson(rows), {4000, "test", ""});
    ASSERT_EQ(f.series.size(), 3u); // radix4 u32, radix4 f32, std u32 (the std rows are u32 only)
    EXPECT_EQ(f.series[0].label, "radix4 u32");
    EXPECT_EQ(f.series[1].label, "radix4 f32");
    EXPECT_EQ(f.series[2].label, "std::sort (1 host core) u32");
    EXPECT_TRUE(f.series[2].dashed);
    EXPECT_NE(f.series[0].marker, f.series[1].marker);
    ASSERT_EQ(f.series[0].rows.size(), 3u);
    EXPECT_EQ(f.rows[f.series[0].rows[0]].n, 1024u);
    EXPECT_EQ(f.rows[f.series[0].rows[2]].n, 4096u);
    // The floor: 4000 GB/s over 96 B/key = 41.7 Gkeys/s, for GPU rows only.
    EXPECT_NEAR(f.series[0].floorGkeys[0], 4000.0 / 96.0, 1e-9);
    EXPECT_TRUE(std::isnan(f.series[2].floorGkeys[0]));
    EXPECT_EQ(f.sizes, (std::vector<uint64_t>{1024, 2048, 4096}));
    EXPECT_NE(f.bandwidthNote.find("test"), std::string::npos);
}

// sortlab-bench --algo auto: one line whatever each size picked; its label says what it picked
// (the most frequent pick first, the others with their sizes), its tooltip what and why.
TEST(PlotFigure, AutoIsOneLineThatSaysWhatItPicked) {
    Json rows = Json::array();
    for (uint64_t n : {uint64_t(1) << 10, uint64_t(1) << 11, uint64_t(1) << 12}) {
        Json a = row("auto", n, 1.0);
        a["chose"] = n == 2048 ? "hybrid" : "onesweep";
        a["variant"] = n == 2048 ? "hybrid:msd16" : "onesweep:lookback";
        a["why"] = "OneSweep: 2.000 ms (hybrid) against 1.000 ms (OneSweep), both timed on these keys";
        rows.push_back(a);
        rows.push_back(row("onesweep", n, 1.0));
    }
    Figure f = makeFigure(rowsFromJson(rows), {4000, "test", ""});
    ASSERT_EQ(f.series.size(), 2u);
    EXPECT_EQ(f.series[0].label, "auto (picked onesweep; hybrid at 2^11)");
    EXPECT_EQ(f.series[0].rows.size(), 3u);
    EXPECT_EQ(f.series[1].label, "onesweep");
    const std::string tip = describeRow(f.rows[f.series[0].rows[1]]);
    EXPECT_EQ(tip.rfind("auto, which picked hybrid (msd16); the time is that sort's\n", 0), 0u) << tip;
    EXPECT_NE(tip.find("why: OneSweep: 2.000 ms"), std::string::npos) << tip;
    EXPECT_EQ(describeRow(f.rows[f.series[1].rows[0]]).find("why:"), std::string::npos);
}

TEST(PlotFigure, KnownBandwidthLavapipeAndErrors) {
    EXPECT_EQ(knownCopyBandwidth("NVIDIA H200")->first, 4100);
    EXPECT_EQ(knownCopyBandwidth("NVIDIA H100 80GB HBM3")->first, 3000);
    EXPECT_FALSE(knownCopyBandwidth("AMD Radeon"));

    Json rows = Json::array({row("onesweep", 1024, 1.0, "u32", 36 * 1024)});
    Figure h200 = makeFigure(rowsFromJson(rows)); // bandwidth -1: the known figure
    EXPECT_DOUBLE_EQ(h200.bandwidthGBs, 4100);
    EXPECT_FALSE(h200.lavapipe);

    rows = Json::array({row("onesweep", 1024, 1.0, "u32", 36 * 1024, "llvmpipe (LLVM 15.0.6, 256 bits)")});
    Json failed = row("oddeven", 1 << 30, 0, "u32", std::nullopt, "llvmpipe (LLVM 15.0.6, 256 bits)");
    failed["check"] = "error";
    failed["error"] = "sorting 1073741824 keys needs 8192 MiB";
    rows.push_back(failed);
    Figure lvp = makeFigure(rowsFromJson(rows));
    EXPECT_TRUE(lvp.lavapipe);
    EXPECT_EQ(lvp.bandwidthGBs, 0);
    EXPECT_NE(lvp.bandwidthNote.find("lavapipe"), std::string::npos);
    ASSERT_EQ(lvp.errors.size(), 1u);
    EXPECT_NE(lvp.errors[0].find("oddeven n=2^30"), std::string::npos);
    EXPECT_EQ(lvp.series.size(), 1u); // the error row draws no point
}

// Results of two machines in one figure (the app's panel with results loaded from a file): a line
// per machine, labelled with it ("onesweep, NVIDIA H100 80GB HBM3"; the driver's bracket left
// out), std::sort's rows belonging to the machine of their file's GPU rows, each machine's own
// floor (none on lavapipe), rows of another tag never sharing a line.
TEST(PlotFigure, LinesPerMachineWithTheirOwnFloors) {
    const std::string lvp = "llvmpipe (LLVM 15.0.6, 256 bits)", h100 = "NVIDIA H100 80GB HBM3";
    Json here = Json::array(), there = Json::array();
    for (uint64_t n : {uint64_t(1) << 10, uint64_t(1) << 12}) {
        here.push_back(row("onesweep", n, 1.0, "u32", 36 * n, lvp));
        here.push_back(row("std", n, 0.5));
        there.push_back(row("onesweep", n, 0.01, "u32", 36 * n, h100));
        there.push_back(row("cub", n, 0.02, "u32", 36 * n, h100));
        there.push_back(row("std", n, 0.4));
    }
    std::vector<Row> rows = rowsFromJson(here);
    EXPECT_EQ(rows[1].machine, lvp); // std::sort ran on the host of the file's GPU
    for (Row& r : rowsFromJson(there)) rows.push_back(std::move(r));
    Figure f = makeFigure(rows);
    ASSERT_EQ(f.series.size(), 5u);
    EXPECT_EQ(f.series[0].label, "onesweep, llvmpipe");
    EXPECT_EQ(f.series[1].label, "std::sort (1 host core), llvmpipe");
    EXPECT_EQ(f.series[2].label, "onesweep, NVIDIA H100 80GB HBM3");
    EXPECT_EQ(f.series[3].label, "CUB DeviceRadixSort, NVIDIA H100 80GB HBM3"); // as its file has them
    EXPECT_EQ(f.series[4].label, "std::sort (1 host core), NVIDIA H100 80GB HBM3");
    EXPECT_NE(f.series[0].marker, f.series[2].marker);  // the same colour, another shape
    EXPECT_TRUE(std::isnan(f.series[0].floorGkeys[0])); // lavapipe: no floor
    EXPECT_NEAR(f.series[2].floorGkeys[0], 3000.0 / 36.0, 1e-9);
    EXPECT_DOUBLE_EQ(rowBandwidth(f, f.series[2].rows[0]), 3000);
    EXPECT_DOUBLE_EQ(rowBandwidth(f, f.series[0].rows[0]), 0);
    EXPECT_NE(f.bandwidthNote.find("none for " + lvp), std::string::npos) << f.bandwidthNote;

    // One machine: no machine in the labels unless asked for.
    Figure one = makeFigure(rowsFromJson(there));
    EXPECT_EQ(one.series[0].label, "onesweep");
    FigureOptions named;
    named.labelMachines = true;
    EXPECT_EQ(makeFigure(rowsFromJson(there), named).series[0].label, "onesweep, NVIDIA H100 80GB HBM3");

    // The same machine's rows under another tag: a line of their own, said so.
    std::vector<Row> again = rowsFromJson(there), loaded = rowsFromJson(there);
    for (Row& r : loaded) r.tag = "loaded", again.push_back(r);
    Figure tagged = makeFigure(again);
    ASSERT_EQ(tagged.series.size(), 6u);
    EXPECT_EQ(tagged.series[3].label, "onesweep (loaded)");
    EXPECT_EQ(tagged.series[3].rows.size(), 2u);
}

TEST(PlotFigure, RowsFromJsonNamesWhatIsMissing) {
    Json rows = Json::array({row("radix4", 1024, 1.0)});
    rows[0].erase("median_ms");
    try {
        (void)rowsFromJson(rows);
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("median_ms"), std::string::npos);
    }
    EXPECT_THROW((void)rowsFromJson(Json::object()), std::runtime_error);
}

TEST(PlotFigure, StepGroupsForTheBreakdown) {
    EXPECT_EQ(stepGroup("oddeven", "tile"), "tile (in registers)");
    EXPECT_EQ(stepGroup("oddeven", "window"), "windows (fused, in registers)");
    EXPECT_EQ(stepGroup("oddeven-layer", "layer"), "global layers");
    EXPECT_EQ(stepGroup("onesweep", "histogram"), "histogram");
    EXPECT_EQ(stepGroup("onesweep", "pass"), "passes");
    EXPECT_EQ(stepGroup("radix4", "scatter"), "scatter");
}

// [SECTION] Drawing ------------------------------------------------------------------------------------

// A canvas that only records.
struct Recorder : Canvas {
    std::vector<std::string> texts;
    int lines = 0, rects = 0;
    void line(Vec2, Vec2, Colour, float) override { ++lines; }
    void fillRect(Rect, Colour) override { ++rects; }
    void fillCircle(Vec2, float, Colour) override {}
    void fillTriangle(Vec2, Vec2, Vec2, Colour) override {}
    void text(Vec2, std::string_view s, Colour, float, HAlign, VAlign) override { texts.emplace_back(s); }
    float textWidth(std::string_view s, float size) override { return float(s.size()) * size * 0.5f; }
};

TEST(PlotDraw, ThroughputPointsHoverAndBreakdownGroups) {
    Json rows = Json::array();
    for (uint64_t n : {uint64_t(1) << 10, uint64_t(1) << 20}) {
        Json r = row("onesweep", n, double(n) / 1e6, "u32", 36 * n); // 1 Gkeys/s
        r["step_ms"] =
            Json::array({Json{{"step", 1}, {"label", "histogram"}, {"kind", "histogram"}, {"median_ms", 0.25}},
                         Json{{"step", 2}, {"label", "scan"}, {"kind", "scan"}, {"median_ms", 0.05}},
                         Json{{"step", 3}, {"label", "pass 0"}, {"kind", "pass"}, {"median_ms", 0.5}},
                         Json{{"step", 4}, {"label", "pass 1"}, {"kind", "pass"}, {"median_ms", 0.5}}});
        rows.push_back(r);
        rows.push_back(row("std", n, double(n) / 1e5));
    }
    Figure f = makeFigure(rowsFromJson(rows), {0, "", ""});
    Recorder c;
    Style s;
    ThroughputLayout L = drawThroughput(c, {0, 0, 800, 500}, f, s);
    ASSERT_EQ(L.points.size(), 4u);
    // Both onesweep points at 1 Gkeys/s: the same height; 2^20 to the right of 2^10.
    EXPECT_FLOAT_EQ(L.points[0].at.y, L.points[1].at.y);
    EXPECT_LT(L.points[0].at.x, L.points[1].at.x);
    EXPECT_TRUE(L.plot.contains(L.points[0].at));
    auto near = nearestPoint(L, {L.points[1].at.x + 3, L.points[1].at.y - 2}, 10);
    ASSERT_TRUE(near);
    EXPECT_EQ(*near, 1u);
    EXPECT_FALSE(nearestPoint(L, {L.points[1].at.x + 50, L.points[1].at.y}, 10));
    EXPECT_NE(std::find(c.texts.begin(), c.texts.end(), "2^20"), c.texts.end());
    EXPECT_NE(std::find(c.texts.begin(), c.texts.end(), "onesweep"), c.texts.end()); // the legend

    EXPECT_EQ(defaultBreakdownN(f), uint64_t(1) << 20);
    BreakdownLayout B = drawBreakdown(c, {0, 500, 800, 700}, f, 1 << 20, s);
    ASSERT_EQ(B.segments.size(), 3u); // histogram, scan, passes
    EXPECT_EQ(B.segments[2].group, "passes");
    EXPECT_EQ(B.segments[2].steps, 2u);
    EXPECT_DOUBLE_EQ(B.segments[2].ms, 1.0);
    EXPECT_NEAR(B.segments[2].r.w() / B.segments[0].r.w(), 4.0, 0.05);
    EXPECT_TRUE(drawBreakdown(c, {0, 500, 800, 700}, f, 12345, s).segments.empty());
}

// The legend names every line, however many (never "+ N more"): in columns or under the plot, in
// smaller text where it must.
TEST(PlotDraw, LegendShowsEveryLine) {
    Json rows = Json::array();
    const char* types[] = {"u32", "i32", "f32", "u64", "i64", "f64"};
    for (const char* algo : {"oddeven", "radix4", "onesweep"})
        for (const char* type : types)
            for (uint64_t n : {uint64_t(1) << 10, uint64_t(1) << 20})
                rows.push_back(row(algo, n, double(n) / 1e6 * (1 + std::strlen(type)), type));
    Figure f = makeFigure(rowsFromJson(rows), {0, "", ""});
    ASSERT_EQ(f.series.size(), 18u);
    for (const Rect area : {Rect{0, 0, 1400, 900}, Rect{0, 0, 900, 300}, Rect{0, 0, 600, 250}}) {
        Recorder c;
        Style s;
        s.fontSize = 24;
        const ThroughputLayout L = drawThroughput(c, area, f, s);
        for (const Series& se : f.series)
            EXPECT_NE(std::find(c.texts.begin(), c.texts.end(), se.label), c.texts.end())
                << se.label << " in " << area.w() << "x" << area.h();
        EXPECT_TRUE(std::none_of(c.texts.begin(), c.texts.end(),
                                 [](const std::string& t) { return t.find("more lines") != std::string::npos; }));
        EXPECT_GT(L.plot.h(), 0);
    }
}

// The speed-up over CUB by distribution (sortlab-plot --by-dist): one bar per configuration in each
// distribution's group, at the largest n with CUB figures by default; CUB's own rows, rows of other
// sizes and rows without a ratio draw nothing; a size without ratios draws a note instead.
TEST(PlotDraw, SpeedupOverCubByDistribution) {
    Json rows = Json::array();
    auto add = [&](const std::string& algo, const std::string& type, const std::string& dist, uint64_t n,
                   std::optional<double> x) {
        Json r = row(algo, n, 1.0, type);
        r["dist"] = dist;
        if (x) r["speedup_vs_cub"] = *x;
        rows.push_back(r);
    };
    for (const char* dist : {"uniform", "equal"}) {
        const bool eq = std::string(dist) == "equal";
        add("onesweep", "u32", dist, 1 << 20, eq ? 7.25 : 0.81);
        add("onesweep", "u64", dist, 1 << 20, eq ? 6.5 : 0.875);
        add("cub", "u32", dist, 1 << 20, 1.0);
        add("onesweep", "u32", dist, 1 << 10, 2.0); // another size
    }
    add("std", "u32", "uniform", 1 << 20, std::nullopt); // no ratio
    Figure f = makeFigure(rowsFromJson(rows), {0, "", ""});
    EXPECT_EQ(defaultDistributionN(f), uint64_t(1) << 20);
    Recorder c;
    Style s;
    EXPECT_EQ(drawSpeedupByDistribution(c, {0, 0, 1000, 600}, f, 1 << 20, s), 4u);
    for (const char* want : {"uniform", "equal", "0.81×", "7.25×", "0.88×", "6.50×", "u32 keys", "u64 keys", "1×"})
        EXPECT_NE(std::find(c.texts.begin(), c.texts.end(), want), c.texts.end()) << want;
    EXPECT_EQ(std::find(c.texts.begin(), c.texts.end(), "2.00×"), c.texts.end()); // 2^10 is not drawn
    Recorder none;
    EXPECT_EQ(drawSpeedupByDistribution(none, {0, 0, 1000, 600}, f, 12345, s), 0u);
    EXPECT_TRUE(std::any_of(none.texts.begin(), none.texts.end(),
                            [](const std::string& t) { return t.find("--anchor cub") != std::string::npos; }));
    const std::string dir = testing::TempDir();
    ASSERT_EQ(writeFigurePng(f, dir + "/by_dist.png", 900, 600, 0, -1, FigureKind::byDistribution), "");
    ASSERT_EQ(writeFigureSvg(f, dir + "/by_dist.svg", 900, 600, 0, -1, FigureKind::byDistribution), "");
}

TEST(PlotDraw, PngAndSvgFiles) {
    Json rows = Json::array({row("radix4", 1024, 0.5, "u32", 96 * 1024), row("radix4", 4096, 1.0, "u32", 96 * 4096),
                             row("std", 1024, 1.0), row("std", 4096, 5.0)});
    Figure f = makeFigure(rowsFromJson(rows), {1000, "test", "a <title> & more"});
    const std::string dir = testing::TempDir();
    ASSERT_EQ(writeFigurePng(f, dir + "/fig.png", 800, 600), "");
    ASSERT_EQ(writeFigureSvg(f, dir + "/fig.svg", 800, 600), "");
    std::ifstream svg(dir + "/fig.svg");
    std::stringstream ss;
    ss << svg.rdbuf();
    const std::string text = ss.str();
    EXPECT_EQ(text.rfind("<?xml", 0), 0u);
    EXPECT_NE(text.find("a &lt;title&gt; &amp; more"), std::string::npos);
    EXPECT_NE(text.find("</svg>"), std::string::npos);
    EXPECT_NE(writeFigurePng(f, dir + "/no/such/dir/fig.png", 800, 600), "");

    // The rasteriser: a line and text change pixels; clipping keeps them inside.
    RasterCanvas c(100, 50, {255, 255, 255});
    c.line({10, 10}, {90, 40}, {0, 0, 0}, 2);
    auto dark = [&](int x, int y) { return c.pixels()[size_t(y * 100 + x) * 4] < 128; };
    EXPECT_TRUE(dark(50, 25));
    EXPECT_FALSE(dark(50, 5));
    c.pushClip({0, 0, 50, 50});
    c.fillRect({40, 0, 100, 5}, {0, 0, 0});
    c.popClip();
    EXPECT_TRUE(dark(45, 2));
    EXPECT_FALSE(dark(60, 2));
    EXPECT_GT(c.textWidth("Gkeys/s", 14), 20);
    EXPECT_EQ(utf8CodePoints("a\xC3\x97"), (std::vector<uint32_t>{'a', 0xD7}));
    EXPECT_EQ(utf8CodePoints("\xC3"), (std::vector<uint32_t>{0xFFFD}));
}

// [SECTION] Report and runner ----------------------------------------------------------------------------
