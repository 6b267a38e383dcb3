#!/usr/bin/env bash
# The OneSweep figures of docs/notebook/2026-11-23-onesweep-h100.md, on the GPU machine (see README, "Measuring on a
# GPU"): run from the repository root with sortlab-bench and libsortlab_cub_anchor.so in $BIN
# (default .dev) and Debian's libvulkan1 unpacked in .gl. Writes JSON and text to $OUT.
set -u
BIN=${BIN:-.dev}
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/$BIN/libsortlab_cub_anchor.so
B=$BIN/sortlab-bench
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
$B --algo onesweep,onesweep-fallback,radix4 --anchor cub --n 2^20,2^24,2^26,2^28 --reps 5 --check \
   --json "$OUT/onesweep_u32.json" > "$OUT/onesweep_u32.txt" 2>&1
$B --algo onesweep --anchor cub --values u32 --n 2^20,2^24,2^26,2^28 --reps 5 --check \
   --json "$OUT/onesweep_kv.json" > "$OUT/onesweep_kv.txt" 2>&1
$B --algo onesweep --anchor cub --type u64 --n 2^20,2^24,2^26,2^27 --reps 5 --check \
   --json "$OUT/onesweep_u64.json" > "$OUT/onesweep_u64.txt" 2>&1
$B --algo onesweep --anchor cub --type f32,i32 --n 2^24 --reps 5 --check \
   --json "$OUT/onesweep_types.json" > "$OUT/onesweep_types.txt" 2>&1
python3 - <<'PY'
import json, glob, os
for f in sorted(glob.glob(os.environ['OUT'] + '/onesweep_*.json')):
    for r in json.load(open(f)):
        steps = ' '.join(f"{s['median_ms']:.3f}" for s in r['step_ms'])
        c = r.get('speedup_vs_cub')
        print(f"{r['algo']:17s} {r['type']} {r['values']:4s} 2^{r['n'].bit_length()-1} {r['median_ms']:8.3f} ms"
              f" {r['gkeys_per_s']:6.2f} Gk/s x cub {'-' if c is None else f'{c:.3f}'} {r['check']}"
              f" fb {r.get('fallbacks_last_pass', '-')} steps {steps}")
PY
