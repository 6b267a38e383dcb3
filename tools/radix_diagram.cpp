// [SECTION] Options and usage
// [SECTION] Digit colours and words
// [SECTION] One pass, computed and checked
// [SECTION] Drawing: a key, then the pass (PassDiagram: geometry, headings, key columns, arrows,
//           tables, notes)
// [SECTION] The command line
//
// sortlab-radix-diagram: writes an SVG of one pass of the 4-bit LSD radix sort (radix4), computed
// by the library's own CPU reference model (radix::referencePass) on the library's own inputs
// (generateKeys), so a reader sees what the count, scan and scatter steps of one pass do.
//
//   sortlab-radix-diagram --n 24 --tile 8 --pass 1 --seed 3 --out docs/img/radix4-pass.svg
//   sortlab-radix-diagram --n 24 --tile 8 --pass 0 --seed 3 --out docs/img/radix4-pass0.svg
//
// Passes 0 .. P-1 run first; pass P is drawn. Left, the pass's input keys in order, grouped by
// workgroup tile; right, its output, grouped by digit; between them one arrow per key from its
// input position to its output position, coloured by the key's digit. Beside them, the pass's
// tables: per-workgroup digit counts, the histogram, its exclusive scan (offsets) and the
// workgroup offsets. One key is worked through in words at the bottom. The program derives every
// arrow from the tables (workgroup offset + rank) and checks it against where referencePass really
// moved the key; a mismatch is an error (exit code 3), never a wrong picture.
#include <sortlab/data.h>
#include <sortlab/keys.h>
#include <sortlab/radix.h>

#include "svg.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

using namespace sortlab;
using namespace sortlab::tools;

namespace {

// [SECTION] Options and usage -----------------------------------------------------------------------------------------

constexpr uint64_t kMaxN = 64;          // beyond this the arrows are too dense to follow
constexpr uint64_t kMaxWorkgroups = 16; // columns of the count table
constexpr uint32_t kDigitBits = 4, kRadix = 16, kPasses = 8, kHexDigits = 8; // u32 keys

struct Options {
    uint64_t n = 24;
    uint64_t tile = 8;
    uint32_t pass = 1;
    uint64_t seed = 3;
    Distribution dist = Distribution::uniform;
    std::string out;
};

const char* kUsage =
    "usage: sortlab-radix-diagram [--n N] [--tile T] [--pass P] [--seed S] [--dist D] [--type u32] [--out FILE]\n"
    "  --n N        keys (1..64, default 24)\n"
    "  --tile T     keys per workgroup tile (default 8); at most 16 tiles\n"
    "  --pass P     the pass drawn (0..7, default 1); passes 0..P-1 run first\n"
    "  --seed S     input seed, as sortlab-bench --seed (default 3)\n"
    "  --dist D     input distribution, as sortlab-bench --dist (default uniform)\n"
    "  --type u32   key type; only u32 is drawn (keys in hexadecimal, one hex digit per pass)\n"
    "  --out FILE   write the SVG here (default: standard output)\n";

int usageError(const std::string& what) {
    std::cerr << "sortlab-radix-diagram: " << what << "\n" << kUsage;
    return 2;
}

// [SECTION] Digit colours and words -----------------------------------------------------------------------------------

// One colour per digit value: `ink` for arrows and swatches, `text` for a digit written on it.
struct DigitColour {
    const char* ink;
    const char* text;
};
constexpr DigitColour kDigitColours[kRadix] = {
    {"#1f77b4", "#fff"}, {"#ff7f0e", "#000"}, {"#2ca02c", "#fff"}, {"#d62728", "#fff"},
    {"#9467bd", "#fff"}, {"#8c564b", "#fff"}, {"#e377c2", "#000"}, {"#7f7f7f", "#fff"},
    {"#bcbd22", "#000"}, {"#17becf", "#000"}, {"#393b79", "#fff"}, {"#637939", "#fff"},
    {"#d6a31e", "#000"}, {"#843c39", "#fff"}, {"#7b4173", "#fff"}, {"#222222", "#fff"},
};

std::string hexDigit(uint32_t d) {
    return std::string(1, "0123456789abcdef"[d & 15]);
}

std::string ordinal(uint32_t k) {
    static const char* words[] = {"first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"};
    return k >= 1 && k <= 8 ? words[k - 1] : std::to_string(k) + "th";
}

std::string plural(uint64_t count, const std::string& one, const std::string& many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
}

uint32_t keyAt(const std::vector<std::byte>& keys, uint64_t i) {
    uint32_t k;
    std::memcpy(&k, keys.data() + i * 4, 4);
    return k;
}

// [SECTION] One pass, computed and checked ----------------------------------------------------------------------------

// What one pass did, in the terms the picture uses.
struct PassPicture {
    std::vector<std::byte> input, output; // keys before and after the pass
    radix::PassState state;
    std::vector<uint32_t> digit, tileOf, rank, to; // per input key
    int example = -1;                              // the key worked through in words
};

// Runs passes 0..pass-1, then pass `pass` with values 0..n-1 so that the reference model itself
// says where each key went; derives the same destinations from the tables and checks they agree.
bool computePass(const Options& o, PassPicture& p, std::string& error) {
    std::vector<std::byte> keys = generateKeys(KeyType::u32, o.n, o.dist, o.seed);
    for (uint32_t q = 0; q < o.pass; ++q)
        radix::referencePass(keys, {}, KeyType::u32, Order::ascending, q * kDigitBits, kDigitBits, o.tile);
    p.input = keys;
    std::vector<uint32_t> from = indexValues(o.n); // after the pass: the input index of each output slot
    p.state = radix::referencePass(keys, from, KeyType::u32, Order::ascending, o.pass * kDigitBits, kDigitBits, o.tile);
    p.output = keys;

    const radix::PassState& s = p.state;
    const uint64_t W = s.workgroups;
    std::vector<uint32_t> seen(kRadix * W, 0); // keys of digit d met so far in tile w
    for (uint64_t i = 0; i < o.n; ++i) {
        const uint32_t d = radix::digitAt(p.input, i, KeyType::u32, Order::ascending, s.bitLo, kDigitBits);
        const uint32_t w = static_cast<uint32_t>(i / o.tile);
        p.digit.push_back(d);
        p.tileOf.push_back(w);
        p.rank.push_back(seen[d * W + w]++);
        p.to.push_back(static_cast<uint32_t>(s.workgroupOffsets[d * W + w] + p.rank.back()));
    }
    for (uint64_t i = 0; i < o.n; ++i) {
        if (p.to[i] >= o.n || from[p.to[i]] != i) {
            error = "key " + std::to_string(i) + ": workgroup offset + rank gives " + std::to_string(p.to[i]) +
                    ", but radix::referencePass moved it elsewhere";
            return false;
        }
    }
    for (uint32_t d = 0; d < kRadix; ++d)
        for (uint64_t w = 0; w < W; ++w)
            if (seen[d * W + w] != s.counts[d * W + w]) {
                error = "digit " + std::to_string(d) + ", workgroup " + std::to_string(w) +
                        ": the reference's count differs from the keys of its tile";
                return false;
            }

    // The example: a key whose place uses all three terms (digits below it, earlier workgroups
    // with its digit, keys of its digit before it in its own tile), as far as the input allows.
    int best = -1;
    for (uint64_t i = 0; i < o.n; ++i) {
        const uint32_t d = p.digit[i], w = p.tileOf[i];
        const uint64_t prefix = s.workgroupOffsets[d * W + w] - s.offsets[d];
        const int score = (s.offsets[d] > 0) + 2 * (prefix > 0) + 2 * (p.rank[i] > 0);
        if (score > best) {
            best = score;
            p.example = static_cast<int>(i);
        }
    }
    return true;
}

// [SECTION] Drawing: a key, then the pass (PassDiagram) ---------------------------------------------------------------

// A key in hexadecimal: higher digits (later passes) light, this pass's digit on its colour,
// lower digits (sorted by earlier passes) dark. One x per character, so the highlight box sits
// under its character whatever monospace font draws it.
void drawKey(std::ostringstream& svg, double x, double y, double charW, double fontSize, uint32_t key, uint32_t pass,
             bool strong) {
    char text[9];
    std::snprintf(text, sizeof text, "%08x", key);
    const uint32_t at = kHexDigits - 1 - pass; // index of this pass's digit in the text
    const uint32_t d = (key >> (pass * kDigitBits)) & 15u;
    svg << "<rect x=\"" << svgNumber(x + at * charW - 1) << "\" y=\"" << svgNumber(y - fontSize + 1.5) << "\" width=\""
        << svgNumber(charW + 2) << "\" height=\"" << svgNumber(fontSize + 3) << "\" rx=\"2\" fill=\""
        << kDigitColours[d].ink << "\"/>";
    svg << "<text y=\"" << svgNumber(y)
        << "\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"" << svgNumber(fontSize) << "\""
        << (strong ? " font-weight=\"bold\"" : "") << ">";
    for (uint32_t c = 0; c < kHexDigits; ++c) {
        const char* fill = c < at ? "#a0a0a0" : c == at ? kDigitColours[d].text : "#303030";
        svg << "<tspan x=\"" << svgNumber(x + c * charW + charW / 2) << "\" text-anchor=\"middle\" fill=\"" << fill
            << "\"" << (c == at ? " font-weight=\"bold\"" : "") << ">" << text[c] << "</tspan>";
    }
    svg << "</text>\n";
}

// One pass's picture: its geometry (members, in the order they depend on each other), its text,
// and one function per part of the drawing.
class PassDiagram {
public:
    PassDiagram(const Options& options, const PassPicture& picture) : o(options), p(picture) {}

    std::string render() {
        // (No double hyphen may appear inside an XML comment, so the options are spelled without them.)
        openSvg(svg, width, height,
                "generated by sortlab-radix-diagram (tools/radix_diagram.cpp): n " + std::to_string(n) + ", tile " +
                    std::to_string(o.tile) + ", pass " + std::to_string(o.pass) + ", seed " + std::to_string(o.seed) +
                    ", dist " + std::string(distributionName(o.dist)));
        drawArrowheads();
        drawTitle();
        drawColumnHeadings();
        drawInputColumn();
        drawOutputColumn();
        drawArrows();
        drawTableHeadings();
        drawTableRows();
        drawTableTotals();
        drawNotes();
        svg << "</svg>\n";
        return svg.str();
    }

private:
    const Options& o;
    const PassPicture& p;
    const radix::PassState& s = p.state;
    const uint64_t n = o.n, W = s.workgroups;
    const uint32_t bitLo = s.bitLo, bitHi = s.bitLo + kDigitBits;
    const int ex = p.example;

    // Geometry: the two key columns with the arrows between them, then the tables.
    const double pitch = n <= 32 ? 21 : 17, fontSize = n <= 32 ? 13 : 11.5;
    const double charW = fontSize * 0.62;
    const double boxW = kHexDigits * charW + 12, boxH = pitch - 4;
    const double tileGap = 12, runGap = 5;
    const double left = 24;
    const double titleY = 26;
    const double headY = 88; // column headings
    const double top = headY + 34;
    const double wgLabelW = 96;
    const double inIndexX = left + wgLabelW + 26; // right edge of the input index numbers
    const double inBoxX = inIndexX + 6;
    const double arrowX0 = inBoxX + boxW + 2, arrowW = n <= 32 ? 230 : 260;
    const double outBoxX = arrowX0 + arrowW + 6;
    const double outIndexX = outBoxX + boxW + 6;
    const double runBracketX = outIndexX + 26;
    const double tableX = runBracketX + 128;

    // Output rows: a small gap between digit runs, so the buckets show.
    const std::vector<double> outYs = outputRows();
    const double keysBottom = std::max(inY(n - 1), outYs[n - 1]) + pitch;

    // The table: digit | counts per workgroup | histogram | offsets | workgroup offsets.
    const double rowH = 19;
    const double digitColW = 44;
    const double wgColW = std::max(30.0, 140.0 / double(W));
    const double histColW = 92, offColW = 92, groupGap = 16;
    const double tTop = top + 16; // first row's top edge (two header rows above it)
    const double cCounts = tableX + digitColW;
    const double cHist = cCounts + W * wgColW + groupGap;
    const double cOff = cHist + histColW;
    const double cWgOff = cOff + offColW + groupGap;
    const double tableRight = cWgOff + W * wgColW;
    const double tBottom = tTop + kRadix * rowH;

    // Notes under everything, full width, and the worked example.
    const std::vector<std::pair<std::string, std::string>> notes = passNotes();
    const std::vector<std::string> example = workedExample();
    const double noteTop = std::max(keysBottom, tBottom + 16) + 22;
    const double lineH = 17;
    const double height = noteTop + double(notes.size() + example.size() + 1) * lineH + 10;

    const std::string heading = "One radix4 pass: pass " + std::to_string(o.pass) + " of " + std::to_string(kPasses) +
                                ", digit = bits " + std::to_string(bitLo) + ".." + std::to_string(bitHi - 1) +
                                " (the " + ordinal(o.pass + 1) + " hex digit from the right)" +
                                (s.skipped ? ", skipped" : "");
    const std::string sub = std::to_string(n) + " u32 keys in hexadecimal (" + std::string(distributionName(o.dist)) +
                            ", seed " + std::to_string(o.seed) + "), tiles of " + std::to_string(o.tile) +
                            " keys = " + plural(W, "workgroup", "workgroups") +
                            ". Computed by the CPU reference model, sortlab::radix::referencePass.";
    const double width = documentWidth();
    std::ostringstream svg;

    double inY(uint64_t i) const { return top + double(i) * pitch + double(i / o.tile) * tileGap; }

    std::vector<double> outputRows() const {
        std::vector<double> outYs(n);
        std::vector<uint32_t> outDigit(n);
        for (uint64_t i = 0; i < n; ++i) outDigit[p.to[i]] = p.digit[i];
        double y = top;
        for (uint64_t j = 0; j < n; ++j) {
            if (j > 0 && outDigit[j] != outDigit[j - 1]) y += runGap;
            outYs[j] = y;
            y += pitch;
        }
        return outYs;
    }

    // The notes under everything, full width: (bold lead, text).
    std::vector<std::pair<std::string, std::string>> passNotes() const {
        std::vector<std::pair<std::string, std::string>> notes;
        notes.push_back({"Keys. ", o.pass == 0
                                       ? "The coloured hex digit is this pass's digit; grey digits wait for "
                                         "later passes."
                                       : "The coloured hex digit is this pass's digit. Digits to its right were "
                                         "sorted by earlier passes; grey digits wait for later passes."});
        notes.push_back({"Count step (radix4_count.comp). ",
                         "Each workgroup counts the digits of its tile: one column of the digit counts. The histogram "
                         "is the sum of each row (the reduction to global counts)."});
        notes.push_back({"Scan step (radix4_scan.comp). ",
                         "Offset = exclusive scan of the histogram: where the first key of each digit goes. "
                         "Workgroup offset = offset + that digit's keys in earlier workgroups."});
        notes.push_back({"Scatter step (radix4_scatter.comp). ",
                         "A key goes to workgroup offset(digit, its workgroup) + its rank, where rank = keys of the "
                         "same digit before it in its own tile."});
        notes.push_back({"Stability. ", std::string("Arrows of one colour never cross: keys with the same digit keep "
                                                    "their input order, ") +
                                            (o.pass == 0 ? "which every later pass relies on."
                                                         : "so the order the earlier passes made survives.")});
        if (s.skipped) {
            notes.push_back({"Skipped. ", "Every key has the same digit: nothing moves. The GPU's scatter returns at "
                                          "once and the next pass reads the same buffer."});
        }
        return notes;
    }

    // The worked example, in words (none without an example key).
    std::vector<std::string> workedExample() const {
        std::vector<std::string> example;
        if (ex >= 0) {
            const uint32_t d = p.digit[ex], w = p.tileOf[ex];
            char key[16];
            std::snprintf(key, sizeof key, "%08x", keyAt(p.input, ex));
            const uint64_t prefix = s.workgroupOffsets[d * W + w] - s.offsets[d];
            example.push_back("Worked example (bold arrow): input " + std::to_string(ex) + " holds " + key +
                              "; its digit is " + hexDigit(d) + " and it lies in workgroup " + std::to_string(w) +
                              "'s tile.");
            example.push_back("offset(" + hexDigit(d) + ") = " + std::to_string(s.offsets[d]) + " (" +
                              plural(s.offsets[d], "key has", "keys have") + " a smaller digit)  +  workgroup prefix " +
                              std::to_string(prefix) + " (" + plural(prefix, "key", "keys") + " of digit " +
                              hexDigit(d) + " in workgroups before " + std::to_string(w) + ")  +  rank " +
                              std::to_string(p.rank[ex]) + " (" + plural(p.rank[ex], "key", "keys") + " of digit " +
                              hexDigit(d) + " before it in its tile)  =  output " + std::to_string(p.to[ex]) + ".");
            example.push_back("In the table: offset " + std::to_string(s.offsets[d]) + " + prefix " +
                              std::to_string(prefix) + " = workgroup offset " +
                              std::to_string(s.workgroupOffsets[d * W + w]) +
                              " (boxed), which the scan step writes; the scatter step adds the rank.");
        }
        return example;
    }

    // Wide enough for the tables and every line of text.
    double documentWidth() const {
        double width = tableRight + 24;
        width = std::max(width, left + svgTextWidth(heading, 15, true) + 16);
        width = std::max(width, left + svgTextWidth(sub, 11.5) + 16);
        for (auto& [lead, text] : notes)
            width = std::max(width, left + svgTextWidth(lead, 11.5, true) + svgTextWidth(text, 11.5) + 16);
        for (auto& text : example) width = std::max(width, left + svgTextWidth(text, 11.5) + 16);

        return width;
    }

    // Arrowheads, one per digit colour.
    void drawArrowheads() {
        svg << "<defs>\n";
        for (uint32_t d = 0; d < kRadix; ++d)
            svg << "<marker id=\"head" << d << "\" viewBox=\"0 0 8 8\" refX=\"7\" refY=\"4\" markerWidth=\"6\" "
                << "markerHeight=\"6\" markerUnits=\"userSpaceOnUse\" orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" "
                   "fill=\""
                << kDigitColours[d].ink << "\"/></marker>\n";
        svg << "</defs>\n";
    }

    // The title and the line under it.
    void drawTitle() {
        svg << "<text x=\"" << svgNumber(left) << "\" y=\"" << svgNumber(titleY)
            << "\" font-size=\"15\" font-weight=\"bold\" "
            << "fill=\"#222\">" << svgEscape(heading) << "</text>\n";
        svg << "<text x=\"" << svgNumber(left) << "\" y=\"" << svgNumber(titleY + 20)
            << "\" font-size=\"11.5\" fill=\"#444\">" << svgEscape(sub) << "</text>\n";
    }

    // A column heading: a bold line and a line under it.
    void heading2(double x, const std::string& line1, const std::string& line2, const char* anchor) {
        svg << "<text x=\"" << svgNumber(x) << "\" y=\"" << svgNumber(headY)
            << "\" font-size=\"12\" font-weight=\"bold\" "
            << "text-anchor=\"" << anchor << "\" fill=\"#222\">" << svgEscape(line1) << "</text>\n";
        svg << "<text x=\"" << svgNumber(x) << "\" y=\"" << svgNumber(headY + 15)
            << "\" font-size=\"11\" text-anchor=\"" << anchor << "\" fill=\"#555\">" << svgEscape(line2) << "</text>\n";
    }

    // The headings over the input, the arrows and the output.
    void drawColumnHeadings() {
        heading2(inBoxX + boxW / 2, "input of pass " + std::to_string(o.pass),
                 o.pass == 0 ? "the keys as given" : "= output of pass " + std::to_string(o.pass - 1), "middle");
        heading2(outBoxX + boxW / 2, "output of pass " + std::to_string(o.pass),
                 "sorted on bits 0.." + std::to_string(bitHi - 1), "middle");
        heading2(arrowX0 + arrowW / 2, "scatter: one arrow per key", "coloured by its digit", "middle");
    }

    // Input: workgroup brackets, indices, keys.
    void drawInputColumn() {
        for (uint64_t w = 0; w < W; ++w) {
            const uint64_t first = w * o.tile, last = std::min(n, first + o.tile) - 1;
            const double y0 = inY(first) - boxH / 2 - 2, y1 = inY(last) + boxH / 2 - 2;
            const double bx = left + wgLabelW;
            svg << "<path d=\"M" << svgNumber(bx + 6) << "," << svgNumber(y0) << " H" << svgNumber(bx) << " V"
                << svgNumber(y1) << " H" << svgNumber(bx + 6)
                << "\" fill=\"none\" stroke=\"#777\" stroke-width=\"1.2\"/>\n";
            const double my = (y0 + y1) / 2;
            svg << "<text x=\"" << svgNumber(bx - 6) << "\" y=\"" << svgNumber(my - 2)
                << "\" font-size=\"11.5\" font-weight=\"bold\" "
                << "text-anchor=\"end\" fill=\"#333\">workgroup " << w << "</text>\n";
            svg << "<text x=\"" << svgNumber(bx - 6) << "\" y=\"" << svgNumber(my + 12)
                << "\" font-size=\"10.5\" text-anchor=\"end\" "
                << "fill=\"#666\">keys " << first << ".." << last << "</text>\n";
        }
        for (uint64_t i = 0; i < n; ++i) {
            const double y = inY(i);
            const bool strong = int(i) == ex;
            svg << "<text x=\"" << svgNumber(inIndexX) << "\" y=\"" << svgNumber(y + 4)
                << "\" font-size=\"10.5\" text-anchor=\"end\" "
                << "fill=\"#666\">" << i << "</text>\n";
            svg << "<rect x=\"" << svgNumber(inBoxX) << "\" y=\"" << svgNumber(y - boxH / 2) << "\" width=\""
                << svgNumber(boxW) << "\" height=\"" << svgNumber(boxH) << "\" rx=\"3\" fill=\"#f7f7f7\" stroke=\""
                << (strong ? "#000" : "#c8c8c8") << "\" stroke-width=\"" << (strong ? 2 : 1) << "\"/>\n";
            drawKey(svg, inBoxX + 6, y + fontSize * 0.36, charW, fontSize, keyAt(p.input, i), o.pass, false);
        }
    }

    // Output: keys, indices, and a bracket per digit run with its offset.
    void drawOutputColumn() {
        for (uint64_t j = 0; j < n; ++j) {
            const double y = outYs[j];
            const bool strong = ex >= 0 && p.to[ex] == j;
            svg << "<rect x=\"" << svgNumber(outBoxX) << "\" y=\"" << svgNumber(y - boxH / 2) << "\" width=\""
                << svgNumber(boxW) << "\" height=\"" << svgNumber(boxH) << "\" rx=\"3\" fill=\"#f7f7f7\" stroke=\""
                << (strong ? "#000" : "#c8c8c8") << "\" stroke-width=\"" << (strong ? 2 : 1) << "\"/>\n";
            drawKey(svg, outBoxX + 6, y + fontSize * 0.36, charW, fontSize, keyAt(p.output, j), o.pass, false);
            svg << "<text x=\"" << svgNumber(outIndexX) << "\" y=\"" << svgNumber(y + 4)
                << "\" font-size=\"10.5\" fill=\"#666\">" << j << "</text>\n";
        }
        for (uint32_t d = 0; d < kRadix; ++d) {
            if (s.histogram[d] == 0) continue;
            const uint64_t first = s.offsets[d], last = first + s.histogram[d] - 1;
            const double y0 = outYs[first] - boxH / 2 + 1, y1 = outYs[last] + boxH / 2 - 1;
            svg << "<path d=\"M" << svgNumber(runBracketX - 5) << "," << svgNumber(y0) << " H" << svgNumber(runBracketX)
                << " V" << svgNumber(y1) << " H" << svgNumber(runBracketX - 5) << "\" fill=\"none\" stroke=\""
                << kDigitColours[d].ink << "\" stroke-width=\"2\"/>\n";
            svg << "<text x=\"" << svgNumber(runBracketX + 7) << "\" y=\"" << svgNumber((y0 + y1) / 2 + 4)
                << "\" font-size=\"11\" "
                << "fill=\"#333\">digit " << hexDigit(d) << ": offset " << first << "</text>\n";
        }
    }

    // Arrows: from the right edge of the input key to the left edge of its output slot.
    void drawArrows() {
        for (int strongPass = 0; strongPass < 2; ++strongPass) {
            for (uint64_t i = 0; i < n; ++i) {
                const bool strong = int(i) == ex;
                if (strong != (strongPass == 1)) continue;
                const double x0 = arrowX0, y0 = inY(i), x1 = outBoxX - 1, y1 = outYs[p.to[i]];
                const double mx = (x0 + x1) / 2;
                svg << "<path d=\"M" << svgNumber(x0) << "," << svgNumber(y0) << " C" << svgNumber(mx) << ","
                    << svgNumber(y0) << " " << svgNumber(mx) << "," << svgNumber(y1) << " " << svgNumber(x1) << ","
                    << svgNumber(y1) << "\" fill=\"none\" stroke=\"" << kDigitColours[p.digit[i]].ink
                    << "\" stroke-width=\"" << (strong ? 3.2 : 1.6) << "\" stroke-opacity=\"" << (strong ? 1 : 0.85)
                    << "\" marker-end=\"url(#head" << p.digit[i] << ")\"/>\n";
            }
        }
    }

    // A heading over a group of table columns, with the step that writes them.
    void groupHead(double x0, double x1, const std::string& text, const std::string& step) {
        svg << "<text x=\"" << svgNumber((x0 + x1) / 2) << "\" y=\"" << svgNumber(headY) << "\" font-size=\"12\" "
            << "font-weight=\"bold\" text-anchor=\"middle\" fill=\"#222\">" << svgEscape(text) << "</text>\n";
        svg << "<text x=\"" << svgNumber((x0 + x1) / 2) << "\" y=\"" << svgNumber(headY + 15) << "\" font-size=\"11\" "
            << "text-anchor=\"middle\" fill=\"#555\">" << svgEscape(step) << "</text>\n";
    }

    // A column heading of the table.
    void colHead(double cx, const std::string& text) {
        svg << "<text x=\"" << svgNumber(cx) << "\" y=\"" << svgNumber(tTop - 6)
            << "\" font-size=\"10.5\" text-anchor=\"middle\" "
            << "fill=\"#444\">" << svgEscape(text) << "</text>\n";
    }

    // The table: digit | counts per workgroup | histogram | offsets | workgroup offsets.
    void drawTableHeadings() {
        groupHead(cCounts, cCounts + W * wgColW, "digit counts", "(count step)");
        groupHead(cHist, cHist + histColW, "histogram", "(count step)");
        groupHead(cOff, cOff + offColW, "offsets", "(scan step)");
        groupHead(cWgOff, cWgOff + W * wgColW, "workgroup offsets", "(scan step)");
        colHead(tableX + digitColW / 2 - 4, "digit");
        for (uint64_t w = 0; w < W; ++w) {
            colHead(cCounts + (double(w) + 0.5) * wgColW, W <= 4 ? "wg " + std::to_string(w) : std::to_string(w));
            colHead(cWgOff + (double(w) + 0.5) * wgColW, W <= 4 ? "wg " + std::to_string(w) : std::to_string(w));
        }
        colHead(cHist + histColW / 2, "all workgroups");
        colHead(cOff + offColW / 2, "exclusive scan");
    }

    // One row per digit: its swatch and its counts, histogram, offset and workgroup offsets (the example's boxed).
    void drawTableRows() {
        const uint32_t exD = ex >= 0 ? p.digit[ex] : 0, exW = ex >= 0 ? p.tileOf[ex] : 0;
        for (uint32_t d = 0; d < kRadix; ++d) {
            const double y = tTop + d * rowH;
            if (d % 2 == 0)
                svg << "<rect x=\"" << svgNumber(tableX) << "\" y=\"" << svgNumber(y) << "\" width=\""
                    << svgNumber(tableRight - tableX) << "\" height=\"" << svgNumber(rowH) << "\" fill=\"#f4f4f4\"/>\n";
            svg << "<rect x=\"" << svgNumber(tableX + 4) << "\" y=\"" << svgNumber(y + 3) << "\" width=\"24\" height=\""
                << svgNumber(rowH - 6) << "\" rx=\"2\" fill=\"" << kDigitColours[d].ink << "\"/>";
            svg << "<text x=\"" << svgNumber(tableX + 16) << "\" y=\"" << svgNumber(y + rowH - 5.5)
                << "\" font-size=\"11.5\" "
                << "font-weight=\"bold\" text-anchor=\"middle\" fill=\"" << kDigitColours[d].text << "\">"
                << hexDigit(d) << "</text>\n";
            auto cell = [&](double cx, uint64_t v, bool dimZero, bool mark) {
                const bool dim = dimZero && v == 0;
                if (mark)
                    svg << "<rect x=\"" << svgNumber(cx - 13) << "\" y=\"" << svgNumber(y + 1.5)
                        << "\" width=\"26\" height=\"" << svgNumber(rowH - 3)
                        << "\" rx=\"3\" fill=\"none\" stroke=\"#000\" stroke-width=\"1.6\"/>";
                svg << "<text x=\"" << svgNumber(cx) << "\" y=\"" << svgNumber(y + rowH - 5.5)
                    << "\" font-size=\"11.5\" "
                    << "text-anchor=\"middle\" fill=\"" << (dim ? "#c8c8c8" : "#222") << "\""
                    << (mark ? " font-weight=\"bold\"" : "") << ">" << v << "</text>\n";
            };
            const bool exRow = ex >= 0 && d == exD;
            for (uint64_t w = 0; w < W; ++w)
                cell(cCounts + (double(w) + 0.5) * wgColW, s.counts[d * W + w], true, exRow && w < exW);
            cell(cHist + histColW / 2, s.histogram[d], true, false);
            cell(cOff + offColW / 2, s.offsets[d], false, exRow);
            for (uint64_t w = 0; w < W; ++w)
                cell(cWgOff + (double(w) + 0.5) * wgColW, s.workgroupOffsets[d * W + w], false, exRow && w == exW);
        }
    }

    // Totals under the counts and the histogram: every tile's keys, and n.
    void drawTableTotals() {
        const double y = tBottom + 14;
        svg << "<line x1=\"" << svgNumber(cCounts) << "\" y1=\"" << svgNumber(tBottom + 1) << "\" x2=\""
            << svgNumber(cHist + histColW) << "\" y2=\"" << svgNumber(tBottom + 1) << "\" stroke=\"#999\"/>\n";
        svg << "<text x=\"" << svgNumber(tableX + digitColW / 2 - 4) << "\" y=\"" << svgNumber(y)
            << "\" font-size=\"10.5\" "
            << "text-anchor=\"middle\" fill=\"#444\">sum</text>\n";
        for (uint64_t w = 0; w < W; ++w) {
            uint64_t t = 0;
            for (uint32_t d = 0; d < kRadix; ++d) t += s.counts[d * W + w];
            svg << "<text x=\"" << svgNumber(cCounts + (double(w) + 0.5) * wgColW) << "\" y=\"" << svgNumber(y) << "\" "
                << "font-size=\"11\" text-anchor=\"middle\" fill=\"#444\">" << t << "</text>\n";
        }
        svg << "<text x=\"" << svgNumber(cHist + histColW / 2) << "\" y=\"" << svgNumber(y) << "\" font-size=\"11\" "
            << "text-anchor=\"middle\" fill=\"#444\">" << n << "</text>\n";
    }

    // Notes and the worked example.
    void drawNotes() {
        double y = noteTop;
        for (auto& [lead, text] : notes) {
            svg << "<text x=\"" << svgNumber(left) << "\" y=\"" << svgNumber(y)
                << "\" font-size=\"11.5\" fill=\"#333\" xml:space=\"preserve\">"
                << "<tspan font-weight=\"bold\">" << svgEscape(lead) << "</tspan>" << svgEscape(text) << "</text>\n";
            y += lineH;
        }
        y += lineH / 2;
        for (auto& text : example) {
            svg << "<text x=\"" << svgNumber(left) << "\" y=\"" << svgNumber(y)
                << "\" font-size=\"11.5\" fill=\"#111\">" << svgEscape(text) << "</text>\n";
            y += lineH;
        }
    }
};

std::string render(const Options& o, const PassPicture& p) {
    return PassDiagram(o, p).render();
}

} // namespace

// [SECTION] The command line ------------------------------------------------------------------------------------------

int main(int argc, char** argv) {
    Options o;
    auto option = [&](std::string_view arg, OptionReader& r) -> std::optional<int> {
        uint64_t v = 0;
        if (arg == "--n") {
            if (!r.number(v) || v < 1 || v > kMaxN)
                return usageError("--n needs a number from 1 to " + std::to_string(kMaxN));
            o.n = v;
        } else if (arg == "--tile") {
            if (!r.number(v) || v < 1) return usageError("--tile needs a number of keys (at least 1)");
            o.tile = v;
        } else if (arg == "--pass") {
            if (!r.number(v) || v >= kPasses) return usageError("--pass needs a pass number from 0 to 7");
            o.pass = static_cast<uint32_t>(v);
        } else if (arg == "--seed") {
            if (!r.number(v)) return usageError("--seed needs a number");
            o.seed = v;
        } else if (arg == "--dist") {
            const char* name = r.text();
            if (!name) return usageError("--dist needs a distribution name");
            auto d = parseDistribution(name);
            if (!d) return usageError("unknown distribution " + std::string(name));
            o.dist = *d;
        } else if (arg == "--type") {
            const char* type = r.text();
            if (!type) return usageError("--type needs a key type");
            if (std::string_view(type) != "u32")
                return usageError("only u32 keys are drawn (one hex digit per pass); other types sort their order "
                                  "bits the same way");
        } else {
            return usageError("unknown option " + std::string(arg));
        }
        return std::nullopt;
    };
    if (auto code = readOptions(argc, argv, kUsage, o.out, usageError, option)) return *code;
    if ((o.n + o.tile - 1) / o.tile > kMaxWorkgroups)
        return usageError("at most " + std::to_string(kMaxWorkgroups) + " tiles fit the table: raise --tile");

    PassPicture p;
    std::string error;
    if (!computePass(o, p, error)) {
        std::cerr << "sortlab-radix-diagram: " << error << "\n";
        return 3;
    }
    return writeSvg(render(o, p), o.out, "sortlab-radix-diagram");
}
