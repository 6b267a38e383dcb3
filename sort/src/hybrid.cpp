// The hybrid radix sort (after Stehle and Jacobsen, SIGMOD 2017): the keys are first sorted by their
// top 16 order bits with OneSweep's histogram and two of its 8-bit passes (its kernels, a OneSweep
// plan of that bit range), which leaves them in 65536 buckets; then each bucket's bounds are found,
// and the buckets that begin in each window of keys are sorted by one workgroup in its shared
// memory by the bits below the top 16 (and their bucket where a window holds several), in place,
// with their values. About 32 bytes a u32 key move through memory (a histogram read, two passes,
// the bounds read, the bucket sort's read and write) against OneSweep's 36; a u64 key 64 against
// OneSweep's 136. See docs/hybrid.md and shaders/hybrid_*.comp.
#include "sorter_common.h"
#include <sortlab/internal/tuning.h>

#include <sortlab/shaders/constants.h>

#include <sortlab/sorter.h>

#include <algorithm>
#include <bit>

namespace sortlab::onesweep {
std::unique_ptr<Sorter> makeOneSweepSorter(Context& ctx);
}

namespace sortlab::hybrid {

namespace {

// Mirrors shaders/hybrid.glsl's push constants.
struct Push {
    uint64_t keys, keysTemp, values, valuesTemp, scratch, n;
    uint32_t groupsX, groups, windows;
};
static_assert(sizeof(Push) <= kPushConstantBytes);

constexpr const char* kShaders[] = {"hybrid_clear", "hybrid_bounds", "hybrid_local"};
enum Pipe : size_t { kClear, kBounds, kLocal };

constexpr uint32_t kBuckets = 65536; // the top 16 order bits
constexpr uint32_t kBucketBits = 16;
// The bucket sort's workgroup and keys a lane: a tile of 5120 keys holds the largest of 2^28
// random keys' buckets (4096 on average, a standard deviation of 64). 512 x 10 was the fastest of
// seven shapes from 2^24 to 2^28 on an H200 (64 registers, 21 540 bytes of shared memory: two
// workgroups a multiprocessor; docs/notebook/2026-11-28-hybrid-bucket-kernel.md).
constexpr uint32_t kWorkgroup = 512;
constexpr uint32_t kKeysPerLane = 10;
// The bounds kernel's workgroups stride over the keys (enough to fill a large GPU).
constexpr uint64_t kMaxBoundsGroups = 2048;

// The OneSweep plan of the MSD part: the top 16 order bits, stable.
SortConfig msdConfig(const SortConfig& c) {
    SortConfig m;
    m.key = c.key;
    m.values = c.values;
    m.order = c.order;
    m.beginBit = keyBits(c.key) - kBucketBits;
    m.endBit = keyBits(c.key);
    return m;
}

uint64_t alignUp(uint64_t v, uint64_t a) {
    return (v + a - 1) / a * a;
}

// The bucket sort's shape. Its workgroup w sorts the buckets that begin in window w (keys
// [w S, (w + 1) S), S = window) as one region, in shared memory when the region fits a tile: a
// window of half a tile leaves room for a last bucket of half a tile more (random keys: buckets
// far below that from 2^27 keys down, about 4096 keys at 2^28, which then take a region each).
struct Geometry {
    uint32_t workgroup = 0, keysPerLane = 0, maxSubgroups = 0;
    uint64_t tile() const { return uint64_t(workgroup) * keysPerLane; }
    uint32_t window() const { return static_cast<uint32_t>(tile() / 2); }
    uint64_t windows(uint64_t n) const { return (n + window() - 1) / window(); }
};
// The largest n: the bucket sort counts a bucket's keys in 32 bits.
constexpr uint64_t kMaxHybridKeys = (uint64_t(1) << 32) - 1;
// The largest n on lavapipe (Mesa's CPU driver), which stops an invocation's loops once they have
// run 65535 iterations in all (its loop limiter) and so would leave part of a bucket unsorted: the
// one workgroup that sorts a bucket larger than its tile in global memory loops about 0.03 times a
// key a pass at lavapipe's 256 x 10 (a histogram and 60-odd iterations a tile): two passes of a
// 32-bit key, six of a 64-bit key.
uint64_t maxLavapipeKeys(const SortConfig& c) {
    return uint64_t(1) << (keyBytes(c.key) == 4 ? 20 : 18);
}

class HybridSorter final : public PipelineSorter {
public:
    HybridSorter(Context& ctx, std::unique_ptr<Sorter> msd) : PipelineSorter(ctx), msd_(std::move(msd)) {}
    Algorithm algorithm() const override { return Algorithm::hybrid; }

    Result<Plan> makePlan(uint64_t n, const SortConfig& config) override {
        if (auto ok = needsRadixSubgroups("the hybrid sort"); !ok) return ok.error();
        if (!sortsWholeKey(config))
            return makeError(Errc::invalid_argument,
                             "the hybrid sort sorts whole keys only; a bit range takes radix4 or onesweep");
        if (config.knobs.resultInEither || config.knobs.radixTileKeys || config.knobs.logLookback)
            return makeError(Errc::invalid_argument, "the hybrid sort takes none of resultInEither, radixTileKeys "
                                                     "and logLookback");
        if (n > kMaxHybridKeys)
            return makeError(Errc::too_large, "the hybrid sort takes at most 2^32 - 1 keys (n = " + std::to_string(n) +
                                                  "); use Algorithm::onesweep");
        if (ctx_.info().isLavapipe && n > maxLavapipeKeys(config))
            return makeError(Errc::too_large,
                             "the hybrid sort takes at most 2^" +
                                 std::to_string(std::countr_zero(maxLavapipeKeys(config))) + " " +
                                 std::string(keyTypeName(config.key)) + " keys on lavapipe (n = " + std::to_string(n) +
                                 "): lavapipe ends a shader invocation's loops after 65535 iterations in all, "
                                 "which a larger bucket needs; use Algorithm::onesweep");
        Plan p = newPlan(Algorithm::hybrid, n, config);
        if (n == 0) return p;
        auto msd = msd_->plan(n, msdConfig(config));
        if (!msd) return msd.error();
        auto g = geometry();
        if (!g) return g.error();
        p.needsTemp = true;
        p.scratchBytes = ownScratch(*msd) + (SORTLAB_HY_WINDOWS + 2 * g->windows(n)) * 4ull;
        p.tileKeys = g->tile();
        p.steps = msd->steps;
        for (Step& s : p.steps) s.label = "MSD " + s.label;
        const uint32_t lowBits = keyBits(config.key) - kBucketBits;
        Step bounds;
        bounds.kind = StepKind::bounds;
        bounds.label = "bucket bounds: where each of the 65536 buckets (top 16 bits) begins and ends";
        bounds.workgroups = boundsGroups(n);
        bounds.keysAfter = KeyLocation::inKeys();
        p.steps.push_back(bounds);
        Step local;
        local.kind = StepKind::bucket;
        local.label = "bucket sort: the buckets that begin in each window of " + std::to_string(g->window()) +
                      " keys, by their low " + std::to_string(lowBits) + " bits (and their bucket), in one workgroup";
        local.workgroups = g->windows(n);
        local.bitLo = 0;
        local.bitHi = lowBits;
        local.keysAfter = KeyLocation::inKeys();
        p.steps.push_back(local);
        p.resultLocation = KeyLocation::inKeys();
        // OneSweep's two passes (and its histogram), the bounds' read, the bucket sort's read and write.
        p.bytesMovedFloor = oneSweepBytesFloor(n, msdConfig(config)) + 3 * n * keyBytes(config.key) +
                            (config.values == ValueType::none ? 0 : 2 * n * 4);
        return withPipelines(std::move(p), kShaders,
                             [&](const char* shader) { return pipelineFor(shader, config, *g); });
    }

    Result<void> recordSteps(VkCommandBuffer cmd, const Plan& plan, const DeviceBuffers& buf, size_t first, size_t last,
                             VkQueryPool timestamps, uint32_t firstQuery) const override {
        if (!hasPipelines(plan, std::size(kShaders))) return lostPipelines();
        auto msd = msd_->plan(plan.n, msdConfig(plan.config)); // (its pipelines exist: plan() made them)
        if (!msd) return msd.error();
        const auto g = geometry();
        if (!g) return g.error();
        const size_t msdSteps = msd->steps.size();
        size_t i = first;
        if (first < msdSteps) {
            DeviceBuffers inner = buf;
            inner.scratch = {buf.scratch.address, ownScratch(*msd)};
            i = std::min(last, msdSteps);
            SORTLAB_TRY(msd_->record(cmd, *msd, inner, first, i, timestamps, firstQuery));
        } else {
            timestampBefore(cmd, timestamps, firstQuery);
        }
        Push pc{};
        setBuffers(pc, buf, plan.n, ownScratch(*msd));
        pc.windows = static_cast<uint32_t>(g->windows(plan.n));
        for (; i < last; ++i) {
            const Step& s = plan.steps[i];
            computeToCompute(cmd); // after the MSD part's last step, or the step before
            if (s.kind == StepKind::bounds) {
                pc.groups =
                    static_cast<uint32_t>((std::max<uint64_t>(kBuckets, pc.windows) + kWorkgroup - 1) / kWorkgroup);
                dispatchPipeline(cmd, plan.pipelines[kClear], pc, pc.groups);
                computeToCompute(cmd);
                pc.groups = static_cast<uint32_t>(s.workgroups);
                dispatchPipeline(cmd, plan.pipelines[kBounds], pc, pc.groups);
            } else {
                pc.groups = pc.windows;
                dispatchPipeline(cmd, plan.pipelines[kLocal], pc, pc.windows);
            }
            timestampAfter(cmd, timestamps, firstQuery, first, i);
        }
        return {};
    }

protected:
    // The hybrid's own pipelines change with no n; the MSD part's are OneSweep's, whose sizes only
    // its sorter knows: its warm-up makes them here (Sorter::warmUp plans these sizes after).
    std::vector<uint64_t> warmUpSizes(const SortConfig& config, uint64_t maxN) const override {
        if (sortsWholeKey(config))
            (void)msd_->warmUp(msdConfig(config), std::min(maxN, kMaxHybridKeys)); // (its errors: plan()'s, below)
        return Sorter::warmUpSizes(config, maxN);
    }

private:
    // Where the hybrid's own scratch begins: after the MSD plan's (OneSweep's), 16-byte aligned.
    static uint64_t ownScratch(const Plan& msd) { return alignUp(msd.scratchBytes, kBufferAlignment); }
    static uint64_t boundsGroups(uint64_t n) {
        return std::clamp<uint64_t>((n + 8ull * kWorkgroup - 1) / (8ull * kWorkgroup), 1, kMaxBoundsGroups);
    }

    uint32_t maxSubgroups(uint32_t wg) const { return std::max(1u, wg / std::max(1u, ctx_.info().subgroupSize)); }

    // The bucket sort's shared memory: half the tile (the exchange goes in two rounds), the
    // subgroups' counts (two 16-bit counts a word), each run of digits' sum, each digit's start and
    // total, the global path's bases, a flag.
    uint32_t sharedBytes(uint32_t wg, uint32_t kpt) const {
        return wg * kpt * 4 / 2 + (maxSubgroups(wg) + 1) / 2 * 256 * 4 +
               256 / std::max(1u, ctx_.info().subgroupSize) * 4 + 256 * 4 * 3 + 4;
    }

    // The tuned shape, its workgroup halved (the tile with it) until it fits the device's shared memory.
    Result<Geometry> geometry() const {
        const DeviceInfo& dev = ctx_.info();
        const uint32_t sub = std::max(1u, dev.subgroupSize);
        Geometry g;
        g.keysPerLane = kKeysPerLane;
        g.workgroup = std::min(kWorkgroup, dev.maxWorkgroupSize);
        g.workgroup -= g.workgroup % (2 * sub); // (an even count of subgroups: the exchange's two halves)
        while (g.workgroup / 2 >= std::max(64u, 2 * sub) &&
               sharedBytes(g.workgroup, g.keysPerLane) > dev.sharedMemoryBytes)
            g.workgroup /= 2;
        if (g.workgroup < 2 * sub || sharedBytes(g.workgroup, g.keysPerLane) > dev.sharedMemoryBytes)
            return makeError(Errc::missing_feature,
                             "the hybrid sort's bucket sort needs " +
                                 std::to_string(sharedBytes(g.workgroup, g.keysPerLane)) +
                                 " bytes of shared memory and workgroups of two subgroups or more; " + dev.name +
                                 " has " + std::to_string(dev.sharedMemoryBytes) + " bytes");
        g.maxSubgroups = maxSubgroups(g.workgroup);
        return g;
    }

    Result<VkPipeline> pipelineFor(const std::string& shader, const SortConfig& cfg, const Geometry& g) {
        const DeviceInfo& d = ctx_.info();
        const uint32_t wg = shader == "hybrid_local" ? g.workgroup : kWorkgroup;
        SpecValues spec{{SORTLAB_SPEC_KEY_KIND, static_cast<uint32_t>(keyKind(cfg.key))},
                        {SORTLAB_SPEC_DESCENDING, cfg.order == Order::descending ? 1u : 0u},
                        {SORTLAB_SPEC_WORKGROUP_SIZE, wg},
                        {SORTLAB_SPEC_MAX_SUBGROUPS, maxSubgroups(wg)},
                        {SORTLAB_SPEC_SUBGROUP_SIZE, d.subgroupSize}};
        if (shader == "hybrid_local") spec.push_back({SORTLAB_SPEC_KEYS_PER_LANE, g.keysPerLane});
        if (shader != "hybrid_clear") spec.push_back({SORTLAB_SPEC_HY_WINDOW, g.window()});
        // The bucket kernel from the module built for its keys a lane where there is one (its loops
        // unrolled and its per-key arrays single values before the driver sees them, as OneSweep's
        // pass kernel), on every device, so that the tests run what GPUs run.
        std::string module = shader;
        if (shader == "hybrid_local") {
            const std::string fixed = "hybrid_local_kpt" + std::to_string(g.keysPerLane) + "_s0";
            if (findEmbeddedShader(moduleName(fixed, keyBytes(cfg.key) / 4, cfg.values != ValueType::none)))
                module = fixed;
        }
        return pipelineOf(module, cfg, spec, subgroupSizeToPin(ctx_));
    }

    std::unique_ptr<Sorter> msd_; // the OneSweep sorter whose plans sort by the top 16 bits
};

} // namespace

std::unique_ptr<Sorter> makeHybridSorter(Context& ctx) {
    return std::make_unique<HybridSorter>(ctx, onesweep::makeOneSweepSorter(ctx));
}

} // namespace sortlab::hybrid
