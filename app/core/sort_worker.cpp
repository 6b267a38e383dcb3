// [SECTION] Settings names
// [SECTION] Worker thread
// [SECTION] Jobs and snapshots
// [SECTION] Derived data: strip, counters
// (Check mode's CPU expectations, and the network's model: check_mode.cpp.)
#include <sortlab/app/sort_worker.h>
#include <sortlab/app/recording.h>
#include <sortlab/app/transition.h>

#include <sortlab/oddeven.h>
#include <sortlab/radix.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sortlab::app {

// [SECTION] Settings names ------------------------------------------------------------------------------

SortConfig SortSettings::config() const {
    SortConfig c;
    c.key = key;
    c.values = keyValue ? ValueType::u32 : ValueType::none;
    c.order = order;
    c.knobs = knobs;
    c = configure(algo, c);
    c.knobs.radixTileKeys =
        algorithm() == Algorithm::radix4 || algorithm() == Algorithm::onesweep ? effectiveTileKeys() : 0;
    c.knobs.forceFallback = c.knobs.forceFallback || knobs.forceFallback;
    c.knobs.logLookback = algorithm() == Algorithm::onesweep && effectiveLookbackLog();
    return c;
}

namespace {
template <class T> double numberAt(const std::byte* keys, uint64_t i) {
    T x;
    std::memcpy(&x, keys + i * sizeof(T), sizeof(T));
    return double(x);
}
} // namespace

double keyNumber(const std::byte* keys, uint64_t i, KeyType type) {
    using NumberAt = double (*)(const std::byte*, uint64_t);
    // In KeyType's order.
    static constexpr NumberAt kNumberAt[] = {numberAt<uint32_t>, numberAt<int32_t>, numberAt<float>,
                                             numberAt<uint64_t>, numberAt<int64_t>, numberAt<double>};
    return kNumberAt[static_cast<size_t>(type)](keys, i);
}

float keyHeightIn(const std::byte* keys, uint64_t i, KeyType type, double lo, double hi) {
    const double v = keyNumber(keys, i, type);
    if (std::isnan(v)) return std::signbit(v) ? 0.0f : 1.0f;
    if (hi <= lo) return 0.5f;
    return float(std::clamp((v - lo) / (hi - lo), 0.0, 1.0));
}

// [SECTION] Worker thread ---------------------------------------------------------------------------------

SortWorker::SortWorker(Context& ctx, std::function<void()> wake) : ctx_(ctx), wake_(std::move(wake)) {
    thread_ = std::thread([this] { loop(); });
}

SortWorker::~SortWorker() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

std::vector<AlgoStatus> SortWorker::algorithms() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return algosReady_; });
    return algos_;
}

void SortWorker::setSettings(const SortSettings& s) {
    openRecording(nullptr, s);
}

void SortWorker::openRecording(std::shared_ptr<const Recording> recording, const SortSettings& s) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        pendingSettings_ = s;
        pendingRecording_ = std::move(recording);
        target_ = 0;
        busy_ = true;
    }
    cv_.notify_all();
}

void SortWorker::goTo(size_t step) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (job_.plan) step = std::min(step, job_.plan->steps.size());
        target_ = step;
        if (!data_ || data_->step != step) busy_ = true;
    }
    cv_.notify_all();
}

void SortWorker::setCheck(bool on) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (check_ == on) return;
        check_ = on;
        busy_ = true;
    }
    cv_.notify_all();
}

void SortWorker::resetJob() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        pendingReset_ = true;
        busy_ = true;
    }
    cv_.notify_all();
}

SortWorker::View SortWorker::view() const {
    std::lock_guard<std::mutex> lock(mutex_);
    View v;
    v.job = job_;
    v.data = data_;
    v.target = target_;
    v.busy = busy_ || pendingSettings_.has_value();
    v.error = error_;
    v.storedSnapshots = storedCount_;
    v.storedBytes = storedBytes_;
    return v;
}

bool SortWorker::waitIdle(std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    return cv_.wait_for(lock, timeout, [&] { return !busy_ && !pendingSettings_ && !pendingReset_; });
}

// The Sorters, one per algorithm, and what the menu says of each variant (available, or why not).
void SortWorker::makeSorters() {
    {
        std::vector<AlgoStatus> algos;
        sorters_.resize(3);
        for (Algorithm a : {Algorithm::oddeven, Algorithm::radix4, Algorithm::onesweep}) {
            AlgoStatus st;
            auto s = makeSorter(ctx_, a);
            if (s) {
                sorters_[static_cast<size_t>(a)] = std::move(s.value());
                st.available = true;
            } else {
                st.why = s.error().message;
            }
            algos.push_back(st);
        }
        std::lock_guard<std::mutex> lock(mutex_);
        for (const VariantInfo& v : variants()) algos_.push_back(algos[static_cast<size_t>(v.algorithm)]);
        algosReady_ = true;
    }
    cv_.notify_all();
}

void SortWorker::loop() {
    makeSorters();
    bool lastCheck = false;
    for (;;) {
        std::optional<SortSettings> settings;
        std::shared_ptr<const Recording> recording;
        bool reset = false;
        size_t target = 0;
        bool check = false;
        std::optional<PinRequest> pin;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            cv_.wait(lock, [&] {
                return stop_ || pendingSettings_ || pendingReset_ || pinRequest_ ||
                       (hasJob() && (!data_ || data_->step != target_ || check_ != lastCheck));
            });
            if (stop_) break;
            settings = std::move(pendingSettings_);
            pendingSettings_.reset();
            recording = std::move(pendingRecording_);
            pendingRecording_.reset();
            reset = pendingReset_;
            pendingReset_ = false;
            target = target_;
            check = check_;
            pin = std::move(pinRequest_);
            pinRequest_.reset();
            if (settings) {
                ++generationCounter_;
                error_.clear();
            }
        }
        if (settings) {
            if (recording)
                buildReplay(*settings, std::move(recording), generationCounter_);
            else
                buildJob(*settings, generationCounter_);
            if (!hasJob()) continue;
            target = 0;
        }
        if (reset && sortJob_) { // (a replay's steps stay: they are the recording)
            stored_.clear();
            storedTotal_ = 0;
            auto r = sortJob_->reset();
            if (!r) {
                std::lock_guard<std::mutex> lock(mutex_);
                error_ = r.error().message;
            }
        }
        if (!hasJob()) {
            std::lock_guard<std::mutex> lock(mutex_);
            busy_ = false;
            cv_.notify_all();
            continue;
        }
        lastCheck = check;
        if (pin) resolvePin(*pin);
        auto start = std::chrono::steady_clock::now();
        auto snap = snapshotAt(target);
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (!snap) {
            std::lock_guard<std::mutex> lock(mutex_);
            error_ = snap.error().message;
            target_ = data_ ? data_->step : 0; // stay where we are
            busy_ = false;
            cv_.notify_all();
            if (wake_) wake_();
            continue;
        }
        publish(target, ms);
    }
    sortJob_.reset();
    replay_.reset();
    sorters_.clear();
}

// [SECTION] Jobs and snapshots -------------------------------------------------------------------------------

Result<std::vector<std::byte>> inputKeysOf(const SortSettings& s) {
    if (s.dist == Distribution::custom) return parseKeys(s.keysText, s.key, s.keysSource); // checked when set
    return generateKeys(s.key, s.n, s.dist, s.seed);
}

namespace {

// The job's description for the views: its settings, plan and input, and the input's key range.
JobInfo jobInfo(const SortSettings& s, uint64_t generation, const Plan& plan,
                std::shared_ptr<const std::vector<std::byte>> keys) {
    JobInfo info;
    info.generation = generation;
    info.settings = s;
    info.plan = std::make_shared<Plan>(plan);
    info.inputKeys = keys;
    double lo = INFINITY, hi = -INFINITY;
    for (uint64_t i = 0; i < s.n; ++i) {
        const double v = keyNumber(keys->data(), i, s.key);
        if (!std::isfinite(v)) continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    info.minKey = lo <= hi ? lo : 0;
    info.maxKey = lo <= hi ? hi : 0;
    info.scale = keyScale(keys->data(), s.n, s.key);
    return info;
}

} // namespace

// A replay: every step stored from the recording (none is evicted or recomputed), no GPU job.
void SortWorker::buildReplay(const SortSettings& s, std::shared_ptr<const Recording> rec, uint64_t generation) {
    sortJob_.reset();
    replay_ = rec;
    n_ = s.n;
    pin_.reset();
    stored_.clear();
    storedTotal_ = 0;
    refLayers_ = UINT64_MAX;
    refPasses_ = UINT32_MAX;
    for (size_t k = 0; k < rec->steps.size(); ++k) {
        stored_[k] = rec->steps[k];
        storedTotal_ += rec->steps[k]->keys.size() + rec->steps[k]->values.size() * 4;
    }
    inputValues_ = rec->inputValues;
    JobInfo info = jobInfo(s, generation, rec->plan, std::make_shared<const std::vector<std::byte>>(rec->inputKeys));
    info.recording = rec;
    publishJob(std::move(info));
}

// The job the views draw from now on (and the network's comparators a layer, for the counters).
void SortWorker::publishJob(JobInfo info) {
    const SortSettings& s = info.settings;
    comparatorsPerLayer_.clear();
    if (s.algorithm() == Algorithm::oddeven)
        for (auto& l : oddeven::layers(s.n)) comparatorsPerLayer_.push_back(oddeven::comparatorsInLayer(s.n, l));
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = std::move(info);
    data_.reset();
}

void SortWorker::buildJob(const SortSettings& s, uint64_t generation) {
    sortJob_.reset();
    replay_.reset();
    n_ = s.n;
    pin_.reset(); // a new input: nothing pinned
    stored_.clear();
    storedTotal_ = 0;
    refLayers_ = UINT64_MAX;
    refPasses_ = UINT32_MAX;
    auto fail = [&](const std::string& msg) {
        std::lock_guard<std::mutex> lock(mutex_);
        error_ = msg;
        job_ = JobInfo{};
        job_.generation = generation;
        job_.settings = s;
        data_.reset();
        busy_ = false;
        cv_.notify_all();
        if (wake_) wake_();
    };
    Sorter* sorter = sorters_[static_cast<size_t>(s.algorithm())].get();
    if (!sorter) return fail(std::string(s.algoName()) + " is not available");
    auto job = SortJob::create(ctx_, *sorter, s.n, s.config(), true);
    if (!job) return fail(job.error().message);
    auto typed = inputKeysOf(s);
    if (!typed) return fail(typed.error().message);
    auto keys = std::make_shared<std::vector<std::byte>>(std::move(*typed));
    inputValues_ = s.keyValue ? indexValues(s.n) : std::vector<uint32_t>{};
    auto up = job.value()->upload(*keys, inputValues_);
    if (!up) return fail(up.error().message);
    sortJob_ = std::move(job.value());

    publishJob(jobInfo(s, generation, sortJob_->plan(), keys));
}

Result<std::shared_ptr<const Snapshot>> SortWorker::snapshotAt(size_t step) {
    if (auto it = stored_.find(step); it != stored_.end()) return it->second;
    if (!sortJob_) return makeError(Errc::invalid_argument, "the recording has no step " + std::to_string(step));
    const uint64_t n = sortJob_->n();
    const size_t keyBytesTotal = n * keyBytes(sortJob_->plan().config.key) + n * 4;
    // Small arrays: also store the step before (swap marks and arrows compare the two); with a
    // pinned key, every step before (its path goes through each).
    const bool wantPrevious = step > 0 && keyBytesTotal <= (1u << 20) && !stored_.count(step - 1);
    size_t first = wantPrevious ? step - 1 : step;
    if (pin_ && n <= kPinMaxN)
        for (size_t s = 0; s < first; ++s)
            if (!stored_.count(s)) {
                first = s;
                break;
            }
    if (sortJob_->stepsDone() > first) SORTLAB_TRY(sortJob_->reset());
    std::shared_ptr<const Snapshot> out;
    for (size_t s = first; s <= step; ++s) {
        // Big arrays run forward one step per submission, so that window frames get the shared
        // queue between steps (lavapipe runs submissions in order).
        const bool big = n >= (1u << 20);
        while (sortJob_->stepsDone() < s) {
            size_t next = big ? sortJob_->stepsDone() + 1 : s;
            SORTLAB_TRY(sortJob_->runTo(next));
            std::lock_guard<std::mutex> lock(mutex_);
            if (pendingSettings_ || stop_) return makeError(Errc::invalid_argument, "cancelled");
        }
        auto snap = sortJob_->capture();
        if (!snap) return snap.error();
        auto shared = std::make_shared<const Snapshot>(std::move(snap.value()));
        storedTotal_ += shared->keys.size() + shared->values.size() * 4;
        stored_[s] = shared;
        out = shared;
    }
    evict(step);
    return out;
}

void SortWorker::pinKeyAt(size_t step, std::optional<uint64_t> index) {
    std::lock_guard<std::mutex> lock(mutex_);
    pinRequest_ = PinRequest{index ? std::optional<size_t>(step) : std::nullopt, index};
    busy_ = true;
    cv_.notify_all();
}

void SortWorker::pinInput(std::optional<uint64_t> inputIndex) {
    std::lock_guard<std::mutex> lock(mutex_);
    pinRequest_ = PinRequest{std::nullopt, inputIndex};
    busy_ = true;
    cv_.notify_all();
}

// A key asked for at a step is followed back to the input through the stored steps' moves.
void SortWorker::resolvePin(const PinRequest& r) {
    const uint64_t n = n_;
    ++pinVersion_;
    pin_.reset();
    if (!r.index || *r.index >= n || n > kPinMaxN) return;
    if (!r.step || *r.step == 0) {
        pin_ = *r.index;
        return;
    }
    pin_ = 0; // so that snapshotAt keeps every step up to the one asked about
    if (!snapshotAt(*r.step)) return pin_.reset();
    const JobInfo job = [&] {
        std::lock_guard<std::mutex> lock(mutex_);
        return job_;
    }();
    uint64_t at = *r.index;
    for (size_t s = *r.step; s > 0; --s) {
        const auto earlier = stored_.find(s - 1), later = stored_.find(s);
        if (earlier == stored_.end() || later == stored_.end()) return pin_.reset();
        const KeyMoves m = keyMoves(*earlier->second, *later->second, job, job.plan->steps[s - 1]);
        at = uint64_t(std::find(m.to.begin(), m.to.end(), at) - m.to.begin());
        if (at >= n) return pin_.reset();
    }
    pin_ = at;
}

std::vector<uint64_t> SortWorker::pinPathTo(size_t step) const {
    std::vector<uint64_t> path;
    if (!pin_) return path;
    path.push_back(*pin_);
    for (size_t s = 1; s <= step; ++s) {
        const auto earlier = stored_.find(s - 1), later = stored_.find(s);
        if (earlier == stored_.end() || later == stored_.end()) break;
        const KeyMoves m = keyMoves(*earlier->second, *later->second, job_, job_.plan->steps[s - 1]);
        path.push_back(m.to[path.back()]);
    }
    return path;
}

void SortWorker::evict(size_t keep) {
    if (replay_) return;                          // its steps are the recording's: none can be recomputed
    constexpr size_t kBudget = size_t(768) << 20; // bytes of stored snapshots
    while (storedTotal_ > kBudget && stored_.size() > 1) {
        // The snapshot farthest from the current step goes first; the current one and the step
        // before it stay.
        auto victim = stored_.end();
        size_t far = 0;
        for (auto it = stored_.begin(); it != stored_.end(); ++it) {
            if (it->first == keep || it->first + 1 == keep) continue;
            size_t d = it->first > keep ? it->first - keep : keep - it->first;
            if (victim == stored_.end() || d > far) {
                victim = it;
                far = d;
            }
        }
        if (victim == stored_.end()) break;
        storedTotal_ -= victim->second->keys.size() + victim->second->values.size() * 4;
        stored_.erase(victim);
    }
}

// [SECTION] Derived data: strip, counters -------------------------------------------------------------

namespace {

// The whole keys' density (density.h) in buckets of consecutive keys; the view merges them into
// its pixel columns (8192 buckets: 6 or 7 a column at 1200 pixels, so columns differ in keys by
// a bucket at most).
constexpr uint32_t kStripBuckets = 8192;

} // namespace

void SortWorker::publish(size_t step, double ms) {
    JobInfo job;
    bool check;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        job = job_;
        check = check_;
    }
    const Plan& plan = *job.plan;
    const SortSettings& s = job.settings;
    auto d = std::make_shared<StepData>();
    d->generation = job.generation;
    d->step = step;
    d->snapshot = stored_.at(step);
    if (step > 0)
        if (auto it = stored_.find(step - 1); it != stored_.end()) d->previous = it->second;
    d->stepMs = ms;
    d->pinned = pin_;
    d->pinVersion = pinVersion_;
    d->pinPath = pinPathTo(step);
    if (s.n > 4096) {
        // A radix sort part-way: its keys are in order of the bits of the passes that moved them
        // (the view says so on the picture).
        if (step > 0 && step < plan.steps.size() && s.algorithm() != Algorithm::oddeven) {
            const Step& st = plan.steps[step - 1];
            const bool moved = st.kind == StepKind::scatter || st.kind == StepKind::pass;
            const uint32_t bits = moved ? st.bitHi : st.bitLo;
            if (bits > 0 && bits < keyBits(s.key)) d->stripBits = bits;
        }
        d->strip =
            std::make_shared<const Density>(densityOf(d->snapshot->keys.data(), job.scale, 0, s.n, kStripBuckets));
    }
    if (s.algorithm() == Algorithm::oddeven) modelNetwork(*d, job, check);
    if (check) checkStep(*d, job);

    std::lock_guard<std::mutex> lock(mutex_);
    if (job_.generation != job.generation) return; // a new input arrived meanwhile
    data_ = std::move(d);
    storedCount_ = stored_.size();
    storedBytes_ = storedTotal_;
    if (target_ == step && !pendingSettings_ && !pendingReset_) busy_ = false;
    cv_.notify_all();
    if (wake_) wake_();
}

bool hasRadixData(const SortWorker::View& v) {
    if (!v.data || !v.data->snapshot) return false;
    for (AuxKind kind : kAllAuxKinds)
        if (v.data->snapshot->find(kind)) return true;
    const Algorithm a = v.job.settings.algorithm();
    return a == Algorithm::radix4 || a == Algorithm::onesweep;
}

} // namespace sortlab::app
