#include <sortlab/app/state_dump.h>
#include <sortlab/app/recording.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <fstream>
#include <type_traits>

namespace sortlab::app {
namespace {

nlohmann::json floatKey(double v, bool negativeBit) {
    if (std::isnan(v)) return negativeBit ? "-nan" : "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    return v;
}

// Key i of raw keys as JSON: integers as numbers, floats as numbers or "nan", "-inf", ...
template <class T> nlohmann::json keyAt(const std::byte* keys, uint64_t i) {
    T x;
    std::memcpy(&x, keys + i * sizeof(T), sizeof(T));
    if constexpr (std::is_floating_point_v<T>)
        return floatKey(x, std::signbit(x));
    else
        return x;
}

} // namespace

nlohmann::json keysJson(const std::vector<std::byte>& keys, uint64_t n, KeyType t) {
    using KeyAt = nlohmann::json (*)(const std::byte*, uint64_t);
    // In KeyType's order.
    static constexpr KeyAt kKeyAt[] = {keyAt<uint32_t>, keyAt<int32_t>, keyAt<float>,
                                       keyAt<uint64_t>, keyAt<int64_t>, keyAt<double>};
    nlohmann::json a = nlohmann::json::array();
    for (uint64_t i = 0; i < n; ++i) a.push_back(kKeyAt[static_cast<size_t>(t)](keys.data(), i));
    return a;
}

namespace {

using nlohmann::json;

// --load-results' lines, as the panel draws them.
json loadedResultsJson(const std::vector<LoadedLine>& loadedLines) {
    json lines = json::array();
    for (const LoadedLine& l : loadedLines) {
        json points = json::array();
        for (const auto& [n, gkeys] : l.points) points.push_back({n, gkeys});
        lines.push_back({{"file", l.files.empty() ? std::string() : l.files[0]},
                         {"files", l.files},
                         {"label", l.label},
                         {"algo", l.algo},
                         {"device", l.device},
                         {"points", points}});
    }
    return lines;
}

// The step that produced the state: its kind, its layers (odd-even) or its pass and bits (radix).
void addStepJson(json& j, const Step& st) {
    j["kind"] = std::string(stepKindName(st.kind));
    j["first_layer"] = st.firstLayer;
    j["layer_count"] = st.layerCount;
    if (st.kind == StepKind::layer) {
        j["merge_p"] = 1u << st.logP;
        j["stride_k"] = 1u << st.logKHi;
    }
    if (st.bitHi > st.bitLo) {
        j["pass"] = st.pass;
        j["bit_lo"] = st.bitLo;
        j["bit_hi"] = st.bitHi;
    }
}

// The lookback replay as the radix view shows it: the digit, the events shown, the status words
// and every tile's walk, and the pass's statistics.
json lookbackReplayJson(const LookbackReplay& r) {
    const LookbackEvent* last = r.last();
    json tiles = json::array();
    for (size_t t = 1; t < r.records.size(); ++t) {
        const LookbackWalk& w = r.records[t].walks[r.digit];
        tiles.push_back({{"tile", t},
                         {"depth", w.depth()},
                         {"counted", w.counted},
                         {"not_ready", w.notReady},
                         {"published", w.published}});
    }
    return {{"digit", r.digit},
            {"events", r.events.size()},
            {"shown", r.shown},
            {"event", last ? json(last->event) : json(nullptr)},
            {"event_tile", last ? json(last->tile) : json(nullptr)},
            {"event_kind", last ? json(std::string(lookbackEventKindName(last->kind))) : json(nullptr)},
            {"flags", r.state.flag},
            {"counts", r.state.count},
            {"walks", tiles},
            {"depth_mean", r.stats.meanDepth},
            {"depth_max", r.stats.maxDepth},
            {"fallbacks", r.stats.fallbacks}};
}

// The state shown: the step, its keys, values and aux buffers, the replay and the check.
void addStateJson(json& j, const SortWorker::View& v, const DumpExtras& extras) {
    const SortSettings& s = v.job.settings;
    const StepData& d = *v.data;
    const Snapshot& snap = *d.snapshot;
    j["step"] = d.step;
    j["label"] = snap.label;
    if (d.step > 0 && v.job.plan) addStepJson(j, v.job.plan->steps[d.step - 1]);
    j["layers_done"] = d.layersDone;
    j["step_ms"] = d.stepMs; // GPU work and readback that produced this view (wall time)
    j["comparators_done"] = d.comparatorsDone;
    if (d.swapsKnown) j["swaps"] = d.referenceSwaps;
    j["keys"] = keysJson(snap.keys, s.n, s.key);
    if (!snap.values.empty()) j["values"] = snap.values;
    json aux = json::object();
    for (auto& a : snap.aux) aux[std::string(auxKindName(a.kind))] = {{"shape", a.shape}, {"data", a.data}};
    j["aux"] = aux;
    if (auto r = lookbackReplay(snap, extras.replay)) j["lookback_replay"] = lookbackReplayJson(*r);
    if (d.strip) { // the array view's picture of the whole keys, merged into 256 columns
        const ColumnDensity m = mergeColumns(*d.strip, 256);
        j["strip"] = {{"columns", m.columns},
                      {"rows", Density::kRows},
                      {"keys", m.keys},
                      {"counts", m.counts},
                      {"sorted_bits", d.stripBits}};
    }
    if (extras.check) {
        const StepCheck& c = d.check;
        j["check"] = {{"available", c.available},
                      {"ok", c.ok},
                      {"mismatches", c.mismatches},
                      {"method", c.method},
                      {"first_diffs", c.firstDiffs}};
    }
}

} // namespace

Result<void> writeStateJson(const std::string& path, const SortWorker::View& v, const DumpExtras& extras) {
    json j;
    const SortSettings& s = v.job.settings;
    j["algo"] = std::string(s.algoName());
    j["type"] = std::string(keyTypeName(s.key));
    j["values_type"] = s.keyValue ? "u32" : "none";
    j["order"] = std::string(orderName(s.order));
    j["dist"] = std::string(distributionName(s.dist));
    j["seed"] = s.seed;
    j["n"] = s.n;
    j["force_fallback"] = s.config().knobs.forceFallback;
    j["device"] = extras.device;
    j["frame_cpu_ms"] = extras.frameCpuMs;
    j["frame_ui_cpu_ms"] = extras.frameBuildCpuMs;
    j["validation_messages"] = extras.validationMessages;
    j["presentation"] = extras.presentation;
    if (!extras.keysError.empty()) j["keys_error"] = extras.keysError;
    for (const auto& [key, value] : extras.view.items()) j[key] = value;
    if (!extras.loadedLines.empty() || !extras.loadError.empty()) {
        j["loaded_results"] = loadedResultsJson(extras.loadedLines);
        if (!extras.loadError.empty()) j["loaded_results_error"] = extras.loadError;
    }
    if (!v.error.empty()) j["error"] = v.error;
    if (const auto& r = v.job.recording)
        j["recording"] = {{"file", r->path},
                          {"device", r->device.name},
                          {"driver", r->device.driver},
                          {"date", r->device.date},
                          {"status", recordedOn(r->device)}};
    if (!extras.recordingError.empty()) j["recording_error"] = extras.recordingError;
    if (v.job.plan) {
        j["variant"] = variantName(v.job.plan->algorithm, v.job.plan->config);
        j["steps"] = v.job.plan->steps.size();
        j["bytes_moved_floor"] = v.job.plan->bytesMovedFloor;
    }
    if (v.data && v.data->snapshot) addStateJson(j, v, extras);
    std::ofstream out(path);
    if (!out) return makeError(Errc::io_error, "cannot write " + path);
    out << j.dump() << "\n";
    if (!out) return makeError(Errc::io_error, "cannot write " + path);
    return {};
}

} // namespace sortlab::app
