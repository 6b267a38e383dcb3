#!/usr/bin/env bash
# A/B: new (4be6cf9) against take (the id of the round after next taken after the ranking).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
cp .dev/sortlab-bench .dev/exp/bench-new
mkdir -p $OUT/ab
for r in 1 2 3; do for v in new take; do X="timeout 40 .dev/exp/bench-$v"
  $X --algo onesweep --n 2^24,2^26,2^28 --reps 5 --quiet --json $OUT/ab/u32_${v}_$r.json
  $X --algo onesweep --type u64 --n 2^27 --reps 5 --quiet --json $OUT/ab/u64_${v}_$r.json
done; done
timeout 60 .dev/exp/bench-take --algo onesweep,onesweep-fallback --type u32,u64 --n 1000003,2^24 --reps 1 --check --quiet > $OUT/check.txt 2>&1; echo "check take rc $?"
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[(kind, x['n'])][f"{v}_{r}"] = x['median_ms']
for k in sorted(t): print(f"{k[0]:5s} 2^{k[1].bit_length()-1} " + ' '.join(f"{v} {t[k][v]:.4f}" for v in sorted(t[k])))
PY
cd $OUT && tar czf ab.tgz ab && rm -r ab
