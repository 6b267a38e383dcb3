// sortlab::Result: reading it never throws. error() of a success is an Error that says so; the
// value of a failure read without checking stops the program with that error's message.
#include <sortlab/result.h>

#include <gtest/gtest.h>

#include <string>

namespace sortlab {
namespace {

TEST(Result, ErrorOfASuccessIsAnErrorValueNotAnException) {
    Result<int> r = 3;
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(*r, 3);
    EXPECT_EQ(r.error().code, Errc::invalid_argument);
    EXPECT_NE(r.error().message.find("holds a value"), std::string::npos) << r.error().message;
    Result<void> v;
    ASSERT_TRUE(v.ok());
    EXPECT_EQ(v.error().code, Errc::invalid_argument);
    EXPECT_NE(v.error().message.find("succeeded"), std::string::npos) << v.error().message;
}

TEST(Result, AFailureKeepsItsError) {
    Result<std::string> r = makeError(Errc::no_vulkan, "no Vulkan loader");
    ASSERT_FALSE(r.ok());
    EXPECT_FALSE(static_cast<bool>(r));
    EXPECT_EQ(r.error().code, Errc::no_vulkan);
    EXPECT_EQ(r.error().message, "no Vulkan loader");
}

// What the README's snippet did before it checked: dereference a failed Result. No
// std::bad_variant_access escapes; the program ends with the error it did not check.
TEST(ResultDeathTest, ReadingTheValueOfAFailureStopsWithItsMessage) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const Result<int> failed = makeError(Errc::no_vulkan, "no Vulkan loader");
    EXPECT_DEATH((void)*failed, "read without checking it \\(no Vulkan\\): no Vulkan loader");
    Result<std::string> alsoFailed = makeError(Errc::no_device, "no device named like 'x'");
    EXPECT_DEATH((void)alsoFailed->size(), "no device named like 'x'");
}

} // namespace
} // namespace sortlab
