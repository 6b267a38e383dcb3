// Plots of benchmark results, drawn by one piece of code on every surface: the app's benchmark
// panel (an ImDrawList canvas, app/bench_panel.cpp), PNG files (a small software rasteriser,
// file_canvas.h) and SVG files. The input is the --json schema (report.h: resultsJson), so a plot
// can be made from a run in progress, from an export, or from files measured elsewhere
// (sortlab-plot). No ImGui and no Vulkan here.
//
//   throughput: Gkeys/s (n / median time) against n on a log2 axis, one line per algorithm and
//               configuration, std::sort and CUB included, and each GPU sort's bandwidth floor
//               (the copy bandwidth over Plan::bytesMovedFloor per key) as a dotted line;
//   breakdown:  for one n, a bar per GPU sort split into its steps by kind (histogram / scan /
//               passes; count / scan / scatter; shared-memory tile / windows / global layers),
//               from the per-step GPU timestamps.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sortlab::plot {

// [SECTION] Geometry and the canvas ---------------------------------------------------------------

struct Vec2 {
    float x = 0, y = 0;
};

struct Rect {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    float w() const { return x1 - x0; }
    float h() const { return y1 - y0; }
    bool contains(Vec2 p) const { return p.x >= x0 && p.x < x1 && p.y >= y0 && p.y < y1; }
};

struct Colour {
    uint8_t r = 0, g = 0, b = 0, a = 255;
};
Colour withAlpha(Colour c, uint8_t a);

enum class HAlign : uint8_t { left, centre, right };
enum class VAlign : uint8_t { top, middle, bottom };

// What the plots draw with. Coordinates in pixels, y down; text sizes in pixels (line height).
class Canvas {
public:
    virtual ~Canvas() = default;
    virtual void line(Vec2 a, Vec2 b, Colour c, float width) = 0;
    virtual void fillRect(Rect r, Colour c) = 0;
    virtual void fillCircle(Vec2 centre, float radius, Colour c) = 0;
    virtual void fillTriangle(Vec2 a, Vec2 b, Vec2 c, Colour colour) = 0;
    virtual void text(Vec2 at, std::string_view s, Colour c, float size, HAlign h = HAlign::left,
                      VAlign v = VAlign::top) = 0;
    virtual float textWidth(std::string_view s, float size) = 0;
    // Clips what follows to r (pushClip/popClip nest). The default ignores it.
    virtual void pushClip(Rect) {}
    virtual void popClip() {}

    void dashedLine(Vec2 a, Vec2 b, Colour c, float width, float dash, float gap);
    void strokeRect(Rect r, Colour c, float width);
    // shape: 0 circle, 1 square, 2 diamond, 3 triangle (the configurations of one algorithm).
    void marker(Vec2 p, int shape, float radius, Colour c);
};

// [SECTION] Axes -----------------------------------------------------------------------------------

struct Tick {
    double value = 0;
    std::string label; // empty: a tick without a label
};

// Ticks at 1, 2 or 5 times a power of ten covering [lo, hi], at most about maxTicks of them.
// *axisLo / *axisHi (when given) get the first tick <= lo and the last >= hi.
std::vector<Tick> linearTicks(double lo, double hi, int maxTicks, double* axisLo = nullptr, double* axisHi = nullptr);
// Ticks at the integer powers of two in [lo, hi] (lo > 0). When there are more than maxLabels,
// every k-th is labelled (the ends of a power-of-two run first), the rest are unlabelled ticks.
std::vector<Tick> log2Ticks(double lo, double hi, int maxLabels);
// Ticks at 1, 2 and 5 times the powers of ten in [lo, hi] (lo > 0), all labelled when there are
// about maxTicks or fewer, else only the powers of ten ("0.01", "0.1", "1", "10").
std::vector<Tick> log10Ticks(double lo, double hi, int maxTicks);
// "2^20" for a power of two, else the integer ("1000003").
std::string sizeLabel(uint64_t n);
// Three significant digits without an exponent: 12.3, 1.23, 0.0123 (as sortlab-bench's table).
std::string sig3(double v);

// A value axis mapped onto pixels [p0, p1] (p1 < p0 for a y axis that grows upwards).
struct Axis {
    double lo = 0, hi = 1;
    bool log2 = false;
    float p0 = 0, p1 = 1;
    float toPixel(double v) const;
    double fromPixel(float p) const;
};

// [SECTION] Data: rows of the --json schema, series, the figure ------------------------------------

struct StepTime {
    std::string label, kind;
    double ms = 0;
};

// One object of the --json array.
struct Row {
    std::string algo, variant, type, values, order, dist, device, driver, timer, check, error;
    // sortlab-bench --algo auto: the algorithm it picked and why (empty for every other row).
    std::string chose, why;
    // The machine that measured the row, named by its GPU: the device, or for std::sort's rows
    // (device "host CPU") the GPU of the other rows of the same array (rowsFromJson); "host CPU"
    // when the array has none. Lines are per machine, so a std::sort line says whose host it is.
    std::string machine;
    // Rows of different tags never share a line, even from one machine (the app: "loaded" for
    // results read from a file, beside its own sweep's rows, tagged "").
    std::string tag;
    uint64_t n = 0, seed = 0, reps = 0;
    double medianMs = 0, minMs = 0, gkeys = 0;
    std::optional<uint64_t> bytesFloor;
    std::optional<double> gbytes, speedupStd, speedupCub;
    std::vector<StepTime> steps;
    bool gpu() const { return algo != "std"; } // CUB's rows are GPU rows too
};

// Throws std::runtime_error naming the first object and field that does not fit the schema.
// The rows of one array are one run's (one machine's): see Row::machine.
std::vector<Row> rowsFromJson(const nlohmann::ordered_json& array);

// One line of the throughput plot: an algorithm (and variant) on one configuration (key type,
// values, order, distribution) measured by one machine, its points ordered by n. Error rows are
// left out.
struct Series {
    // "radix4"; "radix4 f32 kv desc" when the rows hold several configurations; "radix4 (VARIANT)"
    // when one machine ran several variants of it; ", MACHINE" added when the rows come from several
    // machines or FigureOptions::labelMachines ("onesweep, NVIDIA H100 80GB HBM3").
    std::string label;
    std::string algo, machine, tag;
    Colour colour;
    bool dashed = false;            // the CPU baseline
    int marker = 0;                 // configuration index, as a marker shape
    std::vector<size_t> rows;       // into Figure::rows, ascending n
    std::vector<double> floorGkeys; // per point: bandwidth / (bytes_floor / n); NaN where none
};

struct FigureOptions {
    // The copy bandwidth the floor lines use, in GB/s: > 0 that figure; 0 none; < 0 the known
    // figure for the rows' device (knownCopyBandwidth), else none.
    double bandwidthGBs = -1;
    std::string bandwidthSource; // where a given figure comes from ("typed in", "--bandwidth")
    std::string title;           // default: "sortlab benchmark"
    uint64_t nMin = 0, nMax = 0; // the n axis covers at least this range (0: the rows' sizes only)
    bool labelMachines = false;  // every label names its machine, even when all rows have the same
};

struct Figure {
    std::vector<Row> rows;
    std::vector<Series> series;
    std::vector<uint64_t> sizes; // every n with a result, ascending
    uint64_t nMin = 0, nMax = 0; // FigureOptions::nMin/nMax
    std::string title;
    std::string devices;           // "NVIDIA H200 (NVIDIA 580.95.05)"; several joined by "; "
    std::string workload;          // what the rows share: "u32 keys, keys only, asc, uniform"
    std::string timing;            // "median of 5 reps; GPU timestamps; std::sort on one host core"
    double bandwidthGBs = 0;       // the floors' copy bandwidth (the first machine's, when per machine)
    bool floorsPerMachine = false; // several machines' known figures (bandwidthGBs < 0 in the options)
    std::string bandwidthNote;     // what the floor lines are, or why there are none
    // The copy bandwidth of each machine with floors (rowBandwidth).
    std::map<std::string, double> machineBandwidth;
    bool lavapipe = false;           // some row ran on Mesa lavapipe: CPU numbers, not GPU ones
    std::vector<std::string> errors; // "onesweep n=2^28: ..." for rows that failed
};

Figure makeFigure(std::vector<Row> rows, const FigureOptions& options = {});

// A known copy bandwidth for a device name, with where it comes from (docs/benchmarks.md, "The devices": measured
// 4.0-4.2 TB/s through a Vulkan compute shader on the H200, about 3.0 TB/s on the H100).
std::optional<std::pair<double, std::string>> knownCopyBandwidth(std::string_view device);

// Which part of a sort a step kind belongs to, for the breakdown ("histogram", "passes",
// "global layers", ...), and its colour.
std::string stepGroup(std::string_view algo, std::string_view kind);
Colour groupColour(std::string_view group);

// The largest n at which some GPU row has per-step times (0: none).
uint64_t defaultBreakdownN(const Figure& f);
// The tooltip of a row: algorithm, variant, n, times, throughput, floor, speed-ups, check.
std::string describeRow(const Row& r, double bandwidthGBs = 0);
// The copy bandwidth of the floor of f.rows[row] (0: none).
double rowBandwidth(const Figure& f, size_t row);

// [SECTION] Drawing -----------------------------------------------------------------------------------

struct Theme {
    Colour background, text, muted, grid, axis, warning, legendBackground;
};
Theme lightTheme(); // files
Theme darkTheme();  // the app

struct Style {
    Theme theme = lightTheme();
    float fontSize = 14;
    float lineWidth = 2;
    float markerRadius = 3.5f;
    float smallScale = 0.9f; // tick labels and legends, relative to fontSize (the app: 1, crisp glyphs)
    int logY = -1;           // the Gkeys/s axis: 0 linear, 1 log, -1 log when the points span more than 30x
};

struct ThroughputLayout {
    Rect plot; // the area inside the axes
    Axis x, y;
    struct Point {
        Vec2 at;
        size_t series = 0, row = 0;
    };
    std::vector<Point> points;
};
// Draws into area; highlightRow (an index into f.rows) gets a larger marker and a guide line.
ThroughputLayout drawThroughput(Canvas& c, Rect area, const Figure& f, const Style& s,
                                std::optional<size_t> highlightRow = {});
// The point nearest to p within maxDistance pixels (an index into layout.points).
std::optional<size_t> nearestPoint(const ThroughputLayout& layout, Vec2 p, float maxDistance);

struct BreakdownLayout {
    struct Segment {
        Rect r;
        size_t row = 0;
        std::string group;
        double ms = 0;
        size_t steps = 0;
    };
    std::vector<Segment> segments;
};
BreakdownLayout drawBreakdown(Canvas& c, Rect area, const Figure& f, uint64_t n, const Style& s);

// The whole figure for a file: title, device and workload lines, the lavapipe warning, the
// throughput plot, the breakdown at breakdownN (0: defaultBreakdownN) and the notes.
void drawFigure(Canvas& c, float width, float height, const Figure& f, const Style& s, uint64_t breakdownN = 0);

// [SECTION] Drawing: the speed-up over CUB by input distribution ------------------------------------

// The rows with a speed-up over CUB (not CUB's own, not failed ones) at n (0: at any n), which
// drawSpeedupByDistribution draws.
std::vector<size_t> distributionRows(const Figure& f, uint64_t n);
// The largest n at which some row has a speed-up over CUB (0: none).
uint64_t defaultDistributionN(const Figure& f);
// The rows at n with a speed-up over CUB, grouped by distribution (in order of first appearance),
// one bar per configuration (algorithm, key type, values, order) from 1 (as fast as CUB) to its
// ratio, on a log axis. Returns how many bars it drew; with none it draws a note saying why.
size_t drawSpeedupByDistribution(Canvas& c, Rect area, const Figure& f, uint64_t n, const Style& s);
// The whole figure of it for a file: title, device and timing lines, the bars (n: 0 for
// defaultDistributionN).
void drawDistributionFigure(Canvas& c, float width, float height, const Figure& f, const Style& s, uint64_t n = 0);

// Files. Both return an empty string on success, else what went wrong.
// logY: as Style::logY. FigureKind::byDistribution draws drawDistributionFigure at n = breakdownN.
enum class FigureKind : uint8_t { throughput, byDistribution };
std::string writeFigureSvg(const Figure& f, const std::string& path, int width = 1400, int height = 1000,
                           uint64_t breakdownN = 0, int logY = -1, FigureKind kind = FigureKind::throughput);
std::string writeFigurePng(const Figure& f, const std::string& path, int width = 1400, int height = 1000,
                           uint64_t breakdownN = 0, int logY = -1, FigureKind kind = FigureKind::throughput);

} // namespace sortlab::plot
