// Writes generated lessons (lesson_fuzz.h) for app_lesson_fuzz_run: the first ACCEPTED that the
// checks accept and that ask a question (one a sort first, then any), as DIR/ok-SEED.lesson, and the
// first REFUSED that they refuse, as DIR/bad-SEED.lesson with the expected message in
// DIR/bad-SEED.error. Usage: sortlab-lesson-fuzz DIR ACCEPTED REFUSED
#include "lesson_fuzz.h"

#include <sortlab/app/lesson.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: sortlab-lesson-fuzz DIR ACCEPTED REFUSED\n");
        return 2;
    }
    const std::string dir = argv[1];
    const int wantOk = std::atoi(argv[2]), wantBad = std::atoi(argv[3]);
    int ok = 0, bad = 0;
    std::set<std::string> sorts;    // one accepted lesson a first sort before repeating one
    std::set<std::string> refusals; // one refused lesson a kind of refusal ("@step 99", "@ask swaps", ...)
    for (uint64_t seed = 1; seed < 100000 && (ok < wantOk || bad < wantBad); ++seed) {
        const std::string text = sortlab::test::fuzzLesson(seed);
        auto l = sortlab::app::parseLesson(text, "x", "x");
        const std::string stem = dir + "/" + (l ? "ok-" : "bad-") + std::to_string(seed);
        if (l) {
            bool asks = false;
            for (const auto& s : l->stops) asks = asks || s.question.has_value();
            const std::string sort = l->stops[0].settings.empty() ? "" : l->stops[0].settings[0].second;
            if (ok >= wantOk || !asks || l->stops.size() < 2 || (sorts.count(sort) && sorts.size() < 4)) continue;
            sorts.insert(sort);
            ++ok;
        } else {
            const std::string& m = l.error().message;
            const size_t at = m.find(": ") + 2;
            const std::string kind = m.substr(at, m.find(':', at) - at);
            if (bad >= wantBad || !refusals.insert(kind.substr(0, kind.rfind(' '))).second) continue;
            ++bad;
            // The app names the file as given: the message with "x" replaced by the file's path.
            std::ofstream(stem + ".error") << l.error().message.substr(1);
        }
        std::ofstream(stem + ".lesson") << text;
    }
    std::printf("%d accepted, %d refused lessons in %s\n", ok, bad, dir.c_str());
    return ok == wantOk && bad == wantBad ? 0 : 1;
}
