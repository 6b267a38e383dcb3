// app_check feedback: the feedback of wrong answers, recomputed from the lesson's records without
// the app's code. See feedbackFailures in app_check_feedback.h.
#include "app_check_feedback.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <stdexcept>

using nlohmann::json;

namespace {

using Pairs = std::vector<std::pair<uint64_t, uint64_t>>;

// Layer L (from 1) of Batcher's odd-even merge network for N (a power of two) positions, written
// from the textbook loops: merges p = 1, 2, 4, ..., strides k = p, p/2, ..., 1.
Pairs batcherLayer(uint64_t N, uint64_t L) {
    uint64_t l = 0;
    for (uint64_t p = 1; p < N; p *= 2)
        for (uint64_t k = p; k >= 1; k /= 2) {
            if (++l != L) continue;
            Pairs out;
            for (uint64_t j = k % p; j + k < N; j += 2 * k)
                for (uint64_t i = 0; i < k && i + j + k < N; ++i)
                    if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) out.emplace_back(i + j, i + j + k);
            std::sort(out.begin(), out.end());
            return out;
        }
    return {};
}
Pairs realComparators(uint64_t n, uint64_t L) {
    uint64_t N = 1;
    while (N < n) N *= 2;
    Pairs out;
    for (auto [a, b] : batcherLayer(N, L))
        if (b < n) out.emplace_back(a, b);
    return out;
}
std::optional<uint64_t> partner(uint64_t n, uint64_t L, uint64_t i) {
    for (auto [a, b] : realComparators(n, L)) {
        if (a == i) return b;
        if (b == i) return a;
    }
    return std::nullopt;
}

std::vector<uint64_t> keysOf(const json& side) {
    std::vector<uint64_t> k;
    for (const json& x : side["keys"]) k.push_back(x.get<uint64_t>());
    return k;
}
uint64_t digitAt(uint64_t key, uint32_t lo, uint32_t hi) {
    return (key >> lo) & ((1ull << (hi - lo)) - 1);
}
uint64_t withDigit(const std::vector<uint64_t>& k, uint32_t lo, uint32_t hi, uint64_t d) {
    return uint64_t(std::count_if(k.begin(), k.end(), [&](uint64_t x) { return digitAt(x, lo, hi) == d; }));
}
uint64_t stableIndex(const std::vector<uint64_t>& k, uint32_t lo, uint32_t hi, uint64_t i) {
    const uint64_t d = digitAt(k[i], lo, hi);
    uint64_t at = 0;
    for (uint64_t j = 0; j < k.size(); ++j) at += digitAt(k[j], lo, hi) < d || (digitAt(k[j], lo, hi) == d && j < i);
    return at;
}
std::vector<std::pair<uint32_t, uint32_t>> otherPasses(uint32_t lo, uint32_t hi) {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    const uint32_t w = hi - lo;
    if (lo >= w) out.emplace_back(lo - w, lo);
    if (hi + w <= 32) out.emplace_back(hi, hi + w);
    return out;
}

// One mistake the feedback may name: the words that name it, and whether the answer given is it.
struct Mistake {
    std::string name, phrase;
    bool is = false;
};

} // namespace

std::vector<std::string> feedbackFailures(const std::string& path, uint64_t tileKeys,
                                          const std::vector<std::string>& expect) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::vector<json> records;
    for (std::string line; std::getline(in, line);) records.push_back(json::parse(line));
    std::vector<std::string> fails, seen;
    size_t answers = 0;
    for (size_t r = 0; r < records.size(); ++r) {
        const json& rec = records[r];
        if (!rec.contains("question") || rec["given"].is_null() || rec["right"].is_null()) continue;
        ++answers;
        const std::string kind = rec["question"]["kind"], result = rec["result"];
        const int64_t given = rec["given"];
        const uint64_t right = rec["right"], arg = rec["question"]["arg"];
        const std::vector<uint64_t> before = rec.contains("before") ? keysOf(rec["before"]) : std::vector<uint64_t>{};
        const uint64_t n = before.size();
        const std::string at =
            path + ":" + std::to_string(r + 1) + " (" + kind + ", said " + std::to_string(given) + ")";
        const uint64_t g = given < 0 ? UINT64_MAX : uint64_t(given);
        std::vector<Mistake> m;
        uint64_t least = 0, most = 0;
        std::string range; // the words of why the number is impossible
        const uint32_t lo = rec["after"].value("bit_lo", 0u), hi = rec["after"].value("bit_hi", 0u);
        if (kind == "swaps") {
            const uint64_t L = rec["step"].get<uint64_t>() + 1;
            const Pairs c = realComparators(n, L);
            uint64_t N = 1, S = 0, U = 0, E = 0;
            while (N < n) N *= 2;
            for (auto [a, b] : c) S += before[a] > before[b], U += before[a] < before[b], E += before[a] == before[b];
            if (S != right)
                fails.push_back(at + ": layer " + std::to_string(L) + " swaps " + std::to_string(S) +
                                " here, the app says " + std::to_string(right));
            most = c.size();
            range = given < 0 ? "never negative" : "only " + std::to_string(c.size()) + " comparator";
            m.push_back({"every", "counts every comparator of layer", g == c.size()});
            m.push_back({"dashed", " dashed comparators too, which are skipped", g == batcherLayer(N, L).size()});
            m.push_back({"upside", "read upside down", g == U});
            m.push_back({"equal", "equal keys stay", E > 0 && g == S + E});
            m.push_back({"moved", "each swap moves two", S > 0 && g == 2 * S});
            m.push_back({"inorder", " key first, as ", g > S && g < S + U}); // some in order taken for swaps
            bool prev = false; // the layer before: a record whose keys after are these keys before
            for (const json& o : records)
                if (o.contains("question") && o["question"]["kind"] == "swaps" && keysOf(o["after"]) == before &&
                    o["step"].get<uint64_t>() + 2 == L) {
                    const auto ob = keysOf(o["before"]), oa = keysOf(o["after"]);
                    uint64_t changed = 0;
                    for (uint64_t i = 0; i < n; ++i) changed += ob[i] != oa[i];
                    prev = prev || g == changed / 2;
                }
            m.push_back({"prev", ", the layer before.", prev});
            if (right == 0) {                      // a layer where nothing swaps shows its pairs, each in order
                const std::string nbsp = "\u00a0"; // a comparison is never wrapped in two
                bool pairs = result.find("None of layer") != std::string::npos;
                for (size_t i = 0; i < c.size() && i < 8; ++i)
                    pairs = pairs && result.find(std::to_string(c[i].first) + "-" + std::to_string(c[i].second) + nbsp +
                                                 "(" + std::to_string(before[c[i].first]) +
                                                 (before[c[i].first] == before[c[i].second] ? nbsp + "=" + nbsp
                                                                                            : nbsp + "<" + nbsp) +
                                                 std::to_string(before[c[i].second]) + ")") != std::string::npos;
                if (!pairs)
                    fails.push_back(at + ": a layer where nothing swaps without each pair in order: " + result);
                else
                    seen.push_back("swaps:none");
            }
        } else if (kind == "where") {
            const std::vector<uint64_t> bv = rec["before"]["values"], av = rec["after"]["values"];
            const uint64_t w = uint64_t(std::find(av.begin(), av.end(), bv[arg]) - av.begin());
            if (w != right)
                fails.push_back(at + ": the key went to " + std::to_string(w) + ", the app says " +
                                std::to_string(right));
            most = n - 1;
            range = given < 0 ? "indices start at 0" : "at indices 0 to " + std::to_string(n - 1);
            // The key's value given for its index: named first, so the only mistake named when it fits.
            const bool value = g == before[arg] && before[arg] != right;
            m.push_back({"value", "the key's value", value});
            if (value && result.find("the key's value") == std::string::npos)
                fails.push_back(at + ": the key's value given for its index, not named first: " + result);
            m.push_back({"from1", "counted from 1", !value && g == right + 1});
            if (rec["after"].value("kind", "") == "layer") {
                const uint64_t L = rec["step"].get<uint64_t>() + 1;
                const auto p = partner(n, L, arg);
                const uint64_t other = !p ? arg : right == arg ? *p : arg;
                m.push_back({"upside", "read upside down", p && g == other && before[arg] != before[*p]});
                const auto pb = L > 1 ? partner(n, L - 1, arg) : std::nullopt, pa = partner(n, L + 1, arg);
                m.push_back({"stride", "'s partner in layer", (pb && g == *pb) || (pa && g == *pa)});
                m.push_back({"along", "moves a key only along its comparator", p && g < n && g != arg && g != *p});
            } else {
                const uint64_t d = digitAt(before[arg], lo, hi);
                uint64_t S = 0, h = 0, B = 0, R = 0;
                for (uint64_t j = 0; j < n; ++j) {
                    const uint64_t dj = digitAt(before[j], lo, hi);
                    S += dj < d;
                    h += dj == d;
                    B += dj == d && j / tileKeys < arg / tileKeys;
                    R += dj == d && j / tileKeys == arg / tileKeys && j < arg;
                }
                if (S + B + R != right)
                    fails.push_back(at + ": start + earlier + rank is " + std::to_string(S + B + R));
                m.push_back({"stays", "is where it is now", g == arg});
                m.push_back({"earlier", " leaves out the ", B > 0 && g == S + R});
                m.push_back({"digitorder", " reverses the ", h > 1 && g == S + h - 1 - B - R});
                m.push_back({"rank", "start; this key comes after", R > 0 && g == S + B});
                m.push_back({"start", ", where digit ", S > 0 && g == B + R});
                m.push_back({"inclusive", "(an inclusive prefix)", g == right + h});
                m.push_back({"reverse", "puts the buckets in reverse", S + h <= n && g == n - S - h + B + R});
                bool other = false;
                for (auto [l, hh] : otherPasses(lo, hi)) other = other || g == stableIndex(before, l, hh, arg);
                m.push_back({"otherpass", "is where a pass on bits", other});
            }
        } else if (kind == "count") {
            const uint64_t w = hi - lo;
            if (withDigit(before, lo, hi, arg) != right) fails.push_back(at + ": the count recounted differs");
            most = n;
            range = given < 0 ? "never negative" : "only " + std::to_string(n) + " keys";
            bool other = false, nibble = false, group = false;
            bool also = false; // the right keys and those with digit arg at the other bits too
            for (auto [l, hh] : otherPasses(lo, hi)) {
                other = other || g == withDigit(before, l, hh, arg);
                uint64_t all = 0;
                for (uint64_t x : before) all += digitAt(x, lo, hi) == arg || digitAt(x, l, hh) == arg;
                also = also || (all > right && g == all);
            }
            if (w == 8 && arg < 16)
                for (uint32_t l : {lo, lo + 4}) nibble = nibble || g == withDigit(before, l, l + 4, arg);
            uint64_t below = 0;
            for (uint64_t e = 0; e < arg; ++e) below += withDigit(before, lo, hi, e);
            for (uint64_t t = 0; t * tileKeys < n; ++t) {
                uint64_t c = 0;
                for (uint64_t j = t * tileKeys; j < std::min(n, (t + 1) * tileKeys); ++j)
                    c += digitAt(before[j], lo, hi) == arg;
                group = group || (n > tileKeys && g == c);
            }
            m.push_back({"otherpass", "'s digit; pass", other});
            m.push_back({"nibble", " alone; pass", nibble});
            m.push_back({"alsoother", " also counts ", also});
            m.push_back(
                {"beside", "the column beside",
                 (arg > 0 && g == withDigit(before, lo, hi, arg - 1)) || g == withDigit(before, lo, hi, arg + 1)});
            m.push_back({"below", " starts, not how many", arg > 0 && g == below});
            m.push_back({"upto", " ends.", g == below + right});
            m.push_back({"workgroup", "count alone", group});
        } else if (kind == "depth") {
            least = 1;
            most = arg;
            range = g < 1 ? "reads at least tile" : "only " + std::to_string(arg) + " tile";
        }
        // Impossible: named so, with why, and only then.
        const bool outside = given < int64_t(least) || g > most;
        const std::string verdict = kind == "depth" ? "cannot happen" : "Impossible:";
        if (outside != (result.find(verdict) != std::string::npos))
            fails.push_back(at + ": " + (outside ? "an impossible answer not called so: " : "called impossible: ") +
                            result);
        else if (outside && result.find(range) == std::string::npos)
            fails.push_back(at + ": impossible, but not why (\"" + range + "\"): " + result);
        else if (outside)
            seen.push_back(kind + ":impossible");
        // Each mistake named is the answer's; and where the answer is one, one is named.
        bool any = false, named = false;
        for (const Mistake& x : m) {
            const bool says = result.find(x.phrase) != std::string::npos;
            if (says && !x.is) fails.push_back(at + ": names '" + x.name + "', which this answer is not: " + result);
            if (says && x.is) seen.push_back(kind + ":" + x.name);
            any = any || x.is;
            named = named || (says && x.is);
        }
        if (g != right && any && !named) {
            std::string which;
            for (const Mistake& x : m)
                if (x.is) which += " " + x.name;
            fails.push_back(at + ": recognises none of its mistakes (" + which + " ): " + result);
        }
    }
    for (const std::string& e : expect)
        if (std::find(seen.begin(), seen.end(), e) == seen.end())
            fails.push_back(path + ": no answer showed the mistake " + e);
    if (answers == 0) fails.push_back(path + ": no answered question");
    return fails;
}
