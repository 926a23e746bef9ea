#!/usr/bin/env bash
# shard_refusals.sh TGSIM DIR: `tgsim merge` refuses parts that are not the N slices of one
# launch, and `tgsim run --groups` a bad slice: exit 2 and one line naming what is wrong.
set -euo pipefail
tgsim=$1
dir=$2
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir"
cd "$dir"
run() { "$tgsim" run transpose_naive --n 128 --no-cache --json "$@"; }
run --groups 0/3 >p0.json
run --groups 1/3 >p1.json
run --groups 2/3 >p2.json
run --groups 0/2 >q0.json
"$tgsim" run transpose_naive --n 64 --no-cache --json --groups 1/3 >other1.json
run >whole.json
echo '{"partial": 1' >broken.json
# usage error: exit 2, one line, and the line names $1
refused() {
  local want=$1 out
  shift
  out=$("$here/expect_usage_error.sh" "$tgsim" "$@") || { echo "$out"; exit 1; }
  [[ "$out" == *"$want"* ]] || { echo "expected '$want' in: $out"; exit 1; }
  echo "$out"
}
refused "slices missing: 2 of 3" merge p0.json p1.json
refused "slice 1 is given twice" merge p0.json p1.json p1.json p2.json
refused "slices of different splits overlap" merge p0.json p1.json p2.json q0.json
refused "another launch" merge p0.json other1.json p2.json
# the same kernel and grid, another argument: told apart by the arguments' hash
file() { "$tgsim" run "$here/shard/scale_oob.cu" --kernel scale --grid 10 --block 64 --no-cache "float[600]" "$@"; }
file int:600 --groups 0/2 --json >f0.json || [ $? -eq 1 ]
file int:599 --groups 1/2 --json >f1.json || [ $? -eq 1 ]
refused "args_hash" merge f0.json f1.json
refused "not a partial report" merge p0.json whole.json p2.json
refused "not JSON" merge broken.json
refused "cannot read" merge p0.json nosuch.json
refused "I must be below N" run transpose_naive --groups 3/3
refused "N must be from 1" run transpose_naive --groups 0/0
refused "bad --groups 'x'" run transpose_naive --groups x
refused "bad --groups '-1/2'" run transpose_naive --groups -1/2
# and the three slices do merge
"$tgsim" merge p2.json p0.json p1.json >/dev/null
echo "ok: every bad input refused"
