#include <sortlab/app/bench_worker.h>

#include <sortlab/bench/algos.h>
#include <sortlab/bench/errors.h>

#include <sortlab/sorter.h>

namespace sortlab::app {

BenchWorker::BenchWorker(Context& ctx, std::function<void()> wake) : ctx_(ctx), wake_(std::move(wake)) {
    state_.results = std::make_shared<const std::vector<bench::CaseResult>>();
    thread_ = std::thread([this] { loop(); });
}

BenchWorker::~BenchWorker() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
        cancel_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void BenchWorker::start(bench::Options options) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (state_.phase == Phase::running || pending_) return;
        options.keepGoing = true;
        options.quiet = true;
        pending_ = std::move(options);
        cancel_ = false;
        // Running from now on, so that a script's bench-wait never sees the sweep as over before
        // the worker has picked it up.
        state_.phase = Phase::running;
        state_.cancelRequested = false;
        state_.message.clear();
        state_.progress = {};
    }
    cv_.notify_all();
}

void BenchWorker::cancel() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (state_.phase != Phase::running) return;
        cancel_ = true;
        state_.cancelRequested = true;
    }
    cv_.notify_all();
    if (wake_) wake_();
}

BenchWorker::State BenchWorker::state() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return state_;
}

bool BenchWorker::running() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return state_.phase == Phase::running;
}

bool BenchWorker::waitIdle(std::chrono::milliseconds timeout) const {
    std::unique_lock<std::mutex> lock(mutex_);
    return cv_.wait_for(lock, timeout, [&] { return state_.phase != Phase::running; });
}

std::shared_ptr<const BenchWorker::Limits> BenchWorker::limits(KeyType type, ValueType values) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto key = std::make_pair(type, values);
    if (auto it = limits_.find(key); it != limits_.end()) return it->second;
    if (std::find(limitRequests_.begin(), limitRequests_.end(), key) == limitRequests_.end()) {
        limitRequests_.push_back(key);
        cv_.notify_all();
    }
    return nullptr;
}

void BenchWorker::publish(bool force) {
    // Progress wakes the window (for one frame) at most 10 times a second: each frame costs CPU
    // that lavapipe would otherwise use for the sort being timed.
    const auto now = std::chrono::steady_clock::now();
    if (!force && now - lastWake_ < std::chrono::milliseconds(100)) return;
    lastWake_ = now;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        state_.progress = progress_;
        state_.elapsedS = std::chrono::duration<double>(now - started_).count();
    }
    if (wake_) wake_();
}

void BenchWorker::runSweep(const bench::Options& options) {
    rows_.clear();
    progress_ = {};
    started_ = std::chrono::steady_clock::now();
    auto shared = std::make_shared<const bench::Options>(options);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        state_.results = std::make_shared<const std::vector<bench::CaseResult>>();
        state_.options = shared;
        state_.checksFailed = 0;
        ++state_.generation;
    }
    publish(true);

    bench::RunHooks hooks;
    hooks.keepGoing = true;
    hooks.caseDone = [&](const std::vector<bench::CaseResult>& rows) {
        rows_.insert(rows_.end(), rows.begin(), rows.end());
        auto copy = std::make_shared<const std::vector<bench::CaseResult>>(rows_);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            state_.results = std::move(copy);
            ++state_.generation;
        }
        publish(true);
    };
    hooks.progress = [&](const bench::RunProgress& p) {
        progress_ = p;
        publish(false);
    };
    hooks.cancelled = [&] {
        std::lock_guard<std::mutex> lock(mutex_);
        return cancel_;
    };

    Phase end = Phase::done;
    std::string message;
    int failedChecks = 0;
    try {
        bench::Runner runner(*shared, &ctx_, hooks, nullptr);
        runner.run();
        failedChecks = runner.checksFailed();
    } catch (const bench::RunCancelled&) {
        end = Phase::cancelled;
    } catch (const bench::BenchError& e) {
        end = Phase::failed;
        message = e.what();
    } catch (const std::bad_alloc&) {
        end = Phase::failed;
        message = "out of host memory; use a smaller n";
    } catch (const std::exception& e) {
        end = Phase::failed;
        message = std::string("unexpected error: ") + e.what();
    }
    size_t errors = 0;
    for (const bench::CaseResult& r : rows_) errors += !r.error.empty();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    char summary[256];
    if (end != Phase::failed) {
        std::snprintf(summary, sizeof summary, "%s after %.1f s: %zu results%s%s",
                      end == Phase::done ? "done" : "cancelled", seconds, rows_.size(),
                      errors ? (", " + std::to_string(errors) + " failed").c_str() : "",
                      failedChecks ? (", " + std::to_string(failedChecks) + " check mismatches").c_str() : "");
        message = summary;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        state_.phase = end;
        state_.message = message;
        state_.elapsedS = seconds;
        state_.checksFailed = failedChecks;
        state_.cancelRequested = false;
        state_.progress = progress_;
        cancel_ = false;
    }
    cv_.notify_all();
    if (wake_) wake_();
}

void BenchWorker::loop() {
    // Sorters for the size limits (the sweeps make their own, in bench::Runner).
    std::map<Algorithm, std::unique_ptr<Sorter>> sorters;
    for (;;) {
        std::optional<bench::Options> options;
        std::optional<std::pair<KeyType, ValueType>> limitsFor;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            cv_.wait(lock, [&] { return stop_ || pending_ || !limitRequests_.empty(); });
            if (stop_) return;
            if (pending_) {
                options = std::move(pending_);
                pending_.reset();
            } else {
                limitsFor = limitRequests_.front();
                limitRequests_.erase(limitRequests_.begin());
            }
        }
        if (options) {
            runSweep(*options);
            continue;
        }
        auto limits = std::make_shared<Limits>();
        for (const bench::AlgoSpec* a : bench::everyAlgo()) {
            Sorter* sorter = nullptr;
            if (a->gpu) {
                // (auto: OneSweep's limits; it takes OneSweep wherever the hybrid cannot plan a sort)
                const Algorithm g = *a->gpu == Algorithm::automatic ? Algorithm::onesweep : *a->gpu;
                auto& s = sorters[g];
                if (!s) {
                    auto made = makeSorter(ctx_, g);
                    if (!made) {
                        (*limits)[std::string(a->name)] = {0, made.error().message};
                        continue;
                    }
                    s = std::move(made.value());
                }
                sorter = s.get();
            }
            (*limits)[std::string(a->name)] =
                bench::largestSize(&ctx_, sorter, *a, limitsFor->first, limitsFor->second, true);
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            limits_[*limitsFor] = std::move(limits);
        }
        if (wake_) wake_();
    }
}

} // namespace sortlab::app
