#!/usr/bin/env bash
# Sweeps of 84e3f93 beside CUB for 64-bit keys: u64 keys and u64 keys with u32 values, 2^10..2^27.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/.dev/libsortlab_cub_anchor.so
B=.dev/sortlab-bench
for v in none u32; do
  timeout 150 $B --algo onesweep --anchor cub --type u64 --values $v --sizes 2^10..2^24 --reps 5 --check --warmup-ms 300 \
      --json $OUT/sweep64-$v-2e10-2e24.json > $OUT/sweep64-$v-1.txt 2>&1; echo "sweep $v 1 rc $?"
  timeout 90 $B --algo onesweep --anchor cub --type u64 --values $v --sizes 2^25..2^27 --reps 3 \
      --json $OUT/sweep64-$v-2e25-2e27.json > $OUT/sweep64-$v-2.txt 2>&1; echo "sweep $v 2 rc $?"
done
python3 - <<'PY'
import json, glob, os
for f in sorted(glob.glob(os.environ['OUT'] + '/sweep64-*.json')):
    for r in json.load(open(f)):
        if r['algo'] == 'onesweep':
            print(f"{r['values']:4s} 2^{r['n'].bit_length()-1:<2d} {r['median_ms']:8.3f} ms x cub {r.get('speedup_vs_cub', 0):.3f} {r['check']}")
PY
