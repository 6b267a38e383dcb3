# The built-in lessons' claims that a script can check against the code (tests/lessons_tests.md,
# "What the lessons claim, and where"). Fails with every claim that no longer holds.
#
#   cmake -DSRC=<repository root> -DCOMPARATORS=<build>/bin/sortlab-network-comparators \
#         -P tests/lesson_claims.cmake
#
# Shader sources are read with their comments removed (// and /* */), so a comment that mentions
# shared memory or a ballot does not count. A shader is read with every file it includes
# (#include "...", looked up beside the including file, in shaders/ and in shaders/include, as
# glslc is called in sort/CMakeLists.txt). Every branch of an #if/#else counts: a claim must hold
# for every key width and with or without values.
#
#  1. oddeven: the fused odd-even shader (oddeven_warp.comp and its includes) declares no shared
#     variable and calls no barrier (barrier, subgroupBarrier, memoryBarrier*,
#     groupMemoryBarrier); it does call subgroupShuffle ("Why a GPU likes it").
#  2. radix4: the count kernel (radix4_count.comp) reaches subgroupAdd, and no subgroup ballot,
#     neither itself nor through a function or macro of its includes (radix4.glsl defines ballot
#     helpers for the scatter; the count kernel must not reach them) ("Count: what each workgroup
#     sees").
#  3. radix4: "up to N keys" (the tuned tiles) is the largest workgroup x keysPerLane of
#     tuning::radix4's table (sort/internal/sortlab/internal/tuning.h).
#  4. onesweep: "N times in a row" (the fallback) is SORTLAB_OS_SPIN_LIMIT
#     (shaders/include/sortlab/shaders/constants.h), which onesweep_pass.comp's walks (onesweep_lookback.glsl) compare
#     their not-ready reads with ("Why a fallback").
#  5. No lesson says "this GPU": the app may run on lavapipe, a CPU device.
#  6. Each built-in lesson has as many stops as docs/lessons.md's table of built-in lessons says.
#  7. oddeven: what the lesson says of single comparators holds of the network the library builds
#     (sortlab-network-comparators, -DCOMPARATORS=<its path>: oddeven::forEachComparator for the
#     lesson's n and for the power-of-two network P): "built for P positions", "positions n to
#     P - 1 hold no key", and in "No padding" every comparator of the outlined index that the GPU
#     skips, as "PARTNER (layer L)" or "PARTNER (layers L1 and L2)", those before "still to come"
#     in layers the stop's step has run and those after it in layers still to run; "Layer L ...
#     positions A-B meet C-D, and E-F would meet G-H" are the layer's comparators that run and the
#     ones skipped; in "The last merge", "Only two of its comparators, A-B and C-D," run and "the
#     six dashed ones, E-F to G-H," are skipped; "= N layers" in "Sorted".
#  8. oddeven: "a window of keys into its registers, N keys per thread" is keysPerLane of every row of tuning::oddEven's table.
#
# Sections, in order: reading shaders (comments, includes, #if branches, functions and what they
# reach), then one section per claim above ("--- N."), then the verdict.

cmake_minimum_required(VERSION 3.20)

if(NOT SRC)
  message(FATAL_ERROR "lesson_claims: pass -DSRC=<the repository root>")
endif()
if(NOT COMPARATORS OR NOT EXISTS "${COMPARATORS}")
  message(FATAL_ERROR "lesson_claims: pass -DCOMPARATORS=<build>/bin/sortlab-network-comparators (built with the "
                      "tests)")
endif()
set(SHADERS "${SRC}/shaders")
set(failures "")
# Records a claim that does not hold: the arguments, concatenated (none may hold a semicolon).
function(claim_failed)
  string(CONCAT what ${ARGV})
  set(failures "${failures}\n  - ${what}" PARENT_SCOPE)
endfunction()

# --- Reading shaders ------------------------------------------------------------------------------

# The text without // and /* */ comments (a block comment becomes one space).
function(strip_comments out text)
  set(result "")
  set(rest "${text}")
  while(TRUE)
    string(FIND "${rest}" "//" line)
    string(FIND "${rest}" "/*" block)
    if(line EQUAL -1 AND block EQUAL -1)
      string(APPEND result "${rest}")
      break()
    endif()
    # The first comment: what ends it, how much of that goes with it, what stands in its place.
    if(block EQUAL -1 OR (NOT line EQUAL -1 AND line LESS block))
      set(start ${line})
      set(close "\n")
      set(drop 0) # keep the newline
      set(gap "")
    else()
      set(start ${block})
      set(close "*/")
      set(drop 2)
      set(gap " ")
    endif()
    string(SUBSTRING "${rest}" 0 ${start} before)
    string(APPEND result "${before}${gap}")
    math(EXPR after "${start} + 2")
    string(SUBSTRING "${rest}" ${after} -1 rest)
    string(FIND "${rest}" "${close}" end)
    if(end EQUAL -1 AND drop EQUAL 2)
      message(FATAL_ERROR "lesson_claims: an unterminated /* comment")
    elseif(end EQUAL -1)
      set(rest "") # a line comment that ends the text
    else()
      math(EXPR after "${end} + ${drop}")
      string(SUBSTRING "${rest}" ${after} -1 rest)
    endif()
  endwhile()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# The comment-free text of a shader and of every file it includes, recursively; `files_out` gets
# the files read.
function(read_shader out files_out path)
  set(todo "${path}")
  set(done "")
  set(all "")
  while(todo)
    list(POP_FRONT todo file)
    if(file IN_LIST done)
      continue()
    endif()
    list(APPEND done "${file}")
    if(NOT EXISTS "${file}")
      message(FATAL_ERROR "lesson_claims: ${file} does not exist")
    endif()
    file(READ "${file}" raw)
    strip_comments(text "${raw}")
    string(APPEND all "\n${text}\n")
    get_filename_component(dir "${file}" DIRECTORY)
    string(REGEX MATCHALL "#[ \t]*include[ \t]*\"[^\"]+\"" includes "${text}")
    foreach(inc IN LISTS includes)
      string(REGEX REPLACE "^#[ \t]*include[ \t]*\"([^\"]+)\"$" "\\1" name "${inc}")
      set(found "")
      foreach(base "${dir}" "${SHADERS}" "${SHADERS}/include")
        if(NOT found AND EXISTS "${base}/${name}")
          get_filename_component(found "${base}/${name}" ABSOLUTE)
        endif()
      endforeach()
      if(NOT found)
        message(FATAL_ERROR "lesson_claims: ${file} includes \"${name}\", which is in none of ${dir}, ${SHADERS}, "
                            "${SHADERS}/include")
      endif()
      list(APPEND todo "${found}")
    endforeach()
  endwhile()
  set(${out} "${all}" PARENT_SCOPE)
  set(${files_out} "${done}" PARENT_SCOPE)
endfunction()

# The text with only the first branch of each #if/#ifdef/#ifndef ... #elif/#else ... #endif
# counting for braces: the lines of the other branches are kept, with their braces blanked, so that
# a function's body still holds every call it may make in any configuration.
function(first_branches out text)
  set(result "")
  set(keep TRUE) # the lines at this depth are in a first branch (of every enclosing #if)
  set(stack "")
  set(rest "${text}")
  while(NOT rest STREQUAL "")
    string(FIND "${rest}" "\n" eol)
    if(eol EQUAL -1)
      set(line "${rest}")
      set(rest "")
    else()
      math(EXPR next "${eol} + 1")
      string(SUBSTRING "${rest}" 0 ${eol} line)
      string(SUBSTRING "${rest}" ${next} -1 rest)
    endif()
    if(line MATCHES "^[ \t]*#[ \t]*if")
      list(APPEND stack ${keep})
    elseif(line MATCHES "^[ \t]*#[ \t]*(elif|else)")
      set(keep FALSE)
    elseif(line MATCHES "^[ \t]*#[ \t]*endif")
      if(NOT stack)
        message(FATAL_ERROR "lesson_claims: an #endif without its #if")
      endif()
      list(POP_BACK stack keep)
    elseif(NOT keep)
      string(REPLACE "{" " " line "${line}")
      string(REPLACE "}" " " line "${line}")
    endif()
    string(APPEND result "${line}\n")
  endwhile()
  if(stack)
    message(FATAL_ERROR "lesson_claims: an #if without its #endif")
  endif()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

# The functions and macros of comment-free GLSL text: `prefix`_names lists them, `prefix`_body_NAME
# holds each one's body (every overload's, or a macro's replacement text), `prefix`_macro_NAME is
# TRUE for a macro. Semicolons become spaces first (CMake lists split on them).
function(parse_definitions prefix text)
  string(REPLACE ";" " " t "${text}")
  string(REPLACE "\\\n" " " t "${t}") # a macro's continued lines become one line
  first_branches(t "${t}")
  set(names "")
  string(REGEX MATCHALL "(^|\n)[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*[^\n]*" defines "${t}")
  foreach(d IN LISTS defines)
    string(REGEX MATCH "define[ \t]+([A-Za-z_][A-Za-z0-9_]*)(.*)$" m "${d}")
    set(name "${CMAKE_MATCH_1}")
    list(APPEND names "${name}")
    set(body_${name} "${body_${name}}\n${CMAKE_MATCH_2}")
    set(macro_${name} TRUE)
  endforeach()
  # The code without its preprocessor lines, cut at its top-level braces: a `name(...) {` at depth
  # 0 starts a function.
  string(REGEX REPLACE "(^|\n)[ \t]*#[^\n]*" "\\1" rest "${t}")
  set(depth 0)
  set(current "")
  set(body "")
  while(TRUE)
    string(REGEX MATCH "^[^{}]*[{}]" chunk "${rest}")
    if(chunk STREQUAL "")
      break()
    endif()
    string(LENGTH "${chunk}" len)
    string(SUBSTRING "${rest}" ${len} -1 rest)
    math(EXPR last "${len} - 1")
    string(SUBSTRING "${chunk}" ${last} 1 brace)
    string(SUBSTRING "${chunk}" 0 ${last} text_before)
    if(brace STREQUAL "{")
      if(depth EQUAL 0)
        set(current "")
        if(text_before MATCHES "([A-Za-z_][A-Za-z0-9_]*)[ \t\r\n]*\\([^(){}]*\\)[ \t\r\n]*$")
          set(current "${CMAKE_MATCH_1}")
        endif()
        set(body "")
      else()
        string(APPEND body "${chunk}")
      endif()
      math(EXPR depth "${depth} + 1")
    else()
      math(EXPR depth "${depth} - 1")
      if(depth LESS 0)
        message(FATAL_ERROR "lesson_claims: unbalanced braces in ${prefix}")
      endif()
      if(depth EQUAL 0)
        string(APPEND body "${text_before}")
        if(current)
          list(APPEND names "${current}")
          set(body_${current} "${body_${current}}\n${body}")
        endif()
      else()
        string(APPEND body "${chunk}")
      endif()
    endif()
  endwhile()
  if(NOT depth EQUAL 0)
    message(FATAL_ERROR "lesson_claims: unbalanced braces in ${prefix}")
  endif()
  list(REMOVE_DUPLICATES names)
  set(${prefix}_names "${names}" PARENT_SCOPE)
  foreach(name IN LISTS names)
    set(${prefix}_body_${name} "${body_${name}}" PARENT_SCOPE)
    set(${prefix}_macro_${name} "${macro_${name}}" PARENT_SCOPE)
  endforeach()
endfunction()

# Whether the body of `caller` uses `callee`, both functions or macros of `prefix`: a function by a
# call `callee(`, a macro by its name anywhere (it may be passed to another macro as an argument).
function(uses out prefix caller callee)
  if(${prefix}_macro_${callee})
    set(use "(^|[^A-Za-z0-9_])${callee}([^A-Za-z0-9_]|$)")
  else()
    set(use "(^|[^A-Za-z0-9_])${callee}[ \t\r\n]*\\(")
  endif()
  if("${${prefix}_body_${caller}}" MATCHES "${use}")
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

# The functions and macros of `prefix` that reach `pattern` (a regex), directly or through others
# they use.
function(reaching out prefix pattern)
  set(found "")
  foreach(name IN LISTS ${prefix}_names)
    if("${${prefix}_body_${name}}" MATCHES "${pattern}")
      list(APPEND found "${name}")
    endif()
  endforeach()
  set(changed TRUE)
  while(changed)
    set(changed FALSE)
    foreach(name IN LISTS ${prefix}_names)
      if(name IN_LIST found)
        continue()
      endif()
      foreach(callee IN LISTS found)
        uses(used ${prefix} ${name} ${callee})
        if(used)
          list(APPEND found "${name}")
          set(changed TRUE)
          break()
        endif()
      endforeach()
    endforeach()
  endwhile()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# --- 1. oddeven: the fused shader works in registers, with no shared memory and no barrier ----------

read_shader(warp warp_files "${SHADERS}/oddeven_warp.comp")
string(REPLACE "${SRC}/" "" warp_files "${warp_files}")
list(JOIN warp_files ", " warp_files)
if(warp MATCHES "(^|[^A-Za-z0-9_])shared[ \t\r\n]")
  claim_failed("oddeven.lesson 'Why a GPU likes it' says the fused variant uses no shared memory, but one of "
               "${warp_files} declares a shared variable")
endif()
set(barrier_call "(^|[^A-Za-z0-9_])(barrier|subgroupBarrier|subgroupMemoryBarrier[A-Za-z]*|memoryBarrier[A-Za-z]*|groupMemoryBarrier)[ \t\r\n]*\\(")
if(warp MATCHES "${barrier_call}")
  claim_failed("oddeven.lesson 'Why a GPU likes it' says the fused variant uses no barrier, but one of ${warp_files} "
               "calls ${CMAKE_MATCH_2}()")
endif()
file(READ "${SHADERS}/oddeven_warp.comp" raw)
strip_comments(warp_own "${raw}")
if(NOT warp_own MATCHES "(^|[^A-Za-z0-9_])subgroupShuffle[A-Za-z]*[ \t\r\n]*\\(")
  claim_failed("oddeven.lesson 'Why a GPU likes it' says the fused variant trades keys with subgroup shuffles, but "
               "oddeven_warp.comp calls no subgroupShuffle")
endif()

# --- 2. radix4: the count kernel adds packed counters with subgroupAdd and uses no ballot -----------

read_shader(count unused "${SHADERS}/radix4_count.comp")
parse_definitions(cnt "${count}")
set(ballot "(^|[^A-Za-z0-9_])subgroup(Inverse)?Ballot[A-Za-z]*[ \t\r\n]*\\(")
if(NOT "main" IN_LIST cnt_names)
  message(FATAL_ERROR "lesson_claims: found no main() in radix4_count.comp (the parser failed?)")
endif()
reaching(add_users cnt "(^|[^A-Za-z0-9_])subgroupAdd[ \t\r\n]*\\(")
if(NOT "main" IN_LIST add_users)
  claim_failed("radix4.lesson 'Count: what each workgroup sees' says subgroupAdd sums the counters, but "
               "radix4_count.comp's main() reaches no subgroupAdd")
endif()
reaching(ballot_users cnt "${ballot}")
if(count MATCHES "${ballot}" AND NOT ballot_users)
  message(FATAL_ERROR "lesson_claims: the count kernel's files call a ballot, but the parser found no function "
                      "that does (the parser failed?)")
endif()
if("main" IN_LIST ballot_users)
  # How: a ballot in main itself, or the functions and macros main uses that reach one.
  set(how "")
  if("${cnt_body_main}" MATCHES "${ballot}")
    set(how "itself")
  endif()
  foreach(name IN LISTS ballot_users)
    if(name STREQUAL "main")
      continue()
    endif()
    uses(used cnt main ${name})
    if(used)
      list(APPEND how "through ${name}")
    endif()
  endforeach()
  list(JOIN how ", " how)
  claim_failed("radix4.lesson 'Count: what each workgroup sees' describes a count without ballots, but "
               "radix4_count.comp's main() reaches a subgroup ballot (${how})")
endif()

# --- 3. radix4: the tuned tiles hold up to N keys --------------------------------------------------

file(READ "${SRC}/sort/internal/sortlab/internal/tuning.h" tuning)
string(REPLACE ";" "\n" tuning "${tuning}")
string(REGEX MATCH "kRadix4Table\\[\\][^}]*=[ \t\r\n]*{.*" table "${tuning}")
string(FIND "${table}" "\n}" end)
if(table STREQUAL "" OR end EQUAL -1)
  message(FATAL_ERROR "lesson_claims: found no kRadix4Table in sort/internal/sortlab/internal/tuning.h")
endif()
string(SUBSTRING "${table}" 0 ${end} table)
string(REGEX MATCHALL "\\.workgroup = [0-9]+, \\.keysPerLane = [0-9]+" rows "${table}")
set(largest 0)
foreach(row IN LISTS rows)
  string(REGEX MATCH "workgroup = ([0-9]+), \\.keysPerLane = ([0-9]+)" m "${row}")
  math(EXPR tile "${CMAKE_MATCH_1} * ${CMAKE_MATCH_2}")
  if(tile GREATER largest)
    set(largest ${tile})
  endif()
endforeach()
if(largest EQUAL 0)
  message(FATAL_ERROR "lesson_claims: found no '.workgroup = W, .keysPerLane = K' rows in kRadix4Table")
endif()
file(READ "${SRC}/lessons/radix4.lesson" radix4_lesson)
string(REGEX REPLACE "[ \t]*\n[ \t]*" " " radix4_lesson "${radix4_lesson}")
string(REGEX MATCHALL "up to [0-9]+ keys" tiles "${radix4_lesson}")
list(REMOVE_DUPLICATES tiles)
if(NOT tiles)
  claim_failed("radix4.lesson no longer says how many keys the tuned tiles hold ('up to N keys'): "
               "update tests/lesson_claims.cmake")
endif()
foreach(t IN LISTS tiles)
  string(REGEX MATCH "[0-9]+" said "${t}")
  if(NOT said EQUAL largest)
    claim_failed("radix4.lesson says '${t}', but the largest radix4 tile in tuning.h is ${largest} keys")
  endif()
endforeach()

# --- 4. onesweep: a walk falls back after SORTLAB_OS_SPIN_LIMIT not-ready reads in a row ------------

file(READ "${SHADERS}/include/sortlab/shaders/constants.h" raw)
strip_comments(constants "${raw}")
if(NOT constants MATCHES "#[ \t]*define[ \t]+SORTLAB_OS_SPIN_LIMIT[ \t]+([0-9]+)")
  message(FATAL_ERROR "lesson_claims: found no '#define SORTLAB_OS_SPIN_LIMIT <number>' in constants.h")
endif()
set(spin_limit "${CMAKE_MATCH_1}")
file(READ "${SHADERS}/onesweep_pass.comp" raw)
strip_comments(pass "${raw}")
file(READ "${SHADERS}/onesweep_lookback.glsl" raw)
strip_comments(lookback "${raw}")
if(NOT pass MATCHES "#[ \t]*define[ \t]+SPIN_LIMIT[^\n]*SORTLAB_OS_SPIN_LIMIT"
   OR NOT pass MATCHES "#include \"onesweep_lookback.glsl\""
   OR NOT lookback MATCHES "spins[^\n]*<[ \t]*SPIN_LIMIT")
  claim_failed("onesweep.lesson 'Why a fallback': onesweep_pass.comp (onesweep_lookback.glsl) no longer compares a walk's spins with "
               "SPIN_LIMIT = SORTLAB_OS_SPIN_LIMIT: update the lesson and tests/lesson_claims.cmake")
endif()
file(READ "${SRC}/lessons/onesweep.lesson" onesweep_lesson)
string(REGEX REPLACE "[ \t]*\n[ \t]*" " " onesweep_lesson "${onesweep_lesson}")
if(NOT onesweep_lesson MATCHES "([0-9]+) times in a row")
  claim_failed("onesweep.lesson no longer says after how many not-ready reads a walk falls back "
               "('N times in a row'): update tests/lesson_claims.cmake")
elseif(NOT CMAKE_MATCH_1 EQUAL spin_limit)
  claim_failed("onesweep.lesson 'Why a fallback' says ${CMAKE_MATCH_1} times in a row, but SORTLAB_OS_SPIN_LIMIT "
               "is ${spin_limit}")
endif()

# --- 5 and 6. Every lesson: no "this GPU"; the stop counts docs/lessons.md gives ----------------------

file(READ "${SRC}/docs/lessons.md" lessons_doc)
file(GLOB lesson_files "${SRC}/lessons/*.lesson")
if(NOT lesson_files)
  message(FATAL_ERROR "lesson_claims: no lessons in ${SRC}/lessons")
endif()
foreach(file IN LISTS lesson_files)
  get_filename_component(name "${file}" NAME_WE)
  file(STRINGS "${file}" lines)
  set(stops 0)
  foreach(line IN LISTS lines)
    if(line MATCHES "^## ")
      math(EXPR stops "${stops} + 1")
    endif()
  endforeach()
  file(READ "${file}" text)
  string(REGEX REPLACE "[ \t]*\n[ \t]*" " " text "${text}")
  string(TOLOWER "${text}" lower)
  if(lower MATCHES "this gpu")
    claim_failed("${name}.lesson says 'this GPU': the app may run on lavapipe, a CPU device ('this device')")
  endif()
  if(NOT lessons_doc MATCHES "\\| `${name}` \\| ([0-9]+) \\|")
    claim_failed("docs/lessons.md's table of built-in lessons has no row for ${name}")
  elseif(NOT CMAKE_MATCH_1 EQUAL stops)
    claim_failed("docs/lessons.md says ${name} has ${CMAKE_MATCH_1} stops, lessons/${name}.lesson has ${stops}")
  endif()
endforeach()

# --- 7. oddeven: single comparators, as the library's network has them ------------------------------

# The narration of the stop whose title starts with `title` (its lines joined by spaces), and its
# @step; FATAL when there is no such stop.
function(lesson_stop text_out step_out file title)
  file(READ "${file}" raw)
  string(REPLACE ";" "<semicolon>" raw "${raw}") # CMake lists split on semicolons
  string(REPLACE "\n" ";" lines "${raw}")
  set(in FALSE)
  set(text "")
  set(step "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^## ")
      string(FIND "${line}" "## ${title}" at)
      if(at EQUAL 0)
        set(in TRUE)
      else()
        set(in FALSE)
      endif()
    elseif(in AND line MATCHES "^@step[ \t]+([0-9a-z]+)")
      set(step "${CMAKE_MATCH_1}")
    elseif(in AND NOT line MATCHES "^@" AND NOT line MATCHES "^<!--")
      string(APPEND text " ${line}")
    endif()
  endforeach()
  if(text STREQUAL "")
    message(FATAL_ERROR "lesson_claims: ${file} has no stop '## ${title}...' (update tests/lesson_claims.cmake)")
  endif()
  string(STRIP "${text}" text)
  string(REPLACE "<semicolon>" ";" text "${text}")
  set(${text_out} "${text}" PARENT_SCOPE)
  set(${step_out} "${step}" PARENT_SCOPE)
endfunction()

# The pairs "A B" of ranges "A1-A2" and "B1-B2" side by side (A1 with B1, A1 + 1 with B1 + 1, ...).
function(range_pairs out a1 a2 b1 b2)
  math(EXPR len_a "${a2} - ${a1}")
  math(EXPR len_b "${b2} - ${b1}")
  if(NOT len_a EQUAL len_b OR len_a LESS 0)
    set(${out} "bad-range-${a1}-${a2}-${b1}-${b2}" PARENT_SCOPE)
    return()
  endif()
  set(pairs "")
  foreach(i RANGE 0 ${len_a})
    math(EXPR a "${a1} + ${i}")
    math(EXPR b "${b1} + ${i}")
    list(APPEND pairs "${a} ${b}")
  endforeach()
  set(${out} "${pairs}" PARENT_SCOPE)
endfunction()

# Compares two lists as sets; `what` names the claim.
function(same_set what said computed)
  list(SORT said)
  list(SORT computed)
  if(NOT said STREQUAL computed)
    list(JOIN said ", " s)
    list(JOIN computed ", " c)
    claim_failed("${what}: the lesson says {${s}}, the network has {${c}}")
  endif()
  set(failures "${failures}" PARENT_SCOPE)
endfunction()

set(oddeven_file "${SRC}/lessons/oddeven.lesson")
file(STRINGS "${oddeven_file}" keys_line REGEX "^@keys ")
list(GET keys_line 0 keys_line)
string(REGEX MATCHALL "[0-9]+" keys "${keys_line}")
list(LENGTH keys n)
execute_process(COMMAND "${COMPARATORS}" ${n} OUTPUT_VARIABLE network RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "lesson_claims: ${COMPARATORS} ${n} failed (${rc})")
endif()
string(REGEX MATCH "padded ([0-9]+)" unused "${network}")
set(padded "${CMAKE_MATCH_1}")
string(REGEX MATCH "layers ([0-9]+)" unused "${network}")
set(layer_count "${CMAKE_MATCH_1}")
string(REGEX MATCHALL "[0-9]+ [0-9]+ [0-9]+ (run|skipped)" comparators "${network}")
if(NOT padded OR NOT layer_count OR NOT comparators)
  message(FATAL_ERROR "lesson_claims: ${COMPARATORS} ${n} printed no network")
endif()
# The comparators of one layer ("A B"), run or skipped.
function(layer_comparators out layer kind)
  set(found "")
  foreach(c IN LISTS comparators)
    if(c MATCHES "^${layer} ([0-9]+) ([0-9]+) ${kind}$")
      list(APPEND found "${CMAKE_MATCH_1} ${CMAKE_MATCH_2}")
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# The skipped comparators of a layer that touch a key (first position < n): the Network view draws
# those dashed.
function(skipped_with_a_key out layer)
  layer_comparators(skipped ${layer} skipped)
  set(found "")
  foreach(c IN LISTS skipped)
    string(REGEX MATCH "^[0-9]+" a "${c}")
    if(a LESS n)
      list(APPEND found "${c}")
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# The narration of the oddeven.lesson stop `title` in `text` and its @step in `step`. `stop_says`
# is TRUE when the narration matches `regex` (CMAKE_MATCH_<n> hold its groups); otherwise a claim
# fails: the lesson no longer says `claim`. A macro, so that the matches reach the caller.
macro(oddeven_says title regex claim)
  lesson_stop(text step "${oddeven_file}" "${title}")
  if(text MATCHES "${regex}")
    set(stop_says TRUE)
  else()
    set(stop_says FALSE)
    claim_failed("oddeven.lesson '${title}' no longer says '${claim}': update tests/lesson_claims.cmake")
  endif()
endmacro()

oddeven_says("Runs of four" "built for ([0-9]+) positions" "built for P positions")
if(stop_says AND NOT CMAKE_MATCH_1 EQUAL padded)
  claim_failed("oddeven.lesson 'Runs of four' says the network is built for ${CMAKE_MATCH_1} positions, but for n = ${n} "
               "it is built for ${padded}")
endif()

math(EXPR last "${padded} - 1")
oddeven_says("No padding" "positions ([0-9]+) to ([0-9]+) hold no key" "positions A to B hold no key")
if(stop_says AND (NOT CMAKE_MATCH_1 EQUAL n OR NOT CMAKE_MATCH_2 EQUAL last))
  claim_failed("oddeven.lesson 'No padding' says positions ${CMAKE_MATCH_1} to ${CMAKE_MATCH_2} hold no key, but they are "
               "${n} to ${last}")
endif()
if(NOT text MATCHES "index ([0-9]+)" OR NOT step MATCHES "^[0-9]+$" OR NOT text MATCHES "still to come")
  claim_failed("oddeven.lesson 'No padding' no longer names an index, its step or 'still to come': update "
               "tests/lesson_claims.cmake")
else()
  string(REGEX MATCH "index ([0-9]+)" unused "${text}")
  set(index "${CMAKE_MATCH_1}")
  # What the lesson says: "PARTNER (layer L)", "PARTNER (layers L1 and L2)", before and after "still to come".
  string(FIND "${text}" "still to come" split)
  string(SUBSTRING "${text}" 0 ${split} before)
  string(SUBSTRING "${text}" ${split} -1 after)
  set(said "")
  foreach(part before after)
    string(REGEX MATCHALL "[0-9]+ \\(layers? [0-9]+( and [0-9]+|, [0-9]+)*\\)" mentions "${${part}}")
    foreach(m IN LISTS mentions)
      string(REGEX MATCH "^([0-9]+) \\((.*)\\)$" unused "${m}")
      set(partner "${CMAKE_MATCH_1}")
      string(REGEX MATCHALL "[0-9]+" in_layers "${CMAKE_MATCH_2}")
      foreach(l IN LISTS in_layers)
        list(APPEND said "${l}:${partner}")
        if(part STREQUAL "before" AND l GREATER step)
          claim_failed("oddeven.lesson 'No padding' says index ${index}'s comparator with ${partner} in layer ${l} "
                       "was skipped already, but the stop shows step ${step}")
        elseif(part STREQUAL "after" AND NOT l GREATER step)
          claim_failed("oddeven.lesson 'No padding' says layer ${l} is still to come, but the stop shows step ${step}")
        endif()
      endforeach()
    endforeach()
  endforeach()
  set(computed "")
  foreach(c IN LISTS comparators)
    if(c MATCHES "^([0-9]+) ${index} ([0-9]+) skipped$")
      list(APPEND computed "${CMAKE_MATCH_1}:${CMAKE_MATCH_2}")
    endif()
  endforeach()
  same_set("oddeven.lesson 'No padding': index ${index}'s skipped comparators (layer:partner)" "${said}" "${computed}")
endif()

oddeven_says("Merging runs of four into eight"
             "Layer ([0-9]+) [^:]*: positions ([0-9]+)-([0-9]+) meet ([0-9]+)-([0-9]+), and ([0-9]+)-([0-9]+) would meet ([0-9]+)-([0-9]+)"
             "Layer L ...: positions A-B meet C-D, and E-F would meet G-H")
if(stop_says)
  set(layer "${CMAKE_MATCH_1}")
  range_pairs(said_run ${CMAKE_MATCH_2} ${CMAKE_MATCH_3} ${CMAKE_MATCH_4} ${CMAKE_MATCH_5})
  range_pairs(said_skipped ${CMAKE_MATCH_6} ${CMAKE_MATCH_7} ${CMAKE_MATCH_8} ${CMAKE_MATCH_9})
  layer_comparators(run ${layer} run)
  skipped_with_a_key(touching ${layer})
  same_set("oddeven.lesson 'Merging runs of four into eight': layer ${layer}'s comparators that run" "${said_run}" "${run}")
  same_set("oddeven.lesson 'Merging runs of four into eight': layer ${layer}'s skipped comparators with a key"
           "${said_skipped}" "${touching}")
endif()

set(number_words one two three four five six seven eight nine ten)
lesson_stop(text step "${oddeven_file}" "The last merge")
set(runs_said "Only ([a-z]+) of its comparators, ([0-9]+)-([0-9]+) and ([0-9]+)-([0-9]+),")
set(dashed_said "the ([a-z]+) dashed ones, ([0-9]+)-([0-9]+) to ([0-9]+)-([0-9]+),")
if(NOT text MATCHES "${runs_said}" OR NOT text MATCHES "${dashed_said}")
  claim_failed("oddeven.lesson 'The last merge' no longer says 'Only N of its comparators, A-B and C-D, ... the M "
               "dashed ones, E-F to G-H,': update tests/lesson_claims.cmake")
else()
  string(REGEX MATCH "${runs_said}" unused "${text}")
  list(FIND number_words "${CMAKE_MATCH_1}" said_runs)
  set(said_run "${CMAKE_MATCH_2} ${CMAKE_MATCH_3}" "${CMAKE_MATCH_4} ${CMAKE_MATCH_5}")
  string(REGEX MATCH "${dashed_said}" unused "${text}")
  list(FIND number_words "${CMAKE_MATCH_1}" said_dashed)
  math(EXPR said_runs "${said_runs} + 1")
  math(EXPR said_dashed "${said_dashed} + 1")
  # "E-F to G-H": the pairs (E, F) .. (G, H)
  range_pairs(said_skipped ${CMAKE_MATCH_2} ${CMAKE_MATCH_4} ${CMAKE_MATCH_3} ${CMAKE_MATCH_5})
  # The layer the stop outlines.
  file(READ "${oddeven_file}" whole)
  string(FIND "${whole}" "## The last merge" at)
  string(SUBSTRING "${whole}" ${at} -1 whole)
  string(REGEX MATCH "@highlight layer ([0-9]+)" unused "${whole}")
  set(layer "${CMAKE_MATCH_1}")
  layer_comparators(run ${layer} run)
  skipped_with_a_key(touching ${layer})
  list(LENGTH run runs)
  list(LENGTH touching dashed)
  if(NOT said_runs EQUAL runs OR NOT said_dashed EQUAL dashed)
    claim_failed("oddeven.lesson 'The last merge' says ${said_runs} comparators of layer ${layer} run and ${said_dashed} "
                 "are dashed, but the network has ${runs} and ${dashed}")
  endif()
  same_set("oddeven.lesson 'The last merge': layer ${layer}'s comparators that run" "${said_run}" "${run}")
  same_set("oddeven.lesson 'The last merge': layer ${layer}'s dashed comparators" "${said_skipped}" "${touching}")
endif()

oddeven_says("Sorted" "= ([0-9]+) layers" "= N layers")
if(stop_says AND NOT CMAKE_MATCH_1 EQUAL layer_count)
  claim_failed("oddeven.lesson 'Sorted' says ${CMAKE_MATCH_1} layers, but oddeven::layers(${n}) has ${layer_count}")
endif()

# --- 8. oddeven: the fused variant's windows hold N keys per thread ------------------------------------

string(REGEX MATCH "kOddEvenTable\\[\\][^}]*=[ \t\r\n]*{.*" table "${tuning}")
string(FIND "${table}" "\n}" end)
string(SUBSTRING "${table}" 0 ${end} table)
string(REGEX MATCHALL "\\.keysPerLane = [0-9]+" per_lane "${table}")
list(REMOVE_DUPLICATES per_lane)
if(NOT per_lane)
  message(FATAL_ERROR "lesson_claims: found no '.keysPerLane = K' rows in kOddEvenTable")
endif()
oddeven_says("Why a GPU likes it" "window of keys into its registers, ([0-9]+) keys per thread" "a window of keys into its registers, N keys per thread")
if(stop_says)
  set(said_keys "${CMAKE_MATCH_1}")
  foreach(row IN LISTS per_lane)
    string(REGEX MATCH "[0-9]+" k "${row}")
    if(NOT k EQUAL said_keys)
      claim_failed("oddeven.lesson 'Why a GPU likes it' says a window holds ${said_keys} keys per thread, but tuning::oddEven has a "
                   "row with keysPerLane = ${k}")
    endif()
  endforeach()
endif()

if(failures)
  message(FATAL_ERROR "lesson_claims: claims of the lessons that no longer hold of the code:${failures}")
endif()
message(STATUS "lesson_claims: every checked claim holds")
