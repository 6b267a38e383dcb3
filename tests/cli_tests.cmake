# Command-line tests of sortlab-bench (included from tests/CMakeLists.txt). Every run that touches
# Vulkan passes --validation, so any validation message fails the test (exit code 1). Sizes are
# chosen for lavapipe on two cores: the whole set stays well under a minute.
#
#   cli_help, cli_list_devices      the informational commands
#   cli_check_*                     --check of oddeven, oddeven-layer and std across key types,
#                                   orders, keys-only / key-value and odd sizes (exit 0 = all pass)
#   cli_json_run / cli_json_check   the --json file has every field (bench_cli_check json)
#   cli_trace_run / cli_trace_check every --trace line equals an independent model of Batcher's
#                                   network after that layer (bench_cli_check trace)
#   cli_fail_*                      bad input: the right exit code and exactly one line on stderr
#   cli_anchor_*, cli_fail_anchor_* --anchor cub with a fake anchor library (no CUDA needed): the
#                                   cub rows, "x cub", --check with CUB's ±0 semantics, the JSON,
#                                   and every way of not having a usable anchor

set(CLI_DIR ${CMAKE_CURRENT_LIST_DIR}/cli)
set(CLI_OUT ${CMAKE_CURRENT_BINARY_DIR}/cli_out)
file(MAKE_DIRECTORY ${CLI_OUT})

# The checker of --json and --trace files; it does not link the sortlab library.
add_executable(bench_cli_check ${CLI_DIR}/bench_cli_check.cpp)
target_link_libraries(bench_cli_check PRIVATE nlohmann_json::nlohmann_json)

set(BENCH $<TARGET_FILE:sortlab-bench>)
set(ALGOS --algo oddeven,oddeven-layer,std)

# --- Informational commands --------------------------------------------------------------------------
add_test(NAME cli_help COMMAND ${BENCH} --help)
set_tests_properties(cli_help PROPERTIES PASS_REGULAR_EXPRESSION "Exit codes:.*0  success.*1  .*2  .*3  ")

add_test(NAME cli_list_devices COMMAND ${BENCH} --list-devices)
set_tests_properties(cli_list_devices PROPERTIES PASS_REGULAR_EXPRESSION "maxStorageBufferRange.*\n0  ")

# --- --check: every result equals sortlab::referenceSort (exit 1 otherwise) ------------------------
# One large odd size with the default tiles.
add_test(NAME cli_check_u32_1000003
         COMMAND ${BENCH} --validation --check ${ALGOS} --type u32 --n 1000003 --reps 1)
# Every other key type, keys-only and key-value, at tiny sizes (descending: each pipeline costs
# ~0.1 s under validation on lavapipe); then odd sizes past the 64/128-element tiles, so that
# tile, window (with and without halo) and single-layer steps run, in both orders.
add_test(NAME cli_check_types_tiny
         COMMAND ${BENCH} --validation --check ${ALGOS} --type i32,f32,u64,i64,f64 --values none,u32 --order desc
                 --dist special --n 1,3 --shared-elems 128 --reps 1 --quiet)
add_test(NAME cli_check_types_4097
         COMMAND ${BENCH} --validation --check ${ALGOS} --type i32,f64 --values u32 --order asc,desc --dist special
                 --n 4097 --shared-elems 128 --reps 1)
add_test(NAME cli_check_types_4097_keys
         COMMAND ${BENCH} --validation --check ${ALGOS} --type f32,i64 --order desc --dist gaussian --n 4097
                 --shared-elems 64 --reps 1)
add_test(NAME cli_check_u32_kv_65537
         COMMAND ${BENCH} --validation --check ${ALGOS} --type u32 --values u32 --order desc --dist few-unique
                 --n 65537 --shared-elems 128 --reps 1)
add_test(NAME cli_check_dists
         COMMAND ${BENCH} --validation --check ${ALGOS} --type u64 --values u32 --dist all --n 1500 --shared-elems 64
                 --reps 1)
set_tests_properties(cli_check_u32_1000003 cli_check_types_4097 cli_check_types_4097_keys cli_check_u32_kv_65537
                     cli_check_dists PROPERTIES PASS_REGULAR_EXPRESSION "checks: [1-9][0-9]* passed, 0 failed" TIMEOUT 120)
set_tests_properties(cli_check_types_tiny PROPERTIES TIMEOUT 120) # --quiet: the exit code says it

# --- --onesweep-shape: OneSweep's pass kernel in another shape (tuning experiments), persistent at 2^18 -----
add_test(NAME cli_onesweep_shape
         COMMAND ${BENCH} --validation --check --algo onesweep --values none,u32 --n 2^18 --onesweep-shape 128x18x2
                 --reps 1 --warmup-ms 0)
set_tests_properties(cli_onesweep_shape PROPERTIES
                     PASS_REGULAR_EXPRESSION "onesweep +[^\n]*\\+128x18x2.*checks: 2 passed, 0 failed" TIMEOUT 120)
# The subgroups' counts in the staged tile (u32 keys: apart in the table), one tile a workgroup at 2^14.
add_test(NAME cli_onesweep_shape_counts
         COMMAND ${BENCH} --validation --check --algo onesweep --values none,u32 --n 2^18,2^14
                 --onesweep-shape 128x16+counts-in-tile --reps 1 --warmup-ms 0)
set_tests_properties(cli_onesweep_shape_counts PROPERTIES
                     PASS_REGULAR_EXPRESSION "\\+128x16\\+counts-in-tile.*checks: 4 passed, 0 failed" TIMEOUT 120)

# The write-out in rounds (a staged tile of half or a quarter of the tile), persistent and one tile a
# workgroup, u32 keys with and without values; 64-bit keys keep one round.
add_test(NAME cli_onesweep_shape_rounds
         COMMAND ${BENCH} --validation --check --algo onesweep,onesweep-fallback --type u32,u64 --values none,u32
                 --n 2^18,100003 --dist uniform,equal --onesweep-shape 128x16+2-rounds --reps 1 --warmup-ms 0)
set_tests_properties(cli_onesweep_shape_rounds PROPERTIES
                     PASS_REGULAR_EXPRESSION "\\+128x16\\+2-rounds.*checks: 32 passed, 0 failed" TIMEOUT 300)
add_test(NAME cli_onesweep_shape_rounds_one_tile
         COMMAND ${BENCH} --validation --check --algo onesweep --values none,u32 --n 2^18,4099
                 --onesweep-shape 64x8x2+4-rounds+one-tile --reps 1 --warmup-ms 0)
set_tests_properties(cli_onesweep_shape_rounds_one_tile PROPERTIES
                     PASS_REGULAR_EXPRESSION "\\+64x8x2\\+4-rounds\\+one-tile.*checks: 4 passed, 0 failed" TIMEOUT 300)
# Tiles by workgroup index and from the counter, one tile a workgroup, in the table's kernels at
# 128 x 16: u32 keys in two rounds, u64 keys with the counts in the staged tile (halves), with and
# without values; equal keys (every pass skipped) too.
add_test(NAME cli_onesweep_shape_index_tiles
         COMMAND ${BENCH} --validation --check --algo onesweep,onesweep-fallback --type u32,u64 --n 2^17,5003
                 --dist uniform,equal --onesweep-shape 128x16+one-tile+index-tiles --reps 1 --warmup-ms 0)
set_tests_properties(cli_onesweep_shape_index_tiles PROPERTIES
                     PASS_REGULAR_EXPRESSION "\\+128x16\\+one-tile\\+index-tiles.*checks: 16 passed, 0 failed" TIMEOUT 300)
add_test(NAME cli_onesweep_shape_counter_tiles
         COMMAND ${BENCH} --validation --check --algo onesweep --values none,u32 --n 2^17
                 --onesweep-shape 128x16+2-rounds+one-tile+counter-tiles --reps 1 --warmup-ms 0)
set_tests_properties(cli_onesweep_shape_counter_tiles PROPERTIES
                     PASS_REGULAR_EXPRESSION "\\+128x16\\+2-rounds\\+one-tile\\+counter-tiles.*checks: 2 passed, 0 failed" TIMEOUT 300)
# Tiles by workgroup index in a folded dispatch (tiles of 4 keys: 32 774 workgroups, two rows of
# tuning::kMaxGroupsX): the tile is the workgroup's index across rows; the last row's spare
# workgroups leave. On one lavapipe thread, which runs workgroups in index order (with several,
# each takes a range, and tiles thousands ahead of their predecessors fall back on each of them).
add_test(NAME cli_onesweep_index_tiles_folded
         COMMAND ${BENCH} --validation --check --algo onesweep --n 131095 --tile-keys 4
                 --onesweep-shape 224x16+one-tile+index-tiles --reps 1 --warmup-ms 0)
set_tests_properties(cli_onesweep_index_tiles_folded PROPERTIES ENVIRONMENT "LP_NUM_THREADS=1"
                     PASS_REGULAR_EXPRESSION "\\+224x16\\+one-tile\\+index-tiles.*checks: 1 passed, 0 failed" TIMEOUT 300)
# --onesweep-histogram: the histogram kernel in its own shape (one copy of its counts, 2 keys at once).
add_test(NAME cli_onesweep_histogram
         COMMAND ${BENCH} --validation --check --algo onesweep --type u32,u64 --n 2^18,1001
                 --onesweep-histogram 128x4x1x2 --reps 1 --warmup-ms 0)
set_tests_properties(cli_onesweep_histogram PROPERTIES
                     PASS_REGULAR_EXPRESSION "\\+hist128x4x1x2.*checks: 4 passed, 0 failed" TIMEOUT 120)

# --- --json --------------------------------------------------------------------------------------------
add_test(NAME cli_json_run
         COMMAND ${BENCH} --validation --check ${ALGOS} --type f32 --values none,u32 --n 2^10,777 --reps 3
                 --quiet --json ${CLI_OUT}/results.json)
set_tests_properties(cli_json_run PROPERTIES FIXTURES_SETUP cli_json)
# 2 value kinds x 2 sizes x 3 algorithms
add_test(NAME cli_json_check COMMAND bench_cli_check json ${CLI_OUT}/results.json --count 12
                                     --algos oddeven,oddeven-layer,std --check pass)
set_tests_properties(cli_json_check PROPERTIES FIXTURES_REQUIRED cli_json)

# --algo auto: sortlab::sort's Algorithm::automatic picks for each case, and says which and why; equal
# keys (one bucket) take OneSweep. Beside onesweep and hybrid, u32 keys and u32/u32 pairs.
add_test(NAME cli_json_auto_run
         COMMAND ${BENCH} --validation --check --algo onesweep,hybrid,auto --type u32 --values none,u32
                 --dist uniform,equal --n 2^16 --reps 1 --warmup-ms 0 --quiet --json ${CLI_OUT}/auto.json)
set_tests_properties(cli_json_auto_run PROPERTIES FIXTURES_SETUP cli_json_auto TIMEOUT 300)
# 2 value kinds x 2 distributions x 3 algorithms
add_test(NAME cli_json_auto_check COMMAND bench_cli_check json ${CLI_OUT}/auto.json --count 12
                                          --algos onesweep,hybrid,auto --check pass)
set_tests_properties(cli_json_auto_check PROPERTIES FIXTURES_REQUIRED cli_json_auto)

# --- --pipeline-stats: every GPU row lists its pipelines (with what the driver says of each) ---------
add_test(NAME cli_pipeline_stats_run
         COMMAND ${BENCH} --validation --algo all --n 2^12 --reps 1 --warmup-ms 0 --quiet --pipeline-stats
                 --json ${CLI_OUT}/pipelines.json)
set_tests_properties(cli_pipeline_stats_run PROPERTIES FIXTURES_SETUP cli_pipelines)
add_test(NAME cli_pipeline_stats_check COMMAND bench_cli_check pipelines ${CLI_OUT}/pipelines.json)
set_tests_properties(cli_pipeline_stats_check PROPERTIES FIXTURES_REQUIRED cli_pipelines)

# --- --export: results.json, results.csv, plot.png, plot.svg (tests/cli/export_check.cpp) ------------
# export_check reads the files only (nlohmann-json and stb_image); it also checks the app's exports
# (tests/app_tests.cmake).
add_executable(export_check ${CLI_DIR}/export_check.cpp)
target_include_directories(export_check PRIVATE ${STB_INCLUDE_DIR})
target_link_libraries(export_check PRIVATE nlohmann_json::nlohmann_json ${STB_LIBRARY} m)
set(EXPORT_SWEEP --algo oddeven,radix4,onesweep,std --sizes 2^10..2^11 --reps 2 --warmup-ms 0 --check)
add_test(NAME cli_export_run
         COMMAND ${BENCH} --validation ${EXPORT_SWEEP} --quiet --export ${CLI_OUT}/export --json ${CLI_OUT}/export_json.json)
set_tests_properties(cli_export_run PROPERTIES FIXTURES_SETUP cli_export TIMEOUT 120)
add_test(NAME cli_export_json COMMAND bench_cli_check json ${CLI_OUT}/export/results.json --count 8
                                      --algos oddeven,radix4,onesweep,std --check pass)
add_test(NAME cli_export_same COMMAND export_check same ${CLI_OUT}/export/results.json ${CLI_OUT}/export_json.json
                                      --check pass)
add_test(NAME cli_export_csv COMMAND export_check csv ${CLI_OUT}/export/results.csv ${CLI_OUT}/export/results.json)
add_test(NAME cli_export_png COMMAND export_check png ${CLI_OUT}/export/plot.png --width 1400 --height 1000)
add_test(NAME cli_export_svg COMMAND export_check svg ${CLI_OUT}/export/plot.svg)
set_tests_properties(cli_export_json cli_export_same cli_export_csv cli_export_png cli_export_svg PROPERTIES
                     FIXTURES_REQUIRED cli_export)
# sortlab-plot draws the same figure from a --json file, here with the fake CUB anchor's rows as a
# line (no CUDA needed), as SVG and PNG.
add_test(NAME cli_plot_png COMMAND sortlab-plot ${CLI_OUT}/export/results.json ${CLI_OUT}/anchor.json --bandwidth 100
                                   -o ${CLI_OUT}/plot_cub.png)
add_test(NAME cli_plot_svg COMMAND sortlab-plot ${CLI_OUT}/anchor.json -o ${CLI_OUT}/plot_cub.svg --title "CUB anchor")
set_tests_properties(cli_plot_png cli_plot_svg PROPERTIES FIXTURES_REQUIRED "cli_export;cli_anchor_json"
                     FIXTURES_SETUP cli_plot PASS_REGULAR_EXPRESSION "[0-9]+ results, [0-9]+ lines")
# --by-dist: the speed-up over CUB by distribution, from the fake anchor's rows; results without CUB
# figures are a usage error that says what to run.
add_test(NAME cli_plot_by_dist COMMAND sortlab-plot ${CLI_OUT}/anchor.json --by-dist -o ${CLI_OUT}/by_dist.png
                                       --width 1000 --height 700)
set_tests_properties(cli_plot_by_dist PROPERTIES FIXTURES_REQUIRED cli_anchor_json FIXTURES_SETUP cli_plot_by_dist
                     PASS_REGULAR_EXPRESSION "[0-9]+ results")
add_test(NAME cli_plot_by_dist_check COMMAND export_check png ${CLI_OUT}/by_dist.png --width 1000 --height 700)
set_tests_properties(cli_plot_by_dist_check PROPERTIES FIXTURES_REQUIRED cli_plot_by_dist)
add_test(NAME cli_fail_plot_by_dist_no_cub
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=--by-dist: no speed-up over CUB.*--anchor cub"
                 "-DEXPECT_PREFIX=sortlab-plot: error: " -P ${CLI_DIR}/expect_failure.cmake --
                 $<TARGET_FILE:sortlab-plot> ${CLI_OUT}/export/results.json --by-dist -o ${CLI_OUT}/by_dist_none.png)
set_tests_properties(cli_fail_plot_by_dist_no_cub PROPERTIES FIXTURES_REQUIRED cli_export)
add_test(NAME cli_plot_png_check COMMAND export_check png ${CLI_OUT}/plot_cub.png --width 1400 --height 1000)
add_test(NAME cli_plot_svg_check COMMAND export_check svg ${CLI_OUT}/plot_cub.svg)
set_tests_properties(cli_plot_png_check cli_plot_svg_check PROPERTIES FIXTURES_REQUIRED cli_plot)
# --keep-going: sizes the device cannot hold become error rows (radix4: more than 2^32 - 1 keys;
# oddeven: more device memory than lavapipe has), the rest runs; exit 3 and one line at the end.
add_test(NAME cli_keep_going_run
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=3 "-DEXPECT_REGEX=2 cases failed [(]--keep-going"
                 "-DEXPECT_PREFIX=sortlab-bench: error: " -P ${CLI_DIR}/expect_failure.cmake --
                 ${BENCH} --validation --keep-going --algo radix4,oddeven --n 1024,2^32 --reps 1 --warmup-ms 0 --check
                 --quiet --json ${CLI_OUT}/keep_going.json)
set_tests_properties(cli_keep_going_run PROPERTIES FIXTURES_SETUP cli_keep_going)
add_test(NAME cli_keep_going_json COMMAND export_check errors ${CLI_OUT}/keep_going.json --count 2)
set_tests_properties(cli_keep_going_json PROPERTIES FIXTURES_REQUIRED cli_keep_going)

# --- --trace: one line per network layer, checked against an independent model -----------------------
add_test(NAME cli_trace_run_16
         COMMAND ${BENCH} --validation --algo oddeven,oddeven-layer --type u32 --n 16 --reps 1 --quiet
                 --trace ${CLI_OUT}/trace16.jsonl)
add_test(NAME cli_trace_run_13
         COMMAND ${BENCH} --validation --algo oddeven,oddeven-layer,std --type f32,i64 --values u32 --order desc
                 --dist special --seed 10 --n 13 --reps 1 --quiet --trace ${CLI_OUT}/trace13.jsonl)
set_tests_properties(cli_trace_run_16 PROPERTIES FIXTURES_SETUP cli_trace16)
set_tests_properties(cli_trace_run_13 PROPERTIES FIXTURES_SETUP cli_trace13)
add_test(NAME cli_trace_check_16
         COMMAND bench_cli_check trace ${CLI_OUT}/trace16.jsonl --algos oddeven,oddeven-layer --groups 2)
add_test(NAME cli_trace_check_13
         COMMAND bench_cli_check trace ${CLI_OUT}/trace13.jsonl --algos oddeven,oddeven-layer --groups 4)
set_tests_properties(cli_trace_check_16 PROPERTIES FIXTURES_REQUIRED cli_trace16)
set_tests_properties(cli_trace_check_13 PROPERTIES FIXTURES_REQUIRED cli_trace13)

# --- Bad input: exit code, and exactly one line on stderr ---------------------------------------------
# cli_fail(NAME CODE REGEX [PREFIX] -- ARGS...)
function(cli_fail name code regex)
  set(prefix "sortlab-bench: error: ")
  set(args ${ARGN})
  list(GET args 0 first)
  if(NOT first STREQUAL "--")
    set(prefix "${first}")
    list(REMOVE_AT args 0)
  endif()
  list(REMOVE_AT args 0) # the "--"
  add_test(NAME cli_fail_${name}
           COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=${code} "-DEXPECT_REGEX=${regex}" "-DEXPECT_PREFIX=${prefix}"
                   -P ${CLI_DIR}/expect_failure.cmake -- ${BENCH} ${args})
endfunction()

# Usage errors: exit 2.
cli_fail(type_u16 2 "--type 'u16'" -- --type u16 --n 16)
# Keys of your own (--keys, --input): one line naming where the entry is and what is wrong; exit 2.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/cli_bad_keys.txt "10\n25\n3x 4\n")
cli_fail(keys_word 2 "--keys:1:5: 'ten' is not a u32 key" -- --keys "1,2,ten" --algo std)
cli_fail(keys_negative 2 "--keys:1:3: -2 is negative for u32 keys" -- --keys "1,-2" --algo std)
cli_fail(keys_range 2 "--keys:1:3: 3000000000 is out of range for i32 keys" -- --keys "1,3000000000" --type i32 --algo std)
cli_fail(keys_range_any_type 2 "out of range for f32" -- --keys "1,1e39" --type f64,f32 --algo std)
cli_fail(onesweep_shape_short 2 "--onesweep-shape '256' needs at least WxK" -- --onesweep-shape 256 --algo onesweep)
cli_fail(onesweep_shape_counts 2 "--onesweep-shape '256x16\\+counts': after '\\+' comes counts-in-tile, counts-apart, N-rounds"
         -- --onesweep-shape 256x16+counts --algo onesweep)
cli_fail(onesweep_shape_rounds 2 "--onesweep-shape '256x16\\+5-rounds': after '\\+' comes" -- --onesweep-shape 256x16+5-rounds
         --algo onesweep)
cli_fail(onesweep_shape_tiles 2 "--onesweep-shape '256x16\\+index': after '\\+' comes .*, one-tile, index-tiles or counter-tiles"
         -- --onesweep-shape 256x16+index --algo onesweep)
cli_fail(onesweep_histogram_copies 2 "--onesweep-histogram '256x2x3' is not WxP\\[xC\\[xL\\]\\]" -- --onesweep-histogram 256x2x3
         --algo onesweep)
cli_fail(onesweep_histogram_workgroup 2 "onesweep's histogram workgroup must be a multiple of" -- --onesweep-histogram 100x2
         --algo onesweep --n 1000 --reps 1 --warmup-ms 0)
cli_fail(onesweep_shape_workgroup 2 "onesweep's pass workgroup must be a multiple of" -- --onesweep-shape 100x4
         --algo onesweep --n 1000 --reps 1 --warmup-ms 0)
cli_fail(keys_empty 2 "--keys: no keys" -- --keys " , " --algo std)
# An empty --keys (not the default 2^20 keys): through sh, since a CMake argument cannot be empty.
add_test(NAME cli_fail_keys_none
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=--keys: no keys were given"
                 "-DEXPECT_PREFIX=sortlab-bench: error: " -P ${CMAKE_CURRENT_LIST_DIR}/cli/expect_failure.cmake
                 -- sh -c "\"$0\" --keys '' --algo std" $<TARGET_FILE:sortlab-bench>)
cli_fail(keys_with_n 2 "not with --n|without --n" -- --keys "1,2" --n 5 --algo std)
cli_fail(input_missing 2 "/nonexistent/keys.txt: cannot read it" -- --input /nonexistent/keys.txt --algo std)
cli_fail(input_position 2 "cli_bad_keys.txt:3:1: '3x' is not a u32 key" -- --input ${CMAKE_CURRENT_BINARY_DIR}/cli_bad_keys.txt --algo std)
cli_fail(tile_keys_small 2 "radix4 tiles hold 4 to [0-9]+ keys" -- --algo radix4 --tile-keys 3 --n 64)
cli_fail(tile_keys_large 2 "onesweep tiles hold 4 to [0-9]+ keys" -- --algo onesweep --tile-keys 1000000 --n 64)
# Teaching tiles through the command line: every n from a few keys to 300, both radix sorts, both paths.
add_test(NAME cli_tile_keys
         COMMAND ${BENCH} --validation --check --algo radix4,onesweep,onesweep-fallback --type u32,f64 --values u32
                 --tile-keys 8 --n 1,7,8,9,64,65,300 --reps 1 --warmup-ms 0 --quiet)
cli_fail(n_negative 2 "--n '-5' is not a count" -- --n -5 --algo std)
# The keys given come back sorted, on every key type, through both radix sorts (and --check passes).
add_test(NAME cli_keys_roundtrip
         COMMAND ${BENCH} --validation --check --algo radix4,onesweep,oddeven,std --type all --values none,u32
                 --keys "10,25,39,92,1,5,68,23,21,10" --reps 1 --warmup-ms 0 --quiet)
cli_fail(algo_unknown 2 "--algo 'bubble'" -- --algo bubble --n 16)
cli_fail(dist_unknown 2 "--dist 'zipf'" -- --dist zipf --n 16)
cli_fail(order_unknown 2 "--order 'up'" -- --order up --n 16)
cli_fail(values_unknown 2 "--values 'u64'" -- --values u64 --n 16)
cli_fail(n_not_a_count 2 "--n '12x'" -- --n 12x)
cli_fail(n_zero 2 "at least 1" -- --n 0)
cli_fail(sizes_reversed 2 "larger than the last" -- --sizes 2^20..2^10)
cli_fail(sizes_and_n 2 "excludes" -- --sizes 2^4..2^6 --n 16)
cli_fail(reps_zero 2 "--reps" -- --reps 0 --n 16)
cli_fail(unknown_option 2 "--frobnicate" -- --frobnicate)
cli_fail(shared_elems 2 "shared-elems 100" -- --validation --shared-elems 100 --n 16 --algo oddeven)
cli_fail(shared_elems_too_big 2 "--shared-elems 1048576" -- --validation --shared-elems 1048576 --n 16 --algo oddeven)
cli_fail(trace_5000 2 "4096" -- --trace ${CLI_OUT}/never.jsonl --n 5000)
cli_fail(json_unwritable 2 "--json" -- --json ${CLI_OUT}/no/such/dir/x.json --n 16 --algo std)
cli_fail(export_unwritable 2 "--export directory" -- --export /proc/nope/export --n 16 --algo std)
cli_fail(warmup_negative 2 "--warmup-ms" -- --warmup-ms -5 --n 16 --algo std)
# Device errors: exit 3.
cli_fail(n_2_40 3 "smaller n" -- --validation --n 2^40 --algo oddeven)
cli_fail(n_2_40_std 3 "smaller n" -- --n 2^40 --algo std)
cli_fail(device_unknown 3 "nosuchdevice" -- --validation --device nosuchdevice --n 16)
cli_fail(device_index 3 "index 99" -- --validation --device 99 --n 16)
# A check failure: exit 1, and the first key that differs (the hidden --test-corrupt-result flips
# one bit of key n/2 of every GPU result before the comparison).
cli_fail(check_mismatch 1 "oddeven.*key 500 is .*, expected" "sortlab-bench: check failed: "
         -- --validation --check --algo oddeven --n 1000 --quiet --test-corrupt-result)
# No Vulkan driver (the loader finds no ICD): exit 3, with what to install.
cli_fail(no_driver 3 "driver" -- --n 16)
set_tests_properties(cli_fail_no_driver PROPERTIES ENVIRONMENT "VK_ICD_FILENAMES=/nonexistent/icd.json;VK_DRIVER_FILES=/nonexistent/icd.json")

# --- --anchor cub: the CUB anchor glue, with a fake anchor -------------------------------------------
# fake_cub_anchor (tests/cli/fake_cub_anchor.cpp) implements bench/include/sortlab/bench/cub_anchor.h with std::stable_sort
# and CUB's documented key order (-0.0 equal to +0.0), so the dlopen path, the cub rows, the "x cub"
# column and field, and --check of a CUB result all run here. The real anchor's test
# (cli_anchor_real) is defined with the library, at the end of the top-level CMakeLists.txt.
add_library(fake_cub_anchor MODULE ${CLI_DIR}/fake_cub_anchor.cpp)
target_include_directories(fake_cub_anchor PRIVATE ${CMAKE_SOURCE_DIR}/bench/include)
set_target_properties(fake_cub_anchor PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${CLI_OUT}/fake)
set(FAKE_ANCHOR $<TARGET_FILE:fake_cub_anchor>)
# Copies of sortlab-bench: alone in a directory (no library next to it), and beside the fake
# under the name the bench looks for.
set(LONELY_BENCH ${CLI_OUT}/lonely/sortlab-bench)
set(WITHFAKE_DIR ${CLI_OUT}/withfake)
add_custom_command(
  OUTPUT ${LONELY_BENCH} ${WITHFAKE_DIR}/sortlab-bench ${WITHFAKE_DIR}/libsortlab_cub_anchor.so
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CLI_OUT}/lonely ${WITHFAKE_DIR}
  COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:sortlab-bench> ${LONELY_BENCH}
  COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:sortlab-bench> ${WITHFAKE_DIR}/sortlab-bench
  COMMAND ${CMAKE_COMMAND} -E copy ${FAKE_ANCHOR} ${WITHFAKE_DIR}/libsortlab_cub_anchor.so
  DEPENDS sortlab-bench fake_cub_anchor
  COMMENT "copies of sortlab-bench for the --anchor cub tests"
  VERBATIM)
add_custom_target(cli_anchor_copies ALL
                  DEPENDS ${LONELY_BENCH} ${WITHFAKE_DIR}/sortlab-bench ${WITHFAKE_DIR}/libsortlab_cub_anchor.so)

# Every key kind, keys-only and key-value, both orders, with NaN/±0/±inf (the f32/f64 results
# check only because the bench puts CUB's equal zeros in totalOrder): 12 cases x 3 rows.
add_test(NAME cli_anchor_check
         COMMAND ${BENCH} --validation --check --algo oddeven,std --anchor cub --type u32,f32,f64 --values none,u32
                 --order asc,desc --dist special --n 1000 --shared-elems 128 --reps 2
                 --json ${CLI_OUT}/anchor.json)
set_tests_properties(cli_anchor_check PROPERTIES
  ENVIRONMENT "SORTLAB_CUB_ANCHOR=${FAKE_ANCHOR}" FIXTURES_SETUP cli_anchor_json
  PASS_REGULAR_EXPRESSION "checks: 36 passed, 0 failed" TIMEOUT 120)
# The JSON: a cub row per case (SortKeys/SortPairs, cuda events, the OneSweep bytes floor) and
# speedup_vs_cub = the cub median / the median on every GPU row.
add_test(NAME cli_anchor_json_check COMMAND bench_cli_check json ${CLI_OUT}/anchor.json --count 36
                                            --algos oddeven,std,cub --check pass --anchor cub)
set_tests_properties(cli_anchor_json_check PROPERTIES FIXTURES_REQUIRED cli_anchor_json)
# The table: the anchor line, the "x cub" column, and the cub row at 1.00x (no Vulkan needed).
add_test(NAME cli_anchor_table COMMAND ${BENCH} --algo std --anchor cub --type i64 --values u32 --n 777 --check)
set_tests_properties(cli_anchor_table PROPERTIES
  ENVIRONMENT "SORTLAB_CUB_ANCHOR=${FAKE_ANCHOR}"
  PASS_REGULAR_EXPRESSION "anchor: cub::DeviceRadixSort on fake CUB anchor[^\n]*\n.*x std     x cub  check\n.*\ncub  +SortPairs +i64 +u32 [^\n]* 1.00x  pass\nchecks: 2 passed, 0 failed")
# libsortlab_cub_anchor.so next to the executable, with $SORTLAB_CUB_ANCHOR unset.
add_test(NAME cli_anchor_next_to_exe COMMAND ${WITHFAKE_DIR}/sortlab-bench --algo std --anchor cub --n 100 --check)
set_tests_properties(cli_anchor_next_to_exe PROPERTIES
  ENVIRONMENT_MODIFICATION "SORTLAB_CUB_ANCHOR=unset:"
  PASS_REGULAR_EXPRESSION "anchor: cub::DeviceRadixSort on fake CUB anchor.*checks: 2 passed, 0 failed")

# $SORTLAB_CUB_ANCHOR as a bare file name means the current directory, not the library path.
add_test(NAME cli_anchor_env_bare_name COMMAND ${WITHFAKE_DIR}/sortlab-bench --algo std --anchor cub --n 100 --check
         WORKING_DIRECTORY ${WITHFAKE_DIR})
set_tests_properties(cli_anchor_env_bare_name PROPERTIES
  ENVIRONMENT "SORTLAB_CUB_ANCHOR=libsortlab_cub_anchor.so"
  PASS_REGULAR_EXPRESSION "from [.]/libsortlab_cub_anchor.so\n.*checks: 2 passed, 0 failed")

# Failures: one line on stderr and the documented exit code (3 for anything about the anchor).
cli_fail(anchor_unknown 2 "--anchor 'hipcub'" -- --anchor hipcub --algo std --n 16)
set(BENCH_SAVED ${BENCH})
set(BENCH ${LONELY_BENCH})
cli_fail(anchor_no_library 3 "--anchor cub: no CUB anchor library: '.*/lonely/libsortlab_cub_anchor.so' does not exist .*nvcc"
         -- --anchor cub --algo std --n 16)
set(BENCH ${BENCH_SAVED})
cli_fail(anchor_bad_path 3 "cannot load the CUB anchor [$]SORTLAB_CUB_ANCHOR '.*/no/such/anchor.so'"
         -- --anchor cub --algo std --n 16)
cli_fail(anchor_not_a_library 3 "cannot load the CUB anchor [$]SORTLAB_CUB_ANCHOR" -- --anchor cub --algo std --n 16)
cli_fail(anchor_no_device 3 "--anchor cub: no CUDA device for the CUB anchor: cudaGetDeviceCount"
         -- --validation --anchor cub --algo oddeven --n 16)
cli_fail(anchor_abi 3 "anchor ABI 1001, this sortlab-bench speaks 1" -- --anchor cub --algo std --n 16)
cli_fail(anchor_sort_fails 3 "cub SortKeys [(]u32 keys, asc, n=16, uniform[)]: cudaMalloc.*smaller n"
         -- --anchor cub --algo std --n 16)
cli_fail(anchor_check_mismatch 1 "cub SortKeys on f32 keys.*key 500 is .*, expected" "sortlab-bench: check failed: "
         -- --check --algo std --anchor cub --type f32 --n 1000 --quiet --test-corrupt-result)
set_tests_properties(cli_fail_anchor_no_library PROPERTIES ENVIRONMENT_MODIFICATION "SORTLAB_CUB_ANCHOR=unset:")
set_tests_properties(cli_fail_anchor_bad_path PROPERTIES
                     ENVIRONMENT "SORTLAB_CUB_ANCHOR=${CLI_OUT}/no/such/anchor.so")
set_tests_properties(cli_fail_anchor_not_a_library PROPERTIES
                     ENVIRONMENT "SORTLAB_CUB_ANCHOR=${CLI_DIR}/expect_failure.cmake")
set_tests_properties(cli_fail_anchor_no_device PROPERTIES
                     ENVIRONMENT "SORTLAB_CUB_ANCHOR=${FAKE_ANCHOR};FAKE_CUB_ANCHOR_MODE=no-device")
set_tests_properties(cli_fail_anchor_abi PROPERTIES
                     ENVIRONMENT "SORTLAB_CUB_ANCHOR=${FAKE_ANCHOR};FAKE_CUB_ANCHOR_MODE=abi")
set_tests_properties(cli_fail_anchor_sort_fails PROPERTIES
                     ENVIRONMENT "SORTLAB_CUB_ANCHOR=${FAKE_ANCHOR};FAKE_CUB_ANCHOR_MODE=sort-fails")
set_tests_properties(cli_fail_anchor_check_mismatch PROPERTIES ENVIRONMENT "SORTLAB_CUB_ANCHOR=${FAKE_ANCHOR}")
