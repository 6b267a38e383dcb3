#!/usr/bin/env bash
# The shipped tuning after run26 (64-bit keys one tile per workgroup): u64 keys beside CUB, checked,
# and the 64-bit kinds at 2^26.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/.dev/libsortlab_cub_anchor.so
B=.dev/sortlab-bench
SORTLAB_PIPELINE_STATS=1 timeout 60 $B --algo onesweep --type u64 --values none,u32 --n 2^24 --reps 1 2>&1 | grep 'onesweep_pass' | sed 's/Binary Size=[0-9]* Stack Size=0 //' > $OUT/registers.txt; cat $OUT/registers.txt
timeout 150 $B --algo onesweep --anchor cub --type u64 --n 2^20,2^24,2^26,2^27 --reps 5 --check --json $OUT/onesweep_u64.json > $OUT/onesweep_u64.txt 2>&1; echo "u64 rc $?"
timeout 100 $B --algo onesweep --anchor cub --type u64,i64,f64 --order asc,desc --n 2^26 --reps 5 --json $OUT/onesweep_kinds64.json > $OUT/onesweep_kinds64.txt 2>&1; echo "kinds rc $?"
python3 - <<'PY'
import json, os
for f in ('onesweep_u64.json', 'onesweep_kinds64.json'):
    for r in json.load(open(os.environ['OUT'] + '/' + f)):
        c = r.get('speedup_vs_cub')
        print(f"{r['algo']:9s} {r['type']} {r['order']} 2^{r['n'].bit_length()-1} {r['median_ms']:8.3f} ms x cub {'-' if c is None else f'{c:.3f}'} {r['check']}")
PY
