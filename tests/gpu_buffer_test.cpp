// Buffer, uploadBytes and Readback: bytes go to the GPU and come back unchanged.
#include <sortlab/testing/gpu_env.h>

#include <sortlab/buffer.h>

#include <numeric>
#include <random>

namespace sortlab::test {
namespace {

std::vector<std::byte> randomBytes(size_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::byte> b(n);
    for (auto& x : b) x = static_cast<std::byte>(rng() & 0xff);
    return b;
}

class BufferRoundTrip : public GpuTest, public ::testing::WithParamInterface<uint64_t> {};

TEST_P(BufferRoundTrip, UploadThenReadbackGivesTheSameBytes) {
    const uint64_t bytes = GetParam();
    auto buf = Buffer::create(ctx(), bytes, MemoryKind::device, "test buffer");
    ASSERT_TRUE(buf.ok()) << buf.error().message;
    EXPECT_TRUE(buf->valid());
    EXPECT_EQ(buf->size(), bytes);
    EXPECT_NE(buf->address(), 0u) << "device buffers have an address, even empty ones";
    EXPECT_EQ(buf->mapped(), nullptr) << "device buffers are not mapped";

    const auto data = randomBytes(bytes, bytes + 1);
    ASSERT_TRUE(uploadBytes(ctx(), *buf, 0, data).ok());
    std::vector<std::byte> back(bytes, std::byte{0xee});
    Readback rb(ctx());
    rb.add(*buf, 0, bytes, back.data());
    auto r = rb.run();
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(back, data);
}

INSTANTIATE_TEST_SUITE_P(Sizes, BufferRoundTrip, ::testing::Values(0, 1, 4, 17, 1u << 20),
                         [](const auto& info) { return "bytes" + std::to_string(info.param); });

TEST_F(GpuTest, UploadAndReadbackAtOffsetsAndSeveralRegions) {
    const uint64_t bytes = 4096 + 3;
    auto a = Buffer::create(ctx(), bytes, MemoryKind::device, "a");
    auto b = Buffer::create(ctx(), 100, MemoryKind::device, "b");
    ASSERT_TRUE(a.ok() && b.ok());
    const auto whole = randomBytes(bytes, 5);
    ASSERT_TRUE(uploadBytes(ctx(), *a, 0, whole).ok());
    // Overwrite 7 bytes at an odd offset.
    const auto patch = randomBytes(7, 6);
    ASSERT_TRUE(uploadBytes(ctx(), *a, 1001, patch).ok());
    const auto small = randomBytes(100, 7);
    ASSERT_TRUE(uploadBytes(ctx(), *b, 0, small).ok());
    auto expected = whole;
    std::copy(patch.begin(), patch.end(), expected.begin() + 1001);

    // Three regions (two of one buffer, one of another) in one submission.
    std::vector<std::byte> head(10), tail(bytes - 999), other(100);
    Readback rb(ctx());
    rb.add(*a, 0, head.size(), head.data());
    rb.add(*a, 999, tail.size(), tail.data());
    rb.add(*b, 0, other.size(), other.data());
    rb.add(*b, 0, 0, nullptr); // empty regions are ignored
    ASSERT_TRUE(rb.run().ok());
    EXPECT_TRUE(std::equal(head.begin(), head.end(), expected.begin()));
    EXPECT_TRUE(std::equal(tail.begin(), tail.end(), expected.begin() + 999));
    EXPECT_EQ(other, small);

    // A Readback with nothing to do succeeds; one can be reused after run().
    Readback empty(ctx());
    EXPECT_TRUE(empty.run().ok());
    rb.add(*b, 50, 50, other.data());
    ASSERT_TRUE(rb.run().ok());
    EXPECT_TRUE(std::equal(other.begin(), other.begin() + 50, small.begin() + 50));
}

TEST_F(GpuTest, UploadOutOfRangeIsRefused) {
    auto buf = Buffer::create(ctx(), 64, MemoryKind::device, "small");
    ASSERT_TRUE(buf.ok());
    const auto data = randomBytes(65, 1);
    auto r = uploadBytes(ctx(), *buf, 0, data);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, Errc::invalid_argument);
    const auto eight = randomBytes(8, 2);
    r = uploadBytes(ctx(), *buf, 60, eight);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, Errc::invalid_argument);
    EXPECT_TRUE(uploadBytes(ctx(), *buf, 56, eight).ok());
    EXPECT_TRUE(uploadBytes(ctx(), *buf, 64, {}).ok()) << "nothing to copy";
}

TEST_F(GpuTest, HostVisibleBuffersAreMappedAndMovable) {
    auto up = Buffer::create(ctx(), 256, MemoryKind::upload, "upload");
    auto rb = Buffer::create(ctx(), 256, MemoryKind::readback, "readback");
    ASSERT_TRUE(up.ok() && rb.ok());
    EXPECT_NE(up->mapped(), nullptr);
    EXPECT_NE(rb->mapped(), nullptr);
    Buffer moved = std::move(up.value());
    EXPECT_TRUE(moved.valid());
    EXPECT_NE(moved.mapped(), nullptr);
    EXPECT_FALSE(up->valid()) << "a moved-from buffer is empty";
    Buffer assigned;
    assigned = std::move(moved);
    EXPECT_TRUE(assigned.valid());
    EXPECT_EQ(assigned.size(), 256u);
}

} // namespace
} // namespace sortlab::test
