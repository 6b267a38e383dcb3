#!/usr/bin/env bash
# CUB's kernels under Nsight Compute at the GPU's own clocks (--clock-control none): per-kernel
# durations, clock, shared memory configuration and occupancy, for u32 keys at 2^28, u32/u32 pairs
# at 2^28 and u64 keys at 2^27, as sortlab-bench runs the anchor. Then our sort's step times in the
# same call, for comparison.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/.dev/libsortlab_cub_anchor.so
export PATH=$PATH:/usr/local/cuda/bin
B=.dev/sortlab-bench
cases=("--n 2^28" "--values u32 --n 2^28" "--type u64 --n 2^27")
names=(u32 kv u64)
M=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_config_size,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed
for i in 0 1 2; do
  timeout 150 ncu --clock-control none --kernel-name regex:"Onesweep|Histogram|ExclusiveSum" --launch-skip 12 --launch-count 12 --metrics $M --csv \
     $B --algo onesweep --anchor cub ${cases[$i]} --reps 1 --quiet > $OUT/ncu_${names[$i]}.csv 2> $OUT/ncu_${names[$i]}.err
  echo "ncu ${names[$i]} rc $?"
  timeout 60 $B --algo onesweep ${cases[$i]} --reps 5 --quiet --json $OUT/ours_${names[$i]}.json; echo "ours rc $?"
done
python3 - <<'PY'
import csv, os, json, collections
out = os.environ['OUT']
for name in ('u32', 'kv', 'u64'):
    rows = [r for r in csv.DictReader(l for l in open(f'{out}/ncu_{name}.csv') if l.startswith('"'))]
    by = collections.OrderedDict()
    for r in rows: by.setdefault((r['ID'], r['Kernel Name'].split('<')[0]), {})[r['Metric Name']] = (r['Metric Value'], r['Metric Unit'])
    print('==', name)
    for (i, k), m in list(by.items())[:6]:
        print(i, k, ' '.join(f"{a.split('__')[-1]}={v[0]}{v[1]}" for a, v in m.items()))
    for x in json.load(open(f'{out}/ours_{name}.json')):
        print('ours', x['n'], x['median_ms'], 'steps', ' '.join(f"{s['median_ms']:.3f}" for s in x['step_ms']))
PY
