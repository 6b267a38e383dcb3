// Lessons out of range are refused when they are read: the checks against the plan (steps, layers,
// tiles, passes), one mistake at a time, and a fuzz of generated lessons (lesson_fuzz.h) in which
// each is either refused with its file and line or, by an oracle written here from the algorithms'
// step counts (not the app's or the library's code), can run to its end. (app_lesson_fuzz_run then
// runs some of the accepted ones in the app.)
#include "lesson_fuzz.h"

#include <sortlab/app/lesson.h>
#include <sortlab/app/options.h>

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

namespace {

using sortlab::app::parseLesson;

TEST(AppLessonRanges, OutOfRangeRefusedAtTheirLine) {
    const std::pair<const char*, const char*> cases[] = {
        {"# T\n## S\n@keys 3, 1, 2, 5, 4, 0, 7, 6\n@highlight layer 9\n",
         "t.lesson:4: @highlight layer 9: the network for 8 keys has 6 layers (1..6)"},
        {"# T\n## S\n@keys 3, 1, 2\n@highlight layer 0\n",
         "t.lesson:4: @highlight layer 0: the network for 3 keys has 3"},
        {"# T\n## S\n@keys 3, 1, 2\n@step 99\n", "t.lesson:4: @step 99: the plan has 3 steps"},
        {"# T\n## S\n@sort radix4\n@keys 3, 1, 2\n@step 26\n", "t.lesson:5: @step 26: the plan has 25 steps"},
        {"# T\n## S\n@sort onesweep\n@keys 3, 1, 2\n@step 8\n", "t.lesson:5: @step 8: the plan has 7 steps"},
        {"# T\n## S\n@sort oddeven\n@keys 3, 1, 2\n@step 1\n", "t.lesson:5: @step 1: the fused network's steps depend"},
        {"# T\n## S\n@keys 3, 1, 2\n@step 99\n@ask swaps How many?\n", "t.lesson:4: @step 99: the plan has 3 steps"},
        {"# T\n## S\n@keys 3, 1, 2\n@step end\n@ask swaps How many?\n",
         "t.lesson:5: @ask swaps: a question is about the next step, and the stop shows the last (step 3 of 3)"},
        {"# T\n## S\n@keys 3, 1, 2\n@step 3\n## U\n@ask swaps How many?\n",
         "t.lesson:6: @ask swaps: a question is about the next step"},
        {"# T\n## S\n@sort radix4\n@keys 3, 1, 2\n@step 24\n@ask count 1 How many?\n",
         "t.lesson:6: @ask count 1: the next step copies the result"},
        {"# T\n## S\n@sort radix4\n@keys 3, 1, 2, 5, 4\n@tile 4\n@highlight workgroup 2\n",
         "t.lesson:6: @highlight workgroup 2: 5 keys in 4-key tiles make 2 (0..1)"},
        {"# T\n## S\n@sort radix4\n@keys 3, 1, 2\n@tile 0\n@highlight workgroup 0\n",
         "t.lesson:6: @highlight workgroup 0: with the tuned tile"},
        {"# T\n## S\n@keys 3, 1, 2\n@highlight workgroup 0\n",
         "t.lesson:4: @highlight workgroup 0: only the radix sorts'"},
        {"# T\n## S\n@sort radix4\n@keys 3, 1, 2\n@highlight tile 0\n",
         "t.lesson:5: @highlight tile 0: only OneSweep's"},
        {"# T\n## S\n@sort onesweep\n@n 64\n@tile 8\n@lookback-log on\n@highlight tile 8\n",
         "t.lesson:7: @highlight tile 8: 64 keys in 8-key tiles make 8 (0..7)"},
        {"# T\n## S\n@sort onesweep\n@n 64\n@tile 8\n@lookback-log on\n@step 3\n@ask depth 9 How far?\n",
         "t.lesson:8: @ask depth 9: 64 keys in 8-key tiles make 8"},
        {"# T\n## S\n@sort onesweep\n@n 64\n@tile 8\n@lookback-log on\n@step 3\n@ask depth 0 How far?\n",
         "t.lesson:8: @ask depth 0: tile 0 never looks back (tiles 1..7 do)"},
        {"# T\n## S\n@sort onesweep\n@n 64\n@tile 8\n@lookback-log on\n@step 2\n@ask depth 3 How far?\n",
         "t.lesson:8: @ask depth 3: the stop must show a OneSweep pass (step 2 is not one)"},
        // Keys below 100: pass 1 (bits 8..15) sees digit 0 in every key, so the GPU skips it.
        {"# T\n## S\n@sort onesweep\n@n 64\n@tile 8\n@lookback-log on\n@step 4\n@ask depth 3 How far?\n",
         "t.lesson:8: @ask depth 3: every key has the same digit in pass 1"},
    };
    for (const auto& [text, want] : cases) {
        auto l = parseLesson(text, "t.lesson", "t");
        ASSERT_FALSE(l.ok()) << text;
        EXPECT_EQ(l.error().message.rfind(want, 0), 0u) << l.error().message << "\nwanted: " << want;
    }
    // In range: the same lessons' stops that work.
    const char* fine[] = {
        "# T\n## S\n@keys 3, 1, 2, 5, 4, 0, 7, 6\n@highlight layer 6\n@step 5\n@ask swaps How many?\n",
        "# T\n## S\n@sort radix4\n@keys 3, 1, 2\n@step 23\n@ask count 1 How many?\n",
        "# T\n## S\n@sort radix4\n@keys 3, 1, 2, 5, 4\n@tile 4\n@highlight workgroup 1\n@step 0x19\n",
        "# T\n## S\n@sort oddeven\n@keys 3, 1, 2\n@step 0\n@ask swaps How many?\n",
        "# T\n## S\n@sort onesweep\n@n 64\n@tile 8\n@lookback-log on\n@step 3\n@ask depth 7 How far?\n",
    };
    for (const char* text : fine) {
        auto l = parseLesson(text, "t.lesson", "t");
        EXPECT_TRUE(l.ok()) << text << "\n" << (l.ok() ? "" : l.error().message);
    }
}

// The oracle: what a stop needs to run to its end, from the algorithms' definitions.
uint32_t log2Ceil(uint64_t n) {
    uint32_t l = 0;
    while ((uint64_t(1) << l) < n) ++l;
    return l;
}
uint32_t bitsOf(sortlab::KeyType t) {
    return sortlab::keyBytes(t) * 8;
}
// The plan's steps, or -1 where the device decides (the fused network).
int64_t stepsOf(const sortlab::app::SortSettings& s) {
    const uint32_t L = log2Ceil(s.n);
    switch (s.algo) {
    case sortlab::Variant::oddevenLayer:
        return L * (L + 1) / 2; // one step a layer
    case sortlab::Variant::oddeven:
        return -1;
    case sortlab::Variant::radix4:
        return 3 * (bitsOf(s.key) / 4) + 1; // count, scan, scatter a pass; the result
    default:
        return 2 + bitsOf(s.key) / 8 + 1; // histogram, scan, the passes; the result
    }
}

// Why the accepted lesson could not run to its end, or "".
std::string cannotRun(const sortlab::app::Lesson& l) {
    using namespace sortlab::app;
    for (size_t i = 0; i < l.stops.size(); ++i) {
        const LessonStop& st = l.stops[i];
        auto s = settingsAt(l, i, {});
        if (!s) return "settings: " + s.error().message;
        const int64_t steps = stepsOf(*s);
        const std::string at = "stop " + std::to_string(i + 1) + ": ";
        if (!st.step.empty() && st.step != "end") {
            const uint64_t k = std::stoull(st.step, nullptr, 0);
            if (steps < 0 ? k != 0 : int64_t(k) > steps) return at + "step " + st.step + " past the plan";
        }
        const size_t shown = stepAt(l, i, steps < 0 ? SIZE_MAX : size_t(steps));
        const uint64_t tile = s->effectiveTileKeys(), tiles = tile ? (s->n + tile - 1) / tile : 0;
        const Highlight& h = st.highlight;
        const uint32_t L = log2Ceil(s->n);
        if (h.kind == HighlightKind::layer && (h.index < 1 || h.index > L * (L + 1) / 2)) return at + "no such layer";
        if ((h.kind == HighlightKind::workgroup || h.kind == HighlightKind::tile) && h.index >= tiles)
            return at + "no such tile";
        if (h.kind == HighlightKind::key && h.index >= s->n) return at + "no such key";
        if (!st.question) continue;
        const Question& q = *st.question;
        if (q.kind == QuestionKind::depth) {
            const bool onesweepPass =
                s->algorithm() == sortlab::Algorithm::onesweep && shown >= 3 && int64_t(shown) <= steps - 1;
            if (!onesweepPass || q.arg == 0 || q.arg >= tiles) return at + "no walk to replay";
            continue;
        }
        if (steps < 0 ? (shown != 0 || s->n < 2) : int64_t(shown) >= steps) return at + "no step after the question";
        if (q.kind == QuestionKind::count && int64_t(shown) == steps - 1) return at + "count on the result step";
        if (q.kind == QuestionKind::where && (q.arg >= s->n || !s->keyValue)) return at + "no key to follow";
    }
    return {};
}

TEST(AppLessonFuzz, EveryLessonRefusedAtItsLineOrRunnable) {
    const int kLessons = 400;
    int accepted = 0, refused = 0;
    for (int seed = 1; seed <= kLessons; ++seed) {
        const std::string text = sortlab::test::fuzzLesson(seed), file = "f" + std::to_string(seed) + ".lesson";
        auto l = parseLesson(text, file, file);
        if (!l) {
            ++refused;
            std::smatch m;
            const std::string& msg = l.error().message;
            ASSERT_TRUE(std::regex_search(msg, m, std::regex("^" + file + ":([0-9]+): \\S"))) << msg;
            const int line = std::stoi(m[1]);
            std::istringstream in(text);
            std::string row;
            for (int k = 0; k < line; ++k) std::getline(in, row);
            EXPECT_TRUE(row.rfind("@", 0) == 0 || row.rfind("## ", 0) == 0) << msg << "\nline: " << row << "\n" << text;
            continue;
        }
        ++accepted;
        EXPECT_EQ(cannotRun(*l), "") << text;
    }
    // Both outcomes are exercised, not one alone.
    EXPECT_GE(accepted, kLessons / 8) << accepted << " accepted, " << refused << " refused";
    EXPECT_GE(refused, kLessons / 8) << accepted << " accepted, " << refused << " refused";
}

} // namespace
