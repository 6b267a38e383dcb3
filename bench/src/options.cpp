#include <sortlab/bench/options.h>

#include <sortlab/bench/algos.h>
#include <sortlab/bench/errors.h>

#include <charconv>
#include <span>

namespace sortlab::bench {

bool Options::needsGpu() const {
    for (const AlgoSpec* a : algos)
        if (a->gpu) return true;
    return false;
}

std::vector<std::string> splitList(std::string_view text, std::string_view option) {
    std::vector<std::string> out;
    size_t start = 0;
    while (true) {
        size_t comma = text.find(',', start);
        std::string_view item =
            text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        if (item.empty())
            usageError("--" + std::string(option) + " '" + std::string(text) + "' has an empty item (use a,b,c)");
        out.emplace_back(item);
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return out;
}

namespace {

bool parseDigits(std::string_view s, uint64_t& out) {
    if (s.empty()) return false;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size();
}

template <class T, class Parse, class Name>
std::vector<T> parseEnumList(std::string_view text, std::string_view option, Parse parse, Name name,
                             std::span<const T> all, bool allowAll) {
    if (allowAll && text == "all") return {all.begin(), all.end()};
    std::vector<T> out;
    for (const std::string& item : splitList(text, option)) {
        auto v = parse(item);
        if (!v) {
            std::string expected;
            for (const T& t : all) expected += (expected.empty() ? "" : ", ") + std::string(name(t));
            if (allowAll) expected += ", all";
            usageError("unknown --" + std::string(option) + " '" + item + "' (expected " + expected +
                       "; several may be given as a comma list)");
        }
        out.push_back(*v);
    }
    return out;
}

} // namespace

uint64_t parseCount(std::string_view text, std::string_view option) {
    uint64_t value = 0;
    bool ok = false;
    if (size_t caret = text.find('^'); caret != std::string_view::npos) {
        uint64_t base = 0, exp = 0;
        ok = parseDigits(text.substr(0, caret), base) && parseDigits(text.substr(caret + 1), exp) && base == 2;
        if (ok && exp > 62)
            usageError("--" + std::string(option) + " '" + std::string(text) + "' is too large (at most 2^62)");
        value = ok ? uint64_t(1) << exp : 0;
    } else {
        ok = parseDigits(text, value);
    }
    if (!ok)
        usageError("--" + std::string(option) + " '" + std::string(text) +
                   "' is not a count (use a plain integer such as 1000000 or a power of two such as 2^20)");
    if (value == 0) usageError("--" + std::string(option) + " must be at least 1");
    return value;
}

std::vector<uint64_t> parseSizeList(std::string_view text) {
    std::vector<uint64_t> out;
    for (const std::string& item : splitList(text, "n")) out.push_back(parseCount(item, "n"));
    return out;
}

std::vector<uint64_t> parseSizeRange(std::string_view text) {
    size_t dots = text.find("..");
    if (dots == std::string_view::npos)
        usageError("--sizes '" + std::string(text) + "' is not a range (use A..B, e.g. 2^10..2^20 or 1024..1048576)");
    uint64_t lo = parseCount(text.substr(0, dots), "sizes");
    uint64_t hi = parseCount(text.substr(dots + 2), "sizes");
    if (lo > hi) usageError("--sizes '" + std::string(text) + "': the first size is larger than the last");
    std::vector<uint64_t> out;
    for (uint64_t p = 1; p != 0 && p <= hi; p <<= 1)
        if (p >= lo) out.push_back(p);
    if (out.empty())
        usageError("--sizes '" + std::string(text) + "' contains no power of two (it runs every power of two in A..B)");
    return out;
}

std::vector<sortlab::KeyType> parseTypes(std::string_view text) {
    return parseEnumList<sortlab::KeyType>(text, "type", sortlab::parseKeyType, sortlab::keyTypeName,
                                           sortlab::kAllKeyTypes, true);
}

std::vector<sortlab::ValueType> parseValues(std::string_view text) {
    static const sortlab::ValueType all[] = {sortlab::ValueType::none, sortlab::ValueType::u32};
    return parseEnumList<sortlab::ValueType>(text, "values", sortlab::parseValueType, sortlab::valueTypeName,
                                             std::span<const sortlab::ValueType>(all), false);
}

std::vector<sortlab::Order> parseOrders(std::string_view text) {
    static const sortlab::Order all[] = {sortlab::Order::ascending, sortlab::Order::descending};
    return parseEnumList<sortlab::Order>(text, "order", sortlab::parseOrder, sortlab::orderName,
                                         std::span<const sortlab::Order>(all), false);
}

std::string OneSweepShape::name() const {
    return std::to_string(workgroup) + "x" + std::to_string(keysPerLane) +
           (perMultiprocessor ? "x" + std::to_string(perMultiprocessor) : "") +
           (countsInTile < 0 ? ""
            : countsInTile   ? "+counts-in-tile"
                             : "+counts-apart") +
           (exchangeRounds ? "+" + std::to_string(exchangeRounds) + "-rounds" : "") + (oneTile ? "+one-tile" : "") +
           (indexTiles < 0 ? ""
            : indexTiles   ? "+index-tiles"
                           : "+counter-tiles");
}

namespace {
// "AxBxC": up to `most` positive integers joined by 'x'; how many in `count`.
size_t parseTimes(std::string_view text, uint32_t* parts, size_t most, const std::string& usage) {
    size_t count = 0, start = 0;
    for (;;) {
        const size_t x = text.find('x', start);
        const std::string_view part = text.substr(start, x == std::string_view::npos ? x : x - start);
        uint32_t v = 0;
        const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
        if (count == most || part.empty() || ec != std::errc{} || end != part.data() + part.size() || v == 0)
            usageError(usage);
        parts[count++] = v;
        if (x == std::string_view::npos) return count;
        start = x + 1;
    }
}
} // namespace

OneSweepShape parseOneSweepShape(std::string_view whole) {
    OneSweepShape shape;
    const size_t plus = whole.find('+');
    const std::string_view text = whole.substr(0, plus);
    for (size_t at = plus; at != std::string_view::npos;) {
        const size_t end = whole.find('+', at + 1);
        const std::string_view part = whole.substr(at + 1, end == std::string_view::npos ? end : end - at - 1);
        at = end;
        uint32_t rounds = 0;
        const auto [stop, ec] = std::from_chars(part.data(), part.data() + part.size(), rounds);
        const std::string_view afterNumber(stop, size_t(part.data() + part.size() - stop));
        if (part == "counts-in-tile" || part == "counts-apart")
            shape.countsInTile = part == "counts-in-tile" ? 1 : 0;
        else if (part == "one-tile")
            shape.oneTile = true;
        else if (part == "index-tiles" || part == "counter-tiles")
            shape.indexTiles = part == "index-tiles" ? 1 : 0;
        else if (ec == std::errc{} && rounds >= 1 && rounds <= 4 && afterNumber == "-rounds")
            shape.exchangeRounds = rounds;
        else
            usageError(
                "--onesweep-shape '" + std::string(whole) +
                "': after '+' comes counts-in-tile, counts-apart, N-rounds (N from 1 to 4), one-tile, index-tiles "
                "or counter-tiles");
    }
    uint32_t parts[3] = {0, 0, 0};
    const size_t count = parseTimes(text, parts, 3,
                                    "--onesweep-shape '" + std::string(whole) +
                                        "' is not WxK or WxKxP (positive integers: invocations a workgroup, keys each, "
                                        "workgroups per multiprocessor), e.g. 256x16x2");
    if (count < 2) usageError("--onesweep-shape '" + std::string(whole) + "' needs at least WxK, e.g. 256x16");
    shape.workgroup = parts[0];
    shape.keysPerLane = parts[1];
    shape.perMultiprocessor = parts[2];
    return shape;
}

std::string OneSweepHistogram::name() const {
    std::string s = "hist" + std::to_string(workgroup) + "x" + std::to_string(perMultiprocessor);
    if (copies || loads) s += "x" + std::to_string(copies);
    if (loads) s += "x" + std::to_string(loads);
    return s;
}

OneSweepHistogram parseOneSweepHistogram(std::string_view whole) {
    const std::string usage = "--onesweep-histogram '" + std::string(whole) +
                              "' is not WxP[xC[xL]] (positive integers: invocations a workgroup, workgroups per "
                              "multiprocessor, copies of the counts (1 or 2), keys loaded at once), e.g. 256x8x1x16";
    uint32_t parts[4] = {0, 0, 0, 0};
    const size_t count = parseTimes(whole, parts, 4, usage);
    if (count < 2 || parts[2] > 2) usageError(usage);
    return {parts[0], parts[1], parts[2], parts[3]};
}

std::vector<sortlab::Distribution> parseDists(std::string_view text) {
    return parseEnumList<sortlab::Distribution>(text, "dist", sortlab::parseDistribution, sortlab::distributionName,
                                                sortlab::kAllDistributions, true);
}

bool parseAnchor(std::string_view text) {
    if (text == "cub") return true;
    if (text == "none" || text.empty()) return false;
    usageError("unknown --anchor '" + std::string(text) +
               "' (expected cub: NVIDIA's cub::DeviceRadixSort, run from "
               "the CUB anchor library where a CUDA device exists)");
}

} // namespace sortlab::bench
