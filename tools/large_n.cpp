// sortlab-large-n: sorts n u32 keys with both odd-even variants and checks the result without a
// CPU reference sort (too slow past 2^30 keys): keys in order, and the same multiset as the input
// (sum, xor and sum of squares). One cold run per variant: a correctness probe for sizes past
// 4 GiB per buffer and 2^31 indices, not a benchmark. Usage: sortlab-large-n N [N ...]
#include <sortlab/job.h>
#include <sortlab/data.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
using namespace sortlab;
int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: sortlab-large-n N [N ...]\n");
        return 2;
    }
    int failures = 0;
    auto ctx = Context::create({});
    if (!ctx) {
        printf("context: %s\n", ctx.error().message.c_str());
        return 3;
    }
    auto sorter = makeSorter(**ctx, Algorithm::oddeven);
    for (int a = 1; a < argc; ++a) {
        uint64_t n = strtoull(argv[a], 0, 10);
        auto keys = generateKeys(KeyType::u32, n, Distribution::uniform, 3);
        const uint32_t* in = (const uint32_t*)keys.data();
        uint64_t s0 = 0, x0 = 0, q0 = 0;
        for (uint64_t i = 0; i < n; ++i) {
            s0 += in[i];
            x0 ^= in[i];
            q0 += uint64_t(in[i]) * in[i];
        }
        for (int perLayer = 0; perLayer < 2; ++perLayer) {
            SortConfig c;
            c.knobs.perLayer = perLayer;
            auto job = SortJob::create(**ctx, **sorter, n, c, false);
            if (!job) {
                printf("n=%llu create: %s\n", (unsigned long long)n, job.error().message.c_str());
                ++failures;
                continue;
            }
            if (auto r = (*job)->upload(keys, {}); !r) {
                printf("upload: %s\n", r.error().message.c_str());
                continue;
            }
            auto t = (*job)->run(true);
            if (!t) {
                printf("run: %s\n", t.error().message.c_str());
                continue;
            }
            std::vector<std::byte> out(keys.size());
            if (auto d = (*job)->download(out, {}); !d) {
                printf("download: %s\n", d.error().message.c_str());
                continue;
            }
            const uint32_t* o = (const uint32_t*)out.data();
            uint64_t s = 0, x = 0, q = 0;
            bool sorted = true;
            for (uint64_t i = 0; i < n; ++i) {
                s += o[i];
                x ^= o[i];
                q += uint64_t(o[i]) * o[i];
                if (i && o[i - 1] > o[i]) sorted = false;
            }
            printf("n=%llu (%.1f GiB) %s: %.2f ms (one run), %s, multiset %s\n", (unsigned long long)n,
                   n * 4.0 / (1ull << 30), perLayer ? "per-layer" : "fused", t->totalMs,
                   sorted ? "sorted" : "NOT SORTED", (s == s0 && x == x0 && q == q0) ? "same" : "DIFFERENT");
            fflush(stdout);
            if (!sorted || s != s0 || x != x0 || q != q0) ++failures;
        }
    }
    return failures ? 1 : 0;
}
