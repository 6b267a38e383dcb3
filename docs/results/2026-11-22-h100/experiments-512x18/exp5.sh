#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
B=.dev/exp/bench-G; mkdir -p $OUT/r
k() { local name=$1 wg=$2 kpt=$3 ty=$4 va=$5; shift 5
  SORTLAB_OS_WG=$wg SORTLAB_OS_KPT=$kpt SORTLAB_PIPELINE_STATS=1 $B --algo onesweep --reps 1 --type $ty --values $va --n 8192 2>&1 | grep "onesweep_pass" | sed "s/Binary Size.*Shared/Shared/;s/^/$name /" >> $OUT/regs.txt
  SORTLAB_OS_WG=$wg SORTLAB_OS_KPT=$kpt $B --algo onesweep --reps 5 --quiet --json $OUT/r/$name.json --type $ty --values $va "$@" || echo "$name failed"; }
for c in 512x18 512x19 448x22 384x26; do k u32_$c ${c%x*} ${c#*x} u32 none --n 2^26,2^28; done
for c in 512x18 512x19 448x22; do k kv_$c ${c%x*} ${c#*x} u32 u32 --n 2^28; done
for c in 384x13 320x16 256x20 448x11; do k u64_$c ${c%x*} ${c#*x} u64 none --n 2^27; done
SORTLAB_OS_WG=512 SORTLAB_OS_KPT=19 $B --algo onesweep,onesweep-fallback --values none,u32 --n 1000003,2^26 --reps 1 --check --quiet > $OUT/check19.txt 2>&1; echo "check19 rc $?"
python3 - <<'PY'
import json, glob, os
out = os.environ['OUT']
for f in sorted(glob.glob(out + '/r/*.json')):
    for r in json.load(open(f)):
        steps = [s['median_ms'] for s in r['step_ms']]
        print(f"{os.path.basename(f)[:-5]:12s} 2^{r['n'].bit_length()-1} {r['median_ms']:7.3f} ms pass {sum(steps[2:])/len(steps[2:]):.3f}")
PY
cat $OUT/regs.txt
tar czf $OUT/r.tgz -C $OUT r && rm -r $OUT/r
