#include <sortlab/app/transition.h>

#include <sortlab/oddeven.h>
#include <sortlab/radix.h>

#include <algorithm>
#include <iterator>
#include <cmath>
#include <cstring>
#include <map>
#include <numbers>
#include <span>

namespace sortlab::app {

namespace {
constexpr const char* kMoveMatchNames[] = {"values", "comparators", "equal keys in order"}; // MoveMatch's order
static_assert(std::size(kMoveMatchNames) == size_t(MoveMatch::equalKeysInOrder) + 1, "a name per MoveMatch");
} // namespace

const char* moveMatchName(MoveMatch m) {
    const size_t i = static_cast<size_t>(m);
    return i < std::size(kMoveMatchNames) ? kMoveMatchNames[i] : "?";
}

namespace {

// Where each key of `earlier` is in `later`, and how that was found (the header says how).
KeyMoves matchKeys(const Snapshot& earlier, const Snapshot& later, const JobInfo& job, const Step& step) {
    const uint64_t n = job.settings.n;
    const KeyType t = job.settings.key;
    const size_t kb = keyBytes(t);
    KeyMoves m;
    m.to.resize(n);
    for (uint64_t i = 0; i < n; ++i) m.to[i] = i;
    if (step.kind == StepKind::layer) { // the pairs the layer compared
        const auto layers = oddeven::layers(n);
        for (uint32_t l = step.firstLayer; l < step.firstLayer + step.layerCount && l < layers.size(); ++l)
            oddeven::forEachComparator(n, layers[l], [&](uint64_t a, uint64_t b) { m.compared.emplace_back(a, b); });
    }
    if (!earlier.values.empty() && later.values.size() == earlier.values.size()) {
        std::map<uint32_t, uint64_t> where;
        for (uint64_t i = 0; i < n; ++i) where[later.values[i]] = i;
        for (uint64_t i = 0; i < n; ++i)
            if (auto it = where.find(earlier.values[i]); it != where.end()) m.to[i] = it->second;
        m.match = MoveMatch::values;
        return m;
    }
    if (step.kind == StepKind::layer && step.layerCount == 1) {
        for (auto [a, b] : m.compared)
            if (std::memcmp(earlier.keys.data() + a * kb, later.keys.data() + a * kb, kb) != 0)
                m.to[a] = b, m.to[b] = a;
        m.match = MoveMatch::comparators;
        return m;
    }
    std::map<uint64_t, std::vector<uint64_t>> positions; // a key's copies after the step, in order
    for (uint64_t i = 0; i < n; ++i) positions[orderBitsAt(later.keys.data(), i, t, Order::ascending)].push_back(i);
    std::map<uint64_t, size_t> used;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t k = orderBitsAt(earlier.keys.data(), i, t, Order::ascending);
        const auto& list = positions[k];
        const size_t j = used[k]++;
        m.to[i] = j < list.size() ? list[j] : i;
    }
    m.match = MoveMatch::equalKeysInOrder;
    return m;
}

float clamp01(float x) {
    return std::clamp(x, 0.0f, 1.0f);
}

// A key's way from index a to b at progress u of its share of the move: it rises into its lane,
// travels, and lands (kLanePhase each way).
KeyPlace travel(double a, double b, Lane lane, float u) {
    KeyPlace p;
    const float h = ease((u - kLanePhase) / (1 - 2 * kLanePhase));
    p.index = a + (b - a) * double(h);
    if (a == b) return p;
    p.lane = lane;
    p.rise = std::min(ease(u / kLanePhase), ease((1 - u) / kLanePhase));
    p.arc = std::sin(std::numbers::pi_v<float> * h);
    return p;
}

// A staged pass: the stage under way at f (played forward), and the progress within it.
std::pair<uint32_t, float> stagePart(const KeyMoves& m, float f) {
    const uint32_t stages = uint32_t(m.digits.size());
    const float x = clamp01(f) * float(stages);
    const uint32_t s = std::min(stages - 1, uint32_t(x));
    return {s, x - float(s)};
}

} // namespace

KeyMoves keyMoves(const Snapshot& earlier, const Snapshot& later, const JobInfo& job, const Step& step) {
    KeyMoves m = matchKeys(earlier, later, job, step);
    const uint64_t n = job.settings.n;
    const bool pass = step.bitHi > step.bitLo && (step.kind == StepKind::scatter || step.kind == StepKind::pass);
    if (pass && n <= kMaxStagedKeys && earlier.keys.size() >= n * keyBytes(job.settings.key)) {
        std::vector<uint64_t> digit(n);
        for (uint64_t i = 0; i < n; ++i)
            digit[i] = radix::digitAt(std::span<const std::byte>(earlier.keys), i, job.settings.key, job.settings.order,
                                      step.bitLo, step.bitHi - step.bitLo);
        stagedScatter(m, digit);
    }
    return m;
}

void stagedScatter(KeyMoves& m, const std::vector<uint64_t>& digit) {
    const uint64_t n = m.to.size();
    m.at.clear(), m.stage.clear(), m.digits.clear();
    std::vector<bool> taken(n, false);
    for (uint64_t t : m.to) { // only a permutation can be staged
        if (t >= n || taken[t]) return;
        taken[t] = true;
    }
    std::map<uint64_t, uint64_t> leftmost; // a digit's bucket: its leftmost place after the pass
    for (uint64_t i = 0; i < n; ++i)
        if (auto [it, fresh] = leftmost.emplace(digit[i], m.to[i]); !fresh) it->second = std::min(it->second, m.to[i]);
    if (leftmost.size() < 2) return;                    // one bucket: nothing to stage
    std::vector<std::pair<uint64_t, uint64_t>> buckets; // (leftmost place, digit)
    for (auto [d, place] : leftmost) buckets.emplace_back(place, d);
    std::sort(buckets.begin(), buckets.end());
    std::map<uint64_t, uint32_t> stageOf;
    for (const auto& [place, d] : buckets) stageOf[d] = uint32_t(m.digits.size()), m.digits.push_back(d);
    m.stage.resize(n);
    for (uint64_t i = 0; i < n; ++i) m.stage[i] = stageOf[digit[i]];
    std::vector<uint64_t> now(n);
    for (uint64_t i = 0; i < n; ++i) now[i] = i;
    m.at.push_back(now);
    std::fill(taken.begin(), taken.end(), false);
    std::vector<uint64_t> waiting; // keys not yet placed, left to right
    for (uint32_t s = 0; s < m.digits.size(); ++s) {
        waiting.clear();
        for (uint64_t i = 0; i < n; ++i) {
            if (m.stage[i] == s)
                now[i] = m.to[i], taken[m.to[i]] = true;
            else if (m.stage[i] > s)
                waiting.push_back(i);
        }
        std::sort(waiting.begin(), waiting.end(),
                  [&](uint64_t a, uint64_t b) { return m.at.back()[a] < m.at.back()[b]; });
        uint64_t place = 0;
        for (uint64_t i : waiting) {
            while (taken[place]) ++place;
            now[i] = place++;
        }
        m.at.push_back(now);
    }
}

float ease(float f) {
    f = std::clamp(f, 0.0f, 1.0f);
    return f * f * (3 - 2 * f);
}

float transitionFraction(const Transition& t, double now, std::optional<float> frozen) {
    if (frozen) return std::clamp(*frozen, 0.0f, 1.0f);
    if (t.duration <= 0) return 1.0f;
    return float(std::clamp((now - t.start) / t.duration, 0.0, 1.0));
}

KeyPlace keyPlace(const Transition& t, uint64_t i, float f) {
    const KeyMoves& m = t.moves;
    f = clamp01(f);
    if (t.backward) f = 1 - f; // the same way, played in reverse
    if (!m.at.empty() && i < m.stage.size()) {
        const auto [s, u] = stagePart(m, f);
        KeyPlace p = travel(double(m.at[s][i]), double(m.at[s + 1][i]), m.stage[i] == s ? Lane::above : Lane::below, u);
        p.stage = s;
        return p;
    }
    const float g = m.compared.empty() ? f : (f - kComparePhase) / (1 - kComparePhase);
    const uint64_t to = i < m.to.size() ? m.to[i] : i;
    return travel(double(i), double(to), to > i ? Lane::above : Lane::below, clamp01(g));
}

double drawnIndex(const Transition& t, uint64_t i, float f) {
    return keyPlace(t, i, f).index;
}

uint32_t stageAt(const Transition& t, float f) {
    if (t.moves.at.empty()) return 0;
    f = clamp01(f);
    return stagePart(t.moves, t.backward ? 1 - f : f).first;
}

bool movable(const StepData& a, const StepData& b) {
    return a.snapshot && b.snapshot && a.generation == b.generation && (a.step + 1 == b.step || b.step + 1 == a.step);
}

} // namespace sortlab::app
