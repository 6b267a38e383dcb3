# Recordings (app/core/recording.cpp, docs/app.md "Recordings"), included from tests/app_tests.cmake.
#   gpu.recording       a run recorded on the test device, written and read back, is the same run
#                       byte for byte (keys, values, every aux buffer, the lookback log, the plan);
#                       every truncation and damaged header is refused with one line and an offset
#   app_rec_make_*      sortlab --record and sortlab-record with no display (DISPLAY unset): the
#                       lessons' first inputs and OneSweep at 2^16, as they are recorded on an H100
#                       for assets/recordings/ (docs/app.md)
#   app_rec_steps_*     every step replayed equals the live run's --dump-state (keys, values, aux
#                       buffers, lookback replay), and says where it was recorded
#   app_rec_lesson_*    a lesson run to its end live and with the recording: the same graded answers;
#                       the OneSweep one through a lesson file's @recording line
#   app_rec_fail_*      a truncated file and a damaged header: exit 2, one line, nothing opened; the
#                       same file from a script: the error on screen, the run shown kept
add_executable(sortlab-gpu-recording-tests ${CMAKE_CURRENT_LIST_DIR}/app/recording_test.cpp
                                           ${CMAKE_CURRENT_LIST_DIR}/support/gpu_main.cpp)
target_link_libraries(sortlab-gpu-recording-tests PRIVATE sortlab-gpu-test-support sortlab_app_core)
add_test(NAME gpu.recording COMMAND sortlab-gpu-recording-tests)
set_tests_properties(gpu.recording PROPERTIES TIMEOUT 300)

set(REC_OUT ${APP_OUT}/recordings)
file(MAKE_DIRECTORY ${REC_OUT})
set(REC_KEYS "10, 25, 39, 92, 1, 5, 68, 23, 21, 10")
# The settings of each lesson's first stop (lessons/*.lesson) and OneSweep at 2^16 (lookback log
# on by default up to 65536 keys).
set(REC_oddeven --algo oddeven-layer --keys ${REC_KEYS} --values u32)
set(REC_radix4 --algo radix4 --keys ${REC_KEYS} --values u32 --tile-keys 4)
set(REC_onesweep --algo onesweep --n 64 --dist small --values u32 --tile-keys 8 --lookback-log on)
set(REC_onesweep2e16 --algo onesweep --n 2^16)
# The app's --record for the small ones, sortlab-record (no GLFW: what GPU machines run) for OneSweep.
set(REC_PROGRAM_oddeven ${APP})
set(REC_PROGRAM_radix4 ${APP})
set(REC_PROGRAM_onesweep $<TARGET_FILE:sortlab-record>)
set(REC_PROGRAM_onesweep2e16 $<TARGET_FILE:sortlab-record>)
foreach(rec oddeven radix4 onesweep onesweep2e16)
  add_test(NAME app_rec_make_${rec}
           COMMAND ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY
                   ${REC_PROGRAM_${rec}} --validation --record ${REC_OUT}/${rec}-lavapipe.slrec ${REC_${rec}})
  set_tests_properties(app_rec_make_${rec} PROPERTIES FIXTURES_SETUP app_rec_${rec} TIMEOUT 200
                       PASS_REGULAR_EXPRESSION "sortlab(-record)?: recorded .* into .*${rec}-lavapipe.slrec \\([0-9]+ bytes\\)")
endforeach()

function(app_rec_check name fixture)
  math(EXPR server "${APP_XVFB_NEXT} + 1")
  set(APP_XVFB_NEXT ${server} PARENT_SCOPE)
  add_test(NAME ${name}
           COMMAND ${CMAKE_COMMAND} -DAPP=${APP} -DXVFB_RUN=${XVFB_RUN} -DSERVER=${server} -DOUT=${REC_OUT}
                   -DNAME=${name} ${ARGN} -P ${CMAKE_CURRENT_LIST_DIR}/app/recording_check.cmake)
  set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED "${fixture}" TIMEOUT 300)
endfunction()

# Every step, live and replayed. OneSweep's fallback count, lookback log and the replay drawn from it
# are the schedule's (which tile waited for which), so a second live run need not repeat them;
# gpu.recording checks that the file keeps them exactly.
foreach(rec oddeven radix4 onesweep)
  string(REPLACE ";" "\\;" settings "${REC_${rec}}")
  app_rec_check(app_rec_steps_${rec} app_rec_${rec} -DMODE=steps -DREC=${REC_OUT}/${rec}-lavapipe.slrec
                "-DSETTINGS=${settings}" "-DSKIP_AUX=fallbacks\\;lookback log" -DSKIP_FIELDS=lookback_replay)
endforeach()

# The lessons' graded answers, live and replayed: radix4 and odd-even through --open-recording, the
# OneSweep lesson through a copy of it that names the recording beside it (@recording).
app_rec_check(app_rec_lesson_radix4 app_rec_radix4 -DMODE=lesson -DLESSON=radix4
              "-DREPLAY=--open-recording\\;${REC_OUT}/radix4-lavapipe.slrec")
app_rec_check(app_rec_lesson_oddeven app_rec_oddeven -DMODE=lesson -DLESSON=oddeven
              "-DREPLAY=--open-recording\\;${REC_OUT}/oddeven-lavapipe.slrec")
# The built-in OneSweep lesson replays the H100's recording (assets/recordings/): the live run is a
# copy without its @recording line; the H100 replay must give the same graded answers as lavapipe.
file(READ ${PROJECT_SOURCE_DIR}/lessons/onesweep.lesson REC_LESSON)
string(REGEX REPLACE "\n@recording [^\n]*" "" REC_LESSON_LIVE "${REC_LESSON}")
file(WRITE ${REC_OUT}/onesweep-live.lesson "${REC_LESSON_LIVE}")
file(WRITE ${REC_OUT}/onesweep-recorded.lesson "${REC_LESSON_LIVE}\n@recording onesweep-lavapipe.slrec\n")
app_rec_check(app_rec_lesson_onesweep app_rec_onesweep -DMODE=lesson -DLESSON=${REC_OUT}/onesweep-live.lesson
              -DREPLAY_LESSON=${REC_OUT}/onesweep-recorded.lesson)
app_rec_check(app_rec_lesson_onesweep_h100 app_rec_onesweep -DMODE=lesson -DLESSON=${REC_OUT}/onesweep-live.lesson
              -DREPLAY_LESSON=onesweep)

# Damaged files: cut short, and a header whose magic number is wrong.
add_test(NAME app_rec_damage
         COMMAND sh -c "head -c 300 onesweep-lavapipe.slrec > truncated.slrec && cp onesweep-lavapipe.slrec badmagic.slrec && printf XXXX | dd of=badmagic.slrec bs=1 seek=0 conv=notrunc 2>/dev/null"
         WORKING_DIRECTORY ${REC_OUT})
set_tests_properties(app_rec_damage PROPERTIES FIXTURES_REQUIRED app_rec_onesweep FIXTURES_SETUP app_rec_damage)
add_test(NAME app_rec_fail_truncated
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=truncated.slrec: offset [0-9]+: truncated: "
                 "-DEXPECT_PREFIX=sortlab: error: " -P ${CMAKE_CURRENT_LIST_DIR}/cli/expect_failure.cmake
                 -- ${APP} --open-recording ${REC_OUT}/truncated.slrec)
add_test(NAME app_rec_fail_magic
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=badmagic.slrec: offset 0: not a sortlab recording"
                 "-DEXPECT_PREFIX=sortlab: error: " -P ${CMAKE_CURRENT_LIST_DIR}/cli/expect_failure.cmake
                 -- ${APP} --open-recording ${REC_OUT}/badmagic.slrec)
file(WRITE ${REC_OUT}/truncated.lesson "# A lesson whose recording is cut short\n@recording truncated.slrec\n\n## One stop\n@sort radix4\nText.\n")
add_test(NAME app_rec_fail_lesson
         COMMAND ${CMAKE_COMMAND} -DEXPECT_CODE=2 "-DEXPECT_REGEX=truncated.slrec: offset [0-9]+: truncated: "
                 "-DEXPECT_PREFIX=sortlab: error: " -P ${CMAKE_CURRENT_LIST_DIR}/cli/expect_failure.cmake
                 -- ${APP} --lesson ${REC_OUT}/truncated.lesson)
set_tests_properties(app_rec_fail_truncated app_rec_fail_magic app_rec_fail_lesson PROPERTIES
                     FIXTURES_REQUIRED app_rec_damage TIMEOUT 60)
app_rec_check(app_rec_fail_runtime app_rec_damage -DMODE=runtime -DREC=${REC_OUT}/truncated.slrec)
