// A lesson's stops against the plan their settings make, before any device exists: a step past the
// plan's end, a graded question with no step after it, a layer, tile, workgroup or pass a stop names
// that the sort does not have. The steps come from the library's own planners (oddeven::planSteps,
// radix::radix4Steps, radix::oneSweepSteps), so the lesson is checked against the plan the device will run.
// And the network layers a stop's words name (lessonLayers), which its check requires on screen.
#include <sortlab/app/lesson.h>

#include <sortlab/oddeven.h>
#include <sortlab/radix.h>
#include <sortlab/radix_steps.h>

#include <algorithm>
#include <cctype>
#include <limits>

namespace sortlab::app {

LessonPlan lessonPlan(const SortSettings& s) {
    LessonPlan p;
    const SortConfig c = s.config();
    switch (s.algorithm()) {
    case Algorithm::oddeven:
        if (c.knobs.perLayer) { // one step a layer, whatever the device
            oddeven::PlanParams pp;
            pp.perLayer = true;
            p.steps = oddeven::planSteps(s.n, pp);
        } // fused: the tile and window steps depend on the device's subgroup size
        p.layers = oddeven::layers(s.n).size();
        break;
    case Algorithm::radix4:
        p.steps = radix::radix4Steps(s.n, c);
        break;
    case Algorithm::onesweep:
        p.steps = radix::oneSweepSteps(s.n, c);
        break;
    case Algorithm::hybrid:    // (not in the app's menu yet: no lesson runs it)
    case Algorithm::automatic: // (the one-call API's choice, not a sorter)
        break;
    }
    if (const uint64_t tile = s.algorithm() == Algorithm::oddeven ? 0 : s.effectiveTileKeys())
        p.tiles = (s.n + tile - 1) / tile;
    return p;
}

namespace {

std::string num(uint64_t v) {
    return std::to_string(v);
}

// Whether every key has the same digit at bits [lo, lo + 8): a OneSweep pass the GPU skips.
bool passSkipped(const SortSettings& s, uint32_t lo) {
    std::vector<std::byte> keys;
    if (s.dist == Distribution::custom) {
        auto typed = parseKeys(s.keysText, s.key, s.keysSource); // read when they were set
        if (!typed) return false;
        keys = std::move(*typed);
    } else {
        keys = generateKeys(s.key, s.n, s.dist, s.seed);
    }
    for (uint64_t i = 1; i < s.n; ++i)
        if (radix::digitAt(keys, i, s.key, s.order, lo, 8) != radix::digitAt(keys, 0, s.key, s.order, lo, 8))
            return false;
    return true;
}

// "with the tuned tile the tiles depend on the device" or a range check of a tile / workgroup index.
std::string tileRange(const SortSettings& s, const LessonPlan& p, uint64_t index, const std::string& what) {
    if (p.tiles == 0)
        return what + ": with the tuned tile (@tile 0) how many tiles there are depends on the device: choose "
                      "@tile K to point at one";
    if (index >= p.tiles)
        return what + ": " + num(s.n) + " keys in " + num(s.effectiveTileKeys()) + "-key tiles make " + num(p.tiles) +
               " (0.." + num(p.tiles - 1) + ")";
    return {};
}

std::string highlightRange(const Highlight& h, const SortSettings& s, const LessonPlan& p) {
    const std::string what = "@highlight " + std::string(highlightKindName(h.kind)) + " " + num(h.index);
    switch (h.kind) {
    case HighlightKind::layer:
        if (h.index == 0 || h.index > p.layers)
            return what + ": the network for " + num(s.n) + " keys has " +
                   (p.layers ? num(p.layers) + " layers (1.." + num(p.layers) + ")" : std::string("no layer"));
        return {};
    case HighlightKind::workgroup:
        if (s.algorithm() == Algorithm::oddeven) return what + ": only the radix sorts' workgroups are drawn";
        return tileRange(s, p, h.index, what);
    case HighlightKind::tile:
        if (s.algorithm() != Algorithm::onesweep)
            return what + ": only OneSweep's replay draws tiles (radix4's are @highlight workgroup)";
        return tileRange(s, p, h.index, what);
    default:
        return {}; // keys and digits: checkStops
    }
}

} // namespace

Result<void> checkStopRanges(const Lesson& lesson, size_t i, const SortSettings& s) {
    const LessonStop& stop = lesson.stops[i];
    auto bad = [&](int line, const std::string& what) {
        return makeError(Errc::parse_error, lesson.source + ":" + std::to_string(line) + ": " + what);
    };
    const LessonPlan p = lessonPlan(s);
    constexpr size_t kUnknown = std::numeric_limits<size_t>::max(); // the fused network's end
    const size_t steps = p.steps ? p.steps->size() : kUnknown;
    if (!stop.step.empty() && stop.step != "end") {
        const uint64_t k = std::stoull(stop.step, nullptr, 0); // read as a number when parsed
        if (p.steps && k > steps)
            return bad(stop.stepLine, "@step " + stop.step + ": the plan has " + num(steps) +
                                          " steps (0 is the input, " + num(steps) + " or end the last)");
        if (!p.steps && k > 0)
            return bad(stop.stepLine, "@step " + stop.step +
                                          ": the fused network's steps depend on the device's subgroup size: use "
                                          "@step 0 or end, or @sort oddeven-layer (a step a layer)");
    }
    if (auto why = highlightRange(stop.highlight, s, p); !why.empty()) return bad(stop.highlight.line, why);
    if (!stop.question) return {};
    const Question& q = *stop.question;
    const std::string ask =
        "@ask " + std::string(questionKindName(q.kind)) + (q.kind == QuestionKind::swaps ? "" : " " + num(q.arg));
    const size_t shown = stepAt(lesson, i, steps);
    if (graded(q.kind)) {
        const bool next = p.steps ? shown < steps : shown == 0 && s.n >= 2;
        if (!next)
            return bad(q.line, ask + ": a question is about the next step, and the stop shows the last (" +
                                   (p.steps ? "step " + num(shown) + " of " + num(steps) : std::string("end")) +
                                   "): give the stop an earlier @step");
        if (q.kind == QuestionKind::count && (*p.steps)[shown].kind == StepKind::result)
            return bad(q.line, ask + ": the next step copies the result and counts no digits");
        return {};
    }
    // depth: a OneSweep pass on show, with tiles that walk.
    if (!p.steps || shown == 0 || (*p.steps)[shown - 1].kind != StepKind::pass)
        return bad(q.line, ask + ": the stop must show a OneSweep pass (step " + num(shown) +
                               " is not one): its lookback is what the replay plays");
    if (auto why = tileRange(s, p, q.arg, ask); !why.empty()) return bad(q.line, why);
    if (q.arg == 0)
        return bad(q.line, ask + ": tile 0 never looks back" +
                               (p.tiles > 1 ? " (tiles 1.." + num(p.tiles - 1) + " do)"
                                            : std::string(", and it is the only tile")));
    const Step& pass = (*p.steps)[shown - 1];
    if (passSkipped(s, pass.bitLo))
        return bad(q.line, ask + ": every key has the same digit in pass " + num(pass.pass) +
                               ", so the GPU skips it and no tile walks");
    return {};
}

namespace {

// The words and punctuation of a text, lower case: "layers 6 and 10)" is layers, 6, and, 10, ).
std::vector<std::string> tokens(const std::string& text) {
    std::vector<std::string> out;
    for (size_t i = 0; i < text.size();) {
        const unsigned char ch = static_cast<unsigned char>(text[i]);
        if (std::isalnum(ch)) {
            size_t j = i;
            std::string w;
            while (j < text.size() && std::isalnum(static_cast<unsigned char>(text[j])))
                w += char(std::tolower(static_cast<unsigned char>(text[j++])));
            out.push_back(std::move(w));
            i = j;
        } else {
            if (!std::isspace(ch)) out.emplace_back(1, char(ch));
            ++i;
        }
    }
    return out;
}

// A count in digits or in words ("four"); none for anything else.
std::optional<uint64_t> countOf(const std::string& w) {
    static const char* const kWords[] = {"zero",     "one",      "two",      "three",   "four",    "five",
                                         "six",      "seven",    "eight",    "nine",    "ten",     "eleven",
                                         "twelve",   "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                                         "eighteen", "nineteen", "twenty"};
    if (!w.empty() && w.size() <= 9 && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::stoull(w);
    for (size_t i = 0; i < std::size(kWords); ++i)
        if (w == kWords[i]) return i;
    return std::nullopt;
}

// The layers (1-based) a text names: "layer N", "layers N, M and K", "layers N to M" (or N-M), "the
// first K layers", "the last K layers"; K may be a word.
void layersInText(const std::string& text, uint64_t layers, std::vector<uint64_t>& out) {
    const std::vector<std::string> t = tokens(text);
    auto numberAt = [&](size_t i) {
        return i < t.size() && !t[i].empty() && std::isdigit(static_cast<unsigned char>(t[i][0])) ? countOf(t[i])
                                                                                                  : std::nullopt;
    };
    for (size_t i = 0; i < t.size(); ++i) {
        if (t[i] == "layers" && i >= 2 && (t[i - 2] == "last" || t[i - 2] == "first"))
            if (const auto k = countOf(t[i - 1]); k && *k <= layers) {
                const uint64_t lo = t[i - 2] == "last" ? layers - *k + 1 : 1;
                for (uint64_t l = lo; l < lo + *k; ++l) out.push_back(l);
                continue;
            }
        if (t[i] != "layer" && t[i] != "layers") continue;
        auto first = numberAt(i + 1);
        if (!first) continue;
        out.push_back(*first);
        // A list or a range after it: ", M", "and M", "or M", "to M", "-M".
        size_t j = i + 2;
        uint64_t last = *first;
        while (j + 1 < t.size()) {
            const std::string& sep = t[j];
            const auto next = numberAt(j + 1);
            if (!next || (sep != "," && sep != "and" && sep != "or" && sep != "to" && sep != "-")) break;
            if (sep == "to" || sep == "-")
                for (uint64_t l = last + 1; l < *next && l <= layers; ++l) out.push_back(l);
            out.push_back(*next);
            last = *next;
            j += 2;
        }
        i = j - 1;
    }
}

} // namespace

std::vector<uint32_t> lessonLayers(const LessonStop& stop, uint64_t layers) {
    std::vector<uint64_t> named; // 1-based, as lessons count them
    if (stop.highlight.kind == HighlightKind::layer) named.push_back(stop.highlight.index);
    if (std::find(stop.subjects.begin(), stop.subjects.end(), SubjectKind::network) != stop.subjects.end())
        for (uint64_t l = 1; l <= layers; ++l) named.push_back(l);
    layersInText(stop.title, layers, named);
    layersInText(stop.narration, layers, named);
    if (stop.question) layersInText(stop.question->text, layers, named);
    std::vector<uint32_t> out;
    for (uint64_t l : named)
        if (l >= 1 && l <= layers) out.push_back(uint32_t(l - 1));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace sortlab::app
