// [SECTION] Keys as JSON values, compared in IEEE totalOrder / integer order
// [SECTION] An independent model of Batcher's odd-even merge sort network
// [SECTION] bench_cli_check trace: every trace line against the model
// [SECTION] bench_cli_check json: the --json file has every field, with consistent values
// [SECTION] main
//
// Checks the files sortlab-bench writes, for the CLI tests (tests/cli_tests.cmake). It does not
// link the sortlab library: the network model here is derived from Batcher's recursive
// definition, independently of sort/'s iterative one.
//
//   bench_cli_check trace FILE --algos a,b [--groups G]
//   bench_cli_check json FILE --count N [--algos a,b] [--check pass|skipped] [--anchor cub] [--lookback T]
//                    [--result either]
//     --result either: every radix row (radix4, onesweep) left its result where the last pass wrote
//     it (--either-buffer): its variant ends in "+either" and it has no result step
//     --lookback T: every onesweep row ran the instrumented kernel ("+log") and has each pass's
//     lookback statistics over T tiles, consistent with their depth histogram
//     --anchor cub: every case has one cub row (SortKeys/SortPairs, timed by CUDA events, the
//     OneSweep bytes floor) and speedup_vs_cub is the cub median / the median on the GPU rows and
//     the cub row, null on std; without it, speedup_vs_cub is null everywhere
//
// Exit code 0 when the file is right; otherwise 1 and a message on stderr.
#include "json_check.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using json_check::expect;
using json_check::fail;
using json_check::Json;

namespace {

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');) out.push_back(item);
    return out;
}

// [SECTION] Keys as JSON values --------------------------------------------------------------------

// A key of any type in one comparable form: floats in IEEE 754 totalOrder (-nan < -inf < ... <
// -0.0 < +0.0 < ... < +inf < nan), integers exactly (128 bits hold every u64 and i64).
struct Key {
    int cls = 1; // floats: 0 -nan, 1 a number or an infinity, 2 nan; integers: 1
    bool isFloat = false;
    double f = 0;
    __int128 i = 0;
};

Key toKey(const Json& v, bool isFloatType) {
    Key k;
    k.isFloat = isFloatType;
    if (isFloatType) {
        if (v.is_string()) {
            const std::string s = v.get<std::string>();
            if (s == "nan")
                k.cls = 2;
            else if (s == "-nan")
                k.cls = 0;
            else if (s == "inf")
                k.f = INFINITY;
            else if (s == "-inf")
                k.f = -INFINITY;
            else
                fail("a float key is the string '" + s + "' (expected nan, -nan, inf or -inf)");
            return k;
        }
        expect(v.is_number_float(), "a float key is written as " + v.dump() + ", not as a number with a point");
        k.f = v.get<double>();
        return k;
    }
    if (v.is_number_unsigned())
        k.i = static_cast<__int128>(v.get<uint64_t>());
    else if (v.is_number_integer())
        k.i = static_cast<__int128>(v.get<int64_t>());
    else
        fail("an integer key is written as " + v.dump());
    return k;
}

bool less(const Key& a, const Key& b) {
    if (!a.isFloat) return a.i < b.i;
    if (a.cls != b.cls) return a.cls < b.cls;
    if (a.cls != 1) return false; // NaNs of one sign: equal in the order
    if (a.f != b.f) return a.f < b.f;
    return std::signbit(a.f) && !std::signbit(b.f); // -0.0 < +0.0
}

// [SECTION] The network model ------------------------------------------------------------------------

// The comparators of Batcher's odd-even merge sort on N = 2^m elements, from the recursive
// definition, each tagged with the layer it belongs to: (p, k) where the merge produces runs of
// 2p and k is the comparator's stride.
struct Comparator {
    uint64_t a, b;
};

class Network {
public:
    explicit Network(uint64_t n) : n_(n) {
        padded_ = 1;
        while (padded_ < n) padded_ *= 2;
        sort(0, padded_);
        // Layers in network order: merge p = 1, 2, 4, ...; within a merge, stride k = p, ..., 1.
        for (uint64_t p = 1; p < padded_; p *= 2)
            for (uint64_t k = p; k >= 1; k /= 2) order_.push_back({p, k});
    }
    const std::vector<std::pair<uint64_t, uint64_t>>& layers() const { return order_; }
    // The comparators of layer (p, k) that touch no padding (indices >= n act as +infinity, so
    // a comparator with such an index never exchanges).
    std::vector<Comparator> layer(size_t l) const {
        std::vector<Comparator> out;
        auto it = comparators_.find(order_[l]);
        if (it == comparators_.end()) return out;
        std::set<uint64_t> used;
        for (const Comparator& c : it->second) {
            expect(used.insert(c.a).second && used.insert(c.b).second,
                   "model: the comparators of a layer overlap (the grouping is wrong)");
            if (c.b < n_) out.push_back(c);
        }
        return out;
    }

private:
    // merge(lo, n, r): step = 2r; if step < n: merge(lo, n, step); merge(lo + r, n, step);
    // compare (i, i + r) for i = lo + r; i + r < lo + n; i += step; else compare (lo, lo + r).
    void merge(uint64_t lo, uint64_t len, uint64_t r, uint64_t p) {
        const uint64_t step = 2 * r;
        if (step < len) {
            merge(lo, len, step, p);
            merge(lo + r, len, step, p);
            for (uint64_t i = lo + r; i + r < lo + len; i += step) add(p, r, i, i + r);
        } else {
            add(p, r, lo, lo + r);
        }
    }
    // sort(lo, n): if n > 1: m = n / 2; sort(lo, m); sort(lo + m, m); merge(lo, n, 1).
    void sort(uint64_t lo, uint64_t len) {
        if (len <= 1) return;
        const uint64_t m = len / 2;
        sort(lo, m);
        sort(lo + m, m);
        merge(lo, len, 1, m); // this merge joins two runs of p = m
    }
    void add(uint64_t p, uint64_t k, uint64_t a, uint64_t b) { comparators_[{p, k}].push_back({a, b}); }

    uint64_t n_, padded_;
    std::map<std::pair<uint64_t, uint64_t>, std::vector<Comparator>> comparators_;
    std::vector<std::pair<uint64_t, uint64_t>> order_;
};

// [SECTION] bench_cli_check trace --------------------------------------------------------------------

struct Group {
    std::vector<Json> lines;
};

// Checks one algorithm's trace of one case: line 0 is the input, line i the state after layer i.
void checkTraceGroup(const std::string& name, const std::vector<Json>& lines) {
    const Json& first = lines.front();
    const std::string type = first.at("type");
    const bool isFloat = type == "f32" || type == "f64";
    const bool desc = first.at("order") == "desc";
    const uint64_t n = first.at("n");
    expect(first.at("step") == 0 && first.at("label") == "input", name + ": the first line is not the input");
    expect(first.at("keys").size() == n, name + ": the input has the wrong number of keys");
    const bool hasValues = first.contains("values");

    // The model state: the input's JSON items (so that the comparison below is exact, -0.0
    // included), permuted by the comparators.
    std::vector<Json> keys = first.at("keys").get<std::vector<Json>>();
    std::vector<Json> values = hasValues ? first.at("values").get<std::vector<Json>>() : std::vector<Json>();
    expect(!hasValues || values.size() == n, name + ": the input has the wrong number of values");

    Network net(n);
    expect(lines.size() == net.layers().size() + 1, name + ": " + std::to_string(lines.size() - 1) +
                                                        " step lines, but the network for n = " + std::to_string(n) +
                                                        " has " + std::to_string(net.layers().size()) + " layers");
    for (size_t l = 0; l < net.layers().size(); ++l) {
        const Json& line = lines[l + 1];
        const std::string where = name + ", step " + std::to_string(l + 1);
        const auto [p, k] = net.layers()[l];
        expect(line.at("step") == l + 1, where + ": the step number is " + line.at("step").dump());
        expect(line.at("kind") == "layer" && line.at("layer_count") == 1,
               where + ": not a single layer (kind " + line.at("kind").dump() + ")");
        expect(line.at("first_layer") == l, where + ": first_layer is " + line.at("first_layer").dump());
        expect(line.at("merge_p") == p && line.at("stride_k") == k,
               where + ": merge_p/stride_k are " + line.at("merge_p").dump() + "/" + line.at("stride_k").dump() +
                   ", the model's layer is p=" + std::to_string(p) + " k=" + std::to_string(k));
        expect(line.at("label").is_string() && !line.at("label").get<std::string>().empty(), where + ": no label");
        for (const Comparator& c : net.layer(l)) {
            Key a = toKey(keys[c.a], isFloat), b = toKey(keys[c.b], isFloat);
            // Exchange when the left key comes strictly after the right one in the sort order.
            if (desc ? less(a, b) : less(b, a)) {
                std::swap(keys[c.a], keys[c.b]);
                if (hasValues) std::swap(values[c.a], values[c.b]);
            }
        }
        const Json& got = line.at("keys");
        expect(got.size() == n, where + ": wrong number of keys");
        for (size_t i = 0; i < n; ++i)
            expect(got[i].dump() == keys[i].dump(), where + " (p=" + std::to_string(p) + ", k=" + std::to_string(k) +
                                                        "): key " + std::to_string(i) + " is " + got[i].dump() +
                                                        ", the model has " + keys[i].dump());
        if (hasValues) {
            const Json& gv = line.at("values");
            expect(gv.size() == n, where + ": wrong number of values");
            for (size_t i = 0; i < n; ++i)
                expect(gv[i] == values[i], where + ": value " + std::to_string(i) + " is " + gv[i].dump() +
                                               ", the model has " + values[i].dump());
        }
    }
    // The network sorts: the model's final state is in order (a check of the model itself).
    for (size_t i = 1; i < n; ++i) {
        Key a = toKey(keys[i - 1], isFloat), b = toKey(keys[i], isFloat);
        expect(!(desc ? less(a, b) : less(b, a)),
               name + ": the model's final state is not sorted at " + std::to_string(i));
    }
}

int checkTrace(const std::string& path, const std::vector<std::string>& algos, long groupsExpected) {
    std::map<std::string, std::vector<Json>> groups; // "algo type order n values" -> lines
    std::vector<std::string> groupOrder;
    size_t lineNo = 0;
    for (Json& line : json_check::readJsonLines(path)) {
        ++lineNo;
        for (const char* field : {"algo", "variant", "step", "label", "keys", "type", "order", "n"})
            expect(line.contains(field), path + ":" + std::to_string(lineNo) + ": no \"" + field + "\"");
        std::string key = line["algo"].get<std::string>() + " " + line["type"].get<std::string>() + " " +
                          line["order"].get<std::string>() + " n=" + line["n"].dump() +
                          (line.contains("values") ? " with values" : "");
        if (line["step"] == 0) {
            expect(!groups.count(key), path + ":" + std::to_string(lineNo) + ": a second input line for " + key);
            groupOrder.push_back(key);
        } else {
            expect(groups.count(key), path + ":" + std::to_string(lineNo) + ": a step before the input line of " + key);
        }
        groups[key].push_back(std::move(line));
    }
    expect(!groups.empty(), path + " has no trace lines");
    std::set<std::string> seenAlgos;
    for (const std::string& key : groupOrder) {
        checkTraceGroup(key, groups[key]);
        seenAlgos.insert(groups[key].front()["algo"].get<std::string>());
        std::printf("ok: %s: %zu layers match the model\n", key.c_str(), groups[key].size() - 1);
    }
    for (const std::string& a : algos) expect(seenAlgos.count(a), path + " has no trace of " + a);
    expect(seenAlgos.size() == algos.size(), path + " traces algorithms that were not asked for");
    if (groupsExpected >= 0)
        expect(long(groupOrder.size()) == groupsExpected, path + " has " + std::to_string(groupOrder.size()) +
                                                              " traces, expected " + std::to_string(groupsExpected));
    return 0;
}

// [SECTION] bench_cli_check json -----------------------------------------------------------------------

// --anchor cub: one cub row per case, and the ratios against it.
void checkCubRows(const std::string& path, const Json& all) {
    auto caseOf = [](const Json& o) {
        return o["type"].get<std::string>() + " " + o["values"].get<std::string>() + " " +
               o["order"].get<std::string>() + " n=" + o["n"].dump() + " " + o["dist"].get<std::string>() +
               " seed=" + o["seed"].dump();
    };
    std::map<std::string, const Json*> cub;
    for (const Json& o : all) {
        if (o["algo"] != "cub") continue;
        const std::string c = caseOf(o);
        expect(!cub.count(c), path + ": two cub rows for " + c);
        cub[c] = &o;
        const bool kv = o["values"] != "none";
        expect(o["variant"] == (kv ? "SortPairs" : "SortKeys"),
               path + ": cub variant " + o["variant"].dump() + " for " + c);
        expect(o["timer"] == "cuda events", path + ": cub timer " + o["timer"].dump());
        const std::string t = o["type"];
        const uint64_t k = (t == "u32" || t == "i32" || t == "f32") ? 4 : 8, v = kv ? 4 : 0, n = o["n"];
        expect(o["bytes_floor"] == n * (k + k * 2 * (k + v)),
               path + ": cub bytes_floor " + o["bytes_floor"].dump() + " is not the OneSweep floor for " + c);
    }
    for (const Json& o : all) {
        const std::string c = caseOf(o), algo = o["algo"];
        expect(cub.count(c), path + ": no cub row for " + c);
        const Json& ratio = o["speedup_vs_cub"];
        if (algo == "std") {
            expect(ratio.is_null(), path + ": std has speedup_vs_cub " + ratio.dump());
            continue;
        }
        const double cubMedian = (*cub[c])["median_ms"], median = o["median_ms"];
        if (!(cubMedian > 0 && median > 0)) continue;
        expect(ratio.is_number(), path + ": " + algo + " on " + c + " has no speedup_vs_cub");
        const double want = cubMedian / median;
        expect(std::fabs(ratio.get<double>() - want) <= 1e-9 * want,
               path + ": " + algo + " on " + c + ": speedup_vs_cub " + ratio.dump() + " is not cub median / median");
    }
}

// --lookback-stats: per pass, the statistics agree with their own depth histogram and the tiles.
void checkLookbackStats(const std::string& path, const Json& all, uint64_t tiles) {
    size_t rows = 0;
    for (size_t i = 0; i < all.size(); ++i) {
        const Json& o = all[i];
        if (o["algo"].get<std::string>().rfind("onesweep", 0) != 0) continue;
        ++rows;
        const std::string where = path + "[" + std::to_string(i) + "]";
        const std::string variant = o["variant"];
        expect(variant.size() > 4 && variant.substr(variant.size() - 4) == "+log",
               where + ": the variant " + variant + " is not the instrumented one (+log)");
        const std::string type = o["type"];
        const size_t passes = (type == "u64" || type == "i64" || type == "f64") ? 8 : 4;
        expect(o.contains("lookback") && o["lookback"].size() == passes,
               where + ": not " + std::to_string(passes) + " passes of lookback statistics");
        for (size_t p = 0; p < passes; ++p) {
            const Json& s = o["lookback"][p];
            const std::string at = where + ", pass " + std::to_string(p);
            expect(s["pass"] == p && s["tiles"] == tiles,
                   at + ": pass or tiles " + s["pass"].dump() + ", " + s["tiles"].dump());
            const uint64_t walks = s["walks"];
            expect(walks == (tiles - 1) * 256, at + ": " + std::to_string(walks) + " walks");
            const Json& count = s["depth_count"];
            uint64_t sum = 0, weighted = 0, median = 0, p99 = 0;
            for (size_t d = 0; d < count.size(); ++d) {
                const uint64_t c = count[d];
                expect(d > 0 || c == 0, at + ": walks of depth 0");
                expect(d < tiles || c == 0, at + ": a walk deeper than its tile's predecessors");
                if (!median && (sum + c) * 2 >= walks && c) median = d;
                if (!p99 && double(sum + c) >= 0.99 * double(walks) && c) p99 = d;
                sum += c;
                weighted += c * d;
            }
            expect(sum == walks, at + ": depth_count sums to " + std::to_string(sum));
            if (walks == 0) continue;
            expect(s["depth_max"] == count.size() - 1 && count.back() > 0, at + ": depth_max is not the histogram's");
            expect(s["depth_median"] == median && s["depth_p99"] == p99, at + ": median or p99 not the histogram's");
            expect(std::fabs(s["depth_mean"].get<double>() - double(weighted) / double(walks)) < 1e-6,
                   at + ": depth_mean is not the histogram's");
            expect(s["reads_inclusive"].get<uint64_t>() <= walks, at + ": more inclusive reads than walks");
            expect(s["in_flight_max"].get<uint64_t>() >= 1 && s["in_flight_max"].get<uint64_t>() <= tiles,
                   at + ": in_flight_max is not between 1 and the tiles");
            expect(s["fallbacks"].get<uint64_t>() < tiles && s["taken_out_of_order"].get<uint64_t>() <= tiles &&
                       s["finished_out_of_order"].get<uint64_t>() < tiles,
                   at + ": fallbacks or out-of-order counts beyond the tiles");
        }
    }
    expect(rows > 0, path + ": no onesweep row");
}

int checkJson(const std::string& path, long count, const std::vector<std::string>& algos, const std::string& check,
              bool anchorCub, long lookbackTiles, bool resultInEither) {
    const Json all = json_check::readJsonFile(path);
    expect(all.is_array(), path + " is not a JSON array");
    if (count >= 0)
        expect(long(all.size()) == count,
               path + " has " + std::to_string(all.size()) + " objects, expected " + std::to_string(count));
    std::set<std::string> seenAlgos;
    for (size_t i = 0; i < all.size(); ++i) {
        const Json& o = all[i];
        const std::string where = path + "[" + std::to_string(i) + "]";
        auto has = [&](const char* field, auto pred, const char* what) {
            expect(o.contains(field), where + ": no \"" + field + "\"");
            expect(pred(o.at(field)), where + ": \"" + field + "\" is " + o.at(field).dump() + ", expected " + what);
        };
        auto isString = [](const Json& v) { return v.is_string() && !v.get<std::string>().empty(); };
        auto isNumber = [](const Json& v) { return v.is_number() && v.get<double>() >= 0; };
        auto isCount = [](const Json& v) {
            return v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
        };
        auto numberOrNull = [&](const Json& v) { return v.is_null() || isNumber(v); };
        for (const char* f : {"algo", "variant", "type", "values", "order", "dist", "device"})
            has(f, isString, "a string");
        has(
            "driver", [](const Json& v) { return v.is_string(); }, "a string");
        for (const char* f : {"n", "seed", "steps"}) has(f, isCount, "a count");
        for (const char* f : {"median_ms", "min_ms", "gkeys_per_s"}) has(f, isNumber, "a number >= 0");
        has(
            "check", [](const Json& v) { return v == "pass" || v == "fail" || v == "skipped"; }, "pass/fail/skipped");
        has(
            "bytes_floor", [&](const Json& v) { return v.is_null() || isCount(v); }, "a count or null");
        has("gbytes_per_s", numberOrNull, "a number or null");
        has(
            "step_ms", [](const Json& v) { return v.is_array(); }, "an array");

        const std::string algo = o["algo"];
        seenAlgos.insert(algo);
        has(
            "speedup_vs_cub", [&](const Json& v) { return anchorCub ? numberOrNull(v) : v.is_null(); },
            anchorCub ? "a number or null" : "null (no --anchor)");
        const double median = o["median_ms"], mn = o["min_ms"];
        expect(mn <= median + 1e-9, where + ": min_ms > median_ms");
        if (median > 0) {
            const double gk = double(o["n"].get<uint64_t>()) / (median * 1e6);
            expect(std::fabs(o["gkeys_per_s"].get<double>() - gk) <= 1e-6 * gk + 1e-12,
                   where + ": gkeys_per_s is not n / median");
        }
        if (!check.empty())
            expect(o["check"] == check, where + ": check is " + o["check"].dump() + ", expected " + check);
        if (algo == "std") {
            const std::string variant = o["values"] == "none" ? "std::sort" : "std::stable_sort";
            expect(o["variant"] == variant,
                   where + ": the std variant is " + o["variant"].dump() + ", expected " + variant);
            expect(o["device"] == "host CPU", where + ": the std device is " + o["device"].dump());
            continue;
        }
        // --algo auto: which it picked (its variant that one's, prefixed) and why; no other row says so.
        if (algo == "auto") {
            has(
                "chose", [](const Json& v) { return v == "onesweep" || v == "hybrid"; }, "onesweep or hybrid");
            has("why", isString, "a string");
            const std::string prefix = o["chose"].get<std::string>() + ":";
            expect(o["variant"].get<std::string>().rfind(prefix, 0) == 0,
                   where + ": the auto variant " + o["variant"].dump() + " does not begin with " + prefix);
            if (o["dist"] == "equal")
                expect(o["chose"] == "onesweep", where + ": auto chose " + o["chose"].dump() + " for equal keys");
        } else {
            expect(!o.contains("chose") && !o.contains("why"),
                   where + ": \"chose\" or \"why\" in a row not --algo auto");
        }
        // A GPU sort: the floor bytes, the rate from them, and one median time per plan step.
        expect(isCount(o["bytes_floor"]), where + ": a GPU sort without bytes_floor");
        const double bytes = double(o["bytes_floor"].get<uint64_t>());
        if (median > 0 && bytes > 0) {
            expect(o["gbytes_per_s"].is_number(), where + ": gbytes_per_s is missing");
            const double gb = bytes / (median * 1e6);
            expect(std::fabs(o["gbytes_per_s"].get<double>() - gb) <= 1e-6 * gb,
                   where + ": gbytes_per_s is not bytes_floor / median");
        }
        const Json& steps = o["step_ms"];
        const bool timestamps = o.contains("timer") && o["timer"] == "gpu timestamps";
        expect(steps.size() == o["steps"].get<size_t>() || (!timestamps && steps.empty()),
               where + ": step_ms has " + std::to_string(steps.size()) + " entries for " + o["steps"].dump() +
                   " steps");
        for (const Json& s : steps) {
            expect(s.contains("label") && isString(s["label"]), where + ": a step without a label");
            expect(s.contains("median_ms") && isNumber(s["median_ms"]), where + ": a step without median_ms");
        }
        if (resultInEither && (algo == "radix4" || algo.rfind("onesweep", 0) == 0)) {
            const std::string variant = o["variant"];
            expect(variant.size() > 7 && variant.substr(variant.size() - 7) == "+either",
                   where + ": the variant " + variant + " does not leave its result in either buffer (+either)");
            for (const Json& s : steps)
                expect(s.value("kind", "") != "result", where + ": a result step (a copy back) with --either-buffer");
        }
    }
    for (const std::string& a : algos) expect(seenAlgos.count(a), path + " has no result of " + a);
    if (lookbackTiles >= 0) checkLookbackStats(path, all, uint64_t(lookbackTiles));
    if (anchorCub) checkCubRows(path, all);
    std::printf("ok: %s: %zu results\n", path.c_str(), all.size());
    return 0;
}

} // namespace

// [SECTION] main -------------------------------------------------------------------------------------

// --pipeline-stats: every GPU row lists the pipelines its sort ran (with the statistics the
// driver offers, each a number or a yes/no), among them the kernels named in `expect` for its
// algorithm; host rows list none.
int checkPipelines(const std::string& path) {
    const Json rows = json_check::readJsonFile(path);
    const std::map<std::string, std::vector<std::string>> expected = {
        {"oddeven", {"oddeven_warp"}},
        {"oddeven-layer", {"oddeven_layer"}},
        {"radix4", {"radix4_count", "radix4_scan", "radix4_scatter"}},
        {"onesweep", {"onesweep_histogram", "onesweep_scan", "onesweep_pass"}},
    };
    size_t gpuRows = 0;
    for (const Json& r : rows) {
        const std::string algo = r.at("algo");
        const auto want = expected.find(algo);
        if (want == expected.end()) {
            expect(!r.contains("pipelines"), algo + ": a host row lists pipelines");
            continue;
        }
        ++gpuRows;
        expect(r.contains("pipelines") && r["pipelines"].is_array() && !r["pipelines"].empty(),
               algo + ": no pipelines");
        for (const std::string& kernel : want->second) {
            bool found = false;
            for (const Json& p : r["pipelines"]) {
                expect(p.at("stats").is_object(), algo + ": stats is not an object");
                for (const auto& [name, value] : p["stats"].items())
                    expect(value.is_number() || value.is_boolean(), algo + ": statistic " + name + " is not a number");
                // "<kernel>.k1.v0", or one of its own modules: "<kernel>_index.k1.v0", "<kernel>_kpt20_s7.k1.v0"
                const std::string name = p.at("name").get<std::string>();
                found = found || name.rfind(kernel + ".", 0) == 0 || name.rfind(kernel + "_", 0) == 0;
            }
            expect(found, algo + ": the pipeline " + kernel + " is not listed");
        }
    }
    expect(gpuRows == expected.size(), "expected one row of each GPU sort, got " + std::to_string(gpuRows));
    std::printf("%s: %zu GPU rows list their pipelines\n", path.c_str(), gpuRows);
    return 0;
}

int main(int argc, char** argv) {
    try {
        expect(argc >= 3, "usage: bench_cli_check trace|json FILE [--algos a,b] [--groups G] [--count N] [--check C]");
        const std::string mode = argv[1], path = argv[2];
        std::vector<std::string> algos;
        long count = -1, groups = -1;
        std::string check;
        bool anchorCub = false;
        long lookbackTiles = -1;
        bool resultInEither = false;
        for (int i = 3; i + 1 < argc; i += 2) {
            const std::string opt = argv[i], val = argv[i + 1];
            if (opt == "--algos")
                algos = split(val);
            else if (opt == "--count")
                count = std::stol(val);
            else if (opt == "--groups")
                groups = std::stol(val);
            else if (opt == "--check")
                check = val;
            else if (opt == "--anchor")
                anchorCub = val == "cub";
            else if (opt == "--lookback")
                lookbackTiles = std::stol(val);
            else if (opt == "--result" && val == "either")
                resultInEither = true;
            else
                fail("unknown option " + opt);
        }
        if (mode == "trace") return checkTrace(path, algos, groups);
        if (mode == "pipelines") return checkPipelines(path);
        if (mode == "json") return checkJson(path, count, algos, check, anchorCub, lookbackTiles, resultInEither);
        fail("unknown mode " + mode);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_cli_check: FAIL: %s\n", e.what());
        return 1;
    }
}
