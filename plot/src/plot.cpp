// [SECTION] Canvas helpers
// [SECTION] Axes
// [SECTION] Rows from the --json schema
// [SECTION] The figure: series, floors, notes
// [SECTION] Step groups, tooltips
// [SECTION] Drawing: the throughput plot
// [SECTION] Drawing: the per-step breakdown
// [SECTION] Drawing: the whole figure
// [SECTION] Drawing: the speed-up over CUB by input distribution
#include <sortlab/plot/plot.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

namespace sortlab::plot {

Colour withAlpha(Colour c, uint8_t a) {
    c.a = a;
    return c;
}

// [SECTION] Canvas helpers ------------------------------------------------------------------------

void Canvas::dashedLine(Vec2 a, Vec2 b, Colour c, float width, float dash, float gap) {
    const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
    if (len <= 0) return;
    for (float t = 0; t < len; t += dash + gap) {
        const float t1 = std::min(len, t + dash);
        line({a.x + dx * t / len, a.y + dy * t / len}, {a.x + dx * t1 / len, a.y + dy * t1 / len}, c, width);
    }
}

void Canvas::strokeRect(Rect r, Colour c, float width) {
    line({r.x0, r.y0}, {r.x1, r.y0}, c, width);
    line({r.x1, r.y0}, {r.x1, r.y1}, c, width);
    line({r.x1, r.y1}, {r.x0, r.y1}, c, width);
    line({r.x0, r.y1}, {r.x0, r.y0}, c, width);
}

void Canvas::marker(Vec2 p, int shape, float r, Colour c) {
    switch (shape % 4) {
    case 0:
        fillCircle(p, r, c);
        break;
    case 1:
        fillRect({p.x - r * 0.9f, p.y - r * 0.9f, p.x + r * 0.9f, p.y + r * 0.9f}, c);
        break;
    case 2:
        fillTriangle({p.x, p.y - r * 1.3f}, {p.x + r * 1.3f, p.y}, {p.x, p.y + r * 1.3f}, c);
        fillTriangle({p.x, p.y - r * 1.3f}, {p.x, p.y + r * 1.3f}, {p.x - r * 1.3f, p.y}, c);
        break;
    default:
        fillTriangle({p.x, p.y - r * 1.3f}, {p.x + r * 1.2f, p.y + r}, {p.x - r * 1.2f, p.y + r}, c);
        break;
    }
}

// [SECTION] Axes -----------------------------------------------------------------------------------

std::string sig3(double v) {
    if (!std::isfinite(v)) return "-";
    if (v == 0) return "0";
    const int decimals = std::clamp(2 - int(std::floor(std::log10(std::fabs(v)))), 0, 9);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::vector<Tick> linearTicks(double lo, double hi, int maxTicks, double* axisLo, double* axisHi) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
    if (hi < lo) std::swap(lo, hi);
    if (hi - lo < 1e-12 * std::max(1.0, std::fabs(hi))) hi = lo + std::max(1.0, std::fabs(lo));
    maxTicks = std::max(2, maxTicks);
    const double raw = (hi - lo) / double(maxTicks - 1);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= raw * (1 - 1e-9)) {
            step = m * mag;
            break;
        }
    const double first = std::floor(lo / step + 1e-9) * step, last = std::ceil(hi / step - 1e-9) * step;
    if (axisLo) *axisLo = first;
    if (axisHi) *axisHi = last;
    const int decimals = std::max(0, -int(std::floor(std::log10(step) + 1e-9)));
    std::vector<Tick> out;
    for (int i = 0;; ++i) {
        const double v = first + step * i;
        if (v > last + step * 1e-6) break;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(v) < step * 1e-6 ? 0.0 : v);
        out.push_back({v, buf});
    }
    return out;
}

std::vector<Tick> log2Ticks(double lo, double hi, int maxLabels) {
    std::vector<Tick> out;
    if (!(lo > 0) || !(hi >= lo)) return out;
    const int k0 = int(std::ceil(std::log2(lo) - 1e-9)), k1 = int(std::floor(std::log2(hi) + 1e-9));
    if (k1 < k0) return out;
    const int count = k1 - k0 + 1;
    const int stride = std::max(1, (count + std::max(1, maxLabels) - 1) / std::max(1, maxLabels));
    for (int k = k0; k <= k1; ++k) {
        Tick t;
        t.value = std::ldexp(1.0, k);
        if (k % stride == 0) t.label = "2^" + std::to_string(k);
        out.push_back(t);
    }
    return out;
}

std::vector<Tick> log10Ticks(double lo, double hi, int maxTicks) {
    std::vector<Tick> out;
    if (!(lo > 0) || !(hi > lo)) return out;
    const int d0 = int(std::floor(std::log10(lo) + 1e-9)), d1 = int(std::ceil(std::log10(hi) - 1e-9));
    // 1, 2 and 5 of every decade labelled while they fit; else the powers of ten only (and the
    // others as unlabelled grid lines).
    const bool all = (d1 - d0) * 3 <= std::max(3, maxTicks);
    for (int d = d0; d <= d1; ++d)
        for (int m : {1, 2, 5}) {
            const double v = double(m) * std::pow(10.0, d);
            if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9)) continue;
            Tick t;
            t.value = v;
            if (all || m == 1) {
                char buf[32];
                std::snprintf(buf, sizeof buf, "%.*f", std::max(0, -d), v);
                t.label = buf;
            }
            out.push_back(t);
        }
    return out;
}

std::string sizeLabel(uint64_t n) {
    if (n && (n & (n - 1)) == 0) return "2^" + std::to_string(std::countr_zero(n));
    return std::to_string(n);
}

float Axis::toPixel(double v) const {
    double t;
    if (log2) {
        const double a = std::log2(lo), b = std::log2(hi);
        t = b > a && v > 0 ? (std::log2(v) - a) / (b - a) : 0.5;
    } else {
        t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
    }
    return p0 + float(t) * (p1 - p0);
}

double Axis::fromPixel(float p) const {
    const double t = p1 != p0 ? double(p - p0) / double(p1 - p0) : 0;
    if (log2) return std::exp2(std::log2(lo) + t * (std::log2(hi) - std::log2(lo)));
    return lo + t * (hi - lo);
}

// [SECTION] Rows from the --json schema -------------------------------------------------------------

namespace {

using Json = nlohmann::ordered_json;

[[noreturn]] void schemaError(size_t i, const std::string& what) {
    throw std::runtime_error("result " + std::to_string(i) + ": " + what +
                             " (expected the sortlab-bench --json schema)");
}

std::string str(const Json& o, size_t i, const char* key, bool required = true) {
    if (!o.contains(key) || o[key].is_null()) {
        if (required) schemaError(i, std::string("no \"") + key + "\"");
        return {};
    }
    if (!o[key].is_string()) schemaError(i, std::string("\"") + key + "\" is not a string");
    return o[key].get<std::string>();
}

std::optional<double> num(const Json& o, size_t i, const char* key, bool required = true) {
    if (!o.contains(key)) {
        if (required) schemaError(i, std::string("no \"") + key + "\"");
        return std::nullopt;
    }
    if (o[key].is_null()) return std::nullopt;
    if (!o[key].is_number()) schemaError(i, std::string("\"") + key + "\" is not a number");
    return o[key].get<double>();
}

} // namespace

std::vector<Row> rowsFromJson(const Json& array) {
    if (!array.is_array()) throw std::runtime_error("the results are not a JSON array (expected sortlab-bench --json)");
    std::vector<Row> rows;
    for (size_t i = 0; i < array.size(); ++i) {
        const Json& o = array[i];
        if (!o.is_object()) schemaError(i, "not an object");
        Row r;
        r.algo = str(o, i, "algo");
        r.variant = str(o, i, "variant");
        r.type = str(o, i, "type");
        r.values = str(o, i, "values");
        r.order = str(o, i, "order");
        r.dist = str(o, i, "dist");
        r.device = str(o, i, "device");
        r.driver = str(o, i, "driver", false);
        r.timer = str(o, i, "timer", false);
        r.check = str(o, i, "check", false);
        r.error = str(o, i, "error", false);
        r.chose = str(o, i, "chose", false);
        r.why = str(o, i, "why", false);
        const auto n = num(o, i, "n");
        if (!n || *n < 0) schemaError(i, "\"n\" is not a count");
        r.n = uint64_t(*n);
        r.seed = uint64_t(num(o, i, "seed", false).value_or(0));
        r.reps = uint64_t(num(o, i, "reps", false).value_or(0));
        r.medianMs = num(o, i, "median_ms").value_or(0);
        r.minMs = num(o, i, "min_ms", false).value_or(0);
        r.gkeys = num(o, i, "gkeys_per_s").value_or(0);
        if (auto b = num(o, i, "bytes_floor", false)) r.bytesFloor = uint64_t(*b);
        r.gbytes = num(o, i, "gbytes_per_s", false);
        r.speedupStd = num(o, i, "speedup_vs_std", false);
        r.speedupCub = num(o, i, "speedup_vs_cub", false);
        if (o.contains("step_ms") && o["step_ms"].is_array())
            for (const Json& s : o["step_ms"]) {
                StepTime t;
                t.label = s.value("label", std::string());
                t.kind = s.value("kind", std::string());
                if (s.contains("median_ms") && s["median_ms"].is_number()) t.ms = s["median_ms"].get<double>();
                r.steps.push_back(std::move(t));
            }
        rows.push_back(std::move(r));
    }
    // One array is one run: its std::sort rows ran on the host of its GPU rows' machine.
    std::string gpu;
    for (const Row& r : rows)
        if (r.gpu() && gpu.empty()) gpu = r.device;
    for (Row& r : rows) r.machine = r.gpu() || gpu.empty() ? r.device : gpu;
    return rows;
}

// [SECTION] The figure: series, floors, notes -------------------------------------------------------

namespace {

Colour algoColour(std::string_view algo, size_t fallbackIndex) {
    static const std::map<std::string_view, Colour> known = {
        {"oddeven", {66, 133, 244}}, {"oddeven-layer", {0, 172, 193}},      {"radix4", {245, 140, 30}},
        {"onesweep", {46, 170, 80}}, {"onesweep-fallback", {150, 90, 210}}, {"std", {128, 128, 128}},
        {"cub", {220, 50, 60}},
    };
    if (auto it = known.find(algo); it != known.end()) return it->second;
    static const Colour others[] = {{200, 80, 160}, {140, 110, 60}, {90, 90, 200}, {30, 140, 140}};
    return others[fallbackIndex % 4];
}

bool isLavapipe(const std::string& device) {
    std::string d = device;
    std::transform(d.begin(), d.end(), d.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return d.find("llvmpipe") != std::string::npos || d.find("lavapipe") != std::string::npos;
}

std::string valuesWords(const std::string& v) {
    return v == "none" ? "keys only" : "with " + v + " values";
}

} // namespace

std::optional<std::pair<double, std::string>> knownCopyBandwidth(std::string_view device) {
    // Copies of 1 GiB through a Vulkan compute shader (read + write): docs/benchmarks.md, "The devices".
    if (device.find("H200") != std::string_view::npos)
        return std::make_pair(4100.0, "H200 copy through a Vulkan compute shader, 4.0-4.2 TB/s (docs/benchmarks.md)");
    if (device.find("H100") != std::string_view::npos)
        return std::make_pair(3000.0, "H100 copy through a Vulkan compute shader, about 3.0 TB/s (docs/benchmarks.md)");
    return std::nullopt;
}

namespace {

using Config = std::tuple<std::string, std::string, std::string, std::string>; // type, values, order, dist

Config configOf(const Row& r) {
    return {r.type, r.values, r.order, r.dist};
}

template <class T> void addOnce(std::vector<T>& v, const T& x) {
    if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

bool drawn(const Row& r) {
    return r.error.empty() && r.medianMs > 0;
}

// What sets the lines of a figure apart, each in order of first appearance: the machine and tag
// (a group of lines each; the app's own sweep comes first), the algorithm, the configuration, and
// the variants of each (machine, tag, algorithm, configuration) that drew points.
struct LineKeys {
    std::vector<std::pair<std::string, std::string>> groups; // (machine, tag)
    std::vector<std::string> algos;                          // all of them (their colours)
    // Each group's, in the order of its rows.
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> algosOf;
    std::vector<Config> configs;
    std::map<std::tuple<std::string, std::string, std::string, Config>, std::vector<std::string>> variants;
    std::set<std::string> types, values, orders, dists, machines;
    std::map<std::string, std::set<std::string>> tagsOf; // per machine
};

// The variant a row's line is drawn for: its own, or for --algo auto's rows one line whatever each
// row picked (the legend and the tooltips say what).
std::string lineVariant(const Row& r) {
    return r.chose.empty() ? r.variant : std::string("auto");
}

// What --algo auto's line picked: "picked onesweep", or "picked onesweep; hybrid at 2^11" where its
// rows picked more than one (the most frequent first).
std::string pickedText(const Figure& f, const std::vector<size_t>& rows) {
    std::vector<std::pair<std::string, std::vector<uint64_t>>> picks;
    for (size_t i : rows) {
        auto it = std::find_if(picks.begin(), picks.end(), [&](const auto& p) { return p.first == f.rows[i].chose; });
        if (it == picks.end()) it = picks.insert(picks.end(), {f.rows[i].chose, {}});
        it->second.push_back(f.rows[i].n);
    }
    std::stable_sort(picks.begin(), picks.end(),
                     [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
    std::string s = "picked " + picks[0].first;
    for (size_t p = 1; p < picks.size(); ++p) {
        s += "; " + picks[p].first + " at ";
        for (size_t j = 0; j < picks[p].second.size(); ++j) s += (j ? ", " : "") + sizeLabel(picks[p].second[j]);
    }
    return s;
}

LineKeys lineKeys(const std::vector<Row>& rows) {
    LineKeys k;
    for (const Row& r : rows) {
        addOnce(k.groups, {r.machine, r.tag});
        addOnce(k.algos, r.algo);
        addOnce(k.algosOf[{r.machine, r.tag}], r.algo);
        addOnce(k.configs, configOf(r));
        k.types.insert(r.type), k.values.insert(r.values), k.orders.insert(r.order), k.dists.insert(r.dist);
        k.machines.insert(r.machine);
        k.tagsOf[r.machine].insert(r.tag);
        if (drawn(r)) addOnce(k.variants[{r.machine, r.tag, r.algo, configOf(r)}], lineVariant(r));
    }
    return k;
}

// A machine as a label names it: without the driver's details in brackets ("llvmpipe (LLVM 15.0.6,
// 256 bits)" is "llvmpipe"; the heading and the tooltips give the whole name).
std::string shortMachine(const std::string& m) {
    const size_t open = m.find(" (");
    return open != std::string::npos && open > 0 && m.back() == ')' ? m.substr(0, open) : m;
}

// "radix4", then what tells it from the figure's other lines: the configuration where the rows hold
// several, the variant where its machine ran several, the machine, the tag.
std::string lineLabel(const Series& s, const Row& r, const LineKeys& k, bool variant, bool machine) {
    std::string l = s.algo;
    if (s.algo == "std") l = std::string(r.values != "none" ? "std::stable_sort" : "std::sort") + " (1 host core)";
    if (s.algo == "cub") l = "CUB DeviceRadixSort";
    if (k.types.size() > 1) l += " " + r.type;
    if (k.values.size() > 1) l += r.values == "none" ? " keys" : " kv";
    if (k.orders.size() > 1) l += " " + r.order;
    if (k.dists.size() > 1) l += " " + r.dist;
    if (variant) l += " (" + r.variant + ")";
    if (machine) l += ", " + shortMachine(s.machine);
    if (!s.tag.empty() && k.tagsOf.at(s.machine).size() > 1) l += " (" + s.tag + ")";
    return l;
}

// One series per (machine and tag, algorithm, configuration, variant), a machine's lines together.
void buildSeries(Figure& f, bool labelMachines) {
    const LineKeys k = lineKeys(f.rows);
    const bool machines = labelMachines || k.machines.size() > 1;
    std::set<uint64_t> sizes;
    for (size_t g = 0; g < k.groups.size(); ++g)
        for (const std::string& algo : k.algosOf.at(k.groups[g]))
            for (size_t ci = 0; ci < k.configs.size(); ++ci) {
                const auto& [machine, tag] = k.groups[g];
                const auto it = k.variants.find({machine, tag, algo, k.configs[ci]});
                if (it == k.variants.end()) continue;
                for (const std::string& variant : it->second) {
                    Series s;
                    s.algo = algo;
                    s.machine = machine;
                    s.tag = tag;
                    const auto nth = std::find(k.algos.begin(), k.algos.end(), algo) - k.algos.begin();
                    s.colour = algoColour(s.algo, size_t(nth));
                    s.dashed = s.algo == "std";
                    s.marker = int(g * k.configs.size() + ci); // another machine: another shape
                    for (size_t i = 0; i < f.rows.size(); ++i) {
                        const Row& r = f.rows[i];
                        if (drawn(r) && r.machine == machine && r.tag == tag && r.algo == s.algo &&
                            lineVariant(r) == variant && configOf(r) == k.configs[ci])
                            s.rows.push_back(i);
                    }
                    std::stable_sort(s.rows.begin(), s.rows.end(),
                                     [&](size_t x, size_t y) { return f.rows[x].n < f.rows[y].n; });
                    s.label = lineLabel(s, f.rows[s.rows[0]], k, it->second.size() > 1, machines);
                    if (!f.rows[s.rows[0]].chose.empty()) s.label += " (" + pickedText(f, s.rows) + ")";
                    for (size_t i : s.rows) sizes.insert(f.rows[i].n);
                    f.series.push_back(std::move(s));
                }
            }
    f.sizes.assign(sizes.begin(), sizes.end());
}

// The devices, the lavapipe warning, what the rows share and how they were timed. Returns the
// first GPU row's device.
std::string describeRuns(Figure& f) {
    std::vector<std::string> devices;
    std::string firstGpu;
    for (const Row& r : f.rows) {
        if (!r.gpu()) continue;
        if (firstGpu.empty()) firstGpu = r.device;
        addOnce(devices, r.device + (r.driver.empty() ? "" : ", driver " + r.driver));
        f.lavapipe |= isLavapipe(r.device);
    }
    for (size_t i = 0; i < devices.size(); ++i) f.devices += (i ? "; " : "") + devices[i];
    if (f.devices.empty()) f.devices = "host CPU only";

    std::vector<Config> configs;
    for (const Row& r : f.rows) addOnce(configs, configOf(r));
    if (configs.size() == 1) {
        const auto& [type, val, order, dist] = configs[0];
        f.workload = type + " keys, " + valuesWords(val) + ", " + order + ", " + dist;
        if (!f.rows.empty()) f.workload += ", seed " + std::to_string(f.rows[0].seed);
    } else {
        f.workload =
            std::to_string(configs.size()) + " configurations (key type, values, order, distribution: see the legend)";
    }
    uint64_t reps = 0;
    bool timestamps = false, wall = false;
    for (const Row& r : f.rows) {
        reps = std::max(reps, r.reps);
        timestamps |= r.timer == "gpu timestamps";
        wall |= r.timer == "wall clock";
    }
    f.timing = "median of " + std::to_string(reps) + " rep" + (reps == 1 ? "" : "s") + " after warm-up";
    if (timestamps) f.timing += "; GPU sorts timed by GPU timestamps (no upload or readback)";
    if (wall) f.timing += "; GPU sorts timed by the wall clock (no timestamps)";
    if (std::any_of(f.rows.begin(), f.rows.end(), [](const Row& r) { return r.algo == "std"; }))
        f.timing += "; std::sort on one host core";
    return firstGpu;
}

// Several machines' GPU lines, no figure given: each machine's known copy bandwidth (none on
// lavapipe, whose memory is host RAM, or where none is known).
void perMachineBandwidth(Figure& f, const std::vector<std::string>& machines) {
    std::string with, without;
    std::set<double> figures;
    for (const std::string& m : machines) {
        const auto known = isLavapipe(m) ? std::nullopt : knownCopyBandwidth(m);
        if (!known) {
            without +=
                (without.empty() ? "" : ", ") + m + (isLavapipe(m) ? ", lavapipe, whose memory is host RAM" : "");
            continue;
        }
        f.machineBandwidth[m] = known->first;
        figures.insert(known->first);
        if (f.bandwidthGBs == 0) f.bandwidthGBs = known->first;
        with +=
            (with.empty() ? "" : "; ") + sig3(known->first) + " GB/s for " + m + " (bandwidth: " + known->second + ")";
    }
    f.floorsPerMachine = figures.size() > 1;
    if (with.empty())
        f.bandwidthNote = "no bandwidth floor: no GPU copy bandwidth is known for " + without +
                          " (give one: --bandwidth GB/s, or type it in the panel)";
    else
        f.bandwidthNote = "dotted: each GPU sort's bandwidth floor, its machine's copy bandwidth over the bytes its "
                          "plan must move (Plan::bytesMovedFloor): " +
                          with + (without.empty() ? "" : "; none for " + without);
}

// One bandwidth for every GPU line: the given figure; none; or (bandwidthGBs < 0) the known
// figure of the rows' device.
double oneBandwidth(Figure& f, const FigureOptions& options, const std::string& firstGpu) {
    double bw = options.bandwidthGBs;
    std::string source = options.bandwidthSource;
    if (bw < 0) {
        bw = 0;
        if (f.lavapipe)
            f.bandwidthNote = "no bandwidth floor: lavapipe's memory is host RAM and its copies run on the CPU, so "
                              "there is no GPU bandwidth to compare with";
        else if (auto known = knownCopyBandwidth(firstGpu)) {
            bw = known->first;
            source = known->second;
        } else if (!firstGpu.empty())
            f.bandwidthNote = "no bandwidth floor: no copy bandwidth is known for " + firstGpu +
                              " (give one: --bandwidth GB/s, or type it in the panel)";
    } else if (bw == 0) {
        f.bandwidthNote = "no bandwidth floor drawn (no copy bandwidth given)";
    }
    if (bw > 0)
        f.bandwidthNote = "dotted: each GPU sort's bandwidth floor, " + sig3(bw) +
                          " GB/s copy bandwidth over the bytes its plan must move (Plan::bytesMovedFloor)" +
                          (source.empty() ? "" : "; bandwidth: " + source);
    return bw;
}

// The bandwidth floor of each GPU line (bandwidth / bytes_floor per key), and the note that says
// what the floors are.
void applyFloors(Figure& f, const FigureOptions& options, const std::string& firstGpu) {
    std::vector<std::string> machines; // with GPU lines
    for (const Series& s : f.series)
        if (s.algo != "std") addOnce(machines, s.machine);
    if (options.bandwidthGBs < 0 && machines.size() > 1) {
        perMachineBandwidth(f, machines);
    } else {
        f.bandwidthGBs = oneBandwidth(f, options, firstGpu);
        if (f.bandwidthGBs > 0)
            for (const std::string& m : machines) f.machineBandwidth[m] = f.bandwidthGBs;
    }
    for (Series& s : f.series) {
        const auto it = f.machineBandwidth.find(s.machine);
        const double bw = s.algo == "std" || it == f.machineBandwidth.end() ? 0 : it->second;
        for (size_t i : s.rows) {
            const Row& r = f.rows[i];
            s.floorGkeys.push_back(bw > 0 && r.bytesFloor && *r.bytesFloor > 0
                                       ? bw * double(r.n) / double(*r.bytesFloor)
                                       : std::numeric_limits<double>::quiet_NaN());
        }
    }
}

} // namespace

Figure makeFigure(std::vector<Row> rows, const FigureOptions& options) {
    Figure f;
    f.rows = std::move(rows);
    f.title = options.title.empty() ? "sortlab benchmark" : options.title;
    f.nMin = options.nMin;
    f.nMax = options.nMax;
    buildSeries(f, options.labelMachines);
    const std::string firstGpu = describeRuns(f);
    applyFloors(f, options, firstGpu);
    for (const Row& r : f.rows)
        if (!r.error.empty()) f.errors.push_back(r.algo + " n=" + sizeLabel(r.n) + ": " + r.error);
    return f;
}

double rowBandwidth(const Figure& f, size_t row) {
    if (row >= f.rows.size() || !f.rows[row].gpu()) return 0;
    const auto it = f.machineBandwidth.find(f.rows[row].machine);
    return it == f.machineBandwidth.end() ? 0 : it->second;
}

// [SECTION] Step groups, tooltips ----------------------------------------------------------------------

std::string stepGroup(std::string_view algo, std::string_view kind) {
    (void)algo;
    if (kind == "tile") return "tile (in registers)";
    if (kind == "window") return "windows (fused, in registers)";
    if (kind == "layer") return "global layers";
    if (kind == "pass") return "passes";
    if (kind == "result") return "copy result";
    if (kind == "bounds") return "bucket bounds";
    if (kind == "bucket") return "bucket sort (on chip)";
    return std::string(kind);
}

Colour groupColour(std::string_view g) {
    static const std::map<std::string_view, Colour> known = {
        {"tile (in registers)", {120, 190, 250}},
        {"windows (fused, in registers)", {66, 133, 244}},
        {"global layers", {235, 95, 70}},
        {"histogram", {235, 185, 20}},
        {"scan", {160, 160, 170}},
        {"passes", {46, 170, 80}},
        {"count", {255, 215, 140}},
        {"scatter", {245, 140, 30}},
        {"copy result", {150, 90, 210}},
        {"bucket bounds", {40, 190, 200}},
        {"bucket sort (on chip)", {230, 90, 160}},
    };
    if (auto it = known.find(g); it != known.end()) return it->second;
    return {140, 140, 140};
}

uint64_t defaultBreakdownN(const Figure& f) {
    uint64_t best = 0;
    for (const Row& r : f.rows)
        if (r.algo != "std" && !r.steps.empty() && r.error.empty()) best = std::max(best, r.n);
    return best;
}

// Text in lines of at most about `width` characters, broken at spaces.
std::string wrapChars(const std::string& text, size_t width) {
    std::string out, line;
    size_t at = 0;
    while (at < text.size()) {
        size_t next = text.find(' ', at);
        if (next == std::string::npos) next = text.size();
        const std::string word = text.substr(at, next - at);
        if (!line.empty() && line.size() + 1 + word.size() > width) out += line + "\n", line.clear();
        line += (line.empty() ? "" : " ") + word;
        at = next + 1;
    }
    return out + line;
}

std::string describeRow(const Row& r, double bandwidthGBs) {
    std::string s = r.algo + " (" + r.variant + ")\n";
    if (!r.chose.empty()) // --algo auto: its row's time is the pick's sort (the pick is not timed)
        s = r.algo + ", which picked " + r.chose + " (" + r.variant.substr(r.variant.find(':') + 1) +
            "); the time is that sort's\n";
    s += "n = " + sizeLabel(r.n) + (sizeLabel(r.n) != std::to_string(r.n) ? " (" + std::to_string(r.n) + ")" : "") +
         ", " + r.type + " keys, " + valuesWords(r.values) + ", " + r.order + ", " + r.dist + "\n";
    if (!r.error.empty()) return s + "error: " + r.error;
    char buf[256];
    std::snprintf(buf, sizeof buf, "median %.4g ms, min %.4g ms (%llu reps, %s)\n", r.medianMs, r.minMs,
                  (unsigned long long)r.reps, r.timer.c_str());
    s += buf;
    s += sig3(r.gkeys) + " Gkeys/s";
    if (r.gbytes && r.bytesFloor) {
        s += "; " + sig3(*r.gbytes) + " GB/s of the floor (" + sig3(double(*r.bytesFloor) / double(r.n)) + " B/key)";
        if (bandwidthGBs > 0)
            s += ", " + sig3(100.0 * *r.gbytes / bandwidthGBs) + "% of " + sig3(bandwidthGBs) + " GB/s";
    }
    s += "\n";
    if (r.speedupStd) s += sig3(*r.speedupStd) + "x std::sort";
    if (r.speedupCub) s += std::string(r.speedupStd ? ", " : "") + sig3(*r.speedupCub) + "x CUB";
    if (r.speedupStd || r.speedupCub) s += "\n";
    s += "check: " + r.check + "; " + r.device;
    if (!r.why.empty()) s += "\nwhy: " + wrapChars(r.why, 60);
    return s;
}

// [SECTION] Drawing: the throughput plot -----------------------------------------------------------

Theme lightTheme() {
    return {{255, 255, 255}, {30, 30, 35},  {100, 100, 110},     {228, 228, 232},
            {60, 60, 70},    {200, 60, 20}, {255, 255, 255, 230}};
}

Theme darkTheme() {
    return {{22, 23, 28},    {230, 230, 235}, {150, 150, 160},  {52, 54, 62},
            {170, 170, 180}, {255, 140, 60},  {30, 31, 38, 235}};
}

namespace {

// The extent of the points (and floors) that the throughput plot's axes must hold.
struct ThroughputRanges {
    double nLo = 0, nHi = 0, yMin = 0, yMax = 0, floorMax = 0;
};

// Ranges: every point and every floor up to 3x the fastest point (higher floors are marked at the
// top edge instead, so that they do not squash the measurements).
ThroughputRanges throughputRanges(const Figure& f) {
    ThroughputRanges g;
    double& nLo = g.nLo;
    double& nHi = g.nHi;
    for (const Series& se : f.series)
        for (size_t i : se.rows) {
            const Row& r = f.rows[i];
            nLo = nLo == 0 ? double(r.n) : std::min(nLo, double(r.n));
            nHi = std::max(nHi, double(r.n));
            g.yMax = std::max(g.yMax, r.gkeys);
            if (r.gkeys > 0) g.yMin = g.yMin == 0 ? r.gkeys : std::min(g.yMin, r.gkeys);
        }
    if (f.nMin) nLo = nLo == 0 ? double(f.nMin) : std::min(nLo, double(f.nMin));
    if (f.nMax) nHi = std::max(nHi, double(f.nMax));
    if (nLo == 0) nLo = 1024, nHi = 1 << 20;
    for (const Series& se : f.series)
        for (double v : se.floorGkeys)
            if (std::isfinite(v)) g.floorMax = std::max(g.floorMax, v);
    return g;
}

// The Gkeys/s axis: linear or log, its ends and its ticks.
struct YAxisChoice {
    bool logY = false;
    double axisLo = 0, axisHi = 1;
    std::vector<Tick> ticks;
};

YAxisChoice chooseYAxis(const ThroughputRanges& g, Rect area, const Style& s) {
    YAxisChoice y;
    const float fs = s.fontSize;
    const double dataMax = g.yMax > 0 ? g.yMax : 1;
    double yTop = std::max(dataMax, std::min(g.floorMax, dataMax * 3));
    // Leave room for the tick labels: about one tick per 3 lines of text.
    const int maxTicks = std::clamp(int(area.h() / (fs * 3)), 3, 10);
    // A log axis when asked, or (auto) when the points span more than 30x: std::sort and a GPU
    // sort differ by 100x and more, and a linear axis would flatten the slower one.
    y.logY = s.logY > 0 || (s.logY < 0 && g.yMin > 0 && g.yMax / g.yMin > 30);
    if (y.logY) {
        // The nearest 1, 2 or 5 times a power of ten below and above the points.
        auto below = [](double v) {
            const double d = std::pow(10.0, std::floor(std::log10(v)));
            return v >= 5 * d ? 5 * d : v >= 2 * d ? 2 * d : d;
        };
        auto above = [](double v) {
            const double d = std::pow(10.0, std::floor(std::log10(v)));
            return v <= d ? d : v <= 2 * d ? 2 * d : v <= 5 * d ? 5 * d : 10 * d;
        };
        y.axisLo = below(g.yMin / 1.15);
        y.axisHi = above(yTop * 1.15);
        y.ticks = log10Ticks(y.axisLo, y.axisHi, maxTicks);
    } else {
        y.ticks = linearTicks(0, yTop * 1.04, maxTicks, &y.axisLo, &y.axisHi);
    }
    return y;
}

// The legend: its entries (every series, and the floor), their text size, their columns and its box.
struct Legend {
    struct Entry {
        std::string label;
        int series = -1; // -1: no line sample
        bool floor = false;
    };
    std::vector<Entry> entries;
    float text = 0, rowH = 0, sample = 0, colW = 0;
    size_t rowsPerCol = 1;
    Rect box{};
};

// Counts how much of the plotted points and lines a legend box would cover.
int legendCovers(const ThroughputLayout& L, const Figure& f, const Rect& box) {
    int count = 0;
    for (const Series& se : f.series)
        for (size_t k = 0; k < se.rows.size(); ++k) {
            const Row& r = f.rows[se.rows[k]];
            const Vec2 p{L.x.toPixel(double(r.n)), L.y.toPixel(r.gkeys)};
            count += box.contains(p) ? 4 : 0;
            if (k + 1 == se.rows.size()) continue;
            const Row& q = f.rows[se.rows[k + 1]];
            const Vec2 p1{L.x.toPixel(double(q.n)), L.y.toPixel(q.gkeys)};
            for (int j = 1; j < 8; ++j) {
                const float u = float(j) / 8;
                count += box.contains({p.x + (p1.x - p.x) * u, p.y + (p1.y - p.y) * u});
            }
        }
    return count;
}

// The entries' rows, sample and column width at text size `size`.
void measureLegend(Canvas& c, Legend& g, float size) {
    g.text = size;
    g.rowH = size * 1.25f;
    g.sample = size * 2.2f;
    float widest = 0;
    for (const Legend::Entry& e : g.entries) widest = std::max(widest, c.textWidth(e.label, size));
    g.colW = size * 0.8f + g.sample + widest + size * 0.8f;
}

// One column inside the plot, in the corner that covers the fewest points and line samples (top
// left first: throughput grows with n, so that corner is often empty); with `clear`, only in a
// corner that covers none. False where it does not go.
bool placeInCorner(Legend& g, const ThroughputLayout& L, const Figure& f, float fs, bool clear) {
    g.rowsPerCol = g.entries.size();
    const float bw = g.colW, bh = g.text * 0.4f + g.rowH * float(g.rowsPerCol);
    const float mx = fs * 0.6f, my = fs * 0.5f;
    if (bw + 2 * mx > L.plot.w() || bh + 2 * my > L.plot.h()) return false;
    const Rect corners[4] = {{L.plot.x0 + mx, L.plot.y0 + my, L.plot.x0 + mx + bw, L.plot.y0 + my + bh},
                             {L.plot.x1 - mx - bw, L.plot.y0 + my, L.plot.x1 - mx, L.plot.y0 + my + bh},
                             {L.plot.x1 - mx - bw, L.plot.y1 - my - bh, L.plot.x1 - mx, L.plot.y1 - my},
                             {L.plot.x0 + mx, L.plot.y1 - my - bh, L.plot.x0 + mx + bw, L.plot.y1 - my}};
    int best = 0, bestCount = INT32_MAX;
    for (int k = 0; k < 4; ++k)
        if (const int n = legendCovers(L, f, corners[k]); n < bestCount) bestCount = n, best = k;
    if (clear && bestCount > 0) return false;
    g.box = corners[best];
    return true;
}

// The floor's legend entry: its bandwidth (the note under the plot says whose, where it is only
// some machines': a longer entry here would shrink the whole legend's text on a projector).
std::string floorLegend(const Figure& f) {
    if (f.floorsPerMachine) return "bandwidth floors (each machine's copy bandwidth)";
    return "bandwidth floor (" + sig3(f.bandwidthGBs) + " GB/s)";
}

// Beside the plot, in `cols` columns from its top (the plot narrows: L.plot and L.x change).
void placeBeside(Legend& g, ThroughputLayout& L, size_t cols, float fs) {
    g.rowsPerCol = (g.entries.size() + cols - 1) / cols;
    const float bw = g.colW * float(cols), bh = g.text * 0.4f + g.rowH * float(g.rowsPerCol);
    L.plot.x1 -= bw + fs * 0.6f;
    L.x.p1 = L.plot.x1;
    g.box = {L.plot.x1 + fs * 0.6f, L.plot.y0, L.plot.x1 + fs * 0.6f + bw, L.plot.y0 + bh};
}

// Under the plot, across the area's width, in as many columns as it holds, if its rows take at
// most `share` of the height (the plot gives it up: L.plot, L.y and area change).
bool placeBelow(Legend& g, ThroughputLayout& L, Rect& area, float share, float fs) {
    const size_t cols = std::clamp(size_t(area.w() / g.colW), size_t(1), g.entries.size());
    const size_t rows = (g.entries.size() + cols - 1) / cols;
    const float bh = g.text * 0.4f + g.rowH * float(rows);
    if (bh > area.h() * share) return false;
    g.rowsPerCol = rows;
    g.box = {area.x0, area.y1 - bh, area.x0 + g.colW * float(cols), area.y1};
    area.y1 -= bh + fs * 0.5f;
    L.plot.y1 -= bh + fs * 0.5f;
    L.y.p0 = L.plot.y1;
    return true;
}

// Every line has an entry, never "+ N more". Tried in turn, at the full text size, then at 85% and
// 70% of it: one column in a corner of the plot that covers no point or line, or beside the plot
// while it keeps three quarters of the width (a legend of several columns: more than half). Then,
// at the same sizes, under the plot where it takes at most a third of the height. Then one column
// in the corner that covers the least; and at last under the plot, at 60% of the text size.
Legend placeLegend(Canvas& c, ThroughputLayout& L, Rect& area, const Figure& f, const Style& s) {
    Legend g;
    const float fs = s.fontSize, small = fs * s.smallScale;
    for (size_t i = 0; i < f.series.size(); ++i) g.entries.push_back({f.series[i].label, int(i), false});
    bool anyFloorValue = false;
    for (const Series& se : f.series)
        for (double v : se.floorGkeys) anyFloorValue |= std::isfinite(v);
    if (anyFloorValue) g.entries.push_back({floorLegend(f), -1, true});
    if (g.entries.empty()) return g;
    const float scales[] = {1.0f, 0.85f, 0.7f};
    for (const float scale : scales) {
        measureLegend(c, g, small * scale);
        const size_t maxRows = size_t(std::max(1.0f, (L.plot.h() - g.text * 0.9f) / g.rowH));
        const size_t cols = (g.entries.size() + maxRows - 1) / maxRows;
        if (cols == 1 && placeInCorner(g, L, f, fs, true)) return g;
        if (cols == 1 ? area.w() > g.colW * 4 : area.w() >= g.colW * float(cols) * 2.2f)
            return placeBeside(g, L, cols, fs), g;
    }
    for (const float scale : scales) {
        measureLegend(c, g, small * scale);
        if (placeBelow(g, L, area, 1.0f / 3, fs)) return g;
    }
    if (placeInCorner(g, L, f, fs, false)) return g; // (at 70%)
    measureLegend(c, g, small * 0.6f);
    placeBelow(g, L, area, 1.0f, fs);
    return g;
}

// Axis titles, the grid, the ticks and their labels, the axis lines.
void drawThroughputAxes(Canvas& c, const ThroughputLayout& L, Rect area, const YAxisChoice& y, const Style& s) {
    const Theme& t = s.theme;
    const float fs = s.fontSize, small = fs * s.smallScale;
    c.text({area.x0, area.y0}, y.logY ? "Gkeys/s (n / median time, log scale)" : "Gkeys/s (n / median time)", t.text,
           fs);
    c.text({L.plot.x1, area.y1}, "n, keys (log scale)", t.muted, small, HAlign::right, VAlign::bottom);
    for (const Tick& tk : y.ticks) {
        const float py = L.y.toPixel(tk.value);
        c.line({L.plot.x0, py}, {L.plot.x1, py}, tk.label.empty() ? withAlpha(t.grid, 110) : t.grid, 1);
        if (!tk.label.empty())
            c.text({L.plot.x0 - fs * 0.4f, py}, tk.label, t.muted, small, HAlign::right, VAlign::middle);
    }
    const int maxLabels = std::max(2, int(L.plot.w() / c.textWidth("2^20  ", small)));
    for (const Tick& tk : log2Ticks(L.x.lo, L.x.hi, maxLabels)) {
        const float x = L.x.toPixel(tk.value);
        c.line({x, L.plot.y0}, {x, L.plot.y1}, tk.label.empty() ? withAlpha(t.grid, 120) : t.grid, 1);
        c.line({x, L.plot.y1}, {x, L.plot.y1 + fs * 0.3f}, t.axis, 1);
        if (!tk.label.empty()) c.text({x, L.plot.y1 + fs * 0.35f}, tk.label, t.muted, small, HAlign::centre);
    }
    c.line({L.plot.x0, L.plot.y1}, {L.plot.x1, L.plot.y1}, t.axis, 1);
    c.line({L.plot.x0, L.plot.y0}, {L.plot.x0, L.plot.y1}, t.axis, 1);
}

// The floors (under the measurements), dotted, in the series' colour. Series with the same floor
// at the same sizes (u32 and f32 keys; onesweep and its forced fallback) share one line, drawn in
// the first one's colour. Returns the floors above the axis (label, colour).
std::vector<std::pair<std::string, Colour>> drawFloorLines(Canvas& c, const ThroughputLayout& L, const Figure& f,
                                                           const Style& s, double axisHi) {
    const float fs = s.fontSize;
    std::vector<std::pair<std::string, Colour>> floorsAbove;
    std::vector<std::vector<std::pair<uint64_t, double>>> drawnFloors;
    for (const Series& se : f.series) {
        std::vector<Vec2> pts;
        std::vector<std::pair<uint64_t, double>> key;
        bool above = false;
        for (size_t k = 0; k < se.rows.size(); ++k) {
            const double g = se.floorGkeys[k];
            if (!std::isfinite(g)) continue;
            above |= g > axisHi;
            key.push_back({f.rows[se.rows[k]].n, g});
            pts.push_back({L.x.toPixel(double(f.rows[se.rows[k]].n)), L.y.toPixel(std::min(g, axisHi * 1.05))});
        }
        if (pts.empty()) continue;
        if (std::find(drawnFloors.begin(), drawnFloors.end(), key) != drawnFloors.end()) continue;
        drawnFloors.push_back(key);
        const Colour fc = withAlpha(se.colour, 190);
        if (pts.size() == 1 && !above)
            c.dashedLine({pts[0].x - fs, pts[0].y}, {pts[0].x + fs, pts[0].y}, fc, s.lineWidth * 0.75f, 2, 3);
        for (size_t k = 1; k < pts.size(); ++k) c.dashedLine(pts[k - 1], pts[k], fc, s.lineWidth * 0.75f, 2, 3);
        if (above) floorsAbove.push_back({se.label + " floor above ^", se.colour});
    }
    return floorsAbove;
}

// The measurements: one line per series, then the markers (the highlighted row's larger, on a
// halo). Fills L.points.
void drawSeries(Canvas& c, ThroughputLayout& L, const Figure& f, const Style& s, std::optional<size_t> highlightRow) {
    for (size_t si = 0; si < f.series.size(); ++si) {
        const Series& se = f.series[si];
        Vec2 prev{};
        for (size_t k = 0; k < se.rows.size(); ++k) {
            const Row& r = f.rows[se.rows[k]];
            const Vec2 p{L.x.toPixel(double(r.n)), L.y.toPixel(r.gkeys)};
            if (k) {
                if (se.dashed)
                    c.dashedLine(prev, p, se.colour, s.lineWidth, 6, 4);
                else
                    c.line(prev, p, se.colour, s.lineWidth);
            }
            prev = p;
            L.points.push_back({p, si, se.rows[k]});
        }
    }
    for (const auto& pt : L.points) {
        const Series& se = f.series[pt.series];
        const bool hot = highlightRow && *highlightRow == pt.row;
        if (hot) c.fillCircle(pt.at, s.markerRadius * 2.4f, withAlpha(se.colour, 90));
        c.marker(pt.at, se.marker, s.markerRadius * (hot ? 1.6f : 1.0f), se.colour);
    }
}

// Floors above the axis: a label at the top edge (at most three named; then how many more).
void drawFloorsAbove(Canvas& c, const ThroughputLayout& L, const Style& s,
                     const std::vector<std::pair<std::string, Colour>>& floorsAbove) {
    const Theme& t = s.theme;
    const float fs = s.fontSize, small = fs * s.smallScale;
    for (size_t k = 0; k < floorsAbove.size() && k < 4; ++k) {
        const bool more = k == 3 && floorsAbove.size() > 4;
        c.text({L.plot.x1 - fs * 0.3f, L.plot.y0 + fs * 0.2f + float(k) * fs * 1.1f},
               more ? "+ " + std::to_string(floorsAbove.size() - 3) + " more floors above ^" : floorsAbove[k].first,
               more ? t.muted : floorsAbove[k].second, small, HAlign::right);
    }
}

// The legend's box and its entries: a line sample (with a marker) or a floor sample, and a label.
void drawLegend(Canvas& c, const Legend& g, const Figure& f, const Style& s) {
    if (g.entries.empty()) return;
    const Theme& t = s.theme;
    const float ts = g.text;
    const Rect box = g.box;
    c.fillRect(box, t.legendBackground);
    c.strokeRect(box, t.grid, 1);
    for (size_t i = 0; i < g.entries.size(); ++i) {
        const float x0 = box.x0 + g.colW * float(i / g.rowsPerCol);
        const float y = box.y0 + ts * 0.2f + g.rowH * (float(i % g.rowsPerCol) + 0.5f);
        const Vec2 a{x0 + ts * 0.4f, y}, b{x0 + ts * 0.4f + g.sample, y};
        const Legend::Entry& e = g.entries[i];
        if (e.series >= 0) {
            const Series& se = f.series[size_t(e.series)];
            if (se.dashed)
                c.dashedLine(a, b, se.colour, s.lineWidth, 6, 4);
            else
                c.line(a, b, se.colour, s.lineWidth);
            c.marker({(a.x + b.x) / 2, y}, se.marker, s.markerRadius, se.colour);
        } else if (e.floor) {
            c.dashedLine(a, b, t.muted, s.lineWidth * 0.75f, 2, 3);
        }
        c.text({b.x + ts * 0.4f, y}, e.label, t.text, ts, HAlign::left, VAlign::middle);
    }
}

} // namespace

ThroughputLayout drawThroughput(Canvas& c, Rect area, const Figure& f, const Style& s,
                                std::optional<size_t> highlightRow) {
    ThroughputLayout L;
    const Theme& t = s.theme;
    const float fs = s.fontSize, small = fs * s.smallScale;
    const ThroughputRanges ranges = throughputRanges(f);
    const YAxisChoice y = chooseYAxis(ranges, area, s);
    float labelW = 0;
    for (const Tick& tk : y.ticks) labelW = std::max(labelW, c.textWidth(tk.label, small));

    L.plot = {area.x0 + labelW + fs * 0.8f, area.y0 + fs * 1.6f, area.x1 - fs * 0.8f, area.y1 - fs * 2.6f};
    if (L.plot.w() < 40 || L.plot.h() < 40) return L;
    L.x = {ranges.nLo / 1.3, ranges.nHi * 1.3, true, L.plot.x0, L.plot.x1};
    L.y = {y.logY ? y.axisLo : 0, y.axisHi, y.logY, L.plot.y1, L.plot.y0};

    Rect axesArea = area;
    const Legend legend = placeLegend(c, L, axesArea, f, s);
    drawThroughputAxes(c, L, axesArea, y, s);
    // A guide at the highlighted point's n.
    if (highlightRow && *highlightRow < f.rows.size()) {
        const float x = L.x.toPixel(double(f.rows[*highlightRow].n));
        c.dashedLine({x, L.plot.y0}, {x, L.plot.y1}, t.muted, 1, 4, 3);
    }
    c.pushClip(L.plot);
    const auto floorsAbove = drawFloorLines(c, L, f, s, y.axisHi);
    drawSeries(c, L, f, s, highlightRow);
    c.popClip();
    drawFloorsAbove(c, L, s, floorsAbove);
    drawLegend(c, legend, f, s);
    if (f.series.empty())
        c.text({(L.plot.x0 + L.plot.x1) / 2, (L.plot.y0 + L.plot.y1) / 2}, "no results yet", t.muted, fs,
               HAlign::centre, VAlign::middle);
    return L;
}

std::optional<size_t> nearestPoint(const ThroughputLayout& L, Vec2 p, float maxDistance) {
    std::optional<size_t> best;
    float bestD = maxDistance * maxDistance;
    for (size_t i = 0; i < L.points.size(); ++i) {
        const float dx = L.points[i].at.x - p.x, dy = L.points[i].at.y - p.y, d = dx * dx + dy * dy;
        if (d <= bestD) bestD = d, best = i;
    }
    return best;
}

// [SECTION] Drawing: the per-step breakdown ----------------------------------------------------------

namespace {

// The step groups of rows' steps in order of first appearance.
std::vector<std::string> groupsInOrder(const Figure& f, const std::vector<size_t>& rows) {
    std::vector<std::string> groups;
    for (size_t i : rows)
        for (const StepTime& st : f.rows[i].steps) {
            const std::string g = stepGroup(f.rows[i].algo, st.kind);
            if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
        }
    return groups;
}

double totalMs(const Row& r) {
    double total = 0;
    for (const StepTime& st : r.steps) total += st.ms;
    return total;
}

// Where the breakdown's legend entries go: from x0, wrapped onto as many rows as they need.
struct BreakdownLegend {
    std::vector<float> x;
    std::vector<int> row;
    int rows() const { return row.empty() ? 1 : row.back() + 1; }
};
BreakdownLegend placeBreakdownLegend(Canvas& c, const std::vector<std::string>& groups, float x0, float x1,
                                     const Style& s) {
    const float fs = s.fontSize, small = fs * s.smallScale;
    BreakdownLegend L;
    float x = x0;
    int row = 0;
    for (const std::string& g : groups) {
        const float w = fs * 2.2f + c.textWidth(g, small);
        if (x + w > x1 && !L.x.empty() && x > x0 + fs * 0.2f) {
            x = x0;
            ++row;
        }
        L.x.push_back(x);
        L.row.push_back(row);
        x += w;
    }
    return L;
}

// One row's bar at y: a segment per step group (in order of first appearance) with a thin
// separator after each of its steps, its time inside where it fits, and the total after the bar.
void drawBreakdownBar(Canvas& c, BreakdownLayout& L, const Figure& f, size_t row, const Axis& ax, float y, float barH,
                      const Style& s) {
    const Theme& t = s.theme;
    const float fs = s.fontSize, small = fs * s.smallScale;
    const Row& r = f.rows[row];
    double at = 0;
    for (const std::string& g : groupsInOrder(f, {row})) {
        BreakdownLayout::Segment seg;
        seg.row = row;
        seg.group = g;
        const double start = at;
        std::vector<float> cuts;
        for (const StepTime& st : r.steps)
            if (stepGroup(r.algo, st.kind) == g) {
                at += st.ms;
                seg.ms += st.ms;
                ++seg.steps;
                cuts.push_back(ax.toPixel(at));
            }
        seg.r = {ax.toPixel(start), y, std::max(ax.toPixel(at), ax.toPixel(start) + 1), y + barH};
        c.fillRect(seg.r, groupColour(g));
        if (seg.steps > 1 && seg.r.w() / float(seg.steps) > 3)
            for (size_t j = 0; j + 1 < cuts.size(); ++j)
                c.line({cuts[j], y + 1}, {cuts[j], y + barH - 1}, withAlpha(t.background, 150), 1);
        const std::string inside = sig3(seg.ms);
        const float tw = c.textWidth(inside, small);
        if (seg.r.w() > tw + fs * 0.6f && barH >= small * 1.05f) {
            const float cx = (seg.r.x0 + seg.r.x1) / 2;
            c.fillRect({cx - tw / 2 - 3, y + 2, cx + tw / 2 + 3, y + barH - 2}, groupColour(g));
            c.text({cx, y + barH / 2}, inside, {20, 20, 24}, small, HAlign::centre, VAlign::middle);
        }
        L.segments.push_back(seg);
    }
    const double total = totalMs(r);
    c.text({ax.toPixel(total) + fs * 0.4f, y + barH / 2}, sig3(total) + " ms", t.text, small, HAlign::left,
           VAlign::middle);
}

// The series' label of each row (the algorithm's name for a row in no series).
std::vector<std::string> rowLabels(const Figure& f, const std::vector<size_t>& rows) {
    std::vector<std::string> labels;
    for (size_t i : rows) {
        std::string l = f.rows[i].algo;
        for (const Series& se : f.series)
            if (std::find(se.rows.begin(), se.rows.end(), i) != se.rows.end()) l = se.label;
        if (!f.rows[i].chose.empty()) l = f.rows[i].algo + " (picked " + f.rows[i].chose + ")"; // (at this n)
        labels.push_back(l);
    }
    return labels;
}

} // namespace

BreakdownLayout drawBreakdown(Canvas& c, Rect area, const Figure& f, uint64_t n, const Style& s) {
    BreakdownLayout L;
    const Theme& t = s.theme;
    const float fs = s.fontSize, small = fs * s.smallScale;
    // The GPU rows at n with step times, in series order.
    std::vector<size_t> rows;
    for (const Series& se : f.series)
        for (size_t i : se.rows)
            if (f.rows[i].n == n && !f.rows[i].steps.empty()) rows.push_back(i);
    c.text({area.x0, area.y0},
           "Where the time goes at n = " + sizeLabel(n) + " (GPU timestamps: medians per step, by kind)", t.text, fs);
    if (rows.empty()) {
        c.text({area.x0, area.y0 + fs * 1.6f},
               n ? "no per-step times at this n (the CPU baseline has none; a device without timestamps neither)"
                 : "no per-step times yet",
               t.muted, small);
        return L;
    }
    const std::vector<std::string> labels = rowLabels(f, rows);
    float labelW = 0;
    double maxMs = 0;
    for (size_t k = 0; k < rows.size(); ++k) {
        labelW = std::max(labelW, c.textWidth(labels[k], small));
        maxMs = std::max(maxMs, totalMs(f.rows[rows[k]]));
    }
    const std::vector<std::string> groups = groupsInOrder(f, rows);
    const float x0 = area.x0 + labelW + fs * 0.8f, x1 = area.x1 - fs * 4.5f;
    const BreakdownLegend legend = placeBreakdownLegend(c, groups, x0, area.x1, s);
    const float top = area.y0 + fs * 1.7f, legendH = fs * 1.5f * float(legend.rows()), axisH = fs * 1.8f;
    const float barsH = area.y1 - top - legendH - axisH;
    const float pitch = std::min(fs * 2.2f, barsH / float(rows.size()));
    const float barH = pitch * 0.7f;
    if (x1 - x0 < 40 || pitch < 4) return L;
    double axisLo = 0, axisHi = 1;
    const std::vector<Tick> ticks =
        linearTicks(0, maxMs, std::clamp(int((x1 - x0) / (fs * 5)), 2, 10), &axisLo, &axisHi);
    Axis ax{0, axisHi, false, x0, x1};
    const float barsBottom = top + pitch * float(rows.size());
    for (size_t i = 0; i < ticks.size(); ++i) {
        const float x = ax.toPixel(ticks[i].value);
        c.line({x, top}, {x, barsBottom}, t.grid, 1);
        c.text({x, barsBottom + fs * 0.3f}, ticks[i].label + (i + 1 == ticks.size() ? " ms" : ""), t.muted, small,
               HAlign::centre);
    }
    for (size_t k = 0; k < rows.size(); ++k) {
        const float y = top + pitch * float(k) + (pitch - barH) / 2;
        c.text({x0 - fs * 0.5f, y + barH / 2}, labels[k], t.text, small, HAlign::right, VAlign::middle);
        drawBreakdownBar(c, L, f, rows[k], ax, y, barH, s);
    }
    for (size_t i = 0; i < groups.size(); ++i) {
        const float x = legend.x[i], ly = barsBottom + axisH + fs * 1.5f * (float(legend.row[i]) + 0.5f);
        c.fillRect({x, ly - fs * 0.4f, x + fs * 0.8f, ly + fs * 0.4f}, groupColour(groups[i]));
        c.text({x + fs * 1.1f, ly}, groups[i], t.text, small, HAlign::left, VAlign::middle);
    }
    return L;
}

// [SECTION] Drawing: the whole figure ---------------------------------------------------------------

namespace {

// Words of text in lines no wider than maxWidth.
std::vector<std::string> wrap(Canvas& c, const std::string& text, float size, float maxWidth) {
    std::vector<std::string> lines;
    std::string line;
    size_t at = 0;
    while (at < text.size()) {
        size_t next = text.find(' ', at);
        if (next == std::string::npos) next = text.size();
        const std::string word = text.substr(at, next - at);
        const std::string candidate = line.empty() ? word : line + " " + word;
        if (!line.empty() && c.textWidth(candidate, size) > maxWidth) {
            lines.push_back(line);
            line = word;
        } else {
            line = candidate;
        }
        at = next + 1;
    }
    if (!line.empty()) lines.push_back(line);
    return lines;
}

// A file figure's background and head: the title, the device line, `detail` (muted) and the
// lavapipe warning, each wrapped to the width inside the margin m. Returns where the head ends.
float drawHead(Canvas& c, float width, float height, float m, const Figure& f, const Style& s,
               const std::string& detail) {
    const Theme& t = s.theme;
    const float fs = s.fontSize, textW = width - 2 * m;
    c.fillRect({0, 0, width, height}, t.background);
    float y = m;
    c.text({m, y}, f.title, t.text, fs * 1.5f);
    y += fs * 2.0f;
    auto paragraph = [&](const std::string& text, Colour colour, float size) {
        for (const std::string& line : wrap(c, text, size, textW)) {
            c.text({m, y}, line, colour, size);
            y += size * 1.45f;
        }
    };
    paragraph("device: " + f.devices, t.text, fs);
    paragraph(detail, t.muted, fs * 0.9f);
    if (f.lavapipe)
        paragraph("WARNING: Mesa lavapipe (a CPU emulation of Vulkan): these are CPU timings, not GPU ones. Good for "
                  "checking results, worthless for judging speed.",
                  t.warning, fs);
    return y;
}

} // namespace

void drawFigure(Canvas& c, float width, float height, const Figure& f, const Style& s, uint64_t breakdownN) {
    const Theme& t = s.theme;
    const float fs = s.fontSize, m = fs * 1.4f, textW = width - 2 * m;
    const float y = drawHead(c, width, height, m, f, s, f.workload + "; " + f.timing);
    // The notes at the bottom: the bandwidth floor, and up to three failures.
    std::vector<std::pair<std::string, Colour>> notes;
    for (const std::string& line : wrap(c, f.bandwidthNote, fs * 0.85f, textW)) notes.push_back({line, t.muted});
    for (size_t i = 0; i < f.errors.size() && i < 3; ++i)
        for (const std::string& line : wrap(c, "failed: " + f.errors[i], fs * 0.85f, textW))
            notes.push_back({line, t.warning});
    if (f.errors.size() > 3)
        notes.push_back({"and " + std::to_string(f.errors.size() - 3) + " more failures (see the JSON)", t.warning});
    const float noteH = fs * 0.85f * 1.45f, notesH = noteH * float(notes.size()) + fs * 0.3f;
    const float rest = height - y - m - notesH;
    uint64_t bn = breakdownN ? breakdownN : defaultBreakdownN(f);
    size_t bars = 0;
    for (const Series& se : f.series)
        for (size_t i : se.rows)
            if (f.rows[i].n == bn && !f.rows[i].steps.empty()) ++bars;
    const float breakdownH = std::min(rest * 0.4f, fs * (5.0f + 2.2f * float(std::max<size_t>(bars, 1))));
    drawThroughput(c, {m, y + fs * 0.5f, width - m, y + rest - breakdownH - fs}, f, s);
    drawBreakdown(c, {m, y + rest - breakdownH + fs * 0.5f, width - m, y + rest}, f, bn, s);
    float ny = height - m - notesH + fs * 0.3f;
    for (const auto& [line, colour] : notes) {
        c.text({m, ny}, line, colour, fs * 0.85f);
        ny += noteH;
    }
}

// [SECTION] Drawing: the speed-up over CUB by input distribution ------------------------------------

std::vector<size_t> distributionRows(const Figure& f, uint64_t n) {
    std::vector<size_t> rows;
    for (size_t i = 0; i < f.rows.size(); ++i) {
        const Row& r = f.rows[i];
        if ((n == 0 || r.n == n) && r.speedupCub && *r.speedupCub > 0 && r.algo != "cub" && r.error.empty())
            rows.push_back(i);
    }
    return rows;
}

uint64_t defaultDistributionN(const Figure& f) {
    uint64_t n = 0;
    for (size_t i : distributionRows(f, 0)) n = std::max(n, f.rows[i].n);
    return n;
}

namespace {

// The rows of speed-up over CUB at n: distributions and configurations in order of first
// appearance, the row of each pair, and the range of the speed-ups (with 1).
struct SpeedupTable {
    using Config = std::tuple<std::string, std::string, std::string, std::string>; // algo, type, values, order
    std::vector<std::string> dists, labels;
    std::vector<Config> configs;
    std::map<std::pair<std::string, Config>, size_t> at;
    double lo = 1, hi = 1;
};
SpeedupTable speedupTable(const Figure& f, uint64_t n) {
    SpeedupTable T;
    std::set<std::string> algos, orders;
    for (size_t i : n ? distributionRows(f, n) : std::vector<size_t>{}) {
        const Row& r = f.rows[i];
        const SpeedupTable::Config k{r.algo, r.type, r.values, r.order};
        if (std::find(T.dists.begin(), T.dists.end(), r.dist) == T.dists.end()) T.dists.push_back(r.dist);
        if (std::find(T.configs.begin(), T.configs.end(), k) == T.configs.end()) T.configs.push_back(k);
        algos.insert(r.algo), orders.insert(r.order);
        T.at[{r.dist, k}] = i;
        T.lo = std::min(T.lo, *r.speedupCub), T.hi = std::max(T.hi, *r.speedupCub);
    }
    for (const auto& [algo, type, values, order] : T.configs) {
        std::string l = algos.size() > 1 ? algo + " " : "";
        l += type + (values == "none" ? " keys" : " keys, " + values + " values");
        if (orders.size() > 1) l += ", " + order;
        T.labels.push_back(l);
    }
    return T;
}

const Colour kSpeedupPalette[] = {{46, 170, 80}, {66, 133, 244}, {245, 140, 30},  {150, 90, 210},
                                  {0, 172, 193}, {200, 80, 160}, {140, 110, 60},  {90, 90, 200},
                                  {220, 50, 60}, {120, 190, 40}, {110, 110, 110}, {250, 200, 40}};
Colour speedupColour(size_t k) {
    return kSpeedupPalette[k % (sizeof kSpeedupPalette / sizeof kSpeedupPalette[0])];
}

// The configurations' legend from the top of area, wrapped onto as many rows as it needs; the y
// of its last row.
float drawSpeedupLegend(Canvas& c, Rect area, const std::vector<std::string>& labels, const Style& s) {
    const float fs = s.fontSize, small = fs * s.smallScale;
    float x = area.x0, y = area.y0 + fs * 2.0f;
    for (size_t k = 0; k < labels.size(); ++k) {
        const float w = fs * 2.2f + c.textWidth(labels[k], small);
        if (x + w > area.x1 && x > area.x0) x = area.x0, y += fs * 1.5f;
        c.fillRect({x, y + fs * 0.1f, x + fs * 0.8f, y + fs * 0.9f}, speedupColour(k));
        c.text({x + fs * 1.1f, y + fs * 0.5f}, labels[k], s.theme.text, small, HAlign::left, VAlign::middle);
        x += w;
    }
    return y;
}

// One bar from 1 to speed-up v at y, with its value beside it where the bar is tall enough.
void drawSpeedupBar(Canvas& c, const Axis& ax, double v, float y, float barH, Colour colour, const Style& s) {
    const float fs = s.fontSize, small = fs * s.smallScale;
    const float x = ax.toPixel(v), one = ax.toPixel(1.0);
    c.fillRect({std::min(one, x), y + 1, std::max(one, x) + (x == one ? 1.f : 0.f), y + barH - 1}, colour);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f×", v);
    if (barH >= small * 0.8f)
        c.text({v >= 1 ? x + fs * 0.3f : x - fs * 0.3f, y + barH / 2}, buf, s.theme.text, small,
               v >= 1 ? HAlign::left : HAlign::right, VAlign::middle);
}

} // namespace

size_t drawSpeedupByDistribution(Canvas& c, Rect area, const Figure& f, uint64_t n, const Style& s) {
    const Theme& t = s.theme;
    const float fs = s.fontSize, small = fs * s.smallScale;
    c.text({area.x0, area.y0},
           "Speed-up over CUB at n = " + sizeLabel(n) +
               ", by input distribution (CUB's time over this sort's, same input, same run; right of 1: faster)",
           t.text, fs);
    const SpeedupTable T = speedupTable(f, n);
    if (T.at.empty()) {
        c.text({area.x0, area.y0 + fs * 1.6f},
               n ? "no speed-up over CUB at this n: run sortlab-bench with --anchor cub (on a CUDA device)"
                 : "no speed-up over CUB in these results: run sortlab-bench with --anchor cub (on a CUDA device)",
               t.muted, small);
        return 0;
    }
    const float legendBottom = drawSpeedupLegend(c, area, T.labels, s);
    float labelW = 0;
    for (const std::string& d : T.dists) labelW = std::max(labelW, c.textWidth(d, fs));
    const float top = legendBottom + fs * 3.0f, axisH = fs * 1.8f;
    const float x0 = area.x0 + labelW + fs * 0.8f, x1 = area.x1 - fs * 3.5f;
    const float groupH = (area.y1 - axisH - top) / float(T.dists.size());
    const float barH = std::min(fs * 1.3f, groupH * 0.8f / float(T.configs.size()));
    if (x1 - x0 < 60 || barH < 2) return 0;
    // A log axis around 1, a little beyond the data, so that slower and faster read alike.
    const double axisLo = std::min(T.lo, 0.5) / 1.15, axisHi = std::max(T.hi, 2.0) * 1.15;
    const Axis ax{axisLo, axisHi, true, x0, x1};
    const float bottom = top + groupH * float(T.dists.size());
    for (const Tick& tk : log10Ticks(axisLo, axisHi, std::clamp(int((x1 - x0) / (fs * 4)), 3, 12))) {
        const float x = ax.toPixel(tk.value);
        c.line({x, top}, {x, bottom}, t.grid, 1);
        if (!tk.label.empty()) c.text({x, bottom + fs * 0.3f}, tk.label + "×", t.muted, small, HAlign::centre);
    }
    size_t drawn = 0;
    for (size_t d = 0; d < T.dists.size(); ++d) {
        const float g0 = top + groupH * float(d);
        if (d > 0) c.line({area.x0, g0}, {x1, g0}, withAlpha(t.grid, 120), 1);
        const float y0 = g0 + (groupH - barH * float(T.configs.size())) / 2;
        c.text({x0 - fs * 0.5f, g0 + groupH / 2}, T.dists[d], t.text, fs, HAlign::right, VAlign::middle);
        for (size_t k = 0; k < T.configs.size(); ++k)
            if (auto it = T.at.find({T.dists[d], T.configs[k]}); it != T.at.end()) {
                drawSpeedupBar(c, ax, *f.rows[it->second].speedupCub, y0 + barH * float(k), barH, speedupColour(k), s);
                ++drawn;
            }
    }
    const float one = ax.toPixel(1.0);
    c.line({one, top - fs * 0.3f}, {one, bottom}, t.axis, 2);
    c.text({one, top - fs * 0.35f}, "as fast as CUB", t.muted, small, HAlign::centre, VAlign::bottom);
    return drawn;
}

void drawDistributionFigure(Canvas& c, float width, float height, const Figure& f, const Style& s, uint64_t n) {
    const float fs = s.fontSize, m = fs * 1.4f;
    const float y = drawHead(c, width, height, m, f, s, f.timing);
    drawSpeedupByDistribution(c, {m, y + fs * 0.8f, width - m, height - m}, f, n ? n : defaultDistributionN(f), s);
}

} // namespace sortlab::plot
