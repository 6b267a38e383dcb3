// sortlab-bench's own code, host only (no Vulkan device): the CSV export, the runner's progress and
// cancellation on the CPU baseline, and the options it parses.
#include <sortlab/bench/algos.h>
#include <sortlab/bench/cases.h>
#include <sortlab/bench/cli.h>
#include <sortlab/bench/errors.h>
#include <sortlab/bench/report.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace sortlab::bench;
using Json = nlohmann::ordered_json;

TEST(BenchReport, CsvQuotesCellsAndFlattensArrays) {
    Json rows = Json::array({Json{{"algo", "radix4"},
                                  {"variant", "a, \"quoted\" one"},
                                  {"type", "u32"},
                                  {"values", "none"},
                                  {"order", "asc"},
                                  {"n", 1024},
                                  {"dist", "uniform"}}});
    rows[0]["rep_ms"] = Json::array({0.5, 0.25});
    rows[0]["step_ms"] =
        Json::array({Json{{"step", 1}, {"label", "merge 8, stride 2"}, {"kind", "layer"}, {"median_ms", 0.5}}});
    const std::string csv = csvFromJson(rows);
    const std::string header = csv.substr(0, csv.find("\r\n"));
    EXPECT_EQ(header.rfind("algo,variant,type,values,order,n,dist", 0), 0u);
    EXPECT_NE(csv.find("\"a, \"\"quoted\"\" one\""), std::string::npos);
    EXPECT_NE(csv.find("0.5;0.25"), std::string::npos);
    EXPECT_NE(csv.find("\"merge 8, stride 2=0.5\""), std::string::npos);
}

TEST(BenchRunner, ProgressCaseRowsAndCancelOnTheCpuBaseline) {
    Options o =
        parseBenchOptions({"--algo", "std", "--sizes", "2^8..2^10", "--reps", "2", "--warmup-ms", "0", "--check"});
    ASSERT_EQ(o.sizes.size(), 3u);
    std::vector<CaseResult> rows;
    std::vector<RunProgress> seen;
    RunHooks hooks;
    hooks.caseDone = [&](const std::vector<CaseResult>& r) { rows.insert(rows.end(), r.begin(), r.end()); };
    hooks.progress = [&](const RunProgress& p) { seen.push_back(p); };
    Runner runner(o, nullptr, hooks, nullptr);
    runner.run();
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[2].spec.n, 1024u);
    EXPECT_EQ(rows[0].check, "pass");
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.back().unitsTotal, 3u);
    EXPECT_DOUBLE_EQ(seen.back().weightTotal, unitWeight(256) + unitWeight(512) + unitWeight(1024));
    for (size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i].fraction(), seen[i - 1].fraction());

    // Cancelled after the first case: RunCancelled, and only that case's rows were handed over.
    rows.clear();
    int polls = 0;
    hooks.cancelled = [&] { return !rows.empty() && ++polls > 0; };
    Runner again(o, nullptr, hooks, nullptr);
    EXPECT_THROW(again.run(), RunCancelled);
    EXPECT_EQ(rows.size(), 1u);
}

TEST(BenchRunner, ParseBenchOptionsRejectsWhatTheCommandLineRejects) {
    EXPECT_THROW((void)parseBenchOptions({"--algo", "bubble"}), BenchError);
    EXPECT_THROW((void)parseBenchOptions({"--sizes", "2^20..2^10"}), BenchError);
    EXPECT_THROW((void)parseBenchOptions({"--warmup-ms", "-1"}), BenchError);
    Options o = parseBenchOptions({"--algo", "oddeven,onesweep-fallback", "--type", "f32", "--values", "u32",
                                   "--bandwidth", "4100", "--plot-n", "2^20"});
    ASSERT_EQ(o.algos.size(), 2u);
    EXPECT_EQ(o.algos[1]->name, "onesweep-fallback");
    EXPECT_EQ(o.types[0], sortlab::KeyType::f32);
    EXPECT_DOUBLE_EQ(o.bandwidthGBs, 4100);
    EXPECT_EQ(o.plotN, uint64_t(1) << 20);
}
