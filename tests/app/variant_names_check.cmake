# Every --algo name means the same plan in the app and in sortlab-bench: for each variant of the
# library's table, `sortlab --algo A --dump-state` and `sortlab-bench --algo A --json` name the
# same algorithm and the same variant (plan).
# cmake -DAPP=... -DBENCH=... -DXVFB_RUN=... -DOUT=dir -DALGOS="a;b;..." -P variant_names_check.cmake
set(problems "")
set(server 190)
foreach(algo ${ALGOS})
  math(EXPR server "${server} + 1")
  execute_process(COMMAND ${XVFB_RUN} -a -n ${server} -s "-screen 0 1280x720x24" ${APP} --validation --no-ini
                          --algo ${algo} --n 64 --step 1 --dump-state ${OUT}/names_${algo}.json
                  RESULT_VARIABLE app_rc ERROR_VARIABLE app_err)
  execute_process(COMMAND ${BENCH} --validation --algo ${algo} --n 64 --reps 1 --warmup-ms 0 --quiet
                          --json ${OUT}/names_${algo}_bench.json
                  RESULT_VARIABLE bench_rc ERROR_VARIABLE bench_err)
  if(NOT app_rc EQUAL 0 OR NOT bench_rc EQUAL 0)
    string(APPEND problems "${algo}: app exit ${app_rc} (${app_err}), bench exit ${bench_rc} (${bench_err})\n")
    continue()
  endif()
  file(READ ${OUT}/names_${algo}.json state)
  file(READ ${OUT}/names_${algo}_bench.json rows)
  string(JSON app_algo GET "${state}" algo)
  string(JSON app_variant GET "${state}" variant)
  string(JSON bench_algo GET "${rows}" 0 algo)
  string(JSON bench_variant GET "${rows}" 0 variant)
  message(STATUS "${algo}: app ${app_algo}/${app_variant}, bench ${bench_algo}/${bench_variant}")
  if(NOT app_algo STREQUAL algo OR NOT bench_algo STREQUAL algo OR NOT app_variant STREQUAL bench_variant)
    string(APPEND problems "${algo}: app says ${app_algo}/${app_variant}, sortlab-bench ${bench_algo}/${bench_variant}\n")
  endif()
endforeach()
if(problems)
  message(FATAL_ERROR "${problems}")
endif()
