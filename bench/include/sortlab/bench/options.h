// The parsed command line of sortlab-bench, and the parsers for its list and size syntax.
// Every parser throws BenchError (exit code 2) with a message naming the option and the
// accepted forms.
#pragma once

#include <sortlab/data.h>
#include <sortlab/keys.h>
#include <sortlab/sorter.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace sortlab::bench {

struct AlgoSpec;

// --onesweep-shape WxK[xP][+counts-in-tile|+counts-apart][+N-rounds][+one-tile]: OneSweep's pass
// kernel in another shape than its tuning table's, for tuning experiments: W invocations a
// workgroup, K keys each, P persistent workgroups per multiprocessor (0 or left out: the table's),
// the subgroups' digit counts in the staged tile's shared memory or apart (left out: the table's),
// the write-out in N rounds (a staged tile of 1 / N of the tile; 32-bit keys), one tile a workgroup.
struct OneSweepShape {
    uint32_t workgroup = 0, keysPerLane = 0, perMultiprocessor = 0;
    int countsInTile = -1;       // -1: the tuning table's; 0: the counts apart; 1: in the staged tile's words
    uint32_t exchangeRounds = 0; // 0: the tuning table's
    bool oneTile = false;        // one tile a workgroup
    int indexTiles = -1; // one tile a workgroup: -1 the table's; 0 tile ids from the counter; 1 the workgroup's index
    bool set() const { return workgroup != 0; }
    std::string name() const; // "256x16x2", "256x16", "640x16+counts-in-tile", "384x20x2+2-rounds+one-tile",
                              // "448x16+2-rounds+one-tile+index-tiles"
};

// --onesweep-histogram WxP[xC[xL]]: OneSweep's histogram kernel in another shape than its tuning
// table's, for tuning experiments: W invocations a workgroup, P workgroups per multiprocessor at
// every n (down to 16 keys an invocation), C copies of its counts in shared memory (1 or 2), L keys
// an invocation loads before it counts them (0 or left out: the table's).
struct OneSweepHistogram {
    uint32_t workgroup = 0, perMultiprocessor = 0, copies = 0, loads = 0;
    bool set() const { return workgroup != 0; }
    std::string name() const; // "hist256x8", "hist640x3x1x16"
};

struct Options {
    bool listDevices = false;
    std::string device; // ContextOptions::device: "" (best), an index, or part of a name

    std::vector<const AlgoSpec*> algos;
    std::vector<sortlab::KeyType> types;
    std::vector<sortlab::ValueType> values;
    std::vector<sortlab::Order> orders;
    std::vector<sortlab::Distribution> dists;
    std::vector<uint64_t> sizes;
    uint64_t seed = 1;
    // --keys TEXT or --input FILE: the keys themselves (Distribution::custom, n from them), as
    // sortlab::parseKeys read them for each --type.
    std::map<sortlab::KeyType, std::vector<std::byte>> customKeys;
    int reps = 5;

    bool check = false;
    std::string jsonPath;
    std::string tracePath;
    bool validation = false;
    std::chrono::nanoseconds timeout = std::chrono::seconds(60);
    // The knobs every case runs with (configFor): --shared-elems (oddEvenTileKeys), --tile-keys
    // (radixTileKeys), --force-fallback, --either-buffer (resultInEither).
    sortlab::SortKnobs knobs;
    bool lookbackLog = false;    // --lookback-log: OneSweep's instrumented pass kernel, its log in --trace
    bool lookbackStats = false;  // --lookback-stats: OneSweep timed with the instrumented kernel, its log summed up
    bool pipelineStats = false;  // --pipeline-stats: each row lists its pipelines with the driver's statistics
    OneSweepShape oneSweepShape; // --onesweep-shape: the pass kernel's shape (variant name +WxK[xP][+...])
    OneSweepHistogram oneSweepHistogram; // --onesweep-histogram: the histogram kernel's (variant name +histWxP...)
    bool anchorCub = false;              // --anchor cub: also run cub::DeviceRadixSort (bench/cub/) on every case
    bool quiet = false;
    bool corruptResult = false; // hidden, for the CLI tests: flip one key of each GPU result
    int warmupMs = 1000;        // untimed runs before the timed reps: at least this long (>= 1 run)
    bool keepGoing = false;     // a case that fails becomes an error row; the run goes on

    // --export DIR: results.json, results.csv, plot.png and plot.svg (export.h).
    std::string exportDir;
    double bandwidthGBs = -1; // the plot's bandwidth floor: copy GB/s (-1: the known figure, 0: none)
    uint64_t plotN = 0;       // the size of the plot's per-step breakdown (0: the largest with step times)
    int plotLogY = -1;        // the plot's Gkeys/s axis: 0 linear, 1 log, -1 auto (plot.h: Style::logY)

    bool needsGpu() const;
};

// The largest n --trace accepts (a trace line holds every key).
inline constexpr uint64_t kMaxTraceN = 4096;

// "a,b,c" -> {"a", "b", "c"}; empty items are an error.
std::vector<std::string> splitList(std::string_view text, std::string_view option);

// "1000", "2^20" -> the number. Throws for anything else, for 0, and for overflow.
uint64_t parseCount(std::string_view text, std::string_view option);
// --n: a comma list of counts.
std::vector<uint64_t> parseSizeList(std::string_view text);
// --sizes A..B: every power of two p with A <= p <= B ("2^10..2^20", "1024..1048576").
std::vector<uint64_t> parseSizeRange(std::string_view text);

std::vector<sortlab::KeyType> parseTypes(std::string_view text); // also "all"
std::vector<sortlab::ValueType> parseValues(std::string_view text);
std::vector<sortlab::Order> parseOrders(std::string_view text);
std::vector<sortlab::Distribution> parseDists(std::string_view text); // also "all"
OneSweepShape parseOneSweepShape(std::string_view text);              // "256x16", "256x16x2", "640x17+counts-in-tile"
OneSweepHistogram parseOneSweepHistogram(std::string_view text);      // "256x8", "640x3x1x16"
// --anchor: "cub" (the only anchor) -> true; "none" -> false.
bool parseAnchor(std::string_view text);

} // namespace sortlab::bench
