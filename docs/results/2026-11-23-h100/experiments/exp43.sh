#!/usr/bin/env bash
# Half-staged 64-bit keys (the digit's order-bits word, then the other word, 4 bytes a key in shared
# memory; keys loaded and written whole) against 08e2b30 (base), over workgroup x keys per lane x stride.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p $OUT/ab
V="512:14:2 512:14:3 512:12:2 512:16:2 512:16:3 448:16:2 384:18:3 512:18:3"
for v in $V; do IFS=: read W K S <<< "$v"; echo "$v $(SORTLAB_X_WG=$W SORTLAB_X_KPT=$K SORTLAB_X_STRIDE=$S SORTLAB_PIPELINE_STATS=1 timeout 30 .dev/exp/bench-half --algo onesweep --type u64 --n 2^24 --reps 1 2>&1 | grep 'onesweep_pass' | sed 's/Binary Size=[0-9]* Stack Size=0 //' | tr '\n' ' ')"; done
for r in 1 2; do
  timeout 60 .dev/exp/bench-base --algo onesweep --type u64 --n 2^24,2^26,2^27 --reps 5 --quiet --json $OUT/ab/u64_base_$r.json
  for v in $V; do IFS=: read W K S <<< "$v"
    SORTLAB_X_WG=$W SORTLAB_X_KPT=$K SORTLAB_X_STRIDE=$S timeout 60 .dev/exp/bench-half --algo onesweep --type u64 --n 2^24,2^26,2^27 --reps 5 --quiet --json $OUT/ab/u64_h${W}x${K}s${S}_$r.json
  done
done
SORTLAB_X_WG=512 SORTLAB_X_KPT=14 SORTLAB_X_STRIDE=2 timeout 150 .dev/exp/bench-half --algo onesweep,onesweep-fallback --type u64,i64,f64 --order asc,desc --n 1000003,16777219 --reps 1 --check --quiet > $OUT/check.txt 2>&1; echo "check half rc $?"
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[x['n']].setdefault(v, []).append(x['median_ms'])
for n in sorted(t):
    print(f"2^{n.bit_length()-1}: " + '  '.join(f"{v} {' '.join(f'{m:.3f}' for m in t[n][v])}" for v in sorted(t[n], key=lambda v: min(t[n][v]))))
PY
cd $OUT && tar czf ab.tgz ab && rm -r ab
