// sortlab-diagram: writes an SVG Knuth diagram of Batcher's odd-even merge network for n keys,
// drawn from the library's own network (oddeven::layers, forEachComparator) and, with --tile,
// coloured by the steps of oddeven::planSteps, so a reader sees which layers one dispatch fuses.
//
//   sortlab-diagram --n 16 --per-layer --out docs/img/oddeven-network-16.svg
//   sortlab-diagram --n 64 --tile 16 --out docs/img/oddeven-fused-64.svg
//
// Wires run left to right, index 0 at the top; a comparator is a vertical line between two dots
// and leaves the smaller key (ascending order) on the upper wire. Each layer (p, k) gets a band;
// comparators of a layer that would overlap are spread over sub-columns. For n that is not a power
// of two the network of the next power of two is drawn, with the wires >= n (+infinity) and the
// comparators that touch them greyed: the GPU skips those comparators.
#include <sortlab/oddeven.h>

#include "svg.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

using namespace sortlab;
using namespace sortlab::tools;

namespace {

constexpr uint64_t kMaxN = 1024; // beyond this a diagram is too large to read

struct Options {
    uint64_t n = 16;
    uint32_t tile = 0; // 0: no plan colouring
    bool perLayer = false;
    std::string out;
};

const char* kUsage = "usage: sortlab-diagram --n N [--per-layer | --tile T] [--out FILE]\n"
                     "  --n N          keys (2..1024); non-powers of two show the +infinity wires greyed\n"
                     "  --per-layer    one band per layer, no plan colouring (the default without --tile)\n"
                     "  --tile T       colour the layers by the steps of the fused plan (oddeven::planSteps) with\n"
                     "                 tiles of T keys and the planner's other defaults\n"
                     "  --out FILE     write the SVG here (default: standard output)\n";

bool isPow2(uint64_t v) {
    return v && !(v & (v - 1));
}

int usageError(const std::string& what) {
    std::cerr << "sortlab-diagram: " << what << "\n" << kUsage;
    return 2;
}

struct Comparator {
    uint64_t a, b;
    bool active;     // false when b >= n: the key at b is +infinity and nothing moves
    uint32_t column; // sub-column within the layer's band
};

struct LayerDraw {
    oddeven::Layer layer;
    std::vector<Comparator> comparators;
    uint32_t columns = 1;
    int step = -1; // index into the plan, when colouring by plan
    double x0 = 0, x1 = 0;
};

std::string pow2Text(uint32_t log) {
    return std::to_string(uint64_t(1) << log);
}

// A step's colour: the tile step blue, window steps from a palette, single layers grey.
struct Colour {
    const char* band;
    const char* ink;
};
Colour stepColour(const Step& s, int windowIndex) {
    static const Colour windows[] = {{"#fde2c4", "#c15d00"}, {"#d5efd0", "#2e7d32"}, {"#e6d9f2", "#6a3d9a"},
                                     {"#cdeeee", "#00796b"}, {"#f6d3dc", "#ad1457"}, {"#efe8c6", "#8a6d00"}};
    if (s.kind == StepKind::tile) return {"#d3e3f6", "#1f5fa8"};
    if (s.kind == StepKind::window) return windows[windowIndex % 6];
    return {"#ececec", "#333333"};
}

// The network: every comparator of the power-of-two network of `wires`, marked active when both
// ends are below n, spread greedily over sub-columns (comparators that share a wire span, ends
// included, go side by side).
std::vector<LayerDraw> networkLayers(uint64_t n, uint64_t wires) {
    std::vector<LayerDraw> ls;
    for (const oddeven::Layer& layer : oddeven::layers(wires)) {
        LayerDraw d;
        d.layer = layer;
        oddeven::forEachComparator(wires, layer, [&](uint64_t a, uint64_t b) {
            d.comparators.push_back({a, b, b < n, 0});
        });
        std::vector<uint64_t> columnEnd; // last wire used + 1 per sub-column
        for (Comparator& c : d.comparators) {
            uint32_t col = 0;
            while (col < columnEnd.size() && columnEnd[col] > c.a) ++col;
            if (col == columnEnd.size()) columnEnd.push_back(0);
            columnEnd[col] = c.b + 1;
            c.column = col;
        }
        d.columns = std::max<uint32_t>(1, static_cast<uint32_t>(columnEnd.size()));
        ls.push_back(std::move(d));
    }
    return ls;
}

// The figure: the layers, the plan's steps and their colours, and where everything goes.
struct Figure {
    const Options& o;
    uint64_t wires = 0; // the power-of-two network that is drawn
    bool byPlan = false;
    std::vector<LayerDraw> ls;
    std::vector<Step> steps;
    std::vector<Colour> colours;                        // per step
    std::vector<std::pair<Colour, std::string>> legend; // lines under the wires, per step
    std::vector<std::string> notes;                     // then these
    double wirePitch = 0, columnPitch = 0;
    double left = 56, right = 44;
    double title = 30, stepRow = 0, labelRows = 30;
    double top = 0, wiresBottom = 0, wiresEnd = 0;
    double legendTop = 0, lineH = 17, width = 0, height = 0;
    std::string heading;
};

// Geometry: wire pitch, each layer's band (merges apart by a gap), and where the wires end.
void placeLayers(Figure& f) {
    const double minLayerWidth = 30, layerPad = 8, mergeGap = 10;
    f.wirePitch = f.wires <= 16 ? 22 : f.wires <= 32 ? 16 : 11;
    f.columnPitch = f.wires <= 16 ? 9 : 6;
    f.stepRow = f.byPlan ? 22 : 0;
    f.top = f.title + f.stepRow + f.labelRows + 10;
    f.wiresBottom = f.top + double(f.wires - 1) * f.wirePitch;
    double x = f.left;
    uint32_t prevP = 0;
    for (LayerDraw& d : f.ls) {
        if (d.layer.logP != prevP) x += mergeGap;
        prevP = d.layer.logP;
        double w = std::max(minLayerWidth, d.columns * f.columnPitch + 2 * layerPad);
        d.x0 = x;
        d.x1 = x + w;
        x += w + 2;
    }
    f.wiresEnd = x + 8; // wires end here; "+inf" marks go after
}

// The legend (a line per step: its colour, kind, label and buffers) and the notes under the wires,
// the heading, and the figure's size.
void writeLegend(Figure& f) {
    int windowIndex = 0;
    for (size_t i = 0; i < f.steps.size(); ++i) {
        const std::vector<Step>& steps = f.steps;
        Colour c = stepColour(steps[i], windowIndex);
        if (steps[i].kind == StepKind::window) ++windowIndex;
        f.colours.push_back(c);
        std::string text =
            "step " + std::to_string(i) + " (" + std::string(stepKindName(steps[i].kind)) + "): " + steps[i].label;
        // Which buffer of the pair the step reads and writes (as the sorter records it).
        const bool readsTemp = i > 0 && steps[i - 1].keysAfter == KeyLocation::inKeysTemp();
        const bool writesTemp = steps[i].keysAfter == KeyLocation::inKeysTemp();
        const char* from = readsTemp ? "temp" : "keys";
        const char* to = writesTemp ? "temp" : "keys";
        text += readsTemp == writesTemp ? std::string(", in place on ") + from
                                        : std::string(", reads ") + from + ", writes " + to;
        f.legend.push_back({c, text});
    }
    const std::string layerCount = std::to_string(f.ls.size());
    f.notes.push_back("Columns: the " + layerCount + " layers in network order; p = merge size, k = stride.");
    f.notes.push_back("A dot pair is a compare-exchange: the smaller key ends on the upper wire.");
    if (!f.byPlan) f.notes.push_back("The per-layer plan runs each layer as one dispatch.");
    if (f.o.n != f.wires) {
        f.notes.push_back("Wires " + std::to_string(f.o.n) + ".." + std::to_string(f.wires - 1) +
                          " lie past n: they act as +infinity and are never stored.");
        f.notes.push_back("Grey comparators touch them and do nothing.");
    }
    f.legendTop = f.wiresBottom + 26;
    f.height = f.legendTop + double(f.legend.size() + f.notes.size()) * f.lineH + 12;
    f.heading = "Odd-even merge network, n = " + std::to_string(f.o.n);
    if (f.byPlan) f.heading += ": fused plan, tile " + std::to_string(f.o.tile);
    f.width = f.wiresEnd + f.right;
    f.width = std::max(f.width, f.left + svgTextWidth(f.heading, 14, true) + 16);
    for (auto& [c, text] : f.legend) f.width = std::max(f.width, f.left + 30 + svgTextWidth(text, 11) + 16);
    for (auto& text : f.notes) f.width = std::max(f.width, f.left + svgTextWidth(text, 11) + 16);
}

// Bands, and the (p, k) label of each layer; with a plan, the step spans above them (which layers
// one dispatch runs).
void drawBands(std::ostringstream& svg, const Figure& f) {
    const double bandTop = f.title + f.stepRow, bandBottom = f.wiresBottom + 12;
    for (size_t l = 0; l < f.ls.size(); ++l) {
        const LayerDraw& d = f.ls[l];
        std::string fill = f.byPlan && d.step >= 0 ? f.colours[d.step].band : (l % 2 ? "#eef2f8" : "#f6f6f6");
        svg << "<rect x=\"" << svgNumber(d.x0) << "\" y=\"" << svgNumber(bandTop) << "\" width=\""
            << svgNumber(d.x1 - d.x0) << "\" height=\"" << svgNumber(bandBottom - bandTop) << "\" fill=\"" << fill
            << "\"/>\n";
        double cx = (d.x0 + d.x1) / 2;
        svg << "<text x=\"" << svgNumber(cx) << "\" y=\"" << svgNumber(bandTop + 13)
            << "\" font-size=\"10\" text-anchor=\"middle\" fill=\"#444\">p=" << pow2Text(d.layer.logP) << "</text>\n";
        svg << "<text x=\"" << svgNumber(cx) << "\" y=\"" << svgNumber(bandTop + 26)
            << "\" font-size=\"10\" text-anchor=\"middle\" fill=\"#444\">k=" << pow2Text(d.layer.logK) << "</text>\n";
    }
    if (!f.byPlan) return;
    for (size_t i = 0; i < f.steps.size(); ++i) {
        uint32_t first = f.steps[i].firstLayer, e = first + f.steps[i].layerCount;
        if (e == first || e > f.ls.size()) continue;
        double x0 = f.ls[first].x0, x1 = f.ls[e - 1].x1;
        svg << "<rect x=\"" << svgNumber(x0) << "\" y=\"" << svgNumber(f.title) << "\" width=\"" << svgNumber(x1 - x0)
            << "\" height=\"18\" rx=\"3\" fill=\"" << f.colours[i].ink << "\"/>\n";
        svg << "<text x=\"" << svgNumber((x0 + x1) / 2) << "\" y=\"" << svgNumber(f.title + 13)
            << "\" font-size=\"10\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"#fff\">"
            << (x1 - x0 >= 40 ? "step " : "") << i << "</text>\n";
    }
}

// The wires with their indices; those past n dashed and marked +inf.
void drawWires(std::ostringstream& svg, const Figure& f) {
    for (uint64_t i = 0; i < f.wires; ++i) {
        double y = f.top + double(i) * f.wirePitch;
        bool present = i < f.o.n;
        svg << "<line x1=\"" << svgNumber(f.left - 8) << "\" y1=\"" << svgNumber(y) << "\" x2=\""
            << svgNumber(f.wiresEnd) << "\" y2=\"" << svgNumber(y) << "\" stroke=\"" << (present ? "#555" : "#c4c4c4")
            << "\" stroke-width=\"1\"" << (present ? "" : " stroke-dasharray=\"4 3\"") << "/>\n";
        svg << "<text x=\"" << svgNumber(f.left - 12) << "\" y=\"" << svgNumber(y + 3.5) << "\" font-size=\""
            << (f.wirePitch < 14 ? 9 : 10) << "\" text-anchor=\"end\" fill=\"" << (present ? "#333" : "#aaa") << "\">"
            << i << "</text>\n";
        if (!present)
            svg << "<text x=\"" << svgNumber(f.wiresEnd + 4) << "\" y=\"" << svgNumber(y + 3.5)
                << "\" font-size=\"10\" fill=\"#aaa\">+inf</text>\n";
    }
}

// Comparators: one group per layer and state, so each element carries only its geometry.
void drawComparators(std::ostringstream& svg, const Figure& f) {
    const double dot = f.wires <= 32 ? 3 : 2.3;
    for (const LayerDraw& d : f.ls) {
        const double used = d.columns * f.columnPitch;
        const double firstX = (d.x0 + d.x1) / 2 - used / 2 + f.columnPitch / 2;
        const std::string ink = f.byPlan && d.step >= 0 ? f.colours[d.step].ink : "#1a1a1a";
        for (bool active : {true, false}) {
            const std::string col = active ? ink : "#c4c4c4";
            bool open = false;
            for (const Comparator& c : d.comparators) {
                if (c.active != active) continue;
                if (!open) {
                    svg << "<g stroke=\"" << col << "\" fill=\"" << col << "\" stroke-width=\"1.4\">\n";
                    open = true;
                }
                double cx = firstX + c.column * f.columnPitch;
                double ya = f.top + double(c.a) * f.wirePitch, yb = f.top + double(c.b) * f.wirePitch;
                svg << "<line x1=\"" << svgNumber(cx) << "\" y1=\"" << svgNumber(ya) << "\" x2=\"" << svgNumber(cx)
                    << "\" y2=\"" << svgNumber(yb) << "\"/><circle cx=\"" << svgNumber(cx) << "\" cy=\""
                    << svgNumber(ya) << "\" r=\"" << svgNumber(dot) << "\" stroke-width=\"0\"/><circle cx=\""
                    << svgNumber(cx) << "\" cy=\"" << svgNumber(yb) << "\" r=\"" << svgNumber(dot)
                    << (active ? "\" stroke-width=\"0\"/>\n" : "\" fill=\"#fff\" stroke-width=\"1\"/>\n");
            }
            if (open) svg << "</g>\n";
        }
    }
}

// The legend's lines and the notes.
void drawLegend(std::ostringstream& svg, const Figure& f) {
    double y = f.legendTop;
    for (auto& [c, text] : f.legend) {
        svg << "<rect x=\"" << svgNumber(f.left) << "\" y=\"" << svgNumber(y - 10)
            << "\" width=\"22\" height=\"12\" fill=\"" << c.band << "\" stroke=\"" << c.ink
            << "\" stroke-width=\"1.5\"/>";
        svg << "<text x=\"" << svgNumber(f.left + 30) << "\" y=\"" << svgNumber(y)
            << "\" font-size=\"11\" fill=\"#222\">" << svgEscape(text) << "</text>\n";
        y += f.lineH;
    }
    for (auto& text : f.notes) {
        svg << "<text x=\"" << svgNumber(f.left) << "\" y=\"" << svgNumber(y) << "\" font-size=\"11\" fill=\"#555\">"
            << svgEscape(text) << "</text>\n";
        y += f.lineH;
    }
}

std::string render(const Options& o) {
    Figure f{o};
    f.wires = uint64_t(1) << oddeven::log2Ceil(o.n);
    f.byPlan = !o.perLayer && o.tile != 0;
    f.ls = networkLayers(o.n, f.wires);
    if (f.byPlan) {
        oddeven::PlanParams pp; // the planner's defaults for everything but the tile
        pp.tileKeys = o.tile;
        f.steps = oddeven::planSteps(o.n, pp);
        for (size_t i = 0; i < f.steps.size(); ++i)
            for (uint32_t l = f.steps[i].firstLayer;
                 l < f.steps[i].firstLayer + f.steps[i].layerCount && l < f.ls.size(); ++l)
                f.ls[l].step = static_cast<int>(i);
    }
    placeLayers(f);
    writeLegend(f);

    std::ostringstream svg;
    openSvg(svg, f.width, f.height, "generated by sortlab-diagram (tools/network_diagram.cpp)");
    svg << "<text x=\"" << svgNumber(f.left) << "\" y=\"20\" font-size=\"14\" font-weight=\"bold\" fill=\"#222\">"
        << svgEscape(f.heading) << "</text>\n";
    drawBands(svg, f);
    drawWires(svg, f);
    drawComparators(svg, f);
    drawLegend(svg, f);
    svg << "</svg>\n";
    return svg.str();
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    bool haveN = false;
    auto option = [&](std::string_view arg, OptionReader& r) -> std::optional<int> {
        uint64_t v = 0;
        if (arg == "--per-layer") {
            o.perLayer = true;
        } else if (arg == "--n") {
            if (!r.number(v)) return usageError("--n needs a number");
            o.n = v;
            haveN = true;
        } else if (arg == "--tile") {
            if (!r.number(v) || !isPow2(v) || v > 65536) return usageError("--tile needs a power of two (2..65536)");
            o.tile = static_cast<uint32_t>(v);
        } else {
            return usageError("unknown option " + std::string(arg));
        }
        return std::nullopt;
    };
    if (auto code = readOptions(argc, argv, kUsage, o.out, usageError, option)) return *code;
    if (!haveN) return usageError("--n is required");
    if (o.n < 2 || o.n > kMaxN) return usageError("--n must be between 2 and " + std::to_string(kMaxN));
    if (o.tile && o.tile < 2) return usageError("--tile must be at least 2");

    return writeSvg(render(o), o.out, "sortlab-diagram");
}
