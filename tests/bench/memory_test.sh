#!/bin/bash
# Issue 39 item 7, judged by the benchmark: seed 004's global int matmul at n = 1024 as
# `tgsim run` launches it (sampled; no barrier, so every lane logs 65,536 accesses) keeps its
# peak RSS within 2 x buffers + 200 MB (tests/bench/targets.py) on one worker. Before the lane
# logs' buffers passed between warps (sim/src/engine/log_pool.hpp) it peaked at about 540 MB.
#   tests/bench/memory_test.sh TGSIM
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
json=$(mktemp)
trap 'rm -f "$json"' EXIT
"$1" bench --sizes 1024 --reps 1 --threads 1 --rows seed004 --json > "$json"
out=$(python3 "$here/targets.py" "$json")
echo "$out"
grep -qE "int_matmul_global N=1024, 1 worker: peak RSS MB" <<<"$out" ||
  { echo "memory_test: no peak RSS target judged for seed 004's row" >&2; exit 1; }
python3 "$here/targets.py" "$json" --require > /dev/null || { echo "memory_test: target missed" >&2; exit 1; }
echo "memory_test: seed 004 within its memory target"
