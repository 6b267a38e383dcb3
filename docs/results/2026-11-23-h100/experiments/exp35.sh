#!/usr/bin/env bash
# The lookback stride after 4be6cf9: new (32-bit keys 3, 64-bit keys 2) against s2, s4 (32-bit 2, 4) and u3 (64-bit 3).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
cp .dev/sortlab-bench .dev/exp/bench-new
mkdir -p $OUT/ab
for r in 1 2; do
  for v in new s2 s4; do timeout 40 .dev/exp/bench-$v --algo onesweep --n 2^26,2^28 --reps 5 --quiet --json $OUT/ab/u32_${v}_$r.json; done
  for v in new u3; do timeout 40 .dev/exp/bench-$v --algo onesweep --type u64 --n 2^26,2^27 --reps 5 --quiet --json $OUT/ab/u64_${v}_$r.json; done
done
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[(kind, x['n'])][f"{v}_{r}"] = x['median_ms']
for k in sorted(t): print(f"{k[0]:5s} 2^{k[1].bit_length()-1} " + ' '.join(f"{v} {t[k][v]:.4f}" for v in sorted(t[k])))
PY
cd $OUT && tar czf ab.tgz ab && rm -r ab
