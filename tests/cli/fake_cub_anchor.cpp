// A stand-in for the CUB anchor (bench/cub/anchor.h) that needs no CUDA, so that the whole
// --anchor cub path of sortlab-bench (dlopen, the C interface, the cub rows, the "x cub" column,
// --check with CUB's semantics) is tested on machines without a GPU.
//
// It "sorts" as cub::DeviceRadixSort documents it: stable, by CUB's bit transforms (signed: sign
// bit flipped; floats: all bits flipped when negative, else the sign bit), descending = those bits
// inverted, and -0.0 equal to +0.0 (so zeros stay in input order, unlike sortlab's totalOrder).
// It is written apart from sortlab's keys.h on purpose.
//
// $FAKE_CUB_ANCHOR_MODE makes it fail the ways a real one can:
//   no-device   sortlab_cub_probe reports no CUDA device
//   abi         sortlab_cub_abi returns another ABI version
//   sort-fails  sortlab_cub_sort reports out of device memory
#include <sortlab/bench/cub_anchor.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace {

std::string mode() {
    const char* m = std::getenv("FAKE_CUB_ANCHOR_MODE");
    return m ? m : "";
}

template <class Bits> Bits cubBits(Bits raw, uint32_t keyType, bool descending) {
    constexpr Bits high = Bits(1) << (sizeof(Bits) * 8 - 1);
    Bits x = raw;
    const bool isFloat = keyType == SORTLAB_CUB_F32 || keyType == SORTLAB_CUB_F64;
    const bool isSigned = keyType == SORTLAB_CUB_I32 || keyType == SORTLAB_CUB_I64;
    if (isFloat && x == high) x = 0; // -0.0 sorts as +0.0
    if (isSigned) x ^= high;
    if (isFloat) x ^= (x & high) ? Bits(~Bits(0)) : high;
    return descending ? Bits(~x) : x;
}

template <class Bits>
void fakeSort(const sortlab_cub_request& r, std::vector<Bits>& keys, std::vector<uint32_t>& values) {
    const size_t n = size_t(r.n);
    std::vector<Bits> in(n);
    if (n) std::memcpy(in.data(), r.keys, n * sizeof(Bits));
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return cubBits(in[a], r.key_type, r.descending != 0) < cubBits(in[b], r.key_type, r.descending != 0);
    });
    keys.resize(n);
    values.resize(r.values ? n : 0);
    for (size_t i = 0; i < n; ++i) {
        keys[i] = in[order[i]];
        if (r.values) values[i] = r.values[order[i]];
    }
}

template <class Bits> void run(sortlab_cub_request& r) {
    std::vector<Bits> keys;
    std::vector<uint32_t> values;
    fakeSort<Bits>(r, keys, values); // the warm-up: one run, whatever warmup_ms says (tests stay fast)
    for (uint32_t rep = 0; rep < r.reps; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        fakeSort<Bits>(r, keys, values);
        r.rep_ms[rep] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
    if (r.sorted_keys && !keys.empty()) std::memcpy(r.sorted_keys, keys.data(), keys.size() * sizeof(Bits));
    if (r.sorted_values && !values.empty()) std::memcpy(r.sorted_values, values.data(), values.size() * 4);
}

} // namespace

extern "C" SORTLAB_CUB_EXPORT int sortlab_cub_abi(void) {
    return mode() == "abi" ? SORTLAB_CUB_ABI + 1000 : SORTLAB_CUB_ABI;
}

extern "C" SORTLAB_CUB_EXPORT int sortlab_cub_probe(sortlab_cub_info* info) {
    std::memset(info, 0, sizeof *info);
    if (mode() == "no-device") {
        std::snprintf(info->error, sizeof info->error,
                      "cudaGetDeviceCount: cudaErrorNoDevice (no CUDA-capable device is detected) [fake anchor]");
        return SORTLAB_CUB_NO_DEVICE;
    }
    std::snprintf(info->device, sizeof info->device, "fake CUB anchor (std::stable_sort)");
    std::snprintf(info->versions, sizeof info->versions, "host CPU, no CUDA");
    return SORTLAB_CUB_OK;
}

extern "C" SORTLAB_CUB_EXPORT int sortlab_cub_sort(sortlab_cub_request* r) {
    r->error[0] = '\0';
    if (r->reps == 0 || !r->rep_ms || r->key_type > SORTLAB_CUB_F64) {
        std::snprintf(r->error, sizeof r->error, "bad request [fake anchor]");
        return SORTLAB_CUB_BAD_REQUEST;
    }
    if (mode() == "sort-fails") {
        std::snprintf(r->error, sizeof r->error,
                      "cudaMalloc of 1.00 GiB for the keys failed (0.50 GiB free of 80.00 GiB); use a smaller n "
                      "[fake anchor]");
        return SORTLAB_CUB_OUT_OF_MEMORY;
    }
    if (r->key_type <= SORTLAB_CUB_F32)
        run<uint32_t>(*r);
    else
        run<uint64_t>(*r);
    return SORTLAB_CUB_OK;
}
