#!/usr/bin/env bash
# a050ca5 as shipped (every key type 512 x 18; 64-bit keys staged in halves): registers, then
# bench/device/onesweep_figures.sh, then 64-bit keys with values beside CUB and odd-size checks.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/.dev/libsortlab_cub_anchor.so
B=.dev/sortlab-bench
SORTLAB_PIPELINE_STATS=1 timeout 60 $B --algo onesweep --type u32,u64 --values none,u32 --n 2^24 --reps 1 2>&1 | grep 'onesweep_pass' | sed 's/Binary Size=[0-9]* Stack Size=0 //' > $OUT/registers.txt; cat $OUT/registers.txt
timeout 330 bash bench/device/onesweep_figures.sh > $OUT/figures_summary.txt 2>&1; echo "figures rc $?"
timeout 150 $B --algo onesweep --anchor cub --type u64,i64,f64 --values u32 --n 2^24,2^26,2^27 --reps 5 --check --json $OUT/onesweep_kv64.json > $OUT/onesweep_kv64.txt 2>&1; echo "kv64 rc $?"
timeout 60 $B --algo onesweep,onesweep-fallback --type u64,i64,f64 --values u32 --order asc,desc --n 1000003,16777219 --reps 1 --check > $OUT/onesweep_odd_kv64.txt 2>&1; echo "odd rc $?"; grep checks: $OUT/onesweep_odd_kv64.txt
cat $OUT/figures_summary.txt
python3 - <<'PY'
import json, os
for r in json.load(open(os.environ['OUT'] + '/onesweep_kv64.json')):
    c = r.get('speedup_vs_cub')
    print(f"{r['algo']:9s} {r['type']} {r['values']} 2^{r['n'].bit_length()-1} {r['median_ms']:8.3f} ms {r['gkeys_per_s']:6.2f} Gk/s x cub {'-' if c is None else f'{c:.3f}'} {r['check']}")
PY
cd $OUT && tar czf results.tgz *.json onesweep_*.txt && rm -f *.json
