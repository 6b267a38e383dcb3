// OneSweep (Adinets and Merrill, 2022): an 8-bit LSD radix sort with one histogram pass over the keys and then one
// pass per digit, each finding its tiles' offsets by a chained scan with decoupled lookback and
// fallback. See docs/onesweep.md and shaders/onesweep_*.comp.
#include "sorter_common.h"
#include <sortlab/radix_steps.h>
#include <sortlab/internal/tuning_overrides.h>
#include <sortlab/internal/tuning.h>

#include <sortlab/shaders/constants.h>

#include <sortlab/sorter.h>

#include <algorithm>

namespace sortlab::onesweep {

namespace {

// Mirrors shaders/onesweep.glsl's push constants.
struct Push {
    uint64_t keys, keysTemp, values, valuesTemp, scratch, n;
    uint32_t pass, passes, tiles, groupsX, histGroups;
    uint32_t firstTile, portion, lastPortion, dispatch, fromTemp, epoch, portions, twins;
    uint32_t beginBit, endBit;
};
static_assert(sizeof(Push) <= kPushConstantBytes);

constexpr uint32_t kRadix = 256;

// Bytes of shared memory a staged key takes, whatever its type: 64-bit keys are staged in two 4-byte
// halves, one after the other (HALF_STAGED in onesweep_pass.comp), values after the keys.
constexpr uint32_t kStagedBytes = 4;
constexpr uint32_t kMinTileKeys = 4; // the smallest teaching tile

// The shaders a plan binds, in Plan::pipelines order.
constexpr const char* kShaders[] = {"onesweep_init", "onesweep_histogram", "onesweep_scan", "onesweep_pass",
                                    "onesweep_result"};
// An indirect plan's (Sorter::planIndirect): the same, their pipelines reading n from scratch, and
// the kernel that writes it there.
constexpr const char* kIndirectShaders[] = {"onesweep_init", "onesweep_histogram", "onesweep_scan",
                                            "onesweep_pass", "onesweep_result",    "indirect_count"};
enum Pipe : size_t { kInit, kHistogram, kScan, kPass, kResult, kIndirectCount };

// A pass runs in portions, each its own chained scan, so that the counts in the 32-bit status
// words stay below 2^29. The portions differ by one tile at most: then the only status row a
// dispatch uses and the one before it did not write is its last, which no tile reads, so a row
// of an older dispatch of the same epoch is never mistaken for a ready one and no reset is needed.
struct Geometry {
    tuning::OneSweepTuning tuning{};
    uint32_t workgroup = 0, keysPerLane = 0, passes = 0, histGroups = 0;
    uint32_t histWorkgroup = 0;  // the histogram kernel's invocations a workgroup
    uint32_t exchangeRounds = 1; // the pass kernel's write-out rounds (its staged tile holds 1 / this)
    bool persistent = false;
    bool indexTiles = false; // one tile a workgroup: the workgroup's index is its tile (no counter)
    uint32_t lookbackStride = 0;
    uint64_t passWorkgroups = 0;    // the most a persistent pass dispatch starts
    uint32_t tilesPerWorkgroup = 0; // the most tiles a persistent workgroup takes
    uint64_t tile = 0, tiles = 0;
    uint64_t portions = 0, statusRows = 0; // statusRows: tiles of the largest portion
    uint64_t portionTiles(uint64_t q) const { return tiles / portions + (q < tiles % portions ? 1 : 0); }
    uint64_t firstTile(uint64_t q) const { return q * (tiles / portions) + std::min(q, tiles % portions); }
    // Workgroups a pass dispatch of portion q starts: enough that each takes at most
    // tilesPerWorkgroup tiles.
    uint64_t dispatchGroups(uint64_t q) const {
        const uint64_t t = portionTiles(q), per = tilesPerWorkgroup;
        return persistent ? std::min(t, std::max(passWorkgroups, (t + per - 1) / per)) : t;
    }
};

// The plan's steps, without the device's numbers (oneSweepSteps).
// The 8-bit passes that touch the config's bit range: [first, end). The others are not planned
// (their digits are all 0, so the scan marks them skipped and the keys stay where they are).
std::pair<uint32_t, uint32_t> plannedPasses(const SortConfig& config) {
    return {config.beginBit / 8, (endBitOf(config) + 7) / 8};
}

std::vector<Step> planSteps(uint64_t n, const SortConfig& config) {
    if (n == 0) return {};
    Plan p;
    p.config = config;
    const uint32_t passes = keyBits(config.key) / 8;
    const auto [firstPass, endPass] = plannedPasses(config);
    Step h;
    h.kind = StepKind::histogram;
    h.label = "histogram of every digit (one read of the keys)";
    p.steps.push_back(h);
    Step sc;
    sc.kind = StepKind::scan;
    sc.label = "exclusive scan of each digit's 256 counts, and which passes to skip";
    p.steps.push_back(sc);
    for (uint32_t pass = firstPass; pass < endPass; ++pass) {
        Step s;
        s.kind = StepKind::pass;
        s.pass = pass;
        s.bitLo = 8 * pass;
        s.bitHi = 8 * pass + 8;
        s.label = "pass " + std::to_string(pass) + ": bits " + std::to_string(s.bitLo) + ".." +
                  std::to_string(s.bitHi - 1) + ", chained scan and scatter";
        // A pass in which every key has the same digit is skipped (the scan decides it on the
        // GPU), so where the keys are after it is the parity of the passes that ran.
        s.keysAfter = KeyLocation::inScratchWord(SORTLAB_OS_WHERE + pass + 1);
        p.steps.push_back(s);
    }
    addResultStep(p, 0, passes);
    return p.steps;
}

class OneSweepSorter final : public PipelineSorter {
public:
    explicit OneSweepSorter(Context& ctx) : PipelineSorter(ctx) {}
    Algorithm algorithm() const override { return Algorithm::onesweep; }
    void setLimits(const internal::OneSweepLimits& limits) { limits_ = limits; }

    Result<Plan> makePlan(uint64_t n, const SortConfig& config) override { return planFor(n, config, false); }
    Result<Plan> makeIndirectPlan(uint64_t maxN, const SortConfig& config) override {
        if (config.knobs.logLookback)
            return makeError(Errc::invalid_argument, "the lookback log (SortKnobs::logLookback) records a sort of a "
                                                     "known n: an indirect onesweep plan takes none");
        return planFor(maxN, config, true);
    }
    // indirect: Plan::indirect's plan (pipelines that read n from scratch, and indirect_count.comp's),
    // one portion a pass.
    Result<Plan> planFor(uint64_t n, const SortConfig& config, bool indirect) {
        if (auto ok = needsRadixSubgroups("the onesweep sort"); !ok) return ok.error();
        Plan p = newPlan(Algorithm::onesweep, n, config);
        p.indirect = indirect;
        if (n == 0) return p;
        auto g = geometry(n, config);
        if (!g) return g.error();
        if (indirect && g->portions > 1)
            return makeError(Errc::too_large, "an indirect onesweep plan runs each pass in one portion: at most " +
                                                  std::to_string(g->tiles / g->portions * g->tile) +
                                                  " keys (maxN = " + std::to_string(n) + ")");
        p.tileKeys = g->tile;
        p.needsTemp = true;
        p.scratchBytes = (SORTLAB_OS_STATUS + g->statusRows * kRadix) * 4;
        if (config.knobs.logLookback && g->tiles > (1u << 16))
            return makeError(Errc::invalid_argument, "the lookback log records at most 65536 tiles a pass (n = " +
                                                         std::to_string(n) + " has " + std::to_string(g->tiles) + ")");
        if (config.knobs.logLookback)
            p.scratchBytes = (logBase(*g) + logWords(*g)) * 4; // the lookback log after the statuses
        // Every pass runs its portions one after another, one dispatch each.

        p.steps = planSteps(n, config);
        for (Step& s : p.steps) {
            s.workgroups = s.kind == StepKind::histogram ? g->histGroups
                           : s.kind == StepKind::scan    ? g->passes
                           : s.kind == StepKind::pass    ? g->tiles
                                                         : resultGroups(n, *g);
            if (s.kind != StepKind::pass) continue;
            s.dispatchedWorkgroups = g->persistent ? g->dispatchGroups(0) : 0;
            s.tilesByIndex = g->indexTiles;
            s.portions = g->portions;
        }
        p.resultLocation = p.steps.back().keysAfter;
        p.bytesMovedFloor = oneSweepBytesFloor(n, config);

        return withPipelines(std::move(p), indirect ? std::span<const char* const>(kIndirectShaders) : kShaders,
                             [&](const char* shader) { return pipelineFor(shader, config, *g, indirect); });
    }

    Result<void> recordSteps(VkCommandBuffer cmd, const Plan& plan, const DeviceBuffers& buf, size_t first, size_t last,
                             VkQueryPool timestamps, uint32_t firstQuery) const override {
        if (!hasPipelines(plan, std::size(kShaders))) return lostPipelines();
        const auto geo = geometry(plan.n, plan.config); // plan() made it
        if (!geo) return geo.error();
        const Geometry& g = geo.value();
        IndirectArgs args;
        if (plan.indirect) {
            auto a = indirectArgs(buf, SORTLAB_OS_INDIRECT);
            if (!a) return a.error();
            args = *a;
        }
        timestampBefore(cmd, timestamps, firstQuery);
        Push pc{};
        setBuffers(pc, buf, plan.n);
        pc.passes = g.passes;
        pc.histGroups = g.histGroups;
        pc.portions = static_cast<uint32_t>(g.portions);
        pc.twins = g.persistent ? 1u : 0u;
        pc.beginBit = plan.config.beginBit;
        pc.endBit = endBitOf(plan.config);
        auto dispatch = [&](Pipe pipe, uint64_t groups) { dispatchPipeline(cmd, plan.pipelines[pipe], pc, groups); };
        // The dispatches whose size depends on n: the plan's, or (indirect) the count's, up to the
        // plan's (dispatch size `size` of indirect_count.comp, written with that maximum).
        const uint64_t passGroups = g.dispatchGroups(0), resultWorkgroups = resultGroups(plan.n, g);
        auto dispatchSized = [&](Pipe pipe, uint64_t groups, uint32_t size) {
            PipelineSorter::dispatchSized(cmd, plan, plan.pipelines[pipe], pc, groups, args, size);
        };
        for (size_t i = first; i < last; ++i) {
            const Step& s = plan.steps[i];
            if (i > first) computeToCompute(cmd);
            pc.pass = s.pass;
            if (s.kind == StepKind::histogram) {
                pc.tiles = static_cast<uint32_t>(g.statusRows * kRadix); // status words the first pass uses
                dispatch(kInit, 1);
                computeToCompute(cmd);
                if (plan.indirect) {
                    const IndirectSize sizes[] = {
                        {static_cast<uint32_t>(g.tile), 0, g.tiles},                           // SORTLAB_OS_IND_TILES
                        {static_cast<uint32_t>(g.tile), 0, passGroups},                        // _PERSISTENT
                        {g.histWorkgroup * g.tuning.histogram.loadsInFlight, 1, g.histGroups}, // _HISTOGRAM
                        {4 * g.workgroup, 1, resultWorkgroups}};                               // _RESULT
                    recordIndirectCount(cmd, plan.pipelines[kIndirectCount], buf, SORTLAB_OS_INDIRECT, plan.n, sizes);
                }
                dispatchSized(kHistogram, g.histGroups, SORTLAB_OS_IND_HISTOGRAM);
            } else if (s.kind == StepKind::scan) {
                dispatch(kScan, g.passes);
            } else if (s.kind == StepKind::result) {
                pc.histGroups = static_cast<uint32_t>(s.workgroups); // the result kernel strides over them
                dispatchSized(kResult, s.workgroups, SORTLAB_OS_IND_RESULT);
                pc.histGroups = g.histGroups;
            } else {
                for (uint64_t q = 0; q < g.portions; ++q) {
                    if (q > 0) computeToCompute(cmd);
                    const uint64_t tiles = g.portionTiles(q);
                    pc.tiles = static_cast<uint32_t>(tiles);
                    pc.firstTile = static_cast<uint32_t>(g.firstTile(q));
                    pc.portion = static_cast<uint32_t>(q);
                    pc.lastPortion = q + 1 == g.portions ? 1u : 0u;
                    pc.dispatch = static_cast<uint32_t>(s.pass * g.portions + q);
                    // Where the keys are before this pass depends on the passes skipped before it,
                    // which the scan decides on the GPU. A persistent pass after pass 0 is
                    // dispatched twice, reading `keys` and reading `keysTemp`, and the scan stops
                    // the twin that must not run (and both of a skipped pass) through its tile
                    // counter. No barrier between the twins: a stopped one touches nothing. The
                    // twin that runs when no pass is skipped goes first. Their epoch alternates
                    // between the dispatches that run (before a twin that reads keysTemp, an odd
                    // number of passes ran). One tile a workgroup, the kernel reads where the keys
                    // are and works the epoch out from it the same way (pc.epoch is unused there).
                    const uint32_t likely = s.pass & 1u;
                    const uint32_t twins = g.persistent && s.pass > 0 ? 2u : 1u;
                    for (uint32_t t = 0; t < twins; ++t) {
                        pc.fromTemp = g.persistent ? likely ^ t : 0u;
                        pc.epoch = g.persistent ? static_cast<uint32_t>((pc.fromTemp * g.portions + q) & 1u) : 0u;
                        dispatchSized(kPass, g.dispatchGroups(q),
                                      g.persistent ? SORTLAB_OS_IND_PERSISTENT : SORTLAB_OS_IND_TILES);
                    }
                }
            }
            timestampAfter(cmd, timestamps, firstQuery, first, i);
        }
        return {};
    }

    std::vector<SnapshotRegion> snapshotRegions(const Plan& plan, size_t stepsDone) const override {
        const Step* step = radixSnapshotStep(plan, stepsDone);
        if (!step) return {};
        const Step& s = *step;
        const auto geo = geometry(plan.n, plan.config);
        if (!geo) return {};
        const Geometry& g = geo.value();
        using F = SnapshotRegion::Format;
        std::vector<SnapshotRegion> r;
        const uint32_t pass = s.kind == StepKind::pass ? s.pass : 0;
        r.push_back({AuxKind::histogram, {kRadix}, SORTLAB_OS_HIST + 2u * kRadix * pass, 0, F::u64});
        if (s.kind != StepKind::histogram)
            r.push_back({AuxKind::offsets, {kRadix}, SORTLAB_OS_OFFSETS + 2u * kRadix * pass, 0, F::u64});
        if (s.kind != StepKind::pass) {
            r.push_back({AuxKind::allHistograms, {g.passes, kRadix}, SORTLAB_OS_HIST, 0, F::u64});
            if (s.kind == StepKind::scan)
                r.push_back({AuxKind::allOffsets, {g.passes, kRadix}, SORTLAB_OS_OFFSETS, 0, F::u64});
            return r;
        }
        // The statuses of the pass's last portion (the whole pass unless n >= 2^29).
        const uint32_t tiles = static_cast<uint32_t>(g.portionTiles(g.portions - 1));
        r.push_back({AuxKind::tileStatus, {tiles, kRadix}, SORTLAB_OS_STATUS, 0, F::statusFlag});
        r.push_back({AuxKind::tileCounts, {tiles, kRadix}, SORTLAB_OS_STATUS, 0, F::statusCount});
        r.push_back({AuxKind::fallbacks, {1}, SORTLAB_OS_FALLBACKS + s.pass, 0, F::u32});
        r.push_back({AuxKind::passInfo, {4}, SORTLAB_OS_INFO + 4u * s.pass, 0, F::u32});
        r.push_back({AuxKind::uniformTiles, {1}, SORTLAB_OS_UNIFORM + s.pass, 0, F::u32});
        if (plan.config.knobs.logLookback) {
            const uint32_t all = static_cast<uint32_t>(g.tiles);
            r.push_back({AuxKind::lookbackLog,
                         {all, SORTLAB_OS_LOG_RECORD},
                         logBase(g) + SORTLAB_OS_LOG_HEAD + uint64_t(SORTLAB_OS_LOG_RECORD) * s.pass * all,
                         0,
                         F::u32});
        }
        return r;
    }

protected:
    // Besides the powers of two: where each tuning row starts, and within it the first sizes with
    // the tile counts at which the tile schedule changes (persistent workgroups, lookback steps,
    // tiles by index: the pass kernel's specialization).
    std::vector<uint64_t> warmUpSizes(const SortConfig& config, uint64_t maxN) const override {
        std::vector<uint64_t> sizes = Sorter::warmUpSizes(config, maxN);
        std::vector<uint64_t> rowStarts{1};
        for (const tuning::OneSweepRow& r : tuning::kOneSweepTable)
            if (tuning::detail::isRowFor(r, keyBytes(config.key), config.values != ValueType::none) && r.fromKeys > 1 &&
                r.fromKeys <= maxN)
                rowStarts.push_back(r.fromKeys);
        for (uint64_t start : rowStarts) {
            sizes.push_back(start);
            if (start > 1) sizes.push_back(start - 1);
            const auto g = geometry(start, config);
            if (!g) continue; // plan() reports it
            const tuning::OneSweepTiles& t = g->tuning.tiles;
            for (uint64_t tiles :
                 {t.minPersistentTiles, t.minPersistentTilesCpu, t.minLookbackStepTiles, t.minIndexTiles}) {
                if (tiles == 0 || tiles > kMaxKeys / g->tile) continue; // (kNever among them)
                const uint64_t first = (tiles - 1) * g->tile + 1;       // the first n of that many tiles
                if (first > start && first <= maxN) sizes.insert(sizes.end(), {first - 1, first});
            }
        }
        return sizes;
    }

private:
    // Workgroups of the result step: they stride over the keys, 4 a lane, and when no copy is due
    // they only read one word. At most 2048, enough to fill a large GPU with loads in flight (on an
    // H100 264 of them copied 2^26 u32 keys at 1.8 TB/s).
    static uint64_t resultGroups(uint64_t n, const Geometry& g) {
        return std::clamp<uint64_t>((n + 4ull * g.workgroup - 1) / (4ull * g.workgroup), 1, 2048);
    }
    // The lookback log (SortKnobs::logLookback): after the status words; its size in words.
    static uint64_t logBase(const Geometry& g) { return SORTLAB_OS_STATUS + g.statusRows * kRadix; }
    static uint64_t logWords(const Geometry& g) {
        return SORTLAB_OS_LOG_HEAD + uint64_t(SORTLAB_OS_LOG_RECORD) * g.passes * g.tiles;
    }

    Result<Geometry> geometry(uint64_t n, const SortConfig& config) const {
        const DeviceInfo& dev = ctx_.info();
        auto shaped = shape(tuning::oneSweep(keyBytes(config.key), config.values != ValueType::none, n), dev);
        if (!shaped) return shaped.error();
        Geometry g;
        g.tuning = *shaped;
        g.passes = keyBits(config.key) / 8;
        if (auto r = passShape(g, config, dev); !r) return r.error();
        g.tiles = (n + g.tile - 1) / g.tile;
        tileSchedule(g, config, dev);
        if (auto r = splitPortions(g, n); !r) return r.error();
        const tuning::OneSweepHistogram& h = g.tuning.histogram;
        g.histWorkgroup = h.workgroup ? wholeSubgroups(std::min(h.workgroup, dev.maxWorkgroupSize)) : g.workgroup;
        if (g.histWorkgroup < std::max(1u, dev.subgroupSize)) g.histWorkgroup = g.workgroup;
        g.histGroups = tuning::oneSweepHistogramWorkgroups(n, dev.multiprocessors, g.tuning);
        return g;
    }

    // wg rounded down to whole subgroups: the kernels' ballots and digit scans assume them.
    uint32_t wholeSubgroups(uint32_t wg) const {
        const uint32_t sub = std::max(1u, ctx_.info().subgroupSize);
        return wg - wg % sub;
    }

    // The pass kernel's shared memory for a workgroup of wg: the staged tile (the values reuse it),
    // the subgroups' digit counts (two 16-bit counts per word; countsInTile: in the staged tile's
    // words, and the fallback's 256 counts beside), the per-digit words (two per digit), and five
    // words: the tile id, the stuck tile, the next tile id, the tile's one digit and which buffer it
    // reads; or the histogram kernel's copies of its counts, where those are more.
    uint32_t sharedBytes(const Geometry& g, uint32_t wg) const {
        const tuning::OneSweepTuning& t = g.tuning;
        const uint32_t histBytes = (maxSubgroups(wg) + 1) / 2 * kRadix * 4;
        const uint32_t stagedBytes = wg * g.keysPerLane * kStagedBytes / g.exchangeRounds;
        const uint32_t counted =
            t.pass.countsInTile ? std::max(stagedBytes, histBytes) + kRadix * 4 : stagedBytes + histBytes;
        return std::max(counted + kRadix * 8 + 20, t.histogram.copies * g.passes * kRadix * 4);
    }

    // The pass kernel's workgroup, keys a lane, write-out rounds and tile: the tuned shape, halved
    // until it fits the device's shared memory, or the teaching tile the knobs ask for.
    Result<void> passShape(Geometry& g, const SortConfig& config, const DeviceInfo& dev) const {
        const tuning::OneSweepPass& p = g.tuning.pass;
        g.keysPerLane = p.keysPerLane;
        // Rounds of the write-out: the counts apart, whole tiles of whole rounds.
        const bool rounds = p.exchangeRounds > 1 && !p.countsInTile && g.keysPerLane % p.exchangeRounds == 0 &&
                            !config.knobs.radixTileKeys;
        g.exchangeRounds = rounds ? p.exchangeRounds : 1;
        const uint32_t sub = std::max(1u, dev.subgroupSize);
        uint32_t wg = wholeSubgroups(std::min(p.workgroup, dev.maxWorkgroupSize));
        if (wg < sub)
            return makeError(Errc::missing_feature, "onesweep needs a workgroup of at least one subgroup (" +
                                                        std::to_string(sub) + " invocations); " + dev.name +
                                                        " allows " + std::to_string(dev.maxWorkgroupSize));
        while (!limits_.workgroup && wg > 64 && wg / 2 >= sub && sharedBytes(g, wg) > dev.sharedMemoryBytes)
            wg = wholeSubgroups(wg / 2);
        if (sharedBytes(g, wg) > dev.sharedMemoryBytes)
            return makeError(Errc::missing_feature, "onesweep needs " + std::to_string(sharedBytes(g, wg)) +
                                                        " bytes of shared memory; " + dev.name + " has " +
                                                        std::to_string(dev.sharedMemoryBytes));
        const uint64_t tuned = uint64_t(wg) * g.keysPerLane;
        const uint32_t asked = config.knobs.radixTileKeys;
        if (asked && asked != tuned) {
            // A teaching tile: at least 64 invocations (the digit loops give each at most 4 of the
            // 256 digits), whole subgroups, as few keys a lane as hold the tile.
            if (asked < kMinTileKeys || asked > tuned)
                return makeError(Errc::invalid_argument, "onesweep tiles hold " + std::to_string(kMinTileKeys) +
                                                             " to " + std::to_string(tuned) + " keys on " + dev.name +
                                                             " (" + std::to_string(asked) + " asked for)");
            uint32_t small = (std::max<uint32_t>(64, sub) + sub - 1) / sub * sub;
            small = std::max(small, sub * ((asked + sub * g.keysPerLane - 1) / (sub * g.keysPerLane)));
            wg = std::min(wg, small);
            g.keysPerLane = (asked + wg - 1) / wg;
        }
        g.workgroup = wg;
        g.tile = asked ? asked : tuned;
        if (g.tile > 0xffff) // the pass kernel keeps counts and places in 16 bits
            return makeError(Errc::invalid_argument, "onesweep tiles hold at most 65535 keys");
        return {};
    }

    // Persistent workgroups or one tile each, lookback steps, and tiles by index or from the counter.
    void tileSchedule(Geometry& g, const SortConfig& config, const DeviceInfo& dev) const {
        const tuning::OneSweepTiles& t = g.tuning.tiles;
        const bool cpu = dev.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
        g.persistent = t.persistent;
        g.lookbackStride = t.lookbackStride;
        // Persistent workgroups: as many as run at once where the device tells its multiprocessors
        // (more would start only as the first ones finish, to find no tile left).
        const uint64_t resident = uint64_t(dev.multiprocessors) * t.persistentPerMultiprocessor;
        g.passWorkgroups = limits_.passWorkgroups ? limits_.passWorkgroups
                           : cpu                  ? t.persistentWorkgroupsCpu
                           : resident             ? resident
                                                  : t.persistentWorkgroups;
        g.tilesPerWorkgroup = cpu ? t.maxTilesPerWorkgroupCpu : t.maxTilesPerWorkgroup;
        // Persistent workgroups and lookback steps pay off from about a thousand tiles; below that
        // the pass runs one tile per workgroup (internal::OneSweepLimits::passWorkgroups forces them,
        // for tests). A row that runs one tile a workgroup on GPUs at every size takes steps from
        // minLookbackStepTiles on.
        if (!limits_.passWorkgroups && g.tiles < (cpu ? t.minPersistentTilesCpu : t.minPersistentTiles)) {
            g.persistent = false;
            if (cpu || g.tiles < t.minLookbackStepTiles) g.lookbackStride = 0;
        }
        // The instrumented kernel logs one tile per workgroup (its tiles log their ids in id order).
        if (config.knobs.logLookback) g.persistent = false;
        // One tile a workgroup on GPUs that tell their multiprocessors (NVIDIA's, which start
        // workgroups about in index order), from minIndexTiles tiles on: each workgroup's tile is its
        // index, so that its loads start at once (u32 keys on an H100: 2^28 3.6 %, 2^24 2 % faster;
        // 64-bit keys no faster, pairs slower: docs/onesweep.md, Speed). Where workgroups start far
        // ahead of lower indices (lavapipe gives each thread a range), their walks fall back on
        // every predecessor that has not started.
        // (The instrumented kernel keeps the counter: its log tells the order tiles were taken in.)
        const bool byIndex = limits_.indexTiles >= 0 ? limits_.indexTiles != 0
                                                     : !cpu && dev.multiprocessors != 0 && !config.knobs.logLookback &&
                                                           g.tiles >= t.minIndexTiles;
        g.indexTiles = !g.persistent && byIndex;
    }

    // Each pass in portions small enough that their counts fit the status words.
    Result<void> splitPortions(Geometry& g, uint64_t n) const {
        uint64_t most = ((uint64_t(1) << SORTLAB_OS_COUNT_BITS) - 1) / g.tile; // tiles whose counts fit
        if (limits_.portionTiles) most = std::min<uint64_t>(most, limits_.portionTiles);
        g.portions = std::max<uint64_t>(1, (g.tiles + most - 1) / most);
        g.statusRows = g.tiles ? g.portionTiles(0) : 0;
        if (uint64_t(g.passes) * g.portions > SORTLAB_OS_MAX_DISPATCHES)
            return makeError(Errc::too_large, "n = " + std::to_string(n) + " needs " + std::to_string(g.portions) +
                                                  " portions per pass; onesweep runs at most " +
                                                  std::to_string(SORTLAB_OS_MAX_DISPATCHES / g.passes));
        return {};
    }

    // The tuning with the shape of internal::OneSweepLimits where it sets one (a tuning experiment:
    // checked here, not halved to fit as the table's is).
    Result<tuning::OneSweepTuning> shape(tuning::OneSweepTuning t, const DeviceInfo& dev) const {
        if (limits_.workgroup) {
            const uint32_t sub = std::max(1u, dev.subgroupSize);
            if (limits_.workgroup % sub || limits_.workgroup < 64 || limits_.workgroup > dev.maxWorkgroupSize)
                return makeError(Errc::invalid_argument,
                                 "onesweep's pass workgroup must be a multiple of " + std::to_string(sub) +
                                     " from 64 to " + std::to_string(dev.maxWorkgroupSize) + " invocations on " +
                                     dev.name + " (" + std::to_string(limits_.workgroup) + " asked for)");
            t.pass.workgroup = limits_.workgroup;
        }
        if (limits_.keysPerLane) t.pass.keysPerLane = limits_.keysPerLane;
        if (limits_.perMultiprocessor) t.tiles.persistentPerMultiprocessor = limits_.perMultiprocessor;
        if (limits_.countsInTile >= 0) t.pass.countsInTile = limits_.countsInTile != 0;
        if (limits_.exchangeRounds) t.pass.exchangeRounds = limits_.exchangeRounds;
        if (limits_.oneTileAWorkgroup) {
            t.tiles.persistent = false;
            t.tiles.lookbackStride = 0;
        }
        if (limits_.histogramWorkgroup) {
            // A fixed number a multiprocessor at every n, down to 16 keys an invocation, where the
            // device tells its multiprocessors (elsewhere as the table's).
            const uint32_t w = limits_.histogramWorkgroup;
            const uint32_t sub = std::max(1u, dev.subgroupSize);
            if (w % sub || w > dev.maxWorkgroupSize)
                return makeError(Errc::invalid_argument, "onesweep's histogram workgroup must be a multiple of " +
                                                             std::to_string(sub) + " up to " +
                                                             std::to_string(dev.maxWorkgroupSize) + " invocations on " +
                                                             dev.name + " (" + std::to_string(w) + " asked for)");
            t.histogram.workgroup = w;
            if (dev.multiprocessors) t.histogram.keysPerWorkgroup = UINT32_MAX;
            t.histogram.minKeysPerWorkgroup = 16 * w;
            if (limits_.histogramPerMultiprocessor)
                t.histogram.workgroupsPerMultiprocessor = limits_.histogramPerMultiprocessor;
            t.histogram.maxWorkgroups =
                std::max(t.histogram.maxWorkgroups, dev.multiprocessors * t.histogram.workgroupsPerMultiprocessor);
        }
        if (limits_.histogramCopies) t.histogram.copies = limits_.histogramCopies;
        if (limits_.histogramLoads) t.histogram.loadsInFlight = limits_.histogramLoads;
        return t; // (geometry() checks the tile's size and shared memory, as for the table's shapes)
    }

    uint32_t maxSubgroups(uint32_t wg) const { return std::max(1u, wg / std::max(1u, ctx_.info().subgroupSize)); }

    // indirect: an indirect plan's pipelines (SORTLAB_SPEC_INDIRECT), and indirect_count.comp's.
    Result<VkPipeline> pipelineFor(const std::string& shader, const SortConfig& cfg, const Geometry& g, bool indirect) {
        if (shader == "indirect_count") return pipelineOf(shader, cfg, {});
        const DeviceInfo& d = ctx_.info();
        const uint32_t wg = shader == "onesweep_histogram" ? g.histWorkgroup : g.workgroup; // (a shape of its own)
        SpecValues spec{{SORTLAB_SPEC_KEY_KIND, static_cast<uint32_t>(keyKind(cfg.key))},
                        {SORTLAB_SPEC_DESCENDING, cfg.order == Order::descending ? 1u : 0u},
                        {SORTLAB_SPEC_WORKGROUP_SIZE, wg},
                        {SORTLAB_SPEC_MAX_SUBGROUPS, maxSubgroups(wg)},
                        {SORTLAB_SPEC_SUBGROUP_SIZE, d.subgroupSize},
                        {SORTLAB_SPEC_FORCE_FALLBACK, cfg.knobs.forceFallback ? 1u : 0u},
                        {SORTLAB_SPEC_KEYS_PER_LANE, g.keysPerLane}};
        if (cfg.beginBit != 0 || endBitOf(cfg) != keyBits(cfg.key)) spec.push_back({SORTLAB_SPEC_BIT_RANGE, 1u});
        if (indirect && shader != "onesweep_init") spec.push_back({SORTLAB_SPEC_INDIRECT, 1u});
        if (shader == "onesweep_pass") { // only the pass kernel reads them: one variant of the others
            spec.push_back({SORTLAB_SPEC_PERSISTENT, g.persistent ? g.tilesPerWorkgroup : 0u});
            spec.push_back({SORTLAB_SPEC_LOOKBACK_STRIDE, g.lookbackStride});
            spec.push_back({SORTLAB_SPEC_LOAD_NEXT_EARLY, g.tuning.pass.loadNextEarly ? 1u : 0u});
            spec.push_back({SORTLAB_SPEC_WHERE_IN_REGISTER, g.tuning.pass.whereInRegister ? 1u : 0u});
            spec.push_back({SORTLAB_SPEC_COUNTS_IN_TILE, g.tuning.pass.countsInTile ? 1u : 0u});
            spec.push_back({SORTLAB_SPEC_EXCHANGE_ROUNDS, g.exchangeRounds});
            if (g.tile != uint64_t(g.workgroup) * g.keysPerLane)
                spec.push_back({SORTLAB_SPEC_TILE_KEYS, static_cast<uint32_t>(g.tile)}); // a teaching tile
        }
        if (cfg.knobs.logLookback && (shader == "onesweep_pass" || shader == "onesweep_init")) {
            spec.push_back({SORTLAB_SPEC_LOG_BASE, static_cast<uint32_t>(logBase(g))});
            spec.push_back({SORTLAB_SPEC_LOG_TILES, static_cast<uint32_t>(g.tiles)});
            spec.push_back({SORTLAB_SPEC_LOG_ORDERED, cfg.knobs.logInIdOrder ? 1u : 0u});
        }
        if (shader == "onesweep_histogram") {
            spec.push_back({SORTLAB_SPEC_LOADS_IN_FLIGHT, g.tuning.histogram.loadsInFlight});
            spec.push_back({SORTLAB_SPEC_HIST_COPIES, g.tuning.histogram.copies});
        }
        // One tile a workgroup, tiles by workgroup index: the pass kernel's module of its own.
        const bool byIndex = shader == "onesweep_pass" && g.indexTiles;
        std::string module = byIndex ? "onesweep_pass_index" : shader;
        // Where the build made the pass kernel for these keys a lane and lookback stride (a tuning
        // row's, both constants and the loops unrolled: its per-key arrays stay in registers on
        // NVIDIA), that one.
        if (shader == "onesweep_pass") {
            const std::string fixed =
                module + "_kpt" + std::to_string(g.keysPerLane) + "_s" + std::to_string(g.lookbackStride);
            if (findEmbeddedShader(moduleName(fixed, keyBytes(cfg.key) / 4, cfg.values != ValueType::none)))
                module = fixed;
        }
        return pipelineOf(module, cfg, spec, subgroupSizeToPin(ctx_));
    }

    internal::OneSweepLimits
        limits_; // the tests' and tuning experiments' (internal/tuning_overrides.h); tuned behaviour by default
};

} // namespace

} // namespace sortlab::onesweep

namespace sortlab::internal {

bool setOneSweepLimits(Sorter& sorter, const OneSweepLimits& limits) {
    auto* s = dynamic_cast<onesweep::OneSweepSorter*>(&sorter);
    if (s) s->setLimits(limits);
    return s != nullptr;
}

} // namespace sortlab::internal

namespace sortlab::onesweep {

std::unique_ptr<Sorter> makeOneSweepSorter(Context& ctx) {
    return std::make_unique<OneSweepSorter>(ctx);
}

} // namespace sortlab::onesweep

namespace sortlab {

uint64_t oneSweepBytesFloor(uint64_t n, const SortConfig& config) {
    // One read of the keys for the histogram; per 8-bit pass one read and one write of keys and values.
    const auto [firstPass, endPass] = onesweep::plannedPasses(config);
    const uint64_t kb = keyBytes(config.key), vb = valueBytes(config.values), passes = endPass - firstPass;
    return n * kb + passes * n * 2 * (kb + vb);
}

} // namespace sortlab

namespace sortlab::radix {
std::vector<Step> oneSweepSteps(uint64_t n, const SortConfig& config) {
    return onesweep::planSteps(n, config);
}
} // namespace sortlab::radix
