#!/usr/bin/env bash
# A/B after the scan fix (new = main's working tree): lookback batch 2 and 3 (b2, b3), the count zeroing unrolled (zu), and bb79d66 (base).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
cp .dev/sortlab-bench .dev/exp/bench-new
mkdir -p $OUT/ab
for v in new b2 b3 zu; do echo "$v $(SORTLAB_PIPELINE_STATS=1 timeout 30 .dev/exp/bench-$v --algo onesweep --type u32 --n 2^24 --reps 1 2>&1 | grep 'onesweep_pass.k1.v0:' | sed 's/Binary Size=[0-9]* Stack Size=0 //')"; done
for r in 1 2; do for v in base new b2 b3 zu; do X="timeout 40 .dev/exp/bench-$v"
  $X --algo onesweep --n 2^22,2^26,2^28 --reps 5 --quiet --json $OUT/ab/u32_${v}_$r.json
  $X --algo onesweep --type u64 --n 2^27 --reps 5 --quiet --json $OUT/ab/u64_${v}_$r.json
done; done
for v in base new; do timeout 40 .dev/exp/bench-$v --algo onesweep --values u32 --n 2^28 --reps 5 --quiet --json $OUT/ab/kv_${v}_1.json; done
timeout 60 .dev/exp/bench-b3 --algo onesweep,onesweep-fallback --type u32,u64 --n 1000003,2^24 --reps 1 --check --quiet > $OUT/check.txt 2>&1; echo "check b3 rc $?"
timeout 60 .dev/exp/bench-b2 --algo onesweep,onesweep-fallback --type u32,u64 --n 1000003,2^24 --reps 1 --check --quiet > $OUT/check2.txt 2>&1; echo "check b2 rc $?"
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[(kind, x['n'])][f"{v}_{r}"] = x['median_ms']
for k in sorted(t): print(f"{k[0]:5s} 2^{k[1].bit_length()-1} " + ' '.join(f"{v} {t[k][v]:.4f}" for v in sorted(t[k])))
PY
cd $OUT && tar czf ab.tgz ab && rm -r ab
