// Two key-value sorts recorded into one command buffer, with every buffer they use carved out of
// ONE VkBuffer at offsets aligned to sortlab::kBufferAlignment (docs/library.md, "Record into
// your own command buffer"):
//
//   | keys A | values A | keys B | values B | keysTemp | valuesTemp | scratch |
//
// The two sorts share keysTemp, valuesTemp and scratch, so the second must wait for the first's
// writes to them: a compute-to-compute barrier between the two record() calls. The same barrier
// is what a sort recorded every frame needs before the next frame's sort.
// Exit 0 when both arrays come back sorted and stable, 1 otherwise; a one-line message on stderr.
#include <sortlab/buffer.h>
#include <sortlab/context.h>
#include <sortlab/sorter.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

namespace {

// The next offset at or after `offset` that record() accepts.
uint64_t aligned(uint64_t offset) {
    return (offset + sortlab::kBufferAlignment - 1) / sortlab::kBufferAlignment * sortlab::kBufferAlignment;
}

int fail(const char* what, const sortlab::Error& e) {
    std::fprintf(stderr, "suballoc: %s: %s\n", what, e.message.c_str());
    return 1;
}

} // namespace

int main() {
    auto ctx = sortlab::Context::create();
    if (!ctx) return fail("no Vulkan device", ctx.error());
    auto sorter = sortlab::makeSorter(**ctx, sortlab::Algorithm::onesweep);
    if (!sorter) return fail("makeSorter", sorter.error());
    const uint64_t n = 10001; // n * 4 bytes is not a multiple of 16: the offsets must round up
    sortlab::SortConfig config;
    config.key = sortlab::KeyType::u32;
    config.values = sortlab::ValueType::u32;
    auto plan = (*sorter)->plan(n, config);
    if (!plan) return fail("plan", plan.error());
    const sortlab::StorageRequirements need = sortlab::storageRequirements(*plan);

    // The layout: each region starts at an aligned offset after the one before.
    struct Region {
        uint64_t offset = 0, bytes = 0;
    };
    uint64_t end = 0;
    auto place = [&](uint64_t bytes) {
        Region r{aligned(end), bytes};
        end = r.offset + bytes;
        return r;
    };
    const Region keysA = place(need.keys), valuesA = place(need.values), keysB = place(need.keys),
                 valuesB = place(need.values), keysTemp = place(need.keysTemp), valuesTemp = place(need.valuesTemp),
                 scratch = place(need.scratch);
    auto whole = sortlab::Buffer::create(**ctx, end, sortlab::MemoryKind::device, "the one buffer");
    if (!whole) return fail("Buffer::create", whole.error());
    auto range = [&](const Region& r) { return whole->range(r.offset, r.bytes); };

    // Inputs with many equal keys, values their positions: stability shows.
    std::mt19937 rng(5);
    std::vector<uint32_t> inA(n), inB(n), positions(n);
    for (auto& k : inA) k = rng() % 50;
    for (auto& k : inB) k = rng();
    std::iota(positions.begin(), positions.end(), 0u);
    using Upload = std::pair<const std::vector<uint32_t>*, Region>;
    for (auto [data, region] :
         {Upload{&inA, keysA}, Upload{&inB, keysB}, Upload{&positions, valuesA}, Upload{&positions, valuesB}})
        if (auto up = sortlab::uploadBytes(**ctx, *whole, region.offset, std::as_bytes(std::span(*data))); !up)
            return fail("upload", up.error());

    sortlab::DeviceBuffers a{range(keysA), range(valuesA), range(keysTemp), range(valuesTemp), range(scratch)};
    sortlab::DeviceBuffers b = a;
    b.keys = range(keysB);
    b.values = range(valuesB);
    sortlab::Result<void> recordedA, recordedB;
    auto ran = (*ctx)->submitAndWait([&](VkCommandBuffer cmd) {
        // The uploads' transfer writes made visible to compute-shader reads and writes.
        sortlab::transferToCompute(cmd);
        recordedA = (*sorter)->record(cmd, *plan, a);
        // Sort B reuses keysTemp, valuesTemp and scratch: wait for sort A's compute writes (a
        // global VkMemoryBarrier, COMPUTE_SHADER -> COMPUTE_SHADER, SHADER_WRITE -> SHADER_READ |
        // SHADER_WRITE). Validation would not notice it missing: the shaders reach the buffer
        // by device address.
        sortlab::computeToCompute(cmd);
        recordedB = (*sorter)->record(cmd, *plan, b);
        // (Readback below starts with the compute-to-transfer barrier for the results.)
    });
    if (!recordedA) return fail("record A", recordedA.error());
    if (!recordedB) return fail("record B", recordedB.error());
    if (!ran) return fail("submit", ran.error());

    // With resultInEither off, a radix sort's last step copies the result back into keys.
    if (plan->resultLocation != sortlab::KeyLocation::inKeys()) {
        std::fprintf(stderr, "suballoc: this example reads the result from keys; the plan leaves it elsewhere\n");
        return 1;
    }
    int failures = 0;
    for (auto [input, keys, values, name] :
         {std::tuple{&inA, keysA, valuesA, "A"}, std::tuple{&inB, keysB, valuesB, "B"}}) {
        std::vector<uint32_t> gotKeys(n), gotValues(n);
        sortlab::Readback rb(**ctx);
        rb.add(*whole, keys.offset, n * 4, gotKeys.data());
        rb.add(*whole, values.offset, n * 4, gotValues.data());
        if (auto read = rb.run(); !read) return fail("readback", read.error());
        std::vector<uint32_t> want(positions);
        std::stable_sort(want.begin(), want.end(), [&](uint32_t x, uint32_t y) { return (*input)[x] < (*input)[y]; });
        bool ok = true;
        for (uint64_t i = 0; i < n && ok; ++i) ok = gotValues[i] == want[i] && gotKeys[i] == (*input)[want[i]];
        std::printf("sort %s: %llu keys %s\n", name, static_cast<unsigned long long>(n),
                    ok ? "sorted, equal keys in input order" : "WRONG");
        failures += ok ? 0 : 1;
    }
    if (failures) return 1;
    std::printf("suballoc: every check passed (one buffer of %llu bytes)\n", static_cast<unsigned long long>(end));
    return 0;
}
