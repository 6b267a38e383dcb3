#!/usr/bin/env bash
# CUB's kernels under NVIDIA's profilers: per-kernel times (nsys) and launch/occupancy figures (ncu)
# for u32 keys at 2^28, u32/u32 pairs at 2^28 and u64 keys at 2^27, the anchor as sortlab-bench runs it.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/.dev/libsortlab_cub_anchor.so
export PATH=$PATH:/usr/local/cuda/bin:$(ls -d /opt/nvidia/nsight-systems/*/bin /usr/local/cuda/nsight-systems*/bin /opt/nvidia/nsight-compute/* /usr/local/cuda/nsight-compute* 2>/dev/null | tr '\n' ':')
which nsys ncu; nsys --version 2>&1 | head -1; ncu --version 2>&1 | tail -1
B=.dev/sortlab-bench
cases=("--n 2^28" "--values u32 --n 2^28" "--type u64 --n 2^27")
names=(u32 kv u64)
for i in 0 1 2; do
  timeout 120 nsys profile -t cuda -o $OUT/nsys_${names[$i]} --force-overwrite true $B --algo onesweep --anchor cub ${cases[$i]} --reps 5 --quiet > $OUT/nsys_${names[$i]}.log 2>&1
  echo "nsys ${names[$i]} rc $?"
  timeout 60 nsys stats -r cuda_gpu_kern_sum -f csv -o $OUT/kern_${names[$i]} $OUT/nsys_${names[$i]}.nsys-rep > /dev/null 2>&1
  ls $OUT/kern_${names[$i]}* 2>/dev/null | head -2
done
for i in 0 1 2; do
  timeout 150 ncu --kernel-name regex:"Onesweep|Histogram|ExclusiveSum" --launch-count 6 --section LaunchStats --section Occupancy --section SpeedOfLight \
     $B --algo onesweep --anchor cub ${cases[$i]} --reps 1 --quiet > $OUT/ncu_${names[$i]}.txt 2>&1
  echo "ncu ${names[$i]} rc $?"
done
rm -f $OUT/*.sqlite
for f in $OUT/kern_*.csv; do echo "== $f"; cut -d, -f1-9 $f | head -8; done
for i in 0 1 2; do echo "== ncu ${names[$i]}"; grep -E "DeviceRadixSort|Duration|Registers Per|Shared Memory Configuration|Dynamic Shared|Static Shared|Block Limit|Achieved Occupancy|Theoretical Occupancy|Memory Throughput|Block Size|Driver Shared" $OUT/ncu_${names[$i]}.txt | sed 's/  */ /g' | head -70; done
