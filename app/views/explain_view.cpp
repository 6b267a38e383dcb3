// The explanation panel: what the current step does in plain words, the pseudocode of the sort
// with the line this step runs highlighted, and counters (steps, layers, comparators, swaps,
// bytes moved).
#include <sortlab/app/views.h>

#include <sortlab/app/view_common.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

namespace sortlab::app {
namespace {

struct Pseudo {
    const char* text;
    int indent;
};

// Odd-even merge sort, iterative form (docs/oddeven.md).
const Pseudo kOddEven[] = {
    {"for p = 1, 2, 4, ... while p < n:", 0},   {"for k = p, p/2, ..., 1:", 1},         {"for every a in parallel:", 2},
    {"if a is a left end in its 2p block:", 3}, {"if key[a] > key[a+k]: swap them", 4},
};
// LSD radix sort with 4-bit digits (docs/radix4.md).
const Pseudo kRadix[] = {
    {"for each digit, lowest first:", 0},      {"count: per workgroup, keys per digit", 1},
    {"scan: histogram, exclusive offsets", 1}, {"scatter: key -> its digit's next slot", 1},
    {"result: keys sorted (stable)", 0},
};

// OneSweep with 8-bit digits (docs/onesweep.md; sort/src/onesweep.cpp, shaders/onesweep_pass.comp). A
// pass publishes its tile's counts first, ranks and stages its keys, then looks back, then writes
// its staged keys out.
// One pseudocode line per source line:
// clang-format off
const Pseudo kOneSweep[] = {
    {"histogram: every digit of every pass, one read", 0},
    {"scan: exclusive offsets of each pass's digits", 0},
    {"for each digit pass (one workgroup per tile):", 0},
    {"one digit holds every key: skip the pass", 1},
    {"t = atomic counter++; count tile t's digits", 1},
    {"status[t][d] = tile 0 ? inclusive : aggregate", 1},
    {"rank keys by digit; stage them in shared memory", 1},
    {"  (a tile of one digit: staged in order, unranked)", 1},
    {"look back per digit d, s = t-1, t-2, ...:", 1},
    {"aggregate: add its count, go on", 2},
    {"inclusive prefix: add its count, stop", 2},
    {"not ready 64 reads: count tile s's keys (fallback)", 2},
    {"status[t][d] = inclusive: sum + own count", 1},
    {"write out: offsets[d] + sum + place, coalesced", 1},
    {"result: copy back if an odd number of passes ran", 0},
};
// clang-format on
constexpr int kOneSweepLines = int(sizeof kOneSweep / sizeof kOneSweep[0]);

// Lines [highlight, highlightLast] are highlighted (highlightLast < 0: just highlight). Where the
// widest line does not fit the panel, the font shrinks (to 80% at most); a line still too wide wraps
// at spaces, its continuation indented one step further: never cut.
void pseudocode(const Pseudo* lines, int count, int highlight, const ViewContext& c, int highlightLast = -1) {
    if (highlightLast < highlight) highlightLast = highlight;
    ImGui::PushFont(c.ui.presentation ? c.fonts.monoLarge : c.fonts.mono);
    { // shrink first (to 80% at most) so that the widest line fits; what still does not, wraps
        const float spaces = ImGui::CalcTextSize("  ").x;
        float widest = 1;
        for (int i = 0; i < count; ++i)
            widest = std::max(widest, spaces * float(lines[i].indent) + ImGui::CalcTextSize(lines[i].text).x);
        ImGui::SetWindowFontScale(std::clamp(ImGui::GetContentRegionAvail().x / widest, 0.8f, 1.0f));
    }
    const float indent = ImGui::CalcTextSize("  ").x;
    for (int i = 0; i < count; ++i) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float avail = ImGui::GetContentRegionAvail().x, h = ImGui::GetTextLineHeightWithSpacing();
        const float x0 = indent * float(lines[i].indent);
        const float minW = indent * 4;
        std::vector<std::string> rows = wrapAtSpaces(lines[i].text, std::max(avail - x0, minW));
        if (rows.size() > 1) { // the continuation, one indent further in
            std::string rest = rows[1];
            for (size_t r = 2; r < rows.size(); ++r) rest += " " + rows[r];
            std::vector<std::string> more = wrapAtSpaces(rest, std::max(avail - x0 - indent, minW));
            rows.resize(1);
            rows.insert(rows.end(), more.begin(), more.end());
        }
        if (highlight >= 0 && i >= highlight && i <= highlightLast)
            ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + avail, p.y + h * float(rows.size())),
                                                      palette().codeHighlight, 3.0f);
        for (size_t r = 0; r < rows.size(); ++r) {
            const ImVec2 at(p.x + x0 + (r ? indent : 0.0f), p.y + h * float(r));
            ImGui::SetCursorScreenPos(at);
            ImGui::TextUnformatted(rows[r].c_str());
        }
    }
    ImGui::SetWindowFontScale(1.0f);
    ImGui::PopFont();
}

// Where the first sentence of a text ends (its ". " before a capital letter), or its size.
size_t firstSentenceEnd(const std::string& t) {
    for (size_t i = 0; i + 2 < t.size(); ++i)
        if (t[i] == '.' && t[i + 1] == ' ' && std::isupper(static_cast<unsigned char>(t[i + 2]))) return i + 1;
    return t.size();
}

std::string oddevenWords(const Step* s, uint64_t n) {
    char buf[512];
    if (!s) {
        std::snprintf(buf, sizeof buf,
                      "The input: %llu keys as uploaded to the GPU. Batcher's network sorts them in layers; "
                      "indices at or past n act as +infinity, so no padding is stored.",
                      (unsigned long long)n);
        return buf;
    }
    if (s->kind == StepKind::layer) {
        const uint32_t p = 1u << s->logP, k = 1u << s->logKHi;
        std::snprintf(buf, sizeof buf,
                      "One layer: runs of %u keys are merged into runs of %u. Every comparator links keys %u apart "
                      "(stride k = %u) and swaps them when the left key comes after the right one. All comparators "
                      "of a layer are independent, so the GPU runs them at once, one thread each.",
                      p, 2 * p, k, k);
    } else if (s->kind == StepKind::tile) {
        std::snprintf(buf, sizeof buf,
                      "The tile step: %u layers at once. Every merge whose blocks fit in one tile (runs up to %u "
                      "keys) runs in registers inside one subgroup, with shuffles between lanes, so the keys are "
                      "read and written once.",
                      s->layerCount, 1u << s->logP);
    } else if (s->kind == StepKind::window) {
        std::snprintf(buf, sizeof buf,
                      "A window step: %u layers of the merge into runs of %u (strides %u down to %u) fused: "
                      "each subgroup loads a window of keys, runs those layers in registers and writes back.",
                      s->layerCount, 2u << s->logP, 1u << s->logKHi, 1u << s->logKLo);
    } else {
        std::snprintf(buf, sizeof buf, "%s", s->label.c_str());
    }
    return buf;
}

// What a OneSweep pass's snapshot says about its lookback (the aux entries of a "pass" step).
// `tiles` is the pass's tile count (Step::workgroups); the "tile status" snapshot holds only the
// pass's last portion (all of it below 2^29 keys), `statusTiles` rows, and the flags count those.
struct OneSweepPass {
    uint64_t tiles = 0, statusTiles = 0, tileKeys = 0;
    uint32_t fallbacks = 0, uniformTiles = 0;
    bool haveFallbacks = false, forced = false, haveUniform = false;
    bool skipped = false; // every key had the same digit: no tile ran (the statuses are an older pass's)
    size_t flags[3] = {0, 0, 0};
};

OneSweepPass oneSweepPass(const SortWorker::View& v, const Step* step) {
    OneSweepPass p;
    p.forced = v.job.settings.knobs.forceFallback;
    if (v.job.plan) p.tileKeys = v.job.plan->tileKeys;
    if (step) p.tiles = step->workgroups;
    if (!v.data || !v.data->snapshot) return p;
    const Snapshot& s = *v.data->snapshot;
    if (const Snapshot::Aux* st = s.find(AuxKind::tileStatus); st && !st->shape.empty()) {
        p.statusTiles = st->shape[0];
        for (uint32_t f : st->data)
            if (f < 3) p.flags[f]++;
    }
    if (const Snapshot::Aux* f = s.find(AuxKind::fallbacks); f && !f->data.empty()) {
        p.haveFallbacks = true;
        p.fallbacks = f->data[0];
    }
    if (const Snapshot::Aux* u = s.find(AuxKind::uniformTiles); u && !u->data.empty()) {
        p.haveUniform = true;
        p.uniformTiles = u->data[0];
    }
    p.skipped = s.passSkipped();
    return p;
}

// A OneSweep pass that ran: what every workgroup does, then what the pass left in the status words.
std::string oneSweepPassWords(const Step* s, const SortWorker::View& v, const OneSweepPass& p) {
    char buf[1536]; // about 850 characters of text and 250 of counts
    const int used = std::snprintf(
        buf, sizeof buf,
        "Pass %u, bits %u..%u, %llu tile%s of up to %llu keys: each workgroup %s, counts how many of its "
        "tile's keys have each digit d and publishes those counts right away in status[t][d] as an aggregate (tile 0: "
        "as an inclusive "
        "prefix). It ranks its keys by digit and stages them in shared memory in digit order%s; a tile whose "
        "keys all have one digit skips the ranking and stages them in their order. Then, per "
        "digit, it walks back over tiles t-1, t-2, ...: it adds an aggregate and goes on, adds an inclusive "
        "prefix and stops; a tile still not ready after 64 reads in a row it counts itself from that tile's keys "
        "(a fallback). It publishes its own inclusive prefix (the sum plus its count) and writes its staged "
        "keys to offsets[d] + sum + place, consecutive invocations to consecutive addresses. ",
        s->pass, s->bitLo, s->bitHi - 1, (unsigned long long)p.tiles, p.tiles == 1 ? "" : "s",
        (unsigned long long)p.tileKeys,
        s->tilesByIndex ? "uses its workgroup index as its tile number t"
                        : "takes the next tile number t from a shared atomic counter",
        keyBytes(v.job.settings.key) == 8
            ? " (a 64-bit key half at a time: the 32-bit word that holds the digit, then the other word in "
              "the same place, so that a tile takes 4 bytes of shared memory a key)"
            : "");
    if (used > 0 && size_t(used) < sizeof buf && p.statusTiles) {
        std::string rest = "After the pass";
        if (p.statusTiles != p.tiles) rest += " (its last portion: " + std::to_string(p.statusTiles) + " tiles)";
        rest += ": " + std::to_string(p.flags[2]) + " inclusive, " + std::to_string(p.flags[1]) + " aggregate, " +
                std::to_string(p.flags[0]) + " not ready status words";
        if (p.haveFallbacks)
            rest += "; " + std::to_string(p.fallbacks) + " of " + std::to_string(p.tiles) +
                    (p.tiles == 1 ? " tile" : " tiles") + " fell back" +
                    (p.forced ? " (forced: each tile but the first of each portion counts tile t-1 itself)" : "");
        if (p.haveUniform) rest += "; " + std::to_string(p.uniformTiles) + " had keys of one digit only";
        rest += ".";
        std::snprintf(buf + used, sizeof buf - size_t(used), "%s", rest.c_str());
    }
    return buf;
}

// `pass`: oneSweepPass of s when s is a OneSweep pass (read once a frame by the caller).
std::string radixWords(const Step* s, const SortWorker::View& v, const OneSweepPass& pass) {
    if (!s) return "The input, as uploaded to the GPU.";
    char buf[1536]; // the longest of these: some 400 characters
    if (s->kind == StepKind::count)
        std::snprintf(buf, sizeof buf,
                      "Pass %u, bits %u..%u: each of %llu workgroups counts how many of its keys have each digit.",
                      s->pass, s->bitLo, s->bitHi - 1, (unsigned long long)s->workgroups);
    else if (s->kind == StepKind::scan && v.job.settings.algorithm() != Algorithm::onesweep)
        std::snprintf(buf, sizeof buf,
                      "Pass %u: the per-workgroup counts are summed into the digit histogram, and its exclusive "
                      "scan gives where each digit's keys start in the output.",
                      s->pass);
    else if (s->kind == StepKind::scatter && v.data && v.data->snapshot && v.data->snapshot->passSkipped())
        std::snprintf(buf, sizeof buf,
                      "Pass %u: skipped. Every key has the same digit here (the histogram has one bar), so a stable "
                      "scatter would leave every key where it is: the GPU ran no scatter, and no key moved.",
                      s->pass);
    else if (s->kind == StepKind::scatter)
        std::snprintf(buf, sizeof buf,
                      "Pass %u: every key moves to offsets[digit] + its workgroup's offset + its rank among the "
                      "workgroup's keys with that digit. Equal digits keep their order (stable).",
                      s->pass);
    else if (s->kind == StepKind::histogram && v.job.settings.algorithm() == Algorithm::onesweep)
        std::snprintf(buf, sizeof buf,
                      "OneSweep reads every key once and counts all its 8-bit digits at the same time: one "
                      "256-bin histogram per pass (\"all histograms\", one row per pass). The keys have not moved.");
    else if (s->kind == StepKind::scan && v.job.settings.algorithm() == Algorithm::onesweep)
        std::snprintf(buf, sizeof buf,
                      "Every pass's histogram is scanned: offsets[d] is where the keys with digit d start in that "
                      "pass's output (\"all offsets\", one row per pass). A pass whose histogram has one bar "
                      "holding every key would move nothing: it will be skipped, and the pass after it reads the "
                      "keys where they are. The keys have not moved.");
    else if (s->kind == StepKind::result)
        std::snprintf(buf, sizeof buf,
                      "Each pass that runs moves the keys to the other buffer. When an odd number of passes ran "
                      "(the others were skipped), the sorted keys are in the temporary buffer, and this step "
                      "copies them back; otherwise nothing moves.");
    else if (s->kind == StepKind::pass && pass.skipped)
        std::snprintf(buf, sizeof buf,
                      "Pass %u, bits %u..%u: skipped. Every key has the same digit here (the histogram has one bar), "
                      "so a stable pass would leave every key where it is: no tile was sorted, no key moved, and the "
                      "next pass reads the keys from the same buffer. (The tile statuses in the buffer are the last "
                      "pass's that ran, so they are not shown.)",
                      s->pass, s->bitLo, s->bitHi - 1);
    else if (s->kind == StepKind::pass)
        return oneSweepPassWords(s, v, pass);
    else
        std::snprintf(buf, sizeof buf, "%s", s->label.c_str());
    return buf;
}

} // namespace

namespace {

// The pseudocode line a step runs: the one listed for its kind, else `otherwise`; none (-1) before
// the first step.
int lineOf(const Step* step, std::initializer_list<std::pair<StepKind, int>> lines, int otherwise) {
    if (!step) return -1;
    for (const auto& [kind, line] : lines)
        if (step->kind == kind) return line;
    return otherwise;
}

// The sort's pseudocode with the lines the current step runs highlighted.
void drawPseudocode(const ViewContext& c, const Step* step, const OneSweepPass& pass) {
    const Algorithm algorithm = c.v.job.settings.algorithm();
    if (algorithm == Algorithm::oddeven) {
        pseudocode(kOddEven, 5, lineOf(step, {{StepKind::layer, 4}, {StepKind::tile, 0}}, 1), c);
    } else if (algorithm == Algorithm::onesweep) {
        // A pass that runs, every line from taking a tile id to the write-out (with forced fallback
        // the fallback line is what every tile but the first of each portion does for tile t-1); a
        // skipped pass, the loop's head and the skip.
        int line =
            lineOf(step, {{StepKind::histogram, 0}, {StepKind::scan, 1}, {StepKind::result, kOneSweepLines - 1}}, -1);
        int last = -1;
        if (step && step->kind == StepKind::pass) {
            line = pass.skipped ? 2 : 4;
            last = pass.skipped ? 3 : kOneSweepLines - 2;
        }
        if (step && step->tilesByIndex) { // (NVIDIA GPUs, u32 keys: sort/src/onesweep.cpp)
            Pseudo lines[kOneSweepLines];
            std::copy(std::begin(kOneSweep), std::end(kOneSweep), lines);
            lines[4].text = "t = workgroup index; count tile t's digits";
            pseudocode(lines, kOneSweepLines, line, c, last);
        } else {
            pseudocode(kOneSweep, kOneSweepLines, line, c, last);
        }
    } else {
        pseudocode(kRadix, 5, lineOf(step, {{StepKind::count, 1}, {StepKind::scan, 2}, {StepKind::scatter, 3}}, 4), c);
    }
}

// The counters: steps; the network's layers, comparators and swaps, or the radix pass, its tiles or
// workgroups; and, but in front of a class, the bytes moved, the step's time and the snapshots.
void drawCounters(const ViewContext& c, const Step* step, const OneSweepPass& pass, bool classView) {
    if (!ImGui::BeginTable("counters", 2, ImGuiTableFlags_SizingStretchProp)) return;
    const auto& v = c.v;
    const StepData& d = *v.data;
    const Plan& plan = *v.job.plan;
    auto row = [](const char* k, const std::string& val) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(k);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(val.c_str());
    };
    row("steps done", std::to_string(d.step) + " / " + std::to_string(plan.steps.size()));
    if (v.job.settings.algorithm() == Algorithm::oddeven) {
        row("network layers done", std::to_string(d.layersDone) + " / " + std::to_string(networkLayers(v.job).size()));
        row("comparators executed", std::to_string(d.comparatorsDone));
        row("swaps so far",
            d.swapsKnown ? std::to_string(d.referenceSwaps) + " (CPU model)" : "(n > 2^16: not counted)");
    } else if (step) {
        if (step->bitHi > step->bitLo)
            row("pass", std::to_string(step->pass) + ", bits " + std::to_string(step->bitLo) + ".." +
                            std::to_string(step->bitHi - 1));
        if (step->kind == StepKind::pass) {
            const OneSweepPass& p = pass;
            row("tiles (one workgroup each)",
                std::to_string(step->workgroups) + " of " + std::to_string(p.tileKeys) + " keys");
            if (p.skipped) row("skipped", "yes (one digit in every key)");
            if (p.haveFallbacks && !p.skipped)
                row("tiles that fell back", std::to_string(p.fallbacks) + (p.forced ? " (forced)" : ""));
            if (p.haveUniform && !p.skipped) row("tiles of one digit (not ranked)", std::to_string(p.uniformTiles));
        } else {
            row(step->kind == StepKind::scan && step->workgroups == 16 ? "workgroups (one per digit)" : "workgroups",
                std::to_string(step->workgroups));
        }
    }
    if (!classView) { // for GPU programmers
        row("bytes moved (whole plan, floor)", bytesText(double(plan.bytesMovedFloor)));
        char ms[64];
        std::snprintf(ms, sizeof ms, "%.2f ms", d.stepMs);
        if (v.job.recording) // the step comes from the file: nothing ran
            row("this view", "replayed from a recording (no GPU work)");
        else
            row(c.cpuDriver ? "work + readback for this view (CPU emulation, not a GPU)"
                            : "GPU work + readback for this view",
                ms);
        row("snapshots stored", std::to_string(v.storedSnapshots) + " (" + bytesText(double(v.storedBytes)) + ")");
    }
    ImGui::EndTable();
}

} // namespace

void drawExplainView(const ViewContext& c, bool* open) {
    if (!beginView("Explanation", c.ui.presentation, open)) return;
    const auto& v = c.v;
    if (!v.data || !v.job.plan) {
        ImGui::TextDisabled("waiting for the GPU...");
        ImGui::End();
        return;
    }
    const StepData& d = *v.data;
    const Step* step = currentStep(v);
    const bool oddeven = v.job.settings.algorithm() == Algorithm::oddeven;
    // A OneSweep pass's summary (its status flags counted: tiles x 256 words), once a frame.
    const OneSweepPass pass = step && step->kind == StepKind::pass ? oneSweepPass(v, step) : OneSweepPass{};
    // In front of a class (presentation mode, a lesson): the first sentence of the step's words, the
    // rest on demand, and no developer's counters.
    const bool classView = c.ui.presentation || c.ui.lesson.lesson;
    ImGui::Text("Step %zu of %zu", d.step, v.job.plan->steps.size());
    ImGui::TextColored(vec4(palette().accent), "%s",
                       d.snapshot ? (classView ? classLabel(d.snapshot->label) : d.snapshot->label).c_str() : "");
    ImGui::Separator();
    const std::string words = oddeven ? oddevenWords(step, v.job.settings.n) : radixWords(step, v, pass);
    const size_t cut = classView ? firstSentenceEnd(words) : words.size();
    textWrappedAtSpaces(words.substr(0, cut));
    if (cut < words.size() && ImGui::CollapsingHeader("More about this step"))
        textWrappedAtSpaces(words.substr(cut + 1));
    ImGui::Spacing();
    drawPseudocode(c, step, pass);
    ImGui::Spacing();
    ImGui::Separator();
    drawCounters(c, step, pass, classView);
    ImGui::End();
}

void drawCheckView(const ViewContext& c, bool* open) {
    if (!beginView("Check", c.ui.presentation, open)) return;
    const auto& v = c.v;
    if (!c.ui.check) {
        wrappedf("Check mode is off. Turn it on (C, or the checkbox in Controls) to compute every step on "
                 "the CPU too and compare it with what the GPU wrote.");
    } else if (!v.data) {
        ImGui::TextDisabled("waiting for the GPU...");
    } else {
        const StepCheck& k = v.data->check;
        wrappedf("Reference: %s", k.method.c_str());
        if (!k.available) {
            ImGui::TextDisabled("no reference for this step");
        } else if (k.ok) {
            ImGui::TextColored(vec4(palette().match), "GPU = CPU reference: all %llu keys match",
                               (unsigned long long)v.job.settings.n);
            if (!k.auxChecked.empty())
                ImGui::TextColored(vec4(palette().match), "and the %zu buffers named above match", k.auxChecked.size());
        } else {
            const uint64_t keyDiffs = k.mismatches - k.auxDiffs.size();
            if (keyDiffs)
                ImGui::TextColored(vec4(palette().mismatch), "%llu keys differ from the CPU reference",
                                   (unsigned long long)keyDiffs);
            for (const std::string& why : k.auxDiffs) ImGui::TextColored(vec4(palette().mismatch), "%s", why.c_str());
            const Snapshot& s = *v.data->snapshot;
            if (keyDiffs && ImGui::BeginTable("diffs", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY)) {
                ImGui::TableSetupColumn("index");
                ImGui::TableSetupColumn("GPU");
                ImGui::TableSetupColumn("expected");
                ImGui::TableHeadersRow();
                for (uint64_t i : k.firstDiffs) {
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    ImGui::Text("%llu", (unsigned long long)i);
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(keyText(s, i, v.job.settings.key).c_str());
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(
                        k.expectedKeys.empty() ? "-" : formatKey(k.expectedKeys, i, v.job.settings.key).c_str());
                }
                ImGui::EndTable();
            }
        }
    }
    ImGui::End();
}

} // namespace sortlab::app
