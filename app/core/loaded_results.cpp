#include <sortlab/app/loaded_results.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <tuple>

namespace sortlab::app {
namespace {

namespace fs = std::filesystem;

// A results file of the whole 2^10..2^28 sweep is about 100 KB; anything this large is not one.
constexpr uintmax_t kMaxResultsBytes = uintmax_t(256) << 20;

Error fileError(const std::string& path, const std::string& what) {
    return makeError(Errc::parse_error, path + ": " + what);
}

Result<std::string> readWhole(const std::string& path) {
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (!fs::exists(st)) return fileError(path, "no such file");
    if (fs::is_directory(st))
        return fileError(path, fs::exists(fs::path(path) / "results.json") ? "a directory: load the results.json in it"
                                                                           : "a directory, not a results file");
    const uintmax_t size = fs::file_size(path, ec);
    if (ec) return fileError(path, "cannot read it (" + ec.message() + ")");
    if (size > kMaxResultsBytes) return fileError(path, std::to_string(size) + " bytes: too large for a results file");
    std::ifstream in(path, std::ios::binary);
    if (!in.is_open()) return fileError(path, "cannot open it");
    std::string text(size_t(size), '\0');
    in.read(text.data(), std::streamsize(size));
    if (!in) return fileError(path, "cannot read it");
    return text;
}

// nlohmann's "[json.exception.parse_error.101] parse error at line 2, ..." without its bracket.
std::string parseWhat(const std::exception& e) {
    std::string what = e.what();
    if (what.rfind("[json.exception.", 0) == 0)
        if (const size_t close = what.find("] "); close != std::string::npos) what.erase(0, close + 2);
    return what;
}

} // namespace

Result<std::vector<plot::Row>> readResultsFile(const std::string& path) {
    auto text = readWhole(path);
    if (!text) return text.error();
    const std::string expected = "expected the --json output of sortlab-bench, or an export's results.json";
    nlohmann::ordered_json j;
    try {
        j = nlohmann::ordered_json::parse(*text);
    } catch (const nlohmann::json::parse_error& e) {
        const size_t first = text->find_first_not_of(" \t\r\n");
        if (first == std::string::npos) return fileError(path, "empty, not JSON (" + expected + ")");
        // sortlab-bench's rows, one a line (docs/results' *.jsonl): not what --json writes.
        if ((*text)[first] == '{' && std::string(e.what()).find("expected end of input") != std::string::npos)
            return fileError(path, "JSON lines, one object a line, not a JSON array of results (" + expected + ")");
        return fileError(path, "not JSON: " + parseWhat(e));
    }
    if (!j.is_array())
        return fileError(path, std::string("a JSON ") + j.type_name() + ", not an array of results (" + expected + ")");
    if (j.empty()) return fileError(path, "no results in it (an empty array)");
    try {
        std::vector<plot::Row> rows = plot::rowsFromJson(j);
        for (plot::Row& r : rows) r.tag = "loaded";
        return rows;
    } catch (const std::exception& e) {
        return fileError(path, e.what());
    }
}

Result<LoadSummary> LoadedResults::load(const std::string& path) {
    auto rows = readResultsFile(path);
    if (!rows) return rows.error();
    LoadSummary summary;
    summary.rows = rows->size();
    for (const plot::Row& r : *rows)
        if (std::find(summary.machines.begin(), summary.machines.end(), r.machine) == summary.machines.end())
            summary.machines.push_back(r.machine);
    // The same file under another name (./a.json, a.json, a link to it) is the same file.
    std::error_code ec;
    std::string canonical = fs::weakly_canonical(path, ec).string();
    if (ec) canonical = path;
    auto same = std::find_if(files_.begin(), files_.end(), [&](const File& f) { return f.canonical == canonical; });
    if (same != files_.end())
        same->rows = std::move(*rows);
    else
        files_.push_back({path, canonical, std::move(*rows)});
    merge();
    return summary;
}

void LoadedResults::clear() {
    files_.clear();
    merge();
}

std::vector<std::string> LoadedResults::files() const {
    std::vector<std::string> out;
    for (const File& f : files_) out.push_back(f.path);
    return out;
}

void LoadedResults::merge() {
    using Key = std::tuple<std::string, std::string, std::string, std::string, std::string, std::string, std::string,
                           uint64_t>; // algo, variant, machine, type, values, order, dist, n
    std::map<Key, size_t> at;
    rows_.clear();
    rowFiles_.clear();
    for (const File& f : files_)
        for (const plot::Row& r : f.rows) {
            const Key k{r.algo, r.variant, r.machine, r.type, r.values, r.order, r.dist, r.n};
            if (auto it = at.find(k); it != at.end()) { // a later file's point replaces the earlier one
                rows_[it->second] = r;
                rowFiles_[it->second] = f.path;
                continue;
            }
            at.emplace(k, rows_.size());
            rows_.push_back(r);
            rowFiles_.push_back(f.path);
        }
    ++generation_;
}

std::vector<LoadedLine> loadedLines(const plot::Figure& f, size_t firstLoaded, const LoadedResults& loaded) {
    std::vector<LoadedLine> out;
    for (const plot::Series& s : f.series) {
        if (s.tag != "loaded") continue;
        LoadedLine line;
        line.label = s.label;
        line.algo = s.algo;
        line.device = s.machine;
        for (size_t i : s.rows) {
            const plot::Row& r = f.rows[i];
            line.points.emplace_back(r.n, r.gkeys);
            if (i < firstLoaded || i - firstLoaded >= loaded.rowFiles().size()) continue;
            const std::string& file = loaded.rowFiles()[i - firstLoaded];
            if (std::find(line.files.begin(), line.files.end(), file) == line.files.end()) line.files.push_back(file);
        }
        out.push_back(std::move(line));
    }
    return out;
}

} // namespace sortlab::app
