#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
B=.dev/sortlab-bench
for t in u32 i32 f32; do for o in asc desc; do
  SORTLAB_PIPELINE_STATS=1 $B --algo onesweep --type $t --order $o --n 100000 --reps 1 2>&1 | grep onesweep_pass | sed "s/Binary Size.*Shared/Shared/;s/^/$t $o /"
done; done
$B --algo onesweep --type u32,i32,f32 --order asc,desc --n 2^26 --reps 5 --json $OUT/kinds.json > $OUT/kinds.txt 2>&1
$B --algo onesweep --type i32 --dist gaussian,sorted --n 2^26 --reps 5 >> $OUT/kinds.txt 2>&1
$B --algo onesweep --type u32 --dist gaussian,sorted --n 2^26 --reps 5 >> $OUT/kinds.txt 2>&1
grep -E "^onesweep" $OUT/kinds.txt
