// [SECTION] Making one: the run, step by step
// [SECTION] The file: bytes in and out
// [SECTION] The metadata: settings, plan, device (JSON)
// [SECTION] The payload: input and snapshots
// [SECTION] Writing and reading
// [SECTION] Matching and finding
//
// The file (docs/recordings.md), little-endian:
//   8 bytes  magic "SLREC\r\n\x1a"
//   u32      format version (Recording::kFormatVersion)
//   u32      M, then M bytes: the metadata, JSON (settings, plan, device, date; readable with head -c)
//   u64      U: the payload's size, uncompressed
//   u64      C: its size compressed, then C bytes: the payload, zlib (deflate)
//   u32      CRC-32 of the uncompressed payload
// and nothing after. The payload: the input keys (and values), then per step its snapshot.
#include <sortlab/app/recording.h>

#include <sortlab/app/options.h>
#include <sortlab/app/platform.h>
#include <sortlab/app/sort_worker.h>

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <type_traits>

namespace sortlab {
// A recording's "knobs": every SortKnobs member under its own name, written and read from this one list.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SortKnobs, perLayer, oddEvenTileKeys, radixTileKeys, forceFallback, logLookback,
                                   logInIdOrder, resultInEither)
} // namespace sortlab

namespace sortlab::app {

static_assert(std::endian::native == std::endian::little, "recordings are written little-endian as they are in memory");

namespace {

constexpr char kMagic[8] = {'S', 'L', 'R', 'E', 'C', '\r', '\n', '\x1a'};
constexpr uint64_t kMaxMetadata = uint64_t(1) << 30; // keys of your own are in it as text (--input: up to 1 GiB)
constexpr uint64_t kMaxPayload = uint64_t(2) << 30;

std::string utcNow() {
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t)); // one thread records
    return buf;
}

} // namespace

// [SECTION] Making one: the run, step by step -------------------------------------------------------------

Result<Recording> recordRun(Context& ctx, const SortSettings& s) {
    Recording r;
    r.settings = s;
    auto sorter = makeSorter(ctx, s.algorithm());
    if (!sorter) return sorter.error();
    auto keys = inputKeysOf(s);
    if (!keys) return keys.error();
    r.inputKeys = std::move(*keys);
    r.inputValues = s.keyValue ? indexValues(s.n) : std::vector<uint32_t>{};
    auto job = SortJob::create(ctx, *sorter.value(), s.n, s.config(), true);
    if (!job) return job.error();
    SortJob& j = *job.value();
    SORTLAB_TRY(j.upload(r.inputKeys, r.inputValues));
    r.plan = j.plan();
    r.plan.pipelines.clear();
    // One step a submission, each read back as the app's worker reads it when a person steps forward.
    for (size_t step = 0; step <= r.plan.steps.size(); ++step) {
        if (step > 0) SORTLAB_TRY(j.runTo(step));
        auto snap = j.capture();
        if (!snap) return snap.error();
        r.steps.push_back(std::make_shared<const Snapshot>(std::move(snap.value())));
    }
    const DeviceInfo& d = ctx.info();
    r.device = {d.name, d.driver, d.typeName, utcNow(), "sortlab " SORTLAB_VERSION};
    return r;
}

int recordCommand(const Options& opt, const char* program) {
    auto fail = [&](const std::string& msg, int code) {
        std::fprintf(stderr, "%s: error: %s\n", program, msg.c_str());
        return code;
    };
    ContextOptions co;
    co.device = opt.device;
    co.validation = opt.validation;
    auto ctx = Context::create(co);
    if (!ctx) return fail(ctx.error().message, 3);
    auto rec = recordRun(*ctx.value(), opt.settings);
    if (!rec) return fail(rec.error().message, 3);
    if (auto w = writeRecording(opt.record, *rec); !w) return fail(w.error().message, 2);
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(opt.record, ec);
    std::printf("%s: recorded %s, %llu keys, %zu steps on %s (%s) into %s (%llu bytes)\n", program,
                std::string(opt.settings.algoName()).c_str(), (unsigned long long)opt.settings.n,
                rec->plan.steps.size(), rec->device.name.c_str(), rec->device.driver.c_str(), opt.record.c_str(),
                (unsigned long long)bytes);
    if (opt.validation && ctx.value()->validationMessageCount() > 0) {
        for (const std::string& m : ctx.value()->validationMessages()) std::fprintf(stderr, "%s\n", m.c_str());
        std::fprintf(stderr, "%s: %zu validation message(s)\n", program, ctx.value()->validationMessageCount());
        return 1;
    }
    return 0;
}

// [SECTION] The file: bytes in and out ----------------------------------------------------------------------

namespace {

struct Writer {
    std::vector<std::byte> out;
    void bytes(const void* p, size_t n) {
        const auto* b = static_cast<const std::byte*>(p);
        out.insert(out.end(), b, b + n);
    }
    template <class T> void put(T v) { bytes(&v, sizeof v); }
    void str(const std::string& s) {
        put(uint32_t(s.size()));
        bytes(s.data(), s.size());
    }
    // Elements of `width` bytes, stored byte plane by byte plane (every element's byte 0, then
    // byte 1, ...): the keys of a half-sorted array then compress (their sorted digits form runs).
    void planes(const void* p, size_t count, size_t width) {
        const auto* b = static_cast<const std::byte*>(p);
        const size_t at = out.size();
        out.resize(at + count * width);
        for (size_t k = 0; k < width; ++k)
            for (size_t i = 0; i < count; ++i) out[at + k * count + i] = b[i * width + k];
    }
};

// Reads with bounds checks; the first failure is kept (with its offset) and every later read
// returns zeros, so a parser checks `ok()` once per section.
struct Reader {
    const std::byte* data;
    size_t size, at = 0;
    uint64_t base = 0; // the offset of data[0] in the file, for messages
    std::string error;
    bool ok() const { return error.empty(); }
    bool need(size_t n, const char* what) {
        if (!ok()) return false;
        if (size - at < n) {
            error = "offset " + std::to_string(base + at) + ": truncated: " + what + " needs " + std::to_string(n) +
                    " bytes, " + std::to_string(size - at) + " are left";
            return false;
        }
        return true;
    }
    void fail(const std::string& what) {
        if (ok()) error = "offset " + std::to_string(base + at) + ": " + what;
    }
    bool bytes(void* p, size_t n, const char* what) {
        if (!need(n, what)) {
            std::memset(p, 0, n);
            return false;
        }
        std::memcpy(p, data + at, n);
        at += n;
        return true;
    }
    template <class T> T get(const char* what) {
        T v{};
        bytes(&v, sizeof v, what);
        return v;
    }
    std::string str(const char* what, size_t most) {
        const uint32_t n = get<uint32_t>(what);
        if (n > most) fail(std::string(what) + ": " + std::to_string(n) + " bytes is too long");
        if (!need(n, what)) return {};
        std::string s(reinterpret_cast<const char*>(data + at), n);
        at += n;
        return s;
    }
    void planes(void* p, size_t count, size_t width, const char* what) {
        if (!need(count * width, what)) return; // count < 2^41, width <= 8: no overflow
        auto* b = static_cast<std::byte*>(p);
        for (size_t k = 0; k < width; ++k)
            for (size_t i = 0; i < count; ++i) b[i * width + k] = data[at + k * count + i];
        at += count * width;
    }
};

} // namespace

// [SECTION] The metadata: settings, plan, device (JSON) ------------------------------------------------------

namespace {

using nlohmann::json;

// The settings as applySetting's pairs, in an order that applies them again to the same settings.
json settingsJson(const SortSettings& s) {
    json a = json::array();
    auto add = [&](const char* k, const std::string& v) { a.push_back(json::array({k, v})); };
    add("algo", std::string(s.algoName()));
    add("type", std::string(keyTypeName(s.key)));
    if (s.dist == Distribution::custom) {
        add("keys", s.keysText);
    } else {
        add("n", std::to_string(s.n));
        add("dist", std::string(distributionName(s.dist)));
    }
    add("values", s.keyValue ? "u32" : "none");
    add("order", std::string(orderName(s.order)));
    add("seed", std::to_string(s.seed));
    add("shared-elems", std::to_string(s.knobs.oddEvenTileKeys));
    add("tile-keys", s.tileAuto ? std::string("auto") : std::to_string(s.knobs.radixTileKeys));
    add("lookback-log", s.lookbackAuto ? "auto" : s.knobs.logLookback ? "on" : "off");
    if (s.knobs.forceFallback) add("force-fallback", "on");
    return a;
}

Result<SortSettings> settingsFrom(const json& a) {
    SortSettings s;
    if (!a.is_array()) return makeError(Errc::parse_error, "\"settings\" is not a list");
    for (const json& kv : a) {
        if (!kv.is_array() || kv.size() != 2 || !kv[0].is_string() || !kv[1].is_string())
            return makeError(Errc::parse_error, "\"settings\": an entry is not [name, value]");
        SORTLAB_TRY(applySetting(s, kv[0].get<std::string>(), kv[1].get<std::string>()));
    }
    return s;
}

json locationJson(const KeyLocation& l) {
    return {{"kind", int(l.kind)}, {"wordOffset", l.wordOffset}};
}

KeyLocation locationFrom(const json& j) {
    const int kind = j.at("kind");
    if (kind < 0 || kind > int(KeyLocation::Kind::scratchWord)) throw std::out_of_range("key location kind");
    return {KeyLocation::Kind(kind), j.at("wordOffset").get<uint64_t>()};
}

// Calls f(name, field) for every number of a plan's step that a recording stores as it is: the one
// list that writing and reading use.
template <class S, class F> void forEachStepNumber(S& s, F&& f) {
    f("firstLayer", s.firstLayer);
    f("layerCount", s.layerCount);
    f("logP", s.logP);
    f("logKHi", s.logKHi);
    f("logKLo", s.logKLo);
    f("logR", s.logR);
    f("centreRows", s.centreRows);
    f("halo", s.halo);
    f("windows", s.windows);
    f("pass", s.pass);
    f("bitLo", s.bitLo);
    f("bitHi", s.bitHi);
    f("workgroups", s.workgroups);
    f("dispatchedWorkgroups", s.dispatchedWorkgroups);
    f("portions", s.portions);
    f("tilesByIndex", s.tilesByIndex);
}

json planJson(const Plan& p) {
    json steps = json::array();
    for (const Step& s : p.steps) {
        json step = {
            {"label", s.label}, {"kind", std::string(stepKindName(s.kind))}, {"keysAfter", locationJson(s.keysAfter)}};
        forEachStepNumber(s, [&](const char* name, const auto& v) { step[name] = v; });
        steps.push_back(std::move(step));
    }
    return {{"algorithm", std::string(algorithmName(p.algorithm))},
            {"key", std::string(keyTypeName(p.config.key))},
            {"values", std::string(valueTypeName(p.config.values))},
            {"order", std::string(orderName(p.config.order))},
            {"knobs", p.config.knobs},
            {"n", p.n},
            {"needsTemp", p.needsTemp},
            {"scratchBytes", p.scratchBytes},
            {"resultLocation", locationJson(p.resultLocation)},
            {"bytesMovedFloor", p.bytesMovedFloor},
            {"tileKeys", p.tileKeys},
            {"steps", steps}};
}

// Throws (json's exceptions, std::out_of_range) on what does not read; the caller says where.
Plan planFrom(const json& j) {
    Plan p;
    const std::string algo = j.at("algorithm");
    bool found = false;
    for (Algorithm a : {Algorithm::oddeven, Algorithm::radix4, Algorithm::onesweep})
        if (algorithmName(a) == algo) p.algorithm = a, found = true;
    if (!found) throw std::out_of_range("unknown algorithm '" + algo + "'");
    auto key = parseKeyType(j.at("key").get<std::string>());
    auto values = parseValueType(j.at("values").get<std::string>());
    auto order = parseOrder(j.at("order").get<std::string>());
    if (!key || !values || !order) throw std::out_of_range("key, values or order");
    p.config = {.key = *key, .values = *values, .order = *order, .knobs = j.at("knobs").get<SortKnobs>()};
    p.n = j.at("n");
    p.needsTemp = j.at("needsTemp");
    p.scratchBytes = j.at("scratchBytes");
    p.resultLocation = locationFrom(j.at("resultLocation"));
    p.bytesMovedFloor = j.at("bytesMovedFloor");
    p.tileKeys = j.at("tileKeys");
    for (const json& s : j.at("steps")) {
        Step st;
        st.label = s.at("label");
        const std::string kind = s.at("kind");
        found = false;
        for (StepKind k : kAllStepKinds)
            if (stepKindName(k) == kind) st.kind = k, found = true;
        if (!found) throw std::out_of_range("unknown step kind '" + kind + "'");
        st.keysAfter = locationFrom(s.at("keysAfter"));
        forEachStepNumber(st, [&](const char* name, auto& v) { v = s.at(name).get<std::decay_t<decltype(v)>>(); });
        p.steps.push_back(std::move(st));
    }
    return p;
}

json metadataJson(const Recording& r) {
    const SortSettings& s = r.settings;
    return {{"format", "sortlab recording"},
            {"version", Recording::kFormatVersion},
            {"app", r.device.app},
            {"date", r.device.date},
            {"device", {{"name", r.device.name}, {"driver", r.device.driver}, {"type", r.device.type}}},
            // For people (what the settings give): the sort and its input.
            {"sort",
             {{"algo", std::string(s.algoName())},
              {"n", s.n},
              {"type", std::string(keyTypeName(s.key))},
              {"values", s.keyValue ? "u32" : "none"},
              {"order", std::string(orderName(s.order))},
              {"dist", std::string(distributionName(s.dist))},
              {"seed", s.seed}}},
            {"settings", settingsJson(s)},
            {"steps", r.steps.size()},
            {"plan", planJson(r.plan)}};
}

// The metadata into r (all but the payload); "" or what is wrong.
std::string readMetadata(const std::string& text, Recording& r) {
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return "the metadata is not a JSON object";
    try {
        if (j.at("format") != "sortlab recording") return "the metadata's \"format\" is not \"sortlab recording\"";
        r.device.app = j.at("app");
        r.device.date = j.at("date");
        r.device.name = j.at("device").at("name");
        r.device.driver = j.at("device").at("driver");
        r.device.type = j.at("device").at("type");
        auto s = settingsFrom(j.at("settings"));
        if (!s) return "the metadata's \"settings\": " + s.error().message;
        r.settings = *s;
        r.plan = planFrom(j.at("plan"));
        r.steps.resize(j.at("steps").get<size_t>() > (1u << 20) ? 0 : j.at("steps").get<size_t>());
    } catch (const std::exception& e) {
        return std::string("the metadata does not read: ") + e.what();
    }
    const SortSettings& s = r.settings;
    const Plan& p = r.plan;
    if (p.n != s.n || p.algorithm != s.algorithm() || p.config.key != s.key ||
        (p.config.values == ValueType::u32) != s.keyValue || p.config.order != s.order)
        return "the metadata's plan is not the plan of its settings";
    if (r.steps.size() != p.steps.size() + 1)
        return "the metadata says " + std::to_string(r.steps.size()) + " snapshots; its plan has " +
               std::to_string(p.steps.size()) + " steps, so " + std::to_string(p.steps.size() + 1);
    return {};
}

} // namespace

// [SECTION] The payload: input and snapshots ----------------------------------------------------------------

namespace {

// Per snapshot: u32 stepsDone, the label, u8 1 when its keys and values are the snapshot before's
// (else the keys, then the values, each byte plane by byte plane), u32 entries, and per entry: u8
// kind, u8 dimensions, u32 shape[dimensions], u64 words, the words (byte plane by byte plane).
void writeSnapshot(Writer& w, const Snapshot& s, const Snapshot* before, uint32_t keyWidth) {
    w.put(uint32_t(s.stepsDone));
    w.str(s.label);
    const bool same = before && before->keys == s.keys && before->values == s.values;
    w.put(uint8_t(same));
    if (!same) {
        w.planes(s.keys.data(), s.keys.size() / keyWidth, keyWidth);
        w.planes(s.values.data(), s.values.size(), 4);
    }
    w.put(uint32_t(s.aux.size()));
    for (const Snapshot::Aux& a : s.aux) {
        w.put(uint8_t(a.kind));
        w.put(uint8_t(a.shape.size()));
        for (uint32_t d : a.shape) w.put(d);
        w.put(uint64_t(a.data.size()));
        w.planes(a.data.data(), a.data.size(), 4);
    }
}

// What the views assume of a buffer's shape: "" or what is wrong (the sizes that depend on the
// plan, such as tiles, are checked against the words that follow).
std::string auxShapeError(const Snapshot::Aux& a, Algorithm algorithm) {
    const std::string name = "\"" + std::string(auxKindName(a.kind)) + "\"";
    const uint32_t digits = algorithm == Algorithm::onesweep ? 256 : 16;
    auto want = [&](std::vector<uint32_t> shape) {
        return a.shape == shape ? std::string()
                                : name + " has the wrong shape for " + std::string(algorithmName(algorithm));
    };
    auto rows = [&](size_t dim, uint32_t size) {
        return a.shape.size() == 2 && a.shape[dim] == size
                   ? std::string()
                   : name + " has the wrong shape for " + std::string(algorithmName(algorithm));
    };
    if (algorithm == Algorithm::oddeven) return name + ": the odd-even network has no buffers";
    switch (a.kind) {
    case AuxKind::passInfo:
        return want({4});
    case AuxKind::fallbacks:
    case AuxKind::uniformTiles:
        return want({1});
    case AuxKind::histogram:
    case AuxKind::offsets:
        return want({digits});
    case AuxKind::digitCounts:
    case AuxKind::workgroupOffsets:
        return rows(0, 16);
    case AuxKind::allHistograms:
    case AuxKind::allOffsets:
    case AuxKind::tileStatus:
    case AuxKind::tileCounts:
        return rows(1, 256);
    case AuxKind::lookbackLog:
        return a.shape.size() == 2 ? std::string() : name + " is not a table";
    }
    return name + ": unknown";
}

std::shared_ptr<const Snapshot> readSnapshot(Reader& rd, const Snapshot* before, size_t index, uint64_t n,
                                             uint32_t keyWidth, bool values, Algorithm algorithm) {
    auto s = std::make_shared<Snapshot>();
    const std::string step = "snapshot " + std::to_string(index);
    s->stepsDone = rd.get<uint32_t>("a snapshot's step");
    if (rd.ok() && s->stepsDone != index) rd.fail(step + " says it is after step " + std::to_string(s->stepsDone));
    s->label = rd.str("a snapshot's label", 4096);
    const uint8_t same = rd.get<uint8_t>("a snapshot's flag");
    if (rd.ok() && (same > 1 || (same && !before))) rd.fail(step + ": a bad 'same keys' flag");
    if (same && before) {
        s->keys = before->keys;
        s->values = before->values;
    } else {
        s->keys.resize(n * keyWidth);
        rd.planes(s->keys.data(), n, keyWidth, "a snapshot's keys");
        s->values.resize(values ? n : 0);
        rd.planes(s->values.data(), s->values.size(), 4, "a snapshot's values");
    }
    const uint32_t entries = rd.get<uint32_t>("a snapshot's entry count");
    if (entries > std::size(kAllAuxKinds)) rd.fail(step + ": " + std::to_string(entries) + " buffers");
    for (uint32_t e = 0; e < entries && rd.ok(); ++e) {
        Snapshot::Aux a;
        const uint8_t kind = rd.get<uint8_t>("a buffer's kind");
        if (rd.ok() && kind >= std::size(kAllAuxKinds)) rd.fail(step + ": unknown buffer kind " + std::to_string(kind));
        a.kind = AuxKind(kind);
        const uint8_t dims = rd.get<uint8_t>("a buffer's shape");
        if (dims > 4) rd.fail(step + ": a buffer of " + std::to_string(dims) + " dimensions");
        uint64_t cells = 1;
        for (uint8_t d = 0; d < dims && rd.ok(); ++d) {
            a.shape.push_back(rd.get<uint32_t>("a buffer's shape"));
            cells = std::min<uint64_t>(cells * a.shape.back(), uint64_t(1) << 40); // no wrap-around
        }
        if (rd.ok())
            if (std::string why = auxShapeError(a, algorithm); !why.empty()) rd.fail(step + ": " + why);
        const uint64_t words = rd.get<uint64_t>("a buffer's size");
        if (rd.ok() && words != cells)
            rd.fail(step + ": \"" + std::string(auxKindName(a.kind)) + "\" has " + std::to_string(words) +
                    " words, its shape " + std::to_string(cells));
        if (!rd.ok() || words > (rd.size - rd.at) / 4) {
            rd.need(rd.size - rd.at + 1, "a buffer's words");
            break;
        }
        a.data.resize(words);
        rd.planes(a.data.data(), words, 4, "a buffer's words");
        s->aux.push_back(std::move(a));
    }
    return s;
}

} // namespace

// [SECTION] Writing and reading -------------------------------------------------------------------------------

Result<void> writeRecording(const std::string& path, const Recording& r) {
    const uint32_t kw = keyBytes(r.settings.key);
    Writer payload;
    payload.planes(r.inputKeys.data(), r.inputKeys.size() / kw, kw);
    payload.planes(r.inputValues.data(), r.inputValues.size(), 4);
    for (size_t i = 0; i < r.steps.size(); ++i)
        writeSnapshot(payload, *r.steps[i], i ? r.steps[i - 1].get() : nullptr, kw);

    uLongf packedSize = compressBound(uLong(payload.out.size()));
    std::vector<std::byte> packed(packedSize);
    if (compress2(reinterpret_cast<Bytef*>(packed.data()), &packedSize,
                  reinterpret_cast<const Bytef*>(payload.out.data()), uLong(payload.out.size()), 9) != Z_OK)
        return makeError(Errc::io_error, path + ": zlib could not compress the recording");
    packed.resize(packedSize);
    const uint32_t crc =
        uint32_t(crc32(0, reinterpret_cast<const Bytef*>(payload.out.data()), uInt(payload.out.size())));

    Writer file;
    file.bytes(kMagic, sizeof kMagic);
    file.put(Recording::kFormatVersion);
    const std::string meta = metadataJson(r).dump(1);
    file.str(meta);
    file.put(uint64_t(payload.out.size()));
    file.put(uint64_t(packed.size()));
    file.bytes(packed.data(), packed.size());
    file.put(crc);

    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return makeError(Errc::io_error, path + ": cannot write the recording");
    out.write(reinterpret_cast<const char*>(file.out.data()), std::streamsize(file.out.size()));
    out.close();
    if (!out) return makeError(Errc::io_error, path + ": writing the recording failed");
    return {};
}

Result<std::shared_ptr<const Recording>> parseRecording(const std::vector<std::byte>& bytes, const std::string& name) {
    auto bad = [&](const std::string& what) { return makeError(Errc::parse_error, name + ": " + what); };
    Reader rd{bytes.data(), bytes.size()};
    char magic[8];
    rd.bytes(magic, 8, "the magic number");
    if (!rd.ok() || std::memcmp(magic, kMagic, 8) != 0)
        return bad("offset 0: not a sortlab recording (it does not start with SLREC)");
    const uint32_t version = rd.get<uint32_t>("the format version");
    if (rd.ok() && version != Recording::kFormatVersion)
        return bad("offset 8: format version " + std::to_string(version) + "; this sortlab reads version " +
                   std::to_string(Recording::kFormatVersion));
    const size_t metaAt = rd.at;
    const std::string meta = rd.str("the metadata", kMaxMetadata);
    if (!rd.ok()) return bad(rd.error);
    auto r = std::make_shared<Recording>();
    r->path = name;
    if (std::string why = readMetadata(meta, *r); !why.empty())
        return bad("offset " + std::to_string(metaAt) + ": " + why);
    const uint64_t plain = rd.get<uint64_t>("the payload's size");
    const size_t packedAt = rd.at;
    const uint64_t packed = rd.get<uint64_t>("the payload's compressed size");
    if (!rd.ok()) return bad(rd.error);
    if (plain > kMaxPayload)
        return bad("offset " + std::to_string(packedAt - 8) + ": a payload of " + std::to_string(plain) +
                   " bytes is too large");
    if (packed + 4 != rd.size - rd.at) {
        const uint64_t want = rd.at + packed + 4;
        return bad(packed + 4 > rd.size - rd.at
                       ? "offset " + std::to_string(rd.at) + ": truncated: the compressed payload and its CRC need " +
                             std::to_string(packed + 4) + " bytes, " + std::to_string(rd.size - rd.at) + " are left"
                       : "offset " + std::to_string(want) + ": " + std::to_string(rd.size - want) +
                             " bytes after the end of the recording");
    }
    const size_t payloadAt = rd.at;
    std::vector<std::byte> payload(plain);
    uLongf got = uLongf(plain);
    const int z = uncompress(reinterpret_cast<Bytef*>(payload.data()), &got,
                             reinterpret_cast<const Bytef*>(bytes.data() + payloadAt), uLong(packed));
    if (z != Z_OK || got != plain)
        return bad("offset " + std::to_string(payloadAt) + ": the compressed payload does not inflate to its " +
                   std::to_string(plain) + " bytes (zlib: " + (z == Z_OK ? "short" : zError(z)) + ")");
    rd.at += packed;
    const uint32_t crc = rd.get<uint32_t>("the CRC");
    if (crc != uint32_t(crc32(0, reinterpret_cast<const Bytef*>(payload.data()), uInt(payload.size()))))
        return bad("offset " + std::to_string(rd.at - 4) + ": the payload's CRC-32 does not match (a damaged file)");

    // The payload: offsets in messages count from its first uncompressed byte.
    Reader p{payload.data(), payload.size()};
    const Recording& meta_ = *r;
    const uint64_t n = meta_.settings.n;
    const uint32_t kw = keyBytes(meta_.settings.key);
    auto payloadBad = [&](const std::string& what) { return bad("payload " + what); };
    if (n > p.size / kw)
        return payloadBad("offset 0: the input needs " + std::to_string(n * kw) + " bytes, the payload has " +
                          std::to_string(p.size));
    r->inputKeys.resize(n * kw);
    p.planes(r->inputKeys.data(), n, kw, "the input keys");
    r->inputValues.resize(meta_.settings.keyValue ? n : 0);
    p.planes(r->inputValues.data(), r->inputValues.size(), 4, "the input values");
    for (size_t i = 0; i < r->steps.size() && p.ok(); ++i)
        r->steps[i] = readSnapshot(p, i ? r->steps[i - 1].get() : nullptr, i, n, kw, meta_.settings.keyValue,
                                   meta_.plan.algorithm);
    if (!p.ok()) return payloadBad(p.error);
    if (p.at != p.size)
        return payloadBad("offset " + std::to_string(p.at) + ": " + std::to_string(p.size - p.at) +
                          " bytes after the last snapshot");
    if (r->steps[0]->keys != r->inputKeys || r->steps[0]->values != r->inputValues)
        return payloadBad("snapshot 0 is not the input");
    if (auto input = inputKeysOf(r->settings); !input || *input != r->inputKeys)
        return payloadBad("the input is not the keys its settings give");
    return std::shared_ptr<const Recording>(std::move(r));
}

Result<std::shared_ptr<const Recording>> readRecording(const std::string& path) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return makeError(Errc::io_error, path + ": cannot read the recording (" + ec.message() + ")");
    if (size > kMaxPayload)
        return makeError(Errc::parse_error, path + ": " + std::to_string(size) + " bytes: too large for a recording");
    std::ifstream in(path, std::ios::binary);
    std::vector<std::byte> bytes(size);
    if (!in || !in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size)))
        return makeError(Errc::io_error, path + ": cannot read the recording");
    return parseRecording(bytes, path);
}

// [SECTION] Matching and finding --------------------------------------------------------------------------------

bool sameRun(const Recording& r, const SortSettings& s) {
    const SortSettings& a = r.settings;
    if (a.algo != s.algo || a.n != s.n || a.key != s.key || a.keyValue != s.keyValue || a.order != s.order)
        return false;
    const SortConfig ca = a.config(), cs = s.config();
    if (!(ca.knobs == cs.knobs) || ca.values != cs.values) return false;
    auto keys = inputKeysOf(s);
    return keys && *keys == r.inputKeys;
}

std::string recordedOn(const RecordedDevice& d) {
    return "recorded on " + d.name + ", " + d.date.substr(0, 10);
}

std::vector<std::string> recordingDirs(const std::string& lessonDir) {
    std::vector<std::string> dirs;
    if (!lessonDir.empty()) dirs.push_back(lessonDir);
    const std::filesystem::path exe = executableDir();
    if (exe.empty()) return dirs;
#ifdef _WIN32
    dirs.push_back((exe / "recordings").string()); // the installed layout: everything beside sortlab.exe
#endif
    dirs.push_back((exe.parent_path() / "share" / "sortlab" / "recordings").string()); // installed; the build tree
    return dirs;
}

std::string findRecording(const std::string& name, const std::string& lessonDir) {
    std::error_code ec;
    const std::filesystem::path p(name);
    if (p.is_absolute()) return std::filesystem::exists(p, ec) ? name : std::string();
    for (const std::string& dir : recordingDirs(lessonDir))
        if (std::filesystem::exists(std::filesystem::path(dir) / p, ec))
            return (std::filesystem::path(dir) / p).string();
    if (lessonDir.empty() && std::filesystem::exists(p, ec)) return name;
    return {};
}

} // namespace sortlab::app
