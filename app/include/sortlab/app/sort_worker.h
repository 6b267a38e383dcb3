// The sort worker: one thread that owns everything that touches the sort library's Context
// (Sorters, the SortJob, every submission). The UI thread only posts requests (new input, go to
// step k, check on/off) and reads what the worker published: immutable snapshots read back from
// the GPU by SortJob::capture(), with what the app derives from them. So a long GPU step never
// blocks the window, and the Context (which is not thread-safe) has a single owner.
//
// Snapshots of visited steps are kept (up to a memory budget) so that stepping back shows the
// stored GPU state; a step that was evicted or never captured is recomputed on the GPU
// (reset, runTo(k), capture).
#pragma once

#include <sortlab/app/density.h>
#include <sortlab/app/settings.h>

#include <sortlab/context.h>
#include <sortlab/job.h>
#include <sortlab/radix.h>

#include <array>
#include <condition_variable>
#include <chrono>
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

struct AlgoStatus {
    bool available = false;
    std::string why; // when not available: makeSorter's message
};

// The CPU reference model's verdict on one step (check mode).
struct StepCheck {
    bool available = false; // a reference exists for this algorithm and step
    std::string method;     // what was compared
    bool ok = true;
    uint64_t mismatches = 0;             // keys (or values) that differ
    std::vector<uint64_t> firstDiffs;    // up to 64 indices that differ
    std::vector<std::byte> expectedKeys; // the reference keys (n <= 4096, for display)
    std::vector<std::string> auxChecked; // aux entries compared with the model ("histogram", ...)
    std::vector<std::string> auxDiffs;   // those that differ, with how (each counts as a mismatch)
};

// Everything the views draw for the current step. Immutable once published.
struct StepData {
    uint64_t generation = 0; // changes with every new input
    size_t step = 0;         // steps done
    std::shared_ptr<const Snapshot> snapshot;
    std::shared_ptr<const Snapshot> previous; // step - 1 when stored (swap marks, arrows)
    std::shared_ptr<const Density> strip;     // for large n: the whole keys' density (density.h)
    uint32_t stripBits = 0; // > 0: a radix sort part-way, its keys in order of their low stripBits bits only
    StepCheck check;
    uint64_t layersDone = 0;      // odd-even: network layers applied
    uint64_t comparatorsDone = 0; // odd-even: comparators executed so far
    uint64_t referenceSwaps = 0;  // odd-even: swaps so far, counted by the CPU model (when run)
    bool swapsKnown = false;
    double stepMs = 0; // wall time of the GPU work that produced this step
    // The pinned key (its input index) and its path: its index after each step 0..step, as the GPU
    // moved it (empty when none is pinned, or past n = kPinMaxN).
    std::optional<uint64_t> pinned;
    std::vector<uint64_t> pinPath;
    uint64_t pinVersion = 0;
};

struct Recording; // recording.h

struct JobInfo {
    uint64_t generation = 0;
    // A replay: the recording the steps come from (none: a live run on this device).
    std::shared_ptr<const Recording> recording;
    SortSettings settings;
    std::shared_ptr<const Plan> plan;
    std::shared_ptr<const std::vector<std::byte>> inputKeys;
    double minKey = 0, maxKey = 0; // range of the input's finite keys (for bar heights)
    KeyScale scale;                // the input's min..max in sort order (the strip's heights)
};

class SortWorker {
public:
    SortWorker(Context& ctx, std::function<void()> wake);
    ~SortWorker();

    // Filled once the worker has tried makeSorter for each choice (waits for it).
    std::vector<AlgoStatus> algorithms();

    void setSettings(const SortSettings& s); // a new job (new input); goes to step 0
    // A new job replayed from a recording (its steps, not the GPU's), under these settings (those
    // asked for, which give the recording's run: sameRun); goes to step 0.
    void openRecording(std::shared_ptr<const Recording> recording, const SortSettings& s);
    void goTo(size_t step); // target step (clamped to the plan)
    void setCheck(bool on);
    // Pin the key now at `index` of step `step` (none: unpin); the worker finds its input index and
    // publishes its path. Small arrays only: every step is kept to follow it.
    static constexpr uint64_t kPinMaxN = 4096;
    void pinKeyAt(size_t step, std::optional<uint64_t> index);
    void pinInput(std::optional<uint64_t> inputIndex); // the key at this input index (--pin-key)
    void resetJob();                                   // drop stored snapshots, restore the input on the GPU

    struct View {
        JobInfo job;
        std::shared_ptr<const StepData> data;
        size_t target = 0;
        bool busy = false;
        std::string error;
        size_t storedSnapshots = 0;
        size_t storedBytes = 0;
    };
    View view() const;
    // Waits until the worker has nothing left to do (scripts); false on timeout.
    bool waitIdle(std::chrono::milliseconds timeout);

private:
    void makeSorters();
    void loop();
    void buildJob(const SortSettings& s, uint64_t generation);
    void publishJob(JobInfo info);
    void buildReplay(const SortSettings& s, std::shared_ptr<const Recording> recording, uint64_t generation);
    bool hasJob() const { return sortJob_ || replay_; }
    Result<std::shared_ptr<const Snapshot>> snapshotAt(size_t step);
    void publish(size_t step, double ms);
    void modelNetwork(StepData& d, const JobInfo& job, bool check); // odd-even's counters and model
    void checkStep(StepData& d, const JobInfo& job);                // check mode: d.check
    void evict(size_t keep);
    struct PinRequest { // a key at a step (step 0 or none: an input index), or none: unpin
        std::optional<size_t> step;
        std::optional<uint64_t> index;
    };
    void resolvePin(const PinRequest& r);               // the request's input index, into pin_
    std::vector<uint64_t> pinPathTo(size_t step) const; // pin_'s index after each step, from stored_

    Context& ctx_;
    std::function<void()> wake_;
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::thread thread_;
    bool stop_ = false;

    // Requests (guarded by mutex_).
    std::optional<SortSettings> pendingSettings_;
    std::shared_ptr<const Recording> pendingRecording_; // with pendingSettings_: replay it
    bool pendingReset_ = false;
    size_t target_ = 0;
    bool check_ = false;
    uint64_t generationCounter_ = 0;
    std::optional<PinRequest> pinRequest_; // the pin asked for, and the pinned input index
    std::optional<uint64_t> pin_;
    uint64_t pinVersion_ = 0;

    // Published (guarded by mutex_).
    bool algosReady_ = false;
    std::vector<AlgoStatus> algos_;
    JobInfo job_;
    std::shared_ptr<const StepData> data_;
    bool busy_ = false;
    std::string error_;
    size_t storedCount_ = 0, storedBytes_ = 0;

    // Worker-only state.
    std::vector<std::unique_ptr<Sorter>> sorters_; // per Algorithm
    std::unique_ptr<SortJob> sortJob_;
    std::shared_ptr<const Recording> replay_; // instead of sortJob_: every step stored from it
    uint64_t n_ = 0;                          // the job's keys
    std::map<size_t, std::shared_ptr<const Snapshot>> stored_;
    size_t storedTotal_ = 0;
    std::vector<uint32_t> inputValues_;
    // CPU reference state (odd-even): the input with layers [0, refLayers_) applied.
    std::vector<std::byte> refKeys_;
    std::vector<uint32_t> refValues_;
    uint64_t refLayers_ = UINT64_MAX;
    uint64_t refSwaps_ = 0;
    std::vector<uint64_t> comparatorsPerLayer_;
    // CPU reference state (radix sorts): the input after refPasses_ digit passes.
    uint32_t refPasses_ = UINT32_MAX;
    // The model's data of each aux entry, in the order of their names (as the check lists them).
    struct AuxByName {
        bool operator()(AuxKind a, AuxKind b) const { return auxKindName(a) < auxKindName(b); }
    };
    std::map<AuxKind, std::vector<uint32_t>, AuxByName> auxExpected_;
    radix::PassState lastPass_; // the model's state of pass refPasses_ - 1 (empty when refPasses_ == 0)
    void radixReference(size_t step, StepData& d, const JobInfo& job, std::vector<std::byte>& keys,
                        std::vector<uint32_t>& values);
    void oneSweepExpected(const Step& st, const JobInfo& job); // into auxExpected_
    void radix4Expected(const Step& st, const JobInfo& job);
};

// Whether the radix view has something to show: a step of a radix sort with its buffers (every
// aux kind is a radix sort's), or one without (the input, the result), which the view still names
// and shows small inputs of in binary rather than leave its place empty. Never for odd-even.
bool hasRadixData(const SortWorker::View& v);

// The input keys the settings give: generated (type, n, distribution, seed) or parsed (custom).
Result<std::vector<std::byte>> inputKeysOf(const SortSettings& s);

// Key i as a number for drawing (integers as they are, floats as they are; NaN and infinities are
// mapped to the ends by keyHeight).
double keyNumber(const std::byte* keys, uint64_t i, KeyType type);
// Key i's bar height in [0, 1] within [lo, hi]: -inf and -NaN at 0, +inf and NaN at 1.
float keyHeightIn(const std::byte* keys, uint64_t i, KeyType type, double lo, double hi);

} // namespace sortlab::app
