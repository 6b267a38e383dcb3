#!/usr/bin/env bash
# 2026-11-23: the shipped kernel (persistent from 1024 tiles) against the one before at small and
# middle sizes, then the OneSweep sweep beside CUB for docs/benchmarks.md's figure.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/.dev/libsortlab_cub_anchor.so
B=.dev/sortlab-bench; mkdir -p $OUT/ab
for v in old new; do X=$B; [ $v = old ] && X=.dev/exp/bench-old
  $X --algo onesweep --sizes 2^10..2^24 --reps 5 --warmup-ms 200 --quiet --json $OUT/ab/$v.json; done
$B --algo onesweep --anchor cub --sizes 2^10..2^24 --reps 5 --check --warmup-ms 300 --json $OUT/sweep-os-2e10-2e24.json > $OUT/sweep-os1.txt 2>&1; echo "sweep1 rc $?"
$B --algo onesweep --anchor cub --sizes 2^25..2^28 --reps 3 --json $OUT/sweep-os-2e25-2e28.json > $OUT/sweep-os2.txt 2>&1; echo "sweep2 rc $?"
$B --algo onesweep,onesweep-fallback --type u32,u64 --values none,u32 --n 1000003,2^23,2^24 --reps 1 --check --quiet > $OUT/check.txt 2>&1; echo "check rc $?"
python3 - <<'PY'
import json, os
out = os.environ['OUT']; t = {}
for v in ['old', 'new']:
    for r in json.load(open(f"{out}/ab/{v}.json")): t.setdefault(r['n'], {})[v] = r['median_ms']
for n in sorted(t): print(f"ab 2^{n.bit_length()-1} old {t[n]['old']:.4f} new {t[n]['new']:.4f}")
for f in ['sweep-os-2e10-2e24.json', 'sweep-os-2e25-2e28.json']:
    for r in json.load(open(out + '/' + f)):
        if r['algo'] == 'onesweep':
            print(f"sweep 2^{r['n'].bit_length()-1} {r['median_ms']:8.4f} ms x cub {r.get('speedup_vs_cub'):.3f} {r['check']}")
PY
