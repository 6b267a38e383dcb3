// Runs the command line's and a script file's actions against the live app, one at a time: it
// waits for the sort worker to finish and for the UI to settle (a few frames) before each
// screenshot, so the PNG shows the state the action asked for.
#pragma once

#include <sortlab/app/app.h>
#include <sortlab/app/options.h>

#include <optional>
#include <string>
#include <vector>

namespace sortlab::app {

class ScriptRunner {
public:
    ScriptRunner(std::vector<Action> actions, App& app, SortWorker& worker, BenchWorker& bench);

    // Before building a frame: runs the actions that are due. Returns the PNG path to capture in
    // this frame's render (empty: none).
    std::string beforeFrame();
    // After the frame is presented (with its CPU time).
    void afterFrame(double cpuMs, double buildMs);
    bool done() const { return done_; }
    int exitCode() const { return exitCode_; }
    const std::string& message() const { return message_; }
    // Filled by main: what a dump-state writes beside the worker's view.
    std::string device;
    size_t validationMessages = 0;
    // `mouse X Y`: where the pointer is in scripted frames (none: outside the window).
    struct Point {
        float x = 0, y = 0;
    };
    std::optional<Point> mouse;

private:
    void fail(const Action& a, const std::string& why, int code);
    std::vector<Action> actions_;
    App& app_;
    SortWorker& worker_;
    BenchWorker& bench_;
    size_t next_ = 0;
    int settle_ = 0;                                 // frames to draw before the next action
    std::pair<uint64_t, size_t> shown_{0, SIZE_MAX}; // the data (generation, step) the last frame drew
    bool capturing_ = false;
    int measureLeft_ = 0; // "frames N": frames still to measure
    double measureSum_ = 0, measureBuildSum_ = 0;
    int measureCount_ = 0;
    bool done_ = false;
    int exitCode_ = 0;
    std::string message_;
};

} // namespace sortlab::app
