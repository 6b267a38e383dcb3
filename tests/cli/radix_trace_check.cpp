// radix_trace_check FILE --algo NAME --digit-bits B
//
// (radix4: --digit-bits 4; onesweep: 8. With sortlab-bench --lookback-log, OneSweep's lookback
// records are checked too: checkLookback.)
//
// Checks the --trace lines of a radix sort (sortlab-bench --algo radix4), independently of the
// sortlab library: for each traced case, line 0 is the input and line p + 1 the state after pass
// p, which must be
//   * the input stably sorted on the low B(p + 1) bits of its order bits (std::stable_sort here),
//   * the previous line's keys stably partitioned on digit p (the same thing, one pass at a time),
// and whose "histogram", "offsets" and "workgroup_counts" must equal what this program recounts
// from the previous line's keys ("skipped" when one digit holds every key; OneSweep's
// "uniform_tiles": the tiles whose keys all have one digit, none in a skipped pass). Values (the
// input index, --values u32) must follow their keys.
//
// Keys are read back from their JSON text into raw bits: integers directly; floats through their
// decimal text, which sortlab-bench writes as the shortest text that reads back to the same float
// (so NaNs, written as "nan", are refused: their payload bits are not in the trace).
#include "json_check.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using json_check::expect;
using json_check::fail;
using json_check::Json;

namespace {

// Order bits of a key: unsigned integers as they are, signed ones with the sign bit flipped, IEEE
// floats flipped so that totalOrder becomes unsigned order; descending: all bits inverted.
uint64_t orderBits(const Json& v, const std::string& type, bool desc) {
    uint64_t x = 0;
    if (type == "u32" || type == "u64") {
        x = v.get<uint64_t>();
    } else if (type == "i32") {
        x = static_cast<uint32_t>(v.get<int32_t>()) ^ 0x80000000u;
    } else if (type == "i64") {
        x = static_cast<uint64_t>(v.get<int64_t>()) ^ 0x8000000000000000ull;
    } else if (type == "f32" || type == "f64") {
        expect(!v.is_string() || (v != "nan" && v != "-nan"),
               "NaN keys cannot be checked bit by bit (use --dist uniform)");
        double d = v.is_string() ? (v == "inf" ? INFINITY : -INFINITY) : v.get<double>();
        if (type == "f32") {
            uint32_t b = std::bit_cast<uint32_t>(static_cast<float>(d));
            x = (b >> 31) ? ~b : (b ^ 0x80000000u);
            x &= 0xffffffffu;
        } else {
            uint64_t b = std::bit_cast<uint64_t>(d);
            x = (b >> 63) ? ~b : (b ^ 0x8000000000000000ull);
        }
    } else {
        fail("unknown key type " + type);
    }
    const uint64_t mask = (type == "u64" || type == "i64" || type == "f64") ? ~0ull : 0xffffffffull;
    return (desc ? ~x : x) & mask;
}

// OneSweep's lookback log (sortlab-bench --lookback-log): one record per tile; every published
// prefix equals the keys of that digit in tiles 0..t (recounted here: counts[d * w + tile]); a tile
// that did not fall back finished after its predecessor published; every tile took its id before it
// published, in id order where both it and the tile before waited their turn ("took_in_order"); the events are all
// different. Per digit: a walk that ended on an inclusive prefix at tile t - depth published after that tile had, and
// after every tile it passed had published its aggregate (unless it counted some itself); a walk that did not end on
// one covered every predecessor by falling back; a digit's prefix is published after the tile's aggregates and before
// the tile's last event.
void checkLookback(const std::string& where, const Json& log, const std::vector<uint64_t>& counts, uint64_t w,
                   uint32_t radix) {
    expect(log.size() == w, where + ": lookback has " + std::to_string(log.size()) + " records, expected " +
                                std::to_string(w) + " tiles");
    std::vector<uint64_t> events;
    auto event = [](const Json& e) { return e.is_null() ? uint64_t(0) : e.get<uint64_t>(); };
    std::vector<uint64_t> prefix(radix, 0);
    for (uint64_t t = 0; t < w; ++t) {
        const Json& r = log[t];
        const std::string at = where + ", tile " + std::to_string(t);
        expect(r.at("tile") == t, at + ": record says tile " + r.at("tile").dump());
        for (uint32_t d = 0; d < radix; ++d) prefix[d] += counts[d * w + t];
        expect(r.at("prefix") == Json(prefix), at + ": the published prefix " + r.at("prefix").dump() +
                                                   " is not the recount of tiles 0.." + std::to_string(t));
        const uint64_t took = event(r.at("took")), aggregate = event(r.at("aggregate")),
                       inclusive = event(r.at("inclusive"));
        expect(took > 0 && inclusive > 0, at + ": no took or inclusive event");
        expect((t == 0) == (aggregate == 0), at + ": only the first tile publishes no aggregate");
        expect(took < inclusive && (aggregate == 0 || (took < aggregate && aggregate < inclusive)),
               at + ": events out of order (took " + std::to_string(took) + ", aggregate " + std::to_string(aggregate) +
                   ", inclusive " + std::to_string(inclusive) + ")");
        if (t > 0) {
            const Json& before = log[t - 1];
            const uint64_t published =
                event(before.at("aggregate")) ? event(before.at("aggregate")) : event(before.at("inclusive"));
            if (r.at("took_in_order").get<bool>() && before.at("took_in_order").get<bool>())
                expect(event(before.at("took")) < took, at + ": took its id before tile " + std::to_string(t - 1));
            if (!r.at("fell_back").get<bool>())
                expect(inclusive > published, at + ": finished (event " + std::to_string(inclusive) + ") before tile " +
                                                  std::to_string(t - 1) + " published (event " +
                                                  std::to_string(published) + ") without falling back");
        } else {
            expect(!r.at("fell_back").get<bool>() && r.at("reads") == 0, at + ": the first tile looks back");
        }
        expect(r.at("reads") == r.at("reads_not_ready").get<uint64_t>() + r.at("reads_aggregate").get<uint64_t>() +
                                    r.at("reads_inclusive").get<uint64_t>(),
               at + ": reads is not the sum of its kinds");
        for (uint64_t e : {took, aggregate, inclusive})
            if (e) events.push_back(e);
        if (t == 0) continue;
        for (const char* field : {"depth", "ended_inclusive", "counted", "not_ready", "published"})
            expect(r.at(field).size() == radix,
                   at + ": \"" + field + "\" has not " + std::to_string(radix) + " digits");
        uint64_t notReady = 0;
        for (uint32_t d = 0; d < radix; ++d) {
            const std::string ad = at + ", digit " + std::to_string(d);
            const uint64_t depth = r["depth"][d], counted = r["counted"][d], pub = event(r["published"][d]);
            const bool endedInclusive = r["ended_inclusive"][d] == 1;
            notReady += r["not_ready"][d].get<uint64_t>();
            expect(depth >= 1 && depth <= t, ad + ": walk depth " + std::to_string(depth));
            expect(pub > aggregate && pub < inclusive,
                   ad + ": published (event " + std::to_string(pub) + ") outside the tile's aggregate..last events");
            expect(counted == 0 || r.at("fell_back").get<bool>(), ad + ": counted keys but the tile did not fall back");
            events.push_back(pub);
            if (endedInclusive) {
                const uint64_t u = t - depth;
                const uint64_t upub = u == 0 ? event(log[0].at("inclusive")) : event(log[u]["published"][d]);
                expect(upub < pub, ad + ": read tile " + std::to_string(u) + "'s inclusive prefix (event " +
                                       std::to_string(upub) + ") before it was published at event " +
                                       std::to_string(pub));
            } else {
                expect(depth == t && counted > 0,
                       ad + ": the walk neither found an inclusive prefix nor counted back to tile 0");
            }
            if (counted == 0)
                for (uint64_t v = t - 1; v > t - depth; --v)
                    expect(event(log[v].at("aggregate")) < pub,
                           ad + ": passed tile " + std::to_string(v) + " before it published its aggregate");
        }
        expect(notReady == r.at("reads_not_ready").get<uint64_t>(), at + ": the digits' not-ready reads do not sum up");
    }
    std::sort(events.begin(), events.end());
    expect(std::adjacent_find(events.begin(), events.end()) == events.end(), where + ": two records share an event");
}

void checkGroup(const std::string& name, const std::vector<Json>& lines, uint32_t digitBits) {
    const Json& in = lines.front();
    const std::string type = in.at("type");
    const bool desc = in.at("order") == "desc";
    const uint64_t n = in.at("n");
    const uint32_t keyBits = (type == "u64" || type == "i64" || type == "f64") ? 64 : 32;
    const uint32_t passes = keyBits / digitBits, radix = 1u << digitBits;
    expect(in.at("step") == 0, name + ": the first line is not the input");
    expect(lines.size() == passes + 1,
           name + ": " + std::to_string(lines.size() - 1) + " pass lines, expected " + std::to_string(passes));
    const bool hasValues = in.contains("values");
    std::vector<uint64_t> input(n);
    for (uint64_t i = 0; i < n; ++i) input[i] = orderBits(in.at("keys")[i], type, desc);
    if (hasValues)
        for (uint64_t i = 0; i < n; ++i) expect(in.at("values")[i] == i, name + ": input values are not 0..n-1");

    std::vector<uint64_t> prev = input; // order bits of the previous line's keys
    std::vector<uint64_t> prevIndex(n); // which input key sits at each position
    for (uint64_t i = 0; i < n; ++i) prevIndex[i] = i;
    for (uint32_t p = 0; p < passes; ++p) {
        const Json& line = lines[p + 1];
        const std::string where = name + ", pass " + std::to_string(p);
        expect(line.at("pass") == p, where + ": the line says pass " + line.at("pass").dump());
        expect(line.at("digit_bits") == Json::array({p * digitBits, (p + 1) * digitBits}),
               where + ": digit_bits " + line.at("digit_bits").dump());
        const uint64_t tile = line.at("tile_keys");
        expect(tile > 0, where + ": tile_keys is 0");
        const uint64_t w = (n + tile - 1) / tile;
        auto digit = [&](uint64_t bits) { return (bits >> (p * digitBits)) & (radix - 1); };

        // Recount from the previous state.
        std::vector<uint64_t> hist(radix, 0), offsets(radix, 0), counts(radix * w, 0);
        for (uint64_t i = 0; i < n; ++i) {
            ++hist[digit(prev[i])];
            ++counts[digit(prev[i]) * w + i / tile];
        }
        for (uint32_t d = 1; d < radix; ++d) offsets[d] = offsets[d - 1] + hist[d - 1];
        expect(line.at("histogram") == Json(hist),
               where + ": histogram " + line.at("histogram").dump() + ", recounted " + Json(hist).dump());
        expect(line.at("offsets") == Json(offsets),
               where + ": offsets " + line.at("offsets").dump() + ", recounted " + Json(offsets).dump());
        if (line.contains("workgroup_counts")) // radix4
            expect(line.at("workgroup_counts") == Json(counts), where + ": workgroup_counts differ from the recount");
        const bool skipped = std::find(hist.begin(), hist.end(), n) != hist.end();
        expect(line.contains("skipped"), where + ": no \"skipped\"");
        expect(line.at("skipped") == skipped, where + ": skipped is " + line.at("skipped").dump());
        if (skipped) expect(!line.contains("lookback"), where + ": a skipped pass has a lookback log");
        if (line.contains("lookback")) checkLookback(where, line.at("lookback"), counts, w, radix);
        if (line.contains("uniform_tiles")) { // OneSweep: tiles whose keys all have one digit (none ran if skipped)
            uint64_t uniform = 0;
            for (uint64_t t = 0; t < w && !skipped; ++t) {
                const uint64_t keys = std::min(tile, n - t * tile);
                for (uint32_t d = 0; d < radix; ++d) uniform += counts[d * w + t] == keys;
            }
            expect(line.at("uniform_tiles") == uniform, where + ": uniform_tiles is " +
                                                            line.at("uniform_tiles").dump() + ", recounted " +
                                                            std::to_string(uniform));
        }

        // One stable pass, and the stable sort of the input on the low bits: both must agree
        // with the line.
        std::vector<uint64_t> next(n), nextIndex(n);
        std::vector<uint64_t> slot = offsets;
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t to = slot[digit(prev[i])]++;
            next[to] = prev[i];
            nextIndex[to] = prevIndex[i];
        }
        std::vector<uint64_t> order(n);
        for (uint64_t i = 0; i < n; ++i) order[i] = i;
        const uint64_t lowMask = (p + 1) * digitBits >= 64 ? ~0ull : ((1ull << ((p + 1) * digitBits)) - 1);
        std::stable_sort(order.begin(), order.end(),
                         [&](uint64_t a, uint64_t b) { return (input[a] & lowMask) < (input[b] & lowMask); });
        expect(order == nextIndex, where + ": one pass and the stable sort on the low bits disagree (checker bug)");
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t got = orderBits(line.at("keys")[i], type, desc);
            expect(got == next[i], where + ": key " + std::to_string(i) + " is " + line.at("keys")[i].dump() +
                                       ", the stable sort on the low " + std::to_string((p + 1) * digitBits) +
                                       " bits has input key " + std::to_string(nextIndex[i]) + " (" +
                                       in.at("keys")[nextIndex[i]].dump() + ")");
            if (hasValues)
                expect(line.at("values")[i] == nextIndex[i], where + ": value " + std::to_string(i) + " is " +
                                                                 line.at("values")[i].dump() + ", expected " +
                                                                 std::to_string(nextIndex[i]));
        }
        prev = next;
        prevIndex = nextIndex;
    }
    // After the last pass: sorted.
    expect(std::is_sorted(prev.begin(), prev.end()), name + ": the last line is not sorted");
}

} // namespace

int main(int argc, char** argv) {
    try {
        if (argc != 6 || std::string(argv[2]) != "--algo" || std::string(argv[4]) != "--digit-bits")
            fail("usage: radix_trace_check FILE --algo NAME --digit-bits B");
        const std::string algo = argv[3];
        const uint32_t bits = static_cast<uint32_t>(std::stoul(argv[5]));
        // A trace is an input line (step 0) and the lines after it, up to the next input line.
        std::vector<std::vector<Json>> groups;
        size_t lineNo = 0;
        for (Json& line : json_check::readJsonLines(argv[1])) {
            ++lineNo;
            if (line.at("algo") != algo) continue;
            if (line.at("step") == 0) groups.emplace_back();
            expect(!groups.empty(), "line " + std::to_string(lineNo) + ": no input line before it");
            groups.back().push_back(std::move(line));
        }
        expect(!groups.empty(), "no " + algo + " lines in " + argv[1]);
        for (size_t g = 0; g < groups.size(); ++g) {
            const Json& in = groups[g].front();
            checkGroup(algo + " trace " + std::to_string(g + 1) + " (" + in.at("type").get<std::string>() + " " +
                           in.at("values_type").get<std::string>() + " " + in.at("order").get<std::string>() +
                           " n=" + in.at("n").dump() + ")",
                       groups[g], bits);
        }
        std::printf("radix_trace_check: %zu %s traces, every pass checked\n", groups.size(), algo.c_str());
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "radix_trace_check: %s\n", e.what());
        return 1;
    }
}
