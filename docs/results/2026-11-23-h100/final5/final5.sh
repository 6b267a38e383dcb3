#!/usr/bin/env bash
# 705e6f7 (75e0d1e's kernels) beside CUB: registers, then bench/device/onesweep_figures.sh.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
git log --oneline -1 2>/dev/null
SORTLAB_PIPELINE_STATS=1 timeout 60 .dev/sortlab-bench --algo onesweep --type u32,u64 --values none,u32 --n 2^24 --reps 1 2>&1 | grep 'onesweep_pass' | sed 's/Binary Size=[0-9]* Stack Size=0 //' > $OUT/registers.txt
cat $OUT/registers.txt
time timeout 420 bash bench/device/onesweep_figures.sh > $OUT/figures_summary.txt 2>&1
cat $OUT/figures_summary.txt
cd $OUT && tar czf results.tgz *.json onesweep_*.txt && rm -f *.json onesweep_*.txt
