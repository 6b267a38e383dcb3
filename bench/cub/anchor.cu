// The CUB anchor: cub::DeviceRadixSort on the keys (and values) that sortlab-bench hands over,
// timed the way the bench times its Vulkan sorts, behind the plain C interface of anchor.h.
//
// Build (a CUDA toolkit with CUB; the top-level CMakeLists.txt does this when it finds one):
//   nvcc -O3 -arch=sm_90 -shared -Xcompiler -fPIC -o libsortlab_cub_anchor.so bench/cub/anchor.cu
//
// [SECTION] Errors: CUDA failures become a code and a message, never an abort
// [SECTION] Device resources (owned, freed on every path)
// [SECTION] One case: upload once, warm up, timed reps, read back
// [SECTION] The C interface
#include <sortlab/bench/cub_anchor.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/version.cuh>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#define SORTLAB_STRING_(...) #__VA_ARGS__
#define SORTLAB_STRING(...) SORTLAB_STRING_(__VA_ARGS__)

namespace {

// [SECTION] Errors ---------------------------------------------------------------------------------

struct Failure {
    int code;
    std::string message;
};

int codeFor(cudaError_t e) {
    switch (e) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorStubLibrary:
    case cudaErrorDevicesUnavailable:
    case cudaErrorSystemDriverMismatch:
    case cudaErrorSystemNotReady:
    case cudaErrorCompatNotSupportedOnDevice:
    case cudaErrorNoKernelImageForDevice:
        return SORTLAB_CUB_NO_DEVICE;
    case cudaErrorMemoryAllocation:
        return SORTLAB_CUB_OUT_OF_MEMORY;
    default:
        return SORTLAB_CUB_CUDA_ERROR;
    }
}

void check(cudaError_t e, const std::string& what) {
    if (e == cudaSuccess) return;
    cudaGetLastError(); // clear a non-sticky error so that the next call starts clean
    std::string message = what + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
    if (e == cudaErrorNoKernelImageForDevice)
        message += "; this library holds kernels for " +
#ifdef __CUDA_ARCH_LIST__
                   std::string("compute capabilities ") + SORTLAB_STRING(__CUDA_ARCH_LIST__) +
#else
                   std::string("other architectures") +
#endif
                   ": rebuild it with nvcc -arch=sm_XX for this GPU";
    throw Failure{codeFor(e), message};
}

void copyOut(char* dst, size_t size, const std::string& text) {
    std::snprintf(dst, size, "%s", text.c_str());
}

std::string gib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    return buf;
}

// [SECTION] Device resources -------------------------------------------------------------------------

class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer() {
        if (ptr_) cudaFree(ptr_);
    }
    void allocate(size_t bytes, const char* what) {
        if (bytes == 0) return;
        cudaError_t e = cudaMalloc(&ptr_, bytes);
        if (e == cudaErrorMemoryAllocation) {
            cudaGetLastError();
            size_t freeBytes = 0, totalBytes = 0;
            cudaMemGetInfo(&freeBytes, &totalBytes);
            throw Failure{SORTLAB_CUB_OUT_OF_MEMORY, std::string("cudaMalloc of ") + gib(double(bytes)) + " for " +
                                                         what + " failed (" + gib(double(freeBytes)) + " free of " +
                                                         gib(double(totalBytes)) + "); use a smaller n"};
        }
        check(e, std::string("cudaMalloc (") + what + ")");
    }
    template <class T> T* as() const { return static_cast<T*>(ptr_); }

private:
    void* ptr_ = nullptr;
};

class Stream {
public:
    Stream() { check(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreate"); }
    Stream(const Stream&) = delete;
    ~Stream() { cudaStreamDestroy(s_); }
    cudaStream_t get() const { return s_; }

private:
    cudaStream_t s_ = nullptr;
};

class Event {
public:
    Event() { check(cudaEventCreate(&e_), "cudaEventCreate"); }
    Event(const Event&) = delete;
    ~Event() { cudaEventDestroy(e_); }
    cudaEvent_t get() const { return e_; }

private:
    cudaEvent_t e_ = nullptr;
};

// [SECTION] One case ---------------------------------------------------------------------------------

// One call of the CUB sort that the request names. With d_temp == nullptr it only sizes the
// temporary storage. The DoubleBuffer forms: CUB may leave the result in either buffer
// (Current()), and it overwrites both, which is why every rep starts from a device copy.
template <class Key, class Offset>
cudaError_t sortOnce(bool descending, bool pairs, void* temp, size_t& tempBytes, cub::DoubleBuffer<Key>& keys,
                     cub::DoubleBuffer<uint32_t>& values, Offset n, cudaStream_t stream) {
    constexpr int endBit = int(sizeof(Key) * 8);
    if (pairs)
        return descending
                   ? cub::DeviceRadixSort::SortPairsDescending(temp, tempBytes, keys, values, n, 0, endBit, stream)
                   : cub::DeviceRadixSort::SortPairs(temp, tempBytes, keys, values, n, 0, endBit, stream);
    return descending ? cub::DeviceRadixSort::SortKeysDescending(temp, tempBytes, keys, n, 0, endBit, stream)
                      : cub::DeviceRadixSort::SortKeys(temp, tempBytes, keys, n, 0, endBit, stream);
}

template <class Key, class Offset> void runCase(sortlab_cub_request& req) {
    const bool pairs = req.values != nullptr;
    const uint64_t n = req.n;
    const size_t keyBytes = size_t(n) * sizeof(Key), valueBytes = pairs ? size_t(n) * sizeof(uint32_t) : 0;
    const Offset count = Offset(n);

    check(cudaSetDevice(0), "cudaSetDevice(0)");
    Stream stream;
    Event start, stop;

    // (n) input keys and values, kept so that every rep sorts the same input; (2, n) ping-pong.
    DeviceBuffer inputKeys, inputValues, keysA, keysB, valuesA, valuesB, temp;
    inputKeys.allocate(keyBytes, "the input keys");
    keysA.allocate(keyBytes, "the keys");
    keysB.allocate(keyBytes, "the alternate keys");
    inputValues.allocate(valueBytes, "the input values");
    valuesA.allocate(valueBytes, "the values");
    valuesB.allocate(valueBytes, "the alternate values");
    check(cudaMemcpy(inputKeys.as<void>(), req.keys, keyBytes, cudaMemcpyHostToDevice), "upload of the keys");
    if (pairs)
        check(cudaMemcpy(inputValues.as<void>(), req.values, valueBytes, cudaMemcpyHostToDevice),
              "upload of the values");

    cub::DoubleBuffer<Key> keys(keysA.as<Key>(), keysB.as<Key>());
    cub::DoubleBuffer<uint32_t> values(valuesA.as<uint32_t>(), valuesB.as<uint32_t>());
    size_t tempBytes = 0;
    check(sortOnce<Key, Offset>(req.descending != 0, pairs, nullptr, tempBytes, keys, values, count, stream.get()),
          "sizing CUB's temporary storage");
    temp.allocate(tempBytes, "CUB's temporary storage");

    auto reset = [&] { // outside the timed region
        keys = cub::DoubleBuffer<Key>(keysA.as<Key>(), keysB.as<Key>());
        values = cub::DoubleBuffer<uint32_t>(valuesA.as<uint32_t>(), valuesB.as<uint32_t>());
        check(cudaMemcpyAsync(keysA.as<void>(), inputKeys.as<void>(), keyBytes, cudaMemcpyDeviceToDevice, stream.get()),
              "reset of the keys");
        if (pairs)
            check(cudaMemcpyAsync(valuesA.as<void>(), inputValues.as<void>(), valueBytes, cudaMemcpyDeviceToDevice,
                                  stream.get()),
                  "reset of the values");
    };
    auto sort = [&](const char* what) {
        check(sortOnce<Key, Offset>(req.descending != 0, pairs, temp.as<void>(), tempBytes, keys, values, count,
                                    stream.get()),
              what);
    };

    // Warm-up as the bench does for its Vulkan sorts: keep the GPU busy for warmup_ms (clock
    // states after long CPU phases), at least one run and at most 1000.
    const auto warmStart = std::chrono::steady_clock::now();
    for (int w = 0; w < 1000; ++w) {
        reset();
        sort("warm-up sort");
        check(cudaStreamSynchronize(stream.get()), "warm-up sort");
        if (std::chrono::steady_clock::now() - warmStart >= std::chrono::milliseconds(req.warmup_ms)) break;
    }

    for (uint32_t rep = 0; rep < req.reps; ++rep) {
        reset();
        check(cudaEventRecord(start.get(), stream.get()), "cudaEventRecord");
        sort("timed sort");
        check(cudaEventRecord(stop.get(), stream.get()), "cudaEventRecord");
        check(cudaEventSynchronize(stop.get()), "timed sort");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start.get(), stop.get()), "cudaEventElapsedTime");
        req.rep_ms[rep] = ms;
    }

    if (req.sorted_keys)
        check(cudaMemcpy(req.sorted_keys, keys.Current(), keyBytes, cudaMemcpyDeviceToHost), "read-back of the keys");
    if (pairs && req.sorted_values)
        check(cudaMemcpy(req.sorted_values, values.Current(), valueBytes, cudaMemcpyDeviceToHost),
              "read-back of the values");
}

template <class Key> void runCase(sortlab_cub_request& req) {
    // CUB picks 32-bit offsets for a 32-bit num_items type; past 2^32 - 1 keys it needs 64.
    if (req.n <= 0xffffffffull)
        runCase<Key, uint32_t>(req);
    else
        runCase<Key, uint64_t>(req);
}

// runCase for each key type, in the order of the SORTLAB_CUB_U32 ... SORTLAB_CUB_F64 numbers.
using CaseRunner = void (*)(sortlab_cub_request&);
constexpr CaseRunner kRunCase[] = {runCase<uint32_t>, runCase<int32_t>, runCase<float>,
                                   runCase<uint64_t>, runCase<int64_t>, runCase<double>};
static_assert(sizeof kRunCase / sizeof kRunCase[0] == SORTLAB_CUB_F64 + 1);

// Runs body: what it throws becomes an error code and a message in error[size], as the C interface
// returns them.
template <class Body> int guarded(char* error, size_t size, Body&& body) {
    try {
        body();
        return SORTLAB_CUB_OK;
    } catch (const Failure& f) {
        copyOut(error, size, f.message);
        return f.code;
    } catch (const std::bad_alloc&) {
        copyOut(error, size, "out of host memory");
        return SORTLAB_CUB_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        copyOut(error, size, std::string("unexpected error: ") + e.what());
        return SORTLAB_CUB_CUDA_ERROR;
    }
}

} // namespace

// [SECTION] The C interface ----------------------------------------------------------------------------

extern "C" SORTLAB_CUB_EXPORT int sortlab_cub_abi(void) {
    return SORTLAB_CUB_ABI;
}

extern "C" SORTLAB_CUB_EXPORT int sortlab_cub_probe(sortlab_cub_info* info) {
    if (!info) return SORTLAB_CUB_BAD_REQUEST;
    std::memset(info, 0, sizeof *info);
    return guarded(info->error, sizeof info->error, [&] {
        int devices = 0;
        check(cudaGetDeviceCount(&devices), "no usable CUDA device (cudaGetDeviceCount)");
        if (devices == 0) throw Failure{SORTLAB_CUB_NO_DEVICE, "no CUDA device (cudaGetDeviceCount returned 0)"};
        cudaDeviceProp prop{};
        check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties(0)");
        int driver = 0, runtime = 0;
        check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
        check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
        copyOut(info->device, sizeof info->device, prop.name);
        char versions[256];
        std::snprintf(versions, sizeof versions, "sm_%d%d, CUDA driver %d.%d, runtime %d.%d, CUB %d.%d.%d", prop.major,
                      prop.minor, driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10,
                      CUB_MAJOR_VERSION, CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION);
        copyOut(info->versions, sizeof info->versions, versions);
    });
}

extern "C" SORTLAB_CUB_EXPORT int sortlab_cub_sort(sortlab_cub_request* req) {
    if (!req) return SORTLAB_CUB_BAD_REQUEST;
    req->error[0] = '\0';
    if (req->reps == 0 || !req->rep_ms || (req->n > 0 && !req->keys) || req->key_type > SORTLAB_CUB_F64) {
        copyOut(req->error, sizeof req->error,
                "bad request (reps, rep_ms, keys or key_type): sortlab-bench and the anchor disagree on the ABI");
        return SORTLAB_CUB_BAD_REQUEST;
    }
    if (req->n == 0) { // nothing to sort or time
        for (uint32_t rep = 0; rep < req->reps; ++rep) req->rep_ms[rep] = 0;
        return SORTLAB_CUB_OK;
    }
    return guarded(req->error, sizeof req->error, [&] { kRunCase[req->key_type](*req); });
}
