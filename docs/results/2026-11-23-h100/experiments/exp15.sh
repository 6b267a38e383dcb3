#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
B=.dev/exp/bench-R
p() { local name=$1; shift
  env "$@" SORTLAB_OS_PROF=1 $B --algo onesweep --reps 3 --quiet $ARGS --n $N 2>&1 | grep -E "^prof|^onesweep " | tr '\n' ' ' | sed "s/^/$name /" >> $OUT/prof.txt; echo >> $OUT/prof.txt; }
ARGS="--type u32"; N=2^28
p base X=0
p noLB SORTLAB_OS_ABLATE=1
p 640x14 SORTLAB_OS_WG=640 SORTLAB_OS_KPT=14
p 512x12 SORTLAB_OS_KPT=12
p rank2_3 SORTLAB_OS_RANK=2 SORTLAB_OS_RB=3
p fallback X=0 --force-fallback
ARGS="--type u32 --values u32"
p kv X=0
ARGS="--type u64"; N=2^27
p u64 X=0
ARGS="--type u32"; N=2^24
p base_2e24 X=0
python3 - <<'PY'
import os
names=['gap','atomic','load+count','scan','rank(sg0)','lookback+wait','writeout']
for line in open(os.environ['OUT']+'/prof.txt'):
    parts=line.split()
    if 'prof' not in parts: print(line.strip()[:100]); continue
    i=parts.index('prof'); v=[int(x) for x in parts[i+1:i+10]]
    tiles=v[8] or 1
    cyc=[x*16/tiles for x in v[0:7]]
    print(f"{parts[0]:10s} tiles {tiles:6d} " + " ".join(f"{n} {c:6.0f}" for n,c in zip(names,cyc)) + f" | sum {sum(cyc[1:]):6.0f} +gap {sum(cyc):6.0f}")
PY
