#!/usr/bin/env bash
# base against: b8 (lookback batch 8), h4k / h16k (more histogram workgroups); step times.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p $OUT/ab
SORTLAB_PIPELINE_STATS=1 timeout 30 .dev/exp/bench-b8 --algo onesweep --type u32,u64 --n 2^24 --reps 1 2>&1 | grep 'onesweep_pass.k..v0:' | sed "s/Binary Size=[0-9]* Stack Size=0 //"
for r in 1 2; do for v in base b8 h4k h16k; do X="timeout 40 .dev/exp/bench-$v"
  $X --algo onesweep --n 2^24,2^26,2^28 --reps 5 --quiet --json $OUT/ab/u32_${v}_$r.json
  $X --algo onesweep --type u64 --n 2^27 --reps 5 --quiet --json $OUT/ab/u64_${v}_$r.json
done; done
timeout 60 .dev/exp/bench-b8 --algo onesweep,onesweep-fallback --type u32,u64 --n 1000003,2^24 --reps 1 --check --quiet > $OUT/check.txt 2>&1; echo "check b8 rc $?"; tail -1 $OUT/check.txt
timeout 60 .dev/exp/bench-h16k --algo onesweep --type u32,u64 --values none,u32 --n 1000003,2^24 --reps 1 --check --quiet > $OUT/check2.txt 2>&1; echo "check h16k rc $?"; tail -1 $OUT/check2.txt
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)):
        t[(kind, x['n'])][f"{v}_{r}"] = (x['median_ms'], x['step_ms'][0], sum(x['step_ms'][2:]))
for k in sorted(t): print(f"{k[0]:5s} 2^{k[1].bit_length()-1} " + ' '.join(f"{v} {a:.3f} (h {h:.3f} p {p:.3f})" for v, (a, h, p) in sorted(t[k].items())))
PY
cd $OUT && tar czf ab.tgz ab && rm -r ab
