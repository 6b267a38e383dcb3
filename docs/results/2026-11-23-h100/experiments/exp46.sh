#!/usr/bin/env bash
# 64-bit keys after a050ca5: u64 keys one tile per workgroup (np), that with a lookback step every 3
# (nps3), and u64/u32 pairs with a lookback step every 3 (kvs3), against the shipped tuning (new).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p $OUT/ab
for r in 1 2; do
  for v in new np nps3; do timeout 60 .dev/exp/bench-$v --algo onesweep --type u64 --n 2^24,2^26,2^27 --reps 5 --quiet --json $OUT/ab/u64_${v}_$r.json; done
  for v in new kvs3; do timeout 60 .dev/exp/bench-$v --algo onesweep --type u64 --values u32 --n 2^24,2^26,2^27 --reps 5 --quiet --json $OUT/ab/u64kv_${v}_$r.json; done
done
timeout 60 .dev/exp/bench-kvs3 --algo onesweep,onesweep-fallback --type u64,f64 --values u32 --order asc,desc --n 1000003,16777219 --reps 1 --check --quiet > $OUT/check.txt 2>&1; echo "check kvs3 rc $?"
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[(kind, x['n'])].setdefault(v, []).append(x['median_ms'])
for k in sorted(t): print(f"{k[0]:6s} 2^{k[1].bit_length()-1}: " + '  '.join(f"{v} {' '.join(f'{m:.3f}' for m in t[k][v])}" for v in t[k]))
PY
cd $OUT && tar czf ab.tgz ab && rm -r ab
