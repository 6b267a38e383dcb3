#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
B=.dev/exp/bench-Q; mkdir -p $OUT/r $OUT/o
o() { local name=$1; shift
  env "$@" SORTLAB_OS_OCC=1 $B --algo onesweep --reps 1 --quiet --json $OUT/o/$name.json $ARGS --n 2^26 >/dev/null 2>&1 || echo "$name occ failed"; }
k() { local name=$1; shift
  o $name "$@"
  env "$@" SORTLAB_PIPELINE_STATS=1 $B --algo onesweep --reps 1 --quiet --n 8192 $ARGS 2>&1 | grep "onesweep_pass" | sed "s/Binary Size.*Shared/Shared/;s/^/$name /" >> $OUT/regs.txt
  env "$@" $B --algo onesweep --reps 5 --quiet --json $OUT/r/$name.json $ARGS --n $N || echo "$name failed"; }
ARGS="--type u32"; N=2^28
k base X=0
k 256x16 SORTLAB_OS_WG=256 SORTLAB_OS_KPT=16
k 256x15 SORTLAB_OS_WG=256 SORTLAB_OS_KPT=15
k 256x17 SORTLAB_OS_WG=256 SORTLAB_OS_KPT=17
k 192x22 SORTLAB_OS_WG=192 SORTLAB_OS_KPT=22
k 192x20 SORTLAB_OS_WG=192 SORTLAB_OS_KPT=20
k 128x20 SORTLAB_OS_WG=128 SORTLAB_OS_KPT=20
k 320x12 SORTLAB_OS_WG=320 SORTLAB_OS_KPT=12
k 1024x7 SORTLAB_OS_WG=1024 SORTLAB_OS_KPT=7
k 256x16P SORTLAB_OS_WG=256 SORTLAB_OS_KPT=16 SORTLAB_OS_PERSIST=2048
k 256x16r3 SORTLAB_OS_WG=256 SORTLAB_OS_KPT=16 SORTLAB_OS_RANK=2 SORTLAB_OS_RB=3
k rank2_2 SORTLAB_OS_RANK=2 SORTLAB_OS_RB=2
ARGS="--type u64"; N=2^27
k u64_base X=0
k u64_256x8 SORTLAB_OS_WG=256 SORTLAB_OS_KPT=8
k u64_192x11 SORTLAB_OS_WG=192 SORTLAB_OS_KPT=11
ARGS="--type u32 --values u32"; N=2^28
k kv_base X=0
k kv_256x16 SORTLAB_OS_WG=256 SORTLAB_OS_KPT=16
python3 - <<'PY'
import json, glob, os
out = os.environ['OUT']
occ = {}
for f in sorted(glob.glob(out + '/o/*.json')):
    for r in json.load(open(f)): occ[os.path.basename(f)[:-5]] = r.get('fallbacks_last_pass')
for f in sorted(glob.glob(out + '/r/*.json')):
    for r in json.load(open(f)):
        name = os.path.basename(f)[:-5]
        steps = [s['median_ms'] for s in r['step_ms']]
        print(f"{name:12s} 2^{r['n'].bit_length()-1} {r['median_ms']:7.3f} ms hist {steps[0]:.3f} pass {sum(steps[2:])/len(steps[2:]):.3f} wg/SM {occ.get(name)}")
PY
cut -c1-120 $OUT/regs.txt
tar czf $OUT/r.tgz -C $OUT r o && rm -r $OUT/r $OUT/o
