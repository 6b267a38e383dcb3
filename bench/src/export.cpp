#include <sortlab/bench/export.h>

#include <sortlab/bench/errors.h>
#include <sortlab/plot/plot.h>
#include <sortlab/plot/file_canvas.h>
#include <sortlab/bench/report.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace sortlab::bench {

void prepareExportDir(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir))
        usageError("cannot create the --export directory '" + dir + "'" + (ec ? ": " + ec.message() : ""));
}

namespace {

void writeText(const std::string& path, const std::string& text) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw BenchError(kExitDevice, "cannot write '" + path + "': " + std::strerror(errno));
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (std::fclose(f) != 0 || !ok)
        throw BenchError(kExitDevice, "cannot write '" + path + "': " + std::strerror(errno));
}

} // namespace

ExportFiles writeExport(const std::string& dir, const std::vector<CaseResult>& results, const Options& options,
                        const std::string& bandwidthSource) {
    prepareExportDir(dir);
    const std::filesystem::path d(dir);
    ExportFiles out{(d / "results.json").string(), (d / "results.csv").string(), (d / "plot.png").string(),
                    (d / "plot.svg").string()};
    const nlohmann::ordered_json json = resultsJson(results);
    writeText(out.json, json.dump(2) + "\n");
    writeText(out.csv, csvFromJson(json));
    plot::FigureOptions fo;
    fo.bandwidthGBs = options.bandwidthGBs;
    fo.bandwidthSource = bandwidthSource;
    const plot::Figure figure = plot::makeFigure(plot::rowsFromJson(json), fo);
    if (std::string e = plot::writeFigurePng(figure, out.png, 1400, 1000, options.plotN, options.plotLogY); !e.empty())
        throw BenchError(kExitDevice, e);
    if (std::string e = plot::writeFigureSvg(figure, out.svg, 1400, 1000, options.plotN, options.plotLogY); !e.empty())
        throw BenchError(kExitDevice, e);
    return out;
}

} // namespace sortlab::bench
