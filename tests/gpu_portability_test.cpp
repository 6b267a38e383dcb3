// Portability (docs/platforms.md): Context::create asks for VK_KHR_portability_enumeration, with
// VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR, exactly where the loader offers it (Debian 12's
// loader does), and enables VK_KHR_portability_subset exactly where the device advertises it
// (MoltenVK does; lavapipe does not). Read back through internal::contextSetup.
#include <sortlab/testing/gpu_env.h>

#include <sortlab/internal/context_access.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace sortlab::test {
namespace {

constexpr const char* kEnumeration = VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME;
constexpr const char* kSubset = "VK_KHR_portability_subset";

bool loaderOffers(const char* name) {
    uint32_t count = 0;
    vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> exts(count);
    vkEnumerateInstanceExtensionProperties(nullptr, &count, exts.data());
    return std::any_of(exts.begin(), exts.end(),
                       [&](const auto& e) { return std::strcmp(e.extensionName, name) == 0; });
}

bool contains(const std::vector<std::string>& names, const char* name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

TEST_F(GpuTest, PortabilityEnumerationExactlyWhereTheLoaderOffersIt) {
    const bool offered = loaderOffers(kEnumeration);
    std::printf("[sortlab] the loader %s %s\n", offered ? "offers" : "does not offer", kEnumeration);
    const internal::ContextSetup setup = internal::contextSetup(ctx());
    EXPECT_EQ(contains(setup.instanceExtensions, kEnumeration), offered);
    EXPECT_EQ((setup.instanceFlags & VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR) != 0, offered);
    // The instance made that way lists the device the tests run on.
    EXPECT_NE(ctx().physicalDevice(), VK_NULL_HANDLE);
    EXPECT_EQ(std::count(setup.instanceExtensions.begin(), setup.instanceExtensions.end(), kEnumeration),
              offered ? 1 : 0);
}

TEST_F(GpuTest, PortabilitySubsetExactlyWhereTheDeviceAdvertisesIt) {
    const bool advertised = deviceHasExtension(ctx().physicalDevice(), kSubset);
    std::printf("[sortlab] %s %s %s\n", ctx().info().name.c_str(), advertised ? "advertises" : "does not advertise",
                kSubset);
    const internal::ContextSetup setup = internal::contextSetup(ctx());
    EXPECT_EQ(contains(setup.deviceExtensions, kSubset), advertised);
    const std::vector<const char*> required = requiredDeviceExtensions(ctx().physicalDevice());
    ASSERT_EQ(required.size(), advertised ? 1u : 0u);
    if (advertised) {
        EXPECT_STREQ(required[0], kSubset);
    }
}

// A caller that names the extension itself (as a program written for macOS would) gets it once.
TEST_F(GpuTest, InstanceWithTheCallersOwnPortabilityExtension) {
    if (!loaderOffers(kEnumeration)) GTEST_SKIP() << "the loader does not offer " << kEnumeration;
    auto instance = createInstance(false, {kEnumeration});
    ASSERT_TRUE(instance.ok()) << instance.error().message;
    uint32_t count = 0;
    EXPECT_EQ(vkEnumeratePhysicalDevices(*instance, &count, nullptr), VK_SUCCESS);
    EXPECT_GT(count, 0u);
    vkDestroyInstance(*instance, nullptr);
    volkLoadInstance(ctx().instance()); // createInstance pointed volk at the instance just destroyed
}

} // namespace
} // namespace sortlab::test
