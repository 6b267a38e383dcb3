// The checkers of sortlab-bench's output (bench_cli_check, radix_trace_check): a failed check
// throws, and main prints it as the one line on stderr; the JSON files are read here, so that a
// malformed one is named with its line.
#pragma once

#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace json_check {

using Json = nlohmann::json;

[[noreturn]] inline void fail(const std::string& message) {
    throw std::runtime_error(message);
}

inline void expect(bool ok, const std::string& message) {
    if (!ok) fail(message);
}

// A whole file of one JSON document (--json).
inline Json readJsonFile(const std::string& path) {
    std::ifstream in(path);
    expect(in.good(), "cannot read " + path);
    try {
        return Json::parse(in);
    } catch (const std::exception& e) {
        fail(path + " is not JSON: " + e.what());
    }
}

// A file of one JSON document a line (--trace); element i is line i + 1.
inline std::vector<Json> readJsonLines(const std::string& path) {
    std::ifstream in(path);
    expect(in.good(), "cannot read " + path);
    std::vector<Json> lines;
    std::string text;
    while (std::getline(in, text)) {
        try {
            lines.push_back(Json::parse(text));
        } catch (const std::exception& e) {
            fail(path + ":" + std::to_string(lines.size() + 1) + ": not JSON: " + e.what());
        }
    }
    return lines;
}

} // namespace json_check
