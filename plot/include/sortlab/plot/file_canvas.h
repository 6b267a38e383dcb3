// The file canvas of the plots' PNGs (plot.h), a software rasteriser; writeFigureSvg's SVG writer
// is private to it. They need only the C++ runtime and libstb (stb_truetype, stb_image_write), so
// sortlab-bench and sortlab-plot can draw plots on a GPU machine without a display, GLFW or ImGui.
#pragma once

#include <sortlab/plot/plot.h>

#include <string>
#include <vector>

namespace sortlab::plot {

// RGBA pixels with anti-aliased lines, circles and triangles (coverage from the distance to the
// shape), and text from a TrueType font through stb_truetype. The font is the first of
// $SORTLAB_FONT, DejaVu Sans, Liberation Sans and Noto Sans that exists; without any, the
// strokes of stb_easy_font (ASCII only) are drawn instead, scaled to the size asked for.
class RasterCanvas : public Canvas {
public:
    RasterCanvas(int width, int height, Colour background);
    int width() const { return w_; }
    int height() const { return h_; }
    const std::vector<uint8_t>& pixels() const { return px_; } // RGBA, rows top to bottom
    // Where the glyphs come from: a font file, or "stb_easy_font (no TrueType font found)".
    static std::string fontSource();
    // "" on success, else why not.
    std::string writePng(const std::string& path) const;

    void line(Vec2 a, Vec2 b, Colour c, float width) override;
    void fillRect(Rect r, Colour c) override;
    void fillCircle(Vec2 centre, float radius, Colour c) override;
    void fillTriangle(Vec2 a, Vec2 b, Vec2 c, Colour colour) override;
    void text(Vec2 at, std::string_view s, Colour c, float size, HAlign h, VAlign v) override;
    float textWidth(std::string_view s, float size) override;
    void pushClip(Rect r) override;
    void popClip() override;

private:
    void blend(int x, int y, Colour c, float coverage);
    int w_, h_;
    std::vector<uint8_t> px_;
    std::vector<Rect> clips_;
};

// The decoded code points of UTF-8 text (invalid bytes become U+FFFD).
std::vector<uint32_t> utf8CodePoints(std::string_view s);

} // namespace sortlab::plot
