// The benchmark worker: one thread that runs sortlab-bench's sweep (bench::Runner, the same code
// as `sortlab-bench` and `sortlab --bench`) for the benchmark panel, on a Context of its own that
// adopts the window's device. The sort worker keeps its own Context; the two threads and the
// renderer share the one VkQueue through the renderer's queue mutex (AdoptInfo::queueMutex), held
// only while a submission is handed to the driver. So the window keeps drawing while the sweep runs, results
// appear as each size finishes, and a cancel takes effect at the next run or rep.
#pragma once

#include <sortlab/bench/cases.h>
#include <sortlab/bench/options.h>

#include <sortlab/context.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace sortlab::app {

class BenchWorker {
public:
    enum class Phase { idle, running, done, cancelled, failed };

    struct State {
        Phase phase = Phase::idle;
        bool cancelRequested = false;
        bench::RunProgress progress;
        std::shared_ptr<const std::vector<bench::CaseResult>> results; // every row so far (never null)
        uint64_t generation = 0; // changes whenever results change (a new sweep, a finished case)
        std::string message;     // failed: why; done/cancelled: a summary
        double elapsedS = 0;
        int checksFailed = 0;
        std::shared_ptr<const bench::Options> options; // of the sweep shown (null before the first)
    };

    // ctx is used only by the worker thread. wake is called (from the worker) when the state
    // changes, at most 10 times a second for progress.
    BenchWorker(Context& ctx, std::function<void()> wake);
    ~BenchWorker(); // cancels a sweep under way and waits for it
    BenchWorker(const BenchWorker&) = delete;
    BenchWorker& operator=(const BenchWorker&) = delete;

    // Starts a sweep (ignored while one runs). The options are sortlab-bench's; the worker sets
    // keepGoing (a failing size becomes an error row) and quiet.
    void start(bench::Options options);
    void cancel();
    State state() const;
    bool running() const;
    // Waits until no sweep runs; false on timeout.
    bool waitIdle(std::chrono::milliseconds timeout) const;

    // The largest power-of-two n per --algo name for a key type and value type (computed by the
    // worker on first request, from the library's plans and the device's limits: see
    // bench::largestSize). Null until known; the request is remembered.
    using Limits = std::map<std::string, bench::SizeLimit>;
    std::shared_ptr<const Limits> limits(KeyType type, ValueType values);

private:
    void loop();
    void runSweep(const bench::Options& options);
    void publish(bool force);

    Context& ctx_;
    std::function<void()> wake_;
    mutable std::mutex mutex_;
    mutable std::condition_variable cv_;
    std::thread thread_;
    bool stop_ = false;

    // Requests (guarded by mutex_).
    std::optional<bench::Options> pending_;
    bool cancel_ = false;
    std::vector<std::pair<KeyType, ValueType>> limitRequests_;

    // Published (guarded by mutex_).
    State state_;
    std::map<std::pair<KeyType, ValueType>, std::shared_ptr<const Limits>> limits_;

    // Worker-only.
    std::vector<bench::CaseResult> rows_;
    bench::RunProgress progress_;
    std::chrono::steady_clock::time_point started_, lastWake_;
};

} // namespace sortlab::app
