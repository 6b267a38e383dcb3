#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p $OUT/r
k() { local name=$1 bin=$2 wg=$3 kpt=$4; shift 4
  SORTLAB_OS_WG=$wg SORTLAB_OS_KPT=$kpt .dev/exp/bench-$bin --algo onesweep --reps 5 --quiet --json $OUT/r/$name.json "$@" || echo "$name failed"; }
for round in 1 2 3; do
  .dev/sortlab-bench --algo onesweep --reps 5 --quiet --n 2^28 --json $OUT/r/u32_A16_$round.json
  k u32_F18_$round F 512 18 --n 2^28; k u32_G18_$round G 512 18 --n 2^28; k u32_G19_$round G 512 19 --n 2^28
done
for round in 1 2; do k kv_F18_$round F 512 18 --n 2^28 --values u32; k kv_G19_$round G 512 19 --n 2^28 --values u32; done
python3 - <<'PY'
import json, glob, os
out = os.environ['OUT']
for f in sorted(glob.glob(out + '/r/*.json')):
    for r in json.load(open(f)):
        steps = [s['median_ms'] for s in r['step_ms']]
        print(f"{os.path.basename(f)[:-5]:12s} 2^{r['n'].bit_length()-1} {r['median_ms']:7.3f} ms pass {sum(steps[2:])/len(steps[2:]):.3f}")
PY
tar czf $OUT/r.tgz -C $OUT r && rm -r $OUT/r
