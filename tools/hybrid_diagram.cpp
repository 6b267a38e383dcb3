// [SECTION] Options and usage
// [SECTION] The input: buckets of unequal sizes, or a generator's keys
// [SECTION] The GPU run: the keys after every step, each checked
// [SECTION] Buckets, windows and regions, from the keys the GPU returned
// [SECTION] Colours and text
// [SECTION] Drawing (Picture: header, strips, windows and regions, notes)
// [SECTION] The command line
//
// sortlab-hybrid-diagram: writes an SVG of the hybrid radix sort's buckets (Algorithm::hybrid,
// sort/src/hybrid.cpp, docs/hybrid.md) drawn from a real run on the GPU: the library plans the
// hybrid sort of n u32 keys, runs it step by step (SortJob::runTo) and reads the keys back after
// every step (SortJob::capture), as sortlab-bench --trace does.
//
//   sortlab-hybrid-diagram --n 4096 --out docs/img/hybrid-buckets.svg
//
// One strip per stage, top to bottom: the input, after the MSD pass on bits 16-23, after the MSD
// pass on bits 24-31 (the keys in buckets), after the bucket step (sorted). Each key is a thin bar
// in its place: its colour is its bucket (top 16 bits: hue from bits 24-31, shade from bits
// 16-23), its height grows with its low 16 bits. Under the third strip, the bucket step's windows
// (half a tile of keys each) and each window's region: the buckets that begin in it, whole.
//
// Every position drawn comes from the keys the GPU returned. Before drawing, the program checks
// them: after each MSD pass they equal a stable sort of the input by that pass's bits (then by the
// top 16 bits), the bounds step moved no key, the last step's keys equal std::stable_sort of the
// input, and the buckets read from the returned keys begin where the input's bucket sizes say. A
// mismatch is a one-line error (exit code 4) and no picture.
#include <sortlab/data.h>
#include <sortlab/job.h>

#include "svg.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

using namespace sortlab;
using namespace sortlab::tools;

namespace {

// [SECTION] Options and usage -----------------------------------------------------------------------------------------

constexpr const char* kProgram = "sortlab-hybrid-diagram";
constexpr uint64_t kMinN = 2, kMaxN = 4096; // beyond 4096 a key is under a quarter of a pixel

struct Options {
    uint64_t n = 4096;
    uint64_t seed = 1;
    bool generated = false; // --dist names one of the library's distributions
    Distribution dist = Distribution::uniform;
    std::string device;
    bool validation = false;
    std::string out;
};

const char* kUsage =
    "usage: sortlab-hybrid-diagram [--n N] [--dist D] [--seed S] [--device D] [--validation] [--out FILE]\n"
    "  --n N          u32 keys (2..4096, default 4096)\n"
    "  --dist D       buckets (default): 24 buckets of unequal sizes made for this picture; or a\n"
    "                 distribution of sortlab-bench --dist (uniform, gaussian, few-unique, ...)\n"
    "  --seed S       input seed (default 1); with --dist D as sortlab-bench --seed\n"
    "  --device D     the Vulkan device, as sortlab-bench --device (default: the best one)\n"
    "  --validation   run with the Vulkan validation layers; a message fails the run (exit code 1)\n"
    "  --out FILE     write the SVG here (default: standard output)\n"
    "Exit codes: 0 ok; 1 validation messages or the SVG cannot be written; 2 usage error; 3 no Vulkan\n"
    "device or a sort error; 4 the keys the GPU returned are not what the step must leave (no SVG).\n";

// One line on stderr; returns the exit code.
int fail(int code, const std::string& what) {
    std::cerr << kProgram << ": error: " << what << "\n";
    return code;
}

// [SECTION] The input: buckets of unequal sizes, or a generator's keys
// -------------------------------------------------

// The picture's own input: a few dozen buckets whose sizes differ, laid out so that at 4096 keys
// and lavapipe's window of 1280 keys one region is larger than a tile (two pieces), one window has
// no bucket beginning in it, and the others hold several small buckets. Sizes are for 4096 keys
// (they sum to 4096) and scale with n.
struct BucketSpec {
    uint8_t top, second; // bits 24-31 and 16-23
    uint32_t keys;       // of 4096
};
constexpr uint8_t kTops[] = {0x12, 0x5a, 0x9c, 0xe3};
constexpr uint8_t kSeconds[] = {0x08, 0x31, 0x66, 0x94, 0xc5, 0xf0};
constexpr uint32_t kSizes[4][6] = {
    {300, 40, 180, 90, 25, 400}, {60, 1600, 120, 35, 500, 15}, {210, 80, 250, 20, 45, 30}, {12, 18, 25, 8, 23, 10}};
constexpr uint32_t kSizesTotal = 4096;

// Each bucket's keys for n: its size scaled to n, rounded down, the keys left over given to the
// buckets with the largest remainders.
std::vector<std::pair<uint32_t, uint64_t>> bucketSizes(uint64_t n) {
    std::vector<std::pair<uint32_t, uint64_t>> sizes; // (bucket, keys)
    std::vector<std::pair<uint64_t, size_t>> remainders;
    uint64_t given = 0;
    for (size_t t = 0; t < std::size(kTops); ++t)
        for (size_t s = 0; s < std::size(kSeconds); ++s) {
            const uint64_t scaled = uint64_t(kSizes[t][s]) * n;
            sizes.push_back({uint32_t(kTops[t]) << 8 | kSeconds[s], scaled / kSizesTotal});
            remainders.push_back({scaled % kSizesTotal, sizes.size() - 1});
            given += scaled / kSizesTotal;
        }
    std::stable_sort(remainders.begin(), remainders.end(), [](auto& a, auto& b) { return a.first > b.first; });
    for (size_t i = 0; given < n; ++i, ++given) ++sizes[remainders[i].second].second;
    return sizes;
}

// The input keys: the picture's buckets (top 16 bits as bucketSizes says, low 16 bits random, in
// random order; a Mersenne twister of the seed, so the same on every machine), or generateKeys'.
std::vector<uint32_t> makeInput(const Options& o) {
    std::vector<uint32_t> keys(o.n);
    if (o.generated) {
        const std::vector<std::byte> raw = generateKeys(KeyType::u32, o.n, o.dist, o.seed);
        std::memcpy(keys.data(), raw.data(), o.n * 4);
        return keys;
    }
    std::mt19937_64 rng(o.seed);
    size_t i = 0;
    for (auto [bucket, count] : bucketSizes(o.n))
        for (uint64_t k = 0; k < count; ++k) keys[i++] = bucket << 16 | uint32_t(rng() & 0xffff);
    for (size_t j = keys.size() - 1; j > 0; --j) std::swap(keys[j], keys[rng() % (j + 1)]);
    return keys;
}

// [SECTION] The GPU run: the keys after every step, each checked ------------------------------------------------------

// What the GPU returned after the steps the picture shows, and the plan's geometry.
struct Run {
    std::string device;
    std::vector<uint32_t> input, pass1, pass2, sorted; // pass1: bits 16-23; pass2: bits 24-31
    uint64_t tile = 0, window = 0, windows = 0;
    std::string pass1Label, pass2Label;
};

// An error and the exit code it ends the program with.
struct Failure {
    int code;
    std::string what;
};

std::vector<uint32_t> wordsOf(const std::vector<std::byte>& raw) {
    std::vector<uint32_t> w(raw.size() / 4);
    std::memcpy(w.data(), raw.data(), w.size() * 4);
    return w;
}

// The input stably sorted by (key >> shift) & mask.
std::vector<uint32_t> stableBy(std::vector<uint32_t> keys, uint32_t shift, uint32_t mask) {
    std::stable_sort(keys.begin(), keys.end(),
                     [&](uint32_t a, uint32_t b) { return ((a >> shift) & mask) < ((b >> shift) & mask); });
    return keys;
}

// "" when got == want; otherwise where they first differ.
std::string firstDifference(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want) {
    if (got.size() != want.size())
        return std::to_string(got.size()) + " keys came back, " + std::to_string(want.size()) + " expected";
    for (size_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i]) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "key %zu is 0x%08x, expected 0x%08x", i, got[i], want[i]);
            return buf;
        }
    return "";
}

// Checks the keys after a step against what it must leave; a Failure (exit code 4) if they differ.
std::optional<Failure> expectKeys(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want,
                                  const std::string& after, const std::string& must) {
    const std::string d = firstDifference(got, want);
    if (d.empty()) return std::nullopt;
    return Failure{4, "after " + after + " the keys must be " + must + ", but " + d};
}

// Plans the hybrid sort of the input, runs it one step at a time and keeps the keys after the
// steps the picture shows, each checked.
std::optional<Failure> runOnGpu(const Options& o, const std::vector<uint32_t>& input, Run& run) {
    ContextOptions co;
    co.device = o.device;
    co.validation = o.validation;
    auto ctx = Context::create(co);
    if (!ctx) return Failure{ctx.error().code == Errc::invalid_argument ? 2 : 3, ctx.error().message};
    run.device = ctx.value()->info().name;
    auto sorter = makeSorter(**ctx, Algorithm::hybrid);
    if (!sorter) return Failure{3, sorter.error().message};
    auto job = SortJob::create(**ctx, **sorter, o.n, SortConfig{}, false);
    if (!job) return Failure{3, job.error().message};
    SortJob& j = **job;
    std::vector<std::byte> raw(o.n * 4);
    std::memcpy(raw.data(), input.data(), raw.size());
    if (auto up = j.upload(raw, {}); !up) return Failure{3, up.error().message};

    auto capture = [&](std::vector<uint32_t>& keys) -> std::optional<Failure> {
        auto snap = j.capture();
        if (!snap) return Failure{3, snap.error().message};
        keys = wordsOf(snap->keys);
        return std::nullopt;
    };
    if (auto f = capture(run.input)) return f;
    if (auto f = expectKeys(run.input, input, "the upload", "the input")) return f;

    const Plan& plan = j.plan();
    run.tile = plan.tileKeys;
    run.window = run.tile / 2;
    bool pass1 = false, pass2 = false, bounds = false, bucket = false;
    for (size_t i = 0; i < plan.steps.size(); ++i) {
        const Step& s = plan.steps[i];
        if (auto ran = j.runTo(i + 1); !ran) return Failure{3, ran.error().message};
        std::vector<uint32_t> keys;
        if (auto f = capture(keys)) return f;
        if (s.kind == StepKind::pass && s.bitLo == 16 && s.bitHi == 24) {
            if (auto f = expectKeys(keys, stableBy(input, 16, 0xff), "the pass on bits 16-23",
                                    "the input stably sorted by bits 16-23"))
                return f;
            run.pass1 = std::move(keys);
            run.pass1Label = s.label;
            pass1 = true;
        } else if (s.kind == StepKind::pass && s.bitLo == 24 && s.bitHi == 32) {
            if (auto f = expectKeys(keys, stableBy(input, 16, 0xffff), "the pass on bits 24-31",
                                    "the input stably sorted by its top 16 bits (its bucket)"))
                return f;
            run.pass2 = std::move(keys);
            run.pass2Label = s.label;
            pass2 = true;
        } else if (s.kind == StepKind::bounds) {
            if (auto f = expectKeys(keys, run.pass2, "the bounds step", "as the MSD passes left them")) return f;
            bounds = true;
        } else if (s.kind == StepKind::bucket) {
            run.windows = s.workgroups;
            run.sorted = std::move(keys);
            bucket = true;
        }
    }
    if (!pass1 || !pass2 || !bounds || !bucket)
        return Failure{4, "the hybrid plan lacks one of its steps (the passes on bits 16-23 and 24-31, bounds, "
                          "bucket)"};
    if (run.window == 0 || run.windows != (o.n + run.window - 1) / run.window)
        return Failure{4, "the bucket step runs " + std::to_string(run.windows) +
                              " workgroups, not one per window of " + std::to_string(run.window) +
                              " keys (half the plan's tile of " + std::to_string(run.tile) + ")"};
    std::vector<std::byte> want(raw);
    referenceSort(want, {}, KeyType::u32, Order::ascending);
    if (auto f = expectKeys(run.sorted, wordsOf(want), "the bucket step", "std::stable_sort of the input")) return f;
    if (o.validation && ctx.value()->validationMessageCount() > 0)
        return Failure{1, std::to_string(ctx.value()->validationMessageCount()) +
                              " Vulkan validation message(s) (printed above)"};
    return std::nullopt;
}

// [SECTION] Buckets, windows and regions, from the keys the GPU returned ----------------------------------------------

struct Bucket {
    uint32_t value;      // the top 16 bits
    uint64_t begin, end; // keys [begin, end) after the MSD passes
};

// A piece of a region that the bucket step sorts at once.
struct Piece {
    uint64_t begin, end;
    size_t buckets;
};

// Window w's region: the buckets that begin in keys [w window, (w + 1) window), whole.
struct Region {
    uint64_t window = 0;
    size_t first = 0, last = 0; // bucket indices; first > last: no bucket begins in the window
    uint64_t begin = 0, end = 0;
    std::vector<Piece> pieces; // one where it fits a tile, else two: the buckets before its last one, its last one
    bool empty() const { return first > last; }
    size_t buckets() const { return empty() ? 0 : last - first + 1; }
};

struct Layout {
    std::vector<Bucket> buckets;
    std::vector<Region> regions; // one per window
};

// The buckets as runs of equal top 16 bits in the keys the GPU returned after the second pass;
// checked against the bucket sizes of the input. Then each window's region, as the bucket step's
// shader (shaders/hybrid_local.comp) forms it.
std::optional<Failure> findLayout(const Run& run, Layout& l) {
    const std::vector<uint32_t>& k = run.pass2;
    for (uint64_t i = 0; i < k.size(); ++i) {
        const uint32_t b = k[i] >> 16;
        if (i == 0 || b != l.buckets.back().value) {
            if (i) l.buckets.back().end = i;
            l.buckets.push_back({b, i, k.size()});
        }
    }
    std::map<uint32_t, uint64_t> sizes; // the input's, in bucket order
    for (uint32_t key : run.input) ++sizes[key >> 16];
    uint64_t at = 0;
    size_t i = 0;
    for (auto [value, count] : sizes) {
        if (i >= l.buckets.size() || l.buckets[i].value != value || l.buckets[i].begin != at ||
            l.buckets[i].end != at + count)
            return Failure{4, "bucket " + std::to_string(value) + " has " + std::to_string(count) +
                                  " keys in the input and must begin at key " + std::to_string(at) +
                                  " after the MSD passes, but the returned keys put it elsewhere"};
        at += count;
        ++i;
    }
    if (i != l.buckets.size()) return Failure{4, "the returned keys hold more buckets than the input"};

    size_t b = 0;
    for (uint64_t w = 0; w < run.windows; ++w) {
        Region r;
        r.window = w;
        r.first = b;
        while (b < l.buckets.size() && l.buckets[b].begin < (w + 1) * run.window) ++b;
        r.last = b - 1; // (b == r.first: none; then first > last)
        if (!r.empty()) {
            r.begin = l.buckets[r.first].begin;
            r.end = l.buckets[r.last].end;
            const uint64_t lastBegin = l.buckets[r.last].begin;
            if (r.end - r.begin <= run.tile)
                r.pieces.push_back({r.begin, r.end, r.buckets()});
            else {
                if (lastBegin > r.begin) r.pieces.push_back({r.begin, lastBegin, r.buckets() - 1});
                r.pieces.push_back({lastBegin, r.end, 1});
            }
        }
        l.regions.push_back(r);
    }
    // The regions must cover the keys once, in order, each made of whole buckets (true by the rule
    // above; a check that the picture's brackets tile the strip).
    uint64_t next = 0;
    for (const Region& r : l.regions) {
        if (r.empty()) continue;
        if (r.begin != next) return Failure{4, "the regions leave keys " + std::to_string(next) + " onwards out"};
        next = r.end;
    }
    if (next != k.size()) return Failure{4, "the regions end at key " + std::to_string(next)};
    return std::nullopt;
}

// [SECTION] Colours and text ------------------------------------------------------------------------------------------

// A bucket's colour: the hue from its top byte (bits 24-31), light to dark with bits 16-23.
double bucketLightness(uint32_t bucket) {
    return 0.8 - 0.52 * (bucket & 255) / 255.0;
}
std::string bucketColour(uint32_t bucket) {
    const double h = (bucket >> 8) / 256.0 * 360.0, s = 0.72, l = bucketLightness(bucket);
    const double c = (1 - std::fabs(2 * l - 1)) * s, x = c * (1 - std::fabs(std::fmod(h / 60, 2) - 1)), m = l - c / 2;
    double r = 0, g = 0, b = 0;
    switch (int(h / 60) % 6) {
    case 0:
        r = c, g = x;
        break;
    case 1:
        r = x, g = c;
        break;
    case 2:
        g = c, b = x;
        break;
    case 3:
        g = x, b = c;
        break;
    case 4:
        r = x, b = c;
        break;
    default:
        r = c, b = x;
        break;
    }
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", int(std::lround((r + m) * 255)), int(std::lround((g + m) * 255)),
                  int(std::lround((b + m) * 255)));
    return buf;
}

std::string hex(uint32_t v, int digits) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%0*x", digits, v);
    return buf;
}

std::string count(uint64_t n, const std::string& one, const std::string& many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "keys 0–1279"
std::string keyRange(uint64_t begin, uint64_t end) {
    return end - begin == 1 ? "key " + std::to_string(begin)
                            : "keys " + std::to_string(begin) + "\u2013" + std::to_string(end - 1);
}

// Words into lines no wider than `width` at this font size (the first line `firstIndent` narrower).
std::vector<std::string> wrap(const std::string& text, double size, double width, double firstIndent = 0) {
    std::vector<std::string> lines(1);
    std::istringstream words(text);
    std::string w;
    while (words >> w) {
        std::string& line = lines.back();
        const std::string tried = line.empty() ? w : line + " " + w;
        const double room = width - (lines.size() == 1 ? firstIndent : 0);
        if (!line.empty() && svgTextWidth(tried, size) > room)
            lines.push_back(w);
        else
            line = tried;
    }
    return lines;
}

// [SECTION] Drawing (Picture: header, strips, windows and regions, notes) --------------------------------------------

class Picture {
public:
    Picture(const Options& options, const Run& run, const Layout& layout) : o(options), r(run), l(layout) {}

    std::string render() {
        std::ostringstream body;
        double y = drawHeader(body);
        y = drawStrip(body, y, r.input, "1. The input", "the keys as they were uploaded");
        y = drawStrip(body, y, r.pass1, "2. After MSD pass 1: sorted by bits 16\u201323",
                      "OneSweep's pass on the second byte: stably sorted by the shade (light to dark), "
                      "not yet by the hue");
        y = drawStrip(body, y, r.pass2, "3. After MSD pass 2: sorted by bits 24\u201331, so the keys lie in buckets",
                      "OneSweep's pass on the top byte keeps pass 1's order inside each hue (it is stable), so the "
                      "keys are sorted by their top 16 bits: " +
                          count(l.buckets.size(), "bucket", "buckets") +
                          (l.buckets.size() == 1 ? ", one run" : ", one run each"));
        const double stripBottom = y - kStripGap;
        const double windowsTop = stripBottom + 10;
        if (l.buckets.size() <= kMaxMarkedBuckets) drawBucketTicks(body, stripTop, windowsTop);
        y = drawWindows(body, windowsTop);
        y = drawRegions(body, y);
        bool slow = false; // a bucket larger than a tile
        for (const Region& g : l.regions)
            for (const Piece& p : g.pieces) slow = slow || p.end - p.begin > r.tile;
        y = drawStrip(
            body, y + 8, r.sorted, "4. After the bucket step: every key in order",
            std::string("workgroup w sorted region w ") +
                (slow ? "(on chip, or in global memory where a bucket is larger than a tile) " : "on chip ") +
                "by the low 16 bits (and by bucket where it holds several): in each bucket the bars now rise");
        y = drawWorkgroups(body, y - kStripGap + 3);
        y = drawNotes(body, y + 10);
        std::ostringstream svg;
        // (No double hyphen may appear inside an XML comment, so the options are spelled without them.)
        openSvg(svg, kWidth, y + 12,
                "generated by sortlab-hybrid-diagram (tools/hybrid_diagram.cpp): n " + std::to_string(o.n) + ", dist " +
                    (o.generated ? std::string(distributionName(o.dist)) : "buckets") + ", seed " +
                    std::to_string(o.seed) + ", on " + r.device);
        svg << body.str() << "</svg>\n";
        return svg.str();
    }

private:
    static constexpr double kWidth = 960, kLeft = 24, kRight = 936;
    static constexpr double kStripH = 54, kStripGap = 14;
    static constexpr double kLowUnits = 80, kLowBase = 16; // bar heights: 16 + (low 16 bits) / 1024, of 80
    static constexpr size_t kMaxMarkedBuckets = 400;
    static constexpr const char* kRegionInks[] = {"#b5391f", "#1f6fb5", "#2e8b3a", "#8a3fb5"};

    const Options& o;
    const Run& r;
    const Layout& l;
    double stripTop = 0; // the last strip's top

    double xOf(uint64_t i) const { return kLeft + (kRight - kLeft) * double(i) / double(o.n); }

    void text(std::ostringstream& s, double x, double y, double size, const std::string& t, const char* fill = "#222",
              const char* extra = "") {
        s << "<text x=\"" << svgNumber(x) << "\" y=\"" << svgNumber(y) << "\" font-size=\"" << svgNumber(size)
          << "\" fill=\"" << fill << "\"" << extra << ">" << svgEscape(t) << "</text>\n";
    }

    // A paragraph from (x, y): an optional bold lead, then wrapped text. Returns the y under it.
    double paragraph(std::ostringstream& s, double x, double y, double size, const std::string& lead,
                     const std::string& t, double right = kRight, const char* fill = "#333") {
        const double leadW = lead.empty() ? 0 : svgTextWidth(lead + " ", size, true);
        const std::vector<std::string> lines = wrap(t, size, right - x, leadW);
        for (size_t i = 0; i < lines.size(); ++i) {
            s << "<text x=\"" << svgNumber(x) << "\" y=\"" << svgNumber(y) << "\" font-size=\"" << svgNumber(size)
              << "\" fill=\"" << fill << "\" xml:space=\"preserve\">";
            if (i == 0 && !lead.empty())
                s << "<tspan font-weight=\"bold\" fill=\"#222\">" << svgEscape(lead) << " </tspan>";
            s << svgEscape(lines[i]) << "</text>\n";
            y += size * 1.4;
        }
        return y;
    }

    // The buckets' top bytes (shift 8) or second bytes (shift 0).
    std::set<uint32_t> bucketBytes(uint32_t shift) const {
        std::set<uint32_t> bytes;
        for (const Bucket& b : l.buckets) bytes.insert((b.value >> shift) & 255);
        return bytes;
    }

    // The input in words.
    std::string inputText() const {
        if (o.generated)
            return std::to_string(o.n) + " u32 keys from sortlab-bench's generator (--dist " +
                   std::string(distributionName(o.dist)) + " --seed " + std::to_string(o.seed) +
                   "): " + count(l.buckets.size(), "bucket", "buckets") + ".";
        uint64_t least = o.n, most = 0;
        for (const Bucket& b : l.buckets) {
            least = std::min(least, b.end - b.begin);
            most = std::max(most, b.end - b.begin);
        }
        std::string tops, seconds;
        for (uint32_t t : bucketBytes(8)) tops += (tops.empty() ? "" : ", ") + hex(t, 2);
        for (uint32_t s : bucketBytes(0)) seconds += (seconds.empty() ? "" : ", ") + hex(s, 2);
        return std::to_string(o.n) + " u32 keys made to show buckets (seed " + std::to_string(o.seed) +
               "): " + count(l.buckets.size(), "bucket", "buckets") + " of " +
               (least == most ? std::to_string(least) + " keys each"
                              : std::to_string(least) + " to " + std::to_string(most) + " keys") +
               ", their top byte " + tops + " and their second byte " + seconds +
               " (hexadecimal); the low 16 bits random; the keys in random order.";
    }

    // Title, input, how to read the bars, and the colour key where the buckets are few.
    double drawHeader(std::ostringstream& s) {
        text(s, kLeft, 30, 19, "The hybrid radix sort's buckets, step by step", "#111", " font-weight=\"bold\"");
        double y = paragraph(s, kLeft, 52, 12.5, "",
                             "Drawn from the keys the GPU returned after each step (" + r.device + ", " +
                                 "Algorithm::hybrid). Input: " + inputText(),
                             kRight, "#444");
        const std::set<uint32_t> tops = bucketBytes(8), seconds = bucketBytes(0);
        const bool grid = tops.size() <= 6 && seconds.size() <= 8;
        const std::string gridTitle1 = "keys in each bucket, on its colour:",
                          gridTitle2 = "rows its top byte, columns its second (hex)";
        const double cellW = 44, cellH = 17;
        const double gridW = grid ? std::max(34 + cellW * seconds.size(), svgTextWidth(gridTitle2, 11)) : 0;
        const double textRight = grid ? kRight - gridW - 24 : kRight;
        const double top = y + 6;
        y = paragraph(
            s, kLeft, top + 12, 12.5, "How to read it:",
            "each key is one thin vertical bar, in its place among the keys. Its colour is its bucket, "
            "its top 16 bits: the hue comes from bits 24\u201331 (the top byte), the shade from bits "
            "16\u201323 (light to dark). Its height grows with its low 16 bits, which only the last step sorts by.",
            textRight);
        if (!grid) return y + 8;
        const double gx = kRight - gridW, gy = top + 22;
        text(s, gx, top + 2, 11, gridTitle1, "#333");
        text(s, gx, top + 16, 11, gridTitle2, "#333");
        size_t col = 0;
        for (uint32_t sec : seconds)
            text(s, gx + 34 + cellW * (col++ + 0.5), gy + 10, 10.5, hex(sec, 2), "#555", " text-anchor=\"middle\"");
        size_t row = 0;
        for (uint32_t t : tops) {
            const double ry = gy + 14 + cellH * row++;
            text(s, gx + 26, ry + cellH - 5, 10.5, hex(t, 2), "#555", " text-anchor=\"end\"");
            col = 0;
            for (uint32_t sec : seconds) {
                const uint32_t v = t << 8 | sec;
                auto it =
                    std::find_if(l.buckets.begin(), l.buckets.end(), [&](const Bucket& k) { return k.value == v; });
                const double cx = gx + 34 + cellW * col++;
                s << "<rect x=\"" << svgNumber(cx + 1) << "\" y=\"" << svgNumber(ry + 1) << "\" width=\""
                  << svgNumber(cellW - 2) << "\" height=\"" << svgNumber(cellH - 2) << "\" fill=\""
                  << (it != l.buckets.end() ? bucketColour(v) : "#ffffff")
                  << "\" stroke=\"#bbb\" stroke-width=\"0.5\"/>\n";
                if (it != l.buckets.end())
                    text(s, cx + cellW / 2, ry + cellH - 4.5, 10.5, std::to_string(it->end - it->begin),
                         bucketLightness(v) < 0.56 ? "#fff" : "#111", " text-anchor=\"middle\"");
            }
        }
        return std::max(y, gy + 14 + cellH * tops.size()) + 10;
    }

    // A strip: heading, a line under it, then one bar per key (one path per bucket colour, in key
    // units: x the key's index, y its height). Returns the y under it.
    double drawStrip(std::ostringstream& s, double y, const std::vector<uint32_t>& keys, const std::string& heading,
                     const std::string& sub) {
        text(s, kLeft, y + 14, 14, heading, "#111", " font-weight=\"bold\"");
        double top = y + 20;
        for (const std::string& line : wrap(sub, 11.5, kRight - kLeft)) {
            top += 15;
            text(s, kLeft, top, 11.5, line, "#555");
        }
        top += 7;
        stripTop = top;
        const double bottom = top + kStripH;
        s << "<rect x=\"" << svgNumber(kLeft) << "\" y=\"" << svgNumber(top) << "\" width=\""
          << svgNumber(kRight - kLeft) << "\" height=\"" << svgNumber(kStripH)
          << "\" fill=\"#f6f6f6\" stroke=\"#ccc\" stroke-width=\"0.8\"/>\n";
        std::map<uint32_t, std::string> paths; // bucket -> path data
        for (uint64_t i = 0; i < keys.size(); ++i) {
            const uint32_t h = uint32_t(kLowBase) + ((keys[i] & 0xffff) >> 10);
            paths[keys[i] >> 16] += "M" + std::to_string(i) + " 0v" + std::to_string(h);
        }
        s << "<g transform=\"translate(" << svgNumber(kLeft + 0.5 * (kRight - kLeft) / o.n) << "," << svgNumber(bottom)
          << ") scale(" << (kRight - kLeft) / double(o.n) << "," << -kStripH / kLowUnits
          << ")\" fill=\"none\" stroke-width=\"1\">\n";
        for (auto& [bucket, d] : paths) s << "<path stroke=\"" << bucketColour(bucket) << "\" d=\"" << d << "\"/>\n";
        s << "</g>\n";
        return bottom + kStripGap;
    }

    // Where each bucket begins: a line across the third strip down to the windows, and a triangle
    // pointing at the window it begins in.
    void drawBucketTicks(std::ostringstream& s, double top, double windowsTop) {
        for (const Bucket& b : l.buckets) {
            const double x = xOf(b.begin) + (b.begin == 0 ? 0.5 : 0);
            if (b.begin > 0)
                s << "<path d=\"M" << svgNumber(x) << "," << svgNumber(top - 4) << "V" << svgNumber(windowsTop - 5)
                  << "\" stroke=\"#222\" stroke-width=\"0.7\"/>\n";
            s << "<path d=\"M" << svgNumber(x) << "," << svgNumber(windowsTop) << "l-3.5,-6h7z\" fill=\"#222\"/>\n";
        }
    }

    // The windows under the third strip: a box each, with its keys or "no bucket begins here".
    double drawWindows(std::ostringstream& s, double y) {
        const double h = 30;
        for (const Region& g : l.regions) {
            const uint64_t b = g.window * r.window, e = std::min<uint64_t>(o.n, b + r.window);
            const double x0 = xOf(b), x1 = xOf(e);
            s << "<rect x=\"" << svgNumber(x0) << "\" y=\"" << svgNumber(y) << "\" width=\"" << svgNumber(x1 - x0)
              << "\" height=\"" << h << "\" fill=\"" << (g.window % 2 ? "#e9eef6" : "#f4f6fa")
              << "\" stroke=\"#5a6f91\" stroke-width=\"1\"/>\n";
            const std::string name = "window " + std::to_string(g.window);
            const std::string what = g.empty() ? "no bucket begins here" : keyRange(b, e);
            const double cx = (x0 + x1) / 2;
            if (svgTextWidth(what, 10.5) < x1 - x0 - 6) {
                text(s, cx, y + 13, 11.5, name, "#223", " text-anchor=\"middle\" font-weight=\"bold\"");
                text(s, cx, y + 25, 10.5, what, g.empty() ? "#a33" : "#445", " text-anchor=\"middle\"");
            } else if (svgTextWidth(std::to_string(g.window), 11) < x1 - x0 - 2) {
                text(s, cx, y + 19, 11, std::to_string(g.window), "#223",
                     " text-anchor=\"middle\" font-weight=\"bold\"");
            }
        }
        return y + h;
    }

    // The regions: a bracket each from its first bucket's beginning to its last one's end, split
    // into its pieces where it has two.
    double drawRegions(std::ostringstream& s, double y) {
        const double top = y + 8;
        bool pieceRow = false;
        for (const Region& g : l.regions) {
            if (g.empty()) continue;
            const char* ink = kRegionInks[g.window % 4];
            const double x0 = xOf(g.begin) + 1, x1 = xOf(g.end) - 1;
            s << "<path d=\"M" << svgNumber(x0) << "," << svgNumber(top) << "v7H" << svgNumber(x1) << "V"
              << svgNumber(top) << "\" fill=\"none\" stroke=\"" << ink << "\" stroke-width=\"2\"/>\n";
            const std::string name = "region " + std::to_string(g.window);
            std::string label =
                name + ": " + count(g.buckets(), "bucket", "buckets") + ", " + count(g.end - g.begin, "key", "keys");
            if (g.pieces.size() == 2) label += ", in two pieces";
            const double cx = (x0 + x1) / 2;
            const std::string shown = svgTextWidth(label, 11, true) < x1 - x0  ? label
                                      : svgTextWidth(name, 11, true) < x1 - x0 ? name
                                                                               : std::to_string(g.window);
            text(s, cx, top + 21, 11, shown, ink, " text-anchor=\"middle\" font-weight=\"bold\"");
            if (g.pieces.size() != 2) continue;
            const Piece& a = g.pieces[0];
            const Piece& b = g.pieces[1];
            s << "<path d=\"M" << svgNumber(xOf(b.begin)) << "," << svgNumber(top - 3) << "v13\" stroke=\"" << ink
              << "\" stroke-width=\"2\"/>\n";
            const std::string pa =
                "piece 1: " + count(a.buckets, "bucket", "buckets") + ", " + count(a.end - a.begin, "key", "keys");
            const std::string pb = "piece 2: its last bucket, " + count(b.end - b.begin, "key", "keys");
            if (svgTextWidth(pa, 10.5) < xOf(a.end) - xOf(a.begin) &&
                svgTextWidth(pb, 10.5) < xOf(b.end) - xOf(b.begin)) {
                text(s, (xOf(a.begin) + xOf(a.end)) / 2, top + 36, 10.5, pa, ink, " text-anchor=\"middle\"");
                text(s, (xOf(b.begin) + xOf(b.end)) / 2, top + 36, 10.5, pb, ink, " text-anchor=\"middle\"");
                pieceRow = true;
            }
        }
        return top + (pieceRow ? 42 : 26);
    }

    // Under the last strip: which workgroup sorted which keys (its region's colour).
    double drawWorkgroups(std::ostringstream& s, double y) {
        for (const Region& g : l.regions) {
            if (g.empty()) continue;
            const char* ink = kRegionInks[g.window % 4];
            const double x0 = xOf(g.begin) + 1, x1 = xOf(g.end) - 1;
            s << "<rect x=\"" << svgNumber(x0) << "\" y=\"" << svgNumber(y) << "\" width=\"" << svgNumber(x1 - x0)
              << "\" height=\"3\" fill=\"" << ink << "\"/>\n";
            const std::string label = "sorted by workgroup " + std::to_string(g.window);
            const std::string shown = svgTextWidth(label, 10.5) < x1 - x0 ? label
                                      : svgTextWidth(std::to_string(g.window), 10.5) < x1 - x0
                                          ? std::to_string(g.window)
                                          : "";
            text(s, (x0 + x1) / 2, y + 15, 10.5, shown, ink, " text-anchor=\"middle\"");
        }
        return y + 20;
    }

    // One line per window: its region, in words.
    std::string regionText(const Region& g) const {
        const uint64_t wb = g.window * r.window, we = std::min<uint64_t>(o.n, wb + r.window);
        if (g.empty()) {
            uint32_t owner = 0;
            for (const Bucket& b : l.buckets)
                if (b.begin < wb && b.end >= we) owner = b.value;
            return "no bucket begins in " + keyRange(wb, we) + " (they belong to bucket " + hex(owner, 4) +
                   ", which began in an earlier window), so workgroup " + std::to_string(g.window) + " does nothing.";
        }
        const uint64_t size = g.end - g.begin;
        const std::string t =
            keyRange(g.begin, g.end) + ", the " +
            (g.buckets() == 1 ? "bucket that begins" : count(g.buckets(), "bucket", "buckets") + " that begin") +
            " in " + keyRange(wb, we) + (g.end > we ? ", whole, so it runs past the window's end" : "") + ". ";
        auto where = [&](const Piece& p) {
            return p.end - p.begin <= 1        ? std::string("nothing to sort")
                   : p.end - p.begin <= r.tile ? std::string("sorted on chip")
                                               : std::string("larger than a tile: sorted in global memory (slowly)");
        };
        if (size <= r.tile) return t + count(size, "key", "keys") + " fit a tile: " + where(g.pieces[0]) + " at once.";
        const Piece& last = g.pieces.back();
        if (g.pieces.size() == 1)
            return t + std::to_string(size) + " keys in one bucket, more than a tile of " + std::to_string(r.tile) +
                   ": sorted in global memory (slowly).";
        std::string before;
        if (g.pieces.size() == 2)
            before = (g.pieces[0].buckets == 1 ? std::string("the bucket")
                                               : "the " + std::to_string(g.pieces[0].buckets) + " buckets") +
                     " before its last (" + keyRange(g.pieces[0].begin, g.pieces[0].end) + ", inside the window), " +
                     where(g.pieces[0]) + ", then ";
        return t + std::to_string(size) + " keys, more than a tile of " + std::to_string(r.tile) +
               ", so in two pieces: " + before + "its last bucket (" + keyRange(last.begin, last.end) + ", " +
               count(last.end - last.begin, "key", "keys") + "), " + where(last) + ".";
    }

    // Under the last strip: each window's region in words, then the words the picture uses.
    double drawNotes(std::ostringstream& s, double y) {
        y = paragraph(
            s, kLeft, y + 10, 12.5, "The bucket step, window by window.",
            std::string("Between strips 3 and 4 the bounds step (it moves no key) found where each bucket "
                        "begins and ends") +
                (l.buckets.size() <= kMaxMarkedBuckets ? ", marked by the lines and triangles under strip 3" : "") +
                ". Then workgroup w took window w:");
        for (const Region& g : l.regions)
            y = paragraph(s, kLeft + 14, y + 2, 12, "Window " + std::to_string(g.window) + ":", regionText(g));
        y += 8;
        const std::string tile = std::to_string(r.tile), window = std::to_string(r.window);
        y = paragraph(s, kLeft, y, 12, "Bucket:",
                      "the keys that share their top 16 bits (65536 possible buckets). After the two MSD passes "
                      "each bucket is one run of keys.");
        y = paragraph(s, kLeft, y + 2, 12, "Tile:",
                      tile + " keys, what one workgroup of the bucket step holds on chip (in its registers and shared "
                             "memory) and sorts at once (this plan's tile on this device).");
        y = paragraph(s, kLeft, y + 2, 12, "Window:",
                      window + " keys, half a tile, in fixed places: window w is keys w \u00d7 " + window +
                          " onwards, and workgroup w looks at it.");
        y = paragraph(s, kLeft, y + 2, 12, "Region:",
                      "the buckets that begin in a window, whole: from the first one's beginning to the last one's "
                      "end, which may lie past the window. So every bucket is sorted by exactly one workgroup, and "
                      "no bucket is split. A region of up to a tile is sorted in one go; a larger one in two pieces: "
                      "the buckets before its last one (they lie inside the window, so at most " +
                          window +
                          " keys) and its last bucket, which a workgroup sorts in global memory (slowly) "
                          "where it is larger than a tile.");
        return y;
    }
};

} // namespace

// [SECTION] The command line ------------------------------------------------------------------------------------------

int main(int argc, char** argv) {
    Options o;
    auto usageError = [](const std::string& what) { return fail(2, what + " (see --help)"); };
    auto option = [&](std::string_view arg, OptionReader& rd) -> std::optional<int> {
        uint64_t v = 0;
        if (arg == "--n") {
            if (!rd.number(v) || v < kMinN || v > kMaxN)
                return usageError("--n needs a number of keys from " + std::to_string(kMinN) + " to " +
                                  std::to_string(kMaxN));
            o.n = v;
        } else if (arg == "--seed") {
            if (!rd.number(v)) return usageError("--seed needs a number");
            o.seed = v;
        } else if (arg == "--dist") {
            const char* name = rd.text();
            if (!name) return usageError("--dist needs a distribution name");
            if (std::string_view(name) == "buckets") {
                o.generated = false;
            } else {
                auto d = parseDistribution(name);
                if (!d || *d == Distribution::custom)
                    return usageError("unknown distribution '" + std::string(name) + "'");
                o.generated = true;
                o.dist = *d;
            }
        } else if (arg == "--device") {
            const char* name = rd.text();
            if (!name) return usageError("--device needs a device name or index");
            o.device = name;
        } else if (arg == "--validation") {
            o.validation = true;
        } else {
            return usageError("unknown option " + std::string(arg));
        }
        return std::nullopt;
    };
    if (auto code = readOptions(argc, argv, kUsage, o.out, usageError, option)) return *code;

    const std::vector<uint32_t> input = makeInput(o);
    Run run;
    if (auto f = runOnGpu(o, input, run)) return fail(f->code, f->what);
    Layout layout;
    if (auto f = findLayout(run, layout)) return fail(f->code, f->what);
    if (writeSvg(Picture(o, run, layout).render(), o.out, kProgram) != 0) return 1;
    return 0;
}
