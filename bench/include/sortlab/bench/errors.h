// How sortlab-bench fails: every error ends up as one line on stderr,
// "sortlab-bench: error: <message>", and an exit code (documented in --help):
//   0 success, 1 a --check mismatch or --validation messages, 2 a usage error,
//   3 a Vulkan / device / memory error (also --anchor cub without its library or a CUDA device).
// Code deep in the case loop throws BenchError; main() catches it, prints it and exits.
#pragma once

#include <sortlab/result.h>

#include <stdexcept>
#include <string>

namespace sortlab::bench {

enum ExitCode : int { kExitOk = 0, kExitCheckFailed = 1, kExitUsage = 2, kExitDevice = 3 };

class BenchError : public std::runtime_error {
public:
    BenchError(int exitCode, const std::string& message) : std::runtime_error(message), exitCode_(exitCode) {}
    int exitCode() const { return exitCode_; }

private:
    int exitCode_;
};

// Caller mistakes (a bad option value, a configuration the library rejects) are usage errors;
// everything the machine cannot do (no Vulkan, no device, too little memory, a hung GPU) is a
// device error.
inline int exitCodeFor(sortlab::Errc code) {
    switch (code) {
    case sortlab::Errc::invalid_argument:
    case sortlab::Errc::parse_error:
        return kExitUsage;
    default:
        return kExitDevice;
    }
}

// The name errors are printed under: "sortlab-bench", or "sortlab" for `sortlab --bench`.
const std::string& programName();
void setProgramName(std::string name);

[[noreturn]] inline void usageError(const std::string& message) {
    throw BenchError(kExitUsage, message);
}

// Throws a library error, prefixed with what was being done ("oddeven u32 n=1024: ...").
[[noreturn]] inline void libraryError(const sortlab::Error& e, const std::string& what = {}) {
    throw BenchError(exitCodeFor(e.code), what.empty() ? e.message : what + ": " + e.message);
}

} // namespace sortlab::bench
