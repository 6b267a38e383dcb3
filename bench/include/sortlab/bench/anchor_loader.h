// sortlab-bench's side of --anchor cub: finds the CUB anchor library (anchor.h) at run time with
// dlopen(), asks it which CUDA device it will use, and runs a case on it. The bench itself has no
// CUDA dependency: a machine without the library or without a CUDA device gets one error line
// and exit code 3 (kExitDevice) when --anchor cub is asked for, and nothing changes otherwise.
#pragma once

#include <sortlab/bench/algos.h>

#include <sortlab/keys.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace sortlab::bench {

// The library's file name, looked for next to the executable.
#ifdef _WIN32
inline constexpr const char* kCubAnchorFile = "sortlab_cub_anchor.dll";
#else
inline constexpr const char* kCubAnchorFile = "libsortlab_cub_anchor.so";
#endif
// The environment variable that names the library instead.
inline constexpr const char* kCubAnchorEnv = "SORTLAB_CUB_ANCHOR";

// The "algo" of the anchor's rows: stable (CUB's radix sort is), not a --algo name.
const AlgoSpec& cubAlgo();

class CubAnchor {
public:
    // $SORTLAB_CUB_ANCHOR when set (and not empty), else libsortlab_cub_anchor.so in the
    // executable's directory. Loads it and probes its CUDA device; throws BenchError (exit 3)
    // with what to do when the library is missing, is not an anchor, or finds no CUDA device.
    static std::unique_ptr<CubAnchor> load();
    ~CubAnchor();

    const std::string& path() const { return path_; }
    const std::string& device() const { return device_; }     // "NVIDIA H200"
    const std::string& versions() const { return versions_; } // "sm_90, CUDA driver 13.0, ..."

    // Sorts `keys` (and `values` when not empty) reps times; returns each rep's time in ms.
    // Writes the last rep's result to sortedKeys / sortedValues when they are not empty.
    // Throws BenchError (exit 3) with the anchor's message, prefixed with `what`.
    std::vector<double> sort(sortlab::KeyType type, sortlab::Order order, uint64_t n, std::span<const std::byte> keys,
                             std::span<const uint32_t> values, int reps, uint32_t warmupMs,
                             std::span<std::byte> sortedKeys, std::span<uint32_t> sortedValues,
                             const std::string& what);

private:
    CubAnchor() = default;
    void* handle_ = nullptr;
    void* sortFn_ = nullptr;
    std::string path_, device_, versions_;
};

// CUB orders -0.0 and +0.0 as equal keys (documented in cub/device/device_radix_sort.cuh: they
// keep their input order); sortlab and its reference use IEEE totalOrder, -0.0 before +0.0.
// For float keys this puts the zeros of a CUB result in totalOrder, stably, so that --check
// compares everything else bit for bit: it finds the zeros' range in the reference and, when the
// result holds only zeros there, stable-sorts that range by order bits (values along). Any other
// difference is left for the check to report. No-op for integer keys.
void orderSignedZeros(sortlab::KeyType type, sortlab::Order order, std::span<const std::byte> refKeys,
                      std::span<std::byte> keys, std::span<uint32_t> values);

} // namespace sortlab::bench
