#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader
cp .dev/sortlab-bench .dev/exp/bench-A
for v in ${VARIANTS:-A B C D}; do B=.dev/exp/bench-$v
  SORTLAB_PIPELINE_STATS=1 $B --algo onesweep --n 4096 --reps 1 --quiet 2>&1 | grep "onesweep_pass.k1" | sed "s/Binary Size.*Shared/Shared/;s/^/$v /"
  $B --algo onesweep --n 2^24,2^26,2^28 --reps 7 --quiet ${CHECK:-} --json $OUT/u32_$v.json || echo "$v u32 failed"
  $B --algo onesweep --values u32 --n 2^28 --reps 5 --quiet ${CHECK:-} --json $OUT/kv_$v.json || echo "$v kv failed"
  $B --algo onesweep --type u64 --n 2^27 --reps 5 --quiet ${CHECK:-} --json $OUT/u64_$v.json || echo "$v u64 failed"
done
for v in ${CHECKV:-}; do .dev/exp/bench-$v --algo onesweep,onesweep-fallback --type u32,u64 --values none,u32 --n 1000003,2^26 --reps 1 --check --quiet > $OUT/check_$v.txt 2>&1; echo "check $v rc $?"; tail -1 $OUT/check_$v.txt; done
python3 - <<'PY'
import json, glob, os
out = os.environ['OUT']
for f in sorted(glob.glob(out + '/*_?.json')):
    for r in json.load(open(f)):
        steps = [s['median_ms'] for s in r['step_ms']]
        print(f"{os.path.basename(f)[:-5]:8s} {r['type']} {r['values']:4s} 2^{r['n'].bit_length()-1} {r['median_ms']:7.3f} ms hist {steps[0]:.3f} pass {' '.join(f'{x:.3f}' for x in steps[2:])} {r.get('check','')}")
PY
