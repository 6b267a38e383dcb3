#include <sortlab/bench/report.h>

#include <sortlab/bench/anchor_loader.h>
#include <sortlab/bench/errors.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

namespace sortlab::bench {

using namespace sortlab;

// Left-aligned text columns and right-aligned numbers, separated by two spaces.
struct Column {
    const char* title;
    int width;
    bool right;
};

namespace {

std::string mib(uint64_t bytes) {
    char buf[32];
    if (bytes >= (uint64_t(1) << 30))
        std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / double(1 << 30));
    else
        std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / double(1 << 20));
    return buf;
}

std::string fmt(const char* format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

// At least three significant digits without an exponent: 12.3, 1.23, 0.0123, 0.0000123.
std::string sig3(double v) {
    if (!std::isfinite(v)) return "-";
    if (v == 0) return "0";
    int decimals = std::clamp(2 - static_cast<int>(std::floor(std::log10(std::fabs(v)))), 0, 9);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// clang-format off
const Column kColumns[] = {
    {"algo", 13, false}, {"variant", 16, false}, {"type", 4, false}, {"values", 6, false},
    {"order", 5, false}, {"n", 11, true}, {"dist", 13, false}, {"median ms", 11, true},
    {"min ms", 11, true}, {"Gkeys/s", 9, true}, {"GB/s", 8, true}, {"x std", 8, true}, {"check", 7, false},
};
// clang-format on
const Column kCubColumn = {"x cub", 8, true}; // after "x std", with --anchor cub

void printRowOf(const std::vector<Column>& columns, const std::vector<std::string>& cells) {
    std::string line;
    for (size_t i = 0; i < cells.size() && i < columns.size(); ++i) {
        const Column& c = columns[i];
        std::string cell = cells[i];
        int pad = c.width - static_cast<int>(cell.size());
        if (i) line += "  ";
        if (c.right && pad > 0) line += std::string(pad, ' ');
        line += cell;
        if (!c.right && pad > 0 && i + 1 < cells.size()) line += std::string(pad, ' ');
    }
    std::printf("%s\n", line.c_str());
}

// Prints a table whose column widths fit its cells.
void printFitted(const std::vector<std::vector<std::string>>& rows) {
    std::vector<size_t> width;
    for (auto& r : rows)
        for (size_t i = 0; i < r.size(); ++i) {
            if (width.size() <= i) width.push_back(0);
            width[i] = std::max(width[i], r[i].size());
        }
    for (auto& r : rows) {
        std::string line;
        for (size_t i = 0; i < r.size(); ++i) {
            line += r[i];
            if (i + 1 < r.size()) line += std::string(width[i] - r[i].size() + 2, ' ');
        }
        std::printf("%s\n", line.c_str());
    }
}

} // namespace

void printDeviceList(const std::vector<DeviceInfo>& devices) {
    std::vector<std::vector<std::string>> rows = {{"index", "name", "type", "driver", "subgroup", "shared mem",
                                                   "maxStorageBufferRange", "device-local mem", "suitable"}};
    for (const DeviceInfo& d : devices) {
        std::string subgroup = std::to_string(d.subgroupSize);
        if (d.minSubgroupSize != d.maxSubgroupSize)
            subgroup += " (" + std::to_string(d.minSubgroupSize) + ".." + std::to_string(d.maxSubgroupSize) + ")";
        rows.push_back({std::to_string(d.index), d.name, d.typeName, d.driver.empty() ? "?" : d.driver, subgroup,
                        std::to_string(d.sharedMemoryBytes / 1024) + " KiB", mib(d.maxStorageBufferRange),
                        mib(d.deviceLocalBytes), d.suitable ? "yes" : "no: " + d.unsuitableWhy});
    }
    printFitted(rows);
    if (devices.empty()) std::printf("(Vulkan found no device)\n");
}

void printHeader(const DeviceInfo* device, const Options& opt, const CubAnchor* anchor) {
    if (opt.quiet) return;
    if (device) {
        std::printf("device: %s [index %u, %s]\n", device->name.c_str(), device->index, device->typeName.c_str());
        std::printf("driver: %s\n", device->driver.empty() ? "?" : device->driver.c_str());
        if (device->isLavapipe)
            std::printf("WARNING: %s is Mesa lavapipe: timings are from a CPU emulation of Vulkan, not a GPU\n",
                        device->name.c_str());
    } else {
        std::printf("device: host CPU only (no GPU algorithm requested)\n");
    }
    if (anchor)
        std::printf("anchor: cub::DeviceRadixSort on %s (CUDA device 0; %s), from %s\n", anchor->device().c_str(),
                    anchor->versions().c_str(), anchor->path().c_str());
    std::printf("timing: median and min of %d timed rep%s after untimed warm-up runs (>= %g s); seed %llu%s\n",
                opt.reps, opt.reps == 1 ? "" : "s", opt.warmupMs / 1000.0, static_cast<unsigned long long>(opt.seed),
                opt.check ? "; results checked against sortlab::referenceSort" : "");
    std::fflush(stdout);
}

Reporter::Reporter(const Options& options) : opt_(options) {
    columns_.assign(std::begin(kColumns), std::end(kColumns));
    if (opt_.anchorCub) columns_.insert(columns_.end() - 1, kCubColumn);
    if (opt_.jsonPath.empty()) return;
    json_ = std::fopen(opt_.jsonPath.c_str(), "w");
    if (!json_) usageError("cannot write --json file '" + opt_.jsonPath + "': " + std::strerror(errno));
}

Reporter::~Reporter() {
    if (json_) std::fclose(json_);
}

void Reporter::printRow(const std::vector<std::string>& cells) const {
    printRowOf(columns_, cells);
}

void Reporter::printTableHeader() {
    std::vector<std::string> titles;
    for (const Column& c : columns_) titles.push_back(c.title);
    printRow(titles);
    std::string rule;
    for (size_t i = 0; i < columns_.size(); ++i)
        rule += std::string(columns_[i].width, '-') + (i + 1 < columns_.size() ? "  " : "");
    std::printf("%s\n", rule.c_str());
}

void Reporter::addCase(const std::vector<CaseResult>& results) {
    for (const CaseResult& r : results) results_.push_back(r);
    if (opt_.quiet) return;
    if (!headerPrinted_) {
        printTableHeader();
        headerPrinted_ = true;
    }
    for (const CaseResult& r : results) {
        auto gb = r.gbytesPerS();
        std::vector<std::string> cells = {std::string(r.algo->name),
                                          r.variant,
                                          std::string(keyTypeName(r.spec.type)),
                                          std::string(valueTypeName(r.spec.values)),
                                          std::string(orderName(r.spec.order)),
                                          std::to_string(r.spec.n),
                                          std::string(distributionName(r.spec.dist)),
                                          fmt("%.3f", r.medianMs),
                                          fmt("%.3f", r.minMs),
                                          sig3(r.gkeysPerS()),
                                          gb ? sig3(*gb) : "-",
                                          r.speedupVsStd ? sig3(*r.speedupVsStd) + "x" : "-"};
        if (opt_.anchorCub) cells.push_back(r.speedupVsCub ? sig3(*r.speedupVsCub) + "x" : "-");
        cells.push_back(r.check);
        printRow(cells);
        if (!r.error.empty()) std::printf("  error: %s\n", r.error.c_str());
        for (const PipelineStatistics& p : r.pipelines) {
            std::string stats;
            for (const PipelineStatistic& st : p.stats)
                stats += (stats.empty() ? "" : ", ") + st.name + " " + st.text();
            std::printf("  pipeline %s: %s\n", p.pipeline.c_str(),
                        stats.empty() ? "(the driver offers no statistics)" : stats.c_str());
        }
        for (size_t p = 0; p < r.lookback.size(); ++p) {
            const LookbackStats& s = r.lookback[p];
            std::printf(
                "  lookback pass %zu: %u tiles, depth mean %.2f median %u p99 %u max %u; reads: %llu not ready, "
                "%llu aggregates, %llu inclusive; %u fell back; %u taken out of order, %u finished out of "
                "order; at most %u in flight at once\n",
                size_t(r.lookbackPass[p]), s.tiles, s.meanDepth, s.medianDepth, s.p99Depth, s.maxDepth,
                static_cast<unsigned long long>(s.readsNotReady), static_cast<unsigned long long>(s.readsAggregate),
                static_cast<unsigned long long>(s.readsInclusive), s.fallbacks, s.takenOutOfOrder, s.finishedOutOfOrder,
                s.inFlightMax);
        }
    }
    std::fflush(stdout);
}

namespace {
using Json = nlohmann::ordered_json;

Json number(double v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

// A driver's statistic in its own format: true/false, an exact integer, or a number.
Json statisticJson(const PipelineStatistic& st) {
    switch (st.format) {
    case PipelineStatistic::Format::boolean:
        return Json(st.b);
    case PipelineStatistic::Format::int64:
        return Json(st.i);
    case PipelineStatistic::Format::uint64:
        return Json(st.u);
    case PipelineStatistic::Format::float64:
        return number(st.f);
    }
    return Json(nullptr);
}

Json pipelinesJson(const std::vector<PipelineStatistics>& pipelines) {
    Json out = Json::array();
    for (const PipelineStatistics& p : pipelines) {
        Json stats = Json::object();
        for (const PipelineStatistic& st : p.stats) stats[st.name] = statisticJson(st);
        out.push_back(Json{{"name", p.pipeline}, {"stats", stats}});
    }
    return out;
}

Json lookbackJson(const LookbackStats& s, uint32_t pass) {
    return Json{{"pass", pass},
                {"tiles", s.tiles},
                {"walks", s.walks},
                {"depth_mean", number(s.meanDepth)},
                {"depth_median", s.medianDepth},
                {"depth_p99", s.p99Depth},
                {"depth_max", s.maxDepth},
                {"depth_count", s.depthCount},
                {"reads_not_ready", s.readsNotReady},
                {"reads_aggregate", s.readsAggregate},
                {"reads_inclusive", s.readsInclusive},
                {"fallbacks", s.fallbacks},
                {"counted_tiles", s.countedTiles},
                {"taken_out_of_order", s.takenOutOfOrder},
                {"finished_out_of_order", s.finishedOutOfOrder},
                {"in_flight_max", s.inFlightMax}};
}

Json stepsJson(const CaseResult& r) {
    Json out = Json::array();
    for (size_t i = 0; i < r.stepMs.size(); ++i) {
        Json step{{"step", i + 1},
                  {"label", r.stepMs[i].label},
                  {"kind", std::string(stepKindName(r.stepMs[i].kind))},
                  {"median_ms", number(r.stepMs[i].medianMs)}};
        if (r.stepMs[i].skipped) step["skipped"] = true; // the GPU skipped this radix pass
        out.push_back(std::move(step));
    }
    return out;
}

// What was sorted, on what, and how long it took.
Json caseJson(const CaseResult& r) {
    Json o;
    o["algo"] = r.algo->name;
    o["variant"] = r.variant;
    if (!r.chose.empty()) { // --algo auto: what it picked, and why
        o["chose"] = r.chose;
        o["why"] = r.why;
    }
    o["type"] = keyTypeName(r.spec.type);
    o["values"] = valueTypeName(r.spec.values);
    o["order"] = orderName(r.spec.order);
    o["n"] = r.spec.n;
    o["dist"] = distributionName(r.spec.dist);
    o["seed"] = r.spec.seed;
    o["device"] = r.device;
    o["driver"] = r.driver;
    o["timer"] = r.timer;
    o["reps"] = r.repMs.size();
    o["keep_input"] = r.keepInput;
    o["median_ms"] = number(r.medianMs);
    o["min_ms"] = number(r.minMs);
    o["rep_ms"] = Json::array();
    for (double ms : r.repMs) o["rep_ms"].push_back(number(ms));
    o["gkeys_per_s"] = number(r.gkeysPerS());
    o["check"] = r.check;
    if (!r.checkMessage.empty()) o["check_message"] = r.checkMessage;
    if (!r.error.empty()) o["error"] = r.error;
    o["bytes_floor"] = r.bytesFloor ? Json(*r.bytesFloor) : Json(nullptr);
    auto gb = r.gbytesPerS();
    o["gbytes_per_s"] = gb ? number(*gb) : Json(nullptr);
    o["speedup_vs_std"] = r.speedupVsStd ? number(*r.speedupVsStd) : Json(nullptr);
    o["speedup_vs_cub"] = r.speedupVsCub ? number(*r.speedupVsCub) : Json(nullptr);
    return o;
}
} // namespace

nlohmann::ordered_json resultsJson(const std::vector<CaseResult>& results) {
    Json all = Json::array();
    for (const CaseResult& r : results) {
        Json o = caseJson(r);
        if (r.fallbacks) {
            o["fallbacks_last_pass"] = *r.fallbacks;
            o["tiles_last_pass"] = r.fallbackTiles ? Json(*r.fallbackTiles) : Json(nullptr);
        }
        if (!r.pipelines.empty()) o["pipelines"] = pipelinesJson(r.pipelines);
        if (!r.lookback.empty()) {
            o["lookback"] = Json::array();
            for (size_t p = 0; p < r.lookback.size(); ++p)
                o["lookback"].push_back(lookbackJson(r.lookback[p], r.lookbackPass[p]));
        }
        o["shared_elems"] = r.oddEvenTileKeys;
        o["steps"] = r.steps;
        o["step_ms"] = stepsJson(r);
        all.push_back(std::move(o));
    }
    return all;
}

namespace {

std::string csvCell(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string csvValue(const nlohmann::ordered_json& v) {
    if (v.is_null()) return "";
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_float()) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.9g", v.get<double>());
        return buf;
    }
    if (v.is_array()) {
        std::string out;
        for (const auto& item : v) {
            if (!out.empty()) out += ';';
            // step_ms entries: "label=median_ms"
            if (item.is_object())
                out += item.value("label", std::string()) + "=" +
                       csvValue(item.value("median_ms", nlohmann::ordered_json()));
            else
                out += csvValue(item);
        }
        return out;
    }
    return v.dump();
}

} // namespace

std::string csvFromJson(const nlohmann::ordered_json& rows) {
    // The columns: every field of the first row, then any that only later rows have (check_message,
    // error), in the order met.
    std::vector<std::string> columns;
    for (const auto& row : rows)
        for (auto it = row.begin(); it != row.end(); ++it)
            if (std::find(columns.begin(), columns.end(), it.key()) == columns.end()) columns.push_back(it.key());
    std::string out;
    for (size_t i = 0; i < columns.size(); ++i) out += (i ? "," : "") + csvCell(columns[i]);
    out += "\r\n";
    for (const auto& row : rows) {
        for (size_t i = 0; i < columns.size(); ++i)
            out += (i ? "," : "") + (row.contains(columns[i]) ? csvCell(csvValue(row[columns[i]])) : std::string());
        out += "\r\n";
    }
    return out;
}

void Reporter::writeJson() {
    if (!json_ || jsonWritten_) return;
    jsonWritten_ = true;
    std::string text = resultsJson(results_).dump(2) + "\n";
    bool ok = std::fwrite(text.data(), 1, text.size(), json_) == text.size() && std::fflush(json_) == 0;
    if (!ok)
        throw BenchError(kExitDevice, "could not write --json file '" + opt_.jsonPath + "': " + std::strerror(errno));
}

} // namespace sortlab::bench
