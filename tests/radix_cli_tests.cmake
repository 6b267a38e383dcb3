# Command-line tests of the radix sorts' --trace output, checked by an independent program
# (tests/cli/radix_trace_check.cpp: recounts every histogram, offset and workgroup count from the
# previous line and compares the keys with std::stable_sort on the low bits). Included after
# cli_tests.cmake.
add_executable(radix_trace_check cli/radix_trace_check.cpp)
target_link_libraries(radix_trace_check PRIVATE nlohmann_json::nlohmann_json)
set(RADIX_TRACE_OUT ${CMAKE_CURRENT_BINARY_DIR}/radix_trace)
file(MAKE_DIRECTORY ${RADIX_TRACE_OUT})

# n crosses workgroup tiles on lavapipe (2048 keys of 32 bits, 1024 of 64 bits per tile), with
# key-value and descending cases, a partial last tile, and a case whose high passes are skipped.
add_test(NAME cli_radix4_trace_run
         COMMAND $<TARGET_FILE:sortlab-bench> --validation --algo radix4 --type u32,i64,f32 --values u32
                 --order asc,desc --n 3000 --reps 1 --quiet --trace ${RADIX_TRACE_OUT}/radix4.jsonl)
add_test(NAME cli_radix4_trace_run_skips
         COMMAND $<TARGET_FILE:sortlab-bench> --validation --algo radix4 --type u32 --dist equal,few-unique
                 --n 777 --reps 1 --quiet --trace ${RADIX_TRACE_OUT}/radix4_few.jsonl)
set_tests_properties(cli_radix4_trace_run PROPERTIES FIXTURES_SETUP radix4_trace TIMEOUT 300)
set_tests_properties(cli_radix4_trace_run_skips PROPERTIES FIXTURES_SETUP radix4_trace TIMEOUT 300)
add_test(NAME cli_radix4_trace_check
         COMMAND radix_trace_check ${RADIX_TRACE_OUT}/radix4.jsonl --algo radix4 --digit-bits 4)
add_test(NAME cli_radix4_trace_check_skips
         COMMAND radix_trace_check ${RADIX_TRACE_OUT}/radix4_few.jsonl --algo radix4 --digit-bits 4)
set_tests_properties(cli_radix4_trace_check cli_radix4_trace_check_skips PROPERTIES FIXTURES_REQUIRED radix4_trace)

# OneSweep traces checked by radix_trace_check, lookback and forced fallback: test cli_onesweep_<NAME>_run
# writes NAME.jsonl with the given sortlab-bench arguments (TIMEOUT seconds at most), and
# cli_onesweep_<NAME>_check and cli_onesweep-fallback_<NAME>_check check each variant's traces.
function(onesweep_trace_tests NAME TIMEOUT)
  add_test(NAME cli_onesweep_${NAME}_run
           COMMAND $<TARGET_FILE:sortlab-bench> --validation --algo onesweep,onesweep-fallback ${ARGN} --reps 1 --quiet
                   --trace ${RADIX_TRACE_OUT}/${NAME}.jsonl)
  set_tests_properties(cli_onesweep_${NAME}_run PROPERTIES FIXTURES_SETUP onesweep_${NAME} TIMEOUT ${TIMEOUT})
  foreach(algo onesweep onesweep-fallback)
    add_test(NAME cli_${algo}_${NAME}_check
             COMMAND radix_trace_check ${RADIX_TRACE_OUT}/${NAME}.jsonl --algo ${algo} --digit-bits 8)
    set_tests_properties(cli_${algo}_${NAME}_check PROPERTIES FIXTURES_REQUIRED onesweep_${NAME})
  endforeach()
endfunction()

# OneSweep's lookback log (--lookback-log) at 8-key tiles: 64 keys are 8 tiles, with lookback and
# forced fallback; every record checked independently (radix_trace_check: prefixes recounted, the
# order of the events).
onesweep_trace_tests(lookback 300 --type u32,f64 --values u32 --tile-keys 8 --n 64,61 --lookback-log)
cli_fail(lookback_log_no_trace 2 "--lookback-log adds to --trace" -- --algo onesweep --lookback-log --n 64)
# --lookback-stats: 300 keys in 8-key tiles are 38 tiles a pass; the statistics agree with their
# depth histograms (bench_cli_check json --lookback 38). Without a onesweep variant it is a usage error.
add_test(NAME cli_onesweep_lookback_stats_run
         COMMAND $<TARGET_FILE:sortlab-bench> --validation --algo onesweep,onesweep-fallback --type u32,f64 --tile-keys 8
                 --n 300 --reps 1 --check --lookback-stats --json ${RADIX_TRACE_OUT}/lookback_stats.json)
set_tests_properties(cli_onesweep_lookback_stats_run PROPERTIES FIXTURES_SETUP onesweep_lookback_stats TIMEOUT 300)
add_test(NAME cli_onesweep_lookback_stats_check
         COMMAND bench_cli_check json ${RADIX_TRACE_OUT}/lookback_stats.json --count 4 --check pass --lookback 38)
set_tests_properties(cli_onesweep_lookback_stats_check PROPERTIES FIXTURES_REQUIRED onesweep_lookback_stats)
cli_fail(lookback_stats_no_onesweep 2 "--lookback-stats sums up OneSweep's lookback" -- --algo radix4 --lookback-stats --n 64)

# --json marks the radix passes the GPU skipped (step_ms[].skipped): narrow u32 keys skip the passes
# of bits 16..31, equal keys every pass, uniform keys none (tests/cli/skipped_check.cmake).
add_test(NAME cli_radix_skipped_run
         COMMAND $<TARGET_FILE:sortlab-bench> --validation --algo radix4,onesweep --dist narrow,equal,uniform --n 50000
                 --reps 1 --check --quiet --json ${RADIX_TRACE_OUT}/skipped.json)
set_tests_properties(cli_radix_skipped_run PROPERTIES FIXTURES_SETUP radix_skipped TIMEOUT 300)
add_test(NAME cli_radix_skipped_check
         COMMAND ${CMAKE_COMMAND} -DFILE=${RADIX_TRACE_OUT}/skipped.json -P ${CMAKE_CURRENT_LIST_DIR}/cli/skipped_check.cmake)
set_tests_properties(cli_radix_skipped_check PROPERTIES FIXTURES_REQUIRED radix_skipped)

# --either-buffer: the result left where the last pass wrote it, no copy back (SortKnobs::resultInEither);
# keys whose low byte is zero run an odd number of passes, so their result stays in the temporary buffer.
add_test(NAME cli_radix_either_run
         COMMAND $<TARGET_FILE:sortlab-bench> --validation --algo radix4,onesweep --dist bits,uniform --values none,u32
                 --n 20000 --either-buffer --reps 1 --check --quiet --json ${RADIX_TRACE_OUT}/either.json)
set_tests_properties(cli_radix_either_run PROPERTIES FIXTURES_SETUP radix_either TIMEOUT 300)
add_test(NAME cli_radix_either_check
         COMMAND bench_cli_check json ${RADIX_TRACE_OUT}/either.json --count 8 --algos radix4,onesweep --check pass
                 --result either)
set_tests_properties(cli_radix_either_check PROPERTIES FIXTURES_REQUIRED radix_either)

# OneSweep's trace on keys with structure, at 64-key tiles (3000 keys: 47 tiles, a partial last
# one): every pass checked by radix_trace_check, with the passes it skips ("skipped": every pass of
# equal keys, the top ones of narrow keys, pass 0 of bits keys) and the tiles it writes out
# unranked ("uniform_tiles": few-unique keys' passes after the first, whose tiles lie in runs of one
# key), with lookback and with forced fallback.
onesweep_trace_tests(trace 600 --type u32,f64 --values none,u32 --order asc,desc --dist equal,narrow,bits,few-unique
                     --tile-keys 64 --n 3000)
