// --dump-state: the state the app shows, as one JSON object. The keys and values use the same
// encoding as sortlab-bench --trace (docs/trace.md), so a test can compare the two.
#pragma once

#include <sortlab/app/loaded_results.h>
#include <sortlab/app/lookback_replay.h>
#include <sortlab/app/sort_worker.h>

#include <sortlab/result.h>

#include <nlohmann/json.hpp>

#include <string>

namespace sortlab::app {

struct DumpExtras {
    std::string device;
    double frameCpuMs = 0, frameBuildCpuMs = 0;
    size_t validationMessages = 0;
    bool presentation = false;
    bool check = false;
    LookbackReplayChoice replay; // the radix view's lookback replay (a OneSweep pass with its log)
    std::string keysError;       // why the Controls panel's own keys were last refused ("": they were not)
    nlohmann::json view = nlohmann::json::object(); // what the window draws of it (App::viewState), merged in
    std::vector<LoadedLine> loadedLines;            // the benchmark panel's lines from loaded results
    std::string loadError;                          // why the last load was refused ("": it was not)
    std::string recordingError;                     // why the last recording asked for was refused ("": it was not)
};

// n raw keys of type t in the trace's encoding: integers exactly, floats as numbers or "nan", "-inf"...
nlohmann::json keysJson(const std::vector<std::byte>& keys, uint64_t n, KeyType t);

Result<void> writeStateJson(const std::string& path, const SortWorker::View& v, const DumpExtras& extras);

} // namespace sortlab::app
