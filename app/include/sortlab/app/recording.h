// Recordings: a step-through sort as a GPU ran it, in a file any machine can replay. A recording
// holds the settings and the plan the GPU ran, the input, every step's snapshot (the keys and
// values, and every auxiliary buffer the views draw, OneSweep's lookback log among them, as
// SortJob::capture read them back) and the device, its driver and the date. The sort worker replays
// one instead of running the GPU (SortWorker::openRecording), so every view, step, move, pin and
// question works from it as from a live run. The file format is in docs/recordings.md.
#pragma once

#include <sortlab/app/settings.h>

#include <sortlab/context.h>
#include <sortlab/job.h>
#include <sortlab/result.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sortlab::app {

// What a recording was made on.
struct RecordedDevice {
    std::string name;   // "NVIDIA H100 80GB HBM3"
    std::string driver; // as the driver reports itself
    std::string type;   // "discrete GPU", "CPU", ...
    std::string date;   // UTC, "2026-11-28T01:40:00Z"
    std::string app;    // "sortlab 0.1"
    bool cpu() const { return type == "CPU"; }
};

struct Recording {
    static constexpr uint32_t kFormatVersion = 1;
    std::string path; // where it was read from ("" for one just made)
    RecordedDevice device;
    SortSettings settings; // the run's settings (as --algo, --n, ... would give them)
    Plan plan;             // the plan the GPU ran (its pipelines are not kept)
    std::vector<std::byte> inputKeys;
    std::vector<uint32_t> inputValues;                  // empty without values
    std::vector<std::shared_ptr<const Snapshot>> steps; // after steps [0, k) for k = 0..plan.steps.size()
};

// Runs the settings' sort on the context step by step, capturing every step (as the app's worker
// does), and returns it as a recording. The date is now.
Result<Recording> recordRun(Context& ctx, const SortSettings& s);
// Writes the file (compressed). io_error with the file's name when it cannot.
Result<void> writeRecording(const std::string& path, const Recording& r);
// Reads and checks the whole file before returning anything: a truncated or malformed file is a
// parse_error of one line, "FILE: offset N: what is wrong" (io_error when it cannot be read).
Result<std::shared_ptr<const Recording>> readRecording(const std::string& path);
// The same from bytes in memory (`name` for messages).
Result<std::shared_ptr<const Recording>> parseRecording(const std::vector<std::byte>& bytes, const std::string& name);

// Whether the settings ask for the run the recording holds: the same sort, configuration and input.
bool sameRun(const Recording& r, const SortSettings& s);
// "recorded on NVIDIA H100 80GB HBM3, 2026-11-28"
std::string recordedOn(const RecordedDevice& d);

struct Options;
// `PROGRAM --record FILE [settings]`: records the settings' run on the device chosen (--device,
// --validation), writes the file and prints one line; no window. The exit code: 0, 1 validation
// messages, 2 the file cannot be written, 3 no Vulkan, no device or a sort error (one line on stderr,
// "PROGRAM: error: ...").
int recordCommand(const Options& opt, const char* program);

// Where a recording named in a lesson or on the command line is looked for: the path as given, then
// (relative ones) beside the lesson file (`lessonDir`, "" for none) and in the app's data folders
// (assets/recordings/ installed as share/sortlab/recordings beside the program's bin/). The first
// that exists, or none.
std::vector<std::string> recordingDirs(const std::string& lessonDir);
std::string findRecording(const std::string& name, const std::string& lessonDir);

} // namespace sortlab::app
