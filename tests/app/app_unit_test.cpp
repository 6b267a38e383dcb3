// Host-only tests of the app's own logic (no window, no Vulkan device): bar heights of typed keys, the large-array
// strip's density, the algorithm names, the script parser, the lesson parser, the themes' contrast and the results
// loaded into the benchmark panel.
#include <sortlab/app/density.h>
#include <sortlab/app/lesson.h>
#include <sortlab/app/loaded_results.h>
#include <sortlab/app/measured.h>
#include <sortlab/app/options.h>
#include <sortlab/app/palette.h>
#include <sortlab/app/recording.h>
#include <sortlab/app/settings.h>
#include <sortlab/app/sort_worker.h>
#include <sortlab/app/transition.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <tuple>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <type_traits>

namespace sortlab::app {
namespace {

// readScript of `text`, written to the file `name` in the tests' temporary folder.
Result<std::vector<Action>> readScriptText(const std::string& name, const std::string& text) {
    const std::string path = testing::TempDir() + "/" + name;
    std::ofstream(path) << text;
    return readScript(path);
}

TEST(AppHeights, FloatsByValueWithNaNAndInfinitiesAtTheEnds) {
    const float keys[] = {-1.0f,
                          0.0f,
                          1.0f,
                          std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN(),
                          -std::numeric_limits<float>::quiet_NaN()};
    const auto* raw = reinterpret_cast<const std::byte*>(keys);
    EXPECT_FLOAT_EQ(keyHeightIn(raw, 0, KeyType::f32, -1, 1), 0.0f);
    EXPECT_FLOAT_EQ(keyHeightIn(raw, 1, KeyType::f32, -1, 1), 0.5f);
    EXPECT_FLOAT_EQ(keyHeightIn(raw, 2, KeyType::f32, -1, 1), 1.0f);
    EXPECT_FLOAT_EQ(keyHeightIn(raw, 3, KeyType::f32, -1, 1), 1.0f);
    EXPECT_FLOAT_EQ(keyHeightIn(raw, 4, KeyType::f32, -1, 1), 0.0f);
    EXPECT_FLOAT_EQ(keyHeightIn(raw, 5, KeyType::f32, -1, 1), 1.0f);
    EXPECT_FLOAT_EQ(keyHeightIn(raw, 6, KeyType::f32, -1, 1), 0.0f);
}

TEST(AppHeights, SignedIntegersByValue) {
    const int64_t keys[] = {-5, 0, 5};
    const auto* raw = reinterpret_cast<const std::byte*>(keys);
    EXPECT_LT(keyHeightIn(raw, 0, KeyType::i64, -5, 5), keyHeightIn(raw, 1, KeyType::i64, -5, 5));
    EXPECT_LT(keyHeightIn(raw, 1, KeyType::i64, -5, 5), keyHeightIn(raw, 2, KeyType::i64, -5, 5));
}

// The strip's pixel columns come from its own width: 2^20 keys over a strip 1205 pixels wide are
// about 870 keys a column (not n over what is left of the title line), and the columns take every
// bucket once, in order.
TEST(AppStrip, KeysPerColumnFromTheStripsWidth) {
    EXPECT_EQ(stripColumns(1205.6f), 1205u);
    EXPECT_EQ(keysPerColumn(uint64_t(1) << 20, stripColumns(1205.6f)), 870u);
    EXPECT_EQ(keysPerColumn(uint64_t(1) << 20, stripColumns(786.0f)), 1334u);
    EXPECT_EQ(stripColumns(0.3f), 1u);
    for (uint32_t buckets : {8192u, 1000u, 4097u})
        for (uint32_t columns : {1205u, 786u, 1u, 4097u}) {
            uint32_t next = 0;
            for (uint32_t c = 0; c < columns; ++c) {
                const auto [b0, b1] = columnBuckets(buckets, columns, c);
                EXPECT_LT(b0, b1) << buckets << " buckets, " << columns << " columns, column " << c;
                if (buckets >= columns) EXPECT_EQ(b0, next) << buckets << " buckets, column " << c;
                next = b1;
            }
            EXPECT_EQ(next, buckets);
        }
    // The merged columns hold every key, each column the keys of its buckets.
    std::vector<uint32_t> keys(100000);
    for (uint32_t i = 0; i < keys.size(); ++i) keys[i] = i * 2654435761u;
    const auto* raw = reinterpret_cast<const std::byte*>(keys.data());
    const Density d = densityOf(raw, keyScale(raw, keys.size(), KeyType::u32), 0, keys.size(), 8192);
    const ColumnDensity m = mergeColumns(d, 1205);
    uint64_t total = 0;
    for (uint32_t c = 0; c < m.columns; ++c) {
        uint64_t inColumn = 0;
        for (uint32_t r = 0; r < Density::kRows; ++r) inColumn += m.counts[size_t(c) * Density::kRows + r];
        EXPECT_EQ(inColumn, m.keys[c]);
        total += inColumn;
    }
    EXPECT_EQ(total, keys.size());
}

// The heights are the whole key in sort order, scaled to the array's own min..max: a narrow range
// of 64-bit keys near 2^63 fills the height, signed and float keys go from the smallest to the
// largest, NaNs and infinities at the ends.
TEST(AppStrip, HeightsFillTheArraysRangeForEveryKeyType) {
    const uint64_t u64[] = {(1ull << 63) + 1000, (1ull << 63) + 1500, (1ull << 63) + 2000};
    const auto* ru = reinterpret_cast<const std::byte*>(u64);
    const KeyScale su = keyScale(ru, 3, KeyType::u64);
    EXPECT_FLOAT_EQ(su.height(ru, 0), 0.0f);
    EXPECT_FLOAT_EQ(su.height(ru, 1), 0.5f);
    EXPECT_FLOAT_EQ(su.height(ru, 2), 1.0f);
    const int32_t i32[] = {-7, -3, 1};
    const auto* ri = reinterpret_cast<const std::byte*>(i32);
    const KeyScale si = keyScale(ri, 3, KeyType::i32);
    EXPECT_FLOAT_EQ(si.height(ri, 0), 0.0f);
    EXPECT_FLOAT_EQ(si.height(ri, 1), 0.5f);
    EXPECT_FLOAT_EQ(si.height(ri, 2), 1.0f);
    const int64_t i64[] = {INT64_MIN, 0, INT64_MAX};
    const auto* rl = reinterpret_cast<const std::byte*>(i64);
    const KeyScale sl = keyScale(rl, 3, KeyType::i64);
    EXPECT_FLOAT_EQ(sl.height(rl, 0), 0.0f);
    EXPECT_NEAR(sl.height(rl, 1), 0.5f, 1e-6);
    EXPECT_FLOAT_EQ(sl.height(rl, 2), 1.0f);
    const double f64[] = {2.0,
                          2.5,
                          3.0,
                          std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::quiet_NaN(),
                          std::numeric_limits<double>::quiet_NaN()};
    const auto* rd = reinterpret_cast<const std::byte*>(f64);
    const KeyScale sd = keyScale(rd, 6, KeyType::f64);
    EXPECT_FLOAT_EQ(sd.height(rd, 0), 0.0f);
    EXPECT_FLOAT_EQ(sd.height(rd, 1), 0.5f);
    EXPECT_FLOAT_EQ(sd.height(rd, 2), 1.0f);
    EXPECT_FLOAT_EQ(sd.height(rd, 3), 1.0f);
    EXPECT_FLOAT_EQ(sd.height(rd, 4), 0.0f);
    EXPECT_FLOAT_EQ(sd.height(rd, 5), 1.0f);
    const float f32[] = {1.5f, 1.5f};
    const auto* rf = reinterpret_cast<const std::byte*>(f32);
    EXPECT_FLOAT_EQ(keyScale(rf, 2, KeyType::f32).height(rf, 0), 0.5f);
}

// Keys sorted by their low 12 bits only (an LSD radix sort after 3 of its 4-bit passes) of keys
// below 2^16: 16 rising ramps, one per value of bits 12..15, so some column has keys below the
// one before it; sorted, every column sits at or above the one before. Shades: none for an empty
// cell, the brightest for the fullest, and one key still shows.
TEST(AppStrip, HalfSortedShowsBandsAndSortedIsOneLine) {
    std::vector<uint32_t> keys(1 << 16);
    for (uint32_t i = 0; i < keys.size(); ++i) keys[i] = (i * 2654435761u) >> 16;
    std::stable_sort(keys.begin(), keys.end(), [](uint32_t a, uint32_t b) { return (a & 0xfff) < (b & 0xfff); });
    auto lowHigh = [](const ColumnDensity& m, uint32_t c) {
        int lo = -1, hi = -1;
        for (uint32_t r = 0; r < Density::kRows; ++r)
            if (m.counts[size_t(c) * Density::kRows + r]) hi = int(r), lo = lo < 0 ? int(r) : lo;
        return std::pair{lo, hi};
    };
    auto falls = [&](const std::vector<uint32_t>& k) {
        const auto* raw = reinterpret_cast<const std::byte*>(k.data());
        const ColumnDensity m =
            mergeColumns(densityOf(raw, keyScale(raw, k.size(), KeyType::u32), 0, k.size(), 8192), 512);
        uint32_t bandsInColumn0 = 0;
        for (uint32_t r = 0; r < Density::kRows; ++r) bandsInColumn0 += m.counts[r] != 0;
        int fallsAt = 0;
        for (uint32_t c = 1; c < m.columns && !fallsAt; ++c)
            if (lowHigh(m, c).first < lowHigh(m, c - 1).second) fallsAt = int(c);
        return std::pair{fallsAt, bandsInColumn0};
    };
    const auto [halfFalls, halfBands] = falls(keys);
    EXPECT_GT(halfFalls, 0);
    EXPECT_EQ(halfBands, 16u); // the 16 ramps, each starting at the bottom of its band
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(falls(keys).first, 0);
    EXPECT_EQ(shadeLevel(0, 500, 8), 0u);
    EXPECT_EQ(shadeLevel(1, 500, 8), 1u);
    EXPECT_EQ(shadeLevel(500, 500, 8), 8u);
    EXPECT_LT(shadeLevel(20, 500, 8), shadeLevel(200, 500, 8));
}

// The app's menu and --algo are the library's variant table: every name means the same plan as in
// sortlab-bench.
// A radix pass moved one bucket at a time (stagedScatter): the radix4 example's keys, pass 0. Each
// stage starts and ends on a permutation; in it, the keys going to their bucket keep their order
// among themselves, and so do the keys closing up: keys that cross are always in different lanes,
// and at every moment of the move no two keys of one lane are less than a place apart.
TEST(AppMoves, StagedScatterNeverPutsTwoKeysOfALaneInOnePlace) {
    const std::vector<uint64_t> keys = {10, 25, 39, 92, 1, 5, 68, 23, 21, 10};
    const uint64_t n = keys.size();
    std::vector<uint64_t> digit(n), order(n);
    for (uint64_t i = 0; i < n; ++i) digit[i] = keys[i] & 15, order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) { return digit[a] < digit[b]; });
    Transition t;
    t.moves.to.resize(n);
    for (uint64_t r = 0; r < n; ++r) t.moves.to[order[r]] = r;
    stagedScatter(t.moves, digit);
    ASSERT_EQ(t.moves.digits, (std::vector<uint64_t>{1, 4, 5, 7, 9, 10, 12})); // the digits present, in order
    ASSERT_EQ(t.moves.at.size(), t.moves.digits.size() + 1);
    EXPECT_EQ(t.moves.at.back(), t.moves.to);
    for (const auto& at : t.moves.at) {
        std::vector<uint64_t> sorted = at;
        std::sort(sorted.begin(), sorted.end());
        for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], i) << "a stage starts on two keys in one place";
    }
    // Key 3 (92, digit C) waits until the last stage, closing up meanwhile; key 4 (1, digit 1) goes first.
    EXPECT_EQ(t.moves.stage[4], 0u);
    EXPECT_EQ(t.moves.stage[3], 6u);
    EXPECT_EQ(t.moves.at[1][4], 0u);
    for (int k = 0; k <= 200; ++k) {
        const float f = float(k) / 200.0f;
        for (uint64_t a = 0; a < n; ++a)
            for (uint64_t b = a + 1; b < n; ++b) {
                const KeyPlace pa = keyPlace(t, a, f), pb = keyPlace(t, b, f);
                if (pa.lane == pb.lane) { // still, below or above
                    EXPECT_GE(std::abs(pa.index - pb.index), 1.0 - 1e-9) << "keys " << a << " and " << b << " at " << f;
                }
            }
    }
    EXPECT_EQ(keyPlace(t, 4, 1.0f).index, 0.0);
    EXPECT_EQ(keyPlace(t, 3, 0.0f).index, 3.0);
}

// A network layer's swapped pair: the key moving right passes above, the one moving left below,
// both on the way while they cross, and every key at its two ends at 0 and 1.
TEST(AppMoves, SwappedKeysPassAboveAndBelow) {
    Transition t;
    t.moves.to = {2, 1, 0, 3};
    t.moves.compared = {{0, 2}, {1, 3}};
    EXPECT_EQ(keyPlace(t, 0, 0.2f).index, 0.0); // comparing yet
    const float mid = kComparePhase + (1 - kComparePhase) / 2;
    const KeyPlace a = keyPlace(t, 0, mid), b = keyPlace(t, 2, mid), c = keyPlace(t, 1, mid);
    EXPECT_EQ(a.lane, Lane::above);
    EXPECT_EQ(b.lane, Lane::below);
    EXPECT_EQ(c.lane, Lane::still);
    EXPECT_NEAR(a.index, 1.0, 1e-6);
    EXPECT_NEAR(b.index, 1.0, 1e-6);
    EXPECT_FLOAT_EQ(a.rise, 1.0f);
    EXPECT_FLOAT_EQ(a.arc, 1.0f);
    EXPECT_EQ(keyPlace(t, 0, 1.0f).index, 2.0);
    EXPECT_EQ(keyPlace(t, 0, 1.0f).rise, 0.0f);
    t.backward = true; // played in reverse
    EXPECT_EQ(keyPlace(t, 0, 0.0f).index, 2.0);
    EXPECT_EQ(keyPlace(t, 0, 1.0f).index, 0.0);
}

TEST(AppSettings, AlgorithmNames) {
    SortSettings s;
    EXPECT_EQ(s.algo, Variant::oddevenLayer) << "the app starts on the network to step through";
    // name -> variant, and whether the odd-even plan runs one step per layer
    const std::tuple<const char*, Variant, bool> names[] = {
        {"oddeven", Variant::oddeven, false},
        {"oddeven-layer", Variant::oddevenLayer, true},
        {"oddeven-fused", Variant::oddeven, false}, // the app's old name for the fused plan
    };
    for (auto [name, variant, perLayer] : names) {
        ASSERT_TRUE(applySetting(s, "algo", name).ok()) << name;
        EXPECT_EQ(s.algo, variant) << name;
        EXPECT_EQ(s.config().knobs.perLayer, perLayer) << name;
    }
    EXPECT_FALSE(applySetting(s, "algo", "bubble").ok());
    for (const VariantInfo& v : variants()) {
        ASSERT_TRUE(applySetting(s, "algo", std::string(v.name)).ok()) << v.name;
        EXPECT_EQ(s.algo, v.variant);
        EXPECT_EQ(variantName(s.algorithm(), s.config()), v.plan) << v.name;
    }
}

TEST(AppSettings, ApplySetting) {
    SortSettings s;
    EXPECT_TRUE(applySetting(s, "n", "2^10").ok());
    EXPECT_EQ(s.n, 1024u);
    EXPECT_TRUE(applySetting(s, "type", "f64").ok());
    EXPECT_EQ(s.key, KeyType::f64);
    EXPECT_TRUE(applySetting(s, "values", "u32").ok());
    EXPECT_TRUE(s.keyValue);
    EXPECT_FALSE(applySetting(s, "n", "12x").ok());
    EXPECT_FALSE(applySetting(s, "n", "0").ok());
    EXPECT_FALSE(applySetting(s, "order", "up").ok());
    EXPECT_FALSE(applySetting(s, "colour", "red").ok());
}

// The radix view is offered at every step of a radix sort, the input and the result included
// (which carry no buffers of their own: it says what they are), and never for odd-even.
TEST(AppViews, RadixViewAtEveryStepOfARadixSort) {
    SortWorker::View v;
    EXPECT_FALSE(hasRadixData(v)); // nothing loaded yet
    auto data = std::make_shared<StepData>();
    data->snapshot = std::make_shared<Snapshot>();
    v.data = data;
    for (const char* algo : {"radix4", "onesweep", "onesweep-fallback"}) {
        ASSERT_TRUE(applySetting(v.job.settings, "algo", algo).ok()) << algo;
        EXPECT_TRUE(hasRadixData(v)) << algo << " at its input";
    }
    for (const char* algo : {"oddeven", "oddeven-layer"}) {
        ASSERT_TRUE(applySetting(v.job.settings, "algo", algo).ok()) << algo;
        EXPECT_FALSE(hasRadixData(v)) << algo;
    }
}

// OneSweep's forced fallback: the bench's algorithm name, and a setting of its own (scripts).
TEST(AppSettings, OneSweepForcedFallback) {
    SortSettings s;
    EXPECT_TRUE(applySetting(s, "algo", "onesweep-fallback").ok());
    EXPECT_EQ(s.algo, Variant::onesweepFallback);
    EXPECT_TRUE(s.config().knobs.forceFallback);
    EXPECT_TRUE(applySetting(s, "force-fallback", "off").ok());
    EXPECT_EQ(s.algo, Variant::onesweep);
    EXPECT_FALSE(s.config().knobs.forceFallback);
    EXPECT_TRUE(applySetting(s, "force-fallback", "on").ok());
    EXPECT_TRUE(s.knobs.forceFallback);
    EXPECT_TRUE(s.config().knobs.forceFallback);
    EXPECT_FALSE(applySetting(s, "force-fallback", "yes").ok());
}

TEST(AppScript, ParsesActionsAndRejectsUnknownOnes) {
    auto a = readScriptText("app_unit.script",
                            "# comment\nn 13   # trailing comment\nstep +2\n\nscreenshot a.png\nframes 5\n");
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_EQ(a->size(), 4u);
    EXPECT_EQ((*a)[0].verb, "set");
    EXPECT_EQ((*a)[0].args, (std::vector<std::string>{"n", "13"}));
    EXPECT_EQ((*a)[1].verb, "step");
    EXPECT_EQ((*a)[2].args[0], "a.png");
    EXPECT_EQ((*a)[3].line, 6);
    auto bad = readScriptText("app_unit.script", "n 13\nfly away\n");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find(":2: unknown action 'fly'"), std::string::npos) << bad.error().message;
    EXPECT_FALSE(readScript(testing::TempDir() + "/no/such/file").ok());
}

// The benchmark panel's actions: bench-run takes sortlab-bench's flags, checked when the script is read.
TEST(AppScript, BenchActions) {
    auto a =
        readScriptText("app_bench.script",
                       "bench on\nbench-run --algo radix4,std --sizes 2^10..2^12 --reps 2\nbench-wait\nbench-cancel\n"
                       "bench-export out\nmouse 10 20\nmouse off\nkey B\n");
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_EQ(a->size(), 8u);
    EXPECT_EQ((*a)[1].verb, "bench-run");
    EXPECT_EQ((*a)[1].args.size(), 6u);
    EXPECT_TRUE((*a)[2].args.empty());
    EXPECT_EQ((*a)[4].args[0], "out");
    for (const char* wrong : {"bench-run --algo bubble\n", "bench-export\n", "mouse\n"})
        EXPECT_FALSE(readScriptText("app_bench.script", wrong).ok()) << wrong;
}

// [The themes] Every role against what it is drawn on (app/views/*.cpp), by the WCAG 2 formula:
// text at least 4.5:1, bars, lines and outlines at least 3:1, in both themes. The panel background
// is windowBg laid over the desktop (the dark one is slightly translucent); translucent roles are
// laid over what is under them.
using Role = uint32_t Palette::*;
uint32_t panelOf(const Palette& p) {
    return over(p.windowBg, p.desktop);
}
// A background role as seen: laid over the panel (nullptr: the panel itself).
uint32_t backgroundOf(const Palette& p, Role bg) {
    return bg ? over(p.*bg, panelOf(p)) : panelOf(p);
}
double contrastOn(uint32_t fg, uint32_t background) {
    return contrastRatio(over(fg, background), background);
}

struct RolePair {
    const char* name;
    Role fg, bg; // bg nullptr: the panel
};

// Text: 4.5:1.
const RolePair kTextPairs[] = {
    {"text", &Palette::text, nullptr},
    {"textDim", &Palette::textDim, nullptr},
    {"title", &Palette::title, nullptr},
    {"accent", &Palette::accent, nullptr},
    {"question", &Palette::question, nullptr},
    {"right", &Palette::right, nullptr},
    {"wrong", &Palette::wrong, nullptr},
    {"match", &Palette::match, nullptr},
    {"mismatch", &Palette::mismatch, nullptr},
    {"error", &Palette::error, nullptr},
    {"inputError", &Palette::inputError, nullptr},
    {"pass", &Palette::pass, nullptr},
    {"warning", &Palette::warning, nullptr},
    {"keyLabel", &Palette::keyLabel, nullptr},
    {"changedLabel", &Palette::changedLabel, nullptr},
    {"axisLabel", &Palette::axisLabel, nullptr},
    {"inputKey", &Palette::inputKey, nullptr},
    {"tileId", &Palette::tileId, nullptr},
    {"depthLabel", &Palette::depthLabel, nullptr},
    {"binaryOtherText", &Palette::binaryOtherText, nullptr},
    {"digitValue", &Palette::digitValue, nullptr},
    {"text on titleBg", &Palette::text, &Palette::titleBg},
    {"text on titleBgActive", &Palette::text, &Palette::titleBgActive},
    {"text on frameBg", &Palette::text, &Palette::frameBg},
    {"text on codeHighlight", &Palette::text, &Palette::codeHighlight},
    {"text on hoverRow", &Palette::text, &Palette::hoverRow},
    {"text on markRow", &Palette::text, &Palette::markRow},
    {"plotText on plotBg", &Palette::plotText, &Palette::plotBg},
    {"keyBoxText on keyBox", &Palette::keyBoxText, &Palette::keyBox},
    {"keyBoxText on keyBoxChanged", &Palette::keyBoxText, &Palette::keyBoxChanged},
    {"binaryDigitText on binaryDigitBg", &Palette::binaryDigitText, &Palette::binaryDigitBg},
};
// Bars, lines and outlines: 3:1.
const RolePair kMarkPairs[] = {
    {"changedOutline on plotBg", &Palette::changedOutline, &Palette::plotBg},
    {"mismatchBar on plotBg", &Palette::mismatchBar, &Palette::plotBg},
    {"highlight on plotBg", &Palette::highlight, &Palette::plotBg},
    {"highlight", &Palette::highlight, nullptr},
    {"answer on plotBg", &Palette::answer, &Palette::plotBg},
    {"answer", &Palette::answer, nullptr},
    {"checkMark on frameBg", &Palette::checkMark, &Palette::frameBg},
    {"wire", &Palette::wire, nullptr},
    {"wire on stepBand", &Palette::wire, &Palette::stepBand},
    {"comparatorCurrent on stepBand", &Palette::comparatorCurrent, &Palette::stepBand},
    {"swap on stepBand", &Palette::swap, &Palette::stepBand},
    {"comparatorDone", &Palette::comparatorDone, nullptr},
    {"comparatorPending", &Palette::comparatorPending, nullptr},
    {"layerCurrent", &Palette::layerCurrent, nullptr},
    {"layerDone", &Palette::layerDone, nullptr},
    {"bracket", &Palette::bracket, nullptr},
    {"currentEvent", &Palette::currentEvent, nullptr},
    {"arc", &Palette::arc, nullptr},
    {"arcFallback", &Palette::arcFallback, nullptr},
    {"fallbackOutline", &Palette::fallbackOutline, nullptr},
    {"depthBar", &Palette::depthBar, nullptr},
    {"outOfRange", &Palette::outOfRange, nullptr},
};
// Faint on purpose (what is still to come, not ready yet, a band behind the current step): they
// must show on the panel, not stand out. 1.5:1.
const RolePair kFaintPairs[] = {
    {"comparatorSkipped", &Palette::comparatorSkipped, nullptr},
    {"layerPending", &Palette::layerPending, nullptr},
    {"mergeLine", &Palette::mergeLine, nullptr},
    {"stepBand", &Palette::stepBand, nullptr},
    {"codeHighlight", &Palette::codeHighlight, nullptr},
};

void expectContrast(Theme t, const RolePair& r, double least) {
    const Palette& p = paletteFor(t);
    const double c = contrastOn(p.*r.fg, backgroundOf(p, r.bg));
    EXPECT_GE(c, least) << themeName(t) << " theme: " << r.name << " is " << c << ":1";
}

TEST(AppThemes, TextAndMarksStandOut) {
    for (Theme t : {Theme::dark, Theme::light}) {
        for (const RolePair& r : kTextPairs) expectContrast(t, r, 4.5);
        for (const RolePair& r : kMarkPairs) expectContrast(t, r, 3.0);
        for (const RolePair& r : kFaintPairs) expectContrast(t, r, 1.5);
        // The network: a comparator that runs (still to run included) stands out more than the
        // wires it joins and than a dashed one the GPU skips, which recedes.
        {
            const Palette& q = paletteFor(t);
            const double pending = contrastOn(q.comparatorPending, panelOf(q)), wire = contrastOn(q.wire, panelOf(q)),
                         skipped = contrastOn(q.comparatorSkipped, panelOf(q));
            EXPECT_GT(pending, wire * 1.3) << themeName(t);
            EXPECT_GT(pending, skipped * 2.0) << themeName(t);
            EXPECT_LT(skipped, wire) << themeName(t);
            // On the step's band, a comparator that swapped never looks like one that did not.
            EXPECT_GE(contrastOn(q.swap, q.comparatorCurrent), 2.0) << themeName(t);
        }
        // The status flags: the aggregate and inclusive boxes stand out, ink on every box reads.
        const Palette& p = paletteFor(t);
        const uint32_t panel = panelOf(p);
        EXPECT_GE(contrastOn(p.flag[0], panel), 1.5) << themeName(t);
        for (int f : {1, 2}) EXPECT_GE(contrastOn(p.flag[f], panel), 3.0) << themeName(t) << " flag " << f;
        EXPECT_GE(contrastOn(p.flagInkNotReady, p.flag[0]), 4.5) << themeName(t);
        for (int f : {1, 2}) EXPECT_GE(contrastOn(p.flagInk, p.flag[f]), 4.5) << themeName(t) << " flag " << f;
    }
}

// Bars and arrows in the height ramp's colours, on the plot and on the panel; numbers on heat map
// cells.
TEST(AppThemes, RampsStandOut) {
    for (Theme t : {Theme::dark, Theme::light}) {
        const Palette& p = paletteFor(t);
        for (int i = 0; i <= 64; ++i) {
            const float x = float(i) / 64;
            EXPECT_GE(contrastOn(heightColourFor(t, x), p.plotBg), 3.0) << themeName(t) << " height " << x;
            EXPECT_GE(contrastOn(heightColourFor(t, x), panelOf(p)), 3.0) << themeName(t) << " height " << x;
            EXPECT_GE(contrastOn(heatTextColourFor(t, x), heatColourFor(t, x)), 4.5) << themeName(t) << " heat " << x;
        }
    }
}

// The dark theme is the app as it was: a few of its colours, byte for byte; every role of both
// themes is set (a role left out of a table would be 0, transparent black).
TEST(AppThemes, DarkIsTheOldLookAndEveryRoleIsSet) {
    EXPECT_EQ(paletteFor(Theme::dark).plotBg, rgba(24, 24, 28));
    EXPECT_EQ(paletteFor(Theme::dark).highlight, rgba(80, 220, 255));
    EXPECT_EQ(paletteFor(Theme::dark).title, rgba(255, 217, 89)); // ImVec4(1, 0.85, 0.35, 1)
    EXPECT_EQ(heightColourFor(Theme::dark, 0), rgba(51, 102, 217));
    EXPECT_EQ(heightColourFor(Theme::dark, 1), rgba(242, 217, 64));
    EXPECT_EQ(heatColourFor(Theme::dark, 0), rgba(20, 20, 31));
    EXPECT_EQ(heatColourFor(Theme::dark, 1), rgba(255, 255, 255));
    static_assert(sizeof(Palette) % sizeof(uint32_t) == 0 && std::is_standard_layout_v<Palette>);
    for (Theme t : {Theme::dark, Theme::light}) {
        uint32_t roles[sizeof(Palette) / sizeof(uint32_t)];
        std::memcpy(roles, &paletteFor(t), sizeof roles);
        for (size_t i = 0; i < std::size(roles); ++i) EXPECT_NE(roles[i], 0u) << themeName(t) << " role " << i;
    }
}

TEST(AppThemes, Names) {
    EXPECT_EQ(parseTheme("light"), Theme::light);
    EXPECT_EQ(parseTheme("dark"), Theme::dark);
    EXPECT_EQ(parseTheme("purple"), std::nullopt);
    EXPECT_EQ(themeName(Theme::light), "light");
}

// --theme: light or dark; anything else is a usage error of one line.
TEST(AppThemes, CommandLine) {
    auto parse = [](std::vector<std::string> args) {
        args.insert(args.begin(), "sortlab");
        std::vector<char*> argv;
        for (std::string& a : args) argv.push_back(a.data());
        bool exitNow = false;
        return parseOptions(int(argv.size()), argv.data(), &exitNow);
    };
    auto none = parse({});
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(none->theme, std::nullopt) << "no --theme: imgui.ini's, else dark";
    auto light = parse({"--theme", "light"});
    ASSERT_TRUE(light.ok()) << light.error().message;
    EXPECT_EQ(light->theme, Theme::light);
    auto bad = parse({"--theme", "purple"});
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, "--theme 'purple': use dark or light");
}

// A script's `theme` action: its value is checked when the script is read.
TEST(AppThemes, ScriptAction) {
    auto a = readScriptText("app_theme.script", "theme light\nstep 2\ntheme dark\n");
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_EQ(a->size(), 3u);
    EXPECT_EQ((*a)[0].verb, "theme");
    EXPECT_EQ((*a)[0].args, (std::vector<std::string>{"light"}));
    auto bad = readScriptText("app_theme.script", "step 2\ntheme purple\n");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find(":2: theme 'purple': use dark or light"), std::string::npos)
        << bad.error().message;
}

// Results loaded into the benchmark panel (loaded_results.h): files merge into lines per machine,
// the same file twice (by another name too) adds nothing, a later file's point replaces an earlier
// one's, and a file that does not load says which and why and keeps what was loaded.
TEST(AppLoadedResults, MergeAndRefuse) {
    const std::string dir = testing::TempDir();
    const std::string results = std::string(SORTLAB_SOURCE_DIR) + "/docs/results/2026-11-23-h100/final4/";
    LoadedResults loaded;
    auto first = loaded.load(results + "sweep-os-2e10-2e24.json");
    ASSERT_TRUE(first.ok()) << first.error().message;
    EXPECT_EQ(first->rows, 30u);
    EXPECT_EQ(first->machines, (std::vector<std::string>{"NVIDIA H100 80GB HBM3"}));
    ASSERT_TRUE(loaded.load(results + "sweep-os-2e25-2e28.json").ok());
    const size_t both = loaded.rows().size();
    EXPECT_EQ(both, 38u);
    ASSERT_TRUE(loaded.load(results + "../final4/sweep-os-2e10-2e24.json").ok()); // the same file
    EXPECT_EQ(loaded.rows().size(), both);
    EXPECT_EQ(loaded.files().size(), 2u);
    for (const plot::Row& r : loaded.rows()) EXPECT_EQ(r.tag, "loaded");

    // A copy of a file with one point changed: the copy's point, no second line.
    nlohmann::ordered_json copy;
    std::ifstream(results + "sweep-os-2e25-2e28.json") >> copy;
    copy[0]["median_ms"] = 99.0;
    copy[0]["gkeys_per_s"] = 0.5;
    std::ofstream(dir + "/copy.json") << copy.dump();
    ASSERT_TRUE(loaded.load(dir + "/copy.json").ok());
    EXPECT_EQ(loaded.rows().size(), both);
    const plot::Figure f = plot::makeFigure(loaded.rows());
    const std::vector<LoadedLine> lines = loadedLines(f, 0, loaded);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].algo, "onesweep");
    EXPECT_EQ(lines[1].algo, "cub");
    EXPECT_EQ(lines[0].device, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(lines[0].points.size(), 19u); // 2^10 .. 2^28
    EXPECT_EQ(lines[0].points.back().first, uint64_t(1) << 28);
    const auto changed = std::find_if(lines[0].points.begin(), lines[0].points.end(),
                                      [&](const auto& p) { return p.first == copy[0]["n"].get<uint64_t>(); });
    ASSERT_NE(changed, lines[0].points.end());
    EXPECT_DOUBLE_EQ(changed->second, 0.5);
    // Every point of the second sweep is the copy's now.
    EXPECT_EQ(lines[0].files, (std::vector<std::string>{results + "sweep-os-2e10-2e24.json", dir + "/copy.json"}));

    // Refused, each with the file and what is wrong; what was loaded stays.
    std::ofstream(dir + "/text.json") << "not json\n";
    std::ofstream(dir + "/object.json") << "{\"algo\": \"onesweep\"}\n";
    std::ofstream(dir + "/fields.json") << "[{\"algo\": \"onesweep\"}]\n";
    std::ofstream(dir + "/lines.json") << copy[0].dump() << "\n" << copy[1].dump() << "\n";
    std::ofstream(dir + "/none.json") << "[]\n";
    for (const auto& [file, why] : std::vector<std::pair<std::string, std::string>>{
             {dir + "/no-such.json", "no such file"},
             {dir + "/text.json", "not JSON: parse error at line 1"},
             {dir + "/object.json", "a JSON object, not an array of results"},
             {dir + "/fields.json", "result 0: no \"variant\""},
             {dir + "/lines.json", "JSON lines"},
             {dir + "/none.json", "no results"},
             {dir, "a directory"}}) {
        auto r = loaded.load(file);
        ASSERT_FALSE(r.ok()) << file;
        EXPECT_EQ(r.error().message.rfind(file + ": ", 0), 0u) << r.error().message;
        EXPECT_NE(r.error().message.find(why), std::string::npos) << r.error().message;
        EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
        EXPECT_EQ(loaded.rows().size(), both);
    }
    loaded.clear();
    EXPECT_TRUE(loaded.empty());
    EXPECT_TRUE(loaded.rows().empty());
}

// --load-results reads its files before any window: a file that does not load is the usage error.
TEST(AppLoadedResults, CommandLine) {
    const std::string file =
        std::string(SORTLAB_SOURCE_DIR) + "/docs/results/2026-11-23-h100/final4/sweep-os-2e10-2e24.json";
    std::vector<std::string> args = {"sortlab", "--load-results", file, file};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    bool exitNow = false;
    auto o = parseOptions(int(argv.size()), argv.data(), &exitNow);
    ASSERT_TRUE(o.ok()) << o.error().message;
    EXPECT_EQ(o->loaded.rows().size(), 30u);
    args = {"sortlab", "--load-results", file, "/no/such/results.json"};
    argv.clear();
    for (std::string& a : args) argv.push_back(a.data());
    auto bad = parseOptions(int(argv.size()), argv.data(), &exitNow);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, "/no/such/results.json: no such file");
    const std::string script = testing::TempDir() + "/load.script";
    std::ofstream(script) << "load-results " << file << "\nload-results\n";
    auto a = readScript(script);
    ASSERT_FALSE(a.ok()); // the verb needs a file
    EXPECT_NE(a.error().message.find(":2: 'load-results' needs a value"), std::string::npos) << a.error().message;
}

} // namespace
} // namespace sortlab::app

// Lessons (app/core/lesson.cpp): the built-in ones read, with at least 10 stops and a question
// each; malformed lessons are refused with the line and what was expected; settings add up stop
// by stop, and a new input starts at step 0 unless the stop says otherwise.
TEST(AppLessons, BuiltInLessonsRead) {
    const auto lessons = sortlab::app::builtinLessons();
    ASSERT_GE(lessons.size(), 3u);
    for (const auto& [name, title] : lessons) {
        auto l = sortlab::app::loadLesson(name);
        ASSERT_TRUE(l.ok()) << l.error().message;
        EXPECT_GE(l->stops.size(), 10u) << name;
        EXPECT_LE(l->stops.size(), 20u) << name;
        EXPECT_TRUE(std::any_of(l->stops.begin(), l->stops.end(), [](const auto& s) { return s.question.has_value(); }))
            << name;
        EXPECT_EQ(l->title, title);
    }
}

TEST(AppLessons, MalformedLessonsNameTheLine) {
    using sortlab::app::parseLesson;
    const std::pair<const char*, const char*> cases[] = {
        {"", "t.lesson:0: empty lesson"},
        {"Hello\n", "t.lesson:1: expected the lesson's title"},
        {"# T\ntext\n", "t.lesson:2: expected a stop"},
        {"# T\n", "t.lesson:1: a lesson needs at least one stop"},
        {"# T\n## S\n@sort bubble\n", "t.lesson:3: @sort: --algo 'bubble'"},
        {"# T\n## S\n@highlight comparator 3\n", "t.lesson:3: @highlight takes key, layer"},
        {"# T\n## S\n@ask where\n", "t.lesson:3: @ask where needs a number"},
        {"# T\n## S\n@ask swaps\n", "t.lesson:3: @ask swaps: write the question"},
        {"# T\n## S\n@step soon\n", "t.lesson:3: @step takes a step number or end"},
        {"# T\n## S\n\n@keys 1, two\n", "t.lesson:4: @keys: keys:1:4: 'two' is not a u32 key"},
        {"# T\n## S\n# U\n", "t.lesson:3: a second '# ' title"},
        // Stops that cannot work, refused when the lesson is read (at the directive's line).
        {"# T\n## S\n@keys 3, 1, 2\n@values u32\n@ask where 99 Where?\n",
         "t.lesson:5: @ask where 99: no key at index 99"},
        {"# T\n## S\n@keys 3, 1, 2\n@ask where 1 Where?\n",
         "t.lesson:4: @ask where 1: 'where' follows a key by its value"},
        {"# T\n## S\n@sort onesweep\n@tile 3\n", "t.lesson:4: @tile: --tile-keys '3': use auto"},
        {"# T\n## S\n@sort radix4\n@ask count 16 How many?\n", "t.lesson:4: @ask count 16: digits go to 15"},
        {"# T\n## S\n@sort radix4\n@ask swaps How many?\n", "t.lesson:4: @ask swaps: only a network layer swaps"},
        {"# T\n## S\n@keys 3, 1\n@highlight key 5\n", "t.lesson:4: @highlight key 5: there are 2 keys"},
        {"# T\n@recording\n## S\n", "t.lesson:2: @recording needs a file"},
        // @subject: a part of a view that exists, and that the stop's sort draws.
        {"# T\n## S\n@subject\n", "t.lesson:3: @subject takes array, network"},
        {"# T\n## S\n@subject histogram table\n", "t.lesson:3: @subject 'table': use array"},
        {"# T\n## S\n@subject array\n@subject network\n", "t.lesson:4: one @subject line a stop"},
        {"# T\n## S\n@sort radix4\n@subject network\n", "t.lesson:4: @subject network: only the odd-even"},
        {"# T\n## S\n@sort oddeven-layer\n@subject counts\n", "t.lesson:4: @subject counts: only radix4"},
        {"# T\n## S\n@sort onesweep\n@lookback-log off\n@subject replay\n",
         "t.lesson:5: @subject replay: only OneSweep with @lookback-log on"},
    };
    for (const auto& [text, want] : cases) {
        auto l = parseLesson(text, "t.lesson", "t");
        ASSERT_FALSE(l.ok()) << text;
        EXPECT_EQ(l.error().message.rfind(want, 0), 0u) << l.error().message;
    }
}

// A stop's subjects: as written, or inferred from its highlight and question (before and after
// the answer).
TEST(AppLessons, SubjectsWrittenOrInferred) {
    using namespace sortlab::app;
    auto l =
        parseLesson("# T\n## A\n@sort radix4\n@keys 3, 1, 2\n@values u32\n@tile 4\n@subject workgroup-offsets offsets\n"
                    "## B\n@highlight workgroup 0\n## C\n@ask count 1 How many?\n## D\n@ask where 1 Where?\n",
                    "t.lesson", "t");
    ASSERT_TRUE(l.ok()) << l.error().message;
    auto bit = [](SubjectKind k) { return uint32_t(1) << unsigned(k); };
    const auto radix = sortlab::Algorithm::radix4;
    EXPECT_EQ(lessonSubjects(l->stops[0], radix, false),
              bit(SubjectKind::workgroupOffsets) | bit(SubjectKind::offsets));
    EXPECT_EQ(lessonSubjects(l->stops[1], radix, false), bit(SubjectKind::counts));
    EXPECT_EQ(lessonSubjects(l->stops[2], radix, false), 0u);
    EXPECT_EQ(lessonSubjects(l->stops[2], radix, true), bit(SubjectKind::counts));
    EXPECT_EQ(lessonSubjects(l->stops[3], radix, true), bit(SubjectKind::offsets) | bit(SubjectKind::workgroupOffsets));
    EXPECT_EQ(l->stops[0].subjectLine, 7);
}

// The network layers a stop names: its highlight, @subject network (all of them), and "layer N",
// lists, ranges and "the last K layers" in its title, text and question; nothing else.
TEST(AppLessons, LayersAStopNames) {
    using namespace sortlab::app;
    auto l = parseLesson("# T\n## Layer 1: pairs\n@sort oddeven-layer\n@keys 3, 1, 2, 9, 4\n@highlight layer 3\n"
                         "Those with 11 (layer 2) and 10 (layers 6 and 10); layers 7 to 8.\n"
                         "## B\nThe last four layers merge; ten layers in all, 4 layers of 2.\n"
                         "## C\n@subject network\nAll of it.\n"
                         "## D\n@ask swaps How many of layer 9's comparators swap? Layer 99 is not one.\n",
                         "t.lesson", "t");
    ASSERT_TRUE(l.ok()) << l.error().message;
    using V = std::vector<uint32_t>;
    EXPECT_EQ(lessonLayers(l->stops[0], 10), (V{0, 1, 2, 5, 6, 7, 9}));
    EXPECT_EQ(lessonLayers(l->stops[1], 10), (V{6, 7, 8, 9}));
    EXPECT_EQ(lessonLayers(l->stops[2], 6), (V{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(lessonLayers(l->stops[3], 10), (V{8}));
    EXPECT_EQ(lessonLayers(l->stops[3], 6), V{});
}

// @recording lines belong to the lesson (before or inside a stop), and a relative name is found
// beside the lesson file.
TEST(AppLessons, RecordingLinesAndWhereTheirFilesAreFound) {
    auto l =
        sortlab::app::parseLesson("# T\n@recording a.slrec\n## S\nText.\n@recording  sub/b.slrec \n", "t.lesson", "t");
    ASSERT_TRUE(l.ok()) << l.error().message;
    ASSERT_EQ(l->recordings.size(), 2u);
    EXPECT_EQ(l->recordings[0], (std::pair<std::string, int>{"a.slrec", 2}));
    EXPECT_EQ(l->recordings[1], (std::pair<std::string, int>{"sub/b.slrec", 5}));
    EXPECT_EQ(l->stops.size(), 1u);
    EXPECT_EQ(l->stops[0].narration, "Text.");
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    const auto dir = std::filesystem::temp_directory_path() / ("sortlab-unit-rec-" + std::to_string(stamp));
    std::filesystem::create_directories(dir / "sub");
    std::ofstream(dir / "sub" / "b.slrec") << "x";
    std::ofstream(dir / "t.lesson") << "# T\n@recording sub/b.slrec\n## S\nText.\n";
    auto file = sortlab::app::loadLesson((dir / "t.lesson").string());
    ASSERT_TRUE(file.ok()) << file.error().message;
    EXPECT_EQ(file->dir, dir.string());
    EXPECT_EQ(sortlab::app::findRecording("sub/b.slrec", file->dir), (dir / "sub" / "b.slrec").string());
    EXPECT_EQ(sortlab::app::findRecording("sub/none.slrec", file->dir), "");
    std::filesystem::remove_all(dir);
}

TEST(AppLessons, StateAddsUpStopByStop) {
    auto l =
        sortlab::app::parseLesson("# T\n## A\n@sort radix4\n@keys 3, 1, 2\n@step 2\nOne.\n\nTwo.\n## B\n@ask count 1 "
                                  "How many?\n## C\n@n 40\n## D\n@step end\n",
                                  "t.lesson", "t");
    ASSERT_TRUE(l.ok()) << l.error().message;
    ASSERT_EQ(l->stops.size(), 4u);
    EXPECT_EQ(l->stops[0].narration, "One.\n\nTwo.");
    EXPECT_EQ(l->stops[1].question->arg, 1u);
    EXPECT_EQ(l->stops[1].question->text, "How many?");
    auto b = sortlab::app::settingsAt(*l, 1, {});
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b->n, 3u);
    EXPECT_EQ(b->algo, sortlab::Variant::radix4);
    auto c = sortlab::app::settingsAt(*l, 2, {});
    ASSERT_TRUE(c.ok());
    EXPECT_EQ(c->n, 40u);
    EXPECT_EQ(sortlab::app::stepAt(*l, 0, 25), 2u);
    EXPECT_EQ(sortlab::app::stepAt(*l, 1, 25), 2u); // no step, no new input: where stop A left it
    EXPECT_EQ(sortlab::app::stepAt(*l, 2, 25), 0u); // a new input starts at its beginning
    EXPECT_EQ(sortlab::app::stepAt(*l, 3, 25), 25u);
}

// The feedback's verdicts: right, wrong with the mistake its number fits (the first of several), or another
// wrong number with what holds for any; impossible below and above what can be, with why; and a
// prediction that cannot happen.
TEST(AppLessons, FeedbackNamesTheMistakeOrWhyImpossible) {
    using namespace sortlab::app;
    Answer a;
    a.value = 3;
    a.how = "How.";
    a.least = 1, a.most = 9;
    a.belowLeast = "below";
    a.aboveMost = "above";
    a.slips = {{4, "Four A."}, {4, "Four B."}, {4, "Four C."}, {12, "Twelve."}, {7, "Seven alone.", true},
               {7, "Seven."}};
    a.otherwise = "Any.";
    const Question q{QuestionKind::where, 0, "?", 1};
    EXPECT_EQ(feedbackText(q, 3, a), "Right: 3. How.");
    EXPECT_EQ(feedbackText(q, 4, a), "Not this time: you said 4. Four A. Or: Four B. The answer is 3. How.");
    EXPECT_EQ(feedbackText(q, 7, a), "Not this time: you said 7. Seven alone. The answer is 3. How.");
    EXPECT_EQ(feedbackText(q, 5, a), "Not this time: you said 5. Any. The answer is 3. How.");
    EXPECT_EQ(feedbackText(q, 0, a), "Impossible: you said 0, but below. The answer is 3. How.");
    EXPECT_EQ(feedbackText(q, -1, a), "Impossible: you said -1, but below. The answer is 3. How.");
    EXPECT_EQ(feedbackText(q, 12, a), "Impossible: you said 12, but above. Twelve. The answer is 3. How.");
    EXPECT_EQ(feedbackText(q, std::nullopt, a), "The answer is 3. How.");
    const Question p{QuestionKind::depth, 5, "?", 1};
    EXPECT_EQ(feedbackText(p, 4, a), "You predicted 4. How.");
    EXPECT_EQ(feedbackText(p, 10, a), "You predicted 10, which cannot happen: above. How.");
}

// The GPU times the app quotes beside a CPU driver's (app/core/measured.cpp) are the medians of the
// files in docs/results they name: a row of that variant, device and n, u32 random keys, no values
// (and of that build, where the file names builds).
TEST(AppMeasured, EveryQuotedTimeIsInItsResultsFile) {
    using nlohmann::json;
    const auto& times = sortlab::app::measuredTimes();
    ASSERT_FALSE(times.empty());
    for (const auto& t : times) {
        const std::string path = std::string(SORTLAB_SOURCE_DIR) + "/docs/results/" + std::string(t.file);
        std::ifstream in(path);
        ASSERT_TRUE(in) << path;
        json rows = json::parse(in);
        if (rows.is_object()) rows = rows["rows"];
        bool found = false;
        for (const json& r : rows)
            if (r.value("algo", "") == t.variant && r.value("device", "") == t.device && r.value("n", 0ull) == t.n &&
                r.value("type", "") == "u32" && r.value("values", "") == "none" && r.value("dist", "") == "uniform" &&
                (t.build.empty() || r.value("build", "") == t.build)) {
                EXPECT_NEAR(r["median_ms"].get<double>(), t.medianMs, 0.0005) << path;
                found = true;
            }
        EXPECT_TRUE(found) << t.variant << " on " << t.device << " is not in " << path;
    }
    EXPECT_NE(sortlab::app::measuredLine(sortlab::Variant::onesweep, 1u << 20).find("H100"), std::string::npos);
    EXPECT_EQ(sortlab::app::measuredLine(sortlab::Variant::onesweep, 1000), "");
}

// The cells of a markdown table row, trimmed ("| a | b |" -> a, b).
static std::vector<std::string> tableCells(const std::string& row) {
    std::vector<std::string> cells;
    size_t at = row.find('|');
    while (at != std::string::npos) {
        const size_t next = row.find('|', at + 1);
        if (next == std::string::npos) break;
        std::string cell = row.substr(at + 1, next - at - 1);
        cell.erase(0, cell.find_first_not_of(' '));
        cell.erase(cell.find_last_not_of(' ') + 1);
        cells.push_back(cell);
        at = next;
    }
    return cells;
}

// docs/lessons.md's table of the GPU times the lessons' last stops show: each cell is the app's
// figure (measured.cpp) as the app prints it (measuredLine, "%.3f ms"), and the median of a row of
// the results file the app names for it, printed the same way, so the docs and the app cannot quote
// two numbers; and every built-in lesson whose last stop shows GPU times has its row.
TEST(AppMeasured, LessonsDocQuotesTheResultsFiles) {
    using namespace sortlab;
    using namespace sortlab::app;
    using nlohmann::json;
    std::ifstream doc(std::string(SORTLAB_SOURCE_DIR) + "/docs/lessons.md");
    ASSERT_TRUE(doc);
    std::vector<std::string> devices;
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(doc, line);) {
        if (line.rfind("| last stop's sort |", 0) == 0) {
            devices = tableCells(line);
            devices.erase(devices.begin());
        } else if (!devices.empty() && line.rfind("| `", 0) == 0) {
            rows.push_back(tableCells(line));
        } else if (!devices.empty() && line.rfind("|", 0) != 0) {
            break; // the end of the table
        }
    }
    ASSERT_FALSE(devices.empty()) << "docs/lessons.md has no '| last stop's sort |' table";
    ASSERT_FALSE(rows.empty());
    const uint64_t n = 1u << 20;
    std::vector<std::string> quoted;
    for (const auto& row : rows) {
        ASSERT_EQ(row.size(), devices.size() + 1) << row[0];
        const std::string variant = row[0].substr(1, row[0].size() - 2); // `name`
        quoted.push_back(variant);
        for (size_t d = 0; d < devices.size(); ++d) {
            const auto& times = measuredTimes();
            const auto t = std::find_if(times.begin(), times.end(), [&](const MeasuredTime& m) {
                return m.variant == variant && m.device == devices[d] && m.n == n;
            });
            ASSERT_NE(t, times.end()) << "the app quotes no time for " << variant << " on " << devices[d];
            const std::string path = std::string(SORTLAB_SOURCE_DIR) + "/docs/results/" + std::string(t->file);
            std::ifstream in(path);
            ASSERT_TRUE(in) << path;
            json results = json::parse(in);
            if (results.is_object()) results = results["rows"];
            std::vector<double> medians;
            for (const json& r : results)
                if (r.value("algo", "") == variant && r.value("device", "") == devices[d] && r.value("n", 0ull) == n &&
                    r.value("type", "") == "u32" && r.value("values", "") == "none" &&
                    r.value("dist", "") == "uniform" && (t->build.empty() || r.value("build", "") == t->build))
                    medians.push_back(r["median_ms"].get<double>());
            ASSERT_FALSE(medians.empty()) << variant << " on " << devices[d] << " in " << path;
            // A file may hold repeated runs of one build: the figure must be one of them.
            std::vector<std::string> inFile;
            for (double m : medians) {
                char file[32];
                std::snprintf(file, sizeof file, "%.3f ms", m);
                inFile.push_back(file);
            }
            char app[32];
            std::snprintf(app, sizeof app, "%.3f ms", t->medianMs);
            EXPECT_NE(std::find(inFile.begin(), inFile.end(), row[d + 1]), inFile.end())
                << variant << " on " << devices[d] << ": docs/lessons.md says " << row[d + 1] << ", no row of " << path
                << " has that median";
            EXPECT_EQ(row[d + 1], app) << variant << " on " << devices[d] << ": docs/lessons.md against measured.cpp";
        }
    }
    for (const auto& [name, title] : builtinLessons()) {
        auto l = loadLesson(name);
        ASSERT_TRUE(l.ok()) << l.error().message;
        auto s = settingsAt(*l, l->stops.size() - 1, {});
        ASSERT_TRUE(s.ok()) << s.error().message;
        const std::string variant(variantInfo(s->algo).name);
        if (measuredLine(s->algo, s->n).empty() || s->key != KeyType::u32 || s->keyValue ||
            s->dist != Distribution::uniform)
            continue; // the stop shows no GPU times
        EXPECT_EQ(s->n, n) << name;
        EXPECT_NE(std::find(quoted.begin(), quoted.end(), variant), quoted.end())
            << "docs/lessons.md's table has no row for " << variant << ", the last stop of " << name;
    }
}
