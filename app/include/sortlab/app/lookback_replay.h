// The replay of a OneSweep pass's lookback, from the instrumented kernel's log (a pass step's
// AuxKind::lookbackLog): for one digit, the events that change its status words, and the status
// words of every tile after the first `shown` of them. The view draws it; --dump-state writes it.
#pragma once

#include <sortlab/job.h>
#include <sortlab/lookback.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sortlab::app {

// The user's choice (UiState): the digit (-1: the pass's most common one) and how many of its
// events are shown (-1: all of them, the state the pass left).
struct LookbackReplayChoice {
    int digit = -1;
    int shown = -1;
};

struct LookbackReplay {
    std::vector<LookbackRecord> records; // per tile
    uint32_t digit = 0;
    std::vector<LookbackEvent> events; // the digit's, in the order the GPU numbered them
    size_t shown = 0;                  // events [0, shown) have happened
    LookbackState state;               // every tile's status word for the digit, after them
    LookbackStats stats;               // the pass's whole log in numbers
    const LookbackEvent* last() const { return shown ? &events[shown - 1] : nullptr; }
};

// Null when the snapshot has no lookback log (not a OneSweep pass, or the log is off).
std::optional<LookbackReplay> lookbackReplay(const Snapshot& s, const LookbackReplayChoice& choice);
// The same pass for another choice: the digit's events and state again, the records and statistics
// (the costly part: 776 words a tile) kept. `s` is the snapshot `r` was made from.
void rechoose(LookbackReplay& r, const Snapshot& s, const LookbackReplayChoice& choice);

// The tiles tile `tile`'s walk for the replayed digit read as aggregates and walked past that show
// an inclusive prefix after the first `shown` events: they published it after the walk read them.
// Nearest first; none for a walk that counted a tile itself (which tiles it read is not logged).
std::vector<uint32_t> publishedSinceRead(const LookbackReplay& r, uint32_t tile, size_t shown);
// "Tiles 4 and 3 show I now, but had none yet when tile 5 read them.", or "".
std::string publishedSinceReadText(const LookbackReplay& r, uint32_t tile, size_t shown);

// The digit with the most keys in the snapshot's pass (its "histogram"), 0 without one.
uint32_t mostCommonDigit(const Snapshot& s);

} // namespace sortlab::app
