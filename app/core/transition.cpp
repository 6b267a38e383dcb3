#include <sortlab/app/transition.h>

#include <sortlab/oddeven.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

namespace sortlab::app {

const char* moveMatchName(MoveMatch m) {
    switch (m) {
    case MoveMatch::values: return "values";
    case MoveMatch::comparators: return "comparators";
    case MoveMatch::equalKeysInOrder: return "equal keys in order";
    }
    return "?";
}

KeyMoves keyMoves(const Snapshot& earlier, const Snapshot& later, const JobInfo& job, const Step& step) {
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
            if (std::memcmp(earlier.keys.data() + a * kb, later.keys.data() + a * kb, kb) != 0) m.to[a] = b, m.to[b] = a;
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

float ease(float f) {
    f = std::clamp(f, 0.0f, 1.0f);
    return f * f * (3 - 2 * f);
}

float transitionFraction(const Transition& t, double now, std::optional<float> frozen) {
    if (frozen) return std::clamp(*frozen, 0.0f, 1.0f);
    if (t.duration <= 0) return 1.0f;
    return float(std::clamp((now - t.start) / t.duration, 0.0, 1.0));
}

double drawnIndex(const Transition& t, uint64_t i, float f) {
    const bool layer = !t.moves.compared.empty();
    float g = layer ? std::max(0.0f, (f - kComparePhase) / (1 - kComparePhase)) : f;
    if (t.backward) g = 1 - g;
    const double a = double(i), b = double(i < t.moves.to.size() ? t.moves.to[i] : i);
    return a + (b - a) * double(ease(g));
}

bool movable(const StepData& a, const StepData& b) {
    return a.snapshot && b.snapshot && a.generation == b.generation &&
           (a.step + 1 == b.step || b.step + 1 == a.step);
}

} // namespace sortlab::app
