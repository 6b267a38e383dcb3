// The command line, and the script actions it turns into. `sortlab --algo oddeven --n 16 --seed 1
// --step 10 --screenshot out.png` sets the input, runs to step 10, writes a PNG of the window and
// exits. A script file holds the same actions, one per line (see docs/app.md).
#pragma once

#include <sortlab/app/palette.h>
#include <sortlab/app/loaded_results.h>
#include <sortlab/app/recording.h>
#include <sortlab/app/settings.h>

#include <sortlab/result.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace sortlab::app {

struct Action {
    std::string verb; // "set", "step", "screenshot", "dump-state", "check", "presentation", "frames", "size", "key"
    std::vector<std::string> args;
    int line = 0; // script line (0: command line)
};

struct Options {
    SortSettings settings;
    std::string device;
    bool validation = false;
    bool vsync = true;
    int width = 1600, height = 1000;
    bool presentation = false;
    bool check = false;
    bool noIni = false;
    std::optional<Theme> theme;                 // --theme; none: imgui.ini's, else dark
    LoadedResults loaded;                       // --load-results: read (and refused) before any window opens
    std::string record;                         // --record FILE: record the settings' run, no window
    std::shared_ptr<const Recording> recording; // --open-recording: read (and refused) before any window opens
    std::vector<Action> actions;                // empty: interactive
};

// The input's options as given (text, as applySetting reads it), with their defaults.
struct InputArgs {
    std::string n = "16", type = "u32", dist; // dist empty: small up to n = 64, uniform above
    uint64_t seed = 1;
};

// The options the app shares with sortlab-step-latency, declared here once; each help ends with
// the default that `in` holds.
// --n, --type, --dist and --seed.
void addInputOptions(CLI::App& cli, InputArgs& in);
// --device, --validation and --check.
void addDeviceOptions(CLI::App& cli, std::string& device, bool& validation, bool& check);
// Applies --n, --type and --dist (in that order; an empty dist leaves it to n) and the seed.
Result<void> applyInput(SortSettings& s, const InputArgs& in);

// Parses argv. Returns parse_error/invalid_argument with a one-line message (exit code 2), or
// sets *exitNow (for --help) and prints the help.
Result<Options> parseOptions(int argc, char** argv, bool* exitNow);
// Applies one "set" key/value ("algo", "n", "type", ...) to settings.
Result<void> applySetting(SortSettings& s, const std::string& key, const std::string& value);
// Reads a script file into actions.
Result<std::vector<Action>> readScript(const std::string& path);

} // namespace sortlab::app
