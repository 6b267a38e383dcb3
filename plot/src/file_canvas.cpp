// [SECTION] Text: UTF-8, the TrueType font, stb_easy_font
// [SECTION] RasterCanvas
// [SECTION] SvgCanvas
// [SECTION] Figure files
#include <sortlab/plot/file_canvas.h>

#include <stb_image_write.h>
#include <stb_truetype.h>
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <stb_easy_font.h>
#pragma GCC diagnostic pop

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>

#ifdef _WIN32
#include <windows.h>
#endif

namespace sortlab::plot {

// [SECTION] Text: UTF-8, the TrueType font, stb_easy_font -----------------------------------------

std::vector<uint32_t> utf8CodePoints(std::string_view s) {
    std::vector<uint32_t> out;
    for (size_t i = 0; i < s.size();) {
        const uint8_t c = uint8_t(s[i]);
        const int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
        if (extra < 0 || i + size_t(extra) >= s.size()) {
            out.push_back(0xFFFD);
            ++i;
            continue;
        }
        uint32_t cp = extra == 0 ? c : extra == 1 ? (c & 0x1F) : extra == 2 ? (c & 0x0F) : (c & 0x07);
        bool ok = true;
        for (int k = 1; k <= extra; ++k) {
            const uint8_t d = uint8_t(s[i + size_t(k)]);
            if ((d >> 6) != 2) ok = false;
            cp = (cp << 6) | (d & 0x3F);
        }
        out.push_back(ok ? cp : 0xFFFD);
        i += ok ? size_t(extra) + 1 : 1;
    }
    return out;
}

namespace {

struct TrueTypeFont {
    std::vector<unsigned char> data;
    stbtt_fontinfo info{};
    int ascent = 0, descent = 0;
    std::string path;
    bool ok = false;
};

#ifdef _WIN32
// Windows: the DejaVu font shipped in the fonts folder beside the program (packaging/windows/).
std::string shippedFont() {
    char buf[MAX_PATH];
    const DWORD len = GetModuleFileNameA(nullptr, buf, MAX_PATH);
    if (len == 0 || len >= MAX_PATH) return {};
    std::string dir(buf, len);
    dir.resize(dir.find_last_of("\\/") + 1);
    return dir + "fonts\\DejaVuSans.ttf";
}
#endif

const TrueTypeFont& font() {
    static TrueTypeFont f;
    static std::once_flag once;
    std::call_once(once, [] {
        std::vector<std::string> candidates;
        const char* env = std::getenv("SORTLAB_FONT");
        const bool files = !env || std::string(env) != "builtin";
        if (env && *env && files) candidates.push_back(env);
#ifdef _WIN32
        if (files) candidates.insert(candidates.end(), {shippedFont(), "C:/Windows/Fonts/segoeui.ttf"});
#endif
        if (files)
            for (const char* p : {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                                  "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
                                  "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
                                  "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
                                  "/usr/share/fonts/TTF/DejaVuSans.ttf", "/usr/share/fonts/dejavu/DejaVuSans.ttf"})
                candidates.push_back(p);
        for (const std::string& p : candidates) {
            std::ifstream in(p, std::ios::binary);
            if (!in) continue;
            f.data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
            const int offset = stbtt_GetFontOffsetForIndex(f.data.data(), 0);
            if (offset < 0 || !stbtt_InitFont(&f.info, f.data.data(), offset)) continue;
            int gap = 0;
            stbtt_GetFontVMetrics(&f.info, &f.ascent, &f.descent, &gap);
            f.path = p;
            f.ok = true;
            return;
        }
    });
    return f;
}

// stb_easy_font draws ASCII in units where a line is about 12 high (capitals 7, descenders 2).
constexpr float kEasyLine = 12.0f;

std::string asciiOnly(std::string_view s) {
    std::string out;
    for (uint32_t cp : utf8CodePoints(s)) out += cp >= 32 && cp < 127 ? char(cp) : '?';
    return out;
}

} // namespace

// [SECTION] RasterCanvas --------------------------------------------------------------------------------

RasterCanvas::RasterCanvas(int width, int height, Colour bg)
    : w_(std::max(1, width)), h_(std::max(1, height)), px_(size_t(w_) * size_t(h_) * 4) {
    for (size_t i = 0; i < px_.size(); i += 4) px_[i] = bg.r, px_[i + 1] = bg.g, px_[i + 2] = bg.b, px_[i + 3] = 255;
}

std::string RasterCanvas::fontSource() {
    const TrueTypeFont& f = font();
    return f.ok ? f.path : "stb_easy_font (no TrueType font found)";
}

void RasterCanvas::blend(int x, int y, Colour c, float coverage) {
    if (x < 0 || y < 0 || x >= w_ || y >= h_ || coverage <= 0) return;
    if (!clips_.empty()) {
        const Rect& r = clips_.back();
        if (float(x) + 0.5f < r.x0 || float(x) + 0.5f >= r.x1 || float(y) + 0.5f < r.y0 || float(y) + 0.5f >= r.y1)
            return;
    }
    const float a = std::min(1.0f, coverage) * float(c.a) / 255.0f;
    uint8_t* p = &px_[(size_t(y) * size_t(w_) + size_t(x)) * 4];
    p[0] = uint8_t(std::lround(float(p[0]) * (1 - a) + float(c.r) * a));
    p[1] = uint8_t(std::lround(float(p[1]) * (1 - a) + float(c.g) * a));
    p[2] = uint8_t(std::lround(float(p[2]) * (1 - a) + float(c.b) * a));
}

void RasterCanvas::line(Vec2 a, Vec2 b, Colour c, float width) {
    const float half = std::max(0.5f, width / 2), fade = std::min(1.0f, width);
    const int x0 = int(std::floor(std::min(a.x, b.x) - half - 1)), x1 = int(std::ceil(std::max(a.x, b.x) + half + 1));
    const int y0 = int(std::floor(std::min(a.y, b.y) - half - 1)), y1 = int(std::ceil(std::max(a.y, b.y) + half + 1));
    const float dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    for (int y = std::max(0, y0); y <= std::min(h_ - 1, y1); ++y)
        for (int x = std::max(0, x0); x <= std::min(w_ - 1, x1); ++x) {
            const float px = float(x) + 0.5f, py = float(y) + 0.5f;
            float t = len2 > 0 ? ((px - a.x) * dx + (py - a.y) * dy) / len2 : 0;
            t = std::clamp(t, 0.0f, 1.0f);
            const float ex = a.x + t * dx - px, ey = a.y + t * dy - py;
            const float d = std::sqrt(ex * ex + ey * ey);
            blend(x, y, c, std::clamp(half + 0.5f - d, 0.0f, 1.0f) * fade);
        }
}

void RasterCanvas::fillRect(Rect r, Colour c) {
    if (r.x1 < r.x0) std::swap(r.x0, r.x1);
    if (r.y1 < r.y0) std::swap(r.y0, r.y1);
    for (int y = std::max(0, int(std::floor(r.y0))); y < std::min(h_, int(std::ceil(r.y1))); ++y) {
        const float cy = std::min(r.y1, float(y + 1)) - std::max(r.y0, float(y));
        for (int x = std::max(0, int(std::floor(r.x0))); x < std::min(w_, int(std::ceil(r.x1))); ++x) {
            const float cx = std::min(r.x1, float(x + 1)) - std::max(r.x0, float(x));
            blend(x, y, c, cx * cy);
        }
    }
}

void RasterCanvas::fillCircle(Vec2 o, float radius, Colour c) {
    for (int y = std::max(0, int(o.y - radius - 1)); y <= std::min(h_ - 1, int(o.y + radius + 1)); ++y)
        for (int x = std::max(0, int(o.x - radius - 1)); x <= std::min(w_ - 1, int(o.x + radius + 1)); ++x) {
            const float dx = float(x) + 0.5f - o.x, dy = float(y) + 0.5f - o.y;
            blend(x, y, c, std::clamp(radius + 0.5f - std::sqrt(dx * dx + dy * dy), 0.0f, 1.0f));
        }
}

void RasterCanvas::fillTriangle(Vec2 a, Vec2 b, Vec2 c, Colour colour) {
    auto edge = [](Vec2 p, Vec2 q, float x, float y) { return (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x); };
    const float area = edge(a, b, c.x, c.y);
    if (area == 0) return;
    const int x0 = std::max(0, int(std::floor(std::min({a.x, b.x, c.x})))),
              x1 = std::min(w_ - 1, int(std::ceil(std::max({a.x, b.x, c.x}))));
    const int y0 = std::max(0, int(std::floor(std::min({a.y, b.y, c.y})))),
              y1 = std::min(h_ - 1, int(std::ceil(std::max({a.y, b.y, c.y}))));
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            int inside = 0; // 4 x 4 samples
            for (int sy = 0; sy < 4; ++sy)
                for (int sx = 0; sx < 4; ++sx) {
                    const float px = float(x) + (float(sx) + 0.5f) / 4, py = float(y) + (float(sy) + 0.5f) / 4;
                    const float e0 = edge(a, b, px, py), e1 = edge(b, c, px, py), e2 = edge(c, a, px, py);
                    if (area > 0 ? (e0 >= 0 && e1 >= 0 && e2 >= 0) : (e0 <= 0 && e1 <= 0 && e2 <= 0)) ++inside;
                }
            blend(x, y, colour, float(inside) / 16);
        }
}

float RasterCanvas::textWidth(std::string_view s, float size) {
    const TrueTypeFont& f = font();
    if (!f.ok) {
        std::string a = asciiOnly(s);
        return float(stb_easy_font_width(a.data())) * size / kEasyLine;
    }
    const float scale = stbtt_ScaleForPixelHeight(&f.info, size);
    float w = 0;
    const std::vector<uint32_t> cps = utf8CodePoints(s);
    for (size_t i = 0; i < cps.size(); ++i) {
        int advance = 0, lsb = 0;
        stbtt_GetCodepointHMetrics(&f.info, int(cps[i]), &advance, &lsb);
        w += float(advance) * scale;
        if (i + 1 < cps.size())
            w += float(stbtt_GetCodepointKernAdvance(&f.info, int(cps[i]), int(cps[i + 1]))) * scale;
    }
    return w;
}

void RasterCanvas::text(Vec2 at, std::string_view s, Colour c, float size, HAlign h, VAlign v) {
    const float w = textWidth(s, size);
    float x = h == HAlign::left ? at.x : h == HAlign::centre ? at.x - w / 2 : at.x - w;
    const float top = v == VAlign::top ? at.y : v == VAlign::middle ? at.y - size / 2 : at.y - size;
    const TrueTypeFont& f = font();
    if (!f.ok) {
        std::string a = asciiOnly(s);
        static thread_local std::vector<char> buffer(1 << 20);
        unsigned char white[4] = {255, 255, 255, 255};
        const int quads = stb_easy_font_print(0, 0, a.data(), white, buffer.data(), int(buffer.size()));
        const float k = size / kEasyLine;
        for (int q = 0; q < quads; ++q) {
            const float* v0 = reinterpret_cast<const float*>(buffer.data() + size_t(q) * 64);
            const float* v2 = reinterpret_cast<const float*>(buffer.data() + size_t(q) * 64 + 32);
            fillRect({x + v0[0] * k, top + size * 0.1f + v0[1] * k, x + v2[0] * k, top + size * 0.1f + v2[1] * k}, c);
        }
        return;
    }
    const float scale = stbtt_ScaleForPixelHeight(&f.info, size);
    const int baseline = int(std::lround(top + float(f.ascent) * scale));
    const std::vector<uint32_t> cps = utf8CodePoints(s);
    std::vector<unsigned char> glyph;
    for (size_t i = 0; i < cps.size(); ++i) {
        const int cp = int(cps[i]);
        const float fx = x - std::floor(x);
        int ix0 = 0, iy0 = 0, ix1 = 0, iy1 = 0;
        stbtt_GetCodepointBitmapBoxSubpixel(&f.info, cp, scale, scale, fx, 0, &ix0, &iy0, &ix1, &iy1);
        const int gw = ix1 - ix0, gh = iy1 - iy0;
        if (gw > 0 && gh > 0) {
            glyph.assign(size_t(gw) * size_t(gh), 0);
            stbtt_MakeCodepointBitmapSubpixel(&f.info, glyph.data(), gw, gh, gw, scale, scale, fx, 0, cp);
            const int ox = int(std::floor(x)) + ix0, oy = baseline + iy0;
            for (int yy = 0; yy < gh; ++yy)
                for (int xx = 0; xx < gw; ++xx)
                    if (const uint8_t a = glyph[size_t(yy) * size_t(gw) + size_t(xx)])
                        blend(ox + xx, oy + yy, c, float(a) / 255.0f);
        }
        int advance = 0, lsb = 0;
        stbtt_GetCodepointHMetrics(&f.info, cp, &advance, &lsb);
        x += float(advance) * scale;
        if (i + 1 < cps.size()) x += float(stbtt_GetCodepointKernAdvance(&f.info, cp, int(cps[i + 1]))) * scale;
    }
}

void RasterCanvas::pushClip(Rect r) {
    if (!clips_.empty()) {
        const Rect& o = clips_.back();
        r = {std::max(r.x0, o.x0), std::max(r.y0, o.y0), std::min(r.x1, o.x1), std::min(r.y1, o.y1)};
    }
    clips_.push_back(r);
}

void RasterCanvas::popClip() {
    if (!clips_.empty()) clips_.pop_back();
}

std::string RasterCanvas::writePng(const std::string& path) const {
    if (!stbi_write_png(path.c_str(), w_, h_, 4, px_.data(), w_ * 4)) return "cannot write the PNG '" + path + "'";
    return {};
}

// [SECTION] SvgCanvas -------------------------------------------------------------------------------------

namespace {

std::string fmt(float v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", double(v));
    return buf;
}

std::string rgb(Colour c) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "rgb(%u,%u,%u)", c.r, c.g, c.b);
    std::string s = buf;
    return s;
}

std::string opacity(const char* attribute, Colour c) {
    if (c.a == 255) return {};
    char buf[64];
    std::snprintf(buf, sizeof buf, " %s=\"%.3f\"", attribute, double(c.a) / 255.0);
    return buf;
}

std::string escapeXml(std::string_view s) {
    std::string out;
    for (char ch : s) {
        switch (ch) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += ch;
        }
    }
    return out;
}

// DejaVu Sans: ascent 0.928 em, descent 0.236 em; our size is the line height (ascent + descent).
constexpr float kEmPerSize = 1.0f / 1.164f, kAscentEm = 0.928f, kDescentEm = 0.236f;

// SVG 1.1 text: lines, rectangles, circles, polygons and <text> in a sans-serif font (the
// viewer's; widths are estimated for DejaVu Sans / Verdana-like fonts). Only writeFigureSvg draws on it.
class SvgCanvas : public Canvas {
public:
    SvgCanvas(int width, int height) : w_(width), h_(height) {}

    std::string finish() {
        while (open_ > 0) body_ += "</g>\n", --open_;
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
               std::to_string(w_) + "\" height=\"" + std::to_string(h_) + "\" viewBox=\"0 0 " + std::to_string(w_) +
               " " + std::to_string(h_) +
               "\" font-family=\"DejaVu Sans, Verdana, Bitstream Vera Sans, sans-serif\">\n<defs>\n" + defs_ +
               "</defs>\n" + body_ + "</svg>\n";
    }

    void line(Vec2 a, Vec2 b, Colour c, float width) override {
        body_ += "<line x1=\"" + fmt(a.x) + "\" y1=\"" + fmt(a.y) + "\" x2=\"" + fmt(b.x) + "\" y2=\"" + fmt(b.y) +
                 "\" stroke=\"" + rgb(c) + "\"" + opacity("stroke-opacity", c) + " stroke-width=\"" + fmt(width) +
                 "\" stroke-linecap=\"round\"/>\n";
    }

    void fillRect(Rect r, Colour c) override {
        body_ += "<rect x=\"" + fmt(std::min(r.x0, r.x1)) + "\" y=\"" + fmt(std::min(r.y0, r.y1)) + "\" width=\"" +
                 fmt(std::fabs(r.w())) + "\" height=\"" + fmt(std::fabs(r.h())) + "\" fill=\"" + rgb(c) + "\"" +
                 opacity("fill-opacity", c) + "/>\n";
    }

    void fillCircle(Vec2 o, float radius, Colour c) override {
        body_ += "<circle cx=\"" + fmt(o.x) + "\" cy=\"" + fmt(o.y) + "\" r=\"" + fmt(radius) + "\" fill=\"" + rgb(c) +
                 "\"" + opacity("fill-opacity", c) + "/>\n";
    }

    void fillTriangle(Vec2 a, Vec2 b, Vec2 c, Colour colour) override {
        body_ += "<polygon points=\"" + fmt(a.x) + "," + fmt(a.y) + " " + fmt(b.x) + "," + fmt(b.y) + " " + fmt(c.x) +
                 "," + fmt(c.y) + "\" fill=\"" + rgb(colour) + "\"" + opacity("fill-opacity", colour) + "/>\n";
    }

    float textWidth(std::string_view s, float size) override {
        // Advance widths of DejaVu Sans in em, by class of character (an estimate: the viewer's font
        // decides in the end).
        float em = 0;
        for (uint32_t cp : utf8CodePoints(s)) {
            if (cp == ' ')
                em += 0.318f;
            else if (cp == 'i' || cp == 'l' || cp == 'j' || cp == '.' || cp == ',' || cp == ':' || cp == ';' ||
                     cp == '\'' || cp == '|' || cp == '!')
                em += 0.30f;
            else if (cp == 'f' || cp == 't' || cp == 'r' || cp == '(' || cp == ')' || cp == '[' || cp == ']' ||
                     cp == '-')
                em += 0.40f;
            else if (cp >= '0' && cp <= '9')
                em += 0.636f;
            else if (cp == 'm' || cp == 'w' || cp == 'M' || cp == 'W')
                em += 0.92f;
            else if (cp >= 'A' && cp <= 'Z')
                em += 0.70f;
            else
                em += 0.60f;
        }
        return em * size * kEmPerSize;
    }

    void text(Vec2 at, std::string_view s, Colour c, float size, HAlign h, VAlign v) override {
        const float em = size * kEmPerSize;
        const float baseline = v == VAlign::top      ? at.y + kAscentEm * em
                               : v == VAlign::middle ? at.y - size / 2 + kAscentEm * em
                                                     : at.y - kDescentEm * em;
        const char* anchor = h == HAlign::left ? "start" : h == HAlign::centre ? "middle" : "end";
        body_ += "<text x=\"" + fmt(at.x) + "\" y=\"" + fmt(baseline) + "\" font-size=\"" + fmt(em) + "\" fill=\"" +
                 rgb(c) + "\"" + opacity("fill-opacity", c) + " text-anchor=\"" + anchor + "\">" + escapeXml(s) +
                 "</text>\n";
    }

    void pushClip(Rect r) override {
        const std::string id = "clip" + std::to_string(clips_++);
        defs_ += "<clipPath id=\"" + id + "\"><rect x=\"" + fmt(r.x0) + "\" y=\"" + fmt(r.y0) + "\" width=\"" +
                 fmt(r.w()) + "\" height=\"" + fmt(r.h()) + "\"/></clipPath>\n";
        body_ += "<g clip-path=\"url(#" + id + ")\">\n";
        ++open_;
    }

    void popClip() override {
        if (open_ > 0) body_ += "</g>\n", --open_;
    }

private:
    int w_, h_;
    std::string body_, defs_;
    int clips_ = 0, open_ = 0;
};

} // namespace

// [SECTION] Figure files ------------------------------------------------------------------------------------

namespace {

Style fileStyle(int width, int logY) {
    Style s;
    s.logY = logY;
    s.theme = lightTheme();
    s.fontSize = std::clamp(float(width) / 95.0f, 11.0f, 22.0f);
    s.lineWidth = s.fontSize / 7.0f;
    s.markerRadius = s.fontSize / 4.0f;
    return s;
}

void drawKind(Canvas& c, int width, int height, const Figure& f, const Style& s, uint64_t n, FigureKind kind) {
    if (kind == FigureKind::byDistribution)
        drawDistributionFigure(c, float(width), float(height), f, s, n);
    else
        drawFigure(c, float(width), float(height), f, s, n);
}

} // namespace

std::string writeFigureSvg(const Figure& f, const std::string& path, int width, int height, uint64_t breakdownN,
                           int logY, FigureKind kind) {
    SvgCanvas c(width, height);
    drawKind(c, width, height, f, fileStyle(width, logY), breakdownN, kind);
    const std::string doc = c.finish();
    std::FILE* out = std::fopen(path.c_str(), "wb");
    if (!out) return "cannot write the SVG '" + path + "'";
    const bool ok = std::fwrite(doc.data(), 1, doc.size(), out) == doc.size();
    if (std::fclose(out) != 0 || !ok) return "cannot write the SVG '" + path + "'";
    return {};
}

std::string writeFigurePng(const Figure& f, const std::string& path, int width, int height, uint64_t breakdownN,
                           int logY, FigureKind kind) {
    const Style s = fileStyle(width, logY);
    RasterCanvas c(width, height, s.theme.background);
    drawKind(c, width, height, f, s, breakdownN, kind);
    return c.writePng(path);
}

} // namespace sortlab::plot
