#!/usr/bin/env bash
# Word passes (64-bit keys-only sorts on the 32-bit key-value pass kernel, 512 x 18, persistent,
# stride 3) against 705e6f7 (base).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p $OUT/ab
for v in base words; do echo "$v $(SORTLAB_PIPELINE_STATS=1 timeout 30 .dev/exp/bench-$v --algo onesweep --type u64 --n 2^24 --reps 1 2>&1 | grep 'onesweep_pass' | sed 's/Binary Size=[0-9]* Stack Size=0 //' | tr '\n' ' ')"; done
for r in 1 2; do for v in base words; do X="timeout 60 .dev/exp/bench-$v"
  $X --algo onesweep --type u64 --n 2^20,2^24,2^26,2^27 --reps 5 --quiet --json $OUT/ab/u64_${v}_$r.json
  $X --algo onesweep --type i64 --order desc --n 2^26 --reps 5 --quiet --json $OUT/ab/i64d_${v}_$r.json
done; done
timeout 150 .dev/exp/bench-words --algo onesweep,onesweep-fallback --type u64,i64,f64 --order asc,desc --n 1000003,2^24+3 --reps 1 --check --quiet > $OUT/check.txt 2>&1; echo "check words rc $?"
timeout 100 .dev/exp/bench-words --algo onesweep --type u64 --n 2^27 --reps 1 --check --quiet > $OUT/check27.txt 2>&1; echo "check words 2^27 rc $?"
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[(kind, x['n'])][f"{v}_{r}"] = x['median_ms']
for k in sorted(t): print(f"{k[0]:5s} 2^{k[1].bit_length()-1} " + ' '.join(f"{v} {t[k][v]:.4f}" for v in sorted(t[k])))
PY
cd $OUT && tar czf ab.tgz ab && rm -r ab
