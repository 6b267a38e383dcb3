// Guided lessons: a prepared path through a sort, stop by stop, each setting the state (the sort,
// its input, the step, the lookback replay), narrating it, pointing at one thing and perhaps
// asking the class what the GPU will do in the next step. The answer comes from the buffers the
// GPU wrote in that step. The format is plain text a teacher writes by hand (docs/lessons.md); the
// built-in lessons are in lessons/, compiled into the app.
#pragma once

#include <sortlab/app/lookback_replay.h>
#include <sortlab/app/settings.h>
#include <sortlab/app/sort_worker.h>

#include <sortlab/result.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sortlab::app {

// What a stop points at.
enum class HighlightKind : uint8_t { none, key, layer, digit, workgroup, tile };
struct Highlight {
    HighlightKind kind = HighlightKind::none;
    uint64_t index = 0;
    int line = 0; // in its lesson file
};

// What a stop's text is about, beyond what it points at: a part of a view that must be on screen,
// whole, while the stop shows (`@subject`, or inferred from the stop's highlight and question:
// lessonSubjects). The layout brings it into view; the lesson's check (visible.subject) measures it.
enum class SubjectKind : uint8_t {
    array,            // the Array view's bars
    network,          // the Network view's diagram
    binary,           // the Radix view's keys in binary
    histogram,        // the digit histogram
    offsets,          // the exclusive offsets
    counts,           // radix4: the per-workgroup digit counts
    workgroupOffsets, // radix4: the per-workgroup offsets
    replay,           // OneSweep: the lookback replay
    tileStatus,       // OneSweep: the tile status map
    allHistograms,    // OneSweep: the histograms of every pass
    allOffsets,       // OneSweep: the offsets of every pass
};
std::string_view subjectKindName(SubjectKind k);

// A question. Graded ones are about the next step: the answer runs it, and the GPU's buffers after
// it give a number that depends only on the input and the algorithm. `depth` depends on which
// workgroups the GPU ran first, so it is a prediction about the pass shown (with its replay),
// never graded: the answer plays the replay to the end of that tile's walk.
enum class QuestionKind : uint8_t {
    swaps, // odd-even: how many comparators of the next layer swap their keys
    where, // the key now at index `arg`: at which index is it after the next step
    count, // radix: how many keys have digit `arg` in the next pass (its histogram)
    depth, // OneSweep: how many tiles back tile `arg`'s walk went for the replayed digit (ungraded)
};
constexpr bool graded(QuestionKind k) {
    return k != QuestionKind::depth;
}
struct Question {
    QuestionKind kind = QuestionKind::swaps;
    uint64_t arg = 0;
    std::string text; // as the teacher wrote it
    int line = 0;     // in its lesson file
};

// A wrong answer that a likely mistake gives, computed from the same step's keys and buffers: the
// number, and one sentence that says which mistake gives it ("5 is index 4 counted from 1 ...").
struct Slip {
    uint64_t value = 0;
    std::string why;
    bool alone = false; // told alone when it fits first (the key's value given for its index)
};
// A question's answer as the GPU's buffers give it, how the GPU got it from what the views show
// (the feedback's arithmetic: "2 = 2 (where digit 5 starts) + 0 + 0"), and the cells it uses.
// With it, what the feedback says to a wrong answer: the answers that can be at all (`least` to
// `most`, each with why no other can), and the slips this step's data explains.
struct Answer {
    uint64_t value = 0;
    std::string how;
    std::vector<uint64_t> keys; // key indices (after the step) to outline
    std::optional<uint64_t> digit, workgroup, tile;
    std::optional<int> replayShown; // depth: the replay's events up to the end of the walk
    uint64_t least = 0, most = UINT64_MAX;
    std::string belowLeast, aboveMost; // "indices start at 0", "the 10 keys are at indices 0 to 9"
    std::vector<Slip> slips;           // in the order they are told; a number may fit more than one
    std::string otherwise;             // for any other possible wrong answer (may be empty)
};

struct LessonStop {
    int line = 0; // where it starts in its file
    std::string title;
    std::string narration;                                     // paragraphs separated by blank lines
    std::vector<std::pair<std::string, std::string>> settings; // applySetting keys, in order
    std::string step;                                          // "" (where the last stop left it), a number or end
    int stepLine = 0;                                          // @step's line
    std::optional<int> replayDigit, replayEvent;               // OneSweep's replay (-1: auto / the end)
    Highlight highlight;
    std::optional<Question> question;
    std::vector<SubjectKind> subjects; // @subject, in the order written
    int subjectLine = 0;
};

struct Lesson {
    std::string name;   // the built-in name or the file
    std::string title;  // the "# " line
    std::string source; // for messages: the file, or "lesson NAME"
    std::string dir;    // the lesson file's folder ("" for a built-in lesson)
    std::vector<LessonStop> stops;
    // `@recording FILE` lines (anywhere): recordings replayed wherever a stop's settings give their
    // run (recording.h: found beside the lesson file or in the app's data), with their lines.
    std::vector<std::pair<std::string, int>> recordings;
};

// Parses a lesson; errors are one line: "SOURCE:LINE: what was expected".
Result<Lesson> parseLesson(std::string_view text, const std::string& source, const std::string& name);
// Every stop's question and highlight against the state the stop will have; "SOURCE:LINE: what".
Result<void> checkStops(const Lesson& lesson);
// What a stop's settings plan, as far as it is known without a device: the steps (none for the
// fused network, whose steps depend on the device's subgroup size), the network's layers, and the
// radix sorts' tiles (0 with the tuned tile, whose size the device decides).
struct LessonPlan {
    std::optional<std::vector<Step>> steps;
    uint64_t layers = 0, tiles = 0;
};
LessonPlan lessonPlan(const SortSettings& s);
// Stop `stop`'s step, highlight and question against the plan its settings `s` make: a step past
// the end, a graded question on the last step, a layer, tile, workgroup or pass out of range.
Result<void> checkStopRanges(const Lesson& lesson, size_t stop, const SortSettings& s);
// The built-in lessons: name and title, in teaching order.
std::vector<std::pair<std::string, std::string>> builtinLessons();
// A built-in lesson by name, or a lesson file.
Result<Lesson> loadLesson(const std::string& nameOrFile);

// The stop's state: the settings of every stop up to it applied in order to `base`.
Result<SortSettings> settingsAt(const Lesson& lesson, size_t stop, SortSettings base);
// The step the stop shows (its own, else the last stop's that set one; 0 at first); `steps` is the plan's.
size_t stepAt(const Lesson& lesson, size_t stop, size_t steps);

// The answer to a question from the step it is about: for graded questions the step after the
// stop's (`data`, with its previous snapshot), for `depth` the stop's own pass; an error when the
// state cannot answer it.
Result<Answer> answerOf(const Question& q, const StepData& data, const JobInfo& job,
                        const LookbackReplayChoice& replay);
// Where a radix pass put the key it moved from index `from` to `to`, from the pass's buffers in
// `after`: its digit's start + the keys of its digit in the workgroups (radix4) or tiles
// (OneSweep) before its own + its rank in its own. None when the step has no such buffers.
struct RadixPlace {
    uint32_t digit = 0;
    uint64_t group = 0; // its workgroup or tile
    uint64_t start = 0, before = 0, rank = 0;
    bool tiles = false; // OneSweep's tiles, not radix4's workgroups
};
std::optional<RadixPlace> radixPlace(const Snapshot& after, const JobInfo& job, const Step& st, uint64_t from,
                                     uint64_t to);
// The feedback: right, wrong or impossible (or the prediction), the mistake a wrong number fits,
// then how the GPU got its number. `given` is signed: a class may type -1.
std::string feedbackText(const Question& q, std::optional<int64_t> given, const Answer& a);
std::string_view questionKindName(QuestionKind k);
// The parts of the views a stop is about while it shows (answered: after its answer): its
// @subject, else what its highlight and question imply (a workgroup: the counts; a digit: the
// histogram; a tile or a depth question: the replay; a count's answer: the counts (radix4) or the
// histogram; a radix `where` answer: the offsets and the workgroup offsets). Bit i: SubjectKind i.
uint32_t lessonSubjects(const LessonStop& stop, Algorithm algo, bool answered);
// The network layers (0-based, sorted, each once) a stop names, of a network of `layers` layers:
// its @highlight layer, every layer of the network for @subject network, and those its title,
// text and question name ("layer 4", "layers 6 and 10", "layers 2 to 5", "the last four layers").
// The lesson's check (visible.subject) requires each of them on screen.
std::vector<uint32_t> lessonLayers(const LessonStop& stop, uint64_t layers);
std::string_view highlightKindName(HighlightKind k);

} // namespace sortlab::app
