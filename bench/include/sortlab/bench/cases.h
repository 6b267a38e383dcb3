// The benchmark cases: every combination of --type, --values, --order, --dist and size, each
// run by every algorithm of --algo (and, with --anchor cub, by CUB on the same input). A case's
// input is generated once (lazily, after the first GPU job has been created, so that an n the
// device cannot hold fails before the host spends time and memory on it), its reference is
// sorted once, and both are reused by every algorithm.
#pragma once

#include <sortlab/bench/algos.h>
#include <sortlab/bench/options.h>

#include <sortlab/context.h>
#include <sortlab/data.h>
#include <sortlab/job.h>
#include <sortlab/lookback.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace sortlab::bench {

class CubAnchor;
class TraceWriter;

struct CaseSpec {
    sortlab::KeyType type = sortlab::KeyType::u32;
    sortlab::ValueType values = sortlab::ValueType::none;
    sortlab::Order order = sortlab::Order::ascending;
    sortlab::Distribution dist = sortlab::Distribution::uniform;
    uint64_t n = 0;
    uint64_t seed = 0;
    // Distribution::custom: the keys given (Options::customKeys of this type, which outlives the run).
    const std::vector<std::byte>* customKeys = nullptr;
};

// "u32 keys with u32 values, asc, n=1000, uniform", for messages.
std::string describe(const CaseSpec& spec);

// Throws the error of a SortJob call as a BenchError. (After a GPU timeout the job may be
// destroyed: the Context frees what the timed-out submission may use only once it has finished.)
[[noreturn]] void jobError(const sortlab::Error& e, const std::string& what);

struct StepTime {
    std::string label;
    sortlab::StepKind kind = sortlab::StepKind::layer;
    double medianMs = 0;
    bool skipped = false; // a radix pass the GPU skipped: every key had the same digit (it moved no key)
};

// One algorithm on one case.
struct CaseResult {
    const AlgoSpec* algo = nullptr;
    std::string variant;
    CaseSpec spec;
    std::string device, driver;
    std::string timer;         // "gpu timestamps", "wall clock" (GPU without timestamps), "host clock", "cuda events"
    std::vector<double> repMs; // every timed rep
    double medianMs = 0, minMs = 0;
    bool keepInput = true;              // false: the device could not hold a copy of the input (1 rep)
    std::optional<uint64_t> bytesFloor; // Plan::bytesMovedFloor (GPU sorts); the OneSweep floor (cub)
    size_t steps = 0;                   // plan steps (GPU sorts)
    uint32_t oddEvenTileKeys = 0;       // odd-even: Plan::tileKeys ("shared_elems" in the JSON)
    std::vector<StepTime> stepMs;       // per-step medians (GPU timestamps)
    std::string check = "skipped";      // "pass", "fail", "skipped"
    std::string checkMessage;           // where the result first differs
    std::optional<double> speedupVsStd;
    std::optional<double> speedupVsCub; // --anchor cub: the cub median / this median (> 1: faster than CUB)
    std::string error;                  // with keepGoing: why this algorithm could not run this case (check "error")
    std::string chose, why;             // --algo auto: the algorithm it picked and sortlab::SortReport's reason
    // OneSweep: tiles of the last pass that counted a predecessor's keys themselves in the last
    // timed rep (the "fallbacks" of the last step's snapshot), and the tiles of that pass.
    std::optional<uint64_t> fallbacks, fallbackTiles;
    // --lookback-stats (OneSweep): each pass's lookback in the last timed rep, in pass order (the
    // passes that ran: lookbackPass[i] is the pass of lookback[i]).
    std::vector<sortlab::LookbackStats> lookback;
    std::vector<uint32_t> lookbackPass;
    // --pipeline-stats: the pipelines the sort ran, with the driver's statistics of each.
    std::vector<sortlab::PipelineStatistics> pipelines;

    double gkeysPerS() const;
    std::optional<double> gbytesPerS() const;
};

// The host arrays of one case: the input, its reference sort (made right after the input, when
// checking), and a result buffer that every algorithm's output is read back into. At most these
// three copies live at once, plus the temporaries of one sort: sortlab::referenceSort's (before
// the result buffer exists) or the std baseline's (which frees the result buffer first).
class CaseData {
public:
    CaseData(const CaseSpec& spec, bool check) : spec_(spec), check_(check) {}

    // Generated on first use: the keys, the values (the index 0..n-1; empty for keys-only), and
    // their reference sort (when checking).
    const std::vector<std::byte>& keys() { return generated(keys_); }
    const std::vector<uint32_t>& values() { return generated(values_); }
    const std::vector<std::byte>& refKeys() { return generated(refKeys_); }
    const std::vector<uint32_t>& refValues() { return generated(refValues_); }
    std::vector<std::byte>& resultKeys(); // allocated on first use
    std::vector<uint32_t>& resultValues();
    void releaseResult(); // frees the result buffer (std kv needs the room)

private:
    void generate();
    template <class T> const T& generated(const T& array) {
        generate();
        return array;
    }
    CaseSpec spec_;
    bool check_;
    bool generated_ = false;
    std::vector<std::byte> keys_, refKeys_, resultKeys_;
    std::vector<uint32_t> values_, refValues_, resultValues_;
};

// Where a run is, for a progress bar: the (algorithm, case) units done, each weighted by
// unitWeight(n) (n + 2^20: a unit's time is its warm-up plus reps that grow with n).
struct RunProgress {
    size_t unitsDone = 0, unitsTotal = 0;
    double weightDone = 0, weightTotal = 0; // sum of unitWeight(n) over the units (and this one's reps)
    std::string current;                    // "radix4 (u32 keys, asc, n=65536, uniform)"
    int rep = 0, reps = 0;                  // timed rep of the current unit (0: warming up)
    double fraction() const { return weightTotal > 0 ? weightDone / weightTotal : 0; }
};

double unitWeight(uint64_t n);

// Thrown out of Runner::run when RunHooks::cancelled says so (between runs and reps).
struct RunCancelled {};

// How a caller follows and steers a run. sortlab-bench prints each case (caseDone); the app's
// benchmark panel also draws the progress, can cancel, and keeps going past a failing case.
struct RunHooks {
    std::function<void(const std::vector<CaseResult>&)> caseDone; // every case's rows, as it ends
    std::function<void(const RunProgress&)> progress;             // before each unit and rep
    std::function<bool()> cancelled; // polled between runs and reps: true throws RunCancelled
    // An algorithm that fails a case (too large for the device, out of memory, a timeout) gives
    // a row with `error` set instead of ending the run; it is not run on larger sizes of the same
    // key and value types, which get an error row that says so.
    bool keepGoing = false;
};

// The bytes of host memory a case holds at once (input, result, reference, sort temporaries).
double hostBytesForCase(const CaseSpec& spec, bool check);

// The largest power of two n that an algorithm can sort on this device and host: its plan
// exists (Sorter::plan: no too_large), the SortJob's device buffers fit (keys, values, the
// temporaries and scratch the plan asks for; the input copy is left out, as Runner does when it
// must) in the device-local heap and under maxBufferSize, and the case fits in host memory
// (hostBytesForCase). The std baseline needs only the host. `why` says what stops the next
// power of two. Sizes up to 2^40.
struct SizeLimit {
    uint64_t maxN = 0;
    std::string why;
};
SizeLimit largestSize(sortlab::Context* ctx, sortlab::Sorter* sorter, const AlgoSpec& algo, sortlab::KeyType type,
                      sortlab::ValueType values, bool check);

// Runs every case with every algorithm, hands each case's results to hooks.caseDone, writes the
// trace when asked. Throws BenchError on the first error that stops the run.
class Runner {
public:
    // ctx may be null when only the CPU baseline runs. Creates every GPU algorithm's sorter now,
    // so that an algorithm the library cannot make fails before any case runs; likewise loads the
    // CUB anchor with --anchor cub (no library, no CUDA device: BenchError, exit 3).
    Runner(const Options& options, sortlab::Context* ctx, RunHooks hooks, TraceWriter* trace);
    ~Runner();
    void run();
    int checksFailed() const { return failed_; }
    int checksPassed() const { return passed_; }
    const CubAnchor* anchor() const { return anchor_.get(); } // null without --anchor cub

private:
    // "+256x16x2" for OneSweep rows under --onesweep-shape, "+hist256x8" under --onesweep-histogram
    // (both: "+256x16x2+hist256x8"); "" otherwise.
    std::string shapeSuffix(const AlgoSpec& algo) const;
    void runCase(const CaseSpec& spec);
    CaseResult runGpu(const AlgoSpec& algo, const CaseSpec& spec, CaseData& data);
    // --algo auto: the one-call API picks on a copy of the keys, then runGpu runs its pick.
    CaseResult runAutomatic(const AlgoSpec& algo, const CaseSpec& spec, CaseData& data);
    // runGpu's parts: the job (without a device copy of the input where the device cannot hold
    // one), the warm-up and the timed reps, and what the GPU left in the pass info words.
    std::unique_ptr<sortlab::SortJob> makeJob(const sortlab::SortConfig& cfg, const CaseSpec& spec, CaseResult& r,
                                              const std::string& what);
    void timeRuns(sortlab::SortJob& job, const AlgoSpec& algo, const CaseSpec& spec, CaseData& data, CaseResult& r,
                  const std::string& what);
    void readPassInfo(sortlab::SortJob& job, const sortlab::SortConfig& cfg, CaseResult& r, const std::string& what);
    CaseResult runStd(const AlgoSpec& algo, const CaseSpec& spec, CaseData& data);
    CaseResult runCub(const CaseSpec& spec, CaseData& data);
    void checkResult(const AlgoSpec& algo, const CaseSpec& spec, CaseData& data, CaseResult& r);
    void poll(); // throws RunCancelled when asked to
    void progress(const AlgoSpec* algo, const CaseSpec& spec, int rep, int reps);
    CaseResult errorRow(const AlgoSpec& algo, const CaseSpec& spec, const std::string& why) const;

    const Options& opt_;
    sortlab::Context* ctx_;
    RunHooks hooks_;
    TraceWriter* trace_;
    RunProgress progress_;
    // keepGoing: (algorithm, key type, values) -> the smallest n it failed at, and why.
    std::map<std::tuple<const AlgoSpec*, sortlab::KeyType, sortlab::ValueType>, std::pair<uint64_t, std::string>>
        failedAt_;
    std::map<sortlab::Algorithm, std::unique_ptr<sortlab::Sorter>> sorters_;
    std::unique_ptr<CubAnchor> anchor_;
    int failed_ = 0, passed_ = 0;
};

} // namespace sortlab::bench
