#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p $OUT/ab
for v in base w5 w5nw cnoloop; do echo "$v: $(SORTLAB_PIPELINE_STATS=1 timeout 30 .dev/exp/bench-$v --algo onesweep --type u32 --n 2^24 --reps 1 2>&1 | grep 'onesweep_pass.k1.v0' | head -1)"; done
for v in base w5nw cnoloop; do X="timeout 40 .dev/exp/bench-$v"
  $X --algo onesweep --n 2^20,2^22,2^24,2^28 --reps 5 --quiet --json $OUT/ab/u32_${v}_1.json
done
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[(kind, x['n'])][f"{v}_{r}"] = x['median_ms']
for k in sorted(t): print(f"{k[0]:5s} 2^{k[1].bit_length()-1} " + ' '.join(f"{v} {t[k][v]:.4f}" for v in sorted(t[k])))
PY
