#!/usr/bin/env bash
# Ranking in groups: the ballots of RANK_GROUP keys, then their atomics, then their shuffles
# (rg2, rg3) against the ranking one key at a time (new = fd20d93).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p $OUT/ab
V="new rg2 rg3"
for v in $V; do echo "$v $(SORTLAB_PIPELINE_STATS=1 timeout 30 .dev/exp/bench-$v --algo onesweep --type u32,u64 --values none,u32 --n 2^24 --reps 1 2>&1 | grep 'onesweep_pass' | sed 's/.*pass\.//; s/Binary Size=[0-9]* Stack Size=0 //; s/Local Memory Size=68719476736//; s/Shared Memory Size=[0-9]*//' | tr '\n' ' ')"; done
for r in 1 2; do for v in $V; do X="timeout 60 .dev/exp/bench-$v"
  $X --algo onesweep --n 2^26,2^28 --reps 5 --quiet --json $OUT/ab/u32_${v}_$r.json
  $X --algo onesweep --values u32 --n 2^28 --reps 5 --quiet --json $OUT/ab/kv_${v}_$r.json
  $X --algo onesweep --type u64 --n 2^27 --reps 5 --quiet --json $OUT/ab/u64_${v}_$r.json
  $X --algo onesweep --type u64 --values u32 --n 2^26 --reps 5 --quiet --json $OUT/ab/u64kv_${v}_$r.json
done; done
for v in rg2 rg3; do timeout 100 .dev/exp/bench-$v --algo onesweep,onesweep-fallback --type u32,u64,f64 --values none,u32 --order asc,desc --n 1000003,16777219 --reps 1 --check --quiet > $OUT/check_$v.txt 2>&1; echo "check $v rc $?"; done
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[(kind, x['n'])].setdefault(v, []).append(x['median_ms'])
for k in sorted(t): print(f"{k[0]:6s} 2^{k[1].bit_length()-1}: " + '  '.join(f"{v} {' '.join(f'{m:.3f}' for m in t[k][v])}" for v in t[k]))
PY
cd $OUT && tar czf ab.tgz ab && rm -r ab
