// The array view: the keys of the current snapshot (read back from the GPU) as bars. Small n: one
// bar per key, keys the step changed outlined, keys that differ from the CPU reference in red.
// Large n: a downsampled strip computed by the worker from the snapshot (per bucket of keys:
// min..max range and mean), so an idle frame costs one rectangle per pixel column at most.
#include "views.h"

#include "common.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace sortlab::app {

void drawArrayView(const ViewContext& c, bool* open) {
    if (!ImGui::Begin(windowTitle("Array", c.ui.presentation), open)) {
        ImGui::End();
        return;
    }
    const auto& v = c.v;
    if (!v.data || !v.data->snapshot) {
        ImGui::TextDisabled(v.error.empty() ? "waiting for the GPU..." : v.error.c_str());
        ImGui::End();
        return;
    }
    const StepData& d = *v.data;
    const Snapshot& s = *d.snapshot;
    const JobInfo& job = v.job;
    const uint64_t n = job.settings.n;
    ImGui::Text("%llu keys after step %zu of %zu: %s", (unsigned long long)n, d.step, job.plan->steps.size(),
                s.label.c_str());
    if (d.strip) {
        ImGui::SameLine();
        ImGui::TextDisabled("  (downsampled: a pixel column shows which values its %llu keys hold)",
                            (unsigned long long)((n + size_t(ImGui::GetContentRegionAvail().x) - 1) /
                                                 std::max<size_t>(1, size_t(ImGui::GetContentRegionAvail().x))));
    }

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImVec2 size = ImGui::GetContentRegionAvail();
    size.y = std::max(size.y, 40.0f);
    const bool labels = n <= 32;
    const float labelH = labels ? 2 * ImGui::GetFontSize() + 4 : 0; // two staggered rows
    const float plotH = size.y - labelH;
    dl->AddRectFilled(p0, ImVec2(p0.x + size.x, p0.y + plotH), IM_COL32(24, 24, 28, 255));
    ImGui::InvisibleButton("##array", size);
    const bool hovered = ImGui::IsItemHovered();

    if (n == 0) {
        ImGui::End();
        return;
    }
    if (!d.strip) {
        // One bar per key.
        const float w = size.x / float(n);
        const float gap = w >= 6 ? std::max(1.0f, w * 0.12f) : 0.0f;
        std::vector<bool> changed = changedIndices(d, n, job.settings.key);
        std::vector<bool> wrong(n, false);
        for (uint64_t i : d.check.firstDiffs) wrong[i] = true;
        for (uint64_t i = 0; i < n; ++i) {
            const float h = keyHeight(job, s, i);
            const float x0 = p0.x + w * float(i), x1 = x0 + std::max(1.0f, w - gap);
            const float top = p0.y + plotH - (0.04f + 0.94f * h) * plotH;
            ImU32 col = wrong[i] ? IM_COL32(230, 50, 50, 255) : heightColour(h);
            dl->AddRectFilled(ImVec2(x0, top), ImVec2(x1, p0.y + plotH), col);
            if (changed[i] && w >= 3)
                dl->AddRect(ImVec2(x0, top), ImVec2(x1, p0.y + plotH), IM_COL32(255, 140, 40, 255), 0, 0,
                            std::max(1.5f, c.line * 1.5f));
            if (labels) {
                std::string t = keyText(s, i, job.settings.key);
                ImVec2 ts = ImGui::CalcTextSize(t.c_str());
                const float row = ts.x <= w - gap ? 0.0f : float(i % 2); // wide labels alternate rows
                if (ts.x <= 2 * w - gap)
                    dl->AddText(ImVec2(std::clamp(x0 + (w - gap - ts.x) / 2, p0.x, p0.x + size.x - ts.x),
                                       p0.y + plotH + 2 + row * ImGui::GetFontSize()),
                                changed[i] ? IM_COL32(255, 160, 60, 255) : IM_COL32(210, 210, 210, 255), t.c_str());
            }
        }
        if (hovered) {
            uint64_t i = std::min<uint64_t>(n - 1, uint64_t((ImGui::GetIO().MousePos.x - p0.x) / w));
            ImGui::SetTooltip("key %llu = %s%s", (unsigned long long)i, keyText(s, i, job.settings.key).c_str(),
                              s.values.empty() ? "" : (" (value " + std::to_string(s.values[i]) + ")").c_str());
        }
    } else {
        // The strip: buckets merged into pixel columns; one rectangle per run of occupied bins.
        const Strip& st = *d.strip;
        const size_t buckets = st.mean.size();
        const int columns = std::max(1, int(size.x));
        const int perColumn = int((buckets + columns - 1) / columns);
        const float bw = size.x / float((buckets + perColumn - 1) / perColumn);
        const float binH = (0.94f * plotH) / float(Strip::kBins);
        auto y = [&](float h) { return p0.y + plotH - (0.04f + 0.94f * h) * plotH; };
        int col = 0;
        for (size_t b = 0; b < buckets; b += perColumn, ++col) {
            std::array<uint64_t, 2> bits{0, 0};
            const size_t e = std::min(buckets, b + perColumn);
            for (size_t j = b; j < e; ++j) bits[0] |= st.occupied[j][0], bits[1] |= st.occupied[j][1];
            const float x0 = p0.x + bw * float(col), x1 = x0 + std::max(1.0f, bw);
            for (uint32_t bin = 0; bin < Strip::kBins;) {
                if (!((bits[bin >> 6] >> (bin & 63)) & 1)) {
                    ++bin;
                    continue;
                }
                uint32_t end = bin;
                while (end < Strip::kBins && ((bits[end >> 6] >> (end & 63)) & 1)) ++end;
                const float h0 = float(bin) / Strip::kBins, h1 = float(end) / Strip::kBins;
                dl->AddRectFilled(ImVec2(x0, y(h1)), ImVec2(x1, y(h0) + std::max(1.0f, binH * 0.2f)),
                                  heightColour((h0 + h1) / 2));
                bin = end;
            }
        }
        if (hovered) {
            size_t b = std::min(buckets - 1, size_t((ImGui::GetIO().MousePos.x - p0.x) / size.x * float(buckets)));
            ImGui::SetTooltip("keys %llu..%llu: mean at %.3f of the input's range",
                              (unsigned long long)(b * n / buckets), (unsigned long long)((b + 1) * n / buckets - 1),
                              st.mean[b]);
        }
    }
    ImGui::End();
}

} // namespace sortlab::app
