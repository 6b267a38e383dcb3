#!/usr/bin/env bash
# 2026-11-23: the OneSweep sweep beside CUB for docs/benchmarks.md's figure (persistent kernel, bd7da67).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/.dev/libsortlab_cub_anchor.so
B=.dev/sortlab-bench
$B --algo onesweep --anchor cub --sizes 2^10..2^24 --reps 5 --check --warmup-ms 300 --json $OUT/sweep-os-2e10-2e24.json > $OUT/sweep-os1.txt 2>&1; echo "sweep1 rc $?"
$B --algo onesweep --anchor cub --sizes 2^25..2^28 --reps 3 --json $OUT/sweep-os-2e25-2e28.json > $OUT/sweep-os2.txt 2>&1; echo "sweep2 rc $?"
python3 - <<'PY'
import json, os
out = os.environ['OUT']
for f in ['sweep-os-2e10-2e24.json', 'sweep-os-2e25-2e28.json']:
    rows = json.load(open(out + '/' + f))
    for r in rows:
        if r['algo'] == 'onesweep':
            print(f"2^{r['n'].bit_length()-1} {r['median_ms']:8.4f} ms x cub {r.get('speedup_vs_cub')} {r['check']}")
PY
