// The benchmark cases: every combination of --type, --values, --order, --dist and size, each
// run by every algorithm of --algo (and, with --anchor cub, by CUB on the same input). A case's
// input is generated once (lazily, after the first GPU job has been created, so that an n the
// device cannot hold fails before the host spends time and memory on it), its reference is
// sorted once, and both are reused by every algorithm.
#pragma once

#include "algos.h"
#include "options.h"

#include <sortlab/context.h>
#include <sortlab/data.h>
#include <sortlab/job.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bench {

class CubAnchor;
class Reporter;
class TraceWriter;

struct CaseSpec {
    sortlab::KeyType type = sortlab::KeyType::u32;
    sortlab::ValueType values = sortlab::ValueType::none;
    sortlab::Order order = sortlab::Order::ascending;
    sortlab::Distribution dist = sortlab::Distribution::uniform;
    uint64_t n = 0;
    uint64_t seed = 0;
};

// "u32 keys with u32 values, asc, n=1000, uniform", for messages.
std::string describe(const CaseSpec& spec);

// Throws the error of a SortJob call as a BenchError. (After a GPU timeout the job may be
// destroyed: the Context frees what the timed-out submission may use only once it has finished.)
[[noreturn]] void jobError(const sortlab::Error& e, const std::string& what);

struct StepTime {
    std::string label, kind;
    double medianMs = 0;
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
    uint32_t sharedElems = 0;           // Plan::sharedElems (GPU sorts)
    std::vector<StepTime> stepMs;       // per-step medians (GPU timestamps)
    std::string check = "skipped";      // "pass", "fail", "skipped"
    std::string checkMessage;           // where the result first differs
    std::optional<double> speedupVsStd;
    std::optional<double> speedupVsCub; // --anchor cub: the cub median / this median (> 1: faster than CUB)
    // OneSweep: tiles of the last pass that counted a predecessor's keys themselves in the last
    // timed rep, and the tiles of that pass (the "fallbacks" of the last step's snapshot).
    std::optional<uint64_t> fallbacks, fallbackTiles;

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

    const std::vector<std::byte>& keys();    // generated on first use
    const std::vector<uint32_t>& values();   // the index 0..n-1 (empty for keys-only)
    const std::vector<std::byte>& refKeys(); // sorted with the input (when checking)
    const std::vector<uint32_t>& refValues();
    std::vector<std::byte>& resultKeys(); // allocated on first use
    std::vector<uint32_t>& resultValues();
    void releaseResult(); // frees the result buffer (std kv needs the room)

private:
    void generate();
    CaseSpec spec_;
    bool check_;
    bool generated_ = false;
    std::vector<std::byte> keys_, refKeys_, resultKeys_;
    std::vector<uint32_t> values_, refValues_, resultValues_;
};

// Runs every case with every algorithm, hands each case's results to the reporter, writes the
// trace when asked. Throws BenchError on the first error that stops the run.
class Runner {
public:
    // ctx may be null when only the CPU baseline runs. Creates every GPU algorithm's sorter now,
    // so that an algorithm the library cannot make fails before any case runs; likewise loads the
    // CUB anchor with --anchor cub (no library, no CUDA device: BenchError, exit 3).
    Runner(const Options& options, sortlab::Context* ctx, Reporter& reporter, TraceWriter* trace);
    ~Runner();
    void run();
    int checksFailed() const { return failed_; }
    int checksPassed() const { return passed_; }
    const CubAnchor* anchor() const { return anchor_.get(); } // null without --anchor cub

private:
    void runCase(const CaseSpec& spec);
    CaseResult runGpu(const AlgoSpec& algo, const CaseSpec& spec, CaseData& data);
    CaseResult runStd(const AlgoSpec& algo, const CaseSpec& spec, CaseData& data);
    CaseResult runCub(const CaseSpec& spec, CaseData& data);
    void checkResult(const AlgoSpec& algo, const CaseSpec& spec, CaseData& data, CaseResult& r);

    const Options& opt_;
    sortlab::Context* ctx_;
    Reporter& reporter_;
    TraceWriter* trace_;
    std::map<sortlab::Algorithm, std::unique_ptr<sortlab::Sorter>> sorters_;
    std::unique_ptr<CubAnchor> anchor_;
    int failed_ = 0, passed_ = 0;
};

} // namespace bench
