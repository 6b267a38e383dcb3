// Checks the files of --export (sortlab-bench, `sortlab --bench`, the app's benchmark panel)
// against sortlab-bench --json, for tests/cli_tests.cmake and tests/app_tests.cmake. It reads the
// files only; it does not link the sortlab libraries, so a shared bug cannot hide in both.
//
//   export_check same EXPORT.json BENCH.json [--check pass]
//       the same rows in the same order with the same schema (every object has the same fields in
//       the same order); the fields that name the case and the plan are equal (algo, variant, type,
//       values, order, n, dist, seed, device, driver, timer, reps, keep_input, bytes_floor,
//       shared_elems, steps, and each step's number, label and kind); the timings are plausible in
//       each file (median and min > 0, min <= median, rep_ms holds reps times whose median is
//       median_ms, gkeys_per_s = n / median, gbytes_per_s = bytes_floor / median, speedup_vs_std =
//       the case's std median / median, the step medians add up to about the median) and the two
//       runs agree within a factor of 50 (the same units); --check pass: every row passed
//   export_check csv FILE.csv FILE.json
//       the CSV (RFC 4180) has one column per JSON field, in order, and one row per object, each
//       cell the JSON value (numbers equal to 1e-6, arrays joined with ';', null empty)
//   export_check png FILE.png --width W --height H
//       the size, and not blank: >= 2% of the pixels differ from the most common colour, >= 24 colours
//   export_check svg FILE.svg
//       an SVG document with text, lines and a closing tag
//   export_check errors FILE.json --count N
//       exactly N rows with "check": "error" and an "error" message, and none of them has timings
//
// Exit 0 when every check passes; otherwise 1 with the reasons on stderr.
#include <nlohmann/json.hpp>
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using Json = nlohmann::ordered_json;

namespace {

int failures = 0;

void fail(const std::string& why) {
    if (failures++ < 30) std::fprintf(stderr, "export_check: %s\n", why.c_str());
}

bool readJson(const std::string& path, Json& out) {
    std::ifstream in(path);
    if (!in) {
        fail("cannot read " + path);
        return false;
    }
    try {
        out = Json::parse(in);
    } catch (const std::exception& e) {
        fail(path + " is not JSON: " + e.what());
        return false;
    }
    if (!out.is_array()) {
        fail(path + " is not a JSON array");
        return false;
    }
    return true;
}

bool close(double a, double b, double rel) {
    return std::fabs(a - b) <= rel * std::max({1e-12, std::fabs(a), std::fabs(b)});
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t m = v.size() / 2;
    return v.empty() ? 0 : v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// The timings of one file make sense on their own.
void plausible(const Json& rows, const std::string& file) {
    std::map<std::string, double> stdMedian; // case -> std's median
    auto caseKey = [](const Json& r) {
        return r["type"].dump() + r["values"].dump() + r["order"].dump() + r["n"].dump() + r["dist"].dump();
    };
    for (const Json& r : rows)
        if (r["algo"] == "std") stdMedian[caseKey(r)] = r["median_ms"].get<double>();
    for (size_t i = 0; i < rows.size(); ++i) {
        const Json& r = rows[i];
        const std::string at =
            file + " row " + std::to_string(i) + " (" + r["algo"].get<std::string>() + " n=" + r["n"].dump() + "): ";
        const double med = r["median_ms"].is_number() ? r["median_ms"].get<double>() : -1;
        const double mn = r["min_ms"].is_number() ? r["min_ms"].get<double>() : -1;
        if (!(med > 0) || !(mn > 0) || mn > med * (1 + 1e-12)) {
            fail(at + "median_ms " + r["median_ms"].dump() + ", min_ms " + r["min_ms"].dump());
            continue;
        }
        std::vector<double> reps;
        for (const Json& x : r["rep_ms"]) reps.push_back(x.get<double>());
        if (reps.size() != r["reps"].get<size_t>()) fail(at + "rep_ms has " + std::to_string(reps.size()) + " times");
        if (!close(median(reps), med, 1e-9)) fail(at + "median_ms is not the median of rep_ms");
        const double n = r["n"].get<double>();
        if (!close(r["gkeys_per_s"].get<double>(), n / (med * 1e6), 1e-9)) fail(at + "gkeys_per_s != n / median");
        if (r["bytes_floor"].is_number() &&
            !close(r["gbytes_per_s"].get<double>(), r["bytes_floor"].get<double>() / (med * 1e6), 1e-9))
            fail(at + "gbytes_per_s != bytes_floor / median");
        if (auto it = stdMedian.find(caseKey(r)); it != stdMedian.end()) {
            if (!r["speedup_vs_std"].is_number() || !close(r["speedup_vs_std"].get<double>(), it->second / med, 1e-9))
                fail(at + "speedup_vs_std != std median / median");
        }
        if (!r["step_ms"].empty()) {
            double sum = 0;
            for (const Json& s : r["step_ms"]) sum += s["median_ms"].get<double>();
            if (!(sum > 0.5 * med && sum < 2.0 * med))
                fail(at + "the step medians add up to " + std::to_string(sum) + " ms, the median is " +
                     std::to_string(med) + " ms");
        }
    }
}

int same(const std::string& a, const std::string& b, const std::string& check) {
    Json x, y;
    if (!readJson(a, x) || !readJson(b, y)) return 1;
    if (x.size() != y.size())
        fail(a + " has " + std::to_string(x.size()) + " rows, " + b + " " + std::to_string(y.size()));
    if (x.empty()) fail(a + " has no rows");
    const char* equalFields[] = {"algo",       "variant",     "type",         "values", "order", "n",
                                 "dist",       "seed",        "device",       "driver", "timer", "reps",
                                 "keep_input", "bytes_floor", "shared_elems", "steps"};
    for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
        const Json &p = x[i], &q = y[i];
        const std::string at = "row " + std::to_string(i) + ": ";
        std::vector<std::string> kp, kq;
        for (auto it = p.begin(); it != p.end(); ++it) kp.push_back(it.key());
        for (auto it = q.begin(); it != q.end(); ++it) kq.push_back(it.key());
        if (kp != kq) fail(at + "the fields differ: " + Json(kp).dump() + " vs " + Json(kq).dump());
        for (const char* f : equalFields)
            if (p.value(f, Json()) != q.value(f, Json()))
                fail(at + f + ": " + p.value(f, Json()).dump() + " vs " + q.value(f, Json()).dump());
        if (p["step_ms"].size() != q["step_ms"].size()) fail(at + "step_ms lengths differ");
        for (size_t s = 0; s < std::min(p["step_ms"].size(), q["step_ms"].size()); ++s)
            for (const char* f : {"step", "label", "kind"})
                if (p["step_ms"][s][f] != q["step_ms"][s][f])
                    fail(at + "step " + std::to_string(s) + " " + f + ": " + p["step_ms"][s][f].dump() + " vs " +
                         q["step_ms"][s][f].dump());
        if (!check.empty() && (p["check"] != check || q["check"] != check))
            fail(at + "check " + p["check"].dump() + " and " + q["check"].dump() + ", expected " + check);
        if (p["median_ms"].is_number() && q["median_ms"].is_number()) {
            const double r = p["median_ms"].get<double>() / q["median_ms"].get<double>();
            if (!(r > 1.0 / 50 && r < 50)) fail(at + "the medians differ by a factor of " + std::to_string(r));
        }
    }
    plausible(x, a);
    plausible(y, b);
    if (!failures)
        std::printf("%s and %s: %zu rows, same cases and schema, plausible timings\n", a.c_str(), b.c_str(), x.size());
    return failures ? 1 : 0;
}

// RFC 4180: quoted cells may hold commas, doubled quotes and line breaks.
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows(1);
    std::string cell;
    bool quoted = false, any = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cell += c;
            }
            continue;
        }
        if (c == '"') {
            quoted = true;
            any = true;
        } else if (c == ',') {
            rows.back().push_back(cell);
            cell.clear();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            continue;
        } else if (c == '\n') {
            rows.back().push_back(cell);
            cell.clear();
            rows.emplace_back();
        } else {
            cell += c;
            any = true;
        }
    }
    if (!cell.empty() || !rows.back().empty()) rows.back().push_back(cell);
    if (rows.back().empty()) rows.pop_back();
    (void)any;
    return rows;
}

bool cellMatches(const std::string& cell, const Json& v) {
    if (v.is_null()) return cell.empty();
    if (v.is_string()) return cell == v.get<std::string>();
    if (v.is_boolean()) return cell == (v.get<bool>() ? "true" : "false");
    if (v.is_number()) {
        try {
            return close(std::stod(cell), v.get<double>(), 1e-6);
        } catch (...) {
            return false;
        }
    }
    if (v.is_array()) {
        std::vector<std::string> parts;
        std::stringstream ss(cell);
        for (std::string p; std::getline(ss, p, ';');) parts.push_back(p);
        if (parts.size() != v.size()) return false;
        for (size_t i = 0; i < v.size(); ++i) {
            if (v[i].is_object()) { // step_ms: "label=ms"
                const size_t eq = parts[i].rfind('=');
                if (eq == std::string::npos || parts[i].substr(0, eq) != v[i]["label"].get<std::string>() ||
                    !cellMatches(parts[i].substr(eq + 1), v[i]["median_ms"]))
                    return false;
            } else if (!cellMatches(parts[i], v[i])) {
                return false;
            }
        }
        return true;
    }
    return false;
}

int csv(const std::string& csvPath, const std::string& jsonPath) {
    Json rows;
    if (!readJson(jsonPath, rows)) return 1;
    std::ifstream in(csvPath, std::ios::binary);
    if (!in) return fail("cannot read " + csvPath), 1;
    std::stringstream ss;
    ss << in.rdbuf();
    const auto table = parseCsv(ss.str());
    if (table.empty()) return fail(csvPath + " is empty"), 1;
    std::vector<std::string> columns;
    for (const Json& r : rows)
        for (auto it = r.begin(); it != r.end(); ++it)
            if (std::find(columns.begin(), columns.end(), it.key()) == columns.end()) columns.push_back(it.key());
    if (table[0] != columns) fail("the CSV header is not the JSON fields in order");
    if (table.size() != rows.size() + 1)
        fail("the CSV has " + std::to_string(table.size() - 1) + " rows, the JSON " + std::to_string(rows.size()));
    for (size_t i = 0; i + 1 < table.size() && i < rows.size(); ++i) {
        if (table[i + 1].size() != columns.size()) {
            fail("CSV row " + std::to_string(i) + " has " + std::to_string(table[i + 1].size()) + " cells");
            continue;
        }
        for (size_t c = 0; c < columns.size(); ++c) {
            const Json v = rows[i].contains(columns[c]) ? rows[i][columns[c]] : Json();
            if (!cellMatches(table[i + 1][c], v))
                fail("CSV row " + std::to_string(i) + " " + columns[c] + ": '" + table[i + 1][c] + "' vs " + v.dump());
        }
    }
    if (!failures)
        std::printf("%s: %zu rows x %zu columns = %s\n", csvPath.c_str(), rows.size(), columns.size(),
                    jsonPath.c_str());
    return failures ? 1 : 0;
}

int png(const std::string& path, int width, int height) {
    int w = 0, h = 0, comp = 0;
    unsigned char* px = stbi_load(path.c_str(), &w, &h, &comp, 4);
    if (!px) return fail("cannot read the PNG " + path), 1;
    if ((width && w != width) || (height && h != height))
        fail(path + " is " + std::to_string(w) + "x" + std::to_string(h));
    std::map<uint32_t, size_t> colours;
    for (int i = 0; i < w * h; ++i) {
        uint32_t c;
        std::memcpy(&c, px + size_t(i) * 4, 4);
        colours[c]++;
    }
    stbi_image_free(px);
    size_t most = 0;
    for (auto& [c, count] : colours) most = std::max(most, count);
    const double other = 1.0 - double(most) / double(size_t(w) * size_t(h));
    if (other < 0.02) fail(path + " is nearly blank: " + std::to_string(other * 100) + "% of pixels differ");
    if (colours.size() < 24) fail(path + " has only " + std::to_string(colours.size()) + " colours");
    if (!failures)
        std::printf("%s: %dx%d, %.1f%% not background, %zu colours\n", path.c_str(), w, h, other * 100, colours.size());
    return failures ? 1 : 0;
}

int svg(const std::string& path) {
    std::ifstream in(path);
    if (!in) return fail("cannot read " + path), 1;
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string s = ss.str();
    auto count = [&](const std::string& what) {
        size_t c = 0;
        for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++c;
        return c;
    };
    if (s.rfind("<?xml", 0) != 0 || s.find("<svg ") == std::string::npos) fail(path + " is not an SVG document");
    if (s.find("</svg>") == std::string::npos) fail(path + " does not end its <svg>");
    if (count("<text ") < 10 || count("<line ") < 10) fail(path + " has too few texts or lines");
    if (!failures) std::printf("%s: %zu texts, %zu lines\n", path.c_str(), count("<text "), count("<line "));
    return failures ? 1 : 0;
}

int errors(const std::string& path, size_t expected) {
    Json rows;
    if (!readJson(path, rows)) return 1;
    size_t found = 0;
    for (const Json& r : rows) {
        if (r["check"] != "error") continue;
        ++found;
        if (!r.contains("error") || !r["error"].is_string() || r["error"].get<std::string>().empty())
            fail("an error row without a message: " + r.dump());
        if (!r["rep_ms"].empty() || r["median_ms"].get<double>() != 0) fail("an error row with timings: " + r.dump());
        std::printf("%s n=%s: %s\n", r["algo"].get<std::string>().c_str(), r["n"].dump().c_str(),
                    r.value("error", std::string()).c_str());
    }
    if (found != expected)
        fail(path + " has " + std::to_string(found) + " error rows, expected " + std::to_string(expected));
    return failures ? 1 : 0;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> a(argv + 1, argv + argc);
    auto option = [&](const std::string& name, const std::string& fallback) {
        for (size_t i = 0; i + 1 < a.size(); ++i)
            if (a[i] == name) return a[i + 1];
        return fallback;
    };
    if (a.size() >= 3 && a[0] == "same") return same(a[1], a[2], option("--check", ""));
    if (a.size() >= 3 && a[0] == "csv") return csv(a[1], a[2]);
    if (a.size() >= 2 && a[0] == "png")
        return png(a[1], std::stoi(option("--width", "0")), std::stoi(option("--height", "0")));
    if (a.size() >= 2 && a[0] == "svg") return svg(a[1]);
    if (a.size() >= 2 && a[0] == "errors") return errors(a[1], std::stoul(option("--count", "0")));
    std::fprintf(stderr, "usage: export_check same|csv|png|svg|errors ... (see the top of export_check.cpp)\n");
    return 2;
}
