#!/usr/bin/env bash
# Pairs: new (4be6cf9) against kva (the values loaded after the ranking) and kvb (kva with persistent
# key-value passes and a lookback step every 3 ranking iterations).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
cp .dev/sortlab-bench .dev/exp/bench-new
mkdir -p $OUT/ab
for v in new kva kvb; do echo "$v $(SORTLAB_PIPELINE_STATS=1 timeout 30 .dev/exp/bench-$v --algo onesweep --type u32,u64 --values u32 --n 2^24 --reps 1 2>&1 | grep 'onesweep_pass.k..v1:' | sed 's/Binary Size=[0-9]* Stack Size=0 //' | tr '\n' ' ')"; done
for r in 1 2; do for v in new kva kvb; do X="timeout 40 .dev/exp/bench-$v"
  $X --algo onesweep --values u32 --n 2^24,2^26,2^28 --reps 5 --quiet --json $OUT/ab/kv_${v}_$r.json
  $X --algo onesweep --type u64 --values u32 --n 2^26 --reps 5 --quiet --json $OUT/ab/kv64_${v}_$r.json
done; done
timeout 60 .dev/exp/bench-kvb --algo onesweep,onesweep-fallback --type u32,u64,f32 --values u32 --n 1000003,2^24 --reps 1 --check --quiet > $OUT/check.txt 2>&1; echo "check kvb rc $?"
timeout 30 .dev/exp/bench-kva --algo onesweep,onesweep-fallback --type u32,u64 --values u32 --n 1000003,2^24 --reps 1 --check --quiet > $OUT/check2.txt 2>&1; echo "check kva rc $?"
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[(kind, x['n'])][f"{v}_{r}"] = x['median_ms']
for k in sorted(t): print(f"{k[0]:5s} 2^{k[1].bit_length()-1} " + ' '.join(f"{v} {t[k][v]:.4f}" for v in sorted(t[k])))
PY
cd $OUT && tar czf ab.tgz ab && rm -r ab
