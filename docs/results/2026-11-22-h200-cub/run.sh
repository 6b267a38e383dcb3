#!/bin/bash
# The CUB anchor measurement on the GPU machine (run from the repository root; $OUT comes back).
set -u
O=$OUT
B=.anchor/sortlab-bench
nvidia-smi > $O/nvidia-smi.txt 2>&1
(nvcc --version; cat /proc/driver/nvidia/version) > $O/versions.txt 2>&1
# The anchor from the source tree, built here while the first runs use the one built on Debian.
( time nvcc -O3 -arch=sm_90 -shared -Xcompiler -fPIC -o .anchor/libsortlab_cub_anchor.so bench/cub/anchor.cu ) > $O/nvcc-build.txt 2>&1 &
NVCC=$!
$B --list-devices > $O/list-devices.txt 2>&1
export SORTLAB_CUB_ANCHOR=$PWD/.anchor/libsortlab_cub_anchor.prebuilt.so
run() {
  name=$1; shift
  echo "$name [$(basename $SORTLAB_CUB_ANCHOR)]: sortlab-bench $* --json $name.json" >> $O/commands.txt
  local t0=$(date +%s)
  timeout 110 $B "$@" --json $O/$name.json > $O/$name.txt 2>&1
  echo "rc=$? wall=$(( $(date +%s) - t0 ))s" >> $O/$name.txt
  tail -1 $O/$name.txt
}
run u32-small --algo oddeven,std --anchor cub --n 2^20,2^24 --reps 5 --check
run u32-large --algo oddeven --anchor cub --n 2^26,2^28 --reps 5 --check
run kv --algo oddeven --values u32 --anchor cub --n 2^24,2^28 --reps 5 --check
run u64 --algo oddeven --type u64 --anchor cub --n 2^24,2^27 --reps 5 --check
wait $NVCC; tail -4 $O/nvcc-build.txt
if [ -s .anchor/libsortlab_cub_anchor.so ]; then
  export SORTLAB_CUB_ANCHOR=$PWD/.anchor/libsortlab_cub_anchor.so
  run types --algo std --anchor cub --type all --values none,u32 --order asc,desc --dist special --n 100003 --reps 1 --check
  run u32-native --algo oddeven --anchor cub --n 2^24,2^26,2^28 --reps 5
  run kv-u64-native --algo oddeven --anchor cub --type u64 --values u32 --n 2^24 --reps 5
fi
head -3 $O/list-devices.txt; grep -m1 "Driver Version" $O/nvidia-smi.txt
cat $O/commands.txt
for f in $O/*.txt; do grep -h "^anchor:\|check failed\|error" $f | head -3; done | sort -u
grep -h "^checks:" $O/types.txt 2>/dev/null
for f in u32-small u32-large kv u64 u32-native kv-u64-native; do
  [ -f $O/$f.txt ] && grep -E "^(oddeven|std|cub) " $O/$f.txt | awk -v f=$f '{printf "%-13s %-8s %-16s %-4s %-4s %-4s %10s %10s %9s %8s %8s %s\n", f,$1,$2,$3,$4,$5,$6,$8,$10,$11,$(NF-1),$NF}' | grep -v " special" 
  [ -f $O/$f.txt ] && grep -h "^checks:" $O/$f.txt
done
