#include <sortlab/app/script.h>

#include <sortlab/app/state_dump.h>
#include <sortlab/app/views.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <sortlab/bench/cli.h>
#include <sortlab/bench/errors.h>

#include <cstdio>

namespace sortlab::app {

ScriptRunner::ScriptRunner(std::vector<Action> actions, App& app, SortWorker& worker, BenchWorker& bench)
    : actions_(std::move(actions)), app_(app), worker_(worker), bench_(bench) {
    settle_ = 3;
}

void ScriptRunner::fail(const Action& a, const std::string& why, int code) {
    message_ = (a.line ? "script line " + std::to_string(a.line) + ": " : std::string()) + why;
    exitCode_ = code;
    done_ = true;
}

std::string ScriptRunner::beforeFrame() {
    if (done_) return {};
    if (capturing_) return {};
    while (next_ < actions_.size()) {
        if (settle_ > 0 || measureLeft_ > 0) return {};
        // Wait for the GPU work the last action asked for.
        if (!worker_.waitIdle(std::chrono::milliseconds(0))) return {};
        const SortWorker::View v = worker_.view();
        if (!v.error.empty()) {
            fail(actions_[next_ ? next_ - 1 : 0], v.error, 3);
            return {};
        }
        // bench-wait: until the sweep ends (the window keeps drawing its progress meanwhile).
        if (actions_[next_].verb == "bench-wait" && bench_.running()) return {};
        const Action& a = actions_[next_++];
        if (a.verb == "set") {
            SortSettings s = app_.ui().settings;
            auto r = applySetting(s, a.args[0], a.args[1]);
            if (!r) return fail(a, r.error().message, 2), std::string();
            app_.applySettings(s);
            settle_ = 3;
        } else if (a.verb == "step") {
            const size_t steps = v.job.plan ? v.job.plan->steps.size() : 0;
            const size_t at = v.data ? v.data->step : 0;
            const std::string arg = a.args.empty() ? "+1" : a.args[0];
            size_t target = at;
            try {
                if (arg == "end")
                    target = steps;
                else if (arg == "start")
                    target = 0;
                else if (arg[0] == '+')
                    target = at + std::stoul(arg.substr(1));
                else if (arg[0] == '-')
                    target = at - std::min<size_t>(at, std::stoul(arg.substr(1)));
                else
                    target = std::stoul(arg);
            } catch (...) {
                return fail(a, "step '" + arg + "': use a number, +K, -K, start or end", 2), std::string();
            }
            if (target > steps)
                return fail(a,
                            "step " + std::to_string(target) + " is past the end: this plan has " +
                                std::to_string(steps) + " steps",
                            2),
                       std::string();
            app_.goTo(target);
            settle_ = 3;
        } else if (a.verb == "check" || a.verb == "presentation") {
            const bool on = a.args[0] == "on" || a.args[0] == "1" || a.args[0] == "true";
            if (a.verb == "check")
                app_.setCheck(on);
            else
                app_.setPresentation(on);
            settle_ = 3;
        } else if (a.verb == "frames") {
            measureLeft_ = std::max(1, std::atoi(a.args[0].c_str()));
            measureSum_ = 0;
            measureBuildSum_ = 0;
            measureCount_ = 0;
            settle_ = 0;
        } else if (a.verb == "size") {
            if (a.args.size() != 2) return fail(a, "size takes a width and a height", 2), std::string();
            extern GLFWwindow* gMainWindow;
            glfwSetWindowSize(gMainWindow, std::atoi(a.args[0].c_str()), std::atoi(a.args[1].c_str()));
            settle_ = 4;
        } else if (a.verb == "zoom") {
            // zoom FIRST COUNT: the array view shows keys [FIRST, FIRST + COUNT); "zoom all" undoes it.
            if (a.args[0] == "all") {
                setArrayZoom(v.job.generation, 0, 0);
            } else {
                if (a.args.size() != 2) return fail(a, "zoom takes FIRST COUNT, or all", 2), std::string();
                const uint64_t n = v.job.settings.n;
                const uint64_t first = std::stoull(a.args[0]), count = std::stoull(a.args[1]);
                if (count == 0 || first >= n || first + count > n)
                    return fail(a,
                                "zoom " + a.args[0] + " " + a.args[1] + ": outside the " + std::to_string(n) + " keys",
                                2),
                           std::string();
                setArrayZoom(v.job.generation, first, count);
            }
            settle_ = 3;
        } else if (a.verb == "key") {
            // Only the keys whose effect a script can need; the same functions the keyboard calls.
            const std::string& k = a.args[0];
            if (k == "P")
                app_.setPresentation(!app_.ui().presentation);
            else if (k == "F1")
                app_.ui().help = !app_.ui().help;
            else if (k == "C")
                app_.setCheck(!app_.ui().check);
            else if (k == "B")
                app_.ui().bench.open = !app_.ui().bench.open;
            else if (k == "Space") // play / pause (frame times while playing: `key Space`, `frames N`)
                app_.ui().playing = !app_.ui().playing;
            else
                return fail(a, "key '" + k + "': scripts can press P, F1, C, B or Space", 2), std::string();
            settle_ = 3;
        } else if (a.verb == "mouse") {
            if (a.args[0] == "off")
                mouse.reset();
            else if (a.args.size() == 2)
                mouse = Point{float(std::atof(a.args[0].c_str())), float(std::atof(a.args[1].c_str()))};
            else
                return fail(a, "mouse takes X Y (window pixels), or off", 2), std::string();
            settle_ = 4;
        } else if (a.verb == "bench-hover") {
            // bench-hover ALGO N: the pointer on that point of the throughput plot (its tooltip).
            uint64_t n = 0;
            try {
                n = a.args.size() == 2 ? (a.args[1].rfind("2^", 0) == 0 ? uint64_t(1) << std::stoul(a.args[1].substr(2))
                                                                        : std::stoull(a.args[1]))
                                       : 0;
            } catch (...) {
            }
            auto at = n ? app_.benchPoint(a.args[0], n) : std::nullopt;
            if (!at)
                return fail(a,
                            "bench-hover: no point of " +
                                (a.args[0] + " at n=" + (a.args.size() > 1 ? a.args[1] : std::string("?"))) +
                                " in the plot",
                            2),
                       std::string();
            mouse = Point{at->x, at->y};
            settle_ = 4;
        } else if (a.verb == "bench") {
            app_.ui().bench.open = a.args[0] == "on" || a.args[0] == "1" || a.args[0] == "true";
            settle_ = 3;
        } else if (a.verb == "bench-run") {
            // sortlab-bench's flags (none: the panel's form as it is).
            try {
                app_.startBench(a.args.empty() ? app_.ui().bench.toOptions() : bench::parseBenchOptions(a.args));
            } catch (const bench::BenchError& e) {
                return fail(a, std::string("bench-run: ") + e.what(), 2), std::string();
            }
            settle_ = 3;
        } else if (a.verb == "bench-wait") {
            const BenchWorker::State st = bench_.state();
            if (st.phase == BenchWorker::Phase::failed)
                return fail(a, "the benchmark failed: " + st.message, 3), std::string();
            std::printf("benchmark: %s\n", st.message.c_str());
            settle_ = 4;
        } else if (a.verb == "bench-cancel") {
            bench_.cancel();
            settle_ = 2;
        } else if (a.verb == "bench-export") {
            if (std::string e = app_.exportBench(a.args[0]); !e.empty()) return fail(a, e, 3), std::string();
            settle_ = 2;
        } else if (a.verb == "dump-state") {
            DumpExtras e;
            e.device = device;
            e.frameCpuMs = app_.frameCpuMs();
            e.frameBuildCpuMs = app_.frameBuildCpuMs();
            e.validationMessages = validationMessages;
            e.presentation = app_.ui().presentation;
            e.check = app_.ui().check;
            auto r = writeStateJson(a.args[0], worker_.view(), e);
            if (!r) return fail(a, r.error().message, 3), std::string();
            continue;
        } else if (a.verb == "screenshot") {
            capturing_ = true;
            return a.args[0];
        }
        return {};
    }
    if (settle_ == 0 && measureLeft_ == 0) done_ = true;
    return {};
}

void ScriptRunner::afterFrame(double cpuMs, double buildMs) {
    capturing_ = false;
    if (settle_ > 0) --settle_;
    if (measureLeft_ > 0) {
        measureSum_ += cpuMs;
        measureBuildSum_ += buildMs;
        ++measureCount_;
        if (--measureLeft_ == 0)
            std::printf("frames: %d, main-thread CPU time per frame: %.3f ms in all, %.3f ms building the UI "
                        "(ImGui::NewFrame to ImGui::Render), %.3f ms recording, submitting and presenting\n",
                        measureCount_, measureSum_ / measureCount_, measureBuildSum_ / measureCount_,
                        (measureSum_ - measureBuildSum_) / measureCount_);
    }
}

} // namespace sortlab::app
