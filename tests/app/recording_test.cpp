// Recordings (app/core/recording.cpp) on the test device: a run recorded, written and read back is
// the same run, snapshot by snapshot (every byte of the keys, values and aux buffers, the lookback
// log included), and its plan the same plan; it matches its own settings and no others; and a file
// cut short anywhere, or with a damaged header, metadata or payload, is refused with one line that
// names the file and an offset, before anything of it is used.
#include <sortlab/app/recording.h>
#include <sortlab/app/options.h>
#include <sortlab/app/sort_worker.h>

#include <sortlab/testing/gpu_env.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace sortlab::app {
namespace {

class RecordingTest : public test::GpuTest {};

SortSettings settingsOf(std::initializer_list<std::pair<const char*, const char*>> kv) {
    SortSettings s;
    for (auto [k, v] : kv) EXPECT_TRUE(applySetting(s, k, v).ok()) << k << " " << v;
    return s;
}

std::vector<std::byte> fileBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> c((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> b(c.size());
    std::memcpy(b.data(), c.data(), c.size());
    return b;
}

void expectSameSnapshot(const Snapshot& a, const Snapshot& b, size_t k) {
    EXPECT_EQ(a.stepsDone, b.stepsDone) << "snapshot " << k;
    EXPECT_EQ(a.label, b.label) << "snapshot " << k;
    EXPECT_EQ(a.keys, b.keys) << "snapshot " << k;
    EXPECT_EQ(a.values, b.values) << "snapshot " << k;
    ASSERT_EQ(a.aux.size(), b.aux.size()) << "snapshot " << k;
    for (size_t i = 0; i < a.aux.size(); ++i) {
        EXPECT_EQ(a.aux[i].kind, b.aux[i].kind) << "snapshot " << k;
        EXPECT_EQ(a.aux[i].shape, b.aux[i].shape) << "snapshot " << k << " " << auxKindName(a.aux[i].kind);
        EXPECT_EQ(a.aux[i].data, b.aux[i].data) << "snapshot " << k << " " << auxKindName(a.aux[i].kind);
    }
}

void expectSamePlan(const Plan& a, const Plan& b) {
    EXPECT_EQ(a.algorithm, b.algorithm);
    EXPECT_EQ(a.n, b.n);
    EXPECT_EQ(a.tileKeys, b.tileKeys);
    EXPECT_EQ(a.scratchBytes, b.scratchBytes);
    EXPECT_TRUE(a.config.knobs == b.config.knobs);
    ASSERT_EQ(a.steps.size(), b.steps.size());
    for (size_t i = 0; i < a.steps.size(); ++i) {
        EXPECT_EQ(a.steps[i].label, b.steps[i].label);
        EXPECT_EQ(a.steps[i].kind, b.steps[i].kind);
        EXPECT_EQ(a.steps[i].workgroups, b.steps[i].workgroups);
        EXPECT_EQ(a.steps[i].firstLayer, b.steps[i].firstLayer);
        EXPECT_EQ(a.steps[i].layerCount, b.steps[i].layerCount);
        EXPECT_EQ(a.steps[i].bitLo, b.steps[i].bitLo);
        EXPECT_EQ(a.steps[i].bitHi, b.steps[i].bitHi);
        EXPECT_TRUE(a.steps[i].keysAfter == b.steps[i].keysAfter);
    }
}

std::string tempFile(const std::string& name) {
    return (std::filesystem::temp_directory_path() /
            ("sortlab-rec-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + "-" + name))
        .string();
}

// Each lesson's first input, and OneSweep's with forced fallback: written, read back, the same.
TEST_F(RecordingTest, RoundTripIsTheSameRun) {
    const std::vector<SortSettings> runs = {
        settingsOf({{"algo", "oddeven-layer"}, {"keys", "10, 25, 39, 92, 1, 5, 68, 23, 21, 10"}, {"values", "u32"}}),
        settingsOf({{"algo", "radix4"},
                    {"keys", "10, 25, 39, 92, 1, 5, 68, 23, 21, 10"},
                    {"values", "u32"},
                    {"tile-keys", "4"}}),
        settingsOf({{"algo", "onesweep"},
                    {"n", "64"},
                    {"dist", "small"},
                    {"values", "u32"},
                    {"tile-keys", "8"},
                    {"lookback-log", "on"}}),
        settingsOf({{"algo", "onesweep"},
                    {"n", "3000"},
                    {"type", "f64"},
                    {"order", "desc"},
                    {"dist", "special"},
                    {"force-fallback", "on"}}),
    };
    for (const SortSettings& s : runs) {
        SCOPED_TRACE(std::string(s.algoName()) + " n=" + std::to_string(s.n));
        auto rec = recordRun(*test::sharedContext(), s);
        ASSERT_TRUE(rec.ok()) << rec.error().message;
        EXPECT_EQ(rec->steps.size(), rec->plan.steps.size() + 1);
        EXPECT_EQ(rec->device.name, test::sharedContext()->info().name);
        const std::string path = tempFile("roundtrip.slrec");
        ASSERT_TRUE(writeRecording(path, *rec).ok());
        auto back = readRecording(path);
        ASSERT_TRUE(back.ok()) << back.error().message;
        const Recording& r = *back.value();
        EXPECT_EQ(r.device.name, rec->device.name);
        EXPECT_EQ(r.device.date, rec->device.date);
        EXPECT_EQ(r.inputKeys, rec->inputKeys);
        EXPECT_EQ(r.inputValues, rec->inputValues);
        expectSamePlan(r.plan, rec->plan);
        ASSERT_EQ(r.steps.size(), rec->steps.size());
        for (size_t k = 0; k < r.steps.size(); ++k) expectSameSnapshot(*r.steps[k], *rec->steps[k], k);
        // The settings it was made from give its run; another seed or order does not.
        EXPECT_TRUE(sameRun(r, s));
        EXPECT_TRUE(sameRun(r, r.settings));
        SortSettings other = s;
        other.order = s.order == Order::ascending ? Order::descending : Order::ascending;
        EXPECT_FALSE(sameRun(r, other));
        std::filesystem::remove(path);
    }
}

// The OneSweep lesson's run: its lookback log comes back as the GPU logged it (every tile's record).
TEST_F(RecordingTest, KeepsTheLookbackLog) {
    const SortSettings s = settingsOf({{"algo", "onesweep"},
                                       {"n", "64"},
                                       {"dist", "small"},
                                       {"values", "u32"},
                                       {"tile-keys", "8"},
                                       {"lookback-log", "on"}});
    auto rec = recordRun(*test::sharedContext(), s);
    ASSERT_TRUE(rec.ok()) << rec.error().message;
    size_t logs = 0;
    for (const auto& snap : rec->steps)
        if (const Snapshot::Aux* log = snap->find(AuxKind::lookbackLog)) {
            ++logs;
            EXPECT_EQ(log->shape.at(0), 8u); // 64 keys in 8-key tiles
        }
    EXPECT_GE(logs, 4u); // after each of the 4 passes
}

// Every way a file can be cut short, and damaged headers: one line, the file and an offset.
TEST_F(RecordingTest, RefusesTruncatedAndDamagedFiles) {
    const SortSettings s =
        settingsOf({{"algo", "radix4"}, {"keys", "10, 25, 39, 92, 1, 5, 68, 23, 21, 10"}, {"tile-keys", "4"}});
    auto rec = recordRun(*test::sharedContext(), s);
    ASSERT_TRUE(rec.ok()) << rec.error().message;
    const std::string path = tempFile("damaged.slrec");
    ASSERT_TRUE(writeRecording(path, *rec).ok());
    const std::vector<std::byte> good = fileBytes(path);
    ASSERT_TRUE(parseRecording(good, "good.slrec").ok());
    auto expectRefused = [](const std::vector<std::byte>& bytes, const std::string& why) {
        auto r = parseRecording(bytes, "bad.slrec");
        ASSERT_FALSE(r.ok()) << why;
        const std::string& m = r.error().message;
        EXPECT_EQ(m.rfind("bad.slrec: ", 0), 0u) << why << ": " << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << why << ": " << m;
        EXPECT_NE(m.find("offset"), std::string::npos) << why << ": " << m;
    };
    for (size_t cut = 0; cut < good.size(); ++cut)
        expectRefused(std::vector<std::byte>(good.begin(), good.begin() + cut), "cut at " + std::to_string(cut));
    std::vector<std::byte> longer = good;
    longer.push_back(std::byte{0});
    expectRefused(longer, "a byte too many");
    std::vector<std::byte> bad = good;
    bad[0] = std::byte{'X'};
    expectRefused(bad, "magic");
    bad = good;
    bad[8] = std::byte{2};
    expectRefused(bad, "version");
    bad = good;
    bad[20] = std::byte{'#'}; // inside the metadata's JSON
    expectRefused(bad, "metadata");
    bad = good;
    bad[good.size() - 10] ^= std::byte{0x55}; // inside the compressed payload
    expectRefused(bad, "payload");
    bad = good;
    bad[good.size() - 1] ^= std::byte{0x01}; // the CRC
    expectRefused(bad, "crc");
    // Whole and with a good CRC, but not what the views can draw: refused too.
    Recording wrong = *rec;
    auto snap = std::make_shared<Snapshot>(*wrong.steps[1]);
    ASSERT_FALSE(snap->aux.empty());
    snap->aux[0].shape.push_back(1); // a 2-D "pass" info
    wrong.steps[1] = snap;
    ASSERT_TRUE(writeRecording(path, wrong).ok());
    auto shaped = readRecording(path);
    ASSERT_FALSE(shaped.ok());
    EXPECT_NE(shaped.error().message.find("wrong shape"), std::string::npos) << shaped.error().message;
    wrong = *rec;
    wrong.steps.pop_back(); // a step fewer than its plan
    ASSERT_TRUE(writeRecording(path, wrong).ok());
    auto fewer = readRecording(path);
    ASSERT_FALSE(fewer.ok());
    EXPECT_NE(fewer.error().message.find("snapshots"), std::string::npos) << fewer.error().message;
    auto missing = readRecording(tempFile("no-such.slrec"));
    EXPECT_FALSE(missing.ok());
    std::filesystem::remove(path);
}

} // namespace
} // namespace sortlab::app
