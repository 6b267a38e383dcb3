#!/usr/bin/env bash
# A/B at small and middle sizes: the persistent kernel (bd7da67) against the one before (082e302).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p $OUT/ab
for r in 1 2; do for v in old new; do
  X=.dev/sortlab-bench; [ $v = old ] && X=.dev/exp/bench-old
  $X --algo onesweep --sizes 2^10..2^22 --reps 5 --warmup-ms 200 --quiet --json $OUT/ab/${v}_$r.json
done; done
python3 - <<'PY'
import json, os, glob
out = os.environ['OUT']; t = {}
for f in sorted(glob.glob(out + '/ab/*.json')):
    v = os.path.basename(f)[:-5]
    for r in json.load(open(f)): t.setdefault(r['n'], {})[v] = r['median_ms']
for n in sorted(t):
    print(f"2^{n.bit_length()-1} " + ' '.join(f"{k} {t[n][k]:.4f}" for k in sorted(t[n])))
PY
