// What the SVG diagram tools share (sortlab-diagram, tools/network_diagram.cpp, and
// sortlab-radix-diagram, tools/radix_diagram.cpp): number and text formatting, the document's
// opening, the command line's numbers, and writing the result.
#pragma once

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

namespace sortlab::tools {

// Text with &, < and > escaped for SVG.
inline std::string svgEscape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '&')
            o += "&amp;";
        else if (c == '<')
            o += "&lt;";
        else if (c == '>')
            o += "&gt;";
        else
            o += c;
    }
    return o;
}

// Rough width of a line of text (DejaVu Sans averages about 0.6 em a character).
inline double svgTextWidth(const std::string& s, double size, bool bold = false) {
    return double(s.size()) * size * (bold ? 0.64 : 0.58);
}

// A coordinate with one decimal, without a trailing ".0".
inline std::string svgNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    std::string s = buf;
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s;
}

// <svg> of this size (sans-serif text), a comment saying what made it, and a white background.
inline void openSvg(std::ostringstream& svg, double width, double height, const std::string& comment) {
    svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << svgNumber(width) << "\" height=\""
        << svgNumber(height) << "\" viewBox=\"0 0 " << svgNumber(width) << " " << svgNumber(height)
        << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n";
    svg << "<!-- " << comment << " -->\n";
    svg << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
}

// A whole decimal number, nothing after it.
inline bool parseU64(std::string_view s, uint64_t& v) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size();
}

// The options of a diagram tool's command line, one at a time, each with at most one value.
class OptionReader {
public:
    OptionReader(int argc, char** argv) : argc_(argc), argv_(argv) {}
    // Moves to the next option; false at the end.
    bool next() { return ++i_ < argc_; }
    std::string_view option() const { return argv_[i_]; }
    // The option's value as a whole number (false: none, or not a number).
    bool number(uint64_t& v) {
        if (i_ + 1 >= argc_) return false;
        return parseU64(argv_[++i_], v);
    }
    // The option's value (null: none).
    const char* text() { return i_ + 1 < argc_ ? argv_[++i_] : nullptr; }

private:
    int argc_;
    char** argv_;
    int i_ = 0;
};

// Reads the command line: --help or -h (prints `usage`: exit code 0) and --out FILE here, every
// other option by onOption(option, reader), which returns an exit code to stop with (from
// usageError) or nothing to go on. Returns the exit code to stop with, or nothing.
template <class UsageError, class OnOption>
std::optional<int> readOptions(int argc, char** argv, const char* usage, std::string& out, UsageError usageError,
                               OnOption onOption) {
    OptionReader r(argc, argv);
    while (r.next()) {
        const std::string_view arg = r.option();
        if (arg == "--help" || arg == "-h") {
            std::cout << usage;
            return 0;
        }
        if (arg == "--out") {
            const char* file = r.text();
            if (!file) return usageError("--out needs a file name");
            out = file;
            continue;
        }
        if (std::optional<int> code = onOption(arg, r)) return code;
    }
    return std::nullopt;
}

// Writes the SVG to `path`, or to standard output when it is empty. The exit code: 0, or 1 after
// "PROGRAM: cannot write PATH" on stderr.
inline int writeSvg(const std::string& svg, const std::string& path, const char* program) {
    if (path.empty()) {
        std::cout << svg;
        return 0;
    }
    std::ofstream f(path, std::ios::binary);
    f << svg;
    f.close();
    if (!f) {
        std::cerr << program << ": cannot write " << path << "\n";
        return 1;
    }
    return 0;
}

} // namespace sortlab::tools
