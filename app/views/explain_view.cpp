// The explanation panel: what the current step does in plain words, the pseudocode of the sort
// with the line this step runs highlighted, and counters (steps, layers, comparators, swaps,
// bytes moved).
#include "views.h"

#include "common.h"

#include <cstdio>

namespace sortlab::app {
namespace {

struct Pseudo {
    const char* text;
    int indent;
};

// Odd-even merge sort, iterative form (seed 000).
const Pseudo kOddEven[] = {
    {"for p = 1, 2, 4, ... while p < n:", 0},   {"for k = p, p/2, ..., 1:", 1},         {"for every a in parallel:", 2},
    {"if a is a left end in its 2p block:", 3}, {"if key[a] > key[a+k]: swap them", 4},
};
// LSD radix sort with 4-bit digits (seed 001).
const Pseudo kRadix[] = {
    {"for each digit, lowest first:", 0},      {"count: per workgroup, keys per digit", 1},
    {"scan: histogram, exclusive offsets", 1}, {"scatter: key -> its digit's next slot", 1},
    {"result: keys sorted (stable)", 0},
};

// OneSweep with 8-bit digits (seed 002).
const Pseudo kOneSweep[] = {
    {"histogram: all digits of all passes, one read", 0},
    {"scan: exclusive offsets per pass", 0},
    {"for each digit pass (one tile per workgroup):", 0},
    {"tile id from an atomic counter; count digits", 1},
    {"look back: predecessors' aggregate/inclusive", 1},
    {"(spun too long: fall back, recount it)", 2},
    {"scatter through shared memory", 1},
};

void pseudocode(const Pseudo* lines, int count, int highlight, const ViewContext& c) {
    ImGui::PushFont(c.ui.presentation ? c.fonts.monoLarge : c.fonts.mono);
    const float indent = ImGui::CalcTextSize("  ").x;
    for (int i = 0; i < count; ++i) {
        ImVec2 p = ImGui::GetCursorScreenPos();
        const float h = ImGui::GetTextLineHeightWithSpacing();
        if (i == highlight)
            ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + ImGui::GetContentRegionAvail().x, p.y + h),
                                                      IM_COL32(110, 90, 20, 200), 3.0f);
        ImGui::SetCursorScreenPos(ImVec2(p.x + indent * float(lines[i].indent), p.y));
        ImGui::TextUnformatted(lines[i].text);
    }
    ImGui::PopFont();
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
    if (s->kind == "layer") {
        const uint32_t p = 1u << s->logP, k = 1u << s->logKHi;
        std::snprintf(buf, sizeof buf,
                      "One layer: runs of %u keys are merged into runs of %u. Every comparator links keys %u apart "
                      "(stride k = %u) and swaps them when the left key comes after the right one. All comparators "
                      "of a layer are independent, so the GPU runs them at once, one thread each.",
                      p, 2 * p, k, k);
    } else if (s->kind == "tile") {
        std::snprintf(buf, sizeof buf,
                      "The tile step: %u layers at once. Every merge whose blocks fit in one tile (runs up to %u "
                      "keys) runs in registers inside one subgroup, with shuffles between lanes, so the keys are "
                      "read and written once.",
                      s->layerCount, 1u << s->logP);
    } else if (s->kind == "window") {
        std::snprintf(buf, sizeof buf,
                      "A window step: %u layers of the merge into runs of %u (strides %u down to %u) fused: "
                      "each subgroup loads a window of keys, runs those layers in registers and writes back.",
                      s->layerCount, 2u << s->logP, 1u << s->logKHi, 1u << s->logKLo);
    } else {
        std::snprintf(buf, sizeof buf, "%s", s->label.c_str());
    }
    return buf;
}

std::string radixWords(const Step* s) {
    if (!s) return "The input, as uploaded to the GPU.";
    char buf[512];
    if (s->kind == "count")
        std::snprintf(buf, sizeof buf,
                      "Pass %u, bits %u..%u: each of %llu workgroups counts how many of its keys have each digit.",
                      s->pass, s->bitLo, s->bitHi - 1, (unsigned long long)s->workgroups);
    else if (s->kind == "scan")
        std::snprintf(buf, sizeof buf,
                      "Pass %u: the per-workgroup counts are summed into the digit histogram, and its exclusive "
                      "scan gives where each digit's keys start in the output.",
                      s->pass);
    else if (s->kind == "scatter")
        std::snprintf(buf, sizeof buf,
                      "Pass %u: every key moves to offsets[digit] + its workgroup's offset + its rank among the "
                      "workgroup's keys with that digit. Equal digits keep their order (stable).",
                      s->pass);
    else if (s->kind == "histogram")
        std::snprintf(buf, sizeof buf,
                      "OneSweep reads every key once and counts all its digits at the same time: one 256-bin "
                      "histogram per pass.");
    else if (s->kind == "pass")
        std::snprintf(buf, sizeof buf,
                      "Pass %u, bits %u..%u: each workgroup takes the next tile id, counts its tile's digits and "
                      "publishes them; it looks back at its predecessors' published counts (aggregate, or inclusive "
                      "prefix) to learn where its keys go, and falls back to counting a missing predecessor's tile "
                      "itself if it waited too long. Then it scatters its keys through shared memory.",
                      s->pass, s->bitLo, s->bitHi - 1);
    else
        std::snprintf(buf, sizeof buf, "%s", s->label.c_str());
    return buf;
}

} // namespace

void drawExplainView(const ViewContext& c, bool* open) {
    if (!ImGui::Begin(windowTitle("Explanation", c.ui.presentation), open)) {
        ImGui::End();
        return;
    }
    const auto& v = c.v;
    if (!v.data || !v.job.plan) {
        ImGui::TextDisabled("waiting for the GPU...");
        ImGui::End();
        return;
    }
    const StepData& d = *v.data;
    const Plan& plan = *v.job.plan;
    const Step* step = currentStep(v);
    const bool oddeven = algorithmOf(v.job.settings.algo) == Algorithm::oddeven;
    ImGui::Text("Step %zu of %zu", d.step, plan.steps.size());
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.4f, 1.0f), "%s", d.snapshot ? d.snapshot->label.c_str() : "");
    ImGui::Separator();
    ImGui::TextWrapped("%s", oddeven ? oddevenWords(step, v.job.settings.n).c_str() : radixWords(step).c_str());
    ImGui::Spacing();

    int line = -1;
    if (oddeven) {
        if (step && step->kind == "layer")
            line = 4;
        else if (step && step->kind == "tile")
            line = 0;
        else if (step)
            line = 1;
        pseudocode(kOddEven, 5, line, c);
    } else if (algorithmOf(v.job.settings.algo) == Algorithm::onesweep) {
        if (step && step->kind == "histogram")
            line = 0;
        else if (step && step->kind == "scan")
            line = 1;
        else if (step)
            line = 4;
        pseudocode(kOneSweep, 7, line, c);
    } else {
        if (step && step->kind == "count")
            line = 1;
        else if (step && step->kind == "scan")
            line = 2;
        else if (step && step->kind == "scatter")
            line = 3;
        else if (step)
            line = 4;
        pseudocode(kRadix, 5, line, c);
    }
    ImGui::Spacing();
    ImGui::Separator();
    if (ImGui::BeginTable("counters", 2, ImGuiTableFlags_SizingStretchProp)) {
        auto row = [](const char* k, const std::string& val) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(k);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(val.c_str());
        };
        row("steps done", std::to_string(d.step) + " / " + std::to_string(plan.steps.size()));
        if (oddeven) {
            row("network layers done",
                std::to_string(d.layersDone) + " / " + std::to_string(networkLayers(v.job).size()));
            row("comparators executed", std::to_string(d.comparatorsDone));
            row("swaps so far",
                d.swapsKnown ? std::to_string(d.referenceSwaps) + " (CPU model)" : "(n > 2^16: not counted)");
        } else if (step) {
            if (step->bitHi > step->bitLo)
                row("pass", std::to_string(step->pass) + ", bits " + std::to_string(step->bitLo) + ".." +
                                std::to_string(step->bitHi - 1));
            row("workgroups", std::to_string(step->workgroups));
        }
        row("bytes moved (whole plan, floor)", bytesText(double(plan.bytesMovedFloor)));
        char ms[64];
        std::snprintf(ms, sizeof ms, "%.2f ms", d.stepMs);
        row("GPU work + readback for this view", ms);
        row("snapshots stored", std::to_string(v.storedSnapshots) + " (" + bytesText(double(v.storedBytes)) + ")");
        ImGui::EndTable();
    }
    ImGui::End();
}

void drawCheckView(const ViewContext& c, bool* open) {
    if (!ImGui::Begin(windowTitle("Check", c.ui.presentation), open)) {
        ImGui::End();
        return;
    }
    const auto& v = c.v;
    if (!c.ui.check) {
        ImGui::TextWrapped("Check mode is off. Turn it on (C, or the checkbox in Controls) to compute every step on "
                           "the CPU too and compare it with what the GPU wrote.");
    } else if (!v.data) {
        ImGui::TextDisabled("waiting for the GPU...");
    } else {
        const StepCheck& k = v.data->check;
        ImGui::TextWrapped("Reference: %s", k.method.c_str());
        if (!k.available) {
            ImGui::TextDisabled("no reference for this step");
        } else if (k.ok) {
            ImGui::TextColored(ImVec4(0.4f, 0.9f, 0.4f, 1), "GPU = CPU reference: all %llu keys match",
                               (unsigned long long)v.job.settings.n);
        } else {
            ImGui::TextColored(ImVec4(1, 0.35f, 0.35f, 1), "%llu keys differ from the CPU reference",
                               (unsigned long long)k.mismatches);
            const Snapshot& s = *v.data->snapshot;
            if (ImGui::BeginTable("diffs", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY)) {
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
