# A built-in lesson run to its end headless by the Windows sortlab.exe (under Wine) and by the Linux
# build's sortlab, both at 1280x720 in presentation mode with --screenshot-each and validation on:
# both exit 0, the Windows run passes app_check lesson (every stop recorded, at least MIN_STOPS, each
# stop's highlight, question and feedback inside the window), and the JSONL records of the two runs
# have the same stops with the same graded answers (`right`), line for line.
#   cmake -DEMULATOR=wine-run.sh -DAPP=sortlab.exe -DLINUX_BUILD=build -DLESSON=radix4 -DOUT=dir
#         -DMIN_STOPS=10 -P lesson_check.cmake
foreach(v EMULATOR APP LINUX_BUILD LESSON OUT MIN_STOPS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "lesson_check.cmake: -D${v}= is missing")
  endif()
endforeach()
set(linux_app ${LINUX_BUILD}/bin/sortlab)
set(app_check ${LINUX_BUILD}/bin/app_check)
if(NOT EXISTS ${linux_app} OR NOT EXISTS ${app_check})
  message(FATAL_ERROR "no Linux build to compare with at ${LINUX_BUILD} (bin/sortlab, bin/app_check): build it "
                      "first (the README's first command), or set SORTLAB_LINUX_BUILD for packaging/windows/build.sh")
endif()
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT}/windows ${OUT}/linux)
set(args --validation --presentation --width 1280 --height 720 --lesson ${LESSON} --screenshot-each)

execute_process(COMMAND ${EMULATOR} ${APP} ${args} windows WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sortlab.exe --lesson ${LESSON} under Wine: exit ${rc}")
endif()
execute_process(COMMAND xvfb-run -a -s "-screen 0 1600x1000x24" ${linux_app} ${args} linux
                WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the Linux sortlab --lesson ${LESSON}: exit ${rc}")
endif()
execute_process(COMMAND ${app_check} lesson windows/${LESSON}.jsonl --min-stops ${MIN_STOPS} --visible
                WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "app_check lesson on the Windows run's record failed")
endif()

# Each record line's stop and `right` value (null when the stop asks nothing graded).
function(answers file out)
  # (file(STRINGS) would split a line at every ';' of its text: the lines by hand, with each ';'
  # made a word that JSON keeps inside its strings.)
  file(READ ${file} text)
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(list "")
  foreach(line IN LISTS lines)
    if(line STREQUAL "")
      continue()
    endif()
    string(JSON stop GET "${line}" stop)
    string(JSON right ERROR_VARIABLE none GET "${line}" right)
    if(none)
      set(right "-")
    endif()
    list(APPEND list "stop ${stop}: ${right}")
  endforeach()
  set(${out} "${list}" PARENT_SCOPE)
endfunction()
answers(${OUT}/windows/${LESSON}.jsonl win)
answers(${OUT}/linux/${LESSON}.jsonl lin)
list(LENGTH win n)
if(NOT win STREQUAL lin)
  string(REPLACE ";" "\n  " win_text "${win}")
  string(REPLACE ";" "\n  " lin_text "${lin}")
  message(FATAL_ERROR "the lesson's answers differ.\nWindows:\n  ${win_text}\nLinux:\n  ${lin_text}")
endif()
message(STATUS "${LESSON}: ${n} stops, the same answers on Windows (Wine) and Linux:\n  ${win}")
