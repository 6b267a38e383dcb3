#!/usr/bin/env bash
# 64-bit keys with values staged in halves too (ranked words, other words, values; 512 x 18):
# early values (kv64e), late values (kv64l), late values and persistent with a step every 3
# (kv64lp), against new (fd20d93: whole keys, 384 x 13, early values, one tile per workgroup).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/.dev/libsortlab_cub_anchor.so
mkdir -p $OUT/ab
V="new kv64e kv64l kv64lp"
for v in $V; do echo "$v $(SORTLAB_PIPELINE_STATS=1 timeout 30 .dev/exp/bench-$v --algo onesweep --type u64 --values u32 --n 2^24 --reps 1 2>&1 | grep 'onesweep_pass' | sed 's/.*pass\.//; s/Binary Size=[0-9]* Stack Size=0 //; s/Shared Memory Size=[0-9]*//' | tr '\n' ' ')"; done
for r in 1 2; do for v in $V; do
  timeout 60 .dev/exp/bench-$v --algo onesweep --type u64 --values u32 --n 2^24,2^26,2^27 --reps 5 --quiet --json $OUT/ab/u64kv_${v}_$r.json
done; done
timeout 120 .dev/sortlab-bench --algo onesweep --anchor cub --type u64 --values u32 --n 2^24,2^26,2^27 --reps 5 --check > $OUT/cub_u64kv.txt 2>&1; echo "cub rc $?"; grep -E "^(onesweep|cub) " $OUT/cub_u64kv.txt | awk '{print $1, $6, $7, $8, $NF, $(NF-1), $(NF-2)}'
for v in kv64e kv64l kv64lp; do timeout 100 .dev/exp/bench-$v --algo onesweep,onesweep-fallback --type u64,i64,f64 --values u32 --order asc,desc --n 1000003,16777219 --reps 1 --check --quiet > $OUT/check_$v.txt 2>&1; echo "check $v rc $?"; done
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[(kind, x['n'])].setdefault(v, []).append(x['median_ms'])
for k in sorted(t): print(f"{k[0]:6s} 2^{k[1].bit_length()-1}: " + '  '.join(f"{v} {' '.join(f'{m:.3f}' for m in t[k][v])}" for v in t[k]))
PY
cd $OUT && tar czf ab.tgz ab && rm -r ab
