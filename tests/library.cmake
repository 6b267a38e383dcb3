# --- The library as a program outside sortlab uses it (docs/library.md) --------------------------------
# library.symbols     libsortlab.a defines no global vk*/volk* symbol, only sortlab_vk* (nm)
# library.linkorder.* a program of two units, one with Vulkan's own prototypes linked to libvulkan,
#                     one with sortlab: linked in both orders and with the renderer as a shared
#                     library; both run (tests/library/linkorder_main.cpp)
# library.features.*  the program's own device features merged with the sorts' (DeviceFeatures::
#                     addTo), the device adopted, same pipelines as create(), validation silent
# library.install_component  cmake --install --component library: only the library's files, and a
#                     find_package(sortlab) consumer builds and runs against them
add_test(NAME library.symbols
         COMMAND ${CMAKE_COMMAND} -DNM=${CMAKE_NM} -DLIB=$<TARGET_FILE:sortlab_sort>
                 -P ${CMAKE_CURRENT_LIST_DIR}/library/symbols_check.cmake)

find_package(Vulkan REQUIRED) # Vulkan::Vulkan: libvulkan, as a plain renderer links it
add_library(sortlab-plain-renderer STATIC library/plain_vulkan.cpp)
add_library(sortlab-plain-renderer-shared SHARED library/plain_vulkan.cpp)
foreach(lib sortlab-plain-renderer sortlab-plain-renderer-shared)
  target_link_libraries(${lib} PUBLIC Vulkan::Vulkan)
endforeach()
# Link order: the renderer before sortlab, sortlab before the renderer, the renderer as a .so.
set(SORTLAB_LINKORDER_renderer_first sortlab-plain-renderer sortlab::sort)
set(SORTLAB_LINKORDER_sortlab_first sortlab::sort sortlab-plain-renderer)
set(SORTLAB_LINKORDER_shared_renderer sortlab::sort sortlab-plain-renderer-shared)
foreach(order renderer_first sortlab_first shared_renderer)
  add_executable(sortlab-linkorder-${order} library/linkorder_main.cpp)
  target_link_libraries(sortlab-linkorder-${order} PRIVATE ${SORTLAB_LINKORDER_${order}})
  add_test(NAME library.linkorder.${order} COMMAND sortlab-linkorder-${order})
  set_tests_properties(library.linkorder.${order} PROPERTIES
    PASS_REGULAR_EXPRESSION "both paths ran" FAIL_REGULAR_EXPRESSION "Validation|VUID" TIMEOUT ${SORTLAB_GPU_TEST_TIMEOUT})
endforeach()

add_executable(sortlab-library-features-tests library/features_test.cpp)
target_link_libraries(sortlab-library-features-tests PRIVATE sortlab::sort Vulkan::Vulkan GTest::gtest GTest::gtest_main)
target_include_directories(sortlab-library-features-tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/support) # timeline.h
gtest_discover_tests(sortlab-library-features-tests TEST_PREFIX "library." DISCOVERY_MODE PRE_TEST
                     PROPERTIES TIMEOUT ${SORTLAB_GPU_TEST_TIMEOUT})

add_test(NAME library.install_component
         COMMAND ${CMAKE_COMMAND} -DBUILD=${PROJECT_BINARY_DIR} -DSOURCE=${PROJECT_SOURCE_DIR}
                 -DPREFIX=${CMAKE_CURRENT_BINARY_DIR}/library-prefix -DLIBDIR=${CMAKE_INSTALL_LIBDIR}
                 -DINCLUDEDIR=${CMAKE_INSTALL_INCLUDEDIR} -P ${CMAKE_CURRENT_LIST_DIR}/packaging/component_check.cmake)
set_tests_properties(library.install_component PROPERTIES TIMEOUT 600)
