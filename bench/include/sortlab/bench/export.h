// --export DIR (sortlab-bench, `sortlab --bench`, and the app's benchmark panel): every result
// of a run as results.json (the --json schema, report.h) and results.csv, and the plot
// (plot.h) as plot.png and plot.svg.
#pragma once

#include <sortlab/bench/cases.h>
#include <sortlab/bench/options.h>

#include <string>
#include <vector>

namespace sortlab::bench {

struct ExportFiles {
    std::string json, csv, png, svg;
};

// Creates DIR (and its parents) when missing. Throws BenchError (exit 2) when it cannot.
void prepareExportDir(const std::string& dir);
// Writes the four files. The plot uses options.bandwidthGBs and options.plotN. Throws
// BenchError (exit 3) when a file cannot be written.
// bandwidthSource says where options.bandwidthGBs comes from, for the plot's note.
ExportFiles writeExport(const std::string& dir, const std::vector<CaseResult>& results, const Options& options,
                        const std::string& bandwidthSource = "--bandwidth");

} // namespace sortlab::bench
