// What sortlab-bench prints and writes: the device list (--list-devices), the header, the
// aligned results table on stdout (one row per algorithm and case, printed as each case
// finishes), and the --json file (one object per row).
#pragma once

#include "cases.h"

#include <sortlab/context.h>

#include <cstdio>
#include <string>
#include <vector>

namespace bench {

struct Column; // a table column (report.cpp)

void printDeviceList(const std::vector<sortlab::DeviceInfo>& devices);
// Device, driver, the lavapipe WARNING, the CUB anchor (when loaded), and what is measured.
void printHeader(const sortlab::DeviceInfo* device, const Options& options, const CubAnchor* anchor = nullptr);

class Reporter {
public:
    // Opens the --json file now (when given), so that an unwritable path fails before any case runs.
    explicit Reporter(const Options& options);
    ~Reporter();
    void addCase(const std::vector<CaseResult>& results); // prints the rows, keeps them for the JSON
    // Writes the JSON array of every row so far (also after an error: what was measured). Once.
    void writeJson();
    size_t rows() const { return results_.size(); }

private:
    void printTableHeader();
    void printRow(const std::vector<std::string>& cells) const;
    const Options& opt_;
    std::FILE* json_ = nullptr;
    bool headerPrinted_ = false, jsonWritten_ = false;
    std::vector<CaseResult> results_;
    std::vector<Column> columns_; // the table's columns ("x cub" only with --anchor cub)
};

} // namespace bench
