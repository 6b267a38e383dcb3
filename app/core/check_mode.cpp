// Check mode's CPU expectations, computed beside the GPU's steps: the odd-even network replayed
// on the input layer by layer, radix4's and OneSweep's passes from the radix reference model
// (sortlab/radix.h), and their comparison with each snapshot the GPU left (keys, values, the
// aux buffers, OneSweep's fallbacks). The worker thread (sort_worker.cpp) calls these as it
// publishes a step.
#include <sortlab/app/sort_worker.h>

#include <sortlab/oddeven.h>
#include <sortlab/radix.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sortlab::app {

// Odd-even: the layers done and the comparators executed, and the CPU reference: the network's
// layers replayed on the input (incrementally), for the swap count and check mode.
void SortWorker::modelNetwork(StepData& d, const JobInfo& job, bool check) {
    const Plan& plan = *job.plan;
    const SortSettings& s = job.settings;
    const size_t step = d.step;
    d.layersDone = step == 0 ? 0 : plan.steps[step - 1].firstLayer + plan.steps[step - 1].layerCount;
    for (uint64_t l = 0; l < d.layersDone && l < comparatorsPerLayer_.size(); ++l)
        d.comparatorsDone += comparatorsPerLayer_[l];
    if (!check && s.n > (1u << 16)) return;
    if (refLayers_ == UINT64_MAX || refLayers_ > d.layersDone) {
        refKeys_ = *job.inputKeys;
        refValues_ = inputValues_;
        refLayers_ = 0;
        refSwaps_ = 0;
    }
    refSwaps_ += oddeven::applyLayers(refKeys_, refValues_, s.key, s.order, s.n, refLayers_, d.layersDone);
    refLayers_ = d.layersDone;
    d.referenceSwaps = refSwaps_;
    d.swapsKnown = true;
}

namespace {

// The snapshot's keys (and values) against the reference's: how many differ, the first 64 of them.
void compareKeys(StepCheck& c, const Snapshot& snap, const SortSettings& s, const std::vector<std::byte>& expectedKeys,
                 const std::vector<uint32_t>& expectedValues) {
    const uint32_t kb = keyBytes(s.key);
    for (uint64_t i = 0; i < s.n; ++i) {
        bool same = std::memcmp(&snap.keys[i * kb], &expectedKeys[i * kb], kb) == 0;
        if (same && !expectedValues.empty()) same = snap.values[i] == expectedValues[i];
        if (!same) {
            ++c.mismatches;
            if (c.firstDiffs.size() < 64) c.firstDiffs.push_back(i);
        }
    }
}

// The radix sorts' aux buffers against the model's (same step): every entry the model has and the
// snapshot carries, in the order of their names.
template <class AuxMap> void compareAux(StepCheck& c, const Snapshot& snap, const AuxMap& expected) {
    for (auto& [kind, want] : expected) {
        const Snapshot::Aux* gpu = snap.find(kind);
        if (!gpu) continue;
        const std::string name(auxKindName(kind));
        c.auxChecked.push_back(name);
        if (gpu->data == want) continue;
        size_t at = 0;
        while (at < std::min(gpu->data.size(), want.size()) && gpu->data[at] == want[at]) ++at;
        std::string why = "\"" + name + "\" differs";
        if (gpu->data.size() != want.size())
            why += ": " + std::to_string(gpu->data.size()) + " entries, expected " + std::to_string(want.size());
        else
            why += " at [" + std::to_string(at) + "]: GPU " + std::to_string(gpu->data[at]) + ", expected " +
                   std::to_string(want[at]);
        c.auxDiffs.push_back(why);
        ++c.mismatches;
    }
}

// OneSweep's fallback count after a pass: exact under forced fallback (every tile but the first of
// each portion), otherwise at most that (how many tiles give up waiting depends on scheduling).
void checkFallbacks(StepCheck& c, const Snapshot& snap, const Plan& plan, size_t step, const SortSettings& s) {
    if (plan.algorithm != Algorithm::onesweep || step == 0 || plan.steps[step - 1].kind != StepKind::pass) return;
    const Snapshot::Aux* f = snap.find(AuxKind::fallbacks);
    const Step& pass = plan.steps[step - 1];
    const uint64_t most =
        snap.passSkipped() ? 0 : pass.workgroups - std::min(pass.workgroups, std::max<uint64_t>(1, pass.portions));
    if (!f || f->data.size() != 1) return;
    c.auxChecked.push_back(std::string(auxKindName(AuxKind::fallbacks)));
    const bool good = s.knobs.forceFallback ? f->data[0] == most : f->data[0] <= most;
    if (!good) {
        c.auxDiffs.push_back("\"fallbacks\" is " + std::to_string(f->data[0]) + ", expected " +
                             (s.knobs.forceFallback ? "" : "at most ") + std::to_string(most));
        ++c.mismatches;
    }
}

} // namespace

// Check mode: the step against the CPU reference of its algorithm (odd-even: the network's model;
// the radix sorts: the model of their passes, aux buffers included; else the final result only).
void SortWorker::checkStep(StepData& d, const JobInfo& job) {
    const Plan& plan = *job.plan;
    const SortSettings& s = job.settings;
    const size_t step = d.step;
    StepCheck& c = d.check;
    std::vector<std::byte> expectedKeys;
    std::vector<uint32_t> expectedValues;
    if (s.algorithm() == Algorithm::oddeven) {
        c.available = true;
        c.method =
            "CPU model of the network (sortlab::oddeven::applyLayers), layers 0.." + std::to_string(d.layersDone);
        expectedKeys = refKeys_;
        expectedValues = refValues_;
    } else if (s.algorithm() != Algorithm::oddeven && plan.tileKeys) {
        // Both radix sorts: LSD passes over the digits their steps name (4 or 8 bits).
        c.available = true;
        radixReference(step, d, job, expectedKeys, expectedValues);
        c.method = "CPU model of the passes (sortlab::radix::referencePass)";
    } else if (step == plan.steps.size()) {
        c.available = true;
        c.method = "std::stable_sort of the input (the final result only)";
        expectedKeys = *job.inputKeys;
        expectedValues = inputValues_;
        referenceSort(expectedKeys, expectedValues, s.key, s.order);
    } else {
        c.method = "no CPU model of the intermediate steps of this sort in the app yet; the final step is checked";
    }
    if (!c.available) return;
    const Snapshot& snap = *d.snapshot;
    compareKeys(c, snap, s, expectedKeys, expectedValues);
    compareAux(c, snap, auxExpected_);
    checkFallbacks(c, snap, plan, step, s);
    if (!c.auxChecked.empty()) {
        // Unquoted: ImGui wraps a quoted list between a closing quote and its comma.
        c.method += "; also compared:";
        for (size_t i = 0; i < c.auxChecked.size(); ++i) c.method += (i ? ", " : " ") + c.auxChecked[i];
    }
    c.ok = c.mismatches == 0;
    if (s.n <= 4096) c.expectedKeys = std::move(expectedKeys);
}

namespace {

// A pass's digit: its low bit and width, as the plan's steps name them (4-bit digits if none does).
std::pair<uint32_t, uint32_t> passBits(const Plan& plan, uint32_t pass) {
    for (auto& st : plan.steps)
        if (st.pass == pass && st.bitHi > st.bitLo) return std::pair<uint32_t, uint32_t>{st.bitLo, st.bitHi - st.bitLo};
    return std::pair<uint32_t, uint32_t>{pass * 4, 4};
}

std::vector<uint32_t> narrow(const std::vector<uint64_t>& x) {
    return std::vector<uint32_t>(x.begin(), x.end());
}

} // namespace

// The radix model: the keys after the passes whose scatter ran, and the aux buffers of the
// current step: radix4's counts, histogram and offsets; OneSweep's histograms and offsets (all
// passes after "histogram" and "scan", the pass's own after "pass") and, after a pass, its tile
// status (every flag 2, inclusive) and tile counts (digit d's keys in tiles 0..t).
void SortWorker::radixReference(size_t step, StepData&, const JobInfo& job, std::vector<std::byte>& keys,
                                std::vector<uint32_t>& values) {
    const Plan& plan = *job.plan;
    const SortSettings& s = job.settings;
    uint32_t scatters = 0;
    // radix4 moves keys in its "scatter" steps, OneSweep in its "pass" steps (chained scan + scatter).
    auto moves = [](const Step& st) { return st.kind == StepKind::scatter || st.kind == StepKind::pass; };
    for (size_t i = 0; i < step; ++i) scatters += moves(plan.steps[i]);
    if (refPasses_ == UINT32_MAX || refPasses_ > scatters) {
        refKeys_ = *job.inputKeys;
        refValues_ = inputValues_;
        refPasses_ = 0;
        lastPass_ = {};
    }
    while (refPasses_ < scatters) {
        auto [lo, bits] = passBits(plan, refPasses_);
        lastPass_ = radix::referencePass(refKeys_, refValues_, s.key, s.order, lo, bits, plan.tileKeys);
        ++refPasses_;
    }
    keys = refKeys_;
    values = refValues_;
    auxExpected_.clear();
    if (step == 0) return;
    const Step& st = plan.steps[step - 1];
    if (plan.algorithm == Algorithm::onesweep)
        oneSweepExpected(st, job);
    else if (plan.algorithm == Algorithm::radix4)
        radix4Expected(st, job);
}

// OneSweep's aux buffers at this step: after "histogram" and "scan", every pass's histogram (and
// offsets) of the input; after a pass, its own, and its tile statuses and counts.
void SortWorker::oneSweepExpected(const Step& st, const JobInfo& job) {
    const Plan& plan = *job.plan;
    const SortSettings& s = job.settings;
    if (st.kind == StepKind::histogram || st.kind == StepKind::scan) {
        // Every pass's digits of the input (a pass permutes the keys, so its digit counts are the
        // input's): run the passes on a copy.
        std::vector<std::byte> k = *job.inputKeys;
        std::vector<uint32_t> v;
        std::vector<uint32_t> allHist, allOff;
        uint32_t passes = 0;
        for (auto& x : plan.steps) passes += x.kind == StepKind::pass;
        for (uint32_t p = 0; p < passes; ++p) {
            auto [lo, bits] = passBits(plan, p);
            radix::PassState r = radix::referencePass(k, v, s.key, s.order, lo, bits, plan.tileKeys);
            if (p == 0) {
                auxExpected_[AuxKind::histogram] = narrow(r.histogram);
                if (st.kind == StepKind::scan) auxExpected_[AuxKind::offsets] = narrow(r.offsets);
            }
            for (uint64_t h : r.histogram) allHist.push_back(uint32_t(h));
            for (uint64_t o : r.offsets) allOff.push_back(uint32_t(o));
        }
        auxExpected_[AuxKind::allHistograms] = std::move(allHist);
        if (st.kind == StepKind::scan) auxExpected_[AuxKind::allOffsets] = std::move(allOff);
    } else if (st.kind == StepKind::pass && !lastPass_.histogram.empty()) {
        const radix::PassState& r = lastPass_;
        auxExpected_[AuxKind::histogram] = narrow(r.histogram);
        auxExpected_[AuxKind::offsets] = narrow(r.offsets);
        auxExpected_[AuxKind::passInfo] = {st.pass, st.bitLo, st.bitHi, r.skipped ? 1u : 0u};
        // The tiles whose keys all have one digit (staged unranked); none ran if skipped.
        auxExpected_[AuxKind::uniformTiles] = {r.skipped ? 0u : static_cast<uint32_t>(r.oneDigitTiles())};
        if (r.skipped) return; // no tile ran: the statuses are an older pass's
        const uint64_t tiles = r.workgroups, digits = r.histogram.size();
        std::vector<uint32_t> counts(tiles * digits);
        for (uint64_t d = 0; d < digits; ++d) {
            uint64_t run = 0;
            for (uint64_t t = 0; t < tiles; ++t) {
                run += r.counts[d * tiles + t];
                counts[t * digits + d] = uint32_t(run);
            }
        }
        auxExpected_[AuxKind::tileCounts] = std::move(counts);
        auxExpected_[AuxKind::tileStatus] = std::vector<uint32_t>(tiles * digits, 2u);
    }
}

// radix4's aux buffers at this step: the pass's histogram, and after its scan the offsets and
// whether the scatter runs.
void SortWorker::radix4Expected(const Step& st, const JobInfo& job) {
    const Plan& plan = *job.plan;
    const SortSettings& s = job.settings;
    radix::PassState pass;
    if (st.kind == StepKind::scatter) {
        pass = lastPass_;
        if (pass.histogram.empty()) return;
    } else if (st.kind == StepKind::count || st.kind == StepKind::scan) {
        std::vector<std::byte> k = refKeys_;
        std::vector<uint32_t> v = refValues_;
        auto [lo, bits] = passBits(plan, st.pass);
        pass = radix::referencePass(k, v, s.key, s.order, lo, bits, plan.tileKeys);
    } else {
        return;
    }
    auxExpected_[AuxKind::histogram] = narrow(pass.histogram);
    if (st.kind != StepKind::count) auxExpected_[AuxKind::offsets] = narrow(pass.offsets);
    if (st.kind != StepKind::count) // the scan decides whether the scatter runs
        auxExpected_[AuxKind::passInfo] = {st.pass, st.bitLo, st.bitHi, pass.skipped ? 1u : 0u};
}

} // namespace sortlab::app
