#!/usr/bin/env bash
# exp19 again with the small sizes (its --sizes list was refused) and every file kept.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p $OUT/ab
for r in 1 2; do for v in old 97d new; do X=.dev/exp/bench-$v
  $X --algo onesweep --n 2^10,2^16,2^20,2^22,2^24 --reps 5 --warmup-ms 200 --quiet --json $OUT/ab/small_${v}_$r.json
  $X --algo onesweep --n 2^28 --reps 5 --quiet --json $OUT/ab/u32_${v}_$r.json
done; done
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[(kind, x['n'])][f"{v}_{r}"] = x['median_ms']
for k in sorted(t, key=lambda k: k[1]): print(f"2^{k[1].bit_length()-1} " + ' '.join(f"{v} {t[k][v]:.4f}" for v in sorted(t[k])))
PY
cd $OUT && tar czf ab.tgz ab && rm -r ab
