// A lesson question's answer, read from the GPU's buffers, with how the GPU got it from what the
// views show (the feedback's arithmetic) and the cells that arithmetic uses; and what a wrong answer
// is told: the mistakes whose number it is, worked out from the same step's keys and buffers, or
// why no answer can be that number.
//
// [SECTION] Helpers
// [SECTION] swaps: how many comparators of a layer swap
// [SECTION] where: the index a key goes to
// [SECTION] count: keys with a digit
// [SECTION] depth: how far a lookback walk goes
// [SECTION] The answer and the feedback
#include <sortlab/app/lesson.h>

#include <sortlab/data.h>
#include <sortlab/oddeven.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>

namespace sortlab::app {
namespace {

// [SECTION] Helpers ---------------------------------------------------------------------------------

using ull = unsigned long long;
using Pairs = std::vector<std::pair<uint64_t, uint64_t>>;

std::string num(uint64_t x) {
    return std::to_string(x);
}
std::string plural(uint64_t x, const std::string& one, const std::string& many) {
    return num(x) + " " + (x == 1 ? one : many);
}

std::string hexDigit(uint32_t d, uint32_t bits) {
    char buf[16];
    std::snprintf(buf, sizeof buf, bits > 4 ? "%02X" : "%X", d);
    return buf;
}

std::string bitsName(uint32_t lo, uint32_t hi) {
    return "bits " + num(lo) + ".." + num(hi - 1);
}

// The digit of key i at bits [lo, hi).
uint32_t digitOf(const Snapshot& s, uint64_t i, const SortSettings& set, uint32_t lo, uint32_t hi) {
    return uint32_t((orderBitsAt(s.keys.data(), i, set.key, set.order) >> lo) & ((1ull << (hi - lo)) - 1));
}

// The key with its hex digits up to bit `hi`, e.g. "21 (15)", "10 (000A)" in a pass on bits 8..15
// (integers; other types as they are).
std::string keyWithHex(const Snapshot& s, uint64_t i, KeyType t, uint32_t hi) {
    std::string k = formatKey(s.keys, i, t);
    if (t != KeyType::u32 && t != KeyType::u64) return k;
    char buf[40];
    std::snprintf(buf, sizeof buf, " (%0*llX)", int(std::max(2u, (hi + 3) / 4)),
                  ull(orderBitsAt(s.keys.data(), i, t, Order::ascending)));
    return k + buf;
}

// Keys x and y as numbers, with how they compare: "25 > 10", "10 = 10", with no-break spaces (the
// lesson panel wraps at plain spaces only), so that a comparison is never cut in two.
std::string relation(const Snapshot& s, uint64_t x, uint64_t y, KeyType t) {
    const uint64_t bx = orderBitsAt(s.keys.data(), x, t, Order::ascending),
                   by = orderBitsAt(s.keys.data(), y, t, Order::ascending);
    const char* nbsp = "\u00a0";
    return formatKey(s.keys, x, t) + nbsp + (bx < by ? "<" : bx > by ? ">" : "=") + nbsp + formatKey(s.keys, y, t);
}

// A comparator with its keys: "6-7 (68 > 23)", in one piece too.
std::string pairWith(const Snapshot& s, uint64_t x, uint64_t y, KeyType t) {
    return num(x) + "-" + num(y) + "\u00a0(" + relation(s, x, y, t) + ")";
}

// Whether key x comes after key y in the sort's order (a comparator x-y swaps them).
bool after(const Snapshot& s, uint64_t x, uint64_t y, const SortSettings& set) {
    return orderBitsAt(s.keys.data(), x, set.key, set.order) > orderBitsAt(s.keys.data(), y, set.key, set.order);
}
bool sameKey(const Snapshot& s, uint64_t x, uint64_t y, const SortSettings& set) {
    return orderBitsAt(s.keys.data(), x, set.key, set.order) == orderBitsAt(s.keys.data(), y, set.key, set.order);
}

// The key a comparator puts first, and the other: "smaller" and "larger" in ascending order.
const char* firstWord(const SortSettings& s) {
    return s.order == Order::ascending ? "smaller" : "larger";
}
const char* lastWord(const SortSettings& s) {
    return s.order == Order::ascending ? "larger" : "smaller";
}

// The step that produced `after` (null for the input).
const Step* stepOf(const StepData& after, const JobInfo& job) {
    if (!job.plan || after.step == 0 || after.step > job.plan->steps.size()) return nullptr;
    return &job.plan->steps[after.step - 1];
}

// Odd-even: the comparators of the layer the step ran (one layer a step: the oddeven-layer variant).
Pairs comparatorsOf(const Step& st, uint64_t n) {
    Pairs out;
    if (st.kind != StepKind::layer) return out;
    const auto layers = oddeven::layers(n);
    for (uint32_t l = st.firstLayer; l < st.firstLayer + st.layerCount && l < layers.size(); ++l)
        oddeven::forEachComparator(n, layers[l], [&](uint64_t a, uint64_t b) { out.emplace_back(a, b); });
    return out;
}

// Index i's other end in layer l of the network for n keys (none: no comparator of it touches i).
std::optional<uint64_t> partnerIn(uint64_t n, uint32_t l, uint64_t i) {
    const auto layers = oddeven::layers(n);
    std::optional<uint64_t> p;
    if (l < layers.size())
        oddeven::forEachComparator(n, layers[l], [&](uint64_t a, uint64_t b) {
            if (a == i) p = b;
            if (b == i) p = a;
        });
    return p;
}

bool keysDiffer(const Snapshot& x, const Snapshot& y, uint64_t i, size_t kb) {
    return std::memcmp(x.keys.data() + i * kb, y.keys.data() + i * kb, kb) != 0;
}

// A slip is worth telling only when its number is not the answer.
void addSlip(Answer& a, uint64_t value, std::string why, bool alone = false) {
    if (value != a.value) a.slips.push_back({value, std::move(why), alone});
}

// The other digit positions a pass on [lo, hi) could be confused with: the passes before and after.
std::vector<std::pair<uint32_t, uint32_t>> otherPasses(uint32_t lo, uint32_t hi, KeyType t) {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    const uint32_t w = hi - lo;
    if (lo >= w) out.emplace_back(lo - w, lo);
    if (hi + w <= keyBits(t)) out.emplace_back(hi, hi + w);
    return out;
}

// Keys of `s` with digit d at bits [lo, hi).
uint64_t keysWithDigit(const Snapshot& s, const SortSettings& set, uint32_t lo, uint32_t hi, uint64_t d) {
    uint64_t c = 0;
    for (uint64_t i = 0; i < set.n; ++i) c += digitOf(s, i, set, lo, hi) == d;
    return c;
}

// Where a stable pass on bits [lo, hi) puts key i of `s`: the keys of smaller digits, then those of
// its digit before it.
uint64_t stableIndex(const Snapshot& s, const SortSettings& set, uint32_t lo, uint32_t hi, uint64_t i) {
    const uint32_t d = digitOf(s, i, set, lo, hi);
    uint64_t at = 0;
    for (uint64_t j = 0; j < set.n; ++j) {
        const uint32_t dj = digitOf(s, j, set, lo, hi);
        at += dj < d || (dj == d && j < i);
    }
    return at;
}

// [SECTION] swaps: how many comparators of a layer swap ---------------------------------------------

// How many comparators of layer l (from 0) swapped, from the input: the network does not depend on
// the keys, so the CPU model runs layers 0..l on a copy (none without the input, or for many keys).
std::optional<uint64_t> swapsOfLayer(const JobInfo& job, uint32_t l) {
    const SortSettings& s = job.settings;
    if (!job.inputKeys || s.n > (1u << 16) || job.inputKeys->size() < s.n * keyBytes(s.key)) return std::nullopt;
    std::vector<std::byte> keys(job.inputKeys->begin(), job.inputKeys->begin() + s.n * keyBytes(s.key));
    oddeven::applyLayers(keys, {}, s.key, s.order, s.n, 0, l);
    return oddeven::applyLayers(keys, {}, s.key, s.order, s.n, l, l + 1);
}

// A step that is not one network layer: the positions whose key changed, halved.
Answer changedPositions(const StepData& d, const JobInfo& job) {
    const uint64_t n = job.settings.n;
    const size_t kb = keyBytes(job.settings.key);
    Answer a;
    uint64_t changed = 0;
    for (uint64_t i = 0; i < n; ++i)
        if (keysDiffer(*d.snapshot, *d.previous, i, kb)) ++changed, a.keys.push_back(i);
    a.value = changed / 2;
    a.how = num(changed) + " positions changed: " + num(a.value) + " swaps.";
    a.most = n / 2;
    a.aboveMost = num(n) + " keys make at most " + num(n / 2) + " swaps";
    a.belowLeast = "a count is never negative";
    return a;
}

// The likely mistakes of a `swaps` answer about one layer (`L` from 1), the most particular first
// (the feedback tells the first that fits): equal keys counted as swaps, the comparators read upside
// down, the layer before, the keys that move, some comparators in order counted as swaps, every
// comparator counted, the dashed ones too.
void swapsSlips(Answer& a, const StepData& d, const JobInfo& job, const Step& st, const Pairs& comparators) {
    const Snapshot& before = *d.previous;
    const SortSettings& set = job.settings;
    const uint64_t n = set.n, C = comparators.size(), S = a.value;
    const uint32_t L = st.firstLayer + 1;
    uint64_t inOrder = 0, equal = 0;
    std::string equalPair, inOrderPair;
    for (auto [x, y] : comparators) {
        if (sameKey(before, x, y, set)) {
            if (++equal == 1) equalPair = pairWith(before, x, y, set.key);
        } else if (!after(before, x, y, set)) {
            if (++inOrder == 1) inOrderPair = pairWith(before, x, y, set.key);
        }
    }
    const uint64_t padded =
        oddeven::comparatorsInLayer(uint64_t(1) << oddeven::log2Ceil(n), oddeven::layers(n)[st.firstLayer]);
    a.most = C;
    a.aboveMost = "layer " + num(L) + " has only " + plural(C, "comparator", "comparators") +
                  (padded > C ? " within the " + num(n) + " keys" : "");
    a.belowLeast = "a count is never negative";
    if (equal)
        addSlip(a, S + equal,
                num(S + equal) + " counts " +
                    (equal == 1
                         ? "comparator " + equalPair + " as a swap"
                         : "the " + num(equal) + " comparators with equal keys, as " + equalPair + ", as swaps") +
                    "; equal keys stay.");
    const std::string those = inOrder == 0 ? "none" : inOrder == 1 ? "it" : "those";
    addSlip(a, inOrder,
            (inOrder == 0 ? "No comparator holds its " + std::string(firstWord(set)) + " key first, so"
                          : plural(inOrder, "comparator holds its ", "comparators hold their ") + firstWord(set) +
                                " key first:") +
                " read upside down (" + lastWord(set) + " first), " + those + " would swap.");
    if (L > 1)
        if (const auto prev = swapsOfLayer(job, L - 2))
            addSlip(a, *prev,
                    plural(*prev, "comparator", "comparators") + " swapped in layer " + num(L - 1) +
                        ", the layer before.");
    if (S) addSlip(a, 2 * S, num(2 * S) + " counts the keys that move; each swap moves two.");
    // Some, not all, of the comparators in order taken for swaps (one read the wrong way round).
    for (uint64_t k = 1; k < inOrder; ++k)
        addSlip(a, S + k,
                num(S + k) + " counts " +
                    (k == 1 ? std::string("a comparator that holds its ") + firstWord(set) + " key first"
                            : num(k) + " comparators that hold their " + firstWord(set) + " key first") +
                    ", as " + inOrderPair + ", as " + (k == 1 ? "a swap" : "swaps") +
                    "; a comparator swaps only when its first key is " + lastWord(set) + ".");
    addSlip(a, C,
            num(C) + " counts every comparator of layer " + num(L) + "; one swaps only if its first key is " +
                lastWord(set) + ".");
    if (padded > C)
        addSlip(a, padded,
                num(padded) + " counts the " + num(padded - C) + " dashed comparators too, which are skipped.");
}

Result<Answer> swapsAnswer(const StepData& d, const JobInfo& job) {
    const Snapshot &now = *d.snapshot, &before = *d.previous;
    const SortSettings& set = job.settings;
    const size_t kb = keyBytes(set.key);
    const Step* st = stepOf(d, job);
    const Pairs comparators = st ? comparatorsOf(*st, set.n) : Pairs{};
    if (comparators.empty()) return changedPositions(d, job);
    Answer a;
    std::string swapped, held;
    uint64_t heldListed = 0;
    bool equal = false;
    for (auto [x, y] : comparators) {
        const std::string pair = pairWith(before, x, y, set.key);
        if (!keysDiffer(now, before, x, kb)) {
            equal = equal || sameKey(before, x, y, set);
            if (++heldListed <= 8) held += (held.empty() ? "" : ", ") + pair;
            continue;
        }
        ++a.value;
        a.keys.push_back(x);
        a.keys.push_back(y);
        if (a.value <= 8) swapped += (swapped.empty() ? "" : ", ") + pair;
    }
    const std::string layer = st->layerCount == 1 ? "layer " + num(st->firstLayer + 1) + "'s" : "the step's";
    const std::string all = num(comparators.size()) + (comparators.size() == 1 ? " comparator" : " comparators");
    if (a.value == 0) // why none swapped: each pair already in order
        a.how = "None of " + layer + " " + all + " swapped: each held its " + firstWord(set) + " key first" +
                (equal ? " or two equal keys: " : ": ") + held + (heldListed > 8 ? ", ..." : "") + ".";
    else
        a.how = num(a.value) + " of " + layer + " " + all + " found the first key " + lastWord(set) +
                " and swapped: " + swapped + (a.value > 8 ? ", ..." : "") + ".";
    if (st->layerCount == 1)
        swapsSlips(a, d, job, *st, comparators);
    else {
        a.most = comparators.size();
        a.aboveMost = "the step has only " + all;
        a.belowLeast = "a count is never negative";
    }
    return a;
}

// [SECTION] where: the index a key goes to -----------------------------------------------------------

// A layer: the comparator at index i, the other end, or the layers before and after it.
void layerWhereSlips(Answer& a, const StepData& d, const JobInfo& job, const Step& st, uint64_t i,
                     std::optional<std::pair<uint64_t, uint64_t>> comparator) {
    const Snapshot& before = *d.previous;
    const SortSettings& set = job.settings;
    const uint64_t n = set.n;
    const std::string key = formatKey(before.keys, i, set.key);
    if (comparator) {
        const auto [x, y] = *comparator;
        const uint64_t other = a.value == i ? (x == i ? y : x) : i; // where the other outcome puts it
        const std::string c = "comparator " + num(x) + "-" + num(y), rel = relation(before, x, y, set.key);
        if (sameKey(before, x, y, set))
            addSlip(a, other,
                    num(other) + " is " + c + "'s other end: it swaps only when its first key is strictly " +
                        lastWord(set) + ", and " + rel + ".");
        else if (a.value == i)
            addSlip(a, other,
                    num(other) + " is " + c +
                        "'s other end: the key would go there only if the comparator were read upside down (" +
                        lastWord(set) + " key first).");
        else
            addSlip(a, other,
                    num(other) + " is where " + key + " is now: it would stay only if " + c +
                        " were read upside down (" + lastWord(set) + " key first).");
        a.otherwise = "A layer moves a key only along its comparator, here " + num(x) + "-" + num(y) + ": the key " +
                      key + " ends at " + num(x) + " or " + num(y) + ".";
    } else {
        a.otherwise = "No comparator of layer " + num(st.firstLayer + 1) + " touches index " + num(i) +
                      ", so the key " + key + " stays there.";
    }
    if (st.layerCount != 1) return;
    const auto layers = oddeven::layers(n);
    const uint32_t l = st.firstLayer;
    const std::string here = comparator ? "layer " + num(l + 1) + " pairs it with " +
                                              num(comparator->first == i ? comparator->second : comparator->first)
                                        : "layer " + num(l + 1) + " has no comparator at " + num(i);
    auto stride = [&](uint32_t m) { return " (stride " + num(uint64_t(1) << layers[m].logK) + ")"; };
    for (const uint32_t m : {l - 1, l + 1}) { // l - 1 wraps past the first layer: no such layer
        if (m >= layers.size()) continue;
        if (const auto p = partnerIn(n, m, i))
            addSlip(a, *p,
                    num(*p) + " is index " + num(i) + "'s partner in layer " + num(m + 1) + stride(m) +
                        (m < l ? ", the layer before" : ", the layer after") + "; " + here + ".");
    }
}

// A radix scatter: new index = start + before + rank, and what leaving out or changing a term gives.
void radixWhereSlips(Answer& a, const StepData& d, const JobInfo& job, const Step& st, const RadixPlace& p,
                     uint64_t i) {
    const Snapshot& before = *d.previous;
    const SortSettings& set = job.settings;
    const uint64_t n = set.n, S = p.start, B = p.before, R = p.rank;
    const uint32_t w = st.bitHi - st.bitLo;
    const std::string D = hexDigit(p.digit, w), g = p.tiles ? "tile" : "workgroup";
    const uint64_t h = keysWithDigit(before, set, st.bitLo, st.bitHi, p.digit);
    if (a.value != i)
        addSlip(a, i,
                num(i) + " is where it is now; the " + (p.tiles ? "pass" : "scatter") +
                    " writes every key to its digit's bucket.");
    if (R)
        addSlip(a, S + B,
                num(S + B) + " is where " + g + " " + num(p.group) + "'s keys of digit " + D +
                    " start; this key comes after " + num(R) + " of them.");
    if (B)
        addSlip(a, S + R,
                num(S) + " + " + num(R) + " = " + num(S + R) + " leaves out the " + plural(B, "key", "keys") +
                    " of digit " + D + " in earlier " + g + "s.");
    if (S)
        addSlip(a, B + R,
                num(B) + " + " + num(R) + " = " + num(B + R) + " leaves out " + num(S) + ", where digit " + D +
                    " starts: the keys of smaller digits come first.");
    if (h > 1 && B + R < h) { // the keys of its digit taken in reverse order (21 put before 5)
        const std::string key = formatKey(before.keys, i, set.key);
        addSlip(a, S + (h - 1 - B - R),
                num(S + (h - 1 - B - R)) + " reverses the " + num(h) + " keys of digit " + D +
                    ": the scatter keeps them in the order they came (it is stable), and " +
                    (B + R == 0 ? key + " came first of them." : num(B + R) + " of them came before " + key + "."));
    }
    addSlip(a, a.value + h,
            num(S + h) + " + " + num(B) + " + " + num(R) + " = " + num(a.value + h) + " starts digit " + D +
                "'s bucket at " + num(S + h) + ", the keys of digits up to " + D +
                " (an inclusive prefix); the bucket starts at " + num(S) + ", the keys of smaller digits.");
    if (S + h <= n)
        addSlip(a, n - S - h + B + R,
                num(n - S - h) + " + " + num(B) + " + " + num(R) + " = " + num(n - S - h + B + R) +
                    " puts the buckets in reverse order, the largest digit's first; bucket 0 comes first.");
    for (auto [lo, hi] : otherPasses(st.bitLo, st.bitHi, set.key))
        addSlip(a, stableIndex(before, set, lo, hi, i),
                num(stableIndex(before, set, lo, hi, i)) + " is where a pass on " + bitsName(lo, hi) +
                    " (its digit there: " + hexDigit(digitOf(before, i, set, lo, hi), w) +
                    ") would put it; this pass reads " + bitsName(st.bitLo, st.bitHi) + ", where its digit is " + D +
                    ".");
}

// The feedback of a radix `where`: the key's index as the pass built it.
void explainRadixWhere(Answer& a, const StepData& d, const JobInfo& job, const Step& st, uint64_t from) {
    const auto p = radixPlace(*d.snapshot, job, st, from, a.value);
    if (!p) return;
    const std::string D = hexDigit(p->digit, st.bitHi - st.bitLo), g = p->tiles ? "tile" : "workgroup";
    a.how = num(a.value) + " = " + num(p->start) + " (digit " + D + " starts) + " + num(p->before) + " (digit-" + D +
            " keys in " + (p->group == 0 ? "no earlier " + g : "earlier " + g + "s") + ") + " + num(p->rank) +
            " (its rank in " + g + " " + num(p->group) + ").";
    a.digit = p->digit;
    a.workgroup = p->group;
    radixWhereSlips(a, d, job, st, *p, from);
}

Result<Answer> whereAnswer(const Question& q, const StepData& d, const JobInfo& job) {
    const Snapshot &now = *d.snapshot, &before = *d.previous;
    const uint64_t n = job.settings.n;
    if (q.arg >= n) return makeError(Errc::invalid_argument, "no key at index " + num(q.arg));
    if (now.values.size() != n || before.values.size() != n)
        return makeError(Errc::invalid_argument, "'where' follows a key by its value: the lesson needs @values u32");
    Answer a;
    bool found = false;
    for (uint64_t j = 0; j < n && !found; ++j)
        if (now.values[j] == before.values[q.arg]) a.value = j, found = true;
    if (!found) return makeError(Errc::invalid_argument, "the key's value is gone (the GPU lost it)");
    a.keys.push_back(a.value);
    a.most = n - 1;
    a.aboveMost = "the " + num(n) + " keys are at indices 0 to " + num(n - 1);
    a.belowLeast = "indices start at 0";
    // First: the key's own value given for its index (a key that is a whole number).
    const std::string keyText = formatKey(before.keys, q.arg, job.settings.key);
    uint64_t keyValue = 0;
    if (const auto r = std::from_chars(keyText.data(), keyText.data() + keyText.size(), keyValue);
        r.ec == std::errc() && r.ptr == keyText.data() + keyText.size())
        addSlip(a, keyValue,
                "You gave the key's value (" + keyText + "), not its index: the question asks where it ends.", true);
    addSlip(a, a.value + 1, num(a.value + 1) + " is index " + num(a.value) + " counted from 1; indices start at 0.");
    const Step* st = stepOf(d, job);
    if (!st) return a;
    const std::string key = formatKey(before.keys, q.arg, job.settings.key);
    for (auto [x, y] : comparatorsOf(*st, n)) {
        if (x != q.arg && y != q.arg) continue;
        const bool swapped = a.value != q.arg;
        const std::string rel = relation(before, x, y, job.settings.key);
        a.how = "Comparator " + num(x) + "-" + num(y) + " held " + formatKey(before.keys, x, job.settings.key) +
                " and " + formatKey(before.keys, y, job.settings.key) +
                (swapped ? ": " + rel + ", so they swapped." : ": " + rel + ", in order, so " + key + " stayed.");
        layerWhereSlips(a, d, job, *st, q.arg, std::pair{x, y});
        return a; // the key's outline follows it to where it went
    }
    if (st->kind == StepKind::layer) {
        a.how = "No comparator of this layer touches index " + num(q.arg) + ": " + key + " stayed.";
        layerWhereSlips(a, d, job, *st, q.arg, std::nullopt);
        a.otherwise.clear(); // the arithmetic says it already
        return a;
    }
    explainRadixWhere(a, d, job, *st, q.arg);
    return a;
}

// [SECTION] count: keys with a digit ----------------------------------------------------------------

// The likely mistakes of a `count` answer, in the order the feedback looks for the first that fits:
// the digit read from other bits (another pass's, or one hex digit of an 8-bit one), the keys with
// the digit there counted too, one
// workgroup's count alone, the column beside it, where the bucket starts or ends instead of its size.
void countSlips(Answer& a, const StepData& d, const JobInfo& job, uint32_t lo, uint32_t hi, uint64_t digit) {
    const Snapshot &now = *d.snapshot, &keys = *d.previous;
    const SortSettings& set = job.settings;
    const uint32_t w = hi - lo;
    const std::string D = hexDigit(uint32_t(digit), w), pass = "pass " + num(lo / w);
    for (auto [l, h] : otherPasses(lo, hi, set.key)) {
        const uint64_t c = keysWithDigit(keys, set, l, h, digit);
        addSlip(a, c,
                plural(c, "key has", "keys have") + " digit " + D + " at " + bitsName(l, h) + ", pass " + num(l / w) +
                    "'s digit; " + pass + " reads " + bitsName(lo, hi) + ".");
    }
    // The right keys plus those whose other digit is D (92, hex 5C, counted for digit 5 of bits 0..3).
    for (auto [l, h] : otherPasses(lo, hi, set.key)) {
        uint64_t all = 0, extra = 0;
        std::string which;
        for (uint64_t i = 0; i < set.n; ++i) {
            const bool here = digitOf(keys, i, set, lo, hi) == digit, there = digitOf(keys, i, set, l, h) == digit;
            all += here || there;
            if (here || !there) continue;
            if (++extra <= 3) which += (which.empty() ? "" : ", ") + keyWithHex(keys, i, set.key, std::max(hi, h));
        }
        if (extra)
            addSlip(a, all,
                    num(all) + " also counts " + (extra > 3 ? which + " and more" : which) + ": digit " + D + " at " +
                        bitsName(l, h) + " is pass " + num(l / w) + "'s, and " + pass + " reads only " +
                        bitsName(lo, hi) + ".");
    }
    if (w == 8 && digit < 16)
        for (const uint32_t l : {lo, lo + 4}) {
            const uint64_t c = keysWithDigit(keys, set, l, l + 4, digit);
            addSlip(a, c,
                    plural(c, "key has", "keys have") + " hex digit " + hexDigit(uint32_t(digit), 4) + " at " +
                        bitsName(l, l + 4) + " alone; " + pass + "'s digit is " + bitsName(lo, hi) +
                        ", two hex digits.");
        }
    if (const Snapshot::Aux* c = now.find(AuxKind::digitCounts); c && c->shape.size() >= 2 && c->shape[1] > 1) {
        const uint32_t W = c->shape[1];
        std::vector<uint64_t> told;
        for (uint32_t g = 0; g < W && digit * W + g < c->data.size(); ++g) {
            const uint64_t v = c->data[digit * W + g];
            if (std::find(told.begin(), told.end(), v) != told.end()) continue;
            told.push_back(v);
            addSlip(a, v,
                    num(v) + " is workgroup " + num(g) + "'s count alone; the histogram adds the " + num(W) +
                        " workgroups' counts.");
        }
    }
    const Snapshot::Aux* hist = now.find(AuxKind::histogram);
    if (!hist || digit >= hist->data.size()) return;
    const auto& H = hist->data;
    for (const uint64_t e : {digit - 1, digit + 1}) // digit - 1 wraps past digit 0: no such column
        if (e < H.size())
            addSlip(a, H[e],
                    plural(H[e], "key has", "keys have") + " digit " + hexDigit(uint32_t(e), w) +
                        ", the column beside " + D + ".");
    uint64_t below = 0;
    for (uint64_t e = 0; e < digit; ++e) below += H[e];
    if (digit > 0)
        addSlip(a, below,
                plural(below, "key has", "keys have") + " a digit below " + D + ": that is where bucket " + D +
                    " starts, not how many keys it holds.");
    addSlip(a, below + H[digit],
            plural(below + H[digit], "key has", "keys have") + " a digit up to " + D + ": that is where bucket " + D +
                " ends.");
}

Result<Answer> countAnswer(const Question& q, const StepData& d, const JobInfo& job) {
    const Snapshot& now = *d.snapshot;
    const Snapshot::Aux* h = now.find(AuxKind::histogram);
    if (!h || q.arg >= h->data.size())
        return makeError(Errc::invalid_argument,
                         "the step after the question has no histogram with digit " + num(q.arg));
    Answer a;
    a.value = h->data[q.arg];
    a.digit = q.arg;
    a.most = job.settings.n;
    a.aboveMost = "only " + num(job.settings.n) + " keys are sorted, so no digit has more";
    a.belowLeast = "a count is never negative";
    const Step* st = stepOf(d, job);
    uint32_t lo = 0, hi = 0;
    if (st && st->bitHi > st->bitLo)
        lo = st->bitLo, hi = st->bitHi;
    else if (job.plan) // OneSweep's histogram step counts every pass's digits; "histogram" is pass 0's
        for (const Step& p : job.plan->steps)
            if (p.bitHi > p.bitLo) {
                lo = p.bitLo, hi = p.bitHi;
                break;
            }
    const std::string D = hi > lo ? hexDigit(uint32_t(q.arg), hi - lo) : num(q.arg);
    std::string sum, groups;
    if (const Snapshot::Aux* c = now.find(AuxKind::digitCounts); c && c->shape.size() >= 2 && c->shape[1] <= 16) {
        const uint32_t W = c->shape[1];
        for (uint32_t w = 0; w < W && q.arg * W + w < c->data.size(); ++w)
            sum += std::string(w ? " + " : " = ") + num(c->data[q.arg * W + w]);
        sum += " (workgroups 0.." + num(W - 1) + ")";
    }
    std::string keys;
    uint64_t listed = 0;
    if (hi > lo)
        for (uint64_t i = 0; i < job.settings.n; ++i) {
            if (digitOf(now, i, job.settings, lo, hi) != q.arg) continue;
            a.keys.push_back(i);
            if (++listed <= 8) keys += (keys.empty() ? "" : ", ") + keyWithHex(now, i, job.settings.key, hi);
        }
    a.how = "Column " + D + ": " + num(a.value) + sum + "." +
            (listed == job.settings.n && listed > 1 ? " Every key has digit " + D + " there."
             : keys.empty()                         ? std::string()
             : listed > 8                           ? " They include " + keys + "."
                                                    : " They are " + keys + ".");
    if (hi > lo && d.previous) countSlips(a, d, job, lo, hi, q.arg);
    return a;
}

// [SECTION] depth: how far a lookback walk goes ------------------------------------------------------

// OneSweep: how far tile T's walk went back for the replayed digit, in the pass shown. It depends on
// which workgroups ran first, so the lesson asks it as a prediction and never grades it. A walk
// starts at tile T - 1 and never steps past tile 0, whose words are inclusive prefixes at once
// (shaders/onesweep_lookback.glsl), so it goes 1 to T tiles back.
Result<Answer> depthAnswer(const Question& q, const StepData& d, const LookbackReplayChoice& replay) {
    const auto r = lookbackReplay(*d.snapshot, replay);
    if (!r)
        return makeError(Errc::invalid_argument,
                         "the step shown has no lookback log (a OneSweep pass with @lookback-log on)");
    if (q.arg == 0 || q.arg >= r->records.size())
        return makeError(Errc::invalid_argument,
                         "tile " + num(q.arg) + " has no walk (tiles 1.." + num(r->records.size() - 1) + ")");
    const LookbackWalk& w = r->records[q.arg].walks[r->digit];
    Answer a;
    a.value = w.depth();
    a.tile = q.arg;
    a.digit = r->digit;
    a.least = 1;
    a.most = q.arg;
    a.belowLeast = "tile " + num(q.arg) + "'s walk reads at least tile " + num(q.arg - 1) + ", the tile before it";
    a.aboveMost = "only " + plural(q.arg, "tile comes", "tiles come") + " before tile " + num(q.arg) +
                  ", and a walk never goes past tile 0";
    for (size_t e = 0; e < r->events.size(); ++e)
        if (r->events[e].tile == q.arg && r->events[e].kind == LookbackEventKind::published) a.replayShown = int(e + 1);
    const uint64_t end = q.arg >= a.value ? q.arg - a.value : 0;
    std::string parts;
    if (w.aggregates) parts += num(w.aggregates) + " aggregate" + (w.aggregates == 1 ? "" : "s");
    if (w.counted) parts += (parts.empty() ? "" : ", ") + num(w.counted) + " counted itself";
    if (w.inclusive)
        parts += (parts.empty() ? "" : ", then ") + std::string("tile ") + num(end) + "'s inclusive prefix";
    a.how = "This run: " + num(a.value) + " tile" + (a.value == 1 ? "" : "s") + " back" +
            (parts.empty() ? "" : " (" + parts + ")") + ".";
    if (a.replayShown && *a.replayShown > 0) {
        const std::string since = publishedSinceReadText(*r, uint32_t(q.arg), size_t(*a.replayShown));
        if (!since.empty()) a.how += " " + since;
    }
    a.how += " Scheduling decides it: another run may differ.";
    return a;
}

} // namespace

std::optional<RadixPlace> radixPlace(const Snapshot& after, const JobInfo& job, const Step& st, uint64_t from,
                                     uint64_t to) {
    const Snapshot::Aux* offsets = after.find(AuxKind::offsets);
    if (!offsets || st.bitHi <= st.bitLo || !job.plan || job.plan->tileKeys == 0) return std::nullopt;
    RadixPlace p;
    p.group = from / job.plan->tileKeys;
    p.digit = digitOf(after, to, job.settings, st.bitLo, st.bitHi);
    if (p.digit >= offsets->data.size()) return std::nullopt;
    p.start = offsets->data[p.digit];
    const uint64_t dg = p.digit, w = p.group;
    if (const Snapshot::Aux* wo = after.find(AuxKind::workgroupOffsets); wo && wo->shape.size() >= 2) {
        const uint64_t W = wo->shape[1];
        if (dg * W + w >= wo->data.size()) return std::nullopt;
        p.before = wo->data[dg * W + w] - p.start; // radix4: where this workgroup's keys of the digit start
    } else if (const Snapshot::Aux* tc = after.find(AuxKind::tileCounts); tc && tc->shape.size() >= 2) {
        p.tiles = true; // OneSweep: the inclusive prefix of the tile before (keys of the digit in tiles 0..w-1)
        const uint64_t digits = tc->shape[1];
        if (w > 0 && (w - 1) * digits + dg < tc->data.size()) p.before = tc->data[(w - 1) * digits + dg];
    } else {
        return std::nullopt;
    }
    if (to < p.start + p.before) return std::nullopt;
    p.rank = to - p.start - p.before;
    return p;
}

Result<Answer> answerOf(const Question& q, const StepData& data, const JobInfo& job,
                        const LookbackReplayChoice& replay) {
    if (!data.snapshot) return makeError(Errc::invalid_argument, "the step is not stored");
    if (q.kind == QuestionKind::depth) return depthAnswer(q, data, replay);
    if (!data.previous) return makeError(Errc::invalid_argument, "the step before the answer is not stored");
    switch (q.kind) {
    case QuestionKind::swaps:
        return swapsAnswer(data, job);
    case QuestionKind::where:
        return whereAnswer(q, data, job);
    case QuestionKind::count:
        return countAnswer(q, data, job);
    case QuestionKind::depth:
        break;
    }
    return makeError(Errc::invalid_argument, "unknown question");
}

// The mistakes a wrong number fits, the first two where it fits several (an index counted from 1
// and 21 put before 5 are equally likely): the footer has room for two. A slip marked alone (the
// key's value given for its index) is the whole story when it fits first.
static std::string slipsOf(const Answer& a, uint64_t given) {
    std::string out;
    int told = 0;
    for (const Slip& s : a.slips)
        if (s.value == given && told < 2) {
            if (told == 0 && s.alone) return " " + s.why;
            out += (told++ ? " Or: " : " ") + s.why;
        }
    return out;
}

std::string feedbackText(const Question& q, std::optional<int64_t> given, const Answer& a) {
    const std::string v = num(a.value);
    const bool sum = a.how.rfind(v + " = ", 0) == 0; // the arithmetic starts with the answer itself
    // Why no answer can be the number given ("" when one can).
    std::string impossible;
    if (given && (*given < 0 || uint64_t(*given) < a.least))
        impossible = a.belowLeast;
    else if (given && uint64_t(*given) > a.most)
        impossible = a.aboveMost;
    const std::string said = given ? std::to_string(*given) : "";
    const std::string slips = given && *given >= 0 ? slipsOf(a, uint64_t(*given)) : "";
    if (!graded(q.kind)) {
        if (!given) return a.how;
        return "You predicted " + said + (impossible.empty() ? ". " : ", which cannot happen: " + impossible + ". ") +
               a.how;
    }
    if (given && *given >= 0 && uint64_t(*given) == a.value) return "Right: " + (sum ? a.how : v + ". " + a.how);
    const std::string gpu = sum ? "The answer: " + a.how : "The answer is " + v + ". " + a.how;
    if (!given) return gpu;
    if (!impossible.empty()) return "Impossible: you said " + said + ", but " + impossible + "." + slips + " " + gpu;
    const std::string why = slips.empty() && !a.otherwise.empty() ? " " + a.otherwise : slips;
    return "Not this time: you said " + said + "." + why + " " + gpu;
}

} // namespace sortlab::app
