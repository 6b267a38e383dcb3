#include <sortlab/app/measured.h>

#include <cstdio>

namespace sortlab::app {

const std::vector<MeasuredTime>& measuredTimes() {
    // sortlab-bench --dist uniform, u32 keys, 2^20 (docs/results/README.md gives each command).
    static const std::vector<MeasuredTime> times = {
        {"oddeven", "NVIDIA H100 80GB HBM3", 1u << 20, 0.405,
         "2026-11-22-h100/final-512x16/sweep-2e10-2e24-oddeven-radix4-std.json"},
        {"oddeven", "NVIDIA H200", 1u << 20, 0.404, "2026-11-21-h200/oddeven-u32-2p20-2p24.json"},
        {"oddeven-layer", "NVIDIA H200", 1u << 20, 1.007, "2026-11-21-h200/oddeven-u32-2p20-2p24.json"},
        {"radix4", "NVIDIA H100 80GB HBM3", 1u << 20, 0.143,
         "2026-11-22-h100/final-512x16/sweep-2e10-2e24-oddeven-radix4-std.json"},
        {"radix4", "NVIDIA H200", 1u << 20, 0.142, "2026-11-22-h200/radix4_u32_keys.json"},
        {"onesweep", "NVIDIA H100 80GB HBM3", 1u << 20, 0.0744, "2026-11-27-h100/onesweep-table.json", "f0ea102"},
        {"onesweep", "NVIDIA H200", 1u << 20, 0.0736, "2026-11-27-h200/onesweep-table.json", "f0ea102"},
        {"onesweep-fallback", "NVIDIA H100 80GB HBM3", 1u << 20, 0.095, "2026-11-23-h100/final5/onesweep_u32.json"},
    };
    return times;
}

std::string measuredLine(Variant v, uint64_t n) {
    const std::string_view name = variantInfo(v).name;
    std::string out;
    for (const MeasuredTime& t : measuredTimes()) {
        if (t.variant != name || t.n != n) continue;
        char buf[96];
        std::snprintf(buf, sizeof buf, "%s%.*s: %.3f ms", out.empty() ? "" : ", ", int(t.device.size()),
                      t.device.data(), t.medianMs);
        out += buf;
    }
    return out;
}

} // namespace sortlab::app
