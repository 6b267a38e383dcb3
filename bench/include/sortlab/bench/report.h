// What sortlab-bench prints and writes: the device list (--list-devices), the header, the
// aligned results table on stdout (one row per algorithm and case, printed as each case
// finishes), and the --json file (one object per row).
#pragma once

#include <sortlab/bench/cases.h>

#include <sortlab/context.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace sortlab::bench {

struct Column; // a table column (report.cpp)

void printDeviceList(const std::vector<sortlab::DeviceInfo>& devices);
// Device, driver, the lavapipe WARNING, the CUB anchor (when loaded), and what is measured.
void printHeader(const sortlab::DeviceInfo* device, const Options& options, const CubAnchor* anchor = nullptr);

// The --json array: one object per row, in the order run. sortlab-bench --json, --export and
// the app's benchmark panel all write it with this function, so they share one schema
// (docs/benchmarks.md lists the fields). Error rows (keepGoing) add "error".
nlohmann::ordered_json resultsJson(const std::vector<CaseResult>& results);
// Rows of resultsJson as CSV (RFC 4180): one column per field, in the same order; the arrays as
// one cell each ("rep_ms": "1.2;1.3"; "step_ms": "label=ms;..."), null as empty.
std::string csvFromJson(const nlohmann::ordered_json& rows);

class Reporter {
public:
    // Opens the --json file now (when given), so that an unwritable path fails before any case runs.
    explicit Reporter(const Options& options);
    ~Reporter();
    void addCase(const std::vector<CaseResult>& results); // prints the rows, keeps them for the JSON
    // Writes the JSON array of every row so far (also after an error: what was measured). Once.
    void writeJson();
    size_t rows() const { return results_.size(); }
    const std::vector<CaseResult>& results() const { return results_; }

private:
    void printTableHeader();
    void printRow(const std::vector<std::string>& cells) const;
    const Options& opt_;
    std::FILE* json_ = nullptr;
    bool headerPrinted_ = false, jsonWritten_ = false;
    std::vector<CaseResult> results_;
    std::vector<Column> columns_; // the table's columns ("x cub" only with --anchor cub)
};

} // namespace sortlab::bench
