#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
for b in sortlab-bench exp/bench-noload exp/bench-nostore; do
  .dev/$b --algo onesweep --type u32,i32 --order asc,desc --n 2^26 --reps 5 --quiet --json $OUT/x.json
  python3 -c "
import json; 
for r in json.load(open('$OUT/x.json')): print('$b', r['type'], r['order'], round(r['median_ms'],3))"
done
