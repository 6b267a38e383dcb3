// oddeven::planSteps, the planner that groups network layers into GPU steps. What it guarantees
// (read from sort/src/oddeven.cpp, and what oddeven_warp.comp and record() rely on):
//  * n < 2: no steps. perLayer: one "layer" step per network layer, in network order, in place.
//  * Otherwise a "tile" step first: every layer of the merges p = 1 .. 2^(M-1) on aligned tiles of
//    2^M <= min(tileKeys, windowKeys) keys (M = L when n fits in one tile), which the shader
//    runs as one-column windows of 2^M rows (logP = M - 1, kMin = 1, no halo, one window per tile).
//    Then, merge by merge, "layer" steps (one layer) and "window" steps (>= 2 consecutive strides
//    of one merge).
//  * Steps cover the layers consecutively, each exactly once (firstLayer/layerCount contiguous,
//    L(L+1)/2 in all).
//  * Window geometry: logR <= min(logKLo, logMaxColumns, log2 subgroupSize); a window of
//    (centreRows + 2*halo) rows of 2^logR columns fits in windowKeys (one subgroup's registers);
//    halo == 0 means the window holds the whole 2p block (centreRows == 2p / 2^logKLo); otherwise
//    halo >= 2^layerCount - 1 (the sum of the fused strides, in rows), halo and centreRows are
//    whole subgroup rows (times 2^logR a multiple of subgroupSize), and the first layer of the merge
//    is not in the group. windows == blocks * column groups * segments, which the shader decodes,
//    and the workgroups hold that many subgroups.
//  * Buffers: layer steps and windows without halo work in place; a window with halo writes the
//    other buffer; the tile step flips when the number of halo windows is odd, so the result ends
//    in the key buffer (the last step's keysAfter is KeyLocation::inKeys()).
// Beyond the bookkeeping, the geometry is checked by emulating every step of a plan on the host
// (each window loads its rows, runs the fused layers on them, writes back its centre) and comparing
// with applyLayers: a halo that is too small, or windows that miss or overlap keys, give a
// different result. The brief's older shared-memory design had halo == 2^layerCount - 1 exactly;
// the register windows round it up to whole subgroup rows, so only ">=" is a contract now.
#include <sortlab/data.h>
#include <sortlab/oddeven.h>

#include <sortlab/internal/tuning.h>

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace sortlab {
namespace {

using oddeven::PlanParams;

// Whether the keys are in the temporary buffer after step s (the odd-even planner knows it on the
// host: keys or keysTemp, never a word the GPU writes).
bool inTemp(const Step& s) {
    EXPECT_NE(s.keysAfter.kind, KeyLocation::Kind::scratchWord) << s.label;
    return s.keysAfter == KeyLocation::inKeysTemp();
}

struct PlanCase {
    std::string name;
    PlanParams params;
};

// What the sorter passes: tile = the shared-memory tile (64 .. 8192), one subgroup per window
// holding keysPerLane rows per lane (windowKeys = subgroupSize * keysPerLane), the key size for the
// cost model.
PlanParams sorterParams(uint32_t tile, uint32_t subgroupSize, uint32_t keyBytes, bool perLayer) {
    PlanParams p;
    p.tileKeys = tile;
    p.subgroupSize = subgroupSize;
    p.windowKeys = subgroupSize * tuning::oddEven(keyBytes, false).keysPerLane;
    p.logMaxColumns = tuning::oddEven(keyBytes, false).logMaxColumns;
    p.keyBytes = keyBytes;
    p.perLayer = perLayer;
    return p;
}

std::vector<PlanCase> planCases() {
    std::vector<PlanCase> out;
    auto add = [&](uint32_t tile, uint32_t subgroup, uint32_t keyBytes, bool perLayer) {
        out.push_back({std::string(perLayer ? "perLayer" : "fused") + "_tile" + std::to_string(tile) + "_sg" +
                           std::to_string(subgroup) + "_key" + std::to_string(keyBytes),
                       sorterParams(tile, subgroup, keyBytes, perLayer)});
    };
    // The tile is a power of two <= windowKeys = subgroupSize * 32.
    for (uint32_t tile : {2u, 4u, 16u, 64u, 256u}) add(tile, 8, 4, false); // lavapipe: subgroups of 8
    add(256, 8, 8, false);
    add(64, 32, 4, false); // NVIDIA: 32
    add(1024, 32, 4, false);
    add(1024, 32, 8, false);
    add(256, 64, 8, false); // AMD: 64
    add(2048, 64, 4, false);
    add(512, 16, 8, false);
    add(64, 8, 4, true);
    add(1024, 32, 8, true);
    return out;
}

std::vector<uint64_t> plannerSizes() {
    std::vector<uint64_t> s;
    for (uint64_t n = 0; n <= 600; ++n) s.push_back(n);
    std::mt19937_64 rng(2024);
    for (int i = 0; i < 400; ++i) s.push_back(601 + rng() % 4400); // random n up to 5000
    for (uint32_t k = 1; k <= 30; ++k) {
        const uint64_t p = uint64_t(1) << k;
        s.push_back(p - 1);
        s.push_back(p);
        s.push_back(p + 1);
    }
    s.push_back(1000003);
    s.push_back((uint64_t(1) << 35) + 12345);
    s.push_back(uint64_t(1) << 40);
    return s;
}

uint32_t log2Ceil(uint64_t n) {
    uint32_t l = 0;
    while ((uint64_t(1) << l) < n) ++l;
    return l;
}

// The geometry of window `id` (one subgroup's), decoded as the window shader does (id -> segment,
// column group, block). Rows [w0, w1): the centre rows and up to `halo` rows either side, clipped
// to the block; the shader may hold more rows than that, which only makes more of them exact.
struct WindowGeometry {
    uint64_t blockBase, w0, w1, centreStart, centreEnd, columnBase, R;
};
WindowGeometry windowOf(const Step& s, uint64_t id) {
    const uint64_t rowsPerBlock = uint64_t(2) << (s.logP - s.logKLo);
    const uint64_t segments = (rowsPerBlock + s.centreRows - 1) / s.centreRows;
    const uint64_t columnGroups = uint64_t(1) << (s.logKLo - s.logR);
    WindowGeometry g;
    const uint64_t segment = id % segments, rest = id / segments;
    g.columnBase = (rest % columnGroups) << s.logR;
    g.blockBase = (rest / columnGroups) << (s.logP + 1);
    g.centreStart = segment * s.centreRows;
    g.centreEnd = std::min<uint64_t>(g.centreStart + s.centreRows, rowsPerBlock);
    g.w0 = g.centreStart > s.halo ? g.centreStart - s.halo : 0;
    g.w1 = std::min<uint64_t>(g.centreEnd + s.halo, rowsPerBlock);
    g.R = uint64_t(1) << s.logR;
    return g;
}

// The number of merges M a tile step runs: layerCount = M(M+1)/2.
uint32_t tileMerges(const Step& s) {
    uint32_t M = 0;
    while ((M + 1) * (M + 2) / 2 <= s.layerCount) ++M;
    return M;
}

void checkPlan(uint64_t n, const PlanParams& pp, const std::vector<Step>& steps) {
    const uint32_t L = log2Ceil(n);
    const auto ls = oddeven::layers(n);
    if (n < 2) {
        EXPECT_TRUE(steps.empty());
        return;
    }
    ASSERT_FALSE(steps.empty());
    uint32_t next = 0;
    bool prevTemp = false;
    size_t haloWindows = 0;
    for (const auto& s : steps) haloWindows += (s.kind == StepKind::window && s.halo) ? 1 : 0;
    for (size_t i = 0; i < steps.size(); ++i) {
        const Step& s = steps[i];
        SCOPED_TRACE("step " + std::to_string(i) + " '" + s.label + "' (" + std::string(stepKindName(s.kind)) + ")");
        EXPECT_FALSE(s.label.empty());
        ASSERT_EQ(s.firstLayer, next) << "steps must cover the layers consecutively";
        ASSERT_GE(s.layerCount, 1u);
        ASSERT_LE(uint64_t(s.firstLayer) + s.layerCount, ls.size());
        next += s.layerCount;
        EXPECT_GE(s.workgroups, 1u);

        if (pp.perLayer) {
            ASSERT_EQ(s.kind, StepKind::layer);
        }
        if (s.kind == StepKind::tile) {
            ASSERT_EQ(i, 0u) << "the tile step comes first";
            // It runs every layer of the merges p = 1 .. 2^(M-1), M(M+1)/2 layers, on aligned
            // tiles of 2^M keys (no comparator of those merges leaves such a tile). The shader
            // reads it as windows of one column of 2^M rows: merges up to logP = M - 1, strides
            // down to kMin = 1, whole blocks (no halo), one window per tile.
            const uint32_t M = tileMerges(s);
            ASSERT_EQ(M * (M + 1) / 2, s.layerCount) << "the tile step must run whole merges";
            EXPECT_GE(M, 1u);
            EXPECT_LE(M, L);
            EXPECT_LE(uint64_t(1) << M, std::min(pp.tileKeys, pp.windowKeys)) << "a tile fits in a window";
            if ((uint64_t(1) << L) <= std::min(pp.tileKeys, pp.windowKeys)) {
                EXPECT_EQ(M, L) << "n fits in one tile: the tile step is the whole sort";
            }
            EXPECT_EQ(s.logP, M - 1);
            EXPECT_EQ(s.logKLo, 0u);
            EXPECT_EQ(s.logR, 0u);
            EXPECT_EQ(s.halo, 0u);
            EXPECT_EQ(s.centreRows, uint64_t(2) << (s.logP - s.logKLo)) << "whole blocks";
            EXPECT_EQ(s.windows, (n + (uint64_t(1) << M) - 1) >> M);
            EXPECT_GE(s.workgroups * (tuning::oddEven(pp.keyBytes, pp.values).warpWorkgroup / pp.subgroupSize),
                      s.windows)
                << "every window gets a subgroup";
            EXPECT_EQ(inTemp(s), haloWindows % 2 == 1);
        } else if (s.kind == StepKind::layer) {
            EXPECT_EQ(s.layerCount, 1u);
            EXPECT_EQ(s.logKHi, s.logKLo);
            EXPECT_EQ(ls[s.firstLayer].logP, s.logP);
            EXPECT_EQ(ls[s.firstLayer].logK, s.logKHi);
            const uint64_t k = uint64_t(1) << s.logKHi;
            const uint64_t slots = (n + 2 * k - 1) / (2 * k) * k;
            EXPECT_GE(s.workgroups * tuning::oddEven(pp.keyBytes, pp.values).layerWorkgroup, slots)
                << "every comparator slot gets an invocation";
            EXPECT_EQ(inTemp(s), prevTemp) << "layer steps work in place";
        } else if (s.kind == StepKind::window) {
            EXPECT_GE(s.layerCount, 2u) << "a window fuses at least two layers";
            EXPECT_EQ(s.logKHi - s.logKLo + 1, s.layerCount);
            for (uint32_t j = 0; j < s.layerCount; ++j) {
                EXPECT_EQ(ls[s.firstLayer + j].logP, s.logP);
                EXPECT_EQ(ls[s.firstLayer + j].logK, s.logKHi - j);
            }
            EXPECT_LE(s.logR, s.logKLo);
            EXPECT_LE(s.logR, pp.logMaxColumns);
            EXPECT_LE(uint64_t(1) << s.logR, pp.subgroupSize) << "a subgroup holds at least one lane per column";
            const uint64_t rowsPerBlock = uint64_t(2) << (s.logP - s.logKLo);
            EXPECT_LE((uint64_t(s.centreRows) + 2 * uint64_t(s.halo)) << s.logR, pp.windowKeys)
                << "the window (centre and both halos) fits in one subgroup's registers";
            EXPECT_GE(s.centreRows, 1u);
            if (s.halo == 0) {
                EXPECT_EQ(s.centreRows, rowsPerBlock) << "a window without halo holds a whole block";
                EXPECT_EQ(inTemp(s), prevTemp) << "windows without halo work in place";
            } else {
                EXPECT_GE(s.halo, (1u << s.layerCount) - 1) << "halo >= the sum of the strides, in rows";
                EXPECT_EQ((uint64_t(s.halo) << s.logR) % pp.subgroupSize, 0u) << "windows start on whole subgroup rows";
                EXPECT_EQ((uint64_t(s.centreRows) << s.logR) % pp.subgroupSize, 0u)
                    << "windows start on whole subgroup rows";
                EXPECT_LT(s.logKHi, s.logP) << "the first layer of a merge cannot be cut into windows";
                EXPECT_LT(s.centreRows, rowsPerBlock);
                EXPECT_NE(inTemp(s), prevTemp) << "a window with halo reads one buffer and writes the other";
            }
            const uint64_t blocks = (n + (uint64_t(2) << s.logP) - 1) >> (s.logP + 1);
            const uint64_t segments = (rowsPerBlock + s.centreRows - 1) / s.centreRows;
            EXPECT_EQ(s.windows, blocks * (uint64_t(1) << (s.logKLo - s.logR)) * segments);
            EXPECT_GE(s.workgroups * (tuning::oddEven(pp.keyBytes, pp.values).warpWorkgroup / pp.subgroupSize),
                      s.windows)
                << "every window gets a subgroup";
        } else {
            ADD_FAILURE() << "unknown step kind " << stepKindName(s.kind);
        }
        prevTemp = inTemp(s);
    }
    EXPECT_EQ(next, ls.size()) << "the steps must run every layer";
    EXPECT_EQ(ls.size(), size_t(L) * (L + 1) / 2);
    EXPECT_FALSE(inTemp(steps.back())) << "the sorted result must end in the key buffer";
    if (pp.perLayer) {
        EXPECT_EQ(steps.size(), ls.size());
    }
}

class Planner : public ::testing::TestWithParam<PlanCase> {};

TEST_P(Planner, StepsCoverTheNetworkWithValidGeometry) {
    const PlanParams pp = GetParam().params;
    size_t windows = 0, haloWindows = 0;
    for (uint64_t n : plannerSizes()) {
        SCOPED_TRACE("n = " + std::to_string(n));
        const auto steps = oddeven::planSteps(n, pp);
        checkPlan(n, pp, steps);
        if (::testing::Test::HasFatalFailure()) return;
        for (auto& s : steps) {
            windows += s.kind == StepKind::window;
            haloWindows += s.kind == StepKind::window && s.halo;
        }
    }
    if (!pp.perLayer) {
        EXPECT_GT(windows, 0u) << "these sizes should reach window steps";
        EXPECT_GT(haloWindows, 0u) << "these sizes should reach windows with halo";
    }
}

// Every element < n is written by exactly one workgroup's centre, for every window step
// (fused plans only: per-layer plans have no windows).
class PlannerWindows : public ::testing::TestWithParam<PlanCase> {};

TEST_P(PlannerWindows, WindowCentresPartitionTheKeys) {
    const PlanParams pp = GetParam().params;
    ASSERT_FALSE(pp.perLayer);
    size_t windowSteps = 0;
    std::vector<uint64_t> sizes;
    for (uint64_t n = 2; n <= 300; ++n) sizes.push_back(n);
    std::mt19937_64 rng(7);
    for (int i = 0; i < 40; ++i) sizes.push_back(301 + rng() % 20000);
    for (uint64_t n : {1ull << 15, (1ull << 15) + 1, (1ull << 17) - 1}) sizes.push_back(n);
    std::vector<uint8_t> written;
    for (uint64_t n : sizes) {
        const auto steps = oddeven::planSteps(n, pp);
        for (const auto& s : steps) {
            if (s.kind != StepKind::window && s.kind != StepKind::tile) continue; // both run windows
            ++windowSteps;
            written.assign(n, 0);
            for (uint64_t id = 0; id < s.windows; ++id) {
                const WindowGeometry g = windowOf(s, id);
                ASSERT_LT(g.blockBase, n)
                    << "window " << id << " of '" << s.label << "' starts past the end, n = " << n;
                for (uint64_t r = g.centreStart; r < g.centreEnd; ++r)
                    for (uint64_t c = 0; c < g.R; ++c) {
                        const uint64_t e = g.blockBase + (r << s.logKLo) + g.columnBase + c;
                        if (e < n) ++written[e];
                    }
            }
            for (uint64_t e = 0; e < n; ++e)
                ASSERT_EQ(written[e], 1) << "element " << e << " in '" << s.label << "', n = " << n;
        }
    }
    EXPECT_GT(windowSteps, 0u);
}

// ---- Host emulation of the steps ------------------------------------------------------------------

template <class F>
void forLayerComparators(uint64_t n, const std::vector<oddeven::Layer>& ls, uint32_t first, uint32_t count, F&& f) {
    for (uint32_t l = first; l < first + count; ++l) oddeven::forEachComparator(n, ls[l], f);
}

// Runs a step the way the planner says the GPU does it: a tile step per aligned tile, a window
// step per workgroup window (only comparators with both ends inside the window and < n; only
// the centre rows are kept), a layer step over the whole array.
void emulateStep(const Step& s, uint64_t n, const std::vector<uint32_t>& inKeys, const std::vector<uint32_t>& inValues,
                 std::vector<uint32_t>& outKeys, std::vector<uint32_t>& outValues) {
    const auto ls = oddeven::layers(n);
    auto cmpSwap = [](std::vector<uint32_t>& k, std::vector<uint32_t>& v, uint64_t a, uint64_t b) {
        if (k[a] > k[b]) {
            std::swap(k[a], k[b]);
            std::swap(v[a], v[b]);
        }
    };
    outKeys = inKeys;
    outValues = inValues;
    if (s.kind == StepKind::layer) {
        forLayerComparators(n, ls, s.firstLayer, 1, [&](uint64_t a, uint64_t b) { cmpSwap(outKeys, outValues, a, b); });
        return;
    }
    if (s.kind == StepKind::tile) {
        const uint64_t tile = uint64_t(1) << tileMerges(s);
        for (uint32_t l = s.firstLayer; l < s.firstLayer + s.layerCount; ++l)
            oddeven::forEachComparator(n, ls[l], [&](uint64_t a, uint64_t b) {
                if (a / tile == b / tile) cmpSwap(outKeys, outValues, a, b); // a tile never sees another
            });
        return;
    }
    // Window: each window works on a private copy of its rows, read from the input.
    // partner[j][a] = b for the comparators (a, b) of the step's layer j, else -1.
    std::vector<std::vector<int64_t>> partner(s.layerCount, std::vector<int64_t>(n, -1));
    for (uint32_t j = 0; j < s.layerCount; ++j)
        oddeven::forEachComparator(n, ls[s.firstLayer + j],
                                   [&](uint64_t a, uint64_t b) { partner[j][a] = static_cast<int64_t>(b); });
    std::vector<uint32_t> wk(n), wv(n);
    std::vector<uint8_t> inWindow(n);
    for (uint64_t id = 0; id < s.windows; ++id) {
        const WindowGeometry g = windowOf(s, id);
        std::vector<uint64_t> members;
        for (uint64_t r = g.w0; r < g.w1; ++r)
            for (uint64_t c = 0; c < g.R; ++c) {
                const uint64_t e = g.blockBase + (r << s.logKLo) + g.columnBase + c;
                if (e < n) {
                    members.push_back(e);
                    inWindow[e] = 1;
                    wk[e] = inKeys[e];
                    wv[e] = inValues[e];
                }
            }
        for (uint32_t j = 0; j < s.layerCount; ++j) // the layers in order; within one, any order
            for (uint64_t a : members) {
                const int64_t b = partner[j][a];
                if (b >= 0 && inWindow[b]) cmpSwap(wk, wv, a, static_cast<uint64_t>(b));
            }
        for (uint64_t e : members) {
            const uint64_t row = ((e - g.blockBase) >> s.logKLo);
            if (row >= g.centreStart && row < g.centreEnd) {
                outKeys[e] = wk[e];
                outValues[e] = wv[e];
            }
            inWindow[e] = 0;
        }
    }
}

// Emulates step s on (keys, values) and compares with applyLayers over the step's layers.
void checkStep(const Step& s, uint64_t n, const std::vector<uint32_t>& keys, const std::vector<uint32_t>& values,
               std::vector<uint32_t>& outK, std::vector<uint32_t>& outV, const char* state) {
    std::vector<std::byte> ek(n * 4);
    std::memcpy(ek.data(), keys.data(), n * 4);
    std::vector<uint32_t> ev = values;
    oddeven::applyLayers(ek, ev, KeyType::u32, Order::ascending, n, s.firstLayer, s.firstLayer + s.layerCount);
    emulateStep(s, n, keys, values, outK, outV);
    ASSERT_EQ(std::memcmp(ek.data(), outK.data(), n * 4), 0)
        << "keys differ after '" << s.label << "' (" << stepKindName(s.kind) << ", halo " << s.halo << ") on " << state
        << ", n = " << n;
    ASSERT_EQ(ev, outV) << "values differ after '" << s.label << "' on " << state << ", n = " << n;
}

void emulatePlan(uint64_t n, const PlanParams& pp, uint64_t seed) {
    const auto steps = oddeven::planSteps(n, pp);
    // Keys with many duplicates (ties must not swap), values that identify every element.
    std::mt19937_64 rng(seed);
    auto randomState = [&](std::vector<uint32_t>& k, std::vector<uint32_t>& v) {
        k.resize(n);
        v.resize(n);
        for (uint64_t i = 0; i < n; ++i) {
            k[i] = static_cast<uint32_t>(rng() % (n / 4 + 2));
            v[i] = static_cast<uint32_t>(i);
        }
    };
    std::vector<uint32_t> keys, values, outK, outV, rk, rv;
    randomState(keys, values);
    for (const auto& s : steps) {
        // From the state the earlier steps leave (what the sort really meets)...
        checkStep(s, n, keys, values, outK, outV, "the sort's state");
        if (::testing::Test::HasFatalFailure()) return;
        keys.swap(outK);
        values.swap(outV);
        // ...and from an arbitrary state: the halo must make the centre exact whatever the data
        // (reachable states have sorted runs, on which even a too small halo can happen to work).
        randomState(rk, rv);
        checkStep(s, n, rk, rv, outK, outV, "a random state");
        if (::testing::Test::HasFatalFailure()) return;
    }
    for (uint64_t i = 1; i < n; ++i) ASSERT_LE(keys[i - 1], keys[i]) << "n = " << n;
}

TEST_P(Planner, EmulatedStepsMatchTheNetwork) {
    const PlanParams pp = GetParam().params;
    std::vector<uint64_t> sizes = {2, 3, 5, 17, 100, 129, 255, 256, 257, 1000, 1025, 3001, 4097};
    std::mt19937_64 rng(11);
    for (int i = 0; i < 6; ++i) sizes.push_back(2 + rng() % 9000);
    // Larger windows reach halos only at larger n.
    if (pp.windowKeys >= 1024) {
        sizes.push_back(uint64_t(4) * pp.windowKeys + 3);
        sizes.push_back(uint64_t(16) * pp.windowKeys - 1);
    }
    size_t windows = 0, haloWindows = 0;
    for (uint64_t n : sizes) {
        SCOPED_TRACE("n = " + std::to_string(n));
        emulatePlan(n, pp, n);
        if (::testing::Test::HasFatalFailure()) return;
        for (const auto& s : oddeven::planSteps(n, pp)) {
            windows += s.kind == StepKind::window && s.halo == 0;
            haloWindows += s.kind == StepKind::window && s.halo != 0;
        }
    }
    if (!pp.perLayer) {
        EXPECT_GT(haloWindows, 0u) << "the sizes must reach windows with halo";
        EXPECT_GT(windows, 0u) << "and windows without halo";
    }
}

INSTANTIATE_TEST_SUITE_P(Params, Planner, ::testing::ValuesIn(planCases()),
                         [](const auto& info) { return info.param.name; });

std::vector<PlanCase> fusedPlanCases() {
    std::vector<PlanCase> out;
    for (auto& c : planCases())
        if (!c.params.perLayer) out.push_back(c);
    return out;
}
INSTANTIATE_TEST_SUITE_P(Params, PlannerWindows, ::testing::ValuesIn(fusedPlanCases()),
                         [](const auto& info) { return info.param.name; });

// OneSweep's histogram workgroups (tuning::oneSweepHistogramWorkgroups): one per 65536 keys where the
// device does not tell its multiprocessors (lavapipe); where it does (an H100's 132), small sorts
// spread over two a multiprocessor, with at least 8192 keys each; never over 1024.
TEST(OneSweepHistogram, WorkgroupsSpreadOverTheMultiprocessors) {
    const tuning::OneSweepTuning t = tuning::oneSweep(4, false, 1u << 20); // (one row for u32 keys at every n)
    ASSERT_EQ(t.histogram.keysPerWorkgroup, 65536u);
    ASSERT_EQ(t.histogram.minKeysPerWorkgroup, 8192u);
    ASSERT_EQ(t.histogram.workgroupsPerMultiprocessor, 2u);
    struct Case {
        uint64_t n;
        uint32_t multiprocessors, expected;
    };
    const Case cases[] = {
        {0, 0, 1},
        {1, 0, 1},
        {1u << 20, 0, 16},
        {1u << 28, 0, 1024},
        {1ull << 32, 0, 1024},
        {1, 132, 1},
        {8192, 132, 1},
        {8193, 132, 2},
        {1u << 16, 132, 8},
        {1u << 20, 132, 128},
        {1u << 22, 132, 264},
        {1u << 24, 132, 264},
        {1u << 25, 132, 512},
        {1u << 26, 132, 1024},
        {1u << 28, 132, 1024},
        {1u << 24, 1000, 1024},
    };
    for (const Case& c : cases)
        EXPECT_EQ(tuning::oneSweepHistogramWorkgroups(c.n, c.multiprocessors, t), c.expected)
            << "n = " << c.n << ", " << c.multiprocessors << " multiprocessors";
    static_assert(tuning::oneSweepHistogramWorkgroups(1u << 20, 132, tuning::oneSweep(8, true, 1u << 20)) == 128);
}

} // namespace
} // namespace sortlab
