#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
B=.dev/exp/bench-F; mkdir -p $OUT/r
k() { local name=$1 wg=$2 kpt=$3; shift 3
  SORTLAB_OS_WG=$wg SORTLAB_OS_KPT=$kpt SORTLAB_PIPELINE_STATS=1 $B --algo onesweep --reps 1 --quiet "$@" --n 8192 2>&1 | grep "onesweep_pass" | sed "s/Binary Size.*Shared/Shared/;s/^/$name /" >> $OUT/regs.txt
  SORTLAB_OS_WG=$wg SORTLAB_OS_KPT=$kpt $B --algo onesweep --reps 5 --quiet --json $OUT/r/$name.json "$@" || echo "$name failed"; }
for c in 512x16 512x17 512x18; do k u32_$c ${c%x*} ${c#*x} --n 2^26,2^28; done
for c in 512x16 512x17 512x18; do k kv_$c ${c%x*} ${c#*x} --n 2^28 --values u32; done
for c in 512x8 512x9 384x12 384x13 448x11; do k u64_$c ${c%x*} ${c#*x} --n 2^27 --type u64; done
SORTLAB_OS_WG=512 SORTLAB_OS_KPT=18 $B --algo onesweep,onesweep-fallback --values none,u32 --n 1000003,2^26 --reps 1 --check --quiet > $OUT/check18.txt 2>&1; echo "check18 rc $?"
SORTLAB_OS_WG=384 SORTLAB_OS_KPT=13 $B --algo onesweep,onesweep-fallback --type u64 --values none,u32 --n 1000003,2^25 --reps 1 --check --quiet > $OUT/check13.txt 2>&1; echo "check13 rc $?"
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
