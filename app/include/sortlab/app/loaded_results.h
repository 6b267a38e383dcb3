// Results measured elsewhere, drawn in the benchmark panel beside its own sweep: the --json output
// of sortlab-bench (or `sortlab --bench --json`), or the results.json of an export (`--export`, the
// panel's Export). They come from `--load-results FILE...`, the panel's "Load results" field and the
// script verb `load-results FILE`. So a classroom on lavapipe can show what the sorts did on the
// H100/H200 the project measured (docs/results/).
#pragma once

#include <sortlab/plot/plot.h>

#include <sortlab/result.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sortlab::app {

// What a loaded file added.
struct LoadSummary {
    size_t rows = 0;
    std::vector<std::string> machines; // the machines its rows were measured on
};

// The loaded files and their rows. Several files merge: a file loaded again replaces its own rows
// (the same lines, never twice), and a point that several files have (the same algorithm,
// variant, machine, configuration and n) is taken from the file loaded last.
class LoadedResults {
public:
    // Reads a file and adds its rows (tagged "loaded": plot::Row::tag). On error ("FILE: what": no
    // such file, not JSON, not an array of rows of the --json schema, no rows at all) nothing
    // loaded before is lost.
    Result<LoadSummary> load(const std::string& path);
    void clear();
    bool empty() const { return files_.empty(); }

    // Every loaded point once, in the order of the files, and the file (as given) of each.
    const std::vector<plot::Row>& rows() const { return rows_; }
    const std::vector<std::string>& rowFiles() const { return rowFiles_; }
    std::vector<std::string> files() const;             // as given, in the order loaded
    uint64_t generation() const { return generation_; } // changes whenever rows() does

private:
    struct File {
        std::string path, canonical;
        std::vector<plot::Row> rows;
    };
    void merge();
    std::vector<File> files_;
    std::vector<plot::Row> rows_;
    std::vector<std::string> rowFiles_;
    uint64_t generation_ = 0;
};

// Reads the rows of one results file: "FILE: what" when it cannot (the message of --load-results'
// usage error and of the panel).
Result<std::vector<plot::Row>> readResultsFile(const std::string& path);

// One loaded line of the benchmark plot, as --dump-state lists it.
struct LoadedLine {
    std::vector<std::string> files;                  // the files its points come from
    std::string label, algo, device;                 // device: the machine (plot::Row::machine)
    std::vector<std::pair<uint64_t, double>> points; // (n, Gkeys/s), ascending n
};

// The lines of figure f drawn from loaded rows (tag "loaded"); f.rows[firstLoaded + i] is
// loaded.rows()[i].
std::vector<LoadedLine> loadedLines(const plot::Figure& f, size_t firstLoaded, const LoadedResults& loaded);

} // namespace sortlab::app
