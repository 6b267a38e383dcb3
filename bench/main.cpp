#include <sortlab/job.h>
#include <sortlab/data.h>
#include <sortlab/oddeven.h>
#include <cstdio>
#include <cstdlib>
using namespace sortlab;
int main(int argc, char** argv) {
    uint64_t n = argc > 1 ? strtoull(argv[1], 0, 10) : 1000;
    uint32_t shared = argc > 2 ? atoi(argv[2]) : 0;
    int perLayer = argc > 3 ? atoi(argv[3]) : 0;
    ContextOptions o; o.validation = getenv("VAL") != nullptr;
    auto ctx = Context::create(o);
    if (!ctx) { fprintf(stderr, "%s\n", ctx.error().message.c_str()); return 1; }
    auto sorter = makeSorter(**ctx, Algorithm::oddeven);
    for (KeyType t : kAllKeyTypes) for (int kv = 0; kv < 2; ++kv) for (int desc = 0; desc < 2; ++desc) {
        SortConfig c; c.key = t; c.values = kv ? ValueType::u32 : ValueType::none; c.order = desc ? Order::descending : Order::ascending; c.sharedElems = shared; c.perLayer = perLayer;
        auto job = SortJob::create(**ctx, **sorter, n, c);
        if (!job) { fprintf(stderr, "%s\n", job.error().message.c_str()); return 1; }
        auto keys = generateKeys(t, n, Distribution::special, 7);
        auto vals = kv ? indexValues(n) : std::vector<uint32_t>{};
        auto r = (*job)->upload(keys, vals); if (!r) { fprintf(stderr, "%s\n", r.error().message.c_str()); return 1; }
        auto tm = (*job)->run(); if (!tm) { fprintf(stderr, "%s\n", tm.error().message.c_str()); return 1; }
        std::vector<std::byte> out(keys.size()); std::vector<uint32_t> ov(vals.size());
        auto d = (*job)->download(out, ov); if (!d) { fprintf(stderr, "%s\n", d.error().message.c_str()); return 1; }
        auto ek = keys; auto ev = vals; referenceSort(ek, ev, t, c.order);
        auto cr = compareSorted(ek, ev, out, ov, t, c.order, false);
        printf("%s kv=%d desc=%d steps=%zu %.3f ms %s %s\n", std::string(keyTypeName(t)).c_str(), kv, desc, (*job)->plan().steps.size(), tm->totalMs, cr.ok ? "OK" : "FAIL", cr.message.c_str());
    }
    printf("validation messages: %zu\n", (*ctx)->validationMessageCount());
}
