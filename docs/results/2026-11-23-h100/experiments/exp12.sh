#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
B=.dev/exp/bench-Q; mkdir -p $OUT/r $OUT/o
o() { local name=$1; shift
  env "$@" SORTLAB_OS_OCC=1 $B --algo onesweep --reps 1 --quiet --json $OUT/o/$name.json $ARGS --n 2^26 >/dev/null 2>&1 || echo "$name occ failed"; }
k() { local name=$1; shift
  env "$@" SORTLAB_PIPELINE_STATS=1 $B --algo onesweep --reps 1 --quiet --n 8192 $ARGS 2>&1 | grep "onesweep_pass" | sed "s/Binary Size.*Shared/Shared/;s/^/$name /" >> $OUT/regs.txt
  env "$@" $B --algo onesweep --reps 5 --quiet --json $OUT/r/$name.json $ARGS --n $N || echo "$name failed"; }
ARGS="--type u32"
o base X=0; o 384x20 SORTLAB_OS_WG=384 SORTLAB_OS_KPT=20; o 256x24 SORTLAB_OS_WG=256 SORTLAB_OS_KPT=24; o 256x18 SORTLAB_OS_WG=256 SORTLAB_OS_KPT=18
o 128x18 SORTLAB_OS_WG=128 SORTLAB_OS_KPT=18; o 384x12 SORTLAB_OS_WG=384 SORTLAB_OS_KPT=12
ARGS="--type u32 --values u32"; o kv X=0
ARGS="--type u64"; o u64 X=0
ARGS="--type u32"; N=2^28
k base X=0
k rank1 SORTLAB_OS_RANK=1
k rank2_6 SORTLAB_OS_RANK=2 SORTLAB_OS_RB=6
k rank2_9 SORTLAB_OS_RANK=2 SORTLAB_OS_RB=9
k rank2_3 SORTLAB_OS_RANK=2 SORTLAB_OS_RB=3
k rank2_18 SORTLAB_OS_RANK=2 SORTLAB_OS_RB=18
k base_b X=0
k 384x12 SORTLAB_OS_WG=384 SORTLAB_OS_KPT=12
k 384x12r1 SORTLAB_OS_WG=384 SORTLAB_OS_KPT=12 SORTLAB_OS_RANK=1
ARGS="--type u32 --values u32"
k kv_base X=0
k kv_rank1 SORTLAB_OS_RANK=1
k kv_rank2_6 SORTLAB_OS_RANK=2 SORTLAB_OS_RB=6
ARGS="--type u64"; N=2^27
k u64_base X=0
k u64_rank1 SORTLAB_OS_RANK=1
k u64_rank2_6 SORTLAB_OS_RANK=2 SORTLAB_OS_RB=6
for r in 1 2; do SORTLAB_OS_RANK=$r $B --algo onesweep,onesweep-fallback --type u32,u64 --values none,u32 --n 1000003,2^25 --reps 1 --check --quiet > $OUT/check$r.txt 2>&1; echo "check rank$r rc $?"; done
python3 - <<'PY'
import json, glob, os
out = os.environ['OUT']
for f in sorted(glob.glob(out + '/o/*.json')):
    for r in json.load(open(f)):
        print(f"occ {os.path.basename(f)[:-5]:10s} max workgroups per SM {r.get('fallbacks_last_pass')}")
for f in sorted(glob.glob(out + '/r/*.json')):
    for r in json.load(open(f)):
        steps = [s['median_ms'] for s in r['step_ms']]
        print(f"{os.path.basename(f)[:-5]:12s} 2^{r['n'].bit_length()-1} {r['median_ms']:7.3f} ms hist {steps[0]:.3f} pass {sum(steps[2:])/len(steps[2:]):.3f} fb {r.get('fallbacks_last_pass')}")
PY
cut -c1-120 $OUT/regs.txt
tar czf $OUT/r.tgz -C $OUT r o && rm -r $OUT/r $OUT/o
