// The driver's pipeline statistics read by the format each declares, and printed with its unit:
// one stubbed statistic of each format (lavapipe offers none), and the value NVIDIA's driver gives
// every pipeline as "Local Memory Size" (2^36), which must stay an exact number of bytes.
#include <sortlab/internal/pipeline_statistics.h>

#include <gtest/gtest.h>

#include <cstring>

namespace sortlab {
namespace {

VkPipelineExecutableStatisticKHR stub(const char* name, VkPipelineExecutableStatisticFormatKHR format,
                                      const char* description = "") {
    VkPipelineExecutableStatisticKHR st{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR};
    std::strncpy(st.name, name, VK_MAX_DESCRIPTION_SIZE - 1);
    std::strncpy(st.description, description, VK_MAX_DESCRIPTION_SIZE - 1);
    st.format = format;
    return st;
}

TEST(PipelineStatistics, EachFormatIsReadAsItsOwn) {
    auto b = stub("Uses Scratch", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR, "whether it spills");
    b.value.b32 = VK_TRUE;
    auto i = stub("Slack", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR);
    i.value.i64 = -3;
    auto u = stub("Register Count", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR);
    u.value.u64 = 80;
    auto f = stub("Occupancy", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR);
    f.value.f64 = 0.625;

    const auto pb = internal::decodeStatistic(b), pi = internal::decodeStatistic(i);
    const auto pu = internal::decodeStatistic(u), pf = internal::decodeStatistic(f);
    ASSERT_TRUE(pb && pi && pu && pf);
    EXPECT_EQ(pb->format, PipelineStatistic::Format::boolean);
    EXPECT_EQ(pb->text(), "yes");
    EXPECT_EQ(pb->description, "whether it spills");
    EXPECT_EQ(pi->format, PipelineStatistic::Format::int64);
    EXPECT_EQ(pi->i, -3);
    EXPECT_EQ(pi->text(), "-3");
    EXPECT_EQ(pu->format, PipelineStatistic::Format::uint64);
    EXPECT_EQ(pu->text(), "80");
    EXPECT_DOUBLE_EQ(pu->value(), 80);
    EXPECT_EQ(pf->format, PipelineStatistic::Format::float64);
    EXPECT_EQ(pf->text(), "0.625");
}

TEST(PipelineStatistics, SizesAreBytesAndStayExact) {
    auto shared = stub("Shared Memory Size", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR);
    shared.value.u64 = 23564;
    auto local = stub("Local Memory Size", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR);
    local.value.u64 = uint64_t(1) << 36;
    auto big = stub("Local Memory Size", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR);
    big.value.u64 = (uint64_t(1) << 53) + 1; // beyond a double's exact integers
    EXPECT_EQ(internal::decodeStatistic(shared)->text(), "23564 bytes");
    EXPECT_EQ(internal::decodeStatistic(local)->text(), "64 GiB (68719476736 bytes)");
    EXPECT_EQ(internal::decodeStatistic(big)->u, (uint64_t(1) << 53) + 1);
    EXPECT_EQ(internal::decodeStatistic(big)->text(), "9007199254740993 bytes");
}

TEST(PipelineStatistics, AFormatThisCodeDoesNotKnowIsLeftOut) {
    auto odd = stub("Future", static_cast<VkPipelineExecutableStatisticFormatKHR>(42));
    EXPECT_FALSE(internal::decodeStatistic(odd).has_value());
}

} // namespace
} // namespace sortlab
