#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p $OUT/r
for round in 1 2; do for v in c2l8 c4l8 c8l8 c4l16; do
  .dev/exp/bench-$v --algo onesweep --n 2^26,2^28 --reps 5 --quiet --json $OUT/r/${v}_$round.json || echo "$v failed"
done; done
.dev/exp/bench-c4l8 --algo onesweep --type u32,i32 --values none,u32 --n 2^24 --reps 1 --check --quiet; echo "check rc $?"
python3 - <<'PY'
import json, glob, os
out = os.environ['OUT']
for f in sorted(glob.glob(out + '/r/*.json')):
    for r in json.load(open(f)):
        steps = [s['median_ms'] for s in r['step_ms']]
        print(f"{os.path.basename(f)[:-5]:10s} 2^{r['n'].bit_length()-1} {r['median_ms']:7.3f} ms hist {steps[0]:.4f}")
PY
tar czf $OUT/r.tgz -C $OUT r && rm -r $OUT/r
