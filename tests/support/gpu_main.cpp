// main() of the GPU test binaries: registers the environment that owns the shared Context.
// (Listing the tests, as gtest_discover_tests does at build time, creates no Vulkan objects:
// environments only run when tests do.)
#include <sortlab/testing/gpu_env.h>

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new sortlab::test::GpuEnvironment); // gtest owns it
    return RUN_ALL_TESTS();
}
