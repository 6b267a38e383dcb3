#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/.dev/libsortlab_cub_anchor.so
B=.dev/exp/bench-S; mkdir -p $OUT/r
k() { local name=$1; shift
  env "$@" SORTLAB_PIPELINE_STATS=1 $B --algo onesweep --reps 1 --quiet --n 8192 $ARGS 2>&1 | grep "onesweep_pass" | sed "s/Binary Size.*Shared/Shared/;s/^/$name /" >> $OUT/regs.txt
  env "$@" $B --algo onesweep --reps 5 --quiet --json $OUT/r/$name.json $ARGS --n $N || echo "$name failed"; }
ARGS="--type u32"; N=2^28
k base X=0
k P_LBR3 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=3
k P_LBR2 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=2
k P_LBR4 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=4
k P_LBR6 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=6
k P_LBR9 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=9
k P264_LBR3 SORTLAB_OS_PERSIST=264 SORTLAB_OS_LBR=3
k P132_LBR3 SORTLAB_OS_PERSIST=132 SORTLAB_OS_LBR=3
k P8192_LBR3 SORTLAB_OS_PERSIST=8192 SORTLAB_OS_LBR=3
k P640_LBR3 SORTLAB_OS_WG=640 SORTLAB_OS_KPT=14 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=3
k P640_LBR2 SORTLAB_OS_WG=640 SORTLAB_OS_KPT=14 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=2
k P_LBR3_b SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=3
ARGS="--type u32 --values u32"
k kv_base X=0
k kv_P_LBR3 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=3
k kv_P_LBR6 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=6
k kv_P X=0 SORTLAB_OS_PERSIST=2048
ARGS="--type u64"; N=2^27
k u64_base X=0
k u64_P_LBR3 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=3
k u64_P_LBR2 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=2
k u64_LBR3 SORTLAB_OS_LBR=3
ARGS="--type u32"
for n in 2^20 2^24; do N=$n; k base_$n X=0; k P_LBR3_$n SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=3; done
python3 - <<'PY'
import os, json, glob
out=os.environ['OUT']
for f in sorted(glob.glob(out + '/r/*.json')):
    for r in json.load(open(f)):
        name = os.path.basename(f)[:-5]
        steps = [s['median_ms'] for s in r['step_ms']]
        print(f"{name:12s} 2^{r['n'].bit_length()-1} {r['median_ms']:7.3f} ms hist {steps[0]:.3f} pass {sum(steps[2:])/len(steps[2:]):.3f}")
PY
cut -c1-110 $OUT/regs.txt
tar czf $OUT/r.tgz -C $OUT r && rm -r $OUT/r
