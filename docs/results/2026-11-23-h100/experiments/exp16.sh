#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
B=.dev/exp/bench-S; mkdir -p $OUT/r
p() { local name=$1; shift
  env "$@" SORTLAB_OS_PROF=1 $B --algo onesweep --reps 3 --quiet $ARGS --n $N 2>&1 | grep -E "^prof" | tr '\n' ' ' | sed "s/^/$name /" >> $OUT/prof.txt; echo >> $OUT/prof.txt; }
k() { local name=$1; shift
  env "$@" SORTLAB_PIPELINE_STATS=1 $B --algo onesweep --reps 1 --quiet --n 8192 $ARGS 2>&1 | grep "onesweep_pass" | sed "s/Binary Size.*Shared/Shared/;s/^/$name /" >> $OUT/regs.txt
  env "$@" $B --algo onesweep --reps 5 --quiet --json $OUT/r/$name.json $ARGS --n $N || echo "$name failed"; }
ARGS="--type u32"; N=2^28
p base X=0; p LBR3 SORTLAB_OS_LBR=3; p LBR2 SORTLAB_OS_LBR=2; p LBR6 SORTLAB_OS_LBR=6; p P SORTLAB_OS_PERSIST=2048; p P_LBR3 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=3
k base X=0
k LBR2 SORTLAB_OS_LBR=2
k LBR3 SORTLAB_OS_LBR=3
k LBR4 SORTLAB_OS_LBR=4
k LBR6 SORTLAB_OS_LBR=6
k P_LBR3 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=3
k 640_LBR3 SORTLAB_OS_WG=640 SORTLAB_OS_KPT=14 SORTLAB_OS_LBR=3
k base_b X=0
ARGS="--type u32 --values u32"
k kv_base X=0
k kv_LBR3 SORTLAB_OS_LBR=3
ARGS="--type u64"; N=2^27
k u64_base X=0
k u64_LBR3 SORTLAB_OS_LBR=3
k u64_LBR2 SORTLAB_OS_LBR=2
SORTLAB_OS_LBR=3 $B --algo onesweep,onesweep-fallback --type u32,u64 --values none,u32 --n 1000003,2^25 --reps 1 --check --quiet > $OUT/checkL.txt 2>&1; echo "check LBR3 rc $?"
SORTLAB_OS_LBR=3 SORTLAB_OS_PERSIST=2048 $B --algo onesweep,onesweep-fallback --type u32,i32,f32 --order asc,desc --values none,u32 --n 1000003 --reps 1 --check --quiet > $OUT/checkPL.txt 2>&1; echo "check P LBR3 rc $?"
python3 - <<'PY'
import os, json, glob
out=os.environ['OUT']
names=['gap','atomic','load+count','scan','rank','lookback+wait','writeout','looptop']
for line in open(out+'/prof.txt'):
    parts=line.split()
    if 'prof' not in parts: continue
    i=parts.index('prof'); v=[int(x) for x in parts[i+1:i+10]]
    tiles=v[8] or 1
    cyc=[x*16/tiles for x in v[0:8]]
    print(f"{parts[0]:8s} " + " ".join(f"{n} {c:5.0f}" for n,c in zip(names,cyc)) + f" | sum {sum(cyc):6.0f}")
for f in sorted(glob.glob(out + '/r/*.json')):
    for r in json.load(open(f)):
        name = os.path.basename(f)[:-5]
        steps = [s['median_ms'] for s in r['step_ms']]
        print(f"{name:12s} 2^{r['n'].bit_length()-1} {r['median_ms']:7.3f} ms hist {steps[0]:.3f} pass {sum(steps[2:])/len(steps[2:]):.3f}")
PY
cut -c1-110 $OUT/regs.txt
tar czf $OUT/r.tgz -C $OUT r && rm -r $OUT/r
