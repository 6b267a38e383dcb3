#include <sortlab/bench/trace.h>

#include <sortlab/bench/errors.h>

#include <sortlab/job.h>
#include <sortlab/lookback.h>

#include <nlohmann/json.hpp>

#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>

namespace sortlab::bench {

using namespace sortlab;

namespace {

template <class Float> std::string floatJson(Float x) {
    if (std::isnan(x)) return std::signbit(x) ? "\"-nan\"" : "\"nan\"";
    if (std::isinf(x)) return x < 0 ? "\"-inf\"" : "\"inf\"";
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x); // shortest text that reads back to x
    std::string s(buf, ec == std::errc() ? end : buf);
    // "-0" and "3" would read back as integers (and -0 as 0): make them numbers with a point.
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
}

std::string str(std::string_view s) {
    return nlohmann::json(std::string(s)).dump();
}

// ,"lookback":[...]: one record per tile of the pass, from the instrumented kernel's log (events
// numbered from 1 in one sequence; null: none), per digit its walk (depth, not-ready reads, tiles
// counted by falling back, the event of publishing) and its 256 inclusive prefixes (the status counts).
std::string lookbackJson(const Snapshot::Aux& log, const Snapshot::Aux* counts) {
    auto event = [](uint32_t e) { return e ? std::to_string(e) : std::string("null"); };
    auto perDigit = [](const std::vector<LookbackWalk>& walks, auto field) {
        std::string a = "[";
        for (size_t d = 0; d < walks.size(); ++d) a += (d ? "," : "") + field(walks[d]);
        return a + "]";
    };
    const std::vector<LookbackRecord> records = lookbackRecords(log);
    std::string out = ",\"lookback\":[";
    for (size_t t = 0; t < records.size(); ++t) {
        const LookbackRecord& r = records[t];
        out += std::string(t ? "," : "") + "{\"tile\":" + std::to_string(t) +
               ",\"workgroup\":" + std::to_string(r.workgroup) + ",\"took\":" + event(r.took) +
               ",\"took_in_order\":" + (r.tookInOrder ? "true" : "false") + ",\"aggregate\":" + event(r.aggregate) +
               ",\"inclusive\":" + event(r.inclusive) + ",\"fell_back\":" + (r.fellBack ? "true" : "false") +
               ",\"reads\":" + std::to_string(r.readsNotReady + r.readsAggregate + r.readsInclusive) +
               ",\"reads_not_ready\":" + std::to_string(r.readsNotReady) +
               ",\"reads_aggregate\":" + std::to_string(r.readsAggregate) +
               ",\"reads_inclusive\":" + std::to_string(r.readsInclusive);
        if (t > 0) {
            out += ",\"depth\":" + perDigit(r.walks, [](const LookbackWalk& w) { return std::to_string(w.depth()); });
            out += ",\"ended_inclusive\":" +
                   perDigit(r.walks, [](const LookbackWalk& w) { return std::string(w.inclusive ? "1" : "0"); });
            out += ",\"counted\":" + perDigit(r.walks, [](const LookbackWalk& w) { return std::to_string(w.counted); });
            out +=
                ",\"not_ready\":" + perDigit(r.walks, [](const LookbackWalk& w) { return std::to_string(w.notReady); });
            out += ",\"published\":" + perDigit(r.walks, [&](const LookbackWalk& w) { return event(w.published); });
        }
        out += ",\"prefix\":[";
        if (counts && counts->shape.size() == 2 && t < counts->shape[0])
            for (uint32_t d = 0; d < counts->shape[1]; ++d)
                out += (d ? "," : "") + std::to_string(counts->data[t * counts->shape[1] + d]);
        out += "]}";
    }
    return out + "]";
}

} // namespace

std::string jsonKey(std::span<const std::byte> keys, size_t i, KeyType type) {
    if (keyKind(type) != KeyKind::floating) return formatKey(keys, i, type); // integers: the same text
    if (type == KeyType::f32) {
        float f;
        std::memcpy(&f, keys.data() + i * 4, 4);
        return floatJson(f);
    }
    double d;
    std::memcpy(&d, keys.data() + i * 8, 8);
    return floatJson(d);
}

TraceWriter::TraceWriter(const std::string& path) : path_(path) {
    file_ = std::fopen(path.c_str(), "w");
    if (!file_) usageError("cannot write --trace file '" + path + "': " + std::strerror(errno));
}

TraceWriter::~TraceWriter() {
    if (file_) std::fclose(file_);
}

void TraceWriter::writeLine(const std::string& line) {
    if (std::fputs(line.c_str(), file_) < 0 || std::fputc('\n', file_) == EOF || std::fflush(file_) != 0)
        throw BenchError(kExitDevice, "could not write --trace file '" + path_ + "': " + std::strerror(errno));
    ++lines_;
}

namespace {

// ",\"keys\":[...]" and, with values, ",\"values\":[...]" of a snapshot.
std::string arraysJson(const Snapshot& s, const CaseSpec& spec) {
    std::string out = ",\"keys\":[";
    for (size_t i = 0; i < spec.n; ++i) out += (i ? "," : "") + jsonKey(s.keys, i, spec.type);
    out += "]";
    if (spec.values != ValueType::none) {
        out += ",\"values\":[";
        for (size_t i = 0; i < s.values.size(); ++i) out += (i ? "," : "") + std::to_string(s.values[i]);
        out += "]";
    }
    return out;
}

// A snapshot's aux buffer as a JSON array; "" where the snapshot has none.
std::string auxArray(const Snapshot& snap, AuxKind kind) {
    const Snapshot::Aux* a = snap.find(kind);
    if (!a) return "";
    std::string out = "[";
    for (size_t i = 0; i < a->data.size(); ++i) out += (i ? "," : "") + std::to_string(a->data[i]);
    return out + "]";
}

// OneSweep's fields of a pass line: its tiles, fallbacks, tiles of one digit, and (where the pass
// ran) the tile statuses and the lookback log.
std::string oneSweepFields(const Step& s, const Snapshot& snap, bool skipped) {
    auto single = [&](AuxKind kind) { // "[k]" -> "k"
        std::string a = auxArray(snap, kind);
        return a.size() > 2 ? a.substr(1, a.size() - 2) : std::string("null");
    };
    std::string line = ",\"tiles\":" + std::to_string(s.workgroups) + ",\"fallbacks\":" + single(AuxKind::fallbacks) +
                       ",\"uniform_tiles\":" + single(AuxKind::uniformTiles);
    // A skipped pass ran no tile: the statuses and the log are the last pass's that ran.
    if (!skipped) {
        line += ",\"tile_status\":" + auxArray(snap, AuxKind::tileStatus);
        if (const Snapshot::Aux* log = snap.find(AuxKind::lookbackLog))
            line += lookbackJson(*log, snap.find(AuxKind::tileCounts));
    }
    return line;
}

// A radix pass line's fields: the pass, its digit's bits, its histogram and offsets as the GPU
// left them, radix4's per-workgroup counts, whether the GPU skipped it, OneSweep's tile fields.
std::string radixFields(const Plan& plan, const Step& s, const Snapshot& snap, const std::string& what) {
    std::string line = ",\"pass\":" + std::to_string(s.pass) + ",\"digit_bits\":[" + std::to_string(s.bitLo) + "," +
                       std::to_string(s.bitHi) + "]";
    for (AuxKind kind : {AuxKind::histogram, AuxKind::offsets}) {
        std::string a = auxArray(snap, kind);
        if (a.empty())
            throw BenchError(kExitDevice,
                             what + ": the snapshot after '" + s.label + "' has no " + std::string(auxKindName(kind)));
        line += ",\"" + std::string(auxKindName(kind)) + "\":" + a;
    }
    if (plan.algorithm == Algorithm::radix4) line += ",\"workgroup_counts\":" + auxArray(snap, AuxKind::digitCounts);
    const Snapshot::Aux* info = snap.find(AuxKind::passInfo);
    const bool skipped = Snapshot::skipped(info);
    if (info && info->data.size() == 4) line += std::string(",\"skipped\":") + (skipped ? "true" : "false");
    if (plan.algorithm == Algorithm::onesweep) line += oneSweepFields(s, snap, skipped);
    return line + ",\"tile_keys\":" + std::to_string(plan.tileKeys);
}

} // namespace

void TraceWriter::traceCase(Context& ctx, Sorter& sorter, const AlgoSpec& algo, const CaseSpec& spec,
                            std::span<const std::byte> keys, std::span<const uint32_t> values, const SortKnobs& knobs,
                            bool lookbackLog) {
    SortConfig cfg = configFor(algo, spec.type, spec.values, spec.order, knobs, true);
    cfg.knobs.logLookback = lookbackLog && algo.gpu == Algorithm::onesweep;
    const std::string what = "--trace " + std::string(algo.name) + " (" + describe(spec) + ")";
    auto job = SortJob::create(ctx, sorter, spec.n, cfg, true);
    if (!job && knobs.oddEvenTileKeys && job.error().code == Errc::invalid_argument)
        libraryError(job.error(), what + " with --shared-elems " + std::to_string(knobs.oddEvenTileKeys));
    if (!job) libraryError(job.error(), what);
    std::unique_ptr<SortJob> owned = std::move(job.value());
    SortJob& j = *owned;
    if (auto up = j.upload(keys, values); !up) jobError(up.error(), what);

    // Fields every line starts with.
    const std::string head = "{\"algo\":" + str(algo.name) + ",\"variant\":" + str(variantFor(algo, cfg)) +
                             ",\"type\":" + str(keyTypeName(spec.type)) +
                             ",\"values_type\":" + str(valueTypeName(spec.values)) +
                             ",\"order\":" + str(orderName(spec.order)) + ",\"n\":" + std::to_string(spec.n);
    auto snap = j.capture();
    if (!snap) jobError(snap.error(), what);
    writeLine(head + ",\"step\":0,\"label\":\"input\"" + arraysJson(*snap, spec) + "}");

    const Plan& plan = j.plan();
    // Radix sorts: one line per pass, after its scatter (the keys sorted on the low bits so far),
    // with that pass's histogram and offsets as the GPU left them.
    const bool radix = plan.algorithm == Algorithm::radix4 || plan.algorithm == Algorithm::onesweep;
    for (size_t i = 0; i < plan.steps.size(); ++i) {
        const Step& s = plan.steps[i];
        if (radix && s.kind != StepKind::scatter && s.kind != StepKind::pass) continue;
        auto ran = j.runTo(i + 1);
        if (!ran) jobError(ran.error(), what);
        snap = j.capture();
        if (!snap) jobError(snap.error(), what);
        std::string line = head + ",\"step\":" + std::to_string(i + 1) + ",\"label\":" + str(s.label) +
                           ",\"kind\":" + str(stepKindName(s.kind));
        if (plan.algorithm == Algorithm::oddeven) {
            line +=
                ",\"first_layer\":" + std::to_string(s.firstLayer) + ",\"layer_count\":" + std::to_string(s.layerCount);
            if (s.kind == StepKind::layer)
                line += ",\"merge_p\":" + std::to_string(uint64_t(1) << s.logP) +
                        ",\"stride_k\":" + std::to_string(uint64_t(1) << s.logKHi);
        }
        if (radix) line += radixFields(plan, s, *snap, what);
        writeLine(line + arraysJson(*snap, spec) + "}");
    }
}

} // namespace sortlab::bench
