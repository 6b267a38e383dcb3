#include <sortlab/app/lesson.h>

#include <sortlab/app/options.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace sortlab::app {

#include "builtin_lessons.inc" // kBuiltinLessons: {name, text} (generated from lessons/*.lesson)

namespace {

std::string trim(std::string_view s) {
    size_t a = 0, b = s.size();
    while (a < b && (s[a] == ' ' || s[a] == '\t' || s[a] == '\r')) ++a;
    while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\r')) --b;
    return std::string(s.substr(a, b - a));
}

// Directives that are settings: the lesson's name for it, and applySetting's.
const std::pair<std::string_view, std::string_view> kSettingDirectives[] = {
    {"sort", "algo"},
    {"n", "n"},
    {"type", "type"},
    {"values", "values"},
    {"order", "order"},
    {"dist", "dist"},
    {"seed", "seed"},
    {"keys", "keys"},
    {"tile", "tile-keys"},
    {"force-fallback", "force-fallback"},
    {"lookback-log", "lookback-log"},
};
constexpr std::string_view kDirectives = "@sort, @n, @type, @values, @order, @dist, @seed, @keys, @tile, "
                                         "@force-fallback, @lookback-log, @step, @replay-digit, @replay-event, "
                                         "@highlight, @subject, @ask or @recording";

const std::pair<std::string_view, HighlightKind> kHighlights[] = {
    {"key", HighlightKind::key},     {"layer", HighlightKind::layer},
    {"digit", HighlightKind::digit}, {"workgroup", HighlightKind::workgroup},
    {"tile", HighlightKind::tile},
};
const std::pair<std::string_view, SubjectKind> kSubjects[] = {
    {"array", SubjectKind::array},
    {"network", SubjectKind::network},
    {"binary", SubjectKind::binary},
    {"histogram", SubjectKind::histogram},
    {"offsets", SubjectKind::offsets},
    {"counts", SubjectKind::counts},
    {"workgroup-offsets", SubjectKind::workgroupOffsets},
    {"replay", SubjectKind::replay},
    {"tile-status", SubjectKind::tileStatus},
    {"all-histograms", SubjectKind::allHistograms},
    {"all-offsets", SubjectKind::allOffsets},
};
constexpr std::string_view kSubjectNames = "array, network, binary, histogram, offsets, counts, workgroup-offsets, "
                                           "replay, tile-status, all-histograms or all-offsets";
const std::pair<std::string_view, QuestionKind> kQuestions[] = {
    {"swaps", QuestionKind::swaps},
    {"where", QuestionKind::where},
    {"count", QuestionKind::count},
    {"depth", QuestionKind::depth},
};

std::optional<uint64_t> number(const std::string& w) {
    if (w.empty()) return std::nullopt;
    try {
        size_t used = 0;
        const unsigned long long v = std::stoull(w, &used, 0);
        if (used != w.size()) return std::nullopt;
        return v;
    } catch (...) {
        return std::nullopt;
    }
}

// What a stop asks and points at, against the state it will have (its settings and those before
// it): refused when the lesson is read, at the directive's line, instead of when the class gets
// there. (What depends on the device, such as the largest tile, is checked when the stop runs.)
Result<void> checkStop(const LessonStop& stop, const SortSettings& s, const std::string& source) {
    auto bad = [&](int line, const std::string& what) {
        return makeError(Errc::parse_error, source + ":" + std::to_string(line) + ": " + what);
    };
    const Algorithm algo = s.algorithm();
    const bool radix = algo != Algorithm::oddeven;
    const uint64_t digits = algo == Algorithm::onesweep ? 256 : 16;
    if (const Highlight& h = stop.highlight; h.kind == HighlightKind::key && h.index >= s.n)
        return bad(h.line,
                   "@highlight key " + std::to_string(h.index) + ": there are " + std::to_string(s.n) + " keys");
    else if (h.kind == HighlightKind::digit && (!radix || h.index >= digits))
        return bad(h.line, "@highlight digit " + std::to_string(h.index) + ": " +
                               (radix ? "digits go to " + std::to_string(digits - 1) : "the sort has no digits"));
    else if (h.kind == HighlightKind::layer && algo != Algorithm::oddeven)
        return bad(h.line, "@highlight layer: only the odd-even network has layers");
    for (SubjectKind k : stop.subjects) {
        const std::string what = "@subject " + std::string(subjectKindName(k));
        switch (k) {
        case SubjectKind::array:
            break;
        case SubjectKind::network:
            if (algo != Algorithm::oddeven)
                return bad(stop.subjectLine, what + ": only the odd-even sorts draw a network");
            break;
        case SubjectKind::binary:
        case SubjectKind::histogram:
        case SubjectKind::offsets:
            if (!radix) return bad(stop.subjectLine, what + ": only the radix sorts draw it (the Radix view)");
            break;
        case SubjectKind::counts:
        case SubjectKind::workgroupOffsets:
            if (algo != Algorithm::radix4) return bad(stop.subjectLine, what + ": only radix4 has workgroup tables");
            break;
        case SubjectKind::replay:
            if (algo != Algorithm::onesweep || !s.effectiveLookbackLog())
                return bad(stop.subjectLine, what + ": only OneSweep with @lookback-log on has a replay");
            break;
        case SubjectKind::tileStatus:
        case SubjectKind::allHistograms:
        case SubjectKind::allOffsets:
            if (algo != Algorithm::onesweep) return bad(stop.subjectLine, what + ": only OneSweep draws it");
            break;
        }
    }
    if (!stop.question) return {};
    const Question& q = *stop.question;
    const std::string ask = "@ask " + std::string(questionKindName(q.kind)) + " " + std::to_string(q.arg);
    switch (q.kind) {
    case QuestionKind::swaps:
        if (algo != Algorithm::oddeven)
            return bad(q.line, "@ask swaps: only a network layer swaps (@sort oddeven-layer)");
        break;
    case QuestionKind::where:
        if (q.arg >= s.n)
            return bad(q.line,
                       ask + ": no key at index " + std::to_string(q.arg) + " (there are " + std::to_string(s.n) + ")");
        if (!s.keyValue) return bad(q.line, ask + ": 'where' follows a key by its value: add @values u32");
        break;
    case QuestionKind::count:
        if (!radix) return bad(q.line, ask + ": only the radix sorts count digits");
        if (q.arg >= digits) return bad(q.line, ask + ": digits go to " + std::to_string(digits - 1));
        break;
    case QuestionKind::depth:
        if (algo != Algorithm::onesweep) return bad(q.line, ask + ": only OneSweep looks back (@sort onesweep)");
        if (!s.effectiveLookbackLog())
            return bad(q.line, ask + ": the replay needs the lookback log (@lookback-log on)");
        break;
    }
    return {};
}

} // namespace

Result<void> checkStops(const Lesson& lesson) {
    SortSettings s;
    for (size_t i = 0; i < lesson.stops.size(); ++i) {
        const LessonStop& stop = lesson.stops[i];
        for (const auto& [key, value] : stop.settings)
            if (auto ok = applySetting(s, key, value); !ok) return ok.error(); // read before: they apply
        SORTLAB_TRY(checkStop(stop, s, lesson.source));
        SORTLAB_TRY(checkStopRanges(lesson, i, s)); // lesson_check.cpp
    }
    return {};
}

std::string_view questionKindName(QuestionKind k) {
    for (const auto& [name, kind] : kQuestions)
        if (kind == k) return name;
    return "?";
}

std::string_view subjectKindName(SubjectKind k) {
    for (const auto& [name, kind] : kSubjects)
        if (kind == k) return name;
    return "?";
}

uint32_t lessonSubjects(const LessonStop& stop, Algorithm algo, bool answered) {
    auto bit = [](SubjectKind k) { return uint32_t(1) << unsigned(k); };
    uint32_t m = 0;
    for (SubjectKind k : stop.subjects) m |= bit(k);
    if (!stop.subjects.empty()) return m;
    switch (stop.highlight.kind) {
    case HighlightKind::workgroup:
        m |= bit(SubjectKind::counts);
        break;
    case HighlightKind::digit:
        m |= bit(SubjectKind::histogram);
        break;
    case HighlightKind::tile:
        m |= bit(SubjectKind::replay);
        break;
    default:
        break;
    }
    if (const auto& q = stop.question) {
        if (q->kind == QuestionKind::depth) m |= bit(SubjectKind::replay);
        if (answered && q->kind == QuestionKind::count)
            m |= bit(algo == Algorithm::radix4 ? SubjectKind::counts : SubjectKind::histogram);
        if (answered && q->kind == QuestionKind::where && algo != Algorithm::oddeven)
            m |= bit(SubjectKind::offsets) |
                 bit(algo == Algorithm::radix4 ? SubjectKind::workgroupOffsets : SubjectKind::offsets);
    }
    return m;
}

std::string_view highlightKindName(HighlightKind k) {
    for (const auto& [name, kind] : kHighlights)
        if (kind == k) return name;
    return "none";
}

namespace {

// `@ask KIND [N] QUESTION` (rest: what follows "@ask") at this line: "" or what is wrong.
std::string readQuestion(const std::string& rest, int line, LessonStop& stop) {
    std::istringstream args(rest);
    std::string a0, a1;
    args >> a0;
    auto k = std::find_if(std::begin(kQuestions), std::end(kQuestions), [&](const auto& q) { return q.first == a0; });
    if (k == std::end(kQuestions)) return "@ask takes swaps, where I, count D or depth T, then the question";
    Question q;
    q.kind = k->second;
    q.line = line;
    std::string text;
    if (q.kind != QuestionKind::swaps) {
        args >> a1;
        const auto i = number(a1);
        if (!i) return "@ask " + a0 + " needs a number (the key's index, the digit or the tile)";
        q.arg = *i;
    }
    std::getline(args, text);
    q.text = trim(text);
    if (q.text.empty()) return "@ask " + a0 + ": write the question after it";
    if (stop.question) return "one question a stop";
    stop.question = std::move(q);
    return {};
}

// One '@' line of a stop (l: the trimmed line): a setting, which is tried on `probe` as the app
// will apply it, @step, @replay-digit, @replay-event, @highlight or @ask. "" or what is wrong.
std::string readDirective(const std::string& l, int line, LessonStop& stop, SortSettings& probe) {
    std::istringstream words(l.substr(1));
    std::string directive;
    words >> directive;
    std::string rest;
    std::getline(words, rest);
    rest = trim(rest);
    for (const auto& [word, key] : kSettingDirectives)
        if (directive == word) {
            if (rest.empty()) return "@" + directive + " needs a value";
            if (auto ok = applySetting(probe, std::string(key), rest); !ok)
                return "@" + directive + ": " + ok.error().message;
            stop.settings.emplace_back(std::string(key), rest);
            return {};
        }
    if (directive == "ask") return readQuestion(rest, line, stop);
    std::istringstream args(rest);
    std::string a0, a1;
    args >> a0;
    if (directive == "step") {
        if (a0 != "end" && !number(a0)) return "@step takes a step number or end";
        stop.step = a0;
        stop.stepLine = line;
    } else if (directive == "replay-digit") {
        const auto d = a0 == "auto" ? std::optional<uint64_t>(0) : number(a0);
        if (!d || *d > 255) return "@replay-digit takes 0..255, 0xHH or auto";
        stop.replayDigit = a0 == "auto" ? -1 : int(*d);
    } else if (directive == "replay-event") {
        const auto e = a0 == "end" ? std::optional<uint64_t>(0) : number(a0);
        if (!e) return "@replay-event takes an event count or end";
        stop.replayEvent = a0 == "end" ? -1 : int(*e);
    } else if (directive == "highlight") {
        args >> a1;
        const auto i = number(a1);
        auto k =
            std::find_if(std::begin(kHighlights), std::end(kHighlights), [&](const auto& h) { return h.first == a0; });
        if (k == std::end(kHighlights) || !i)
            return "@highlight takes key, layer, digit, workgroup or tile, then a number";
        stop.highlight = {k->second, *i, line};
    } else if (directive == "subject") {
        if (a0.empty()) return "@subject takes " + std::string(kSubjectNames);
        if (!stop.subjects.empty()) return "one @subject line a stop (it may name several parts)";
        for (std::string w = a0; !w.empty(); w.clear(), args >> w) {
            auto k =
                std::find_if(std::begin(kSubjects), std::end(kSubjects), [&](const auto& x) { return x.first == w; });
            if (k == std::end(kSubjects)) return "@subject '" + w + "': use " + std::string(kSubjectNames);
            stop.subjects.push_back(k->second);
        }
        stop.subjectLine = line;
    } else {
        return "unknown directive '@" + directive + "' (expected " + std::string(kDirectives) + ")";
    }
    return {};
}

} // namespace

Result<Lesson> parseLesson(std::string_view text, const std::string& source, const std::string& name) {
    Lesson lesson;
    lesson.name = name;
    lesson.source = source;
    SortSettings probe; // every setting is tried in order, as the app will apply them
    std::istringstream in{std::string(text)};
    std::string raw;
    int line = 0;
    bool blank = false; // a blank line since the last narration line: a new paragraph
    auto bad = [&](const std::string& what) {
        return makeError(Errc::parse_error, source + ":" + std::to_string(line) + ": " + what);
    };
    while (std::getline(in, raw)) {
        ++line;
        const std::string l = trim(raw);
        if (l.empty()) {
            blank = true;
            continue;
        }
        if (l.rfind("<!--", 0) == 0) continue; // a comment line for the teacher
        if (lesson.title.empty()) {
            if (l.rfind("# ", 0) != 0) return bad("expected the lesson's title: a line '# Title'");
            lesson.title = trim(l.substr(2));
            continue;
        }
        if (l.rfind("## ", 0) == 0) {
            LessonStop stop;
            stop.line = line;
            stop.title = trim(l.substr(3));
            if (stop.title.empty()) return bad("a stop needs a title after '## '");
            lesson.stops.push_back(std::move(stop));
            blank = false;
            continue;
        }
        if (l.rfind("# ", 0) == 0) return bad("a second '# ' title; stops start with '## '");
        if (l.rfind("@recording", 0) == 0 && (l.size() == 10 || l[10] == ' ' || l[10] == '\t')) { // the lesson's
            const std::string file = trim(l.substr(10));
            if (file.empty()) return bad("@recording needs a file (a recording made with sortlab --record)");
            lesson.recordings.emplace_back(file, line);
            continue;
        }
        if (lesson.stops.empty()) return bad("expected a stop, '## Title', before this line");
        LessonStop& stop = lesson.stops.back();
        if (l[0] != '@') {
            if (!stop.narration.empty()) stop.narration += blank ? "\n\n" : " ";
            stop.narration += l;
            blank = false;
            continue;
        }
        if (const std::string why = readDirective(l, line, stop, probe); !why.empty()) return bad(why);
    }
    if (lesson.title.empty())
        return makeError(Errc::parse_error,
                         source + ":" + std::to_string(line) + ": empty lesson (expected '# Title')");
    if (auto ok = checkStops(lesson); !ok) return ok.error();
    if (lesson.stops.empty())
        return makeError(Errc::parse_error,
                         source + ":" + std::to_string(line) + ": a lesson needs at least one stop ('## Title')");
    return lesson;
}

std::vector<std::pair<std::string, std::string>> builtinLessons() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [name, text] : kBuiltinLessons) {
        auto l = parseLesson(text, "lesson " + std::string(name), name);
        out.emplace_back(name, l ? l->title : "(does not read: " + l.error().message + ")");
    }
    return out;
}

Result<Lesson> loadLesson(const std::string& nameOrFile) {
    for (const auto& [name, text] : kBuiltinLessons)
        if (nameOrFile == name) return parseLesson(text, "lesson " + nameOrFile, nameOrFile);
    std::ifstream in(nameOrFile, std::ios::binary);
    if (!in) {
        std::string names;
        for (const auto& [name, text] : kBuiltinLessons) names += (names.empty() ? "" : ", ") + std::string(name);
        return makeError(Errc::parse_error,
                         "no lesson '" + nameOrFile + "': not a built-in one (" + names + ") nor a file that reads");
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (text.str().size() > (1u << 20))
        return makeError(Errc::parse_error, nameOrFile + ": more than 1 MiB: not a lesson");
    auto lesson = parseLesson(text.str(), nameOrFile, nameOrFile);
    if (lesson) {
        const auto dir = std::filesystem::path(nameOrFile).parent_path();
        lesson->dir = dir.empty() ? "." : dir.string();
    }
    return lesson;
}

Result<SortSettings> settingsAt(const Lesson& lesson, size_t stop, SortSettings s) {
    for (size_t i = 0; i <= stop && i < lesson.stops.size(); ++i)
        for (const auto& [key, value] : lesson.stops[i].settings)
            if (auto ok = applySetting(s, key, value); !ok)
                return makeError(Errc::parse_error, lesson.source + ":" + std::to_string(lesson.stops[i].line) + ": " +
                                                        ok.error().message);
    return s;
}

size_t stepAt(const Lesson& lesson, size_t stop, size_t steps) {
    for (size_t i = std::min(stop, lesson.stops.size() - 1) + 1; i-- > 0;) {
        const std::string& st = lesson.stops[i].step;
        if (st.empty()) {
            if (!lesson.stops[i].settings.empty()) return 0; // a new input starts at its beginning
            continue;
        }
        if (st == "end") return steps;
        return std::min<size_t>(steps, size_t(std::stoull(st, nullptr, 0))); // as number() read it
    }
    return 0;
}

} // namespace sortlab::app
