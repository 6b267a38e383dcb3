#!/usr/bin/env bash
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/.dev/libsortlab_cub_anchor.so
B=.dev/sortlab-bench
SORTLAB_PIPELINE_STATS=1 $B --algo onesweep --type u32,u64 --values none,u32 --n 100000 --reps 1 2>&1 | grep onesweep_pass > $OUT/registers.txt
BIN=.dev bash bench/device/onesweep_figures.sh > $OUT/figures_summary.txt 2>&1; echo "figures rc $?"
$B --algo onesweep --anchor cub --type u32,i32,f32 --n 2^24,2^28 --reps 5 --json $OUT/onesweep_types_u32_i32_f32.json > $OUT/onesweep_types_u32_i32_f32.txt 2>&1; echo "types rc $?"
$B --algo onesweep --anchor cub --sizes 2^10..2^24 --reps 5 --check --warmup-ms 300 --json $OUT/sweep-os-2e10-2e24.json > $OUT/sweep-os1.txt 2>&1; echo "sweep1 rc $?"
$B --algo onesweep --anchor cub --sizes 2^25..2^28 --reps 3 --json $OUT/sweep-os-2e25-2e28.json > $OUT/sweep-os2.txt 2>&1; echo "sweep2 rc $?"
$B --algo onesweep --anchor cub --type u32,i32,f32,u64,i64,f64 --order asc,desc --n 2^26 --reps 5 --check --json $OUT/onesweep_kinds_2e26.json > $OUT/onesweep_kinds_2e26.txt 2>&1; echo "kinds rc $?"
cat $OUT/registers.txt; grep -E "^(onesweep|cub) " $OUT/onesweep_kinds_2e26.txt; cat $OUT/figures_summary.txt; grep -E "onesweep|cub" $OUT/onesweep_types_u32_i32_f32.txt
cd $OUT && tar czf results.tgz *.json *.txt && rm -f *.json sweep-os*.txt onesweep_*.txt
