// [SECTION] Case data: the input, the reference, the result buffer (and the host memory check)
// [SECTION] The CPU baseline: std::sort / std::stable_sort on the order bits
// [SECTION] The GPU sorts: SortJob, warm-up, timed reps, read back
// [SECTION] The CUB anchor (--anchor cub): the same input, through bench/cub/anchor_loader.h
// [SECTION] The case loop
#include <sortlab/bench/cases.h>

#include <sortlab/bench/anchor_loader.h>
#include <sortlab/bench/errors.h>
#include <sortlab/bench/trace.h>
#include <sortlab/internal/tuning_overrides.h>

#include "host.h"

#include <sortlab/sortlab.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>

namespace sortlab::bench {

using namespace sortlab;

std::string describe(const CaseSpec& s) {
    return std::string(keyTypeName(s.type)) + " keys" +
           (s.values == ValueType::none ? "" : " with " + std::string(valueTypeName(s.values)) + " values") + ", " +
           std::string(orderName(s.order)) + ", n=" + std::to_string(s.n) + ", " +
           std::string(distributionName(s.dist));
}

double CaseResult::gkeysPerS() const {
    return medianMs > 0 ? double(spec.n) / (medianMs * 1e6) : 0.0;
}

std::optional<double> CaseResult::gbytesPerS() const {
    if (!bytesFloor || medianMs <= 0) return std::nullopt;
    return double(*bytesFloor) / (medianMs * 1e6);
}

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

void fillTimes(CaseResult& r) {
    r.medianMs = median(r.repMs);
    r.minMs = r.repMs.empty() ? 0 : *std::min_element(r.repMs.begin(), r.repMs.end());
}

std::string gib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

} // namespace

[[noreturn]] void jobError(const Error& e, const std::string& what) {
    // After a timeout the job may be destroyed: the Context frees buffers that the timed-out
    // submission may still use only once it has finished.
    libraryError(e, what);
}

// [SECTION] Case data ----------------------------------------------------------------------------

double hostBytesForCase(const CaseSpec& spec, bool check) {
    // The input, the result and the reference (keys and values each), plus the temporaries of a
    // stable sort of key-value pairs (a pair array and std::stable_sort's buffer).
    const double unit = double(spec.n) * (keyBytes(spec.type) + valueBytes(spec.values));
    return unit * (2 + (check ? 1 : 0) + (spec.values == ValueType::none ? 1 : 2));
}

SizeLimit largestSize(Context* ctx, Sorter* sorter, const AlgoSpec& algo, KeyType type, ValueType values, bool check) {
    SizeLimit out;
    const double hostBytes = host::memoryBytes();
    for (uint32_t k = 0; k <= 40; ++k) {
        const uint64_t n = uint64_t(1) << k;
        CaseSpec spec{type, values, Order::ascending, Distribution::uniform, n, 1};
        if (hostBytes > 0 && hostBytesForCase(spec, check) > hostBytes) {
            out.why = "2^" + std::to_string(k) + " keys need about " + gib(hostBytesForCase(spec, check)) +
                      " of host memory; this machine has " + gib(hostBytes);
            break;
        }
        if (algo.gpu && ctx && sorter) {
            const SortConfig cfg = configFor(algo, type, values, Order::ascending, SortKnobs{});
            auto plan = sorter->plan(n, cfg);
            if (!plan) {
                out.why = plan.error().message;
                break;
            }
            const DeviceInfo& info = ctx->info();
            const StorageRequirements need = storageRequirements(*plan);
            const uint64_t device = need.total();
            if (info.deviceLocalBytes && device > info.deviceLocalBytes) {
                out.why = "2^" + std::to_string(k) + " keys need " + gib(double(device)) + " on " + info.name +
                          ", which has " + gib(double(info.deviceLocalBytes));
                break;
            }
            const uint64_t largest = need.largest();
            if (info.maxBufferSize && largest > info.maxBufferSize) {
                out.why = "2^" + std::to_string(k) + " keys need a buffer of " + gib(double(largest)) + "; " +
                          info.name + " allows " + gib(double(info.maxBufferSize));
                break;
            }
        }
        out.maxN = n;
    }
    return out;
}

void CaseData::generate() {
    if (generated_) return;
    // Refuse before allocating rather than let the OOM killer end us.
    const double need = hostBytesForCase(spec_, check_);
    const double have = host::memoryBytes();
    if (have > 0 && need > have)
        throw BenchError(kExitDevice, describe(spec_) + " needs about " + gib(need) + " of host memory (input, result" +
                                          (check_ ? ", reference" : "") + " and sort temporaries); this machine has " +
                                          gib(have) + "; use a smaller n");
    if (spec_.dist == Distribution::custom && spec_.customKeys) {
        keys_ = *spec_.customKeys;
    } else {
        keys_ = generateKeys(spec_.type, spec_.n, spec_.dist, spec_.seed);
    }
    if (spec_.values != ValueType::none) values_ = indexValues(spec_.n);
    generated_ = true;
    // The reference now, before any result buffer exists: its sort temporaries and the result
    // never live at the same time.
    if (check_) {
        refKeys_ = keys_;
        refValues_ = values_;
        referenceSort(refKeys_, refValues_, spec_.type, spec_.order);
    }
}

std::vector<std::byte>& CaseData::resultKeys() {
    resultKeys_.resize(spec_.n * keyBytes(spec_.type));
    return resultKeys_;
}

std::vector<uint32_t>& CaseData::resultValues() {
    resultValues_.resize(spec_.values == ValueType::none ? 0 : spec_.n);
    return resultValues_;
}

void CaseData::releaseResult() {
    std::vector<std::byte>().swap(resultKeys_);
    std::vector<uint32_t>().swap(resultValues_);
}

// [SECTION] The CPU baseline ---------------------------------------------------------------------

namespace {

// Compares keys by their order bits (keys.h), so that -0.0 < +0.0 and NaNs land where the GPU
// puts them. The kind and order are template arguments: the comparator is a couple of ALU ops.
template <class Word, KeyKind Kind, Order Ord> struct OrderLess {
    static Word bits(Word w) {
        if constexpr (sizeof(Word) == 4)
            return orderBits32(w, Kind, Ord);
        else
            return orderBits64(w, Kind, Ord);
    }
    bool operator()(Word a, Word b) const { return bits(a) < bits(b); }
};

template <class Word, class F> void withLess(KeyKind kind, Order order, F&& f) {
    const bool desc = order == Order::descending;
    switch (kind) {
    case KeyKind::unsigned_int:
        desc ? f(OrderLess<Word, KeyKind::unsigned_int, Order::descending>{})
             : f(OrderLess<Word, KeyKind::unsigned_int, Order::ascending>{});
        break;
    case KeyKind::signed_int:
        desc ? f(OrderLess<Word, KeyKind::signed_int, Order::descending>{})
             : f(OrderLess<Word, KeyKind::signed_int, Order::ascending>{});
        break;
    case KeyKind::floating:
        desc ? f(OrderLess<Word, KeyKind::floating, Order::descending>{})
             : f(OrderLess<Word, KeyKind::floating, Order::ascending>{});
        break;
    }
}

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Keys only: std::sort in the result buffer, refilled from the input before every run.
// beforeRep(rep) runs before every run (rep -1: the warm-up): progress and cancellation.
using BeforeRep = const std::function<void(int)>&;

template <class Word, class Less>
void stdSortKeys(CaseData& data, Less less, int reps, std::vector<double>& times, BeforeRep beforeRep) {
    const auto& in = data.keys();
    auto& outBytes = data.resultKeys();
    Word* out = reinterpret_cast<Word*>(outBytes.data());
    const size_t n = in.size() / sizeof(Word);
    for (int rep = -1; rep < reps; ++rep) { // rep -1: the untimed warm-up
        beforeRep(rep);
        std::memcpy(out, in.data(), in.size());
        auto t0 = std::chrono::steady_clock::now();
        std::sort(out, out + n, less);
        if (rep >= 0) times.push_back(msSince(t0));
    }
}

// Key-value: std::stable_sort of (key, value) pairs, unzipped into the result afterwards.
template <class Word, class Less>
void stdSortPairs(CaseData& data, Less less, int reps, std::vector<double>& times, BeforeRep beforeRep) {
    struct Pair {
        Word key;
        uint32_t value;
    };
    const auto& in = data.keys();
    const auto& inValues = data.values();
    const size_t n = in.size() / sizeof(Word);
    const Word* inKeys = reinterpret_cast<const Word*>(in.data());
    data.releaseResult(); // room for the pairs and std::stable_sort's buffer
    std::vector<Pair> pairs(n);
    for (int rep = -1; rep < reps; ++rep) {
        beforeRep(rep);
        for (size_t i = 0; i < n; ++i) pairs[i] = {inKeys[i], inValues[i]};
        auto t0 = std::chrono::steady_clock::now();
        std::stable_sort(pairs.begin(), pairs.end(), [&](const Pair& a, const Pair& b) { return less(a.key, b.key); });
        if (rep >= 0) times.push_back(msSince(t0));
    }
    Word* outKeys = reinterpret_cast<Word*>(data.resultKeys().data());
    uint32_t* outValues = data.resultValues().data();
    for (size_t i = 0; i < n; ++i) {
        outKeys[i] = pairs[i].key;
        outValues[i] = pairs[i].value;
    }
}

template <class Word>
void stdSort(CaseData& data, const CaseSpec& spec, int reps, std::vector<double>& times, BeforeRep beforeRep) {
    withLess<Word>(keyKind(spec.type), spec.order, [&](auto less) {
        if (spec.values == ValueType::none)
            stdSortKeys<Word>(data, less, reps, times, beforeRep);
        else
            stdSortPairs<Word>(data, less, reps, times, beforeRep);
    });
}

std::string compilerName() {
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "libstdc++, g++ " __VERSION__;
#else
    return "C++ standard library";
#endif
}

} // namespace

CaseResult Runner::runStd(const AlgoSpec& algo, const CaseSpec& spec, CaseData& data) {
    CaseResult r;
    r.algo = &algo;
    r.spec = spec;
    r.variant = variantFor(algo, configFor(algo, spec.type, spec.values, spec.order, opt_.knobs));
    r.device = "host CPU";
    r.driver = compilerName();
    r.timer = "host clock";
    auto beforeRep = [&](int rep) {
        poll();
        progress(&algo, spec, rep + 1, opt_.reps);
    };
    if (keyBytes(spec.type) == 4)
        stdSort<uint32_t>(data, spec, opt_.reps, r.repMs, beforeRep);
    else
        stdSort<uint64_t>(data, spec, opt_.reps, r.repMs, beforeRep);
    fillTimes(r);
    checkResult(algo, spec, data, r);
    return r;
}

// [SECTION] The GPU sorts ------------------------------------------------------------------------

namespace {

template <class T>
Result<void> sortAs(Context& ctx, std::vector<std::byte>& keys, std::vector<uint32_t>* values, const SortOptions& o) {
    const std::span<T> k(reinterpret_cast<T*>(keys.data()), keys.size() / sizeof(T));
    return values ? sortPairs(ctx, k, std::span(*values), o) : sort(ctx, k, o);
}

// sortlab::sort (or sortPairs) on keys of type `type` held as bytes.
Result<void> sortOneCall(Context& ctx, KeyType type, std::vector<std::byte>& keys, std::vector<uint32_t>* values,
                         const SortOptions& o) {
    switch (type) {
    case KeyType::u32:
        return sortAs<uint32_t>(ctx, keys, values, o);
    case KeyType::i32:
        return sortAs<int32_t>(ctx, keys, values, o);
    case KeyType::f32:
        return sortAs<float>(ctx, keys, values, o);
    case KeyType::u64:
        return sortAs<uint64_t>(ctx, keys, values, o);
    case KeyType::i64:
        return sortAs<int64_t>(ctx, keys, values, o);
    case KeyType::f64:
        return sortAs<double>(ctx, keys, values, o);
    }
    return makeError(Errc::invalid_argument, "unknown key type");
}

} // namespace

CaseResult Runner::runAutomatic(const AlgoSpec& algo, const CaseSpec& spec, CaseData& data) {
    const std::string what = std::string(algo.name) + " (" + describe(spec) + ")";
    std::vector<std::byte> keys = data.keys();
    std::vector<uint32_t> values = data.values();
    SortReport report;
    SortOptions o;
    o.order = spec.order;
    o.algorithm = Algorithm::automatic;
    o.report = &report;
    if (auto r = sortOneCall(*ctx_, spec.type, keys, spec.values == ValueType::none ? nullptr : &values, o); !r)
        libraryError(r.error(), what);
    const AlgoSpec* chosen = nullptr;
    for (const AlgoSpec& a : allAlgos())
        if (a.gpu == report.algorithm && a.variant == variantOf(report.algorithm, SortConfig{})) chosen = &a;
    if (!chosen)
        libraryError(makeError(Errc::invalid_argument, "no --algo for " + std::string(algorithmName(report.algorithm))),
                     what);
    CaseResult r = runGpu(*chosen, spec, data);
    r.algo = &algo;
    r.variant = std::string(chosen->name) + ":" + r.variant; // (the table's variant column says the pick)
    r.chose = chosen->name;
    r.why = report.why;
    return r;
}

CaseResult Runner::runGpu(const AlgoSpec& algo, const CaseSpec& spec, CaseData& data) {
    if (algo.gpu == Algorithm::automatic) return runAutomatic(algo, spec, data);
    Context& ctx = *ctx_;
    SortConfig cfg = configFor(algo, spec.type, spec.values, spec.order, opt_.knobs);
    cfg.knobs.logLookback = opt_.lookbackStats && algo.gpu == Algorithm::onesweep;
    cfg.knobs.logInIdOrder = false; // the statistics: the schedule as free as the log lets it be
    const std::string what = std::string(algo.name) + " (" + describe(spec) + ")";

    CaseResult r;
    r.algo = &algo;
    r.spec = spec;
    r.variant = variantFor(algo, cfg) + shapeSuffix(algo);
    r.device = ctx.info().name;
    ctx.beginPipelineUse();
    r.driver = ctx.info().driver;
    std::unique_ptr<SortJob> owned = makeJob(cfg, spec, r, what);
    SortJob& j = *owned;
    r.steps = j.plan().steps.size();
    r.bytesFloor = j.plan().bytesMovedFloor;
    r.oddEvenTileKeys = j.plan().algorithm == Algorithm::oddeven ? uint32_t(j.plan().tileKeys) : 0;
    timeRuns(j, algo, spec, data, r, what);
    readPassInfo(j, cfg, r, what);
    if (opt_.pipelineStats) r.pipelines = ctx.pipelinesUsed();
    if (opt_.check) {
        if (auto res = j.download(data.resultKeys(), data.resultValues()); !res) jobError(res.error(), what);
        if (opt_.corruptResult && spec.n > 0) data.resultKeys()[(spec.n / 2) * keyBytes(spec.type)] ^= std::byte{1};
        checkResult(algo, spec, data, r);
    }
    return r;
}

std::unique_ptr<SortJob> Runner::makeJob(const SortConfig& cfg, const CaseSpec& spec, CaseResult& r,
                                         const std::string& what) {
    Sorter& sorter = *sorters_.at(*r.algo->gpu);
    // Keep a device copy of the input so that every rep starts from it; when the device cannot
    // hold that copy too, run without it: one timed rep, the input uploaded again after the warm-up.
    auto job = SortJob::create(*ctx_, sorter, spec.n, cfg, true);
    if (!job && job.error().code == Errc::out_of_memory) {
        auto again = SortJob::create(*ctx_, sorter, spec.n, cfg, false);
        if (again) {
            if (!opt_.quiet)
                std::printf("note: %s: the device cannot also hold a copy of the input; running 1 timed rep, "
                            "re-uploading the input after the warm-up\n",
                            what.c_str());
            r.keepInput = false;
            job = std::move(again);
        }
    }
    if (!job && opt_.knobs.oddEvenTileKeys && job.error().code == Errc::invalid_argument)
        libraryError(job.error(), what + " with --shared-elems " + std::to_string(opt_.knobs.oddEvenTileKeys));
    if (!job) libraryError(job.error(), what);
    return std::move(job.value());
}

void Runner::timeRuns(SortJob& j, const AlgoSpec& algo, const CaseSpec& spec, CaseData& data, CaseResult& r,
                      const std::string& what) {
    auto upload = [&] {
        if (auto res = j.upload(data.keys(), data.values()); !res) jobError(res.error(), what);
    };
    upload();
    // Warm-up: after seconds of CPU-only work (a large std::sort) the H200 ran the next GPU case
    // at a steady 2-5x slower pace for a few hundred ms, then at full speed (clock states; seen
    // 2026-11-21, with 1 and with 200 ms of warm-up). So keep the GPU busy for at least one second
    // (at most 1000 runs) before timing; a single run when the input is not kept. --warmup-ms
    // changes the second (the tests use 0: one run).
    const auto warmStart = std::chrono::steady_clock::now();
    for (int w = 0; w < (r.keepInput ? 1000 : 1); ++w) {
        poll();
        if (auto warm = j.run(false); !warm) jobError(warm.error(), what);
        if (std::chrono::steady_clock::now() - warmStart >= std::chrono::milliseconds(opt_.warmupMs)) break;
    }
    if (!r.keepInput) upload();

    const int reps = r.keepInput ? opt_.reps : 1;
    std::vector<std::vector<double>> perStep(r.steps);
    for (int rep = 0; rep < reps; ++rep) {
        poll();
        progress(&algo, spec, rep + 1, reps);
        auto t = j.run(true);
        if (!t) jobError(t.error(), what);
        r.repMs.push_back(t->totalMs);
        r.timer = t->gpuTimestamps ? "gpu timestamps" : "wall clock";
        for (size_t i = 0; i < t->stepMs.size() && i < r.steps; ++i) perStep[i].push_back(t->stepMs[i]);
    }
    fillTimes(r);
    if (!perStep.empty() && !perStep[0].empty())
        for (size_t i = 0; i < r.steps; ++i)
            r.stepMs.push_back({j.plan().steps[i].label, j.plan().steps[i].kind, median(perStep[i])});
}

void Runner::readPassInfo(SortJob& j, const SortConfig& cfg, CaseResult& r, const std::string& what) {
    // Which radix passes the GPU skipped (radix4's scatters, OneSweep's passes: every key had the
    // same digit), read once from each pass's info words, which stay after the run.
    const auto& steps = j.plan().steps;
    std::vector<bool> skipped(steps.size(), false);
    for (size_t i = 0; i < steps.size(); ++i) {
        if (!isDigitPass(steps[i].kind)) continue;
        auto info = j.captureAuxOf(i + 1, AuxKind::passInfo);
        if (!info) jobError(info.error(), what);
        skipped[i] = !info->empty() && Snapshot::skipped(&info->front());
    }
    for (size_t i = 0; i < r.stepMs.size(); ++i) r.stepMs[i].skipped = skipped[i];
    if (j.plan().algorithm == Algorithm::onesweep)
        for (size_t i = steps.size(); i-- > 0;)
            if (steps[i].kind == StepKind::pass) { // the last pass (all its portions)
                auto f = j.captureAuxOf(i + 1, AuxKind::fallbacks);
                if (!f) jobError(f.error(), what);
                if (!f->empty() && f->front().data.size() == 1) {
                    r.fallbacks = f->front().data[0];
                    r.fallbackTiles = steps[i].workgroups;
                }
                break;
            }
    if (cfg.knobs.logLookback) // each pass's log stays where it wrote it: read them all after the last rep
        for (size_t i = 0; i < steps.size(); ++i) {
            if (steps[i].kind != StepKind::pass || skipped[i]) continue; // a skipped pass logs nothing
            auto log = j.captureAuxOf(i + 1, AuxKind::lookbackLog);
            if (!log) jobError(log.error(), what);
            if (log->empty()) continue;
            r.lookback.push_back(lookbackStats(lookbackRecords(log->front())));
            r.lookbackPass.push_back(steps[i].pass);
        }
}

void Runner::checkResult(const AlgoSpec& algo, const CaseSpec& spec, CaseData& data, CaseResult& r) {
    if (!opt_.check) return;
    CheckResult c = compareSorted(data.refKeys(), data.refValues(), data.resultKeys(), data.resultValues(), spec.type,
                                  spec.order, algo.stable);
    r.check = c.ok ? "pass" : "fail";
    r.checkMessage = c.message;
    if (c.ok) {
        ++passed_;
        return;
    }
    ++failed_;
    std::fprintf(stderr, "%s: check failed: %s %s on %s: %s\n", programName().c_str(), std::string(algo.name).c_str(),
                 r.variant.c_str(), describe(spec).c_str(), c.message.c_str());
    std::fflush(stderr);
}

// [SECTION] The CUB anchor -----------------------------------------------------------------------

CaseResult Runner::runCub(const CaseSpec& spec, CaseData& data) {
    const AlgoSpec& algo = cubAlgo();
    CaseResult r;
    r.algo = &algo;
    r.spec = spec;
    r.variant = spec.values == ValueType::none ? "SortKeys" : "SortPairs";
    r.device = anchor_->device();
    r.driver = anchor_->versions();
    r.timer = "cuda events";
    SortConfig floorConfig;
    floorConfig.key = spec.type;
    floorConfig.values = spec.values;
    r.bytesFloor = oneSweepBytesFloor(spec.n, floorConfig); // CUB's onesweep moves what ours must
    const std::string what = "cub " + r.variant + " (" + describe(spec) + ")";
    // The same warm-up as the GPU sorts (>= 1 s of sorting before the timed reps).
    std::span<std::byte> outKeys;
    std::span<uint32_t> outValues;
    if (opt_.check) {
        outKeys = data.resultKeys();
        outValues = data.resultValues();
    }
    poll();
    r.repMs = anchor_->sort(spec.type, spec.order, spec.n, data.keys(), data.values(), opt_.reps,
                            uint32_t(opt_.warmupMs), outKeys, outValues, what);
    fillTimes(r);
    if (opt_.check) {
        orderSignedZeros(spec.type, spec.order, data.refKeys(), outKeys, outValues);
        if (opt_.corruptResult && spec.n > 0) outKeys[(spec.n / 2) * keyBytes(spec.type)] ^= std::byte{1};
        checkResult(algo, spec, data, r);
    }
    return r;
}

// [SECTION] The case loop ------------------------------------------------------------------------

Runner::Runner(const Options& options, Context* ctx, RunHooks hooks, TraceWriter* trace)
    : opt_(options), ctx_(ctx), hooks_(std::move(hooks)), trace_(trace) {
    for (const AlgoSpec* a : opt_.algos) {
        if (!a->gpu) continue;
        for (Algorithm g : a->gpu == Algorithm::automatic ? std::vector{Algorithm::onesweep, Algorithm::hybrid}
                                                          : std::vector{*a->gpu}) {
            if (sorters_.count(g)) continue;
            auto s = makeSorter(*ctx_, g);
            if (!s) libraryError(s.error(), "--algo " + std::string(a->name));
            sorters_[g] = std::move(s.value());
        }
    }
    const OneSweepShape& shape = opt_.oneSweepShape;
    const OneSweepHistogram& hist = opt_.oneSweepHistogram;
    if ((shape.set() || hist.set()) && sorters_.count(Algorithm::onesweep))
        internal::setOneSweepLimits(*sorters_[Algorithm::onesweep],
                                    {.workgroup = shape.workgroup,
                                     .keysPerLane = shape.keysPerLane,
                                     .perMultiprocessor = shape.perMultiprocessor,
                                     .countsInTile = shape.countsInTile,
                                     .exchangeRounds = shape.exchangeRounds,
                                     .oneTileAWorkgroup = shape.oneTile,
                                     .indexTiles = shape.indexTiles,
                                     .histogramWorkgroup = hist.workgroup,
                                     .histogramPerMultiprocessor = hist.perMultiprocessor,
                                     .histogramCopies = hist.copies,
                                     .histogramLoads = hist.loads});
    if (opt_.anchorCub) anchor_ = CubAnchor::load();
}

Runner::~Runner() = default;

double unitWeight(uint64_t n) {
    // A run's time: the warm-up (about the same for every n) plus reps that grow with n. 2^20 keys'
    // worth stands for the warm-up, so small sizes count like it and the large ones by their n.
    return double(n) + double(1 << 20);
}

void Runner::poll() {
    if (hooks_.cancelled && hooks_.cancelled()) throw RunCancelled{};
}

void Runner::progress(const AlgoSpec* algo, const CaseSpec& spec, int rep, int reps) {
    if (!hooks_.progress) return;
    progress_.current = (algo ? std::string(algo->name) : std::string("cub")) + " (" + describe(spec) + ")";
    progress_.rep = rep;
    progress_.reps = reps;
    // The weight of the unit under way grows with its reps (the warm-up counts as one).
    const double unitDone = reps > 0 ? unitWeight(spec.n) * double(rep) / double(reps + 1) : 0;
    RunProgress p = progress_;
    p.weightDone += unitDone;
    hooks_.progress(p);
}

std::string Runner::shapeSuffix(const AlgoSpec& algo) const {
    if (algo.gpu != Algorithm::onesweep) return "";
    std::string s;
    if (opt_.oneSweepShape.set()) s += "+" + opt_.oneSweepShape.name();
    if (opt_.oneSweepHistogram.set()) s += "+" + opt_.oneSweepHistogram.name();
    return s;
}

CaseResult Runner::errorRow(const AlgoSpec& algo, const CaseSpec& spec, const std::string& why) const {
    CaseResult r;
    r.algo = &algo;
    r.spec = spec;
    r.variant = variantFor(algo, configFor(algo, spec.type, spec.values, spec.order, opt_.knobs)) + shapeSuffix(algo);
    r.device = algo.gpu && ctx_ ? ctx_->info().name : "host CPU";
    r.driver = algo.gpu && ctx_ ? ctx_->info().driver : "";
    if (&algo == &cubAlgo()) r.variant = spec.values == ValueType::none ? "SortKeys" : "SortPairs";
    r.timer = "none";
    r.check = "error";
    r.error = why;
    return r;
}

void Runner::run() {
    progress_ = {};
    const size_t perCase = opt_.algos.size() + (anchor_ ? 1 : 0);
    for (KeyType type : opt_.types)
        for (ValueType values : opt_.values)
            for (Order order : opt_.orders)
                for (Distribution dist : opt_.dists)
                    for (uint64_t n : opt_.sizes) {
                        (void)type, (void)values, (void)order, (void)dist;
                        progress_.unitsTotal += perCase;
                        progress_.weightTotal += unitWeight(n) * double(perCase);
                    }
    for (KeyType type : opt_.types)
        for (ValueType values : opt_.values)
            for (Order order : opt_.orders)
                for (Distribution dist : opt_.dists)
                    for (uint64_t n : opt_.sizes)
                        runCase(CaseSpec{type, values, order, dist, n, opt_.seed,
                                         dist == Distribution::custom && opt_.customKeys.count(type)
                                             ? &opt_.customKeys.at(type)
                                             : nullptr});
}

void Runner::runCase(const CaseSpec& spec) {
    CaseData data(spec, opt_.check);
    if (trace_)
        for (const AlgoSpec* a : opt_.algos)
            if (a->gpu && a->gpu != Algorithm::automatic) // (auto: the algorithm it picks is traced where named)
                trace_->traceCase(*ctx_, *sorters_.at(*a->gpu), *a, spec, data.keys(), data.values(), opt_.knobs,
                                  opt_.lookbackLog);

    std::vector<CaseResult> results;
    // One algorithm on this case; with keepGoing, a failure becomes its error row.
    auto unit = [&](const AlgoSpec& algo, auto&& runIt) {
        poll();
        progress(&algo, spec, 0, 0);
        const auto key = std::make_tuple(&algo, spec.type, spec.values);
        if (auto f = failedAt_.find(key); hooks_.keepGoing && f != failedAt_.end() && spec.n > f->second.first)
            results.push_back(
                errorRow(algo, spec,
                         "not run: it failed at n=" + std::to_string(f->second.first) + " (" + f->second.second + ")"));
        else if (!hooks_.keepGoing)
            results.push_back(runIt());
        else
            try {
                results.push_back(runIt());
            } catch (const BenchError& e) {
                results.push_back(errorRow(algo, spec, e.what()));
                if (!failedAt_.count(key)) failedAt_[key] = {spec.n, e.what()};
            } catch (const std::bad_alloc&) {
                results.push_back(errorRow(algo, spec, "out of host memory; use a smaller n"));
                if (!failedAt_.count(key)) failedAt_[key] = {spec.n, "out of host memory"};
            }
        progress_.unitsDone++;
        progress_.weightDone += unitWeight(spec.n);
    };
    for (const AlgoSpec* a : opt_.algos)
        unit(*a, [&] { return a->gpu ? runGpu(*a, spec, data) : runStd(*a, spec, data); });
    // CUB last: after the Vulkan sorts have freed their device memory. Its row follows theirs.
    if (anchor_) unit(cubAlgo(), [&] { return runCub(spec, data); });

    // "x std": the speed-up over the CPU baseline of this case, when it ran; "x cub": the speed-up
    // over CUB (the cub row's 1x included), for the GPU sorts.
    const CaseResult *base = nullptr, *cub = nullptr;
    for (const CaseResult& r : results) {
        if (r.algo == &cubAlgo())
            cub = &r;
        else if (!r.algo->gpu)
            base = &r;
    }
    if (base && base->medianMs > 0)
        for (CaseResult& r : results)
            if (r.medianMs > 0) r.speedupVsStd = base->medianMs / r.medianMs;
    if (cub && cub->medianMs > 0)
        for (CaseResult& r : results)
            if (r.medianMs > 0 && (r.algo->gpu || &r == cub)) r.speedupVsCub = cub->medianMs / r.medianMs;
    if (hooks_.caseDone) hooks_.caseDone(results);
}

} // namespace sortlab::bench
