// Checks what the app wrote in its tests:
//   app_check png FILE [--width W --height H] [--theme dark|light]
//       the screenshot exists, has the window's size and is not blank: at least 2% of its pixels
//       differ from the most common colour, and it has at least 24 distinct colours; with --theme,
//       that most common colour (the panels' background) is dark (Rec. 709 luma below 0.15) or
//       light (above 0.75);
//   app_check state STATE.json TRACE.jsonl --algo A [--step K] [--check-ok]
//       the app's --dump-state equals the sortlab-bench --trace line of algorithm A at the same step
//       (n, type, order, label, keys, values; radix lines: histogram, offsets, workgroup counts;
//       OneSweep lines: tiles, tile_status and fallbacks against the app's "tile status" and
//       "fallbacks", and the app's "tile counts" against the inclusive prefix of each digit over
//       the tiles, recounted from the previous trace line's keys);
//       --step also pins the step; --check-ok requires the
//       app's check mode to have compared the step with the CPU reference and found it equal;
//       --keys-error TEXT: the app refused keys typed into its field, with a message holding TEXT.
//   app_check replay START.json MID.json END.json
//       the radix view's lookback replay of one OneSweep pass (the same digit and step in the three
//       dumps) before any event, after some and after all: before, every status word is not ready;
//       after all, the flags and counts are the digit's column of the "tile status" and "tile
//       counts" the GPU left (the status buffer); in between, no flag is past its final one.
//   app_check lesson NAME.jsonl [--min-stops K] [--answers right|wrong] [--visible]
//       sortlab --lesson NAME --screenshot-each DIR: one record per stop, in order, at least K of
//       them, a PNG of every stop (and of every answer) beside it that is not blank, and every
//       question answered with the GPU's answer (--answers wrong: that + 1, and feedback that says
//       so, or that it is impossible), recomputed here from the keys, values and buffers the record holds: swaps =
//       positions whose key changed / 2; where = the index of the key's value after the step; count = the keys before
//       the step whose digit (the step's bits) is it; depth = the walk of the tile for the replayed digit in the raw
//       lookback log. The feedback carries the GPU's arithmetic (the pairs that swapped, "index = start + earlier +
//       rank", the histogram column's sum). With
//       --visible, no stop's highlight, question or feedback was outside the window.
//   app_check lesson-held RECORDS.jsonl
//       two records of one stop with a question: after Right, the stop's step, nothing answered,
//       a hint naming "Show me"; then answered, with no hint; then, two stops on, the key the
//       teacher pinned (input index 3) still pinned.
//   app_check move STEM
//       STEM-0/-0.5/-1.json and .png (--transition-at 0, 0.5, 1): keys drawn at their indices at 0,
//       at a permutation at 1, between the two half-way (a pass moved one bucket at a time: inside
//       the array, on its way); the half-way picture differs from both.
//   app_check pinned DUMP I
//       --pin-key I: the dump's path starts at I, has one index a step, and ends at the value I.
//   app_check feedback NAME.jsonl --tile K --expect KIND:MISTAKE,...
//       wrong and impossible answers and what the feedback says to them (app_check_feedback.h).
//   app_check lessons-agree A.jsonl B.jsonl ...
//       runs of one lesson: every graded question has the same answer in all of them.
//   app_check loaded STATE.json --device D --algos A,B [--lines K] [--min-points P] [--error TEXT]
//       the benchmark panel's lines from loaded results in --dump-state ("loaded_results"): for each
//       algorithm A a line measured on D, labelled "..., D", with at least P points (default 2) of
//       ascending n and positive Gkeys/s; every line with its file, label, algorithm and device, no
//       two with the same label; K lines in all (when given); --error: the panel refused a later
//       file with a message holding TEXT ("loaded_results_error") and kept these lines.
//   app_check labels FILE... [--min-labels K] [--moving] [--part-way]
//       the labels the array, network and radix views drew (UiState::Probe::labels): in a
//       --dump-state (its "labels") or in every screenshot of a lesson's records (.jsonl, each
//       record's "label_shots"). Every label that shows lies inside the part of its window (or
//       table column) that shows, with 1 px of slack (in a window that scrolls up and down, one
//       may be cut at its top or bottom edge, or be out of sight; in one that scrolls sideways, at
//       its left or right edge); no two labels of a window overlap or run together (labels on a common line keep
//       a gap of a quarter of their height); no view noted a label it had no room for; at least K
//       labels in each file. --moving: each file is a --dump-state of a move (--transition-at);
//       --part-way: with some key drawn away from its own index (the move under way).
//   app_check strip PART.json SORTED.json [--min-l1 X]
//       the array view's picture of a large array (--dump-state "strip": the density of the whole
//       keys in 256 pixel columns): the sorted one is monotone (no column has keys below the
//       highest value row of the column before it); the one part-way (a radix sort after some of
//       its passes) is not, says which low bits are sorted, and differs from the sorted one by an
//       L1 distance of at least X (default 0.5) between their columns' histograms (each column
//       normalised to 1, the distance averaged over the columns: 0 same, 2 disjoint).
// Exit 0 when every check passes; otherwise 1 with the reasons on stderr.
#include "app_check_feedback.h"

#include <nlohmann/json.hpp>

#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <map>
#include <set>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

int failures = 0;
void fail(const std::string& why) {
    std::fprintf(stderr, "app_check: %s\n", why.c_str());
    ++failures;
}

std::string arg(int argc, char** argv, const char* name, const char* fallback = "") {
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == name) return argv[i + 1];
    return fallback;
}
bool flag(int argc, char** argv, const char* name) {
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == name) return true;
    return false;
}

// The luma of the most common colour must say which theme the app drew in ("": no check).
void checkTheme(const std::string& path, uint32_t background, const std::string& theme) {
    if (theme.empty()) return;
    const double luma =
        (0.2126 * (background & 255) + 0.7152 * (background >> 8 & 255) + 0.0722 * (background >> 16 & 255)) / 255.0;
    if (theme == "dark" ? luma >= 0.15 : luma <= 0.75)
        fail(path + ": its background (luma " + std::to_string(luma) + ") is not that of the " + theme + " theme");
}

int checkPng(const std::string& path, int wantW, int wantH, const std::string& theme = "") {
    int w = 0, h = 0, comp = 0;
    unsigned char* px = stbi_load(path.c_str(), &w, &h, &comp, 4);
    if (!px) {
        fail("cannot read the PNG " + path);
        return 1;
    }
    if ((wantW && w != wantW) || (wantH && h != wantH))
        fail(path + " is " + std::to_string(w) + "x" + std::to_string(h) + ", expected " + std::to_string(wantW) + "x" +
             std::to_string(wantH));
    std::map<uint32_t, size_t> counts;
    for (size_t i = 0; i < size_t(w) * h; ++i) {
        uint32_t c = px[i * 4] | (px[i * 4 + 1] << 8) | (px[i * 4 + 2] << 16);
        counts[c]++;
    }
    stbi_image_free(px);
    size_t most = 0;
    uint32_t background = 0;
    for (auto& [c, k] : counts)
        if (k > most) most = k, background = c;
    checkTheme(path, background, theme);
    const double other = 1.0 - double(most) / double(size_t(w) * h);
    if (other < 0.02)
        fail(path + " looks blank: only " + std::to_string(other * 100) + "% of pixels differ from the background");
    if (counts.size() < 24) fail(path + " has only " + std::to_string(counts.size()) + " colours");
    std::printf("%s: %dx%d, %zu colours, %.1f%% non-background\n", path.c_str(), w, h, counts.size(), other * 100);
    return failures ? 1 : 0;
}

// Keys are equal when both are the same JSON value, or both numbers equal as the key type.
bool sameKey(const json& a, const json& b, const std::string& type) {
    if (a.is_string() || b.is_string()) return a == b;
    if (type == "f32") {
        float x = a.get<float>(), y = b.get<float>();
        return x == y && std::signbit(x) == std::signbit(y);
    }
    if (type == "f64") {
        double x = a.get<double>(), y = b.get<double>();
        return x == y && std::signbit(x) == std::signbit(y);
    }
    return a == b;
}

const json* aux(const json& state, const char* name) {
    if (!state.contains("aux") || !state["aux"].contains(name)) {
        fail(std::string("the app has no aux '") + name + "'");
        return nullptr;
    }
    return &state["aux"][name];
}

// The digit of an integer key of the trace for bits [lo, lo + 8) of its order bits (u32 and u64
// ascending only: there the order bits are the key).
uint32_t digitOf(const json& key, uint32_t lo) {
    return uint32_t((key.get<uint64_t>() >> lo) & 0xFF);
}

// A OneSweep pass: the app's lookback state against the trace line (match) of the same pass and
// the line before it (previous: the keys the pass read).
void checkOneSweep(const json& state, const json& match, const json& previous, bool forceFallback) {
    const uint64_t tiles = match["tiles"], tileKeys = match["tile_keys"];
    if (state.value("variant", "") != match.value("variant", ""))
        fail("variant: app " + state.value("variant", "") + ", trace " + match.value("variant", ""));
    if (const json* st = aux(state, "tile status")) {
        if ((*st)["shape"] != json::array({tiles, 256}))
            fail("tile status shape " + (*st)["shape"].dump() + ", trace tiles " + std::to_string(tiles));
        if ((*st)["data"] != match["tile_status"]) fail("tile status differs from the trace's tile_status");
        for (const json& f : (*st)["data"])
            if (f != 2) {
                fail("a tile status flag is " + f.dump() + " after the pass (expected 2, inclusive prefix)");
                break;
            }
    }
    if (const json* f = aux(state, "fallbacks")) {
        const uint64_t app = (*f)["data"].at(0), trace = match["fallbacks"];
        if (state.value("force_fallback", false) != forceFallback)
            fail("the app's force_fallback is " + state["force_fallback"].dump());
        if (forceFallback) {
            // Forced: every tile but the first counts its predecessor itself, in both runs.
            if (app != trace || app != tiles - 1)
                fail("fallbacks: app " + std::to_string(app) + ", trace " + std::to_string(trace) + ", expected " +
                     std::to_string(tiles - 1));
        } else if (app > tiles - 1 || trace > tiles - 1) {
            // Lookback: how many tiles give up waiting depends on scheduling, so the two runs may differ.
            fail("fallbacks out of range: app " + std::to_string(app) + ", trace " + std::to_string(trace));
        }
    }
    const json* counts = aux(state, "tile counts");
    if (!counts) return;
    if ((*counts)["shape"] != json::array({tiles, 256})) fail("tile counts shape " + (*counts)["shape"].dump());
    const std::string type = state["type"];
    if (previous.is_null() || (type != "u32" && type != "u64") || state["order"] != "asc") {
        fail("tile counts: no previous line of integer ascending keys to recount them from");
        return;
    }
    // Inclusive prefix of digit d over tiles 0..t of the keys the pass read.
    const json& keys = previous["keys"];
    const uint32_t lo = match["digit_bits"][0];
    std::vector<uint64_t> want(tiles * 256, 0);
    for (size_t i = 0; i < keys.size(); ++i) want[(i / tileKeys) * 256 + digitOf(keys[i], lo)]++;
    for (uint64_t t = 1; t < tiles; ++t)
        for (uint32_t d = 0; d < 256; ++d) want[t * 256 + d] += want[(t - 1) * 256 + d];
    const json& got = (*counts)["data"];
    for (size_t i = 0; i < want.size() && i < got.size(); ++i)
        if (got[i] != want[i]) {
            fail("tile counts [tile " + std::to_string(i / 256) + ", digit " + std::to_string(i % 256) + "]: app " +
                 got[i].dump() + ", recounted " + std::to_string(want[i]));
            return;
        }
    if (got.size() != want.size())
        fail("tile counts: " + std::to_string(got.size()) + " entries");
    else if (!failures)
        std::printf("OneSweep pass %s: %llu tiles all inclusive, tile counts = recounted prefixes, fallbacks %s\n",
                    match["pass"].dump().c_str(), (unsigned long long)tiles, match["fallbacks"].dump().c_str());
}

int checkState(const std::string& statePath, const std::string& tracePath, const std::string& algo, int step,
               bool checkOk, const std::string& keysError) {
    const bool forceFallback = algo == "onesweep-fallback";
    std::ifstream in(statePath);
    if (!in) {
        fail("cannot read " + statePath);
        return 1;
    }
    json state = json::parse(in);
    if (!keysError.empty() &&
        (!state.contains("keys_error") || state["keys_error"].get<std::string>().find(keysError) == std::string::npos))
        fail("keys_error is " + (state.contains("keys_error") ? state["keys_error"].dump() : std::string("missing")) +
             ", expected one holding \"" + keysError + "\"");
    if (state.contains("error")) fail("the app reported an error: " + state["error"].get<std::string>());
    if (step >= 0 && state.value("step", -1) != step)
        fail("the app is at step " + std::to_string(state.value("step", -1)) + ", expected " + std::to_string(step));
    if (state.value("validation_messages", 0) != 0) fail("the app saw validation messages");
    if (checkOk) {
        if (!state.contains("check"))
            fail("no check section in the state (check mode off?)");
        else if (!state["check"].value("available", false) || !state["check"].value("ok", false))
            fail("check mode: " + state["check"].dump());
    }
    std::ifstream tr(tracePath);
    if (!tr) {
        fail("cannot read " + tracePath);
        return 1;
    }
    // The trace line of this algorithm and case at the app's step, and the line before it (the
    // keys the step started from, for radix passes).
    std::string line;
    json match, previous;
    while (std::getline(tr, line)) {
        json t = json::parse(line);
        if (t["algo"] == algo && t["n"] == state["n"] && t["type"] == state["type"] && t["order"] == state["order"] &&
            t["values_type"] == state["values_type"]) {
            if (t["step"] == state["step"]) {
                match = t;
                break;
            }
            previous = t;
        }
    }
    if (match.is_null()) {
        fail("no trace line of " + algo + " at step " + state["step"].dump() + " for this case");
        return 1;
    }
    if (match["label"] != state["label"])
        fail("label: app " + state["label"].dump() + ", trace " + match["label"].dump());
    const json& ka = state["keys"];
    const json& kb = match["keys"];
    if (ka.size() != kb.size()) fail("key count differs");
    const std::string type = state["type"];
    for (size_t i = 0; i < std::min(ka.size(), kb.size()); ++i)
        if (!sameKey(ka[i], kb[i], type)) {
            fail("key " + std::to_string(i) + ": app " + ka[i].dump() + ", trace " + kb[i].dump());
            break;
        }
    // Radix trace lines carry the pass's buffers too: compare them with the app's aux entries.
    for (auto [field, aux] : {std::pair{"histogram", "histogram"}, std::pair{"offsets", "offsets"},
                              std::pair{"workgroup_counts", "digit counts"}}) {
        if (!match.contains(field)) continue;
        if (!state.contains("aux") || !state["aux"].contains(aux))
            fail(std::string("the app has no aux '") + aux + "'");
        else if (state["aux"][aux]["data"] != match[field])
            fail(std::string(aux) + " differs from the trace's " + field);
    }
    if (match.contains("tile_status")) checkOneSweep(state, match, previous, forceFallback);
    if (match.contains("values") != state.contains("values"))
        fail("values present in one and not the other");
    else if (match.contains("values") && match["values"] != state["values"])
        fail("values differ");
    if (!failures)
        std::printf("%s: step %d (%s) of %s equals the trace (%zu keys)\n", statePath.c_str(), state["step"].get<int>(),
                    state["label"].get<std::string>().c_str(), algo.c_str(), ka.size());
    return failures ? 1 : 0;
}

json readJson(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    return json::parse(in);
}

// The feedback of a wrong answer carries the GPU's arithmetic, as seen on screen, for each kind.
bool feedbackExplains(const std::string& kind, const std::string& result, uint64_t right) {
    const std::string r = std::to_string(right);
    if (result.find(r) == std::string::npos) return false;
    if (kind == "swaps") // the pairs that swapped, or, where none did, the pairs in order
        return result.find(" found the first key ") != std::string::npos ||
               result.find("None of ") != std::string::npos;
    if (kind == "where")
        return result.find(" = ") != std::string::npos || result.find("Comparator ") != std::string::npos ||
               result.find("No comparator") != std::string::npos;
    if (kind == "count") return result.find("Column ") != std::string::npos;
    if (kind == "depth")
        return result.find("tiles back") != std::string::npos || result.find("tile back") != std::string::npos;
    return false;
}

// What a stop shows agrees with what it says: a key path is drawn only at a stop that points at a
// key (a stop's path ends with it); while a OneSweep pass's replay is before its last event, the
// array shows the pass's input (the step before), else the step itself; before a count question
// is answered, no histogram of another pass than the one asked about is on screen.
void checkLessonFlow(const json& r, const std::string& at) {
    const std::string title = at + " (" + r["title"].get<std::string>() + ")";
    const bool aboutKey = r["highlight"]["kind"] == "key";
    if (r["pinned"].is_null() == aboutKey || r["pinned_by_stop"] != aboutKey)
        fail(title + ": a key path is " + (r["pinned"].is_null() ? "not " : "") + "drawn, and the stop " +
             (aboutKey ? "points at a key" : "does not point at one"));
    for (const json& shot : r["label_shots"]) {
        if (!shot.contains("array_step") || shot["step"].is_null()) {
            fail(title + ": a screenshot without the array's step");
            continue;
        }
        const int64_t step = shot["step"], drawn = shot["array_step"];
        const bool before = shot["replay"].is_array() && shot["replay"][0] < shot["replay"][1];
        if (drawn != (before ? step - 1 : step))
            fail(title + ": the array shows step " + std::to_string(drawn) + " at step " + std::to_string(step) +
                 (before ? " while the replay is before the pass's end" : ""));
    }
    if (r.contains("question") && r["question"]["kind"] == "count" && !r["label_shots"].empty() &&
        r.contains("after")) {
        const json& bits = r["label_shots"][0]["histogram_bits"];
        if (!bits.is_null() && (bits[0] != r["after"]["bit_lo"] || bits[1] != r["after"]["bit_hi"]))
            fail(title + ": the question asks about bits [" + r["after"]["bit_lo"].dump() + "," +
                 r["after"]["bit_hi"].dump() + "] while the histogram on screen is of bits " + bits.dump());
    }
}

int checkLesson(const std::string& path, size_t minStops, const std::string& answers, bool visible) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    const std::string stem = path.substr(0, path.size() - std::string(".jsonl").size());
    std::string line;
    size_t stops = 0, questions = 0;
    while (std::getline(in, line)) {
        const json r = json::parse(line);
        const std::string at = path + ", stop " + std::to_string(stops);
        if (r["stop"] != stops) fail(at + ": the record is of stop " + r["stop"].dump());
        char nn[24];
        std::snprintf(nn, sizeof nn, "-%02zu", stops + 1);
        const int before = failures;
        checkPng(stem + nn + ".png", 0, 0);
        if (r.contains("question")) checkPng(stem + nn + "-answer.png", 0, 0);
        if (failures != before) fail(at + ": its screenshots");
        ++stops;
        // What the stop talks about was on screen: its highlight, its question, its feedback, the
        // parts of the views its text is about (subject), and all of its text without scrolling.
        if (visible)
            for (const char* item : {"highlight", "question", "feedback", "subject", "narration"})
                if (!r["visible"].contains(item) || r["visible"][item] == false)
                    fail(at + " (" + r["title"].get<std::string>() + "): its " + item +
                         " is not visible in the window");
        checkLessonFlow(r, at);
        if (!r.contains("question")) continue;
        ++questions;
        const json& q = r["question"];
        const std::string kind = q["kind"];
        if (q["graded"] != (kind != "depth")) fail(at + ": graded is " + q["graded"].dump() + " for " + kind);
        if (r["right"].is_null()) {
            fail(at + ": no answer from the GPU: " + r["result"].dump());
            continue;
        }
        const uint64_t right = r["right"];
        const uint64_t expectGiven = answers == "wrong" ? right + 1 : right;
        if (r["given"] != expectGiven)
            fail(at + ": answered " + r["given"].dump() + ", expected " + std::to_string(expectGiven));
        const std::string result = r["result"];
        if (answers == "wrong" && q["graded"] == true && result.rfind("Not this time", 0) != 0 &&
            result.rfind("Impossible", 0) != 0)
            fail(at + ": a wrong answer's feedback does not say so: " + result);
        if (!feedbackExplains(kind, result, right)) fail(at + ": the feedback lacks the GPU's arithmetic: " + result);
        const json &b = r["before"], &a = r["after"];
        const uint64_t arg = q["arg"], n = b["keys"].size();
        uint64_t want = UINT64_MAX;
        if (kind == "swaps") {
            uint64_t changed = 0;
            for (uint64_t i = 0; i < n; ++i) changed += b["keys"][i] != a["keys"][i];
            want = changed / 2;
        } else if (kind == "where") {
            for (uint64_t j = 0; j < n; ++j)
                if (a["values"][j] == b["values"][arg]) want = j;
        } else if (kind == "count") {
            const uint32_t lo = a["bit_lo"], hi = a["bit_hi"];
            want = 0;
            for (uint64_t i = 0; i < n; ++i)
                want += ((b["keys"][i].get<uint64_t>() >> lo) & ((1ull << (hi - lo)) - 1)) == arg;
        } else if (kind == "depth") { // the pass shown, for the replayed digit
            const json& log = a["aux"]["lookback log"];
            const uint64_t digit = r["replay_digit"];
            const uint64_t words = log["shape"][1], w = log["data"][arg * words + 8 + digit];
            want = (w & 0xffff) + ((w >> 16) & 0x7fff) + (w >> 31);
        }
        if (want != right)
            fail(at + ": the " + kind + " answer is " + std::to_string(right) + ", recomputed " + std::to_string(want));
    }
    if (stops < minStops)
        fail(path + ": " + std::to_string(stops) + " stops, expected at least " + std::to_string(minStops));
    if (!failures)
        std::printf("%s: %zu stops, %zu questions answered (%s) as the GPU's state says%s\n", path.c_str(), stops,
                    questions, answers.c_str(), visible ? ", everything each stop points at on screen" : "");
    return failures ? 1 : 0;
}

// A stop's record after Right was pressed with its question open (tests/app/lesson_held.script):
// the stop still shows its own step, nothing was answered or revealed, the panel asks for an
// answer or "Show me", and the outline is the stop's own; then the same stop answered.
int checkLessonHeld(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::vector<json> r;
    for (std::string line; std::getline(in, line);) r.push_back(json::parse(line));
    if (r.size() != 3)
        return fail(path + ": expected 3 records (held, answered, pinned), found " + std::to_string(r.size())), 1;
    const json &held = r[0], &answered = r[1], &pinned = r[2];
    if (pinned["pinned"] != 3 || pinned["pinned_by_stop"] != false)
        fail(path + ": the key the teacher pinned (input index 3) is " + pinned["pinned"].dump() + " at stop " +
             pinned["stop"].dump());
    if (!held.contains("question")) fail(path + ": the stop has no question");
    if (!held["given"].is_null() || !held["right"].is_null() || held["result"] != "")
        fail(path + ": Right revealed the answer: " + held["result"].dump());
    for (const json& shot : held["label_shots"])
        if (shot["step"] != held["step"] || shot["array_step"] != held["step"])
            fail(path + ": Right stepped the sort to " + shot["step"].dump() + " (the stop shows " +
                 held["step"].dump() + ")");
    const std::string hint = held["hint"];
    if (hint.find("Show me") == std::string::npos) fail(path + ": no hint to answer or press Show me: '" + hint + "'");
    if (answered["right"].is_null() || answered["hint"] != "")
        fail(path + ": answering afterwards gave " + answered["result"].dump() + ", hint " + answered["hint"].dump());
    if (held["highlight"] != answered["highlight"]) fail(path + ": the stop's outline changed");
    if (!failures)
        std::printf("%s: Right with the question open did not step; the hint: %s\n", path.c_str(), hint.c_str());
    return failures ? 1 : 0;
}

// Runs of one lesson (other window sizes, other runs): every graded answer the same in all of them.
int checkLessonsAgree(const std::vector<std::string>& paths) {
    std::map<std::pair<size_t, std::string>, std::pair<std::string, json>> first; // (stop, question) -> (file, right)
    size_t graded = 0;
    for (const std::string& path : paths) {
        std::ifstream in(path);
        if (!in) throw std::runtime_error("cannot read " + path);
        std::string line;
        while (std::getline(in, line)) {
            const json r = json::parse(line);
            if (!r.contains("question") || r["question"]["graded"] != true) continue;
            const auto key = std::make_pair(r["stop"].get<size_t>(), r["question"]["text"].get<std::string>());
            auto [it, added] = first.emplace(key, std::make_pair(path, r["right"]));
            if (added)
                ++graded;
            else if (it->second.second != r["right"] || r["right"].is_null())
                fail("stop " + std::to_string(key.first) + ": " + it->second.first + " says " +
                     it->second.second.dump() + ", " + path + " says " + r["right"].dump());
        }
    }
    if (!graded) fail("no graded question in the runs");
    if (!failures) std::printf("%zu runs: the %zu graded answers agree in every run\n", paths.size(), graded);
    return failures ? 1 : 0;
}

// A step drawn as a move, held at 0, 0.5 and 1 (--transition-at): at 0 every key is drawn at its
// own index, at 1 at a permutation of them that moved some key, and half-way every key lies between
// its two indices, some strictly (a pass moved one bucket at a time: inside the array, some keys
// away from where they started and some not yet where they end); the half-way picture differs
// from both ends.
int checkMove(const std::string& stem) {
    const json a = readJson(stem + "-0.json"), m = readJson(stem + "-0.5.json"), b = readJson(stem + "-1.json");
    for (const json* j : {&a, &m, &b})
        if (!j->contains("drawn_index") || !j->contains("move"))
            throw std::runtime_error(stem + ": a dump without a move");
    const json &x0 = a["drawn_index"], &xm = m["drawn_index"], &x1 = b["drawn_index"];
    const size_t n = x0.size();
    const bool staged = m["move"].value("stages", 0) > 0;
    std::vector<bool> seen(n, false);
    size_t moved = 0, between = 0, notAtEnd = 0;
    for (size_t i = 0; i < n; ++i) {
        const double s = x0[i], h = xm[i], e = x1[i];
        if (s != double(i)) fail(stem + ": at 0, key " + std::to_string(i) + " is drawn at " + std::to_string(s));
        const size_t to = size_t(e);
        if (double(to) != e || to >= n || seen[to])
            fail(stem + ": at 1, the indices are not a permutation");
        else
            seen[to] = true;
        moved += to != i;
        // A pass moved one bucket at a time: a key waiting for its bucket may stand aside beyond it.
        const double lo = staged ? 0.0 : std::min(s, e), hi = staged ? double(n - 1) : std::max(s, e);
        if (h < lo - 1e-9 || h > hi + 1e-9)
            fail(stem + ": half-way, key " + std::to_string(i) + " is drawn at " + std::to_string(h) +
                 ", not between " + std::to_string(lo) + " and " + std::to_string(hi));
        between += staged ? h != s : h > std::min(s, e) && h < std::max(s, e);
        notAtEnd += h != e;
    }
    if (!moved) fail(stem + ": the step moved no key");
    if (!between || !notAtEnd) fail(stem + ": half-way, no key is on its way");
    auto pixels = [](const std::string& path) {
        int w = 0, h = 0, c = 0;
        unsigned char* px = stbi_load(path.c_str(), &w, &h, &c, 4);
        std::vector<unsigned char> v;
        if (px) v.assign(px, px + size_t(w) * h * 4), stbi_image_free(px);
        return v;
    };
    const auto p0 = pixels(stem + "-0.png"), pm = pixels(stem + "-0.5.png"), p1 = pixels(stem + "-1.png");
    if (pm.empty() || pm == p0 || pm == p1) fail(stem + ": the half-way picture is missing or equals an end");
    if (!failures)
        std::printf("%s: %zu keys, %zu moved, %zu between their indices half-way (%s)\n", stem.c_str(), n, moved,
                    between, m["move"]["matched"].get<std::string>().c_str());
    return failures ? 1 : 0;
}

// A pinned key (--pin-key I): its path starts at I, has an index for every step up to the one
// shown, and (with values) ends where the value I, the key's input index, is now.
int checkPinned(const std::string& path, uint64_t input) {
    const json j = readJson(path);
    if (!j.contains("pinned")) throw std::runtime_error(path + ": nothing pinned");
    const json& p = j["pinned"]["path"];
    const uint64_t n = j["keys"].size(), step = j["step"];
    if (j["pinned"]["input_index"] != input) fail(path + ": pinned " + j["pinned"]["input_index"].dump());
    if (p.size() != step + 1)
        fail(path + ": a path of " + std::to_string(p.size()) + " for step " + std::to_string(step));
    if (!p.empty() && p[0] != input) fail(path + ": the path starts at " + p[0].dump());
    for (const json& i : p)
        if (i.get<uint64_t>() >= n) fail(path + ": an index past n in the path");
    if (!p.empty() && j.contains("values") && j["values"].size() == n && j["values"][p.back().get<size_t>()] != input)
        fail(path + ": the path ends at " + p.back().dump() + ", where the value is " +
             j["values"][p.back().get<size_t>()].dump());
    if (!failures)
        std::printf("%s: key %llu pinned, path %s\n", path.c_str(), (unsigned long long)input, p.dump().c_str());
    return failures ? 1 : 0;
}

int checkReplay(const std::string& startPath, const std::string& midPath, const std::string& endPath) {
    const json start = readJson(startPath), mid = readJson(midPath), end = readJson(endPath);
    for (const json* j : {&start, &mid, &end})
        if (!j->contains("lookback_replay")) throw std::runtime_error("a dump without lookback_replay");
    const json &a = start["lookback_replay"], &b = mid["lookback_replay"], &c = end["lookback_replay"];
    const uint32_t digit = c["digit"];
    if (a["digit"] != digit || b["digit"] != digit || start["step"] != end["step"] || mid["step"] != end["step"])
        fail("the three dumps are not of one digit and step");
    const size_t events = c["events"], tiles = c["flags"].size();
    if (a["shown"] != 0 || c["shown"] != events || b["shown"].get<size_t>() == 0 || b["shown"].get<size_t>() >= events)
        fail("not the start, a middle and the end of the replay (shown " + a["shown"].dump() + ", " +
             b["shown"].dump() + ", " + c["shown"].dump() + " of " + std::to_string(events) + ")");
    for (size_t t = 0; t < tiles; ++t)
        if (a["flags"][t] != 0 || a["counts"][t] != 0)
            fail("tile " + std::to_string(t) + " is not \"not ready\" at the start");
    const json &flags = end["aux"]["tile status"], &counts = end["aux"]["tile counts"];
    if (flags["shape"][0] != tiles || flags["shape"][1] != 256) fail("the tile status is not {tiles, 256}");
    for (size_t t = 0; t < tiles && !failures; ++t) {
        const std::string at = "tile " + std::to_string(t) + ", digit " + std::to_string(digit);
        if (c["flags"][t] != flags["data"][t * 256 + digit])
            fail(at + ": the replay ends on flag " + c["flags"][t].dump() + ", the GPU left " +
                 flags["data"][t * 256 + digit].dump());
        if (c["counts"][t] != counts["data"][t * 256 + digit])
            fail(at + ": the replay ends on count " + c["counts"][t].dump() + ", the GPU left " +
                 counts["data"][t * 256 + digit].dump());
        if (b["flags"][t].get<int>() > c["flags"][t].get<int>()) fail(at + ": a flag in the middle past its end");
    }
    if (!failures)
        std::printf("%s..%s: the replay of digit %u (%zu events, %zu tiles) ends on the status buffer\n",
                    startPath.c_str(), endPath.c_str(), digit, events, tiles);
    return failures ? 1 : 0;
}

} // namespace

// Splits "a,b,c".
std::vector<std::string> commaList(const std::string& s) {
    std::vector<std::string> out;
    size_t at = 0;
    while (at <= s.size()) {
        const size_t comma = std::min(s.find(',', at), s.size());
        if (comma > at) out.push_back(s.substr(at, comma - at));
        at = comma + 1;
    }
    return out;
}

// One loaded line: its fields, and points of ascending n with positive throughput.
void checkLoadedLine(const json& l, size_t minPoints) {
    for (const char* key : {"file", "label", "algo", "device"})
        if (!l.contains(key) || !l[key].is_string() || l[key].get<std::string>().empty())
            fail("a loaded line without \"" + std::string(key) + "\": " + l.dump());
    if (!l.contains("points") || !l["points"].is_array()) return fail("a loaded line without points: " + l.dump());
    const json& p = l["points"];
    if (p.size() < minPoints)
        fail(l.value("label", "?") + " has " + std::to_string(p.size()) + " points, expected at least " +
             std::to_string(minPoints));
    for (size_t i = 0; i < p.size(); ++i) {
        if (!p[i].is_array() || p[i].size() != 2 || !(p[i][1].get<double>() > 0))
            return fail(l.value("label", "?") + ": point " + std::to_string(i) + " is not [n, Gkeys/s > 0]");
        if (i && p[i][0].get<uint64_t>() <= p[i - 1][0].get<uint64_t>())
            return fail(l.value("label", "?") + ": the points' n do not ascend");
    }
}

int checkLoaded(const std::string& path, const std::string& device, const std::vector<std::string>& algos, int lines,
                size_t minPoints, const std::string& error) {
    const json state = readJson(path);
    if (!state.contains("loaded_results") || !state["loaded_results"].is_array()) {
        fail(path + " has no \"loaded_results\"");
        return 1;
    }
    const json& loaded = state["loaded_results"];
    std::set<std::string> labels;
    for (const json& l : loaded) {
        checkLoadedLine(l, minPoints);
        if (!labels.insert(l.value("label", "")).second) fail("two lines labelled " + l.value("label", ""));
    }
    for (const std::string& algo : algos) {
        bool found = false;
        for (const json& l : loaded)
            if (l.value("algo", "") == algo && l.value("device", "") == device) {
                found = true;
                const std::string label = l.value("label", "");
                if (label.size() < device.size() + 2 || label.substr(label.size() - device.size() - 2) != ", " + device)
                    fail("the " + algo + " line is labelled '" + label + "', not '..., " + device + "'");
            }
        if (!found) fail("no loaded " + algo + " line measured on " + device);
    }
    if (lines >= 0 && loaded.size() != size_t(lines))
        fail(std::to_string(loaded.size()) + " loaded lines, expected " + std::to_string(lines));
    const std::string said = state.value("loaded_results_error", "");
    if (!error.empty() && said.find(error) == std::string::npos)
        fail("the panel's load message is '" + said + "', expected one with '" + error + "'");
    if (error.empty() && !said.empty()) fail("the panel refused a file: " + said);
    std::printf("%s: %zu loaded lines%s\n", path.c_str(), loaded.size(), said.empty() ? "" : (", and " + said).c_str());
    return failures ? 1 : 0;
}

// One frame's labels (App::labelsJson): inside their windows' shown areas, no two overlapping.
size_t checkLabelFrame(const json& frame, const std::string& where) {
    for (const auto& m : frame.at("missing")) fail(where + ": no room for the label " + m.get<std::string>());
    const json& labels = frame.at("labels");
    struct Box {
        std::string window, text;
        double x0, y0, x1, y1;
    };
    std::vector<Box> boxes;
    size_t cut = 0;
    for (const auto& l : labels) {
        const auto& r = l.at("rect");
        const auto& s = l.at("shown");
        Box b{l.at("window"), l.at("text"), r[0], r[1], r[2], r[3]};
        const double slack = 1.0;
        const bool scrolls = l.value("scrolls", false), scrollsX = l.value("scrolls_x", false);
        const bool outOfSightY = b.y1 <= double(s[1]) || b.y0 >= double(s[3]);
        const bool outOfSightX = b.x1 <= double(s[0]) || b.x0 >= double(s[2]);
        if ((scrolls && outOfSightY) || (scrollsX && outOfSightX)) continue;
        const bool cutX = b.x0 < double(s[0]) - slack || b.x1 > double(s[2]) + slack;
        const bool cutY = b.y0 < double(s[1]) - slack || b.y1 > double(s[3]) + slack;
        if (((cutX && !scrollsX) || (cutY && !scrolls)) && ++cut <= 20)
            fail(where + ": " + b.window + " label '" + b.text + "' at (" + std::to_string(int(b.x0)) + ", " +
                 std::to_string(int(b.y0)) + ")-(" + std::to_string(int(b.x1)) + ", " + std::to_string(int(b.y1)) +
                 ") is cut by its window's edge (" + std::to_string(int(double(s[0]))) + ", " +
                 std::to_string(int(double(s[1]))) + ")-(" + std::to_string(int(double(s[2]))) + ", " +
                 std::to_string(int(double(s[3]))) + ")");
        boxes.push_back(b);
    }
    size_t reported = 0;
    for (size_t i = 0; i < boxes.size(); ++i)
        for (size_t j = i + 1; j < boxes.size(); ++j) {
            const Box &a = boxes[i], &b = boxes[j];
            if (a.window != b.window) continue;
            const double rows = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
            if (rows <= 1.0) continue; // on different lines
            const double gap = std::max(a.x0, b.x0) - std::min(a.x1, b.x1);
            const double need = 0.25 * std::min(a.y1 - a.y0, b.y1 - b.y0);
            if (gap < need && reported++ < 20)
                fail(where + ": " + a.window + " labels '" + a.text + "' and '" + b.text + "' " +
                     (gap < 0 ? "overlap" : "run together (" + std::to_string(gap) + " px apart)") + " at (" +
                     std::to_string(int(a.x0)) + ", " + std::to_string(int(a.y0)) + ") and (" +
                     std::to_string(int(b.x0)) + ", " + std::to_string(int(b.y0)) + ")");
        }
    return boxes.size();
}

int checkLabels(const std::vector<std::string>& paths, size_t minLabels, bool moving, bool partWay) {
    for (const std::string& path : paths) {
        if (moving || partWay) { // a dump of a move (with some key part-way)
            const json j = readJson(path);
            bool away = false;
            size_t i = 0;
            for (const auto& x : j.value("drawn_index", json::array())) away = away || x.get<double>() != double(i++);
            if (!j.contains("move")) fail(path + ": not a move");
            if (partWay && !away) fail(path + ": no key away from its own index");
        }
        size_t labels = 0, frames = 0;
        if (path.size() > 6 && path.substr(path.size() - 6) == ".jsonl") {
            std::ifstream in(path);
            if (!in) throw std::runtime_error("cannot read " + path);
            std::string line;
            for (size_t k = 1; std::getline(in, line); ++k) {
                if (line.empty()) continue;
                const json r = json::parse(line);
                size_t shot = 0;
                for (const auto& frame : r.at("label_shots")) {
                    labels += checkLabelFrame(frame, path + " stop " + std::to_string(k) + " (" +
                                                         r.value("title", std::string()) + "), screenshot " +
                                                         std::to_string(++shot));
                    ++frames;
                }
            }
        } else {
            labels += checkLabelFrame(readJson(path).at("labels"), path);
            ++frames;
        }
        if (labels < minLabels)
            fail(path + ": " + std::to_string(labels) + " labels, expected at least " + std::to_string(minLabels));
        std::printf("%s: %zu labels in %zu screens\n", path.c_str(), labels, frames);
    }
    return failures ? 1 : 0;
}

// A strip's columns: for each, its lowest and highest value row with keys (-1: none).
struct StripColumns {
    size_t columns = 0, rows = 0;
    std::vector<std::vector<double>> p; // each column's histogram, normalised to 1
    std::vector<long> lo, hi;
};
StripColumns readStrip(const std::string& path) {
    const json state = readJson(path);
    if (!state.contains("strip")) throw std::runtime_error(path + ": no strip (n > 4096 has one)");
    const json& s = state["strip"];
    StripColumns c;
    c.columns = s.at("columns");
    c.rows = s.at("rows");
    const auto counts = s.at("counts").get<std::vector<uint64_t>>();
    if (counts.size() != c.columns * c.rows) throw std::runtime_error(path + ": strip counts of the wrong size");
    for (size_t col = 0; col < c.columns; ++col) {
        std::vector<double> p(c.rows);
        double sum = 0;
        long lo = -1, hi = -1;
        for (size_t r = 0; r < c.rows; ++r) {
            const uint64_t k = counts[col * c.rows + r];
            p[r] = double(k);
            sum += double(k);
            if (k && lo < 0) lo = long(r);
            if (k) hi = long(r);
        }
        for (double& x : p) x /= std::max(1.0, sum);
        c.p.push_back(std::move(p));
        c.lo.push_back(lo);
        c.hi.push_back(hi);
    }
    return c;
}
// The first column with keys below the highest row of the column before it (0: none, monotone).
size_t firstFall(const StripColumns& c) {
    for (size_t col = 1; col < c.columns; ++col)
        if (c.lo[col] >= 0 && c.hi[col - 1] >= 0 && c.lo[col] < c.hi[col - 1]) return col;
    return 0;
}

int checkStrip(const std::string& partPath, const std::string& sortedPath, double minL1) {
    const StripColumns part = readStrip(partPath), sorted = readStrip(sortedPath);
    if (part.columns != sorted.columns || part.rows != sorted.rows)
        throw std::runtime_error("the two strips have different shapes");
    if (const size_t col = firstFall(sorted))
        fail(sortedPath + ": the sorted strip is not monotone: column " + std::to_string(col) + " has keys in row " +
             std::to_string(sorted.lo[col]) + ", below row " + std::to_string(sorted.hi[col - 1]) +
             " of the column before");
    const size_t fall = firstFall(part);
    if (!fall) fail(partPath + ": the strip part-way is one rising line, as if sorted");
    if (readJson(partPath)["strip"].value("sorted_bits", 0) == 0)
        fail(partPath + ": the strip part-way does not say which low bits are sorted");
    double l1 = 0;
    for (size_t col = 0; col < part.columns; ++col)
        for (size_t r = 0; r < part.rows; ++r) l1 += std::abs(part.p[col][r] - sorted.p[col][r]);
    l1 /= double(part.columns);
    if (l1 < minL1)
        fail("the strips part-way and sorted differ by L1 " + std::to_string(l1) + ", expected at least " +
             std::to_string(minL1));
    std::printf("strips: L1 distance %.3f between part-way and sorted; part-way falls first at column %zu\n", l1, fall);
    return failures ? 1 : 0;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(
            stderr,
            "usage: app_check png FILE [--width W --height H] | state STATE TRACE --algo A [--step K] [--check-ok]\n");
        return 2;
    }
    const std::string mode = argv[1];
    try {
        if (mode == "png")
            return checkPng(argv[2], std::atoi(arg(argc, argv, "--width", "0").c_str()),
                            std::atoi(arg(argc, argv, "--height", "0").c_str()), arg(argc, argv, "--theme"));
        if (mode == "replay" && argc >= 5) return checkReplay(argv[2], argv[3], argv[4]);
        if (mode == "lesson")
            return checkLesson(argv[2], std::stoul(arg(argc, argv, "--min-stops", "1")),
                               arg(argc, argv, "--answers", "right"), flag(argc, argv, "--visible"));
        if (mode == "move") return checkMove(argv[2]);
        if (mode == "lesson-held") return checkLessonHeld(argv[2]);
        if (mode == "labels") {
            std::vector<std::string> files;
            for (int i = 2; i < argc && std::string(argv[i]).rfind("--", 0) != 0; ++i) files.push_back(argv[i]);
            return checkLabels(files, std::stoul(arg(argc, argv, "--min-labels", "1")), flag(argc, argv, "--moving"),
                               flag(argc, argv, "--part-way"));
        }
        if (mode == "strip" && argc >= 4)
            return checkStrip(argv[2], argv[3], std::stod(arg(argc, argv, "--min-l1", "0.5")));
        if (mode == "pinned" && argc >= 4) return checkPinned(argv[2], std::stoull(argv[3]));
        if (mode == "lessons-agree") return checkLessonsAgree(std::vector<std::string>(argv + 2, argv + argc));
        if (mode == "feedback") {
            for (const std::string& f : feedbackFailures(argv[2], std::stoull(arg(argc, argv, "--tile", "4")),
                                                         commaList(arg(argc, argv, "--expect"))))
                fail(f);
            if (!failures) std::printf("%s: every wrong answer's feedback names its mistake\n", argv[2]);
            return failures ? 1 : 0;
        }
        if (mode == "loaded")
            return checkLoaded(argv[2], arg(argc, argv, "--device"), commaList(arg(argc, argv, "--algos")),
                               std::atoi(arg(argc, argv, "--lines", "-1").c_str()),
                               std::stoul(arg(argc, argv, "--min-points", "2")), arg(argc, argv, "--error"));
        if (mode == "state" && argc >= 4)
            return checkState(argv[2], argv[3], arg(argc, argv, "--algo", "oddeven-layer"),
                              std::atoi(arg(argc, argv, "--step", "-1").c_str()), flag(argc, argv, "--check-ok"),
                              arg(argc, argv, "--keys-error"));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "app_check: %s\n", e.what());
        return 1;
    }
    std::fprintf(stderr, "app_check: unknown mode %s\n", mode.c_str());
    return 2;
}
