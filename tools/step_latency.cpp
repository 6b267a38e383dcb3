// sortlab-step-latency: how long the app takes from a key press to the view the next frame draws,
// measured without a window (issue 5: "stepping at n = 2^20 on an H100/H200: under 50 ms from key
// press to the new frame").
//
// What it times is the app's own code: it links sortlab_app_core (app/core, the app's windowless
// part, compiled once for the app and this tool) and drives a SortWorker with the same calls app/app.cpp makes for each
// key (Right: goTo(target + 1), Left: goTo(target - 1), End: goTo(steps), R: setSettings with the next seed), then
// waits until the worker has published the View the next frame would draw. That View includes everything the worker
// prepares for the views: the GPU steps, the readback (SortJob::capture), the downsampled strip for n > 4096, the
// odd-even model's swap counts (n <= 2^16) and, with --check, the CPU reference and its comparison. It needs no GLFW,
// ImGui or display (it is built even where the app is not), so it runs on the GPU machines, which have none of them:
// like sortlab-bench it links libstdc++ and libgcc statically and opens libvulkan.so.1 at run time.
//
// Not included, and said so in the output: the frames. The main thread handles the key in a frame,
// and draws the new View in the next one (ImGui build, record, submit, present; with vsync the
// image appears at the display's next refresh). docs/notebook/2026-11-22-app-frame-times.md gives what a frame cost.
//
// The device is picked as the app picks it (sortlab::Context::create: --device, or the best
// suitable device; the app also needs a queue that presents, which a machine without a display has
// no use for). Exit codes as sortlab-bench: 0 ok, 1 validation messages (--validation) or a check
// mismatch (--check), 2 usage, 3 no Vulkan, no (suitable) device, a sort error or a timeout. Every
// error is one line on stderr.
#include <sortlab/app/options.h>
#include <sortlab/app/settings.h>
#include <sortlab/app/sort_worker.h>

#include <sortlab/context.h>

#include <CLI/CLI.hpp>

#include "cli_parse.h"
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace sortlab;
using namespace sortlab::app;
using Clock = std::chrono::steady_clock;

constexpr const char* kProgram = "sortlab-step-latency";

const char* kNotIncluded =
    "not included: drawing frames. The app handles a key in one frame and draws the new view in the next "
    "(ImGui build, record, submit, present; with vsync the image appears at the display's next refresh). "
    "On a desktop GPU that is a frame of the renderer; docs/notebook/2026-11-22-app-frame-times.md gives its CPU time.";

int fail(int code, const std::string& message) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: error: %s\n", kProgram, message.c_str());
    return code;
}

struct Failure {
    int code;
    std::string message;
};

// One key press as the app makes it, and what it cost.
struct Action {
    const char* name; // JSON name
    const char* key;  // the key the app maps to it
    const char* what; // table text
    std::vector<double> ms, stepMs;
    std::vector<size_t> fromStep, toStep;
};

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    // Nearest rank: the smallest sample with at least p of the samples at or below it.
    size_t rank = size_t(std::ceil(p * double(v.size())));
    return v[std::clamp<size_t>(rank, 1, v.size()) - 1];
}

class Driver {
public:
    Driver(Context& ctx, std::chrono::milliseconds timeout)
        : worker_(ctx, [this] { published_.store(Clock::now().time_since_epoch().count()); }), timeout_(timeout) {}

    SortWorker& worker() { return worker_; }

    // Makes the request, waits until the worker is idle and returns the wall time from the
    // request to the worker's publishing the View (the wake it sends the window), in ms.
    template <class Request> double timed(Request request, size_t expectStep, double* stepMs) {
        published_.store(0);
        const Clock::time_point t0 = Clock::now();
        request();
        if (!worker_.waitIdle(timeout_))
            throw Failure{3, "the worker did not publish step " + std::to_string(expectStep) + " within " +
                                 std::to_string(timeout_.count() / 1000) + " s (--timeout-s)"};
        const Clock::time_point t1 = Clock::now();
        const SortWorker::View v = worker_.view();
        if (!v.error.empty()) throw Failure{3, v.error};
        if (!v.data || v.data->step != expectStep)
            throw Failure{3, "the worker published step " + std::to_string(v.data ? v.data->step : 0) + ", expected " +
                                 std::to_string(expectStep)};
        if (v.data->check.available && !v.data->check.ok) ++checkFailures_;
        const int64_t at = published_.load();
        const Clock::time_point published = at ? Clock::time_point(Clock::duration(at)) : t1;
        *stepMs = v.data->stepMs;
        return std::chrono::duration<double, std::milli>(std::max(published, t0) - t0).count();
    }

    int checkFailures() const { return checkFailures_; }

private:
    std::atomic<Clock::rep> published_{0};
    SortWorker worker_;
    std::chrono::milliseconds timeout_;
    int checkFailures_ = 0;
};

struct AlgoResult {
    std::string name; // the --algo name
    Variant variant = Variant::oddevenLayer;
    bool available = false;
    std::string why;
    size_t planSteps = 0;
    std::vector<Action> actions;
};

// The key presses for one algorithm: per rep, R (a new input), Right `forward` times, Left `back`
// times (stored snapshots), R again, End (the whole plan from the input). Warm-up reps are run the
// same way and not recorded.
void measure(Driver& d, AlgoResult& r, SortSettings settings, int reps, int warmup, size_t forward, size_t back) {
    SortWorker& w = d.worker();
    r.actions = {{"new_input", "R", "new input (R)"},
                 {"step_forward", "Right", "step forward (Right)"},
                 {"step_back", "Left", "step back (Left)"},
                 {"run_to_end", "End", "run to end (End)"}};
    Action &input = r.actions[0], &right = r.actions[1], &left = r.actions[2], &end = r.actions[3];
    double stepMs = 0;
    // Choosing the algorithm in the menu: a new job at step 0 (untimed).
    d.timed([&] { w.setSettings(settings); }, 0, &stepMs);
    r.planSteps = w.view().job.plan->steps.size();
    const size_t steps = r.planSteps;
    forward = std::min(forward, steps);
    back = std::min(back, forward);
    for (int rep = 0; rep < warmup + reps; ++rep) {
        const bool keep = rep >= warmup;
        auto record = [&](Action& a, double ms, size_t from, size_t to) {
            if (!keep) return;
            a.ms.push_back(ms);
            a.stepMs.push_back(stepMs);
            a.fromStep.push_back(from);
            a.toStep.push_back(to);
        };
        auto newInput = [&] {
            ++settings.seed; // the app's R: the same settings with the next seed
            const size_t from = w.view().data ? w.view().data->step : 0;
            record(input, d.timed([&] { w.setSettings(settings); }, 0, &stepMs), from, 0);
        };
        newInput();
        size_t target = 0;
        for (size_t i = 0; i < forward; ++i, ++target)
            record(right, d.timed([&] { w.goTo(target + 1); }, target + 1, &stepMs), target, target + 1);
        for (size_t i = 0; i < back; ++i, --target)
            record(left, d.timed([&] { w.goTo(target - 1); }, target - 1, &stepMs), target, target - 1);
        newInput();
        record(end, d.timed([&] { w.goTo(steps); }, steps, &stepMs), 0, steps);
    }
}

void printTable(const std::vector<AlgoResult>& results) {
    std::printf("%-14s %-21s %6s %10s %9s %9s %13s\n", "algo", "action", "count", "median ms", "p95 ms", "max ms",
                "step_ms med.");
    for (const AlgoResult& r : results) {
        const std::string& algo = r.name;
        if (!r.available) {
            std::printf("%-14s not available: %s\n", algo.c_str(), r.why.c_str());
            continue;
        }
        for (const Action& a : r.actions) {
            if (a.ms.empty()) continue;
            std::printf("%-14s %-21s %6zu %10.2f %9.2f %9.2f %13.2f\n", algo.c_str(), a.what, a.ms.size(),
                        percentile(a.ms, 0.5), percentile(a.ms, 0.95), *std::max_element(a.ms.begin(), a.ms.end()),
                        percentile(a.stepMs, 0.5));
        }
    }
}

nlohmann::json toJson(const std::vector<AlgoResult>& results) {
    nlohmann::json out = nlohmann::json::array();
    for (const AlgoResult& r : results) {
        nlohmann::json a;
        a["algo"] = r.name;
        a["label"] = std::string(variantInfo(r.variant).label);
        a["available"] = r.available;
        if (!r.available) {
            a["why"] = r.why;
            out.push_back(a);
            continue;
        }
        a["plan_steps"] = r.planSteps;
        nlohmann::json actions = nlohmann::json::array();
        for (const Action& x : r.actions) {
            nlohmann::json j;
            j["action"] = x.name;
            j["key"] = x.key;
            j["count"] = x.ms.size();
            j["median_ms"] = percentile(x.ms, 0.5);
            j["p95_ms"] = percentile(x.ms, 0.95);
            j["max_ms"] = x.ms.empty() ? 0.0 : *std::max_element(x.ms.begin(), x.ms.end());
            j["min_ms"] = x.ms.empty() ? 0.0 : *std::min_element(x.ms.begin(), x.ms.end());
            j["step_ms_median"] = percentile(x.stepMs, 0.5);
            j["samples_ms"] = x.ms;
            j["step_ms"] = x.stepMs;
            j["from_step"] = x.fromStep;
            j["to_step"] = x.toStep;
            actions.push_back(j);
        }
        a["actions"] = actions;
        out.push_back(a);
    }
    return out;
}

// The command line.
struct LatencyOptions {
    std::string device, algoList = "oddeven-layer,oddeven,radix4,onesweep", jsonPath;
    InputArgs input{.n = "2^20", .dist = "uniform"};
    bool validation = false, check = false;
    int reps = 3, warmup = 1;
    size_t forward = 20, back = 10;
    double timeoutS = 300;
};

void addOptions(CLI::App& cli, LatencyOptions& o) {
    addDeviceOptions(cli, o.device, o.validation, o.check); // as in the app
    cli.add_option("--algo", o.algoList,
                   "comma list of the app's algorithms: " + variantNamesText() + " (all but onesweep-fallback)");
    addInputOptions(cli, o.input);
    cli.add_option("--steps", o.forward, "Right presses per rep, from step 0 (20, at most the plan's steps)");
    cli.add_option("--back", o.back, "Left presses per rep after them (10)");
    cli.add_option("--reps", o.reps, "timed reps per algorithm (3)");
    cli.add_option("--warmup", o.warmup, "untimed reps per algorithm first (1)");
    cli.add_option("--timeout-s", o.timeoutS, "longest wait for one key's view, in seconds (300)");
    cli.add_option("--json", o.jsonPath, "also write the results (every sample) as JSON to this file");
    cli.footer("Per rep and algorithm: R, Right x --steps, Left x --back, R, End (from the new input); --seed is the "
               "first seed, each R takes the next one, as in the app.\n"
               "Exit codes: 0 ok; 1 validation messages (--validation) or a --check mismatch; 2 usage error; 3 no "
               "Vulkan, no suitable device, a sort error or a timeout. Errors are one line on stderr.\n"
               "Example (GPU machine): sortlab-step-latency --n 2^20 --json latency.json");
}

// The settings of each --algo (the input as --n, --type, --dist and --seed give it), or the usage
// error's exit code.
std::optional<int> algoSettings(const LatencyOptions& o, SortSettings& base, std::vector<SortSettings>& algos) {
    if (auto ok = applyInput(base, o.input); !ok) return fail(2, ok.error().message);
    const std::string& algoList = o.algoList;
    for (size_t at = 0; at <= algoList.size();) {
        size_t comma = algoList.find(',', at);
        if (comma == std::string::npos) comma = algoList.size();
        SortSettings s = base;
        if (auto ok = applySetting(s, "algo", algoList.substr(at, comma - at)); !ok) return fail(2, ok.error().message);
        algos.push_back(s);
        at = comma + 1;
    }
    if (o.reps < 1 || o.warmup < 0 || o.forward < 1 || !(o.timeoutS > 0))
        return fail(2, "--reps and --steps must be at least 1, --warmup at least 0, --timeout-s positive");
    if (!o.jsonPath.empty()) { // a bad path fails before any work
        std::ofstream probe(o.jsonPath);
        if (!probe) return fail(2, "cannot write --json " + o.jsonPath);
    }
    return std::nullopt;
}

// The device, the input and what is timed (and what is not).
void printHeader(const DeviceInfo& info, const SortSettings& base, const LatencyOptions& o) {
    std::printf("%s: %s (%s, %s)\n", kProgram, info.name.c_str(), info.typeName.c_str(), info.driver.c_str());
    std::printf("n = %llu %s keys, %s, check %s; per algorithm %d rep%s (+%d untimed): R, Right x %zu, Left x %zu, "
                "R, End\n",
                (unsigned long long)base.n, std::string(keyTypeName(base.key)).c_str(),
                std::string(distributionName(base.dist)).c_str(), o.check ? "on" : "off", o.reps,
                o.reps == 1 ? "" : "s", o.warmup, o.forward, o.back);
    std::printf("latency: from the request the key makes to the worker publishing the view the next frame draws "
                "(GPU steps, readback, strip, counters%s); step_ms: the worker's own time for the GPU steps and "
                "readback\n%s\n",
                o.check ? ", CPU check" : "", kNotIncluded);
    if (info.isLavapipe)
        std::printf("note: %s is Mesa's CPU driver: these times measure this machine's CPU, not a GPU\n",
                    info.name.c_str());
    std::fflush(stdout);
}

// Every algorithm's key presses on one worker; the algorithms the device cannot run are counted.
// Throws Failure (a timeout, a sort error).
std::vector<AlgoResult> measureAll(Context& ctx, const std::vector<SortSettings>& algos, const LatencyOptions& o,
                                   int* unavailable, int* checkFailures) {
    std::vector<AlgoResult> results;
    Driver d(ctx, std::chrono::milliseconds(int64_t(o.timeoutS * 1000)));
    const std::vector<AlgoStatus> status = d.worker().algorithms();
    d.worker().setCheck(o.check);
    for (const SortSettings& s : algos) {
        AlgoResult r;
        r.variant = s.algo;
        r.name = std::string(s.algoName());
        size_t index = 0; // the worker's statuses are in menu order (sortlab::variants())
        while (variants()[index].variant != s.algo) ++index;
        r.available = status[index].available;
        r.why = status[index].why;
        if (r.available)
            measure(d, r, s, o.reps, o.warmup, o.forward, o.back);
        else
            ++*unavailable;
        results.push_back(std::move(r));
    }
    *checkFailures = d.checkFailures();
    return results;
}

// --json: the run's parameters and every sample. False when the file cannot be written.
bool writeJson(const LatencyOptions& o, const DeviceInfo& info, const SortSettings& base,
               const std::vector<AlgoResult>& results, int checkFailures, size_t messages) {
    nlohmann::json j;
    j["tool"] = kProgram;
    j["device"] = {
        {"name", info.name}, {"type", info.typeName}, {"driver", info.driver}, {"is_lavapipe", info.isLavapipe}};
    j["n"] = base.n;
    j["type"] = std::string(keyTypeName(base.key));
    j["dist"] = std::string(distributionName(base.dist));
    j["seed"] = o.input.seed;
    j["check"] = o.check;
    j["reps"] = o.reps;
    j["warmup_reps"] = o.warmup;
    j["steps_forward"] = o.forward;
    j["steps_back"] = o.back;
    j["latency"] = "ms from the request a key makes (SortWorker::goTo / setSettings, as app/app.cpp) to the "
                   "worker publishing the View the next frame draws";
    j["not_included"] = kNotIncluded;
    j["algorithms"] = toJson(results);
    j["check_failures"] = checkFailures;
    j["validation_messages"] = messages;
    std::ofstream out(o.jsonPath);
    out << j.dump(2) << "\n";
    return bool(out);
}

int run(int argc, char** argv) {
    CLI::App cli{"sortlab-step-latency: the app's step latency without a window. Drives the app's SortWorker "
                 "as its keys do (R new input, Right step forward, Left step back to a stored snapshot, End run "
                 "to the end) for each algorithm, and times each request until the worker has published the "
                 "view the next frame would draw: the GPU steps, the readback, the strip for n > 4096, the "
                 "counters and, with --check, the CPU reference.\n" +
                 std::string(kNotIncluded)};
    LatencyOptions o;
    addOptions(cli, o);
    if (auto code = sortlab::tools::parseCommandLine(cli, argc, argv, fail)) return *code;
    SortSettings base;
    std::vector<SortSettings> algos;
    if (auto code = algoSettings(o, base, algos)) return *code;

    ContextOptions co;
    co.device = o.device;
    co.validation = o.validation;
    auto ctx = Context::create(co);
    if (!ctx) return fail(ctx.error().code == Errc::invalid_argument ? 2 : 3, ctx.error().message);
    const DeviceInfo& info = ctx.value()->info();
    printHeader(info, base, o);

    std::vector<AlgoResult> results;
    int unavailable = 0, checkFailures = 0;
    try {
        results = measureAll(*ctx.value(), algos, o, &unavailable, &checkFailures);
    } catch (const Failure& f) {
        return fail(f.code, f.message);
    } catch (const std::bad_alloc&) {
        return fail(3, "out of host memory; use a smaller n");
    }
    printTable(results);

    const size_t messages = o.validation ? ctx.value()->validationMessageCount() : 0;
    if (!o.jsonPath.empty() && !writeJson(o, info, base, results, checkFailures, messages))
        return fail(3, "cannot write --json " + o.jsonPath);
    if (messages) return fail(1, std::to_string(messages) + " Vulkan validation message(s) (printed above)");
    if (checkFailures)
        return fail(1, std::to_string(checkFailures) + " step(s) differ from the CPU reference (--check)");
    if (unavailable) return fail(3, std::to_string(unavailable) + " algorithm(s) not available on " + info.name);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    return run(argc, argv);
}
