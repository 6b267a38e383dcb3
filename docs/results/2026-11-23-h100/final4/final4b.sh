#!/usr/bin/env bash
# 2026-11-23 (second session): every key kind in both orders at 2^26 with 4be6cf9, beside CUB
# (final4.sh's run of this stopped at its 100 s limit).
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/.dev/libsortlab_cub_anchor.so
B=.dev/sortlab-bench
timeout 400 $B --algo onesweep --anchor cub --type u32,i32,f32,u64,i64,f64 --order asc,desc --n 2^26 --reps 5 --check \
    --json $OUT/onesweep_kinds_2e26.json > $OUT/onesweep_kinds_2e26.txt 2>&1; echo "kinds rc $?"
grep -E "^(onesweep|cub) " $OUT/onesweep_kinds_2e26.txt | awk '{print $1, $3, $5, $8, $11, $NF}'
