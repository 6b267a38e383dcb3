// The step vocabulary: for code that reads a plan's steps and snapshots (the app's views, the CPU
// checks, sortlab-bench's trace, the tests). A plan (sortlab/sorter.h) is a list of Steps; each
// has a StepKind and a label for people, says where the keys are after it (KeyLocation), and
// carries the numbers of its algorithm (the fields below are grouped by the sorts that set them).
// A snapshot after a step shows parts of the scratch buffer beside the keys (SnapshotRegion, each
// an AuxKind).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sortlab {

// What a step does. Code branches on the kind; Step::label is the text for people.
enum class StepKind : uint8_t {
    layer,     // odd-even: one layer of the network, one dispatch
    tile,      // odd-even (fused): every layer whose comparators stay inside one shared-memory tile
    window,    // odd-even (fused): layers of one merge in subgroup windows
    count,     // radix4: each workgroup counts its tile's keys per digit
    scan,      // radix4: histogram and offsets of a pass; OneSweep: the offsets of every pass
    scatter,   // radix4: every key to its digit's next slot (stable)
    result,    // radix sorts: the result into the keys buffer, where the passes left it in the temporary
    histogram, // OneSweep: every pass's digit histogram in one read of the keys
    pass,      // OneSweep: one digit pass (the chained scan and the scatter)
    bounds,    // hybrid: where each bucket (keys sorted by their top 16 bits) begins and ends
    bucket,    // hybrid: the buckets sorted by their remaining bits, each in one workgroup
};
inline constexpr StepKind kAllStepKinds[] = {StepKind::layer, StepKind::tile,    StepKind::window, StepKind::count,
                                             StepKind::scan,  StepKind::scatter, StepKind::result, StepKind::histogram,
                                             StepKind::pass,  StepKind::bounds,  StepKind::bucket};
std::string_view stepKindName(StepKind k); // "layer", "tile", ... (the "kind" of --trace lines)
// The steps that move keys to new places by digit (radix4's scatters, OneSweep's passes).
constexpr bool isDigitPass(StepKind k) {
    return k == StepKind::scatter || k == StepKind::pass;
}

// What a snapshot shows beside the keys after a radix step (the sorters' snapshotRegions).
enum class AuxKind : uint8_t {
    passInfo,         // radix sorts {4}: pass, bit lo, bit hi, skipped (0/1: every key had the same digit)
    digitCounts,      // radix4 {16, workgroups}: keys of each workgroup's tile with each digit
    histogram,        // {radix}: keys with each digit in this pass
    offsets,          // {radix}: where each digit's keys start (exclusive scan of the histogram)
    workgroupOffsets, // radix4 {16, workgroups}: where each workgroup's keys of each digit start
    allHistograms,    // OneSweep {passes, 256}: every pass's histogram (one read of the keys)
    allOffsets,       // OneSweep {passes, 256}: every pass's offsets
    tileStatus,       // OneSweep {tiles, 256}: each tile's status flag (0 not ready, 1 aggregate, 2 inclusive)
    tileCounts,       // OneSweep {tiles, 256}: the count in each tile's status word
    fallbacks,        // OneSweep {1}: tiles of the pass that counted a predecessor's keys themselves
    lookbackLog,      // OneSweep with logLookback {tiles, record}: each tile's (sortlab/lookback.h reads them)
    uniformTiles,     // OneSweep {1}: tiles of the pass whose keys all had one digit (written out unranked)
};
inline constexpr AuxKind kAllAuxKinds[] = {AuxKind::passInfo,   AuxKind::digitCounts,      AuxKind::histogram,
                                           AuxKind::offsets,    AuxKind::workgroupOffsets, AuxKind::allHistograms,
                                           AuxKind::allOffsets, AuxKind::tileStatus,       AuxKind::tileCounts,
                                           AuxKind::fallbacks,  AuxKind::lookbackLog,      AuxKind::uniformTiles};
// "pass", "digit counts", "histogram", ...: the names of --trace and --dump-state's "aux".
std::string_view auxKindName(AuxKind k);

// Where the keys (and values) are: in the keys buffer, in keysTemp, or where the GPU decided.
// A radix pass in which every key has the same digit is skipped on the GPU and moves nothing, so
// after it the GPU writes where the keys are into the 32-bit scratch word at wordOffset (0: keys,
// 1: keysTemp); SortJob::keysInTemp() reads it.
struct KeyLocation {
    enum class Kind : uint8_t { keys, keysTemp, scratchWord };
    Kind kind = Kind::keys;
    uint64_t wordOffset = 0; // Kind::scratchWord: the word's index in the scratch buffer (4 bytes a word)

    static constexpr KeyLocation inKeys() { return {Kind::keys, 0}; }
    static constexpr KeyLocation inKeysTemp() { return {Kind::keysTemp, 0}; }
    static constexpr KeyLocation inScratchWord(uint64_t wordOffset) { return {Kind::scratchWord, wordOffset}; }
    bool operator==(const KeyLocation&) const = default;
};

// One step of a plan: one or a few dispatches. Which fields mean something depends on the algorithm.
struct Step {
    std::string label; // "merge 8, stride 2", "pass 2: bits 8..15, scatter"
    StepKind kind = StepKind::layer;
    KeyLocation keysAfter; // where the keys are after this step
    // Odd-even network: the layers this step runs, in network order (layer index l counts from
    // 0 over all (p, k) of the network), and the merge/stride range.
    uint32_t firstLayer = 0, layerCount = 0;
    uint32_t logP = 0, logKHi = 0, logKLo = 0; // merges of 2^logP (tile: all merges p < 2^logP)
    // Odd-even window geometry (StepKind::window), chosen by the planner.
    uint32_t logR = 0, centreRows = 0, halo = 0;
    uint64_t windows = 0; // windows (one subgroup each) the step runs
    // Radix sorts: which pass and digit bits [bitLo, bitHi).
    uint32_t pass = 0, bitLo = 0, bitHi = 0;
    // Every sort: workgroups; radix sorts: tiles (OneSweep pass: a persistent pass kernel runs
    // fewer workgroups, each taking tiles in turn; see dispatchedWorkgroups).
    uint64_t workgroups = 0;
    // OneSweep pass: the workgroups each of its dispatches starts, at most (0: one per tile).
    uint64_t dispatchedWorkgroups = 0;
    // OneSweep pass: the chained scans it runs one after another (portions of at most 2^29 - 1
    // keys). The first tile of each is inclusive at once and never falls back, so under forced
    // fallback workgroups - portions tiles fall back.
    uint64_t portions = 0;
    // OneSweep pass: each workgroup's tile is its own index (on NVIDIA GPUs, u32 keys:
    // tuning::OneSweepTuning::minIndexTiles), not the next id from the pass's counter.
    bool tilesByIndex = false;
};

// Part of the scratch buffer a snapshot shows after a step: `shape` (row-major) entries at word
// `wordOffset`, rows `rowStride` words apart (0: packed). Entries are 32-bit words, or 64-bit
// ones shown as their low 32 bits, or OneSweep's 32-bit tile status words shown as their flag
// (0 not ready, 1 aggregate, 2 inclusive prefix) or their count (shaders/constants.h).
struct SnapshotRegion {
    enum class Format : uint8_t { u32, u64, statusFlag, statusCount };
    AuxKind kind = AuxKind::histogram;
    std::vector<uint32_t> shape;
    uint64_t wordOffset = 0;
    uint32_t rowStride = 0;
    Format format = Format::u32;
};

} // namespace sortlab
