# Tests of the Windows build (included from tests/CMakeLists.txt when building for Windows). They
# run under Wine (CMAKE_CROSSCOMPILING_EMULATOR: packaging/windows/wine-run.sh) with lavapipe through
# winevulkan, a subset chosen so that a CI run stays short: docs/windows.md, "Tests under Wine".
set(SORTLAB_NO_TEST_RAN "Running 0 tests from")
set(SORTLAB_GPU_TEST_TIMEOUT 600)

add_library(sortlab-gpu-test-support STATIC support/gpu_env.cpp)
target_include_directories(sortlab-gpu-test-support PUBLIC support)
target_link_libraries(sortlab-gpu-test-support PUBLIC sortlab_sort sortlab_sort_testing GTest::gtest)
add_executable(sortlab-gpu-sort-tests gpu_sort_test.cpp support/gpu_main.cpp)
target_link_libraries(sortlab-gpu-sort-tests PRIVATE sortlab-gpu-test-support)
add_executable(sortlab-gpu-radix-tests gpu_radix_test.cpp support/gpu_main.cpp)
target_link_libraries(sortlab-gpu-radix-tests PRIVATE sortlab-gpu-test-support)
add_executable(sortlab-gpu-onesweep-tests gpu_onesweep_test.cpp support/gpu_main.cpp)
target_link_libraries(sortlab-gpu-onesweep-tests PRIVATE sortlab-gpu-test-support sortlab_sort_testing)

function(win_gtest name binary filter)
  add_test(NAME ${name} COMMAND ${binary} --gtest_filter=${filter})
  set_tests_properties(${name} PROPERTIES FAIL_REGULAR_EXPRESSION "${SORTLAB_NO_TEST_RAN}"
                       TIMEOUT ${SORTLAB_GPU_TEST_TIMEOUT})
endfunction()
# Every key type, keys-only and key-value, both orders (the parameterised MatchesStableSort cases).
win_gtest(win.gpu.oddeven sortlab-gpu-sort-tests "All/GpuSort.MatchesStableSort/Fused_*")
win_gtest(win.gpu.radix4 sortlab-gpu-radix-tests "All/RadixSort.*")
win_gtest(win.gpu.onesweep sortlab-gpu-onesweep-tests "All/OneSweepSort.*")
# OneSweep with its fallback forced (the lookback's slow path), every key type, both orders.
win_gtest(win.gpu.onesweep.fallback sortlab-gpu-onesweep-tests "OneSweepTest.ManyTilesAgreeWithAndWithoutFallback")

# sortlab-bench.exe --check: every sortlab algorithm (odd-even fused and per layer, radix4, OneSweep
# and OneSweep with forced fallback) against the reference, every key type, keys-only and key-value,
# both orders, validation on.
set(BENCH $<TARGET_FILE:sortlab-bench>)
add_test(NAME win.bench.check
         COMMAND sortlab-bench --validation --check --algo oddeven,oddeven-layer,radix4,onesweep,onesweep-fallback
                 --type u32,i32,f32,u64,i64,f64 --values none,u32 --order asc,desc --n 1000 --reps 1)
set_tests_properties(win.bench.check PROPERTIES TIMEOUT 600 PASS_REGULAR_EXPRESSION "checks: [1-9][0-9]* passed, 0 failed")
add_test(NAME win.bench.help COMMAND sortlab-bench --help)
set_tests_properties(win.bench.help PROPERTIES PASS_REGULAR_EXPRESSION "Exit codes:.*0  success")
# The CUB anchor on Windows: LoadLibrary of sortlab_cub_anchor.dll beside the program; the Windows
# build makes none, so exit 3 and one line that says where it looked and how to build it.
add_test(NAME win.bench.anchor_missing
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=3
                 "-DEXPECT_REGEX=no CUB anchor library: '.*sortlab_cub_anchor[.]dll' does not exist .*nvcc"
                 "-DEXPECT_PREFIX=sortlab-bench: error: " -P ${CMAKE_CURRENT_LIST_DIR}/cli/expect_failure.cmake
                 -- ${CMAKE_CROSSCOMPILING_EMULATOR} ${BENCH} --anchor cub --algo std --n 100)

if(TARGET sortlab)
  set(APP $<TARGET_FILE:sortlab>)
  # sortlab.exe is a GUI program: its --help still reaches whoever reads its output.
  add_test(NAME win.app.help COMMAND sortlab --help)
  set_tests_properties(win.app.help PROPERTIES PASS_REGULAR_EXPRESSION "--lesson")
  add_test(NAME win.app.usage_error
           COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=--algo"
                   "-DEXPECT_PREFIX=sortlab: error: " -P ${CMAKE_CURRENT_LIST_DIR}/cli/expect_failure.cmake
                   -- ${CMAKE_CROSSCOMPILING_EMULATOR} ${APP} --algo bubble)

  # Every built-in lesson, headless at 1280x720 in presentation mode, against the Linux build's run.
  set(SORTLAB_LINUX_BUILD ${PROJECT_SOURCE_DIR}/build CACHE PATH "The Linux build the Windows lesson tests compare with")
  foreach(lesson oddeven radix4 onesweep)
    add_test(NAME win.app.lesson.${lesson}
             COMMAND ${CMAKE_COMMAND} -DEMULATOR=${CMAKE_CROSSCOMPILING_EMULATOR} -DAPP=${APP}
                     -DLINUX_BUILD=${SORTLAB_LINUX_BUILD} -DLESSON=${lesson} -DMIN_STOPS=10
                     -DOUT=${CMAKE_CURRENT_BINARY_DIR}/lessons/${lesson} -P ${CMAKE_CURRENT_LIST_DIR}/windows/lesson_check.cmake)
    set_tests_properties(win.app.lesson.${lesson} PROPERTIES TIMEOUT 600)
  endforeach()
endif()

# Validation under Wine: winevulkan lists no layers, so the host's Vulkan loader enables
# VK_LAYER_KHRONOS_validation (Debian's, a Linux library) from VK_INSTANCE_LAYERS, and
# SORTLAB_HOST_VALIDATION=1 tells the programs it is on (sort/src/context.cpp); its messages reach
# their messengers as on Linux, and any fails a test. win.validation_reaches shows that they do:
# with the layer's best-practices checks on (VK_LAYER_ENABLES), which warn about sortlab's ordinary
# use of lavapipe, the same --check ends with exit 1 and [validation] lines.
set(SORTLAB_WIN_VALIDATION VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation SORTLAB_HOST_VALIDATION=1)
get_property(win_tests DIRECTORY PROPERTY TESTS)
set_tests_properties(${win_tests} PROPERTIES ENVIRONMENT "${SORTLAB_WIN_VALIDATION}")
add_test(NAME win.validation_reaches
         COMMAND sortlab-bench --validation --check --algo radix4 --type u32 --n 1000 --reps 1)
set_tests_properties(win.validation_reaches PROPERTIES PASS_REGULAR_EXPRESSION "\\[validation\\] "
  ENVIRONMENT "${SORTLAB_WIN_VALIDATION};VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_BEST_PRACTICES_EXT")

# The installer (cpack -G NSIS, before ctest) in a fresh Wine prefix: install, run, uninstall.
add_test(NAME win.installer
         COMMAND ${CMAKE_COMMAND} -DINSTALLER=${PROJECT_BINARY_DIR}/sortlab-${PROJECT_VERSION}-win64.exe
                 -DWINE_RUN=${CMAKE_CROSSCOMPILING_EMULATOR} -DOUT=${CMAKE_CURRENT_BINARY_DIR}/installer
                 -P ${CMAKE_CURRENT_LIST_DIR}/windows/installer_check.cmake)
set_tests_properties(win.installer PROPERTIES TIMEOUT 600)
