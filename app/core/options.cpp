#include <sortlab/app/options.h>
#include <sortlab/app/lesson.h>

#include <sortlab/bench/cli.h>
#include <sortlab/bench/errors.h>

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <algorithm>
#include <sstream>

namespace sortlab::app {
namespace {

Result<uint64_t> parseCount(const std::string& s) {
    auto digitsOnly = [](std::string_view t) {
        return !t.empty() && t.size() <= 19 &&
               std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    const std::string_view exp = s.rfind("2^", 0) == 0 ? std::string_view(s).substr(2) : std::string_view();
    if (!exp.empty() && digitsOnly(exp)) {
        const unsigned long e = std::stoul(std::string(exp));
        if (e > 40) return makeError(Errc::parse_error, "n '" + s + "' is too large (at most 2^40)");
        return uint64_t(1) << e;
    }
    if (!digitsOnly(s)) return makeError(Errc::parse_error, "n '" + s + "' is not a count (an integer or 2^K)");
    return uint64_t(std::stoull(s));
}

// The keys a person gave, read as the settings' key type; on success they are the input.
Result<void> setKeys(SortSettings& s, std::string text, std::string source) {
    auto keys = parseKeys(text, s.key, source);
    if (!keys) return keys.error();
    s.n = keys->size() / keyBytes(s.key);
    s.dist = Distribution::custom;
    s.distAuto = false;
    s.keysText = std::move(text);
    s.keysSource = std::move(source);
    return {};
}

// The settings that say which keys: n (generated keys), keys or input (one's own), their type, and
// the distribution they are generated from.
Result<void> applyKeysSetting(SortSettings& s, const std::string& key, const std::string& value) {
    auto bad = [&](const char* what) { return makeError(Errc::parse_error, "--" + key + " '" + value + "': " + what); };
    if (key == "n") {
        auto n = parseCount(value);
        if (!n) return n.error();
        if (*n < 1) return bad("n must be at least 1");
        s.n = *n;
        if (s.dist == Distribution::custom) { // a count instead of the keys: generated keys again
            s.distAuto = true;
            s.keysText.clear();
            s.keysSource.clear();
        }
        if (s.distAuto) s.dist = s.n <= SortSettings::kSmallDistMaxN ? Distribution::small : Distribution::uniform;
    } else if (key == "keys") {
        return setKeys(s, value, "keys");
    } else if (key == "input") {
        auto text = readTextFile(value);
        if (!text) return makeError(Errc::parse_error, text.error().message); // the user's file: a usage error
        return setKeys(s, std::move(*text), value);
    } else if (key == "type") {
        auto t = parseKeyType(value);
        if (!t) return bad("use u32, i32, f32, u64, i64 or f64");
        if (s.dist == Distribution::custom) { // the given keys must read as the new type too
            auto keys = parseKeys(s.keysText, *t, s.keysSource);
            if (!keys) return keys.error();
        }
        s.key = *t;
    } else { // dist
        auto d = parseDistribution(value);
        if (!d) return bad("unknown distribution (keys of your own: --keys or --input)");
        s.dist = *d;
        s.distAuto = false;
        s.keysText.clear();
        s.keysSource.clear();
    }
    return {};
}

} // namespace

Result<void> applySetting(SortSettings& s, const std::string& key, const std::string& value) {
    auto bad = [&](const char* what) { return makeError(Errc::parse_error, "--" + key + " '" + value + "': " + what); };
    if (key == "n" || key == "keys" || key == "input" || key == "type" || key == "dist") {
        return applyKeysSetting(s, key, value);
    } else if (key == "algo") {
        auto v = parseVariant(value);
        if (!v) return bad(("use " + variantNamesText()).c_str());
        s.algo = *v;
    } else if (key == "force-fallback") {
        if (value == "on") {
            s.knobs.forceFallback = true;
        } else if (value == "off") {
            s.knobs.forceFallback = false;
            if (s.algo == Variant::onesweepFallback) s.algo = Variant::onesweep;
        } else {
            return bad("use on or off");
        }
    } else if (key == "tile-keys") {
        if (value == "auto") {
            s.tileAuto = true;
            return {};
        }
        auto k = parseCount(value);
        if (!k || (*k != 0 && *k < 4)) return bad("use auto, 0 (the tuned tile) or keys per tile from 4 up");
        if (*k > (uint64_t(1) << 16)) return bad("at most 65536 keys per tile");
        s.knobs.radixTileKeys = static_cast<uint32_t>(*k);
        s.tileAuto = false;
    } else if (key == "lookback-log") {
        if (value != "auto" && value != "on" && value != "off") return bad("use auto, on or off");
        s.lookbackAuto = value == "auto";
        s.knobs.logLookback = value == "on";
    } else if (key == "values") {
        if (value == "u32")
            s.keyValue = true;
        else if (value == "none")
            s.keyValue = false;
        else
            return bad("use none or u32");
    } else if (key == "order") {
        auto o = parseOrder(value);
        if (!o) return bad("use asc or desc");
        s.order = *o;
    } else if (key == "seed") {
        try {
            s.seed = std::stoull(value);
        } catch (...) {
            return bad("not a number");
        }
    } else if (key == "shared-elems") {
        try {
            s.knobs.oddEvenTileKeys = uint32_t(std::stoul(value));
        } catch (...) {
            return bad("not a number");
        }
    } else {
        return makeError(Errc::parse_error, "unknown setting '" + key + "'");
    }
    return {};
}

Result<std::vector<Action>> readScript(const std::string& path) {
    std::ifstream in(path);
    if (!in) return makeError(Errc::io_error, "cannot read the script " + path);
    std::vector<Action> out;
    std::string line;
    int number = 0;
    const std::vector<std::string> settings = {"algo",           "n",         "type",        "values", "order",
                                               "dist",           "seed",      "keys",        "input",  "shared-elems",
                                               "force-fallback", "tile-keys", "lookback-log"};
    const std::vector<std::string> verbs = {
        "step",         "screenshot",   "dump-state",   "check",         "presentation", "frames",
        "size",         "key",          "zoom",         "bench",         "bench-run",    "bench-wait",
        "bench-cancel", "bench-export", "bench-hover",  "mouse",         "replay-digit", "replay-event",
        "type-keys",    "lesson",       "lesson-stop",  "lesson-answer", "answer",       "lesson-record",
        "theme",        "move-at",      "move-seconds", "pin-key",       "load-results", "open-recording",
        "live"};
    // Verbs that may come without a value.
    const std::vector<std::string> bare = {"step", "bench-run", "bench-wait", "bench-cancel"};
    while (std::getline(in, line)) {
        ++number;
        if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
        std::istringstream words(line);
        std::string verb;
        if (!(words >> verb)) continue;
        Action a;
        a.line = number;
        std::string w;
        while (words >> w) a.args.push_back(w);
        if (std::find(settings.begin(), settings.end(), verb) != settings.end()) {
            if (a.args.size() != 1)
                return makeError(Errc::parse_error,
                                 path + ":" + std::to_string(number) + ": '" + verb + "' takes one value");
            SortSettings probe;
            auto ok = applySetting(probe, verb, a.args[0]);
            if (!ok)
                return makeError(Errc::parse_error, path + ":" + std::to_string(number) + ": " + ok.error().message);
            a.args.insert(a.args.begin(), verb);
            a.verb = "set";
        } else if (std::find(verbs.begin(), verbs.end(), verb) != verbs.end()) {
            a.verb = verb;
            if (a.args.empty() && std::find(bare.begin(), bare.end(), verb) == bare.end())
                return makeError(Errc::parse_error,
                                 path + ":" + std::to_string(number) + ": '" + verb + "' needs a value");
            if (verb == "theme" && !parseTheme(a.args[0]))
                return makeError(Errc::parse_error, path + ":" + std::to_string(number) + ": theme '" + a.args[0] +
                                                        "': use dark or light");
            if (verb == "bench-run" && !a.args.empty()) { // sortlab-bench's flags: checked now
                try {
                    (void)bench::parseBenchOptions(a.args);
                } catch (const bench::BenchError& e) {
                    return makeError(Errc::parse_error,
                                     path + ":" + std::to_string(number) + ": bench-run: " + e.what());
                }
            }
        } else {
            return makeError(Errc::parse_error,
                             path + ":" + std::to_string(number) + ": unknown action '" + verb + "'");
        }
        out.push_back(std::move(a));
    }
    return out;
}

namespace {

// The command line's values as CLI11 reads them, before they become Options (those that go straight
// into Options are bound to it).
struct CommandLine {
    std::string algo = "oddeven-layer", values = "none", order = "asc", keys, input;
    InputArgs in;
    std::string tileKeys, lookbackLog;
    uint32_t oddEvenTileKeys = 0;
    bool forceFallback = false;
    std::string step, screenshot, dump, script;
    std::optional<uint64_t> pinKey;
    std::optional<float> transitionAt;
    std::string lesson, screenshotEach, lessonAnswers = "right";
    bool listLessons = false;
    std::vector<std::string> loadResults;
    std::string record, openRecording;
    std::string theme;
    bool noVsync = false;
};

} // namespace

void addInputOptions(CLI::App& cli, InputArgs& in) {
    cli.add_option("--n", in.n, "number of keys: an integer or 2^K (" + in.n + ")");
    cli.add_option("--type", in.type, "key type: u32 i32 f32 u64 i64 f64 (" + in.type + ")");
    cli.add_option("--dist", in.dist,
                   "input distribution, as in sortlab-bench (" +
                       (in.dist.empty() ? std::string("small, keys 0..99, up to n = 64; uniform above") : in.dist) +
                       ")");
    cli.add_option("--seed", in.seed, "seed of the input generator (" + std::to_string(in.seed) + ")");
}

void addDeviceOptions(CLI::App& cli, std::string& device, bool& validation, bool& check) {
    cli.add_option("--device", device, "Vulkan device: an index or part of its name (best device)");
    cli.add_flag("--validation", validation, "Vulkan validation layers on; any message makes the exit code 1");
    cli.add_flag("--check", check, "check mode (the app's C key): every step compared with the CPU reference");
}

Result<void> applyInput(SortSettings& s, const InputArgs& in) {
    SORTLAB_TRY(applySetting(s, "n", in.n));
    SORTLAB_TRY(applySetting(s, "type", in.type));
    if (!in.dist.empty()) SORTLAB_TRY(applySetting(s, "dist", in.dist)); // none given: chosen by n
    s.seed = in.seed;
    return {};
}

namespace {

// The sort and its input: --algo .. --shared-elems.
void addSortOptions(CLI::App& cli, CommandLine& a) {
    std::string algoHelp = "the sort:";
    for (const VariantInfo& v : variants())
        algoHelp += std::string(" ") + std::string(v.name) + " (" + std::string(v.label) + "),";
    algoHelp.back() = ' ';
    algoHelp += "(oddeven-layer)";
    cli.add_option("--algo", a.algo, algoHelp);
    addInputOptions(cli, a.in);
    cli.add_option("--values", a.values, "none, or u32: the input index sorted along (none)");
    cli.add_option("--order", a.order, "asc or desc (asc)");
    cli.add_option("--lookback-log", a.lookbackLog,
                   "onesweep: run the instrumented pass kernel, whose log the radix view replays event by event: auto "
                   "(on up to n = 65536), on or off");
    cli.add_option("--tile-keys", a.tileKeys,
                   "radix4, onesweep: keys per workgroup tile, 4 up to the tuned tile, 0 for the tuned tile (auto: 8 "
                   "up to n = 256, else the tuned tile)");
    cli.add_option(
        "--keys", a.keys,
        "the keys themselves, e.g. \"10,25,39,92,1,5,68,23,21,10\" (n is their count; not with --n, --dist)");
    cli.add_option("--input", a.input,
                   "a file of keys: one a line, or separated by commas or spaces (n is their count)");
    cli.add_option("--shared-elems", a.oddEvenTileKeys, "odd-even tile size (0: the device's window)");
}

// What the run does: --step .. --load-results.
void addActionOptions(CLI::App& cli, CommandLine& a) {
    cli.add_option("--step", a.step, "run to this step (a number, or 'end') before the screenshot / dump");
    cli.add_option("--pin-key", a.pinKey,
                   "pin the key at this input index: it is marked at every step and its path drawn (--dump-state: "
                   "\"pinned\")");
    cli.add_option("--transition-at", a.transitionAt,
                   "with --step K: show the move from step K-1 into step K held at this fraction (0 to 1) for "
                   "--screenshot and --dump-state")
        ->check(CLI::Range(0.0f, 1.0f));
    cli.add_option("--screenshot", a.screenshot, "write a PNG of the window, then exit");
    cli.add_option("--dump-state", a.dump, "write the current state as JSON (keys as in --trace), then exit");
    cli.add_option("--script", a.script, "run the actions in this file (see docs/app.md), then exit");
    cli.add_option("--lesson", a.lesson,
                   "open a lesson: a built-in one (--list-lessons) or a lesson file (docs/lessons.md)");
    cli.add_flag("--list-lessons", a.listLessons, "list the built-in lessons, then exit");
    cli.add_option("--screenshot-each", a.screenshotEach,
                   "with --lesson: run it to its end, answering each question with the GPU's answer, write a PNG "
                   "of every stop (and of every answer) and NAME.jsonl into this folder, then exit");
    cli.add_option("--lesson-answers", a.lessonAnswers,
                   "with --screenshot-each: answer each question with the GPU's answer (right, the default) or a "
                   "wrong one (wrong: the GPU's answer + 1), to see the feedback a wrong answer gets")
        ->check(CLI::IsMember({"right", "wrong"}));
    cli.add_option("--record", a.record,
                   "run the sort step by step on the device, reading back every step, and write it to this "
                   "recording file, then exit (no window, no display needed)");
    cli.add_option("--open-recording", a.openRecording,
                   "replay a recording (made with --record): its sort, input and every step as its GPU ran them");
    cli.add_option("--load-results", a.loadResults,
                   "results measured elsewhere, drawn in the benchmark panel beside its own sweep: the --json output "
                   "of sortlab-bench or an export's results.json (docs/results/ holds the project's H100/H200 runs)");
}

// The device, the modes and the window: --device .. --height (and --force-fallback among them).
void addRunOptions(CLI::App& cli, CommandLine& a, Options& o) {
    addDeviceOptions(cli, o.device, o.validation, o.check);
    cli.add_flag("--force-fallback", a.forceFallback,
                 "onesweep: every tile counts its predecessor's keys itself instead of looking back");
    cli.add_flag("--presentation", o.presentation, "presentation mode: large fonts, thick lines");
    cli.add_flag("--no-ini", o.noIni, "do not read or write imgui.ini (the window layout and theme)");
    cli.add_option("--theme", a.theme, "colours: dark, or light for a projector (imgui.ini's choice, else dark)");
    cli.add_flag("--no-vsync", a.noVsync, "present without waiting for the display (frame-time measurements)");
    cli.add_option("--width", o.width, "window width (1600)");
    cli.add_option("--height", o.height, "window height (1000)");
    cli.footer("Keys: Space play/pause, Right/Left step, Home/End, R new input, +/- speed, C check, P presentation, "
               "F11 fullscreen, F1 help.\nExit codes: 0 ok; 1 validation messages (--validation); 2 usage error; "
               "3 no display, no Vulkan, no suitable device, or a sort error.");
}

// The settings the command line gives, applied in the order a script would apply them.
Result<void> settingsFrom(const CommandLine& a, bool nGiven, SortSettings& settings) {
    if (!a.keys.empty() || !a.input.empty()) {
        if (!a.keys.empty() && !a.input.empty()) return makeError(Errc::parse_error, "--keys and --input: use one");
        if (nGiven || !a.in.dist.empty())
            return makeError(Errc::parse_error, "--keys and --input give the keys themselves: not with --n or --dist");
    }
    SORTLAB_TRY(applySetting(settings, "algo", a.algo));
    SORTLAB_TRY(applyInput(settings, a.in));
    for (auto [k, val] : {std::pair<std::string, std::string>{"values", a.values},
                          {"order", a.order},
                          {"keys", a.keys},
                          {"input", a.input},
                          {"tile-keys", a.tileKeys},
                          {"lookback-log", a.lookbackLog}}) {
        if (val.empty() && k != "values" && k != "order") continue;
        SORTLAB_TRY(applySetting(settings, k, val));
    }
    if (a.forceFallback) settings.knobs.forceFallback = true;
    settings.knobs.oddEvenTileKeys = a.oddEvenTileKeys;
    return {};
}

// --lesson: the lesson's action; with --screenshot-each, every stop (and answer) screenshot and
// its record in FOLDER/NAME.jsonl.
Result<void> lessonActions(const CommandLine& a, Options& o) {
    auto l = loadLesson(a.lesson); // a malformed lesson: file:line, exit 2, before any window
    if (!l) return l.error();
    for (const auto& [name, line] : l->recordings) { // found but malformed: FILE: what, exit 2
        const std::string path = findRecording(name, l->dir);
        if (path.empty()) continue; // the lesson runs live and says so
        if (auto r = readRecording(path); !r) return makeError(Errc::parse_error, r.error().message);
    }
    o.actions.push_back({"lesson", {a.lesson}, 0});
    if (a.screenshotEach.empty()) return {};
    std::error_code ec;
    std::filesystem::create_directories(a.screenshotEach, ec);
    const std::string stem = (std::filesystem::path(a.screenshotEach) / std::filesystem::path(l->name).stem()).string();
    std::filesystem::remove(stem + ".jsonl", ec);
    for (size_t k = 0; k < l->stops.size(); ++k) {
        char nn[24];
        std::snprintf(nn, sizeof nn, "%02zu", k + 1);
        o.actions.push_back({"lesson-stop", {std::to_string(k)}, 0});
        o.actions.push_back({"screenshot", {stem + "-" + nn + ".png"}, 0});
        if (l->stops[k].question) {
            o.actions.push_back({"answer", {a.lessonAnswers}, 0});
            o.actions.push_back({"screenshot", {stem + "-" + nn + "-answer.png"}, 0});
        }
        o.actions.push_back({"lesson-record", {stem + ".jsonl"}, 0});
    }
    return {};
}

// The actions the command line asks for, in the order they run: the script's, the lesson's, the
// pin, the held move (--transition-at), then --step, --dump-state and --screenshot; and the
// results to load.
Result<void> actionsFrom(const CommandLine& a, Options& o) {
    if (!a.script.empty()) {
        auto actions = readScript(a.script);
        if (!actions) return actions.error();
        o.actions = std::move(actions.value());
    }
    if (!a.lesson.empty()) SORTLAB_TRY(lessonActions(a, o));
    if (a.pinKey) o.actions.push_back({"pin-key", {std::to_string(*a.pinKey)}, 0});
    if (a.transitionAt) { // step K-1, then the move into K, held at the fraction
        uint64_t k = 0;
        try {
            k = std::stoull(a.step);
        } catch (...) {
            return makeError(Errc::parse_error, "--transition-at needs --step K with a step number K >= 1");
        }
        if (k == 0) return makeError(Errc::parse_error, "--transition-at needs --step K with a step number K >= 1");
        o.actions.push_back({"step", {std::to_string(k - 1)}, 0});
        char f[32];
        std::snprintf(f, sizeof f, "%g", double(*a.transitionAt));
        o.actions.push_back({"move-at", {f}, 0});
    }
    if (!a.openRecording.empty()) { // a missing or malformed file: FILE: what, exit 2, no window
        const std::string found = findRecording(a.openRecording, "");
        auto r = readRecording(found.empty() ? a.openRecording : found);
        if (!r) return makeError(Errc::parse_error, r.error().message);
        o.recording = *r;
    }
    o.record = a.record;
    for (const std::string& file : a.loadResults) { // a missing or malformed file: FILE: what, exit 2, no window
        auto loaded = o.loaded.load(file);
        if (!loaded) return loaded.error();
    }
    if (!a.step.empty()) o.actions.push_back({"step", {a.step}, 0});
    if (!a.dump.empty()) o.actions.push_back({"dump-state", {a.dump}, 0});
    if (!a.screenshot.empty()) o.actions.push_back({"screenshot", {a.screenshot}, 0});
    return {};
}

void listBuiltinLessons() {
    for (const auto& [name, title] : builtinLessons()) {
        auto l = loadLesson(name);
        std::cout << name << "  " << title << " (" << (l ? l->stops.size() : 0) << " stops)\n";
    }
}

} // namespace

Result<Options> parseOptions(int argc, char** argv, bool* exitNow) {
    *exitNow = false;
    CLI::App cli{"sortlab: watch GPU sorts (Vulkan compute) step by step, on a GPU or on lavapipe, Mesa's CPU driver.\n"
                 "Without --step/--screenshot/--dump-state/--script it opens the window and waits for you."};
    CommandLine a;
    Options o;
    addSortOptions(cli, a);
    addActionOptions(cli, a);
    addRunOptions(cli, a, o);
    cli.set_version_flag("--version", "sortlab " SORTLAB_VERSION);
    try {
        cli.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::cout << cli.help();
        *exitNow = true;
        return o;
    } catch (const CLI::CallForVersion& e) {
        std::cout << e.what() << "\n";
        *exitNow = true;
        return o;
    } catch (const CLI::ParseError& e) {
        return makeError(Errc::parse_error, e.what());
    }
    o.vsync = !a.noVsync;
    if (!a.theme.empty()) {
        o.theme = parseTheme(a.theme);
        if (!o.theme) return makeError(Errc::parse_error, "--theme '" + a.theme + "': use dark or light");
    }
    if (a.listLessons) {
        listBuiltinLessons();
        *exitNow = true;
        return o;
    }
    if (!a.screenshotEach.empty() && a.lesson.empty())
        return makeError(Errc::parse_error, "--screenshot-each goes with --lesson");
    SORTLAB_TRY(settingsFrom(a, cli.count("--n") > 0, o.settings));
    SORTLAB_TRY(actionsFrom(a, o));
    if (o.width < 200 || o.height < 150) return makeError(Errc::parse_error, "--width/--height: at least 200 x 150");
    return o;
}

} // namespace sortlab::app
