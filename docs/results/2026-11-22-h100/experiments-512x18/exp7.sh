#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p $OUT/r
k() { local name=$1 bin=$2 wg=$3 kpt=$4; shift 4
  SORTLAB_OS_WG=$wg SORTLAB_OS_KPT=$kpt .dev/exp/bench-$bin --algo onesweep --reps 5 --quiet --json $OUT/r/$name.json "$@" || echo "$name failed"; }
for round in 1 2; do
  k u32_F18_$round F 512 18 --n 2^28; k u32_H18_$round H 512 18 --n 2^28; k u32_H19_$round H 512 19 --n 2^28
  k kv_F18_$round F 512 18 --n 2^28 --values u32; k kv_H18_$round H 512 18 --n 2^28 --values u32; k kv_H19_$round H 512 19 --n 2^28 --values u32
  k u64_F13_$round F 384 13 --n 2^27 --type u64; k u64_H13_$round H 384 13 --n 2^27 --type u64
done
SORTLAB_OS_WG=512 SORTLAB_OS_KPT=19 .dev/exp/bench-H --algo onesweep,onesweep-fallback --values none,u32 --n 1000003,2^26 --reps 1 --check --quiet > $OUT/checkH.txt 2>&1; echo "checkH rc $?"
python3 - <<'PY'
import json, glob, os
out = os.environ['OUT']
for f in sorted(glob.glob(out + '/r/*.json')):
    for r in json.load(open(f)):
        steps = [s['median_ms'] for s in r['step_ms']]
        print(f"{os.path.basename(f)[:-5]:12s} 2^{r['n'].bit_length()-1} {r['median_ms']:7.3f} ms pass {sum(steps[2:])/len(steps[2:]):.3f}")
PY
tar czf $OUT/r.tgz -C $OUT r && rm -r $OUT/r
