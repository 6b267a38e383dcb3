#!/usr/bin/env bash
# 2026-11-23 (second session): the figures of 4be6cf9 (the digit scan's runs read at once) beside
# CUB: registers, bench/device/onesweep_figures.sh, every key kind in both orders at 2^26, and the
# OneSweep sweep for docs/benchmarks.md's figure. Bench and anchor in .dev, loader debs in .gl.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/.dev/libsortlab_cub_anchor.so
B=.dev/sortlab-bench
SORTLAB_PIPELINE_STATS=1 $B --algo onesweep --type u32,u64 --values none,u32 --n 2^24 --reps 1 2>&1 \
    | grep 'onesweep_pass' | sed 's/Binary Size=[0-9]* Stack Size=0 //' > $OUT/registers.txt
BIN=.dev timeout 330 bash bench/device/onesweep_figures.sh > $OUT/figures_summary.txt 2>&1; echo "figures rc $?"
timeout 100 $B --algo onesweep --anchor cub --type u32,i32,f32,u64,i64,f64 --order asc,desc --n 2^26 --reps 5 --check \
    --json $OUT/onesweep_kinds_2e26.json > $OUT/onesweep_kinds_2e26.txt 2>&1; echo "kinds rc $?"
timeout 60 $B --algo onesweep --anchor cub --sizes 2^10..2^24 --reps 5 --check --warmup-ms 300 \
    --json $OUT/sweep-os-2e10-2e24.json > $OUT/sweep-os1.txt 2>&1; echo "sweep1 rc $?"
timeout 40 $B --algo onesweep --anchor cub --sizes 2^25..2^28 --reps 3 --json $OUT/sweep-os-2e25-2e28.json > $OUT/sweep-os2.txt 2>&1; echo "sweep2 rc $?"
cat $OUT/registers.txt
grep -v "^onesweep-fallback\|^radix4" $OUT/figures_summary.txt | cut -c1-100
grep -E "^(onesweep|cub) " $OUT/onesweep_kinds_2e26.txt | awk '{print $1, $3, $5, $8, $11}'
cd $OUT && tar czf results.tgz onesweep_*.json onesweep_*.txt && rm onesweep_u32.* onesweep_kv.* onesweep_u64.* onesweep_types.*
