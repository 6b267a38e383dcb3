// Random lessons for the fuzz tests (app_unit.AppLessonFuzz.*, app_lesson_fuzz_run): a title, then
// stops of random directives with random arguments, in and out of range. Inputs stay small (at most
// 64 keys) and tiles small or tuned, so that a lesson the checks accept runs in seconds on lavapipe;
// what only a device can refuse (a tile larger than its shared memory holds) is left out.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace sortlab::test {

inline std::string fuzzLesson(uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto pick = [&](const std::vector<std::string>& v) { return v[rng() % v.size()]; };
    auto upTo = [&](uint64_t hi) { return std::to_string(rng() % (hi + 1)); };
    std::string out = "# Fuzzed lesson " + std::to_string(seed) + "\n";
    const int stops = 1 + int(rng() % 5);
    for (int st = 0; st < stops; ++st) {
        out += "\n## Stop " + std::to_string(st + 1) + "\n";
        if (st == 0)
            out += "@sort " + pick({"oddeven-layer", "oddeven", "radix4", "onesweep", "onesweep-fallback"}) + "\n";
        const int directives = int(rng() % 5);
        for (int d = 0; d < directives; ++d) {
            switch (rng() % 14) {
            case 0:
                out += "@sort " + pick({"oddeven-layer", "oddeven", "radix4", "onesweep"}) + "\n";
                break;
            case 1:
                out += "@n " + pick({"1", "2", "3", "5", "8", "10", "16", "17", "33", "64"}) + "\n";
                break;
            case 2: {
                std::string keys;
                const int k = 1 + int(rng() % 20);
                for (int i = 0; i < k; ++i) keys += (i ? ", " : "") + upTo(rng() % 2 ? 99 : 2000);
                out += "@keys " + keys + "\n";
                break;
            }
            case 3:
                out += "@values " + pick({"u32", "u32", "none"}) + "\n";
                break;
            case 4:
                out += "@tile " + pick({"auto", "4", "8", "16", "0"}) + "\n";
                break;
            case 5:
                out += "@step " + pick({"0", "1", "2", "3", "5", "9", "12", "20", "33", "99", "end", "end"}) + "\n";
                break;
            case 6:
                out += "@highlight " + pick({"key", "layer", "digit", "workgroup", "tile"}) + " " +
                       upTo(rng() % 2 ? 3 : 20) + "\n";
                break;
            case 7:
            case 8: {
                const std::string kind = pick({"swaps", "where", "count", "depth"});
                out += "@ask " + kind + (kind == "swaps" ? "" : " " + upTo(rng() % 2 ? 3 : 20)) + " How many?\n";
                break;
            }
            case 9:
                out += "@lookback-log " + pick({"auto", "on", "off"}) + "\n";
                break;
            case 10:
                out += "@force-fallback " + pick({"on", "off"}) + "\n";
                break;
            case 12: { // one to three parts, any of them perhaps not drawn by the stop's sort (or no part)
                std::string parts;
                const int k = 1 + int(rng() % 3);
                for (int i = 0; i < k; ++i)
                    parts +=
                        " " + pick({"array", "network", "binary", "histogram", "offsets", "counts", "workgroup-offsets",
                                    "replay", "tile-status", "all-histograms", "all-offsets", "table"});
                out += "@subject" + parts + "\n";
                break;
            }
            case 11:
                out += "@replay-" + pick({"digit " + upTo(255), "digit auto", "event " + upTo(30), "event end"}) + "\n";
                break;
            default:
                out += "@" + pick({"order desc", "order asc", "dist uniform", "seed 7", "type i32", "type u64"}) + "\n";
                break;
            }
        }
        out += "What the class sees at stop " + std::to_string(st + 1) + ".\n";
    }
    return out;
}

} // namespace sortlab::test
