// SortJob: one input on the GPU and a plan to sort it. It owns the device buffers, uploads host
// keys, runs the whole plan in one submission (the fast path, with per-step GPU timestamps) or a
// range of steps (the step path), and captures snapshots: the keys, values and the step's
// auxiliary buffers, read back from the GPU.
#pragma once

#include <sortlab/sorter.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace sortlab {

struct Snapshot {
    size_t stepsDone = 0;         // state after steps [0, stepsDone)
    std::string label;            // label of the last step done ("input" before any)
    std::vector<std::byte> keys;  // n keys, raw typed bits
    std::vector<uint32_t> values; // n values (empty for keys-only)
    struct Aux {
        AuxKind kind = AuxKind::histogram; // auxKindName(kind) names it for people and in JSON
        std::vector<uint32_t> shape;       // row-major, e.g. {16, workgroups} for radix4's digit counts
        std::vector<uint32_t> data;
    };
    std::vector<Aux> aux;
    // The entry of that kind, or null when this step's snapshot has none.
    const Aux* find(AuxKind kind) const {
        for (const Aux& a : aux)
            if (a.kind == kind) return &a;
        return nullptr;
    }
    // Whether a radix pass's info words (AuxKind::passInfo: pass, bit lo, bit hi, skipped) say that
    // the GPU skipped it: every key had the same digit, so no key moved (OneSweep: no tile ran, and
    // the tile statuses and lookback log are the last pass's that ran).
    static bool skipped(const Aux* passInfo) {
        return passInfo && passInfo->data.size() >= 4 && passInfo->data[3] != 0;
    }
    bool passSkipped() const { return skipped(find(AuxKind::passInfo)); }
};

struct Timing {
    double totalMs = 0;         // GPU time of all steps (timestamps), or wall time without them
    std::vector<double> stepMs; // per step, when timestamps are available
    bool gpuTimestamps = false;
};

class SortJob {
public:
    // Plans the sort and allocates device buffers for n keys. keepInput keeps a device copy of
    // the uploaded input so that run() and reset() can start again from it.
    static Result<std::unique_ptr<SortJob>> create(Context& ctx, Sorter& sorter, uint64_t n, const SortConfig& config,
                                                   bool keepInput = true);
    ~SortJob();

    const Plan& plan() const { return plan_; }
    uint64_t n() const { return plan_.n; }
    size_t stepsDone() const { return stepsDone_; }

    // keys: n * keyBytes bytes; values: n entries when the config has values, else empty.
    Result<void> upload(std::span<const std::byte> keys, std::span<const uint32_t> values);
    // Restore the uploaded input (needs keepInput) and run every step in one submission, which
    // waits on and signals `semaphores` (Context::submitAndWait).
    Result<Timing> run(bool timestamps = true, const SubmitSemaphores& semaphores = {});
    // Restore the uploaded input; the step path starts again at step 0.
    Result<void> reset();
    // Run steps [stepsDone(), last) in one submission.
    Result<void> runTo(size_t last);
    // The current keys/values (and auxiliary buffers) read back from the GPU.
    Result<Snapshot> capture();
    // The entries of one kind that the snapshot after step `stepsDone` (at most stepsDone()) held,
    // read now: right for buffers later steps leave alone, such as each OneSweep pass's lookback log.
    Result<std::vector<Snapshot::Aux>> captureAuxOf(size_t stepsDone, AuxKind kind);
    Result<void> download(std::span<std::byte> keys, std::span<uint32_t> values);

    // Whether the keys (and values) are in the temporary buffers now (after a radix pass, or at
    // the end with SortKnobs::resultInEither); reads the GPU's word where the step that ran last
    // leaves that to the GPU (Step::keysAfter). capture() and download() read from there.
    Result<bool> keysInTemp();

private:
    SortJob(Context& ctx, Sorter& sorter) : ctx_(ctx), sorter_(sorter) {}
    void recordRestore(VkCommandBuffer cmd) const;
    Result<Snapshot> captureImpl(bool withKeys, size_t regionsOf, std::optional<AuxKind> only);

    Context& ctx_;
    Sorter& sorter_;
    Plan plan_;
    Buffer keys_, values_, keysTemp_, valuesTemp_, scratch_, inputKeys_, inputValues_;
    DeviceBuffers addresses_;
    VkQueryPool queries_ = VK_NULL_HANDLE;
    size_t stepsDone_ = 0;
    bool keepInput_ = true;
};

} // namespace sortlab
