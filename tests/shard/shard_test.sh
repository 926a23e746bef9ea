#!/usr/bin/env bash
# shard_test.sh TGSIM DIR: a launch sharded over 4 processes with GNU parallel (`tgsim run
# --groups I/4 --json`), merged by `tgsim merge`, equals the whole run: counters, per-site
# counters, findings, printed lines and the estimate; with the cache model, only the counters
# the merge lists as not exact may differ, and it lists exactly those it must.
set -euo pipefail
tgsim=$1
dir=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
cd "$dir"
rm -f whole*.json part*.json merged*.json

# The whole run, the 4 slices at once, the merge; the kernel's exit status (1: findings) kept.
# $1: name, then the run's arguments.
shard() {
  local name=$1 rc=0
  shift
  "$tgsim" run "$@" --json >"whole_$name.json" || rc=$?
  [ "$rc" -le 1 ] || { echo "$name: the whole run exited $rc" >&2; exit 1; }
  local cmd
  cmd=$(printf '%q ' "$tgsim" run "$@")
  parallel --halt now,fail=1 -j4 "$cmd --threads 1 --groups {}/4 --json >part_${name}_{}.json || [ \$? -eq 1 ]" ::: 0 1 2 3
  rc=0
  "$tgsim" merge --json part_"$name"_{3,1,0,2}.json >"merged_$name.json" || rc=$?
  [ "$rc" -le 1 ] || { echo "$name: merge exited $rc" >&2; exit 1; }
}

# jq filter $2 of both reports of $1 equal, else the difference and exit 1.
same() {
  local a b
  a=$(jq -S "$2" "whole_$1.json")
  b=$(jq -S "$2" "merged_$1.json")
  if [ "$a" != "$b" ]; then
    echo "$1: '$2' differs between the whole run and the merge:"
    diff <(printf '%s\n' "$a") <(printf '%s\n' "$b") || true
    exit 1
  fi
}

# 1. A catalog launch of 64 groups, cache model off: everything equal.
shard tiled matmul_tiled16 --n 128 --no-cache
for f in .counters .sites .findings .estimate .kernel .grid .block .n; do same tiled "$f"; done
[ "$(jq '.merged.not_exact | length' merged_tiled.json)" = 0 ] || { echo "tiled: not_exact should be empty"; exit 1; }
[ "$(jq '.correct' merged_tiled.json)" = null ] || { echo "tiled: correct should be null (not checked)"; exit 1; }
[ "$(jq '.counters.global.load.instructions' part_tiled_0.json)" -lt \
  "$(jq '.counters.global.load.instructions' whole_tiled.json)" ] || { echo "tiled: a part is not partial"; exit 1; }

# 2. With the cache model, 256 groups (more than the 132 SMs): L1, L2 reads and DRAM are not
#    exact and are the only ones listed; every other counter equal.
shard cache matmul_tiled16 --n 256
same cache '.sites | map(del(.l1_hit_sectors))'
same cache '.counters | del(.global.load.l1_hit_sectors, .l2.read_sectors, .dram)'
want='["dram.read_bytes","dram.write_bytes","global.load.l1_hit_sectors","l2.read_sectors","sites.l1_hit_sectors"]'
[ "$(jq -c '.merged.not_exact | keys' merged_cache.json)" = "$want" ] || { echo "cache: wrong not_exact list"; exit 1; }

# 3. With the cache model, 64 groups (each SM's groups in one slice): the L1 is exact too.
shard fewsm transpose_shared --n 256
same fewsm '.sites'
same fewsm '.counters | del(.dram)'
[ "$(jq -c '.merged.not_exact | keys' merged_fewsm.json)" = '["dram.read_bytes","dram.write_bytes"]' ] ||
  { echo "fewsm: wrong not_exact list"; exit 1; }

# 4. A kernel file: out-of-bounds findings (the last groups only) and printf lines.
shard file "$here/scale_oob.cu" --kernel scale --grid 10 --block 64 --no-cache "float[600]" int:600
for f in .counters .sites .findings .printed .notes; do same file "$f"; done
[ "$(jq '.findings | length' merged_file.json)" -ge 1 ] || { echo "file: no finding to merge"; exit 1; }
echo "ok: 4 slices merged equal the whole run (catalog, cache model, kernel file)"
