#include <sortlab/job.h>

#include <sortlab/shaders/constants.h>

#include <array>
#include <chrono>
#include <cstring>

namespace sortlab {

Result<std::unique_ptr<SortJob>> SortJob::create(Context& ctx, Sorter& sorter, uint64_t n, const SortConfig& config,
                                                 bool keepInput) {
    std::unique_ptr<SortJob> job(new SortJob(ctx, sorter));
    auto plan = sorter.plan(n, config);
    if (!plan) return plan.error();
    job->plan_ = std::move(plan.value());
    job->keepInput_ = keepInput;
    const uint64_t kb = n * keyBytes(config.key);
    const uint64_t vb = n * valueBytes(config.values);
    const bool hasValues = config.values != ValueType::none;

    auto make = [&](Buffer& b, uint64_t bytes, const char* what) -> Result<void> {
        auto r = Buffer::create(ctx, bytes, MemoryKind::device, what);
        if (!r) return r.error();
        b = std::move(r.value());
        return {};
    };
    // Check the total before allocating anything, so the message names the whole need.
    const StorageRequirements need = storageRequirements(job->plan_);
    const uint64_t total = need.total() + (keepInput ? kb + vb : 0);
    if (ctx.info().deviceLocalBytes && total > ctx.info().deviceLocalBytes)
        return makeError(Errc::out_of_memory, "sorting " + std::to_string(n) + " keys needs " +
                                                  std::to_string(total >> 20) + " MiB on the GPU; " + ctx.info().name +
                                                  " has " + std::to_string(ctx.info().deviceLocalBytes >> 20) +
                                                  " MiB; use a smaller n");
    SORTLAB_TRY(make(job->keys_, kb, "the key buffer"));
    if (hasValues) SORTLAB_TRY(make(job->values_, vb, "the value buffer"));
    if (need.keysTemp) SORTLAB_TRY(make(job->keysTemp_, need.keysTemp, "the temporary key buffer"));
    if (need.valuesTemp) SORTLAB_TRY(make(job->valuesTemp_, need.valuesTemp, "the temporary value buffer"));
    if (need.scratch) SORTLAB_TRY(make(job->scratch_, need.scratch, "the scratch buffer"));
    if (keepInput) {
        SORTLAB_TRY(make(job->inputKeys_, kb, "the input copy"));
        if (hasValues) SORTLAB_TRY(make(job->inputValues_, vb, "the input value copy"));
    }
    auto range = [](const Buffer& b) { return b.valid() ? b.range() : BufferRange{}; };
    job->addresses_ = {range(job->keys_), range(job->values_), range(job->keysTemp_), range(job->valuesTemp_),
                       range(job->scratch_)};

    if (ctx.info().timestamps && !job->plan_.steps.empty()) {
        VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qi.queryCount = static_cast<uint32_t>(job->plan_.steps.size() + 1);
        SORTLAB_VK(vkCreateQueryPool(ctx.device(), &qi, nullptr, &job->queries_), "vkCreateQueryPool");
    }
    return job;
}

SortJob::~SortJob() {
    if (queries_) ctx_.destroyWhenIdle([q = queries_](VkDevice d) { vkDestroyQueryPool(d, q, nullptr); });
}

Result<bool> SortJob::keysInTemp() {
    if (stepsDone_ == 0) return false;
    const Step& s = plan_.steps[stepsDone_ - 1];
    switch (s.keysAfter.kind) {
    case KeyLocation::Kind::keys:
        return false;
    case KeyLocation::Kind::keysTemp:
        return true;
    case KeyLocation::Kind::scratchWord:
        break;
    }
    uint32_t where = 0;
    Readback rb(ctx_);
    rb.add(scratch_, s.keysAfter.wordOffset * 4, 4, &where);
    SORTLAB_TRY(rb.run());
    if (where > 1)
        return makeError(Errc::vulkan_error, "the GPU left an invalid buffer index (" + std::to_string(where) +
                                                 ") after step '" + s.label + "'");
    return where == 1;
}

Result<void> SortJob::upload(std::span<const std::byte> keys, std::span<const uint32_t> values) {
    const uint64_t kb = plan_.n * keyBytes(plan_.config.key);
    const bool hasValues = plan_.config.values != ValueType::none;
    if (keys.size() != kb)
        return makeError(Errc::invalid_argument,
                         "upload: expected " + std::to_string(kb) + " key bytes, got " + std::to_string(keys.size()));
    if ((hasValues && values.size() != plan_.n) || (!hasValues && !values.empty()))
        return makeError(Errc::invalid_argument, "upload: the values do not match the configuration");
    const Buffer& kdst = keepInput_ ? inputKeys_ : keys_;
    const Buffer& vdst = keepInput_ ? inputValues_ : values_;
    SORTLAB_TRY(uploadBytes(ctx_, kdst, 0, keys));
    if (hasValues) SORTLAB_TRY(uploadBytes(ctx_, vdst, 0, std::as_bytes(values)));
    stepsDone_ = 0;
    if (keepInput_) return reset();
    return {};
}

void SortJob::recordRestore(VkCommandBuffer cmd) const {
    if (!keepInput_ || plan_.n == 0) return;
    computeToTransfer(cmd);
    VkBufferCopy k{0, 0, keys_.size()};
    vkCmdCopyBuffer(cmd, inputKeys_.handle(), keys_.handle(), 1, &k);
    if (values_.valid()) {
        VkBufferCopy v{0, 0, values_.size()};
        vkCmdCopyBuffer(cmd, inputValues_.handle(), values_.handle(), 1, &v);
    }
    transferToCompute(cmd);
}

Result<void> SortJob::reset() {
    if (!keepInput_) return makeError(Errc::invalid_argument, "reset: this job keeps no copy of its input");
    SORTLAB_TRY(ctx_.submitAndWait([&](VkCommandBuffer cmd) { recordRestore(cmd); }));
    stepsDone_ = 0;
    return {};
}

Result<Timing> SortJob::run(bool timestamps, const SubmitSemaphores& semaphores) {
    Timing t;
    const size_t steps = plan_.steps.size();
    const bool useQueries = timestamps && queries_ != VK_NULL_HANDLE && steps > 0;
    auto start = std::chrono::steady_clock::now();
    Result<void> recorded;
    SORTLAB_TRY(ctx_.submitAndWait(
        [&](VkCommandBuffer cmd) {
            recordRestore(cmd);
            if (useQueries) vkCmdResetQueryPool(cmd, queries_, 0, static_cast<uint32_t>(steps + 1));
            recorded = sorter_.record(cmd, plan_, addresses_, 0, steps, useQueries ? queries_ : VK_NULL_HANDLE, 0);
            computeToCompute(cmd);
        },
        semaphores));
    SORTLAB_TRY(recorded);
    auto end = std::chrono::steady_clock::now();
    stepsDone_ = steps;
    t.totalMs = std::chrono::duration<double, std::milli>(end - start).count();
    if (useQueries) {
        std::vector<uint64_t> ts(steps + 1);
        SORTLAB_VK(vkGetQueryPoolResults(ctx_.device(), queries_, 0, static_cast<uint32_t>(steps + 1),
                                         ts.size() * sizeof(uint64_t), ts.data(), sizeof(uint64_t),
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                   "vkGetQueryPoolResults");
        const double period = ctx_.info().timestampPeriodNs * 1e-6; // ms per tick
        for (size_t i = 0; i < steps; ++i) t.stepMs.push_back(double(ts[i + 1] - ts[i]) * period);
        t.totalMs = double(ts[steps] - ts[0]) * period;
        t.gpuTimestamps = true;
    }
    return t;
}

Result<void> SortJob::runTo(size_t last) {
    last = std::min(last, plan_.steps.size());
    if (last <= stepsDone_) return {};
    Result<void> recorded;
    SORTLAB_TRY(ctx_.submitAndWait([&](VkCommandBuffer cmd) {
        recorded = sorter_.record(cmd, plan_, addresses_, stepsDone_, last);
        computeToCompute(cmd);
    }));
    SORTLAB_TRY(recorded);
    stepsDone_ = last;
    return {};
}

Result<Snapshot> SortJob::capture() {
    return captureImpl(true, stepsDone_, std::nullopt);
}

Result<std::vector<Snapshot::Aux>> SortJob::captureAuxOf(size_t stepsDone, AuxKind kind) {
    if (stepsDone > stepsDone_)
        return makeError(Errc::invalid_argument, "captureAuxOf: step " + std::to_string(stepsDone) + " has not run (" +
                                                     std::to_string(stepsDone_) + " have)");
    auto s = captureImpl(false, stepsDone, kind);
    if (!s) return s.error();
    return std::move(s->aux);
}

Result<Snapshot> SortJob::captureImpl(bool withKeys, size_t regionsOf, std::optional<AuxKind> only) {
    Snapshot s;
    s.stepsDone = stepsDone_;
    s.label = stepsDone_ == 0 ? "input" : plan_.steps[stepsDone_ - 1].label;
    if (withKeys) {
        s.keys.resize(plan_.n * keyBytes(plan_.config.key));
        if (plan_.config.values != ValueType::none) s.values.resize(plan_.n);
    }
    auto temp = keysInTemp();
    if (!temp) return temp.error();
    Readback rb(ctx_);
    if (plan_.n && withKeys) rb.add(*temp ? keysTemp_ : keys_, 0, s.keys.size(), s.keys.data());
    if (!s.values.empty()) rb.add(*temp ? valuesTemp_ : values_, 0, s.values.size() * 4, s.values.data());
    // The sort's auxiliary state (counts, histograms, ...), rows packed on the way.
    std::vector<SnapshotRegion> regions = sorter_.snapshotRegions(plan_, regionsOf);
    if (only) std::erase_if(regions, [&](const SnapshotRegion& r) { return r.kind != *only; });
    std::vector<std::vector<uint32_t>> raw(regions.size());
    auto geometry = [](const SnapshotRegion& r) { // rows, columns, stride in words (columns in words too)
        const uint64_t wordsPerEntry = r.format == SnapshotRegion::Format::u64 ? 2 : 1;
        uint64_t rows = r.shape.size() > 1 ? r.shape[0] : 1, cols = wordsPerEntry;
        for (size_t d = r.shape.size() > 1 ? 1 : 0; d < r.shape.size(); ++d) cols *= r.shape[d];
        return std::array<uint64_t, 3>{rows, cols, r.rowStride ? r.rowStride : cols};
    };
    for (size_t i = 0; i < regions.size(); ++i) {
        auto [rows, cols, stride] = geometry(regions[i]);
        const uint64_t words = rows && cols ? (rows - 1) * stride + cols : 0;
        raw[i].resize(words);
        if (words) rb.add(scratch_, regions[i].wordOffset * 4, words * 4, raw[i].data());
    }
    SORTLAB_TRY(rb.run());
    for (size_t i = 0; i < regions.size(); ++i) {
        auto [rows, cols, stride] = geometry(regions[i]);
        Snapshot::Aux aux{regions[i].kind, regions[i].shape, {}};
        for (uint64_t row = 0; row < rows && cols; ++row)
            aux.data.insert(aux.data.end(), raw[i].begin() + row * stride, raw[i].begin() + row * stride + cols);
        switch (regions[i].format) {
        case SnapshotRegion::Format::u32:
            break;
        case SnapshotRegion::Format::u64: { // (low word, high word) pairs: the low words
            std::vector<uint32_t> out(aux.data.size() / 2);
            for (size_t e = 0; e < out.size(); ++e) out[e] = aux.data[2 * e];
            aux.data = std::move(out);
            break;
        }
        case SnapshotRegion::Format::statusFlag:
            for (uint32_t& w : aux.data) w = (w >> SORTLAB_OS_FLAG_SHIFT) & 3u;
            break;
        case SnapshotRegion::Format::statusCount:
            for (uint32_t& w : aux.data) w &= (1u << SORTLAB_OS_COUNT_BITS) - 1u;
            break;
        }
        s.aux.push_back(std::move(aux));
    }
    return s;
}

Result<void> SortJob::download(std::span<std::byte> keys, std::span<uint32_t> values) {
    if (keys.size() != plan_.n * keyBytes(plan_.config.key))
        return makeError(Errc::invalid_argument, "download: wrong key buffer size");
    if (!values.empty() && (values.size() != plan_.n || plan_.config.values == ValueType::none))
        return makeError(Errc::invalid_argument, "download: wrong value buffer size");
    auto temp = keysInTemp();
    if (!temp) return temp.error();
    Readback rb(ctx_);
    if (!keys.empty()) rb.add(*temp ? keysTemp_ : keys_, 0, keys.size(), keys.data());
    if (!values.empty()) rb.add(*temp ? valuesTemp_ : values_, 0, values.size() * 4, values.data());
    return rb.run();
}

} // namespace sortlab
