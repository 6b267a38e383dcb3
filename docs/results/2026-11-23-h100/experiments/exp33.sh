#!/usr/bin/env bash
# A/B: new (4be6cf9) against carry (counts carried over the round: no barrier at the end of a round).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
cp .dev/sortlab-bench .dev/exp/bench-new
mkdir -p $OUT/ab
echo "carry $(SORTLAB_PIPELINE_STATS=1 timeout 30 .dev/exp/bench-carry --algo onesweep --type u32 --n 2^24 --reps 1 2>&1 | grep 'onesweep_pass.k1.v0:' | sed 's/Binary Size=[0-9]* Stack Size=0 //')"
for r in 1 2 3; do for v in new carry; do X="timeout 40 .dev/exp/bench-$v"
  $X --algo onesweep --n 2^24,2^26,2^28 --reps 5 --quiet --json $OUT/ab/u32_${v}_$r.json
  $X --algo onesweep --type u64 --n 2^27 --reps 5 --quiet --json $OUT/ab/u64_${v}_$r.json
done; done
timeout 90 .dev/exp/bench-carry --algo onesweep,onesweep-fallback --type u32,u64,f32 --order asc,desc --n 1000003,2^24 --reps 1 --check --quiet > $OUT/check.txt 2>&1; echo "check carry rc $?"
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[(kind, x['n'])][f"{v}_{r}"] = x['median_ms']
for k in sorted(t): print(f"{k[0]:5s} 2^{k[1].bit_length()-1} " + ' '.join(f"{v} {t[k][v]:.4f}" for v in sorted(t[k])))
PY
cd $OUT && tar czf ab.tgz ab && rm -r ab
