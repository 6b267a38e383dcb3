#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
B=.dev/exp/bench-E; mkdir -p $OUT/r
k() { local name=$1 wg=$2 kpt=$3; shift 3
  SORTLAB_OS_WG=$wg SORTLAB_OS_KPT=$kpt SORTLAB_PIPELINE_STATS=1 $B --algo onesweep --n 4096 --reps 1 --quiet "$@" 2>&1 | grep "onesweep_pass" | sed "s/Binary Size.*Shared/Shared/;s/^/$name /"
  SORTLAB_OS_WG=$wg SORTLAB_OS_KPT=$kpt $B --algo onesweep --reps 5 --quiet --json $OUT/r/$name.json "$@" || echo "$name failed"; }
for c in 512x16 512x17 448x18 448x20 384x20 384x22 384x24 320x28 256x32 256x36; do k u32_$c ${c%x*} ${c#*x} --n 2^26,2^28; done
for c in 512x16 512x17 448x20 384x20 384x24; do k kv_$c ${c%x*} ${c#*x} --n 2^28 --values u32; done
for c in 512x8 448x10 384x10 384x12 256x18; do k u64_$c ${c%x*} ${c#*x} --n 2^27 --type u64; done
python3 - <<'PY'
import json, glob, os
out = os.environ['OUT']
for f in sorted(glob.glob(out + '/r/*.json')):
    for r in json.load(open(f)):
        steps = [s['median_ms'] for s in r['step_ms']]
        print(f"{os.path.basename(f)[:-5]:12s} 2^{r['n'].bit_length()-1} {r['median_ms']:7.3f} ms pass {sum(steps[2:])/len(steps[2:]):.3f}")
PY
tar czf $OUT/r.tgz -C $OUT r && rm -r $OUT/r
