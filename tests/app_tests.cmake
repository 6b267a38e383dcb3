# Tests of the desktop app (included from tests/CMakeLists.txt). Each run starts the app under
# xvfb-run on lavapipe with --validation (any validation message makes its exit code 1), drives it
# from the command line or a script, and writes PNGs and --dump-state JSON into app_out/. Then:
#
#   app_*_png      the screenshot has the window's size and is not blank (app_check png)
#   app_*_state    the state the app shows equals the sortlab-bench --trace line of the same
#                  algorithm, input and step (app_check state: keys, values, and for radix sorts the
#                  histogram, offsets and per-workgroup counts when the trace has them; for
#                  OneSweep the tile status flags, fallback count and tile count against the trace,
#                  and the tile counts against prefixes recounted from the trace's previous line),
#                  and check mode agreed with the CPU reference where it was on
#   app_bench_*    the benchmark panel: `sortlab --bench --export` with no display and the panel under
#                  Xvfb from a script run the sweep of a sortlab-bench --json reference run; their
#                  results.json has its rows, schema and case fields (export_check same), their CSV
#                  the same rows, their PNGs are not blank; a cancelled sweep ends promptly
#   app_theme_*    --theme light and a script switching themes: the screenshots are in that theme
#                  (app_check png --theme); a lesson run to its end in the light theme
#   app_fail_*     no display, no Vulkan driver, a usage error: the exit code and one line on stderr
#   app_unit.*     host-only tests of the app's counters, key heights, names and script parser
#   app_step_latency*  sortlab-step-latency (no window): every algorithm's key-to-view latency, its
#                  JSON checked for every algorithm and action with plausible times; its failures
#
# Skipped only where xvfb-run is missing (.ci/setup installs it, so CI runs them). Each test takes
# a few seconds on lavapipe.
# Host-only tests of the app's own logic (no window, no device): run everywhere.
add_executable(sortlab-app-unit-tests ${CMAKE_CURRENT_LIST_DIR}/app/app_unit_test.cpp
                                      ${CMAKE_CURRENT_LIST_DIR}/app/lesson_fuzz_test.cpp)
target_link_libraries(sortlab-app-unit-tests PRIVATE sortlab_app_core GTest::gtest GTest::gtest_main)
target_compile_definitions(sortlab-app-unit-tests PRIVATE SORTLAB_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
gtest_discover_tests(sortlab-app-unit-tests TEST_PREFIX "app_unit." DISCOVERY_MODE PRE_TEST)

# sortlab-step-latency (tools/step_latency.cpp): the app's SortWorker driven as its keys drive
# it, without a window, so no Xvfb either. Every algorithm at 2^13 keys (the strip path), a few
# steps, check mode and validation on: exit 0, and a JSON with every algorithm and action, the
# right sample counts and plausible times (tests/app/step_latency_check.cmake). Then its failures.
add_test(NAME app_step_latency
         COMMAND ${CMAKE_COMMAND} -DJSON=${CMAKE_CURRENT_BINARY_DIR}/step_latency.json -DN=8192 -DREPS=1 -DSTEPS=3
                 -DBACK=2 -P ${CMAKE_CURRENT_LIST_DIR}/app/step_latency_check.cmake --
                 $<TARGET_FILE:sortlab-step-latency> --validation --check --n 2^13 --steps 3 --back 2 --reps 1
                 --warmup 0 --json ${CMAKE_CURRENT_BINARY_DIR}/step_latency.json)
add_test(NAME app_step_latency_fail_device
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=3 "-DEXPECT_REGEX=nosuchdevice"
                 "-DEXPECT_PREFIX=sortlab-step-latency: error: " -P ${CMAKE_CURRENT_LIST_DIR}/cli/expect_failure.cmake
                 -- $<TARGET_FILE:sortlab-step-latency> --device nosuchdevice --n 2^10)
add_test(NAME app_step_latency_fail_usage
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=--algo 'bubble'"
                 "-DEXPECT_PREFIX=sortlab-step-latency: error: " -P ${CMAKE_CURRENT_LIST_DIR}/cli/expect_failure.cmake
                 -- $<TARGET_FILE:sortlab-step-latency> --algo radix4,bubble)
set_tests_properties(app_step_latency app_step_latency_fail_device app_step_latency_fail_usage PROPERTIES TIMEOUT 120)

find_program(XVFB_RUN xvfb-run)
if(NOT XVFB_RUN)
  message(STATUS "app tests skipped: xvfb-run not found (apt install xvfb xauth)")
  return()
endif()

# The app itself is built only where GLFW and libimgui-dev are found (the top-level app block).
find_package(glfw3 3.3 CONFIG QUIET)
find_library(APP_TEST_IMGUI NAMES libimgui.a imgui)
if(NOT glfw3_FOUND OR NOT APP_TEST_IMGUI)
  message(STATUS "app tests skipped: the app is not built here (GLFW 3.3 or libimgui-dev missing)")
  return()
endif()

set(APP_OUT ${CMAKE_CURRENT_BINARY_DIR}/app_out)
file(MAKE_DIRECTORY ${APP_OUT})
add_executable(app_check ${CMAKE_CURRENT_LIST_DIR}/app/app_check.cpp ${CMAKE_CURRENT_LIST_DIR}/app/app_check_feedback.cpp)
find_path(APP_CHECK_STB_DIR stb_image.h PATH_SUFFIXES stb REQUIRED)
find_library(APP_CHECK_STB_LIBRARY NAMES libstb.a stb REQUIRED)
target_include_directories(app_check PRIVATE ${APP_CHECK_STB_DIR})
target_link_libraries(app_check PRIVATE nlohmann_json::nlohmann_json ${APP_CHECK_STB_LIBRARY} m)

set(APP $<TARGET_FILE:sortlab>)
set(APP_BENCH $<TARGET_FILE:sortlab-bench>)
# xvfb-run -a with a different first server number per test, so that tests running in parallel
# do not race for the same display.
set(APP_XVFB_NEXT 140)
function(app_run name)
  math(EXPR server "${APP_XVFB_NEXT} + 1")
  set(APP_XVFB_NEXT ${server} PARENT_SCOPE)
  add_test(NAME ${name}
           COMMAND ${XVFB_RUN} -a -n ${server} -s "-screen 0 1600x1000x24" ${APP} --validation ${ARGN}
           WORKING_DIRECTORY ${APP_OUT})
  set_tests_properties(${name} PROPERTIES FIXTURES_SETUP ${name} TIMEOUT 120)
endfunction()
function(app_check name fixture)
  add_test(NAME ${name} COMMAND app_check ${ARGN} WORKING_DIRECTORY ${APP_OUT})
  set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED "${fixture}")
endfunction()

# --- One vocabulary: every --algo name is the same variant in the app and in sortlab-bench ----------
add_test(NAME app_variant_names
         COMMAND ${CMAKE_COMMAND} -DAPP=${APP} -DBENCH=${APP_BENCH} -DXVFB_RUN=${XVFB_RUN} -DOUT=${APP_OUT}
                 "-DALGOS=oddeven;oddeven-layer;radix4;onesweep;onesweep-fallback"
                 -P ${CMAKE_CURRENT_LIST_DIR}/app/variant_names_check.cmake)
set_tests_properties(app_variant_names PROPERTIES TIMEOUT 300)

# --- Keys of your own: the seed example typed in (--keys) and read from a file (--input) -------------
# The app's state after a radix4 pass equals sortlab-bench's trace of the same keys (the app's
# automatic teaching tile for small n is sortlab-bench's --tile-keys 8).
add_test(NAME app_trace_keys
         COMMAND ${APP_BENCH} --validation --algo radix4 --keys "10,25,39,92,1,5,68,23,21,10" --tile-keys 8 --reps 1 --quiet
                 --trace ${APP_OUT}/trace_keys.jsonl)
set_tests_properties(app_trace_keys PROPERTIES FIXTURES_SETUP app_trace_keys)
file(WRITE ${APP_OUT}/seed_keys.txt "# the example of docs/radix4.md\n10\n25\n39 92, 1\n5\n68\n23\n21\n10\n")

# --- The traces the app is compared with ----------------------------------------------------------
add_test(NAME app_trace_16
         COMMAND ${APP_BENCH} --validation --algo oddeven-layer,radix4 --n 16 --dist small --tile-keys 8 --seed 1 --reps 1 --quiet
                 --trace ${APP_OUT}/trace16.jsonl)
add_test(NAME app_trace_13
         COMMAND ${APP_BENCH} --validation --algo oddeven-layer --type f32 --values u32 --order desc --dist special
                 --seed 10 --n 13 --reps 1 --quiet --trace ${APP_OUT}/trace13.jsonl)
add_test(NAME app_trace_1000
         COMMAND ${APP_BENCH} --validation --algo radix4 --values u32 --n 1000 --seed 2 --reps 1 --quiet
                 --trace ${APP_OUT}/trace1000.jsonl)
# OneSweep with lookback and with forced fallback: 4000 keys are two tiles on lavapipe (2304 keys
# per tile), so a pass has a tile that looks back (or, forced, counts tile 0 itself).
add_test(NAME app_trace_os
         COMMAND ${APP_BENCH} --validation --algo onesweep,onesweep-fallback --values u32 --n 4000 --seed 5 --reps 1
                 --quiet --trace ${APP_OUT}/trace_os.jsonl)
set_tests_properties(app_trace_os PROPERTIES FIXTURES_SETUP app_trace_os TIMEOUT 120)
set_tests_properties(app_trace_16 PROPERTIES FIXTURES_SETUP app_trace_16 TIMEOUT 120)
set_tests_properties(app_trace_1000 PROPERTIES FIXTURES_SETUP app_trace_1000 TIMEOUT 120)
set_tests_properties(app_trace_13 PROPERTIES FIXTURES_SETUP app_trace_13 TIMEOUT 120)

# --- The issue's command: odd-even, 16 keys, step 10 -----------------------------------------------
app_run(app_keys --algo radix4 --keys "10,25,39,92,1,5,68,23,21,10" --step 3 --check --dump-state app_keys.json)
app_check(app_keys_state "app_keys;app_trace_keys" state app_keys.json trace_keys.jsonl --algo radix4 --step 3)
add_test(NAME app_trace_tiles4
         COMMAND ${APP_BENCH} --validation --algo radix4 --keys "10,25,39,92,1,5,68,23,21,10" --tile-keys 4 --reps 1
                 --quiet --trace ${APP_OUT}/trace_tiles4.jsonl)
set_tests_properties(app_trace_tiles4 PROPERTIES FIXTURES_SETUP app_trace_tiles4)
app_run(app_radix_tiles --script ${CMAKE_CURRENT_LIST_DIR}/app/radix_tiles.script)
app_check(app_radix_tiles_png app_radix_tiles png app_radix_tiles.png --width 1600 --height 1000)
app_check(app_radix_tiles_state "app_radix_tiles;app_trace_tiles4" state app_radix_tiles.json trace_tiles4.jsonl
          --algo radix4 --step 3)
# OneSweep's lookback replayed event by event: it starts with every status word not ready and ends
# on the status buffer the pass left, with lookback and with forced fallback.
app_run(app_lookback_replay --script ${CMAKE_CURRENT_LIST_DIR}/app/lookback_replay.script)
app_check(app_lookback_replay_png app_lookback_replay png app_lookback_replay.png --width 1600 --height 1000)
app_check(app_lookback_replay_check app_lookback_replay replay replay_start.json replay_mid.json replay_end.json)
app_check(app_lookback_replay_fallback app_lookback_replay replay replay_fb_start.json replay_fb_mid.json
          replay_fb_end.json)
# The Controls panel's own keys: the example typed in and used, then a word among keys refused
# with its position, the keys in use kept (both dumps equal the trace of the example's input).
app_run(app_keys_field --script ${CMAKE_CURRENT_LIST_DIR}/app/keys_field.script)
app_check(app_keys_field_png app_keys_field png app_keys_error.png --width 1600 --height 1000)
app_check(app_keys_field_good "app_keys_field;app_trace_keys" state keys_field_good.json trace_keys.jsonl
          --algo radix4 --step 0)
app_check(app_keys_field_bad "app_keys_field;app_trace_keys" state keys_field_bad.json trace_keys.jsonl
          --algo radix4 --step 0 --keys-error "keys:1:9: 'thirty' is not a u32 key")
app_run(app_input --algo radix4 --input ${APP_OUT}/seed_keys.txt --step 3 --dump-state app_input.json)
app_check(app_input_state "app_input;app_trace_keys" state app_input.json trace_keys.jsonl --algo radix4 --step 3)
app_run(app_oddeven --algo oddeven-layer --n 16 --seed 1 --step 10 --screenshot app_oddeven.png
        --dump-state app_oddeven.json)
app_check(app_oddeven_png app_oddeven png app_oddeven.png --width 1600 --height 1000)
app_check(app_oddeven_state "app_oddeven;app_trace_16" state app_oddeven.json trace16.jsonl --algo oddeven-layer --step 10)
app_check(app_oddeven_labels app_oddeven labels app_oddeven.json --min-labels 30)

# --- A middle step, and the radix sort's views ------------------------------------------------------
app_run(app_oddeven_step4 --algo oddeven-layer --n 16 --seed 1 --step 4 --check --dump-state app_oddeven4.json)
app_check(app_oddeven_step4_state "app_oddeven_step4;app_trace_16" state app_oddeven4.json trace16.jsonl --algo oddeven-layer
          --step 4 --check-ok)
app_run(app_radix4 --algo radix4 --n 16 --seed 1 --step 6 --screenshot app_radix4.png --dump-state app_radix4.json)
app_check(app_radix4_png app_radix4 png app_radix4.png --width 1600 --height 1000)
app_check(app_radix4_state "app_radix4;app_trace_16" state app_radix4.json trace16.jsonl --algo radix4 --step 6)
app_check(app_radix4_labels app_radix4 labels app_radix4.json --min-labels 30)

# radix4 with values and check mode: keys, values, histogram and offsets against the CPU model
# (the radix trace has one line per pass, after its scatter: steps 3, 6, 9, ...)
app_run(app_radix4_check --algo radix4 --values u32 --n 1000 --seed 2 --check --step 9 --dump-state app_radix4_check.json)
app_check(app_radix4_check_state "app_radix4_check;app_trace_1000" state app_radix4_check.json trace1000.jsonl
          --algo radix4 --step 9 --check-ok)

# --- OneSweep: the lookback state after a pass (tile status flags, tile counts, fallbacks) --------------
# Pass 1 (step 4) with lookback, check mode on: keys, values, histogram, offsets, tile status and
# fallbacks against the trace, tile counts against prefixes recounted from pass 0's keys.
app_run(app_onesweep --algo onesweep --values u32 --n 4000 --seed 5 --check --step 4 --screenshot app_onesweep.png
        --dump-state app_onesweep.json)
app_check(app_onesweep_png app_onesweep png app_onesweep.png --width 1600 --height 1000)
app_check(app_onesweep_state "app_onesweep;app_trace_os" state app_onesweep.json trace_os.jsonl --algo onesweep
          --step 4 --check-ok)
app_check(app_onesweep_labels app_onesweep labels app_onesweep.json --min-labels 10)
# The same with forced fallback (--force-fallback): tile 1 counts tile 0 itself in every pass.
app_run(app_onesweep_fallback --algo onesweep --force-fallback --values u32 --n 4000 --seed 5 --check --step 3
        --screenshot app_onesweep_fallback.png --dump-state app_onesweep_fallback.json)
app_check(app_onesweep_fallback_png app_onesweep_fallback png app_onesweep_fallback.png --width 1600 --height 1000)
app_check(app_onesweep_fallback_state "app_onesweep_fallback;app_trace_os" state app_onesweep_fallback.json
          trace_os.jsonl --algo onesweep-fallback --step 3 --check-ok)
# A script switches to onesweep-fallback (the bench's name) and steps through every pass.
app_run(app_onesweep_script --script ${CMAKE_CURRENT_LIST_DIR}/app/onesweep.script)
foreach(step 3 4 5 6)
  app_check(app_onesweep_script_${step} "app_onesweep_script;app_trace_os" state os_fallback_step${step}.json
            trace_os.jsonl --algo onesweep-fallback --step ${step} --check-ok)
endforeach()
app_check(app_onesweep_script_lookback "app_onesweep_script;app_trace_os" state os_lookback_step6.json
          trace_os.jsonl --algo onesweep --step 6 --check-ok)

# --- A script: float keys (NaN, -0.0, inf), values, descending, steps forward and back, check mode,
#     presentation mode ------------------------------------------------------------------------------
app_run(app_script --script ${CMAKE_CURRENT_LIST_DIR}/app/walk.script)
app_check(app_script_png app_script png walk_end.png --width 1600 --height 1000)
app_check(app_script_step4 "app_script;app_trace_13" state walk_step4.json trace13.jsonl --algo oddeven-layer --step 4)
app_check(app_script_step6 "app_script;app_trace_13" state walk_step6.json trace13.jsonl --algo oddeven-layer --step 6)
app_check(app_script_end "app_script;app_trace_13" state walk_end.json trace13.jsonl --algo oddeven-layer --step 10 --check-ok)

# --- Resizing the window rebuilds the swapchain ----------------------------------------------------------
app_run(app_resize --algo oddeven-layer --n 32 --script ${CMAKE_CURRENT_LIST_DIR}/app/resize.script)
app_check(app_resize_small app_resize png resize_small.png --width 1000 --height 700)
app_check(app_resize_big app_resize png resize_big.png --width 1600 --height 1000)

# --- Zooming the array view from a script ----------------------------------------------------------------
app_run(app_zoom --algo oddeven --n 2^14 --seed 4 --script ${CMAKE_CURRENT_LIST_DIR}/app/zoom.script)
app_check(app_zoom_strip app_zoom png zoom_strip.png --width 1600 --height 1000)
app_check(app_zoom_bars app_zoom png zoom_bars.png --width 1600 --height 1000)
app_check(app_zoom_all app_zoom png zoom_all.png --width 1600 --height 1000)

# --- Large n: the fused plan to the end with check mode, the strip view --------------------------------
app_run(app_large --algo oddeven --n 2^16 --seed 3 --check --step end --screenshot app_large.png
        --dump-state app_large.json)
app_check(app_large_png app_large png app_large.png --width 1600 --height 1000)
add_test(NAME app_large_state COMMAND ${CMAKE_COMMAND} -E cat ${APP_OUT}/app_large.json)
set_tests_properties(app_large_state PROPERTIES FIXTURES_REQUIRED app_large
                     PASS_REGULAR_EXPRESSION "\"check\":{\"available\":true,[^}]*\"ok\":true")

# --- The large-array picture: a radix sort half-way (after half its passes) against the same sort
#     run to its end, at 2^16 and 2^20 keys, radix4 and OneSweep (app_check strip: the sorted
#     picture is one rising line, the half-way one is not and differs from it); the labels written
#     on the picture inside it ---------------------------------------------------------------------
foreach(case "radix4;2^16;12" "radix4;2^20;12" "onesweep;2^16;4" "onesweep;2^20;4")
  list(GET case 0 algo)
  list(GET case 1 n)
  list(GET case 2 half)
  string(REPLACE "^" "e" tag "${algo}_${n}")
  file(WRITE ${APP_OUT}/strip_${tag}.script
       "# written by tests/app_tests.cmake\n"
       "step ${half}\n"
       "dump-state strip_${tag}_half.json\n"
       "screenshot strip_${tag}_half.png\n"
       "step end\n"
       "dump-state strip_${tag}_sorted.json\n")
  app_run(app_strip_${tag} --algo ${algo} --n ${n} --seed 7 --script ${APP_OUT}/strip_${tag}.script)
  set_tests_properties(app_strip_${tag} PROPERTIES TIMEOUT 240)
  app_check(app_strip_${tag}_check app_strip_${tag} strip strip_${tag}_half.json strip_${tag}_sorted.json)
  app_check(app_strip_${tag}_labels app_strip_${tag} labels strip_${tag}_half.json strip_${tag}_sorted.json)
  app_check(app_strip_${tag}_png app_strip_${tag} png strip_${tag}_half.png --width 1600 --height 1000)
endforeach()

# --- The benchmark panel (issue 6) ---------------------------------------------------------------------
# The reference: sortlab-bench --json of the sweep that the headless run and the panel also run.
set(APP_SWEEP --algo oddeven,radix4,onesweep,std --sizes 2^10..2^11 --reps 2 --warmup-ms 0 --check)
add_test(NAME app_bench_reference COMMAND ${APP_BENCH} --validation ${APP_SWEEP} --quiet --json ${APP_OUT}/bench_ref.json)
set_tests_properties(app_bench_reference PROPERTIES FIXTURES_SETUP app_bench_reference TIMEOUT 120)
# sortlab --bench --export: no window and no display at all (DISPLAY unset, no xvfb-run).
add_test(NAME app_bench_headless
         COMMAND ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY
                 ${APP} --bench --validation ${APP_SWEEP} --export ${APP_OUT}/headless)
set_tests_properties(app_bench_headless PROPERTIES FIXTURES_SETUP app_bench_headless TIMEOUT 120
                     PASS_REGULAR_EXPRESSION "exported: .*checks: 8 passed, 0 failed")
set(APP_EXPORT_CHECK $<TARGET_FILE:export_check>)
function(export_test name fixtures)
  add_test(NAME ${name} COMMAND ${APP_EXPORT_CHECK} ${ARGN} WORKING_DIRECTORY ${APP_OUT})
  set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED "${fixtures}")
endfunction()
export_test(app_bench_headless_same "app_bench_headless;app_bench_reference" same headless/results.json bench_ref.json
            --check pass)
export_test(app_bench_headless_csv app_bench_headless csv headless/results.csv headless/results.json)
export_test(app_bench_headless_png app_bench_headless png headless/plot.png --width 1400 --height 1000)
export_test(app_bench_headless_svg app_bench_headless svg headless/plot.svg)
# The panel under Xvfb from a script: the same sweep, a screenshot, the export, presentation mode.
app_run(app_bench --script ${CMAKE_CURRENT_LIST_DIR}/app/bench.script)
set_tests_properties(app_bench PROPERTIES PASS_REGULAR_EXPRESSION "benchmark: done after [0-9.]+ s: 8 results")
app_check(app_bench_png app_bench png app_bench.png --width 1600 --height 1000)
app_check(app_bench_present_png app_bench png app_bench_present.png --width 1600 --height 1000)
export_test(app_bench_export_same "app_bench;app_bench_reference" same bench_panel/results.json bench_ref.json
            --check pass)
export_test(app_bench_export_csv app_bench csv bench_panel/results.csv bench_panel/results.json)
export_test(app_bench_export_png app_bench png bench_panel/plot.png --width 1400 --height 1000)
# Cancel: a sweep that would run for minutes ends within seconds of bench-cancel.
app_run(app_bench_cancel --script ${CMAKE_CURRENT_LIST_DIR}/app/bench_cancel.script)
set_tests_properties(app_bench_cancel PROPERTIES TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "benchmark: cancelled after [0-9.]+ s: [0-9]+ results")
app_check(app_bench_running_png app_bench_cancel png app_bench_running.png --width 1600 --height 1000)

# --- Steps as moves: odd-even (a layer), radix4 and OneSweep (a pass) on 16 keys in 4-key tiles,
#     held at 0, 0.5 and 1 of the move into the step (--transition-at); app_check move -----------------
foreach(case "oddeven;oddeven-layer;4" "radix4;radix4;3" "onesweep;onesweep;3")
  list(GET case 0 name)
  list(GET case 1 algo)
  list(GET case 2 step)
  set(fixtures "")
  foreach(f 0 0.5 1)
    app_run(app_move_${name}_${f} --algo ${algo} --n 16 --tile-keys 4 --step ${step} --transition-at ${f}
            --dump-state move_${name}-${f}.json --screenshot move_${name}-${f}.png)
    list(APPEND fixtures app_move_${name}_${f})
  endforeach()
  app_check(app_move_${name}_check "${fixtures}" move move_${name})
endforeach()

# --- Moves that read: at 0.25, 0.5 and 0.75 of a move no two labels overlap (app_check labels on the
#     label rectangles the views recorded; the dump is of a move, some key away from its index except
#     where a layer still shows the pairs it compares (up to 0.35) or its keys rise into their lanes):
#     an odd-even layer that swaps keys on 8 and 16 keys (16 also at 0.4, rising into the lanes,
#     and 0.9, landing) and a radix4 scatter on 16 keys (one bucket at a time), at 1600x1000 and
#     at 1280x720 in presentation mode ------------------------------------------------------------------
foreach(case "oddeven8;oddeven-layer;8;3;0.25 0.5 0.75" "oddeven16;oddeven-layer;16;4;0.25 0.4 0.5 0.75 0.9"
             "radix4;radix4;16;3;0.25 0.5 0.75")
  list(GET case 0 name)
  list(GET case 1 algo)
  list(GET case 2 n)
  list(GET case 3 step)
  list(GET case 4 fractions)
  separate_arguments(fractions)
  foreach(size "w1600;" "p720;--presentation;--width;1280;--height;720")
    list(GET size 0 tag)
    list(SUBLIST size 1 -1 size_args)
    foreach(f ${fractions})
      set(run app_move_labels_${name}_${tag}_${f})
      app_run(${run} --algo ${algo} --n ${n} --tile-keys 4 --step ${step} --transition-at ${f} ${size_args}
              --dump-state move_labels_${name}_${tag}-${f}.json)
      set(part_way --part-way)
      if(f MATCHES "^0[.](25|4)$" AND name MATCHES "oddeven") # comparing, then rising into the lanes
        set(part_way "")
      endif()
      app_check(${run}_check ${run} labels move_labels_${name}_${tag}-${f}.json --min-labels ${n} --moving ${part_way})
    endforeach()
  endforeach()
endforeach()
# Keys too wide for one row of labels at rest (uniform u32 keys, two staggered rows): drawn smaller
# while they move, still none overlapping.
foreach(case "oddeven-layer;4" "radix4;3")
  list(GET case 0 algo)
  list(GET case 1 step)
  foreach(f 0.5 0.75)
    set(run app_move_labels_wide_${algo}_${f})
    app_run(${run} --algo ${algo} --n 16 --dist uniform --step ${step} --transition-at ${f}
            --dump-state move_labels_wide_${algo}-${f}.json)
    app_check(${run}_check ${run} labels move_labels_wide_${algo}-${f}.json --min-labels 16 --moving --part-way)
  endforeach()
endforeach()
# A plot too low for two lanes of labels at their size (1280x520 in presentation mode, about 45
# pixels): the lanes' labels smaller, none overlapping.
app_run(app_move_labels_low --algo oddeven-layer --keys "10,25,39,92,1,5,68,23,21,10" --step 4 --transition-at 0.6
        --presentation --width 1280 --height 520 --dump-state move_labels_low.json)
app_check(app_move_labels_low_check app_move_labels_low labels move_labels_low.json --min-labels 10 --moving --part-way)

# --- A pinned key (--pin-key): its path through every step, as the GPU moved it (values: exact),
#     for radix4 and for the odd-even network, at the end and half-way ----------------------------------
app_run(app_pin_radix4 --algo radix4 --n 16 --tile-keys 4 --values u32 --pin-key 3 --step 6 --dump-state pin_radix4.json
        --screenshot pin_radix4.png)
app_check(app_pin_radix4_check app_pin_radix4 pinned pin_radix4.json 3)
app_run(app_pin_oddeven --algo oddeven-layer --n 16 --values u32 --pin-key 5 --step end --dump-state pin_oddeven.json)
app_check(app_pin_oddeven_check app_pin_oddeven pinned pin_oddeven.json 5)
# --- Results measured elsewhere in the benchmark panel (issue 29): the H100 sweep of docs/results
#     loaded at start-up at a projector's 1280x720 in presentation mode (its dump lists the
#     onesweep and CUB lines of the H100); in a window from a script, the same file twice, the
#     headless export above (the app's own format) and a file that does not exist, which the panel
#     refuses with its message and keeps the lines it had ---------------------------------------------
set(APP_H100_SWEEP ${PROJECT_SOURCE_DIR}/docs/results/2026-11-23-h100/final4/sweep-os-2e10-2e24.json)
app_run(app_bench_loaded --presentation --width 1280 --height 720 --load-results ${APP_H100_SWEEP}
        --dump-state bench_loaded.json --screenshot bench_loaded.png)
app_check(app_bench_loaded_state app_bench_loaded loaded bench_loaded.json --device "NVIDIA H100 80GB HBM3"
          --algos onesweep,cub --lines 2 --min-points 15)
app_check(app_bench_loaded_png app_bench_loaded png bench_loaded.png --width 1280 --height 720)
file(WRITE ${APP_OUT}/bench_loaded.script
     "# written by tests/app_tests.cmake\n"
     "load-results ${APP_H100_SWEEP}\n"
     "load-results ${APP_H100_SWEEP}\n"
     "load-results headless/results.json\n"
     "load-results no-such-results.json\n"
     "dump-state bench_loaded_window.json\n"
     "screenshot bench_loaded_window.png\n")
app_run(app_bench_loaded_window --script ${APP_OUT}/bench_loaded.script)
set_tests_properties(app_bench_loaded_window PROPERTIES FIXTURES_REQUIRED app_bench_headless)
app_check(app_bench_loaded_window_state app_bench_loaded_window loaded bench_loaded_window.json
          --device "NVIDIA H100 80GB HBM3" --algos onesweep,cub --lines 6
          --error "no-such-results.json: no such file")
app_check(app_bench_loaded_window_png app_bench_loaded_window png bench_loaded_window.png --width 1600 --height 1000)

# --- Lessons: every built-in lesson run to its end headless, each question answered with the GPU's
#     answer and recomputed from the record (app_check lesson); the example of docs/lessons.md; the
#     list; a malformed lesson refused with file:line ---------------------------------------------------
# Each built-in lesson runs five times: at a projector's 1280x720 in presentation mode, at
# 1600x1000, the first answered wrong (the feedback says so, with the GPU's arithmetic), at
# 1600x1000 in presentation mode and at 1280x720 without it. In every run, every stop's highlight,
# question and feedback are inside the window (--visible); then every graded answer must be the
# same in all five runs (lessons-agree).
foreach(run p720 w1600 wrong p1600 w720)
  file(MAKE_DIRECTORY ${APP_OUT}/lessons/${run})
endforeach()
foreach(lesson oddeven radix4 onesweep)
  app_run(app_lesson_${lesson} --presentation --width 1280 --height 720 --lesson ${lesson} --screenshot-each lessons/p720)
  app_check(app_lesson_${lesson}_check app_lesson_${lesson} lesson lessons/p720/${lesson}.jsonl --min-stops 10 --visible)
  app_run(app_lesson_${lesson}_1600 --lesson ${lesson} --screenshot-each lessons/w1600)
  app_check(app_lesson_${lesson}_1600_check app_lesson_${lesson}_1600 lesson lessons/w1600/${lesson}.jsonl --min-stops 10
            --visible)
  app_run(app_lesson_${lesson}_wrong --presentation --width 1280 --height 720 --lesson ${lesson} --lesson-answers wrong
          --screenshot-each lessons/wrong)
  app_check(app_lesson_${lesson}_wrong_check app_lesson_${lesson}_wrong lesson lessons/wrong/${lesson}.jsonl
            --answers wrong --visible)
  app_run(app_lesson_${lesson}_p1600 --presentation --lesson ${lesson} --screenshot-each lessons/p1600)
  app_check(app_lesson_${lesson}_p1600_check app_lesson_${lesson}_p1600 lesson lessons/p1600/${lesson}.jsonl
            --visible)
  app_run(app_lesson_${lesson}_w720 --width 1280 --height 720 --lesson ${lesson} --screenshot-each lessons/w720)
  app_check(app_lesson_${lesson}_w720_check app_lesson_${lesson}_w720 lesson lessons/w720/${lesson}.jsonl --visible)
  # Every label the views drew in every screenshot of the four sizes and modes: inside its window,
  # none overlapping another, none left out for want of room.
  app_check(app_lesson_${lesson}_labels
            "app_lesson_${lesson};app_lesson_${lesson}_1600;app_lesson_${lesson}_p1600;app_lesson_${lesson}_w720"
            labels lessons/p720/${lesson}.jsonl lessons/w1600/${lesson}.jsonl lessons/p1600/${lesson}.jsonl
            lessons/w720/${lesson}.jsonl --min-labels 100)
  app_check(app_lesson_${lesson}_agree
            "app_lesson_${lesson};app_lesson_${lesson}_1600;app_lesson_${lesson}_wrong;app_lesson_${lesson}_p1600;app_lesson_${lesson}_w720"
            lessons-agree lessons/p720/${lesson}.jsonl lessons/w1600/${lesson}.jsonl lessons/wrong/${lesson}.jsonl
            lessons/p1600/${lesson}.jsonl lessons/w720/${lesson}.jsonl)
endforeach()
app_run(app_lesson_teacher --presentation --width 1280 --height 720 --lesson ${CMAKE_CURRENT_LIST_DIR}/app/teacher.lesson
        --screenshot-each lessons)
app_check(app_lesson_teacher_check app_lesson_teacher lesson lessons/teacher.jsonl --min-stops 4)
# Every layer a stop's words name must be on screen (visible.subject): 64 keys make a 21-layer network
# wider than the Network view at 1280x720, which shows layer 1 (stop 1 passes) but not layers 1 and
# 21 together (stop 2 is reported).
app_run(app_lesson_layers --presentation --width 1280 --height 720
        --lesson ${CMAKE_CURRENT_LIST_DIR}/app/layers_offscreen.lesson --screenshot-each lessons_layers)
app_check(app_lesson_layers_check app_lesson_layers lesson lessons_layers/layers_offscreen.jsonl --visible)
set_tests_properties(app_lesson_layers_check PROPERTIES
                     PASS_REGULAR_EXPRESSION "stop 1 \\(Both ends\\): its subject is not visible"
                     FAIL_REGULAR_EXPRESSION "stop 0[ :(]")
# Wrong answers: tests/app/feedback.script answers each kind of question with the mistakes the app
# recognises and with impossible numbers; app_check feedback works out what each number is from the
# records and checks that the feedback names it (and calls the impossible ones so, with why).
configure_file(${CMAKE_CURRENT_LIST_DIR}/app/feedback.lesson ${APP_OUT}/feedback.lesson COPYONLY)
add_test(NAME app_lesson_feedback_clean COMMAND ${CMAKE_COMMAND} -E rm -f ${APP_OUT}/feedback.jsonl)
set_tests_properties(app_lesson_feedback_clean PROPERTIES FIXTURES_SETUP app_lesson_feedback_clean)
app_run(app_lesson_feedback --script ${CMAKE_CURRENT_LIST_DIR}/app/feedback.script)
set_tests_properties(app_lesson_feedback PROPERTIES FIXTURES_REQUIRED app_lesson_feedback_clean TIMEOUT 300)
app_check(app_lesson_feedback_check app_lesson_feedback feedback feedback.jsonl --tile 4 --expect
          "swaps:impossible,swaps:every,swaps:dashed,swaps:upside,swaps:equal,swaps:moved,swaps:prev,swaps:none,swaps:inorder,\
where:impossible,where:value,where:from1,where:upside,where:stride,where:along,where:stays,where:earlier,where:rank,where:start,\
where:inclusive,where:reverse,where:otherpass,where:digitorder,count:impossible,count:otherpass,count:nibble,count:beside,count:below,count:upto,\
count:workgroup,count:alsoother,depth:impossible")
# Generated lessons (tests/app/lesson_fuzz.h): six the checks accept run to their end, eight they
# refuse exit 2 with their file:line (app_unit.AppLessonFuzz.* checks 400 without running them).
add_executable(sortlab-lesson-fuzz ${CMAKE_CURRENT_LIST_DIR}/app/lesson_fuzz_write.cpp)
target_link_libraries(sortlab-lesson-fuzz PRIVATE sortlab_app_core)
add_test(NAME app_lesson_fuzz_run
         COMMAND ${CMAKE_COMMAND} -DAPP=${APP} -DWRITER=$<TARGET_FILE:sortlab-lesson-fuzz> -DXVFB_RUN=${XVFB_RUN}
                 -DOUT=${APP_OUT}/lesson_fuzz -P ${CMAKE_CURRENT_LIST_DIR}/app/lesson_fuzz_run.cmake)
set_tests_properties(app_lesson_fuzz_run PROPERTIES TIMEOUT 600)
add_test(NAME app_list_lessons COMMAND ${APP} --list-lessons)
set_tests_properties(app_list_lessons PROPERTIES PASS_REGULAR_EXPRESSION
                     "oddeven .*stops.*radix4 .*stops.*onesweep .*stops")

# --- 4-lane lavapipe (issue 31): LP_NATIVE_VECTOR_WIDTH=128 gives lavapipe 4-lane subgroups. A run
#     at the usual 8 lanes first fills these tests' own Mesa shader cache with 8-lane code, which
#     Mesa would hand to the 4-lane runs (docs/app.md, "4-lane lavapipe"); then every algorithm to a
#     step in check mode with a screenshot, and the radix4 lesson to its end. Each dump must name
#     the 128-bit device and have check mode agree with the CPU reference ---------------------------
set(APP_LANES_ENV "MESA_SHADER_CACHE_DIR=${APP_OUT}/mesa_cache_lanes")
app_run(app_lanes8_cache --device llvmpipe --algo radix4 --n 64 --step 3 --screenshot lanes8_cache.png)
set_tests_properties(app_lanes8_cache PROPERTIES ENVIRONMENT "${APP_LANES_ENV}")
foreach(case "oddeven;--shared-elems;16;--step;2" "radix4;--step;3" "onesweep;--step;3")
  list(GET case 0 algo)
  list(REMOVE_AT case 0)
  app_run(app_lanes4_${algo} --device llvmpipe --algo ${algo} --n 64 ${case} --check --screenshot lanes4_${algo}.png
          --dump-state lanes4_${algo}.json)
  set_tests_properties(app_lanes4_${algo} PROPERTIES ENVIRONMENT "LP_NATIVE_VECTOR_WIDTH=128;${APP_LANES_ENV}"
                       FIXTURES_REQUIRED app_lanes8_cache)
  app_check(app_lanes4_${algo}_png app_lanes4_${algo} png lanes4_${algo}.png --width 1600 --height 1000)
  add_test(NAME app_lanes4_${algo}_state COMMAND ${CMAKE_COMMAND} -E cat ${APP_OUT}/lanes4_${algo}.json)
  set_tests_properties(app_lanes4_${algo}_state PROPERTIES FIXTURES_REQUIRED app_lanes4_${algo} PASS_REGULAR_EXPRESSION
                       "\"check\":{\"available\":true,[^}]*\"ok\":true}.*\"device\":\"llvmpipe [^\"]*, 128 bits")
endforeach()
file(MAKE_DIRECTORY ${APP_OUT}/lessons_4lanes)
app_run(app_lanes4_lesson --device llvmpipe --presentation --width 1280 --height 720 --lesson radix4
        --screenshot-each lessons_4lanes)
set_tests_properties(app_lanes4_lesson PROPERTIES ENVIRONMENT "LP_NATIVE_VECTOR_WIDTH=128;${APP_LANES_ENV}"
                     FIXTURES_REQUIRED app_lanes8_cache)
app_check(app_lanes4_lesson_check app_lanes4_lesson lesson lessons_4lanes/radix4.jsonl --min-stops 10 --visible)

# --- Themes: --theme light from the start, a script switching themes, and the light lessons -----------
# The screenshots' most common colour (the panels) is light or dark as the theme says (app_check png
# --theme); the colours' contrast itself is checked in app_unit.AppThemes.*.
app_run(app_theme_light --theme light --algo oddeven-layer --n 16 --seed 1 --step 4 --check
        --screenshot app_theme_light.png)
app_check(app_theme_light_png app_theme_light png app_theme_light.png --width 1600 --height 1000 --theme light)
app_run(app_theme_switch --theme light --script ${CMAKE_CURRENT_LIST_DIR}/app/theme.script)
app_check(app_theme_switch_light app_theme_switch png theme_light.png --width 1600 --height 1000 --theme light)
app_check(app_theme_switch_dark app_theme_switch png theme_dark.png --width 1600 --height 1000 --theme dark)
# The built-in lessons in the light theme at 1280x720 in presentation mode and at 1600x1000 (the
# dark runs are above): every stop's highlight, subject, question, feedback and text on screen.
foreach(run light light1600)
  file(MAKE_DIRECTORY ${APP_OUT}/lessons_${run})
endforeach()
foreach(lesson oddeven radix4 onesweep)
  app_run(app_theme_lesson_${lesson} --theme light --presentation --width 1280 --height 720 --lesson ${lesson}
          --screenshot-each lessons_light)
  app_check(app_theme_lesson_${lesson}_check app_theme_lesson_${lesson} lesson lessons_light/${lesson}.jsonl
            --min-stops 10 --visible)
  app_run(app_theme_lesson_${lesson}_1600 --theme light --lesson ${lesson} --screenshot-each lessons_light1600)
  app_check(app_theme_lesson_${lesson}_1600_check app_theme_lesson_${lesson}_1600 lesson
            lessons_light1600/${lesson}.jsonl --min-stops 10 --visible)
endforeach()
app_check(app_theme_lesson_labels app_theme_lesson_radix4 labels lessons_light/radix4.jsonl --min-labels 100)

# --- Lesson flow: Right with a question open neither steps nor reveals the answer; the panel asks
#     for an answer or "Show me" first (tests/app/lesson_held.script) -------------------------------
add_test(NAME app_lesson_held_clean COMMAND ${CMAKE_COMMAND} -E rm -f ${APP_OUT}/lesson_held.jsonl)
set_tests_properties(app_lesson_held_clean PROPERTIES FIXTURES_SETUP app_lesson_held_clean)
app_run(app_lesson_held --presentation --width 1280 --height 720 --script ${CMAKE_CURRENT_LIST_DIR}/app/lesson_held.script)
set_tests_properties(app_lesson_held PROPERTIES FIXTURES_REQUIRED app_lesson_held_clean)
app_check(app_lesson_held_check app_lesson_held lesson-held lesson_held.jsonl)
app_check(app_lesson_held_png app_lesson_held png lesson_held.png --width 1280 --height 720)

# --- Failures: exit code and exactly one line on stderr ------------------------------------------------
set(APP_EXPECT ${CMAKE_CURRENT_LIST_DIR}/cli/expect_failure.cmake)
add_test(NAME app_fail_no_display
         COMMAND ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY
                 ${CMAKE_COMMAND} -DEXPECT_CODE=3 "-DEXPECT_REGEX=no display.*xvfb-run" "-DEXPECT_PREFIX=sortlab: error: "
                 -P ${APP_EXPECT} -- ${APP} --n 16)
add_test(NAME app_fail_no_driver
         COMMAND ${CMAKE_COMMAND} -E env VK_ICD_FILENAMES=/nonexistent/icd.json VK_DRIVER_FILES=/nonexistent/icd.json
                 ${CMAKE_COMMAND} -DEXPECT_CODE=3 "-DEXPECT_REGEX=driver" "-DEXPECT_PREFIX=sortlab: error: "
                 -P ${APP_EXPECT} -- ${XVFB_RUN} -a -n 170 ${APP} --n 16 --step 1 --dump-state never.json)
add_test(NAME app_fail_no_such_device
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=3 "-DEXPECT_REGEX=nosuchdevice" "-DEXPECT_PREFIX=sortlab: error: "
                 -P ${APP_EXPECT} -- ${XVFB_RUN} -a -n 180 ${APP} --device nosuchdevice --step 1 --dump-state never.json)
add_test(NAME app_fail_usage
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=--algo 'bubble'" "-DEXPECT_PREFIX=sortlab: error: "
                 -P ${APP_EXPECT} -- ${APP} --algo bubble)
add_test(NAME app_fail_bench_usage
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=--algo 'bubble'" "-DEXPECT_PREFIX=sortlab: error: "
                 -P ${APP_EXPECT} -- ${APP} --bench --algo bubble)
add_test(NAME app_fail_lesson
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=bad.lesson:5: unknown directive '@colour'"
                 "-DEXPECT_PREFIX=sortlab: error: " -P ${APP_EXPECT} -- ${APP} --lesson ${CMAKE_CURRENT_LIST_DIR}/app/bad.lesson)
add_test(NAME app_fail_theme
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=--theme 'purple': use dark or light"
                 "-DEXPECT_PREFIX=sortlab: error: " -P ${APP_EXPECT} -- ${APP} --theme purple)
add_test(NAME app_fail_lesson_stop
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=where99.lesson:5: @ask where 99: no key at index 99"
                 "-DEXPECT_PREFIX=sortlab: error: " -P ${APP_EXPECT} -- ${APP} --lesson ${CMAKE_CURRENT_LIST_DIR}/app/where99.lesson)
add_test(NAME app_fail_tile_keys
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=--tile-keys '3': use auto"
                 "-DEXPECT_PREFIX=sortlab: error: " -P ${APP_EXPECT} -- ${APP} --algo onesweep --tile-keys 3 --screenshot x.png)
add_test(NAME app_fail_no_lesson
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=no lesson 'nosuch'" "-DEXPECT_PREFIX=sortlab: error: "
                 -P ${APP_EXPECT} -- ${APP} --lesson nosuch)
# --load-results: a file that does not exist, or is not results, is refused before any window opens.
file(WRITE ${APP_OUT}/malformed_results.json "[{\"algo\": \"onesweep\", \"n\": 1024}]\n")
file(WRITE ${APP_OUT}/not_json_results.json "algo,n,median_ms\nonesweep,1024,0.05\n")
foreach(case "load_missing|no-such-results.json: no such file|${APP_OUT}/no-such-results.json"
             "load_malformed|malformed_results.json: result 0: no .variant.|${APP_OUT}/malformed_results.json"
             "load_not_json|not_json_results.json: not JSON: parse error at line 1|${APP_OUT}/not_json_results.json")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 regex)
  list(GET parts 2 file)
  add_test(NAME app_fail_${name}
           COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=${regex}" "-DEXPECT_PREFIX=sortlab: error: "
                   -P ${APP_EXPECT} -- ${APP} --load-results ${APP_H100_SWEEP} ${file} --dump-state never.json)
endforeach()
add_test(NAME app_fail_script_bench_run
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=bench-run: .*--sizes" "-DEXPECT_PREFIX=sortlab: error: "
                 -P ${APP_EXPECT} -- ${APP} --script ${CMAKE_CURRENT_LIST_DIR}/app/bad_bench.script)
# Bad keys of your own: refused before any window opens, with where the entry is and what is wrong.
file(WRITE ${APP_OUT}/bad_keys.txt "10\n25\n3x 4\n")
foreach(case "keys_word|keys:1:5: 'ten' is not a u32 key|--keys;1,2,ten"
             "keys_range|keys:1:3: 3000000000 is out of range for i32 keys|--type;i32;--keys;1,3000000000"
             "keys_empty|keys: no keys|--keys; , "
             "input_missing|/nonexistent/keys.txt: cannot read it|--input;/nonexistent/keys.txt"
             "input_position|bad_keys.txt:3:1: '3x' is not a u32 key|--input;${APP_OUT}/bad_keys.txt"
             "n_negative|n '-5' is not a count|--n;-5")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 regex)
  list(SUBLIST parts 2 -1 args)
  add_test(NAME app_fail_${name}
           COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=${regex}" "-DEXPECT_PREFIX=sortlab: error: "
                   -P ${APP_EXPECT} -- ${APP} ${args})
endforeach()
add_test(NAME app_fail_step_past_end
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=past the end" "-DEXPECT_PREFIX=sortlab: error: "
                 -P ${APP_EXPECT} -- ${XVFB_RUN} -a -n 175 ${APP} --n 16 --step 99 --dump-state never.json)
include(${CMAKE_CURRENT_LIST_DIR}/recording_tests.cmake) # recordings: made, replayed, refused
