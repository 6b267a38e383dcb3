#!/usr/bin/env bash
# A/B: new = deb9188 (persistent workgroups take tiles until none are left), cap = at most 128
# tiles per workgroup (the dispatch starts at least tiles / 128 workgroups); old = 082e302.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p $OUT/ab
for r in 1 2; do for v in new cap old; do X=.dev/exp/bench-$v
  $X --algo onesweep --n 2^24,2^26,2^28 --reps 5 --quiet --json $OUT/ab/u32_${v}_$r.json
  $X --algo onesweep --type u64 --n 2^27 --reps 5 --quiet --json $OUT/ab/u64_${v}_$r.json
done; done
.dev/exp/bench-cap --algo onesweep,onesweep-fallback --type u32,u64,i32,f32 --order asc,desc --values none,u32 --n 1000003,2^24,2^26 --reps 1 --check --quiet > $OUT/check.txt 2>&1; echo "check cap rc $?"
.dev/exp/bench-cap --algo onesweep,onesweep-fallback --n 2^28 --reps 1 --check --quiet >> $OUT/check.txt 2>&1; echo "check cap 2^28 rc $?"
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[(kind, x['n'])][f"{v}_{r}"] = x['median_ms']
for k in sorted(t): print(f"{k[0]} 2^{k[1].bit_length()-1} " + ' '.join(f"{v} {t[k][v]:.3f}" for v in sorted(t[k])))
PY
cd $OUT && tar czf ab.tgz ab && rm -r ab
