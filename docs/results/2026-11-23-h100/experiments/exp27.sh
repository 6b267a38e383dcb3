#!/usr/bin/env bash
# Walker with the single re-read fixed and no fallback in practice (w5), and its ceiling without lookback (w5nw, wrong results).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p $OUT/ab
SORTLAB_PIPELINE_STATS=1 timeout 30 .dev/exp/bench-w5 --algo onesweep --type u32 --n 2^24 --reps 1 2>&1 | grep onesweep_pass | head -2
for r in 1 2; do for v in base w5 w5nw; do X="timeout 40 .dev/exp/bench-$v"
  $X --algo onesweep --n 2^20,2^24,2^28 --reps 5 --quiet --json $OUT/ab/u32_${v}_$r.json
  $X --algo onesweep --type u64 --n 2^27 --reps 5 --quiet --json $OUT/ab/u64_${v}_$r.json
done; done
timeout 60 .dev/exp/bench-w5 --algo onesweep --values u32 --n 2^28 --reps 5 --quiet --json $OUT/ab/kv_w5_1.json
timeout 60 .dev/exp/bench-w5 --algo onesweep --type u32,u64 --n 1000003,2^24 --reps 1 --check --quiet > $OUT/check.txt 2>&1; echo "check rc $?"; tail -2 $OUT/check.txt
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[(kind, x['n'])][f"{v}_{r}"] = x['median_ms']
for k in sorted(t): print(f"{k[0]:5s} 2^{k[1].bit_length()-1} " + ' '.join(f"{v} {t[k][v]:.4f}" for v in sorted(t[k])))
PY
cd $OUT && tar czf ab.tgz ab && rm -r ab
