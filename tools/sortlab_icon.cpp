// sortlab-icon DIR: draws the app's icon, six bars rising from blue to yellow on a dark rounded
// square (the array view's colours), as DIR/sortlab.svg and DIR/sortlab-N.png for the sizes a
// desktop asks for, and DIR/sortlab.ico (the same sizes, for Windows: the program's and the
// installer's icon). All come from the same rectangles, so they match; run at build time.
#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

struct Rect {
    float x0, y0, x1, y1, radius;
    unsigned char r, g, b;
};

// In a 256 x 256 box.
std::vector<Rect> shapes() {
    std::vector<Rect> s = {{8, 8, 248, 248, 44, 28, 30, 38}};
    const unsigned char colours[6][3] = {{51, 102, 217},  {43, 140, 200}, {38, 178, 166},
                                         {110, 195, 120}, {200, 205, 80}, {242, 217, 64}};
    for (int i = 0; i < 6; ++i) {
        const float x0 = 40 + 30.0f * float(i), h = 36 + 30.0f * float(i);
        s.push_back({x0, 216 - h, x0 + 24, 216, 4, colours[i][0], colours[i][1], colours[i][2]});
    }
    return s;
}

bool inside(const Rect& r, float x, float y) {
    if (x < r.x0 || x > r.x1 || y < r.y0 || y > r.y1) return false;
    const float cx = std::clamp(x, r.x0 + r.radius, r.x1 - r.radius),
                cy = std::clamp(y, r.y0 + r.radius, r.y1 - r.radius);
    return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r.radius * r.radius;
}

// The icon at size x size, RGBA, 4 x 4 samples a pixel.
std::vector<unsigned char> pixels(int size) {
    const auto s = shapes();
    std::vector<unsigned char> px(size_t(size) * size * 4, 0);
    constexpr int k = 4;
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            float acc[4] = {0, 0, 0, 0};
            for (int sy = 0; sy < k; ++sy)
                for (int sx = 0; sx < k; ++sx) {
                    const float u = (float(x) + (float(sx) + 0.5f) / k) * 256.0f / float(size),
                                v = (float(y) + (float(sy) + 0.5f) / k) * 256.0f / float(size);
                    for (auto it = s.rbegin(); it != s.rend(); ++it) // the topmost shape wins
                        if (inside(*it, u, v)) {
                            acc[0] += it->r, acc[1] += it->g, acc[2] += it->b, acc[3] += 255;
                            break;
                        }
                }
            unsigned char* p = &px[(size_t(y) * size + x) * 4];
            const float a = acc[3] / (k * k);
            for (int c = 0; c < 3; ++c) p[c] = a > 0 ? (unsigned char)std::lround(acc[c] / (acc[3] / 255.0f)) : 0;
            p[3] = (unsigned char)std::lround(a);
        }
    return px;
}

bool png(const std::string& path, int size) {
    return stbi_write_png(path.c_str(), size, size, 4, pixels(size).data(), size * 4) != 0;
}

void put(std::vector<unsigned char>& out, uint32_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back((unsigned char)(v >> (8 * i)));
}

// One image of an .ico: 256 as PNG (Windows Vista and later read it so), the smaller sizes as
// 32-bit bitmaps (BGRA rows bottom-up, then an all-zero AND mask), which every reader takes.
std::vector<unsigned char> icoImage(int size) {
    const std::vector<unsigned char> px = pixels(size);
    std::vector<unsigned char> out;
    if (size >= 256) {
        stbi_write_png_to_func(
            [](void* ctx, void* data, int n) {
                auto* o = static_cast<std::vector<unsigned char>*>(ctx);
                o->insert(o->end(), (unsigned char*)data, (unsigned char*)data + n);
            },
            &out, size, size, 4, px.data(), size * 4);
        return out;
    }
    const uint32_t maskRow = uint32_t((size + 31) / 32 * 4);
    put(out, 40, 4), put(out, uint32_t(size), 4), put(out, uint32_t(2 * size), 4); // BITMAPINFOHEADER
    put(out, 1, 2), put(out, 32, 2), put(out, 0, 4);
    put(out, uint32_t(size * size * 4) + maskRow * uint32_t(size), 4);
    for (int i = 0; i < 4; ++i) put(out, 0, 4);
    for (int y = size - 1; y >= 0; --y)
        for (int x = 0; x < size; ++x) {
            const unsigned char* p = &px[(size_t(y) * size + x) * 4];
            out.insert(out.end(), {p[2], p[1], p[0], p[3]});
        }
    out.insert(out.end(), size_t(maskRow) * size, 0);
    return out;
}

bool ico(const std::string& path, const std::vector<int>& sizes) {
    std::vector<unsigned char> head, body;
    put(head, 0, 2), put(head, 1, 2), put(head, uint32_t(sizes.size()), 2); // ICONDIR: an icon, its count
    uint32_t offset = uint32_t(6 + 16 * sizes.size());
    for (int size : sizes) {
        const std::vector<unsigned char> image = icoImage(size);
        head.push_back((unsigned char)(size >= 256 ? 0 : size)); // 0 means 256
        head.push_back((unsigned char)(size >= 256 ? 0 : size));
        put(head, 0, 2), put(head, 1, 2), put(head, 32, 2); // no palette; planes; bits a pixel
        put(head, uint32_t(image.size()), 4), put(head, offset, 4);
        offset += uint32_t(image.size());
        body.insert(body.end(), image.begin(), image.end());
    }
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    const bool ok = std::fwrite(head.data(), 1, head.size(), f) == head.size() &&
                    std::fwrite(body.data(), 1, body.size(), f) == body.size();
    return std::fclose(f) == 0 && ok;
}

bool svg(const std::string& path) {
    FILE* f = std::fopen(path.c_str(), "w");
    if (!f) return false;
    std::fprintf(f,
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"256\" height=\"256\" viewBox=\"0 0 256 256\">\n");
    for (const Rect& r : shapes())
        std::fprintf(f, "  <rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" rx=\"%g\" fill=\"#%02x%02x%02x\"/>\n",
                     r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0, r.radius, r.r, r.g, r.b);
    std::fprintf(f, "</svg>\n");
    return std::fclose(f) == 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: sortlab-icon DIR\n");
        return 2;
    }
    const std::string dir = argv[1];
    bool ok = svg(dir + "/sortlab.svg");
    const std::vector<int> sizes = {16, 24, 32, 48, 64, 128, 256};
    for (int size : sizes) ok = ok && png(dir + "/sortlab-" + std::to_string(size) + ".png", size);
    ok = ok && ico(dir + "/sortlab.ico", sizes);
    if (!ok) std::fprintf(stderr, "sortlab-icon: cannot write into %s\n", dir.c_str());
    return ok ? 0 : 3;
}
