// sortlab-plot: draws the benchmark plot (plot.h) from --json files of sortlab-bench, `sortlab
// --bench` or the app's export, as PNG or SVG. Several files are drawn as one figure (a CUB run
// beside a sortlab run, sizes measured in separate runs). It needs only the C++ runtime, so it
// runs on the GPU machine too; the figure is the one --export draws.
//
//   sortlab-plot h200.json -o h200.png
//   sortlab-plot ours.json cub.json -o plot.svg --bandwidth 4100 --plot-n 2^24
//   sortlab-plot structure-u32-2e26.json structure-u64-2e26.json --by-dist -o by-dist.png
//
// Exit codes: 0 written; 2 a usage error, or a file that cannot be read or is not --json
// output; 3 the plot cannot be written.
#include <sortlab/plot/plot.h>
#include <sortlab/plot/file_canvas.h>

#include <CLI/CLI.hpp>

#include "cli_parse.h"

#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace {

int fail(int code, const std::string& message) {
    std::fprintf(stderr, "sortlab-plot: error: %s\n", message.c_str());
    return code;
}

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// --plot-n: an integer or 2^K (none: not one; "" is 0, the default).
std::optional<uint64_t> plotSize(const std::string& plotN) {
    if (plotN.empty()) return 0;
    try {
        if (plotN.rfind("2^", 0) == 0) return uint64_t(1) << std::stoul(plotN.substr(2));
        return std::stoull(plotN);
    } catch (...) {
        return std::nullopt;
    }
}

// Each file's rows read by themselves: one file is one run, whose std::sort rows belong to its
// GPU's machine (plot::Row::machine). "" or why a file cannot be read.
std::string readRows(const std::vector<std::string>& inputs, std::vector<sortlab::plot::Row>& rows) {
    for (const std::string& path : inputs) {
        std::ifstream in(path);
        if (!in) return "cannot read '" + path + "'";
        try {
            nlohmann::ordered_json j = nlohmann::ordered_json::parse(in);
            if (!j.is_array()) return "'" + path + "' is not a JSON array (expected sortlab-bench --json)";
            for (auto& row : sortlab::plot::rowsFromJson(j)) rows.push_back(std::move(row));
        } catch (const nlohmann::json::exception& e) {
            return "'" + path + "' is not JSON: " + e.what();
        } catch (const std::exception& e) {
            return path + ": " + e.what();
        }
    }
    return {};
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"sortlab-plot: the benchmark plot (Gkeys/s against n, one line per algorithm, CUB and std::sort "
                 "included; per-step GPU times at one n) from sortlab-bench --json files, as PNG or SVG.",
                 "sortlab-plot"};
    std::vector<std::string> inputs;
    std::string output, title, plotN, yAxis = "auto";
    double bandwidth = -1;
    int width = 1400, height = 1000;
    bool byDist = false;
    app.add_option("inputs", inputs, "--json files (sortlab-bench --json, or results.json of --export)")->required();
    app.add_option("-o,--output", output, "The plot: FILE.png or FILE.svg")->required();
    app.add_option("--bandwidth", bandwidth,
                   "Copy bandwidth in GB/s for the bandwidth-floor lines (0: none; default: the measured figure for "
                   "an H100/H200 found in the files, none otherwise)");
    app.add_option("--plot-n", plotN,
                   "The n of the per-step breakdown, an integer or 2^K (default: the largest with "
                   "per-step times)");
    app.add_option("--y-axis", yAxis, "The Gkeys/s axis: linear, log, or auto (log when the points span more than 30x)")
        ->capture_default_str();
    app.add_option("--title", title, "The figure's title (default: sortlab benchmark)");
    app.add_flag("--by-dist", byDist,
                 "Instead: the speed-up over CUB (--anchor cub) of every configuration, by input distribution, at "
                 "one n (--plot-n; default: the largest with CUB figures)");
    app.add_option("--width", width, "Width in pixels")->capture_default_str()->check(CLI::Range(400, 8000));
    app.add_option("--height", height, "Height in pixels")->capture_default_str()->check(CLI::Range(300, 8000));
    app.footer("Exit codes: 0 written; 2 a usage error or an input that is not --json output; 3 the plot cannot be "
               "written.");
    if (auto code = sortlab::tools::parseCommandLine(app, argc, argv, fail)) return *code;
    const bool png = endsWith(output, ".png"), svg = endsWith(output, ".svg");
    if (!png && !svg) return fail(2, "--output '" + output + "' must end in .png or .svg");
    const int logY = yAxis == "log" ? 1 : yAxis == "linear" ? 0 : -1;
    if (yAxis != "log" && yAxis != "linear" && yAxis != "auto")
        return fail(2, "--y-axis '" + yAxis + "': use linear, log or auto");
    const std::optional<uint64_t> plotSizeGiven = plotSize(plotN);
    if (!plotSizeGiven) return fail(2, "--plot-n '" + plotN + "' is not a count (an integer or 2^K)");
    uint64_t breakdownN = *plotSizeGiven;
    std::vector<sortlab::plot::Row> rows;
    if (const std::string why = readRows(inputs, rows); !why.empty()) return fail(2, why);
    sortlab::plot::FigureOptions fo;
    fo.bandwidthGBs = bandwidth;
    fo.bandwidthSource = "--bandwidth";
    fo.title = title;
    const sortlab::plot::Figure figure = sortlab::plot::makeFigure(std::move(rows), fo);
    const auto kind = byDist ? sortlab::plot::FigureKind::byDistribution : sortlab::plot::FigureKind::throughput;
    if (byDist) {
        if (!breakdownN) breakdownN = sortlab::plot::defaultDistributionN(figure);
        if (!breakdownN || sortlab::plot::distributionRows(figure, breakdownN).empty())
            return fail(2, breakdownN
                               ? "--by-dist: no speed-up over CUB at n = " + sortlab::plot::sizeLabel(breakdownN) +
                                     " in the files (sortlab-bench --anchor cub writes them)"
                               : std::string("--by-dist: no speed-up over CUB in the files (sortlab-bench "
                                             "--anchor cub writes them)"));
    }
    const std::string error =
        png ? sortlab::plot::writeFigurePng(figure, output, width, height, breakdownN, logY, kind)
            : sortlab::plot::writeFigureSvg(figure, output, width, height, breakdownN, logY, kind);
    if (!error.empty()) return fail(3, error);
    std::printf("%s: %zu results, %zu lines%s\n", output.c_str(), figure.rows.size(), figure.series.size(),
                png ? ("; text: " + sortlab::plot::RasterCanvas::fontSource()).c_str() : "");
    return 0;
}
