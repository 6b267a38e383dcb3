// A lesson question's answer, read from the GPU's buffers, with how the GPU got it from what the
// views show (the feedback's arithmetic) and the cells that arithmetic uses.
#include <sortlab/app/lesson.h>

#include <sortlab/data.h>
#include <sortlab/oddeven.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace sortlab::app {
namespace {

using ull = unsigned long long;

std::string num(uint64_t x) { return std::to_string(x); }

std::string hexDigit(uint32_t d, uint32_t bits) {
    char buf[16];
    std::snprintf(buf, sizeof buf, bits > 4 ? "%02X" : "%X", d);
    return buf;
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

// The step that produced `after` (null for the input).
const Step* stepOf(const StepData& after, const JobInfo& job) {
    if (!job.plan || after.step == 0 || after.step > job.plan->steps.size()) return nullptr;
    return &job.plan->steps[after.step - 1];
}

// Odd-even: the comparators of the layer the step ran (one layer a step: the oddeven-layer variant).
std::vector<std::pair<uint64_t, uint64_t>> comparatorsOf(const Step& st, uint64_t n) {
    std::vector<std::pair<uint64_t, uint64_t>> out;
    if (st.kind != StepKind::layer) return out;
    const auto layers = oddeven::layers(n);
    for (uint32_t l = st.firstLayer; l < st.firstLayer + st.layerCount && l < layers.size(); ++l)
        oddeven::forEachComparator(n, layers[l], [&](uint64_t a, uint64_t b) { out.emplace_back(a, b); });
    return out;
}

bool keysDiffer(const Snapshot& x, const Snapshot& y, uint64_t i, size_t kb) {
    return std::memcmp(x.keys.data() + i * kb, y.keys.data() + i * kb, kb) != 0;
}

Result<Answer> swapsAnswer(const StepData& d, const JobInfo& job) {
    const Snapshot &now = *d.snapshot, &before = *d.previous;
    const uint64_t n = job.settings.n;
    const size_t kb = keyBytes(job.settings.key);
    Answer a;
    const Step* st = stepOf(d, job);
    const auto comparators = st ? comparatorsOf(*st, n) : std::vector<std::pair<uint64_t, uint64_t>>{};
    if (comparators.empty()) { // not one network layer: the changed positions, halved
        uint64_t changed = 0;
        for (uint64_t i = 0; i < n; ++i)
            if (keysDiffer(now, before, i, kb)) ++changed, a.keys.push_back(i);
        a.value = changed / 2;
        a.how = num(changed) + " positions changed: " + num(a.value) + " swaps.";
        return a;
    }
    std::string pairs;
    for (auto [x, y] : comparators) {
        if (!keysDiffer(now, before, x, kb)) continue;
        ++a.value;
        a.keys.push_back(x);
        a.keys.push_back(y);
        if (a.value <= 8)
            pairs += (pairs.empty() ? "" : ", ") + num(x) + "-" + num(y) + " (" + formatKey(before.keys, x, job.settings.key) +
                     " > " + formatKey(before.keys, y, job.settings.key) + ")";
    }
    a.how = num(a.value) + " of the layer's " + num(comparators.size()) + " comparators found the left key larger" +
            (a.value == 0 ? std::string(": none swapped.") : " and swapped: " + pairs + (a.value > 8 ? ", ..." : "") + ".");
    return a;
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
    const Step* st = stepOf(d, job);
    if (!st) return a;
    const std::string key = formatKey(before.keys, q.arg, job.settings.key);
    for (auto [x, y] : comparatorsOf(*st, n)) {
        if (x != q.arg && y != q.arg) continue;
        const std::string kx = formatKey(before.keys, x, job.settings.key), ky = formatKey(before.keys, y, job.settings.key);
        const bool swapped = a.value != q.arg;
        a.how = "Comparator " + num(x) + "-" + num(y) + " held " + kx + " and " + ky +
                (swapped ? ": " + kx + " > " + ky + ", so they swapped." : ": no swap, so " + key + " stayed.");
        return a; // the key's outline follows it to where it went
    }
    if (st->kind == StepKind::layer) {
        a.how = "No comparator of this layer touches index " + num(q.arg) + ": " + key + " stayed.";
        return a;
    }
    explainRadixWhere(a, d, job, *st, q.arg);
    return a;
}

Result<Answer> countAnswer(const Question& q, const StepData& d, const JobInfo& job) {
    const Snapshot& now = *d.snapshot;
    const Snapshot::Aux* h = now.find(AuxKind::histogram);
    if (!h || q.arg >= h->data.size())
        return makeError(Errc::invalid_argument, "the step after the question has no histogram with digit " + num(q.arg));
    Answer a;
    a.value = h->data[q.arg];
    a.digit = q.arg;
    const Step* st = stepOf(d, job);
    uint32_t lo = 0, hi = 0;
    if (st && st->bitHi > st->bitLo) lo = st->bitLo, hi = st->bitHi;
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
    return a;
}

// OneSweep: how far tile T's walk went back for the replayed digit, in the pass shown. It depends on
// which workgroups ran first, so the lesson asks it as a prediction and never grades it.
Result<Answer> depthAnswer(const Question& q, const StepData& d, const LookbackReplayChoice& replay) {
    const auto r = lookbackReplay(*d.snapshot, replay);
    if (!r) return makeError(Errc::invalid_argument, "the step shown has no lookback log (a OneSweep pass with @lookback-log on)");
    if (q.arg == 0 || q.arg >= r->records.size())
        return makeError(Errc::invalid_argument, "tile " + num(q.arg) + " has no walk (tiles 1.." + num(r->records.size() - 1) + ")");
    const LookbackWalk& w = r->records[q.arg].walks[r->digit];
    Answer a;
    a.value = w.depth();
    a.tile = q.arg;
    a.digit = r->digit;
    for (size_t e = 0; e < r->events.size(); ++e)
        if (r->events[e].tile == q.arg && r->events[e].kind == LookbackEventKind::published) a.replayShown = int(e + 1);
    const uint64_t end = q.arg >= a.value ? q.arg - a.value : 0;
    std::string parts;
    if (w.aggregates) parts += num(w.aggregates) + " aggregate" + (w.aggregates == 1 ? "" : "s");
    if (w.counted) parts += (parts.empty() ? "" : ", ") + num(w.counted) + " counted itself";
    if (w.inclusive) parts += (parts.empty() ? "" : ", then ") + std::string("tile ") + num(end) + "'s inclusive prefix";
    a.how = "This run: " + num(a.value) + " tile" + (a.value == 1 ? "" : "s") + " back" +
            (parts.empty() ? "" : " (" + parts + ")") + ". Scheduling decides it: another run may differ.";
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

Result<Answer> answerOf(const Question& q, const StepData& data, const JobInfo& job, const LookbackReplayChoice& replay) {
    if (!data.snapshot) return makeError(Errc::invalid_argument, "the step is not stored");
    if (q.kind == QuestionKind::depth) return depthAnswer(q, data, replay);
    if (!data.previous) return makeError(Errc::invalid_argument, "the step before the answer is not stored");
    switch (q.kind) {
    case QuestionKind::swaps: return swapsAnswer(data, job);
    case QuestionKind::where: return whereAnswer(q, data, job);
    case QuestionKind::count: return countAnswer(q, data, job);
    case QuestionKind::depth: break;
    }
    return makeError(Errc::invalid_argument, "unknown question");
}

std::string feedbackText(const Question& q, std::optional<uint64_t> given, const Answer& a) {
    const std::string v = num(a.value);
    const bool sum = a.how.rfind(v + " = ", 0) == 0; // the arithmetic starts with the answer itself
    if (!graded(q.kind)) return (given ? "You predicted " + num(*given) + ". " : "") + a.how;
    if (given && *given == a.value) return "Right: " + (sum ? a.how : v + ". " + a.how);
    const std::string gpu = sum ? "The answer: " + a.how : "The answer is " + v + ". " + a.how;
    return given ? "Not this time: you said " + num(*given) + ". " + gpu : gpu;
}

} // namespace sortlab::app
