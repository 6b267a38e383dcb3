#!/usr/bin/env bash
# A/B: new (deb9188) vs pd64 (64-bit per-digit destinations: one shared load per key in the
# write-out); then the experiment build (bench-X = experiment-build.patch) for lookback strides.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
mkdir -p $OUT/ab $OUT/x
for r in 1 2; do for v in new pd64; do X=.dev/exp/bench-$v
  $X --algo onesweep --n 2^28 --reps 5 --quiet --json $OUT/ab/u32_${v}_$r.json
  $X --algo onesweep --type u64 --n 2^27 --reps 5 --quiet --json $OUT/ab/u64_${v}_$r.json
  $X --algo onesweep --values u32 --n 2^28 --reps 5 --quiet --json $OUT/ab/kv_${v}_$r.json
done; done
.dev/exp/bench-pd64 --algo onesweep,onesweep-fallback --type u32,u64,f32 --values none,u32 --n 1000003,2^24 --reps 1 --check --quiet > $OUT/check.txt 2>&1; echo "check pd64 rc $?"
SORTLAB_PIPELINE_STATS=1 .dev/exp/bench-pd64 --algo onesweep --type u32,u64 --values none,u32 --n 2^24 --reps 1 2>&1 | grep onesweep_pass | sed 's/Binary Size.*Shared/Shared/' | cut -c1-100
x() { local name=$1; shift; env "$@" .dev/exp/bench-X --algo onesweep --reps 5 --quiet --json $OUT/x/$name.json $ARGS || echo "$name failed"; }
ARGS="--n 2^28"
x u32_P_LBR3 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=3
x u32_P_LBR1 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=1
x u32_P_LBR5 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=5
ARGS="--type u64 --n 2^27"
x u64_P_LBR2 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=2
x u64_P_LBR1 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=1
x u64_P_LBR4 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=4
x u64_512x9_P_LBR2 SORTLAB_OS_WG=512 SORTLAB_OS_KPT=9 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=2
x u64_448x11_P_LBR2 SORTLAB_OS_WG=448 SORTLAB_OS_KPT=11 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=2
x u64_384x12_P_LBR2 SORTLAB_OS_WG=384 SORTLAB_OS_KPT=12 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=2
ARGS="--values u32 --n 2^28"
x kv_P_LBR2 SORTLAB_OS_PERSIST=2048 SORTLAB_OS_LBR=2
x kv_LBR6 SORTLAB_OS_LBR=6
python3 - <<'PY'
import json, glob, os, collections
out = os.environ['OUT']; t = collections.defaultdict(dict)
for f in sorted(glob.glob(out + '/ab/*.json')):
    kind, v, r = os.path.basename(f)[:-5].split('_')
    for x in json.load(open(f)): t[kind][f"{v}_{r}"] = x['median_ms']
for k in sorted(t): print(f"ab {k:4s} " + ' '.join(f"{v} {t[k][v]:.3f}" for v in sorted(t[k])))
for f in sorted(glob.glob(out + '/x/*.json')):
    for r in json.load(open(f)):
        steps = [s['median_ms'] for s in r['step_ms']]
        print(f"x {os.path.basename(f)[:-5]:20s} {r['median_ms']:7.3f} ms pass {sum(steps[2:])/len(steps[2:]):.3f}")
PY
cd $OUT && tar czf r.tgz ab x && rm -r ab x
