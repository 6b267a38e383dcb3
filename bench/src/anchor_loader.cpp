// [SECTION] Finding and loading the library
// [SECTION] Running a case
// [SECTION] The signed zeros
#include <sortlab/bench/anchor_loader.h>

#include <sortlab/bench/errors.h>
#include <sortlab/bench/cub_anchor.h>

#include "host.h"

#include <algorithm>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <numeric>

namespace sortlab::bench {

using namespace sortlab;

static_assert(SORTLAB_CUB_U32 == int(KeyType::u32) && SORTLAB_CUB_I32 == int(KeyType::i32) &&
                  SORTLAB_CUB_F32 == int(KeyType::f32) && SORTLAB_CUB_U64 == int(KeyType::u64) &&
                  SORTLAB_CUB_I64 == int(KeyType::i64) && SORTLAB_CUB_F64 == int(KeyType::f64),
              "anchor.h numbers the key types as sortlab::KeyType");

const AlgoSpec& cubAlgo() {
    // name, no variant and no sortlab algorithm (not a sortlab sort), stable, not in --algo all
    static const AlgoSpec spec{"cub", std::nullopt, std::nullopt, true, false};
    return spec;
}

// [SECTION] Finding and loading the library ------------------------------------------------------------

namespace {

[[noreturn]] void anchorError(const std::string& message) {
    throw BenchError(kExitDevice, "--anchor cub: " + message);
}

#ifdef _WIN32
const char* kBuildHint = "the Windows build does not make it; with a CUDA toolkit on Windows (not tried): nvcc -O3 "
                         "-arch=sm_90 -shared -o sortlab_cub_anchor.dll bench/cub/anchor.cu, then put it next to "
                         "sortlab-bench.exe or set %SORTLAB_CUB_ANCHOR% to its path";
#else
const char* kBuildHint = "it is built only where a CUDA toolkit is found; on the GPU machine: nvcc -O3 -arch=sm_90 "
                         "-shared -Xcompiler -fPIC -o libsortlab_cub_anchor.so bench/cub/anchor.cu, then put it next "
                         "to sortlab-bench or set $SORTLAB_CUB_ANCHOR to its path";
#endif

} // namespace

std::unique_ptr<CubAnchor> CubAnchor::load() {
    std::unique_ptr<CubAnchor> a(new CubAnchor);
    const char* env = std::getenv(kCubAnchorEnv);
    const bool fromEnv = env && *env;
    a->path_ = fromEnv ? std::string(env) : host::executableDir() + host::separator() + kCubAnchorFile;
    // A bare file name would make dlopen() search the library path; the user means this directory.
    if (a->path_.find_first_of(host::separator() == '/' ? "/" : "/\\") == std::string::npos)
        a->path_ = std::string(".") + host::separator() + a->path_;
    const std::string where = fromEnv ? std::string("$") + kCubAnchorEnv + " '" + a->path_ + "'" : "'" + a->path_ + "'";

    std::error_code ec;
    if (!fromEnv && !std::filesystem::exists(std::filesystem::u8path(a->path_), ec))
        anchorError("no CUB anchor library: " + where + " does not exist (" + kBuildHint + ")");
    std::string why;
    a->handle_ = host::openLibrary(a->path_, &why);
    if (!a->handle_) anchorError("cannot load the CUB anchor " + where + ": " + why + " (" + kBuildHint + ")");
    auto symbol = [&](const char* name) {
        void* p = host::symbol(a->handle_, name);
        if (!p)
            anchorError(where + " is not a sortlab CUB anchor: it has no " + name +
                        " (build it from bench/cub/anchor.cu)");
        return p;
    };
    auto abi = reinterpret_cast<sortlab_cub_abi_fn>(symbol("sortlab_cub_abi"));
    auto probe = reinterpret_cast<sortlab_cub_probe_fn>(symbol("sortlab_cub_probe"));
    a->sortFn_ = symbol("sortlab_cub_sort");
    if (int version = abi(); version != SORTLAB_CUB_ABI)
        anchorError(where + " speaks anchor ABI " + std::to_string(version) + ", this sortlab-bench speaks " +
                    std::to_string(SORTLAB_CUB_ABI) + ": rebuild it from this source tree's bench/cub/anchor.cu");

    sortlab_cub_info info{};
    if (int code = probe(&info); code != SORTLAB_CUB_OK) {
        info.error[sizeof info.error - 1] = '\0';
        anchorError(std::string(code == SORTLAB_CUB_NO_DEVICE ? "no CUDA device for the CUB anchor: "
                                                              : "the CUB anchor cannot start: ") +
                    info.error + " (" + where + ")");
    }
    info.device[sizeof info.device - 1] = '\0';
    info.versions[sizeof info.versions - 1] = '\0';
    a->device_ = info.device;
    a->versions_ = info.versions;
    return a;
}

// Not dlclose()d: the anchor links the CUDA runtime statically, and unloading it while its
// at-exit teardown is still registered is the kind of thing that crashes at exit. The process
// ends soon after anyway.
CubAnchor::~CubAnchor() = default;

// [SECTION] Running a case -----------------------------------------------------------------------------

std::vector<double> CubAnchor::sort(KeyType type, Order order, uint64_t n, std::span<const std::byte> keys,
                                    std::span<const uint32_t> values, int reps, uint32_t warmupMs,
                                    std::span<std::byte> sortedKeys, std::span<uint32_t> sortedValues,
                                    const std::string& what) {
    std::vector<double> repMs(size_t(std::max(reps, 1)), 0.0);
    sortlab_cub_request req{};
    req.key_type = uint32_t(type);
    req.descending = order == Order::descending ? 1 : 0;
    req.n = n;
    req.keys = keys.data();
    req.values = values.empty() ? nullptr : values.data();
    req.reps = uint32_t(repMs.size());
    req.warmup_ms = warmupMs;
    req.rep_ms = repMs.data();
    req.sorted_keys = sortedKeys.empty() ? nullptr : sortedKeys.data();
    req.sorted_values = sortedValues.empty() ? nullptr : sortedValues.data();
    if (int code = reinterpret_cast<sortlab_cub_sort_fn>(sortFn_)(&req); code != SORTLAB_CUB_OK) {
        req.error[sizeof req.error - 1] = '\0';
        throw BenchError(kExitDevice, what + ": " + (req.error[0] ? req.error : "the CUB anchor failed") +
                                          " (anchor code " + std::to_string(code) + ")");
    }
    return repMs;
}

// [SECTION] The signed zeros ----------------------------------------------------

void orderSignedZeros(KeyType type, Order order, std::span<const std::byte> refKeys, std::span<std::byte> keys,
                      std::span<uint32_t> values) {
    if (keyKind(type) != KeyKind::floating) return;
    const size_t width = keyBytes(type), n = refKeys.size() / width;
    if (keys.size() != refKeys.size()) return;
    // The order bits of -0.0 and +0.0: the reference is sorted by order bits, so its zeros are the
    // range [lo, hi) of keys whose bits lie between the two.
    const uint64_t sign = width == 4 ? 0x80000000ull : 0x8000000000000000ull;
    std::byte zeros[2][8] = {};
    std::memcpy(zeros[0], &sign, width); // little-endian: the low `width` bytes of `sign`
    const uint64_t bitsMinus = orderBitsAt(zeros[0], 0, type, order), bitsPlus = orderBitsAt(zeros[1], 0, type, order);
    const uint64_t first = std::min(bitsMinus, bitsPlus), last = std::max(bitsMinus, bitsPlus);
    auto bitsAt = [&](std::span<const std::byte> a, size_t i) { return orderBitsAt(a.data(), i, type, order); };
    size_t lo = 0, hi = n;
    { // lower bound of `first`
        size_t l = 0, h = n;
        while (l < h) {
            size_t m = l + (h - l) / 2;
            if (bitsAt(refKeys, m) < first)
                l = m + 1;
            else
                h = m;
        }
        lo = l;
    }
    { // upper bound of `last`
        size_t l = lo, h = n;
        while (l < h) {
            size_t m = l + (h - l) / 2;
            if (bitsAt(refKeys, m) <= last)
                l = m + 1;
            else
                h = m;
        }
        hi = l;
    }
    if (hi - lo < 2) return;
    for (size_t i = lo; i < hi; ++i) {
        uint64_t raw = 0;
        std::memcpy(&raw, keys.data() + i * width, width);
        if ((raw & ~sign) != 0) return; // not CUB's zeros: leave it for the check to report
    }
    std::vector<size_t> perm(hi - lo);
    std::iota(perm.begin(), perm.end(), lo);
    std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) { return bitsAt(keys, a) < bitsAt(keys, b); });
    std::vector<std::byte> sortedKeys(perm.size() * width);
    std::vector<uint32_t> sortedValues;
    for (size_t i = 0; i < perm.size(); ++i)
        std::memcpy(sortedKeys.data() + i * width, keys.data() + perm[i] * width, width);
    std::memcpy(keys.data() + lo * width, sortedKeys.data(), sortedKeys.size());
    if (values.size() == n) {
        for (size_t p : perm) sortedValues.push_back(values[p]);
        std::copy(sortedValues.begin(), sortedValues.end(), values.begin() + std::ptrdiff_t(lo));
    }
}

} // namespace sortlab::bench
