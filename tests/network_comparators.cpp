// sortlab-network-comparators N: the odd-even network for N keys as the library builds it, for
// tests/lesson_claims.cmake to check what the odd-even lesson says about comparators. Prints
//   padded P          the power-of-two network the layers come from
//   layers L
//   LAYER A B run     a comparator the GPU runs (oddeven::forEachComparator(N, ...)), LAYER from 1
//   LAYER A B skipped one of P's network (forEachComparator(P, ...)) that N's leaves out: B >= N
// A bad argument is one line on stderr and exit 2.
#include <sortlab/oddeven.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

int main(int argc, char** argv) {
    using namespace sortlab;
    uint64_t n = 0;
    const char* arg = argc == 2 ? argv[1] : "";
    const auto [end, ec] = std::from_chars(arg, arg + std::strlen(arg), n);
    if (argc != 2 || ec != std::errc() || *end != '\0' || n < 2 || n > 4096) {
        std::fprintf(stderr, "sortlab-network-comparators: usage: sortlab-network-comparators N (2 to 4096 keys)\n");
        return 2;
    }
    const uint64_t padded = uint64_t(1) << oddeven::log2Ceil(n);
    const auto layers = oddeven::layers(n);
    std::printf("padded %llu\nlayers %zu\n", (unsigned long long)padded, layers.size());
    for (size_t l = 0; l < layers.size(); ++l) {
        std::vector<std::pair<uint64_t, uint64_t>> run;
        oddeven::forEachComparator(n, layers[l], [&](uint64_t a, uint64_t b) {
            run.push_back({a, b});
            std::printf("%zu %llu %llu run\n", l + 1, (unsigned long long)a, (unsigned long long)b);
        });
        oddeven::forEachComparator(padded, layers[l], [&](uint64_t a, uint64_t b) {
            if (!std::binary_search(run.begin(), run.end(), std::pair(a, b)))
                std::printf("%zu %llu %llu skipped\n", l + 1, (unsigned long long)a, (unsigned long long)b);
        });
    }
    return 0;
}
