// Fence timeouts: a submission that runs past ContextOptions::fenceTimeout returns Errc::timeout
// ("did not finish within <the limit>") instead of hanging; the context then refuses new work with
// Errc::timeout too ("still running"; never device_lost, which is for a device Vulkan reports
// lost) until that submission's fence signals, and recovers by itself afterwards. Nothing the GPU
// may still use is destroyed meanwhile (no validation messages).
//
// Each test makes its own Context (validation on) with a 1 ns fence timeout, so that the shared
// context of the other tests never sees a timeout. These tests live in their own binary: if the
// library freed memory that the GPU still writes, the crash takes no other test with it.
#include <sortlab/testing/gpu_env.h>

#include <sortlab/buffer.h>
#include <sortlab/sortlab.h>

#include <chrono>
#include <string>
#include <thread>

namespace sortlab::test {
namespace {

using namespace std::chrono_literals;

class FenceTimeout : public ::testing::Test {
protected:
    void SetUp() override {
        ContextOptions o = testContextOptions();
        o.fenceTimeout = 1ns;
        auto c = Context::create(o);
        ASSERT_TRUE(c.ok()) << c.error().message;
        ctx_ = std::move(c.value());
        EXPECT_EQ(ctx_->fenceTimeout(), 1ns);
        auto s = makeSorter(*ctx_, Algorithm::oddeven);
        ASSERT_TRUE(s.ok()) << s.error().message;
        sorter_ = std::move(s.value());
    }
    void TearDown() override {
        if (ctx_) {
            // Whatever happened, let the GPU finish before anything is destroyed.
            ctx_->setFenceTimeout(60s);
            auto usable = waitUntilUsable();
            EXPECT_TRUE(usable.ok()) << "the context never recovered: " << usable.error().message;
            expectNoValidationMessages(*ctx_, "in this test");
        }
        job_.reset();
        sorter_.reset();
        if (ctx_) expectNoValidationMessages(*ctx_, "while destroying the job and sorter");
        // Whatever a timeout made the library keep alive must be gone by now: destroying the
        // device reports any object that was leaked instead (VUID-vkDestroyDevice-device-00378).
        destroyContextExpectingNoValidationMessages(ctx_);
    }

    // Polls with a cheap submission until the context accepts work again. Returns the first
    // error that is not "the earlier submission is still running".
    Result<void> waitUntilUsable() {
        const auto deadline = std::chrono::steady_clock::now() + 120s;
        for (;;) {
            auto r = ctx_->submitAndWait([](VkCommandBuffer) {});
            if (r.ok() || !stillRunning(r.error()) || std::chrono::steady_clock::now() > deadline) return r;
            ++refusals_;
            std::this_thread::sleep_for(20ms);
        }
    }

    static bool stillRunning(const Error& e) {
        return e.code == Errc::timeout && e.message.find("still running") != std::string::npos;
    }

    // A job of n u32 keys, uploaded with a generous timeout.
    void makeJob(uint64_t n) {
        ctx_->setFenceTimeout(60s);
        auto j = SortJob::create(*ctx_, *sorter_, n, SortConfig{});
        ASSERT_TRUE(j.ok()) << j.error().message;
        job_ = std::move(j.value());
        keys_ = generateKeys(KeyType::u32, n, Distribution::uniform, 12);
        auto r = job_->upload(keys_, {});
        ASSERT_TRUE(r.ok()) << r.error().message;
    }

    // Uploads 2^20 keys and runs them under a fence timeout of `limit` (`named` as the message names
    // it), which they cannot meet: run() returns Errc::timeout, and its message names the limit.
    // How long run() took goes to `waited`.
    void runPastTheLimit(std::chrono::nanoseconds limit, const std::string& named,
                         std::chrono::steady_clock::duration* waited = nullptr) {
        makeJob(uint64_t(1) << 20);
        ctx_->setFenceTimeout(limit);
        const auto t0 = std::chrono::steady_clock::now();
        auto r = job_->run();
        if (waited) *waited = std::chrono::steady_clock::now() - t0;
        ASSERT_FALSE(r.ok()) << "a 2^20-key sort finished within " << named;
        EXPECT_EQ(r.error().code, Errc::timeout) << r.error().message;
        EXPECT_NE(r.error().message.find("within " + named), std::string::npos) << r.error().message;
    }

    // Once the timed-out sort's fence signals, submissions work again.
    void expectRecovery() {
        ctx_->setFenceTimeout(60s);
        auto usable = waitUntilUsable();
        ASSERT_TRUE(usable.ok()) << "the context did not recover: " << usable.error().message;
    }

    void expectSortedNow() {
        SortRun got;
        ASSERT_TRUE(runJob(*job_, keys_, {}, got));
        EXPECT_TRUE(matchesReference(keys_, {}, got, SortConfig{}));
    }

    std::unique_ptr<Context> ctx_;
    std::unique_ptr<Sorter> sorter_;
    std::unique_ptr<SortJob> job_;
    std::vector<std::byte> keys_;
    int refusals_ = 0;
};

TEST_F(FenceTimeout, LongSortTimesOutThenTheContextRecovers) {
    std::chrono::steady_clock::duration waited{};
    ASSERT_NO_FATAL_FAILURE(runPastTheLimit(1ns, "1 ns", &waited));
    EXPECT_LT(waited, 10s) << "run() must return at the timeout, not when the GPU finishes";

    // While the sort still runs, new work is refused with the same code, not queued or hung
    // (it may have finished by now: then the reset runs).
    auto busy = job_->reset();
    if (!busy.ok()) {
        EXPECT_TRUE(stillRunning(busy.error())) << errcName(busy.error().code) << ": " << busy.error().message;
    }

    ASSERT_NO_FATAL_FAILURE(expectRecovery());
    std::printf("[sortlab] refused %d submissions while the timed-out sort finished\n", refusals_);
    expectSortedNow();
}

// The job's buffers and the sorter's pipelines may still be in use by the timed-out sort when
// their owners go away: the library must defer or leak them, not destroy them under the GPU.
TEST_F(FenceTimeout, JobAndSorterDestroyedWhileTheirSortStillRuns) {
    ASSERT_NO_FATAL_FAILURE(runPastTheLimit(1ns, "1 ns"));
    job_.reset();
    sorter_.reset();
    expectNoValidationMessages(*ctx_, "destroying a job and sorter whose sort still runs");
    ASSERT_NO_FATAL_FAILURE(expectRecovery());
    // The context still works: a new sorter and job sort correctly.
    auto s = makeSorter(*ctx_, Algorithm::oddeven);
    ASSERT_TRUE(s.ok());
    sorter_ = std::move(s.value());
    makeJob(5000);
    expectSortedNow();
}

// The message names the limit in its own unit (50 us, not "0 ms"); the one-call API on the same
// context gets the same code while the sort still runs, and sorts again afterwards.
TEST_F(FenceTimeout, TheMessageNamesTheLimitAndTheOneCallApiRecoversToo) {
    ASSERT_NO_FATAL_FAILURE(runPastTheLimit(50us, "50 us"));
    std::vector<uint32_t> keys = {3, 1, 2};
    // Refused while the first sort runs, or (where that one has finished meanwhile) a timeout of
    // its own under the same 50 us limit: both are timeouts that say which.
    auto busy = sort(*ctx_, std::span(keys), {.algorithm = Algorithm::oddeven});
    if (!busy.ok()) {
        const Error& e = busy.error();
        EXPECT_TRUE(stillRunning(e) || (e.code == Errc::timeout && e.message.find("within 50 us") != std::string::npos))
            << errcName(e.code) << ": " << e.message;
    }
    ASSERT_NO_FATAL_FAILURE(expectRecovery());
    auto again = sort(*ctx_, std::span(keys), {.algorithm = Algorithm::oddeven});
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(keys, (std::vector<uint32_t>{1, 2, 3}));
    expectSortedNow();
}

class ReadbackTimeout : public FenceTimeout {
protected:
    static constexpr uint64_t kBytes = uint64_t(64) << 20; // a copy lavapipe needs milliseconds for
    void makeBuffer() {
        ctx_->setFenceTimeout(60s);
        auto b = Buffer::create(*ctx_, kBytes, MemoryKind::device, "test buffer");
        ASSERT_TRUE(b.ok()) << b.error().message;
        buffer_ = std::move(b.value());
        data_.resize(kBytes);
        for (size_t i = 0; i < kBytes; ++i) data_[i] = static_cast<std::byte>((i * 2654435761u) >> 24);
    }
    void expectRoundTrip() {
        ASSERT_TRUE(uploadBytes(*ctx_, buffer_, 0, data_).ok());
        std::vector<std::byte> back(kBytes);
        Readback rb(*ctx_);
        rb.add(buffer_, 0, kBytes, back.data());
        ASSERT_TRUE(rb.run().ok());
        EXPECT_TRUE(back == data_);
    }
    // Once the GPU is done with a timed-out copy: the context usable again, no validation messages
    // (`when`), and a round trip through the buffer works.
    void expectRecovery(const char* when) {
        ctx_->setFenceTimeout(60s);
        auto usable = waitUntilUsable();
        ASSERT_TRUE(usable.ok()) << usable.error().message;
        expectNoValidationMessages(*ctx_, when);
        expectRoundTrip();
    }
    void TearDown() override {
        if (ctx_) {
            ctx_->setFenceTimeout(60s);
            auto usable = waitUntilUsable();
            EXPECT_TRUE(usable.ok()) << usable.error().message;
        }
        buffer_ = Buffer();
        FenceTimeout::TearDown();
    }
    Buffer buffer_;
    std::vector<std::byte> data_;
};

// Readback::run's host-visible buffer must outlive a copy that timed out.
TEST_F(ReadbackTimeout, TimedOutReadbackKeepsItsBufferAliveUntilTheGpuIsDone) {
    makeBuffer();
    ASSERT_TRUE(uploadBytes(*ctx_, buffer_, 0, data_).ok());
    ctx_->setFenceTimeout(1ns);
    std::vector<std::byte> back(kBytes);
    Readback rb(*ctx_);
    rb.add(buffer_, 0, kBytes, back.data());
    auto r = rb.run();
    ASSERT_FALSE(r.ok()) << "a 64 MiB readback finished within 1 ns";
    EXPECT_EQ(r.error().code, Errc::timeout) << r.error().message;
    expectRecovery("after a timed-out readback");
}

// uploadBytes' staging buffer must outlive a copy that timed out.
TEST_F(ReadbackTimeout, TimedOutUploadKeepsItsStagingBufferAliveUntilTheGpuIsDone) {
    makeBuffer();
    ctx_->setFenceTimeout(1ns);
    auto r = uploadBytes(*ctx_, buffer_, 0, data_);
    ASSERT_FALSE(r.ok()) << "a 64 MiB upload finished within 1 ns";
    EXPECT_EQ(r.error().code, Errc::timeout) << r.error().message;
    expectRecovery("after a timed-out upload");
}

} // namespace
} // namespace sortlab::test
