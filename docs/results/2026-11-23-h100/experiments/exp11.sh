#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/.dev/libsortlab_cub_anchor.so
B=.dev/exp/bench-P; mkdir -p $OUT/r
export PATH=$PATH:/usr/local/cuda/bin
(cuobjdump -res-usage .dev/libsortlab_cub_anchor.so 2>&1 | grep -A1 -i "onesweep\|Histogram\|ExclusiveSum" | c++filt | cut -c1-400) > $OUT/cub_res.txt 2>&1
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv > $OUT/gpu.txt 2>&1
k() { local name=$1; shift
  env "$@" SORTLAB_PIPELINE_STATS=1 $B --algo onesweep --reps 1 --quiet --n 8192 $ARGS 2>&1 | grep "onesweep_pass" | sed "s/Binary Size.*Shared/Shared/;s/^/$name /" >> $OUT/regs.txt
  env "$@" $B --algo onesweep --reps 5 --quiet --json $OUT/r/$name.json $ARGS --n $N || echo "$name failed"; }
ARGS="--type u32"; N=2^28
k base X=0
k noLB SORTLAB_OS_ABLATE=1
k copy SORTLAB_OS_ABLATE=2
k P132 SORTLAB_OS_PERSIST=132
k P264 SORTLAB_OS_PERSIST=264
k P1024 SORTLAB_OS_PERSIST=1024
k base_b X=0
k 384x20 SORTLAB_OS_WG=384 SORTLAB_OS_KPT=20
k 384x20P SORTLAB_OS_WG=384 SORTLAB_OS_KPT=20 SORTLAB_OS_PERSIST=1024
k 256x18 SORTLAB_OS_WG=256 SORTLAB_OS_KPT=18
k 256x24 SORTLAB_OS_WG=256 SORTLAB_OS_KPT=24
k 256x24P SORTLAB_OS_WG=256 SORTLAB_OS_KPT=24 SORTLAB_OS_PERSIST=1024
k P264_b SORTLAB_OS_PERSIST=264
ARGS="--type u32 --values u32"; N=2^28
k kv_base X=0
k kv_P264 SORTLAB_OS_PERSIST=264
ARGS="--type u64"; N=2^27
k u64_base X=0
k u64_P264 SORTLAB_OS_PERSIST=264
$B --algo onesweep --anchor cub --n 2^28 --reps 5 --quiet > $OUT/cub.txt 2>&1
SORTLAB_OS_PERSIST=264 $B --algo onesweep,onesweep-fallback --type u32,u64 --values none,u32 --n 1000003,2^25 --reps 1 --check --quiet > $OUT/checkP.txt 2>&1; echo "checkP rc $?"
python3 - <<'PY'
import json, glob, os
out = os.environ['OUT']
for f in sorted(glob.glob(out + '/r/*.json')):
    for r in json.load(open(f)):
        steps = [s['median_ms'] for s in r['step_ms']]
        print(f"{os.path.basename(f)[:-5]:12s} 2^{r['n'].bit_length()-1} {r['median_ms']:7.3f} ms hist {steps[0]:.3f} pass {sum(steps[2:])/len(steps[2:]):.3f} fb {r.get('fallbacks_last_pass')}")
PY
cat $OUT/regs.txt | cut -c1-200; cat $OUT/cub_res.txt | head -20; grep -E "onesweep|cub" $OUT/cub.txt; tail -1 $OUT/checkP.txt
tar czf $OUT/r.tgz -C $OUT r && rm -r $OUT/r
