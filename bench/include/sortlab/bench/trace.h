// --trace FILE: the step path of every GPU algorithm, as JSON lines. For each case and GPU
// algorithm: a line with the input ("step": 0), then one line per plan step with the keys (and
// values) read back from the GPU after that step. The odd-even sorts are traced with their
// per-layer plan, so that every line is exactly one layer of Batcher's network.
//
// Keys are typed JSON values: integers for u32/i32/u64/i64; numbers for floats (shortest text
// that reads back to the same float, -0.0 written as -0.0), except non-finite ones, written as
// the strings "nan", "-nan", "inf", "-inf".
#pragma once

#include <sortlab/bench/algos.h>
#include <sortlab/bench/cases.h>

#include <sortlab/context.h>
#include <sortlab/sorter.h>

#include <cstdio>
#include <span>
#include <string>

namespace sortlab::bench {

class TraceWriter {
public:
    // Opens (truncates) the file now; an unwritable path is a usage error.
    explicit TraceWriter(const std::string& path);
    ~TraceWriter();
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    void traceCase(sortlab::Context& ctx, sortlab::Sorter& sorter, const AlgoSpec& algo, const CaseSpec& spec,
                   std::span<const std::byte> keys, std::span<const uint32_t> values, const sortlab::SortKnobs& knobs,
                   bool lookbackLog = false);
    size_t lines() const { return lines_; }

private:
    void writeLine(const std::string& line);
    std::string path_;
    std::FILE* file_ = nullptr;
    size_t lines_ = 0;
};

// Key i of a raw key array as a JSON value (see above).
std::string jsonKey(std::span<const std::byte> keys, size_t i, sortlab::KeyType type);

} // namespace sortlab::bench
