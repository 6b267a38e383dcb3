// The command line of sortlab-bench (and `sortlab --bench`): parses it and runs the parts.
// cases.cpp runs the cases, report.cpp prints the table and writes --json, trace.cpp writes
// --trace, export.cpp writes --export.
#include <sortlab/bench/cli.h>

#include <sortlab/bench/algos.h>
#include <sortlab/bench/cases.h>
#include <sortlab/bench/errors.h>
#include <sortlab/bench/export.h>
#include <sortlab/bench/options.h>
#include <sortlab/bench/report.h>
#include <sortlab/bench/trace.h>

#include <sortlab/context.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <new>
#include <string>

namespace sortlab::bench {

namespace {
std::string gProgram = "sortlab-bench";
} // namespace

const std::string& programName() {
    return gProgram;
}

void setProgramName(std::string name) {
    gProgram = std::move(name);
}

namespace {

const char* kExitCodes = R"(Exit codes:
  0  success
  1  a --check mismatch (each is printed to stderr with the first key that differs), or
     --validation saw Vulkan validation messages
  2  a usage error: an unknown option or value, a bad size, --trace with n > 4096,
     an algorithm or configuration the library rejects
  3  a Vulkan or device error: no Vulkan loader or driver, no (suitable) device, a device
     without a needed feature, n too large for the device or host memory, a GPU timeout;
     with --anchor cub: no CUB anchor library, or no CUDA device for it
Errors are one line on stderr: "PROGRAM: error: <message>".)";

std::string oneLine(std::string s) {
    for (size_t i = 0; (i = s.find('\n', i)) != std::string::npos;) s.replace(i, 1, "; ");
    while (!s.empty() && (s.back() == ' ' || s.back() == ';')) s.pop_back();
    return s;
}

int fail(int code, const std::string& message) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: error: %s\n", programName().c_str(), oneLine(message).c_str());
    return code;
}

// The raw command-line strings, turned into Options by finish().
struct RawOptions {
    std::string algo = "all", type = "u32", values = "none", order = "asc", n, sizes, dist = "uniform", anchor;
    std::string keys, input; // --keys, --input
    std::string oneSweepShape, oneSweepHistogram;
    bool distGiven = false;
    double timeoutS = 60;
    double bandwidth = -1;
    std::string plotN, plotY = "auto";
};

Options finish(const RawOptions& raw, Options opt) {
    opt.algos = parseAlgos(raw.algo);
    opt.types = parseTypes(raw.type);
    opt.values = parseValues(raw.values);
    opt.orders = parseOrders(raw.order);
    opt.dists = parseDists(raw.dist);
    opt.anchorCub = parseAnchor(raw.anchor);
    if (!raw.oneSweepShape.empty()) opt.oneSweepShape = parseOneSweepShape(raw.oneSweepShape);
    if (!raw.oneSweepHistogram.empty()) opt.oneSweepHistogram = parseOneSweepHistogram(raw.oneSweepHistogram);
    if (!raw.keys.empty() || !raw.input.empty()) {
        if (!raw.keys.empty() && !raw.input.empty()) usageError("--keys and --input both give the keys: use one");
        if (!raw.n.empty() || !raw.sizes.empty() || raw.distGiven)
            usageError(std::string(raw.keys.empty() ? "--input" : "--keys") +
                       " gives the keys themselves: it goes without --n, --sizes and --dist");
        std::string text = raw.keys;
        const std::string source = raw.input.empty() ? "--keys" : raw.input;
        if (!raw.input.empty()) {
            auto file = sortlab::readTextFile(raw.input);
            if (!file) usageError(file.error().message);
            text = std::move(*file);
        }
        uint64_t n = 0;
        for (sortlab::KeyType type : opt.types) { // every type must read them; read once, here
            auto keys = sortlab::parseKeys(text, type, source);
            if (!keys) usageError(keys.error().message);
            n = keys->size() / sortlab::keyBytes(type);
            opt.customKeys[type] = std::move(*keys);
        }
        opt.sizes = {n};
        opt.dists = {sortlab::Distribution::custom};
    } else if (!raw.sizes.empty()) {
        opt.sizes = parseSizeRange(raw.sizes);
    } else {
        opt.sizes = parseSizeList(raw.n.empty() ? "2^20" : raw.n);
    }
    if (!(raw.timeoutS > 0) || raw.timeoutS > 1e6) usageError("--timeout must be a number of seconds in (0, 1e6]");
    opt.timeout = std::chrono::nanoseconds(static_cast<int64_t>(raw.timeoutS * 1e9));
    if (opt.warmupMs < 0 || opt.warmupMs > 600000) usageError("--warmup-ms must be in [0, 600000]");
    if (!(raw.bandwidth >= 0) && raw.bandwidth != -1) usageError("--bandwidth must be a number of GB/s (0: none)");
    opt.bandwidthGBs = raw.bandwidth;
    if (!raw.plotN.empty()) opt.plotN = parseCount(raw.plotN, "plot-n");
    if (raw.plotY == "auto")
        opt.plotLogY = -1;
    else if (raw.plotY == "linear")
        opt.plotLogY = 0;
    else if (raw.plotY == "log")
        opt.plotLogY = 1;
    else
        usageError("unknown --plot-y '" + raw.plotY + "' (expected auto, linear or log)");
    if (!opt.tracePath.empty()) {
        for (uint64_t n : opt.sizes)
            if (n > kMaxTraceN)
                usageError("--trace writes every key after every step, so it takes n up to " +
                           std::to_string(kMaxTraceN) + "; n = " + std::to_string(n) + " is too large");
        if (!opt.needsGpu()) usageError("--trace traces GPU algorithms; --algo names none");
    }
    if (opt.lookbackLog && opt.tracePath.empty()) usageError("--lookback-log adds to --trace: give --trace FILE");
    if (opt.lookbackStats && std::none_of(opt.algos.begin(), opt.algos.end(),
                                          [](const AlgoSpec* a) { return a->gpu == Algorithm::onesweep; }))
        usageError("--lookback-stats sums up OneSweep's lookback: --algo names no onesweep variant");
    return opt;
}

int listDevices() {
    auto devices = sortlab::Context::listDevices();
    if (!devices) return fail(exitCodeFor(devices.error().code), devices.error().message);
    printDeviceList(devices.value());
    return kExitOk;
}

int run(const Options& opt) {
    std::unique_ptr<sortlab::Context> ctx;
    if (opt.needsGpu()) {
        sortlab::ContextOptions co;
        co.device = opt.device;
        co.validation = opt.validation;
        co.fenceTimeout = opt.timeout;
        co.pipelineStats = opt.pipelineStats;
        auto created = sortlab::Context::create(co);
        if (!created) libraryError(created.error());
        ctx = std::move(created.value());
    }
    // Output files first: a bad path fails before any work.
    Reporter reporter(opt);
    if (!opt.exportDir.empty()) prepareExportDir(opt.exportDir);
    auto exportIfAsked = [&] {
        if (opt.exportDir.empty()) return;
        ExportFiles files = writeExport(opt.exportDir, reporter.results(), opt);
        if (!opt.quiet)
            std::printf("exported: %s, %s, %s, %s\n", files.json.c_str(), files.csv.c_str(), files.png.c_str(),
                        files.svg.c_str());
    };
    std::unique_ptr<TraceWriter> trace;
    if (!opt.tracePath.empty()) trace = std::make_unique<TraceWriter>(opt.tracePath);

    // Makes the sorters and loads the CUB anchor (--anchor cub): fails before any output.
    RunHooks hooks;
    hooks.caseDone = [&](const std::vector<CaseResult>& rows) { reporter.addCase(rows); };
    hooks.keepGoing = opt.keepGoing;
    Runner runner(opt, ctx.get(), hooks, trace.get());
    printHeader(ctx ? &ctx->info() : nullptr, opt, runner.anchor());
    try {
        runner.run();
    } catch (...) {
        reporter.writeJson(); // keep what was measured before the error
        try {
            exportIfAsked();
        } catch (...) {
        }
        throw;
    }
    reporter.writeJson();
    exportIfAsked();

    int code = kExitOk;
    if (!opt.quiet && opt.check)
        std::printf("checks: %d passed, %d failed\n", runner.checksPassed(), runner.checksFailed());
    if (runner.checksFailed()) code = kExitCheckFailed;
    size_t errors = 0;
    for (const CaseResult& r : reporter.results()) errors += !r.error.empty();
    if (errors) {
        std::fflush(stdout);
        std::fprintf(stderr, "%s: error: %zu case%s failed (--keep-going; see the error rows)\n", programName().c_str(),
                     errors, errors == 1 ? "" : "s");
        code = kExitDevice;
    }
    if (ctx && opt.validation) {
        const size_t messages = ctx->validationMessageCount();
        if (!opt.quiet) std::printf("validation messages: %zu\n", messages);
        if (messages) {
            std::fflush(stdout);
            std::fprintf(stderr,
                         "sortlab-bench: error: %zu Vulkan validation message%s (printed above as [validation])\n",
                         messages, messages == 1 ? "" : "s");
            code = kExitCheckFailed;
        }
    }
    std::fflush(stdout);
    return code;
}

// Every flag of the command line, into opt and raw.
// What to sort: the device, algorithms, keys, values, order, sizes and inputs.
void addInputOptions(CLI::App& app, Options& opt, RawOptions& raw) {
    app.add_flag("--list-devices", opt.listDevices, "List the Vulkan devices and what they offer, then exit");
    app.add_option("--device", opt.device,
                   "Device to run on: an index or part of a name (see --list-devices); "
                   "default: the best suitable device");
    std::string algoNames, allNames;
    for (const AlgoSpec& a : allAlgos()) {
        algoNames += std::string(algoNames.empty() ? "" : ", ") + std::string(a.name);
        if (a.inAll) allNames += std::string(allNames.empty() ? "" : ",") + std::string(a.name);
    }
    app.add_option("--algo", raw.algo,
                   "Algorithms, a comma list of " + algoNames +
                       ", auto (the library picks onesweep or hybrid for "
                       "each case, as sortlab::sort's Algorithm::automatic; its row says which and why); or all (= " +
                       allNames + ")");
    app.add_option("--type", raw.type, "Key types, a comma list of u32, i32, f32, u64, i64, f64; or all");
    app.add_option("--values", raw.values, "Values sorted along: none, or u32 (the input index 0..n-1)");
    app.add_option("--order", raw.order, "Sort order: asc or desc (or asc,desc)")->capture_default_str();
    auto* nOpt = app.add_option("--n", raw.n, "Number of keys: an integer or 2^K, or a comma list (default 2^20)");
    app.add_option("--sizes", raw.sizes, "Every power of two from A to B: A..B, e.g. 2^10..2^20 or 1024..1048576")
        ->excludes(nOpt);
    app.add_option(
           "--dist", raw.dist,
           "Input distributions, a comma list of uniform, sorted, reversed, equal, few-unique, "
           "nearly-sorted, gaussian, special, small (integers 0..99), narrow (the low half of the bits), bits (low "
           "byte zero), runs (sorted runs of 1000); or all")
        ->each([&raw](const std::string&) { raw.distGiven = true; });
    app.add_flag("--lookback-log", opt.lookbackLog,
                 "OneSweep, with --trace: run the instrumented pass kernel and add each pass's lookback log to its "
                 "trace line (\"lookback\": one record per tile; docs/trace.md)");
    app.add_flag("--lookback-stats", opt.lookbackStats,
                 "OneSweep: time the instrumented pass kernel and sum up each pass's lookback log: how deep the "
                 "walks went, what they read, fallbacks, tiles taken or finished out of order (at most 65536 "
                 "tiles a pass; docs/onesweep.md)");
    app.add_option("--tile-keys", opt.knobs.radixTileKeys,
                   "radix4 and onesweep: keys per workgroup tile, from 4 up to the tuned tile (0: the tuned tile), "
                   "so that small n run several workgroups (SortKnobs::radixTileKeys)");
    app.add_option("--keys", raw.keys,
                   "The keys themselves, e.g. \"10,25,39,92,1,5,68,23,21,10\" (commas, spaces or new lines between "
                   "them; read as each --type); n is their count. Not with --n, --sizes, --dist, --input")
        ->check([](const std::string& v) { // '--keys ""' gives no keys: not the default input
            return v.find_first_not_of(" \t\r\n,") == std::string::npos ? std::string("no keys were given")
                                                                        : std::string();
        });
    app.add_option("--input", raw.input,
                   "A file of keys: one a line, or separated by commas or spaces ('#' starts a comment); n is "
                   "their count. Not with --n, --sizes, --dist, --keys");
}

// How to run and what to measure: repetitions, the anchor, statistics, tuning experiments, outputs.
void addMeasureOptions(CLI::App& app, Options& opt, RawOptions& raw) {
    app.add_option("--seed", opt.seed, "Seed of the input generator")->capture_default_str();
    app.add_option("--reps", opt.reps, "Timed repetitions per case (median and min are reported)")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--anchor", raw.anchor,
                   "Also run an anchor on every case, on the same input: cub (NVIDIA's cub::DeviceRadixSort "
                   "SortKeys/SortPairs, from libsortlab_cub_anchor.so next to sortlab-bench or $SORTLAB_CUB_ANCHOR; "
                   "needs a CUDA device). Adds a cub row per case and an 'x cub' column (>1: faster than CUB)");
    app.add_flag("--pipeline-stats", opt.pipelineStats,
                 "List, for every row, the pipelines the sort ran with what the driver says about each "
                 "(VK_KHR_pipeline_executable_properties: registers, shared memory, spills on NVIDIA), in the table "
                 "and in --json (\"pipelines\")");
    app.add_option(
        "--onesweep-shape", raw.oneSweepShape,
        "OneSweep, for tuning experiments: run the pass kernel as "
        "WxK[xP][+counts-in-tile|+counts-apart][+N-rounds][+one-tile][+index-tiles|+counter-tiles], W "
        "invocations a workgroup, K keys each, P persistent workgroups per multiprocessor, the subgroups' "
        "digit counts in the staged tile's shared memory or apart, the write-out in N rounds (with the "
        "counts apart: a staged tile of 1/N of the tile), one tile a workgroup, each workgroup's tile its own index or "
        "the next id from the pass's counter at every size, instead of its tuning table's (variant name "
        "+WxK[xP][+...]; docs/onesweep.md)");
    app.add_option("--onesweep-histogram", raw.oneSweepHistogram,
                   "OneSweep, for tuning experiments: run the histogram kernel as WxP[xC[xL]], W invocations a "
                   "workgroup, P workgroups per multiprocessor at every n (down to 16 keys an invocation), C copies "
                   "of its counts in shared memory (1 or 2), L keys an invocation loads at once, instead of its "
                   "tuning table's (variant name +histWxP[...]; docs/onesweep.md)");
    app.add_flag("--check", opt.check, "Compare every result with sortlab::referenceSort; exit 1 on a mismatch");
    app.add_option("--json", opt.jsonPath, "Write the results as a JSON array, one object per algorithm and case");
    app.add_option("--trace", opt.tracePath,
                   "Also write every GPU algorithm's keys after every step as JSON lines (n <= 4096; the "
                   "odd-even sorts are traced layer by layer); the cases are timed as usual");
}

// Checks, limits, knobs and the plot.
void addControlOptions(CLI::App& app, Options& opt, RawOptions& raw) {
    app.add_flag("--validation", opt.validation, "Enable the Vulkan validation layers; exit 1 if they report anything");
    app.add_option("--timeout", raw.timeoutS, "Seconds to wait for one GPU submission before giving up");
    app.add_flag("--force-fallback", opt.knobs.forceFallback,
                 "OneSweep: every tile counts its predecessor's keys itself instead of trusting its lookback "
                 "(SortKnobs::forceFallback; the same result, for testing; also --algo onesweep-fallback)");
    app.add_flag("--either-buffer", opt.knobs.resultInEither,
                 "Radix sorts: leave the sorted keys in whichever buffer the last pass wrote, as CUB's DoubleBuffer "
                 "form does, instead of copying them back (SortKnobs::resultInEither; variant name +either)");
    app.add_option("--shared-elems", opt.knobs.oddEvenTileKeys,
                   "Keys per odd-even tile (SortKnobs::oddEvenTileKeys; a power of two up to one subgroup window, "
                   "subgroup size x 32; 0: a whole window). Small values make small n reach every step kind");
    app.add_option("--warmup-ms", opt.warmupMs,
                   "Untimed runs before each case's timed reps: at least this many ms of them (at least one run; "
                   "GPU sorts at most 1000 runs)");
    app.add_option("--export", opt.exportDir,
                   "Write DIR/results.json (the --json schema), DIR/results.csv, and the plot as DIR/plot.png and "
                   "DIR/plot.svg (throughput against n, and the per-step times at one n)");
    app.add_option("--bandwidth", raw.bandwidth,
                   "The copy bandwidth in GB/s that the plot's bandwidth-floor lines use (0: no floor lines; "
                   "default: the measured figure for an H100/H200, none otherwise)")
        ->default_str(""); // its -1 stands for that default
    app.add_option("--plot-y", raw.plotY,
                   "The plot's Gkeys/s axis: linear, log, or auto (log when the points span more than 30x)");
    app.add_option("--plot-n", raw.plotN, "The n whose per-step times the plot shows (default: the largest with them)");
    app.add_flag("--keep-going", opt.keepGoing,
                 "A case that fails (too large for the device, out of memory, a timeout) becomes an error row and the "
                 "run goes on; larger n of that algorithm are skipped. Exit 3 at the end if any failed");
    app.add_flag("--quiet", opt.quiet, "Print nothing on stdout (errors and check failures still go to stderr)");
    // For the CLI tests only: flips a bit of every GPU result before --check compares it.
    app.add_flag("--test-corrupt-result", opt.corruptResult)->group("");
}

void addOptions(CLI::App& app, Options& opt, RawOptions& raw) {
    app.option_defaults()->always_capture_default(); // every option's help shows its default (none when empty)
    addInputOptions(app, opt, raw);
    addMeasureOptions(app, opt, raw);
    addControlOptions(app, opt, raw);
}

} // namespace

Options parseBenchOptions(const std::vector<std::string>& args) {
    CLI::App app{"benchmark options", programName()};
    Options opt;
    RawOptions raw;
    addOptions(app, opt, raw);
    std::vector<std::string> reversed(args.rbegin(), args.rend()); // CLI11 takes them last first
    try {
        app.parse(reversed);
    } catch (const CLI::ParseError& e) {
        usageError(std::string(e.what()));
    }
    if (opt.listDevices) usageError("--list-devices lists the devices; it runs no benchmark");
    return finish(raw, opt);
}

int benchMain(int argc, char** argv, const std::string& program) {
    setProgramName(program);
    CLI::App app{program + ": times sortlab's GPU sorts (Vulkan compute) against each other and std::sort, "
                           "checks their results, and traces their steps.",
                 program};
    app.footer(kExitCodes);
    app.get_formatter()->column_width(32);

    Options opt;
    RawOptions raw;
    addOptions(app, opt, raw);
    app.set_version_flag("--version", program + " " SORTLAB_VERSION);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::printf("%s", app.help().c_str());
        return kExitOk;
    } catch (const CLI::CallForVersion& e) {
        std::printf("%s\n", e.what());
        return kExitOk;
    } catch (const CLI::CallForAllHelp&) {
        std::printf("%s", app.help("", CLI::AppFormatMode::All).c_str());
        return kExitOk;
    } catch (const CLI::ParseError& e) {
        return fail(kExitUsage, std::string(e.what()) + " (see --help)");
    }

    try {
        if (opt.listDevices) return listDevices();
        return run(finish(raw, opt));
    } catch (const BenchError& e) {
        return fail(e.exitCode(), e.what());
    } catch (const std::bad_alloc&) {
        return fail(kExitDevice, "out of host memory; use a smaller n");
    } catch (const std::length_error&) {
        return fail(kExitDevice, "out of host memory (an array would be too long); use a smaller n");
    } catch (const std::exception& e) {
        return fail(kExitDevice, std::string("unexpected error: ") + e.what());
    }
}

} // namespace sortlab::bench
