#!/usr/bin/env bash
# The "OneSweep on keys with structure" figures (docs/notebook/2026-11-25-keys-with-structure.md,
# the figures at d4faf30), on the GPU machine (see
# README, "Measuring on a GPU"): every distribution beside CUB, keys and u32 pairs, in parts that
# each fit one call of a few minutes. Run from the repository root with sortlab-bench and
# libsortlab_cub_anchor.so in $BIN (default .dev) and Debian's libvulkan1 unpacked in .gl:
#   OUT=out BIN=.dev bash bench/device/structure_figures.sh u32 2^26   # or u64, and 2^28
# A third argument picks the values (default none,u32; at 2^28 one of them fits a call better).
# OneSweep runs with --either-buffer, as CUB runs in its DoubleBuffer form: neither copies its
# result back into the first buffer. Then OneSweep alone runs again on the distributions that
# skip an odd number of passes (bits; gaussian 64-bit keys), with the copy back (the default).
# Writes $OUT/structure-TYPE-N[-VALUES].json and .txt, and -copyback.json and .txt, and prints one
# line per distribution.
set -u
TYPE=${1:-u32}
N=${2:-2^26}
VALUES=${3:-none,u32}
BIN=${BIN:-.dev}
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export SORTLAB_CUB_ANCHOR=$PWD/$BIN/libsortlab_cub_anchor.so
NAME=structure-$TYPE-2e${N#2^}
[ "$VALUES" = none,u32 ] || NAME=$NAME-${VALUES//,/-}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# A warm-up of at least 0.3 s a case: with 0.1 s the first timed reps at 2^28 ran up to 4x slower.
"$BIN/sortlab-bench" --algo onesweep --anchor cub --either-buffer --type "$TYPE" --values "$VALUES" --n "$N" --reps 5 \
    --warmup-ms 300 --dist uniform,sorted,reversed,equal,few-unique,gaussian,narrow,bits,runs \
    --json "$OUT/$NAME.json" > "$OUT/$NAME.txt" 2>&1
echo "sortlab-bench rc $?"
"$BIN/sortlab-bench" --algo onesweep --type "$TYPE" --values "$VALUES" --n "$N" --reps 5 --warmup-ms 300 \
    --dist bits,gaussian --json "$OUT/$NAME-copyback.json" > "$OUT/$NAME-copyback.txt" 2>&1
echo "sortlab-bench (copy back) rc $?"
NAME=$NAME python3 - <<'PY'
import json, os
base = os.environ['OUT'] + '/' + os.environ['NAME']
for r in json.load(open(base + '.json')) + json.load(open(base + '-copyback.json')):
    if r['algo'] != 'onesweep':
        continue
    passes = [s for s in r['step_ms'] if s['kind'] == 'pass']
    skipped = sum(1 for s in passes if s.get('skipped'))
    c = r.get('speedup_vs_cub')
    print(f"{r['type']} {r['values']:4s} {r['dist']:10s} {r['variant']:16s} {r['median_ms']:8.3f} ms x cub {'-' if c is None else f'{c:.3f}'}"
          f" skipped {skipped} of {len(passes)}")
PY
