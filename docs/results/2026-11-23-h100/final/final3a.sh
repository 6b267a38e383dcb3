#!/usr/bin/env bash
# 2026-11-23: the persistent pass kernel with lookback steps during the ranking, against the
# kernel before it (bench-old = main at 082e302), then the OneSweep figures.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/.dev/libsortlab_cub_anchor.so
B=.dev/sortlab-bench; OLD=.dev/exp/bench-old; mkdir -p $OUT/ab
SORTLAB_PIPELINE_STATS=1 $B --algo onesweep --type u32,u64 --values none,u32 --n 100000 --reps 1 2>&1 | grep onesweep_pass | sed 's/Binary Size.*Shared/Shared/' > $OUT/registers.txt
for r in 1 2; do
  for v in old new; do
    X=$B; [ $v = old ] && X=$OLD
    $X --algo onesweep --n 2^28 --reps 5 --quiet --json $OUT/ab/u32_${v}_$r.json
    $X --algo onesweep --type u64 --n 2^27 --reps 5 --quiet --json $OUT/ab/u64_${v}_$r.json
    $X --algo onesweep --values u32 --n 2^28 --reps 5 --quiet --json $OUT/ab/kv_${v}_$r.json
  done
done
BIN=.dev bash bench/device/onesweep_figures.sh > $OUT/figures_summary.txt 2>&1; echo "figures rc $?"
python3 - <<'PY'
import json, glob, os
out = os.environ['OUT']
for f in sorted(glob.glob(out + '/ab/*.json')):
    for r in json.load(open(f)):
        steps = [s['median_ms'] for s in r['step_ms']]
        print(f"{os.path.basename(f)[:-5]:12s} 2^{r['n'].bit_length()-1} {r['median_ms']:7.3f} ms hist {steps[0]:.3f} pass {sum(steps[2:])/len(steps[2:]):.3f}")
PY
cat $OUT/registers.txt | cut -c1-100; cat $OUT/figures_summary.txt
cd $OUT && tar czf results.tgz *.json *.txt ab && rm -rf ab *.json onesweep_*.txt
