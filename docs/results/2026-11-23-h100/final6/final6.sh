#!/usr/bin/env bash
# The half-staged 64-bit key kernel as shipped: registers, an A/B against the kernel before
# (bench-base, 705e6f7), then 64-bit keys beside CUB with checks, every 64-bit kind at 2^26.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/.dev/libsortlab_cub_anchor.so
B=.dev/sortlab-bench
SORTLAB_PIPELINE_STATS=1 timeout 60 $B --algo onesweep --type u32,u64 --values none,u32 --n 2^24 --reps 1 2>&1 | grep 'onesweep_pass' | sed 's/Binary Size=[0-9]* Stack Size=0 //' > $OUT/registers.txt; cat $OUT/registers.txt
mkdir -p $OUT/ab
for r in 1 2; do for v in base new; do X=$B; [ $v = base ] && X=.dev/exp/bench-base
  timeout 60 $X --algo onesweep --type u64 --n 2^24,2^26,2^27 --reps 5 --quiet --json $OUT/ab/u64_${v}_$r.json; done; done
timeout 200 $B --algo onesweep,onesweep-fallback --anchor cub --type u64 --n 2^20,2^24,2^26,2^27 --reps 5 --check --json $OUT/onesweep_u64.json > $OUT/onesweep_u64.txt 2>&1; echo "u64 rc $?"
timeout 200 $B --algo onesweep --anchor cub --type u64,i64,f64 --order asc,desc --n 2^26 --reps 5 --check --json $OUT/onesweep_kinds64.json > $OUT/onesweep_kinds64.txt 2>&1; echo "kinds rc $?"
timeout 100 $B --algo onesweep,onesweep-fallback --type u64,i64,f64 --order asc,desc --n 1000003,16777219 --reps 1 --check > $OUT/onesweep_odd.txt 2>&1; echo "odd rc $?"; grep checks: $OUT/onesweep_odd.txt
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[x['n']].setdefault(v, []).append(x['median_ms'])
for n in sorted(t): print(f"A/B 2^{n.bit_length()-1}: " + '  '.join(f"{v} {' '.join(f'{m:.3f}' for m in t[n][v])}" for v in t[n]))
for f in ('onesweep_u64.json', 'onesweep_kinds64.json'):
    for r in json.load(open(f'{out}/{f}')):
        steps = ' '.join(f"{s['median_ms']:.3f}" for s in r['step_ms'])
        c = r.get('speedup_vs_cub')
        print(f"{r['algo']:17s} {r['type']} {r['order']} 2^{r['n'].bit_length()-1} {r['median_ms']:8.3f} ms {r['gkeys_per_s']:6.2f} Gk/s x cub {'-' if c is None else f'{c:.3f}'} {r['check']} fb {r.get('fallbacks_last_pass', '-')} steps {steps}")
PY
cd $OUT && tar czf results.tgz ab *.json *.txt && rm -r ab *.json
