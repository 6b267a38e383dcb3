#include <sortlab/app/script.h>

#include <sortlab/app/state_dump.h>
#include <sortlab/app/view_common.h>
#include <sortlab/app/views.h>

#include <sortlab/bench/cli.h>
#include <sortlab/bench/errors.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string_view>

namespace sortlab::app {

namespace {

// What an action's handler sees of the runner, and what it asks of it.
struct VerbContext {
    const Action& a;
    const SortWorker::View& v; // the worker's view before the action
    App& app;
    SortWorker& worker;
    BenchWorker& bench;
    std::optional<ScriptRunner::Point>& mouse;
    const std::string& device;
    size_t validationMessages;
    // `frames N`
    int& measureLeft;
    double& measureSum;
    double& measureBuildSum;
    int& measureCount;
    // Set by a handler: run the next action in this frame (dump-state), or capture this PNG.
    bool nextNow = false;
    std::optional<std::string> screenshot;
};

// Why an action failed, and the exit code.
struct Failure {
    std::string why;
    int code;
};
using Outcome = std::optional<Failure>;
using Handler = Outcome (*)(VerbContext&);

bool isOn(const std::string& arg) {
    return arg == "on" || arg == "1" || arg == "true";
}

Outcome setVerb(VerbContext& c) {
    SortSettings s = c.app.ui().settings;
    auto r = applySetting(s, c.a.args[0], c.a.args[1]);
    if (!r) return Failure{r.error().message, 2};
    c.app.applySettings(s);
    return {};
}

// A place in a sequence (the plan's steps, a replay's events) from a script's argument: start,
// end, +K, -K (from `at`, not below 0) or a number; none when it does not read.
std::optional<uint64_t> positionArg(const std::string& arg, uint64_t at, uint64_t end) {
    try {
        if (arg.empty()) return std::nullopt;
        if (arg == "end") return end;
        if (arg == "start") return 0;
        if (arg[0] == '+') return at + std::stoull(arg.substr(1));
        if (arg[0] == '-') return at - std::min<uint64_t>(at, std::stoull(arg.substr(1)));
        return std::stoull(arg);
    } catch (...) {
        return std::nullopt;
    }
}

Outcome stepVerb(VerbContext& c) {
    const SortWorker::View& v = c.v;
    const size_t steps = v.job.plan ? v.job.plan->steps.size() : 0;
    const size_t at = v.data ? v.data->step : 0;
    const std::string arg = c.a.args.empty() ? "+1" : c.a.args[0];
    const auto position = positionArg(arg, at, steps);
    if (!position) return Failure{"step '" + arg + "': use a number, +K, -K, start or end", 2};
    const uint64_t target = *position;
    if (target > steps)
        return Failure{"step " + std::to_string(target) + " is past the end: this plan has " + std::to_string(steps) +
                           " steps",
                       2};
    c.app.goTo(target);
    return {};
}

Outcome checkVerb(VerbContext& c) {
    c.app.setCheck(isOn(c.a.args[0]));
    return {};
}

Outcome presentationVerb(VerbContext& c) {
    c.app.setPresentation(isOn(c.a.args[0]));
    return {};
}

Outcome framesVerb(VerbContext& c) {
    c.measureLeft = std::max(1, std::atoi(c.a.args[0].c_str()));
    c.measureSum = 0;
    c.measureBuildSum = 0;
    c.measureCount = 0;
    return {};
}

Outcome sizeVerb(VerbContext& c) {
    if (c.a.args.size() != 2) return Failure{"size takes a width and a height", 2};
    c.app.setWindowSize(std::atoi(c.a.args[0].c_str()), std::atoi(c.a.args[1].c_str()));
    return {};
}

// zoom FIRST COUNT: the array view shows keys [FIRST, FIRST + COUNT); "zoom all" undoes it.
Outcome zoomVerb(VerbContext& c) {
    const Action& a = c.a;
    if (a.args[0] == "all") {
        setArrayZoom(c.app.ui().views, c.v.job.generation, 0, 0);
    } else {
        if (a.args.size() != 2) return Failure{"zoom takes FIRST COUNT, or all", 2};
        const uint64_t n = c.v.job.settings.n;
        const uint64_t first = std::stoull(a.args[0]), count = std::stoull(a.args[1]);
        if (count == 0 || first >= n || first + count > n)
            return Failure{"zoom " + a.args[0] + " " + a.args[1] + ": outside the " + std::to_string(n) + " keys", 2};
        setArrayZoom(c.app.ui().views, c.v.job.generation, first, count);
    }
    return {};
}

// Only the keys whose effect a script can need; the same functions the keyboard calls.
Outcome keyVerb(VerbContext& c) {
    const std::string& k = c.a.args[0];
    App& app = c.app;
    if (k == "P")
        app.setPresentation(!app.ui().presentation);
    else if (k == "F1")
        app.ui().help = !app.ui().help;
    else if (k == "C")
        app.setCheck(!app.ui().check);
    else if (k == "B")
        app.ui().bench.open = !app.ui().bench.open;
    else if (k == "Space") // play / pause (frame times while playing: `key Space`, `frames N`)
        app.ui().playing = !app.ui().playing;
    else if (k == "Right" || k == "Left") // the arrow keys: step the sort on or back
        app.stepBy(k == "Right" ? +1 : -1);
    else
        return Failure{"key '" + k + "': scripts can press P, F1, C, B, Space, Left or Right", 2};
    return {};
}

Outcome mouseVerb(VerbContext& c) {
    const Action& a = c.a;
    if (a.args[0] == "off")
        c.mouse.reset();
    else if (a.args.size() == 2)
        c.mouse = ScriptRunner::Point{float(std::atof(a.args[0].c_str())), float(std::atof(a.args[1].c_str()))};
    else
        return Failure{"mouse takes X Y (window pixels), or off", 2};
    return {};
}

// bench-hover ALGO N: the pointer on that point of the throughput plot (its tooltip).
Outcome benchHoverVerb(VerbContext& c) {
    const Action& a = c.a;
    uint64_t n = 0;
    try {
        n = a.args.size() == 2 ? (a.args[1].rfind("2^", 0) == 0 ? uint64_t(1) << std::stoul(a.args[1].substr(2))
                                                                : std::stoull(a.args[1]))
                               : 0;
    } catch (...) {
    }
    auto at = n ? c.app.benchPoint(a.args[0], n) : std::nullopt;
    if (!at)
        return Failure{"bench-hover: no point of " +
                           (a.args[0] + " at n=" + (a.args.size() > 1 ? a.args[1] : std::string("?"))) + " in the plot",
                       2};
    c.mouse = ScriptRunner::Point{at->x, at->y};
    return {};
}

Outcome benchVerb(VerbContext& c) {
    c.app.ui().bench.open = isOn(c.a.args[0]);
    return {};
}

// sortlab-bench's flags (none: the panel's form as it is).
Outcome benchRunVerb(VerbContext& c) {
    try {
        c.app.startBench(c.a.args.empty() ? c.app.ui().bench.toOptions() : bench::parseBenchOptions(c.a.args));
    } catch (const bench::BenchError& e) {
        return Failure{std::string("bench-run: ") + e.what(), 2};
    }
    return {};
}

// (beforeFrame waits while the sweep runs: the window keeps drawing its progress meanwhile.)
Outcome benchWaitVerb(VerbContext& c) {
    const BenchWorker::State st = c.bench.state();
    if (st.phase == BenchWorker::Phase::failed) return Failure{"the benchmark failed: " + st.message, 3};
    std::printf("benchmark: %s\n", st.message.c_str());
    return {};
}

Outcome benchCancelVerb(VerbContext& c) {
    c.bench.cancel();
    return {};
}

Outcome benchExportVerb(VerbContext& c) {
    if (std::string e = c.app.exportBench(c.a.args[0]); !e.empty()) return Failure{e, 3};
    return {};
}

Outcome dumpStateVerb(VerbContext& c) {
    DumpExtras e;
    e.device = c.device;
    e.frameCpuMs = c.app.frameCpuMs();
    e.frameBuildCpuMs = c.app.frameBuildCpuMs();
    e.validationMessages = c.validationMessages;
    e.presentation = c.app.ui().presentation;
    e.check = c.app.ui().check;
    e.replay = c.app.ui().replay;
    e.keysError = c.app.ui().keysError;
    e.view = c.app.viewState();
    e.loadedLines = c.app.loadedLines();
    if (c.app.ui().bench.loadFailed) e.loadError = c.app.ui().bench.loadMessage;
    e.recordingError = c.app.ui().recordingError;
    auto r = writeStateJson(c.a.args[0], c.worker.view(), e);
    if (!r) return Failure{r.error().message, 3};
    c.nextNow = true;
    return {};
}

// theme dark|light: the View menu's theme choice (the value was checked when the script was read).
Outcome themeVerb(VerbContext& c) {
    const auto t = parseTheme(c.a.args[0]);
    if (!t) return Failure{"theme '" + c.a.args[0] + "': use dark or light", 2};
    setTheme(*t);
    return {};
}

// type-keys TEXT: the text typed into the Controls panel's own keys field, then "Use these keys"
// (refused keys show their error there and leave the input as it was).
Outcome typeKeysVerb(VerbContext& c) {
    std::string text;
    for (const std::string& w : c.a.args) text += (text.empty() ? "" : " ") + w;
    UiState& ui = c.app.ui();
    std::snprintf(ui.keysEdit.data(), ui.keysEdit.size(), "%s", text.c_str());
    ui.keysUse = true;
    return {};
}

// replay-digit D (0..255, or 0xHH; auto: the pass's most common digit) and replay-event K (the
// replay after its first K events; start, end, +K, -K): the radix view's lookback replay.
Outcome replayDigitVerb(VerbContext& c) {
    const std::string& arg = c.a.args[0];
    int d = -1;
    if (arg != "auto") {
        try {
            size_t used = 0;
            d = std::stoi(arg, &used, 0);
            if (used != arg.size()) d = -2;
        } catch (...) {
            d = -2;
        }
        if (d < 0 || d > 255) return Failure{"replay-digit '" + arg + "': use 0..255, 0x00..0xff or auto", 2};
    }
    c.app.ui().replay.digit = d;
    return {};
}

Outcome replayEventVerb(VerbContext& c) {
    const std::string& arg = c.a.args[0];
    LookbackReplayChoice& r = c.app.ui().replay;
    const auto replay = c.v.data && c.v.data->snapshot ? lookbackReplay(*c.v.data->snapshot, r) : std::nullopt;
    if (!replay) return Failure{"replay-event: this step has no lookback log (a OneSweep pass with --lookback-log)", 2};
    const uint64_t events = replay->events.size();
    const auto target = positionArg(arg, replay->shown, events);
    if (!target) return Failure{"replay-event '" + arg + "': use a number, +K, -K, start or end", 2};
    r.shown = int(std::min(*target, events));
    return {};
}

// lesson NAME|FILE, lesson-stop K (0-based), lesson-answer right|N, lesson-record FILE (appends
// one JSON line about the stop: its question, the answers, the keys before and after).
// open-recording FILE: as the menu's "Open recording": a file that does not read is an error on
// screen (and in --dump-state's "recording_error"), and the state shown stays. open-recording
// menu: the menu's dialog, open.
Outcome openRecordingVerb(VerbContext& c) {
    if (c.a.args[0] == "menu") { // File > Open recording...: the dialog
        c.app.ui().recordingDialog = true;
        return {};
    }
    c.app.openRecording(c.a.args[0]);
    return {};
}

// live on|off: the lesson's "Run it live" / "Replay the recording" choice.
Outcome liveVerb(VerbContext& c) {
    if (c.a.args[0] != "on" && c.a.args[0] != "off") return Failure{"live '" + c.a.args[0] + "': use on or off", 2};
    c.app.setLive(c.a.args[0] == "on");
    return {};
}

Outcome lessonVerb(VerbContext& c) {
    if (std::string e = c.app.openLesson(c.a.args[0]); !e.empty()) return Failure{e, 2};
    return {};
}

Outcome lessonStopVerb(VerbContext& c) {
    const auto& L = c.app.ui().lesson;
    if (!L.lesson) return Failure{"lesson-stop: no lesson is open", 2};
    size_t k = 0;
    try {
        k = std::stoul(c.a.args[0]);
    } catch (...) {
        return Failure{"lesson-stop '" + c.a.args[0] + "': a stop number", 2};
    }
    if (k >= L.lesson->stops.size())
        return Failure{"lesson-stop " + c.a.args[0] + ": the lesson has " + std::to_string(L.lesson->stops.size()) +
                           " stops (0.." + std::to_string(L.lesson->stops.size() - 1) + ")",
                       2};
    c.app.goToStop(k);
    return {};
}

// answer N|right|wrong|show (lesson-answer is its older name): a number typed in, the GPU's answer,
// a wrong one (the GPU's + 1), or "show me".
Outcome lessonAnswerVerb(VerbContext& c) {
    const auto& L = c.app.ui().lesson;
    if (!L.lesson || !L.lesson->stops[L.stop].question) return Failure{c.a.verb + ": this stop asks nothing", 2};
    if (!L.result.empty() && !L.answered) return Failure{L.result, 3};
    using Mode = UiState::LessonUi::Mode;
    const std::string& w = c.a.args[0];
    if (w == "right" || w == "wrong" || w == "show") {
        c.app.answerStop(std::nullopt, w == "right" ? Mode::right : w == "wrong" ? Mode::wrong : Mode::showMe);
    } else {
        try {
            size_t used = 0;
            const int64_t n = std::stoll(w, &used);
            if (used != w.size()) throw std::invalid_argument(w);
            c.app.answerStop(n, Mode::typed);
        } catch (...) {
            return Failure{c.a.verb + " '" + w + "': a number, right, wrong or show", 2};
        }
    }
    return {};
}

Outcome lessonRecordVerb(VerbContext& c) {
    const auto& L = c.app.ui().lesson;
    if (L.lesson && L.answered && !L.answer) return Failure{L.result, 3}; // the GPU's state could not answer
    FILE* f = std::fopen(c.a.args[0].c_str(), "a");
    if (!f) return Failure{"cannot write " + c.a.args[0], 3};
    const std::string line = c.app.lessonRecord() + "\n";
    const bool ok = std::fputs(line.c_str(), f) >= 0;
    if (std::fclose(f) != 0 || !ok) return Failure{"cannot write " + c.a.args[0], 3};
    c.nextNow = true;
    return {};
}

// move-at F|off: hold a step's move at fraction F (0..1) for screenshots and dumps; move-seconds S:
// how long a step's move takes (0: steps jump; scripted runs start at 0).
Outcome moveAtVerb(VerbContext& c) {
    UiState& ui = c.app.ui();
    if (c.a.args[0] == "off") {
        ui.frozenMove.reset();
        return {};
    }
    try {
        const float f = std::stof(c.a.args[0]);
        if (!(f >= 0 && f <= 1)) throw std::out_of_range("fraction");
        ui.frozenMove = f;
    } catch (...) {
        return Failure{"move-at '" + c.a.args[0] + "': a fraction from 0 to 1, or off", 2};
    }
    c.nextNow = true;
    return {};
}

Outcome moveSecondsVerb(VerbContext& c) {
    try {
        const float s = std::stof(c.a.args[0]);
        if (!(s >= 0 && s <= 10)) throw std::out_of_range("seconds");
        c.app.ui().moveSeconds = s;
    } catch (...) {
        return Failure{"move-seconds '" + c.a.args[0] + "': seconds from 0 to 10", 2};
    }
    c.nextNow = true;
    return {};
}

// pin-key I|off: pin the key at input index I (or unpin).
Outcome pinKeyVerb(VerbContext& c) {
    if (c.a.args[0] == "off") {
        c.worker.pinInput(std::nullopt);
    } else {
        try {
            size_t used = 0;
            const uint64_t i = std::stoull(c.a.args[0], &used);
            if (used != c.a.args[0].size()) throw std::invalid_argument("index");
            if (i >= c.app.ui().settings.n)
                return Failure{
                    "pin-key " + c.a.args[0] + ": there are " + std::to_string(c.app.ui().settings.n) + " keys", 2};
            c.worker.pinInput(i);
            c.app.ui().lesson.stopPinned = false; // the teacher's pin: it stays across a lesson's stops
        } catch (const std::invalid_argument&) {
            return Failure{"pin-key '" + c.a.args[0] + "': an input index, or off", 2};
        }
    }
    return {};
}

// load-results FILE: as the benchmark panel's "Load results..." (it opens): a file that does not
// load leaves its message in the panel (and in a dump's "loaded_results_error") and what was
// loaded before; the script goes on, so that a test can see how the window takes it.
Outcome loadResultsVerb(VerbContext& c) {
    std::string path;
    for (const std::string& w : c.a.args) path += (path.empty() ? "" : " ") + w;
    const std::string error = c.app.loadResults(path);
    std::printf("load-results: %s\n", error.empty() ? c.app.ui().bench.loadMessage.c_str() : error.c_str());
    return {};
}

Outcome screenshotVerb(VerbContext& c) {
    c.screenshot = c.a.args[0];
    return {};
}

// Every verb a script may use (app/core/options.cpp checks their arguments when it reads them), and
// the frames to draw after it before the next action, so that the views show what it changed.
struct Verb {
    std::string_view name;
    Handler handler;
    int settle;
};
const Verb kVerbs[] = {
    {"set", setVerb, 3},
    {"step", stepVerb, 3},
    {"check", checkVerb, 3},
    {"presentation", presentationVerb, 3},
    {"frames", framesVerb, 0},
    {"size", sizeVerb, 4},
    {"zoom", zoomVerb, 3},
    {"key", keyVerb, 3},
    {"mouse", mouseVerb, 4},
    {"bench-hover", benchHoverVerb, 4},
    {"bench", benchVerb, 3},
    {"bench-run", benchRunVerb, 3},
    {"bench-wait", benchWaitVerb, 4},
    {"bench-cancel", benchCancelVerb, 2},
    {"bench-export", benchExportVerb, 2},
    {"dump-state", dumpStateVerb, 0},
    {"screenshot", screenshotVerb, 0},
    {"replay-digit", replayDigitVerb, 3},
    {"type-keys", typeKeysVerb, 4},
    {"theme", themeVerb, 3},
    {"lesson", lessonVerb, 3},
    {"lesson-stop", lessonStopVerb, 4},
    {"lesson-answer", lessonAnswerVerb, 4},
    {"answer", lessonAnswerVerb, 4},
    {"lesson-record", lessonRecordVerb, 0},
    {"replay-event", replayEventVerb, 3},
    {"move-at", moveAtVerb, 0},
    {"move-seconds", moveSecondsVerb, 0},
    {"pin-key", pinKeyVerb, 3},
    {"load-results", loadResultsVerb, 3},
    {"open-recording", openRecordingVerb, 3},
    {"live", liveVerb, 3},
};

const Verb* verbNamed(std::string_view name) {
    for (const Verb& v : kVerbs)
        if (v.name == name) return &v;
    return nullptr;
}

} // namespace

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
        if (app_.lessonBusy()) return {}; // a lesson's stop or answer on its way
        if (app_.animating()) return {};  // a step's move on screen
        const SortWorker::View v = worker_.view();
        if (!v.error.empty()) {
            fail(actions_[next_ ? next_ - 1 : 0], v.error, 3);
            return {};
        }
        // Data the views have not drawn yet: let them lay it out first (a table sizes its columns
        // a frame after it appears; a screenshot taken at once showed them squeezed).
        if (const std::pair<uint64_t, size_t> data{v.data ? v.data->generation : 0, v.data ? v.data->step : SIZE_MAX};
            data != shown_) {
            shown_ = data;
            settle_ = 2;
            return {};
        }
        // bench-wait: until the sweep ends (the window keeps drawing its progress meanwhile).
        if (actions_[next_].verb == "bench-wait" && bench_.running()) return {};
        const Action& a = actions_[next_++];
        const Verb* verb = verbNamed(a.verb);
        if (!verb) return {};
        VerbContext c{a,
                      v,
                      app_,
                      worker_,
                      bench_,
                      mouse,
                      device,
                      validationMessages,
                      measureLeft_,
                      measureSum_,
                      measureBuildSum_,
                      measureCount_};
        if (Outcome failed = verb->handler(c)) return fail(a, failed->why, failed->code), std::string();
        settle_ = verb->settle;
        if (c.nextNow) continue;
        if (c.screenshot) {
            capturing_ = true;
            return *c.screenshot;
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
