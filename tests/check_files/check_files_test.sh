#!/usr/bin/env bash
# check_files_test.sh CASE TGSIM: `tgsim check FILE` on the kernels of tests/check_files/.
#   determinism: the JSON report of a last-block reduction (atomics between blocks), of a
#                kernel whose results depend on the order of atomics, of a stack overrun and of
#                a race only lane shuffles show is identical for 1, 2, 4 and 8 workers, run
#                after run.
#   json:        each finding of the union names the schedules that showed it; results that
#                depend on the order of atomics are information, a buffer no atomic explains
#                is a finding.
#   same_value:  equal-value stores are no WAW; information where a value is not a constant of
#                the program, nothing where both are.
set -euo pipefail
case_=$1 tgsim=$2
dir=$(cd "$(dirname "$0")" && pwd)
check() {  # check EXPECTED_STATUS ARGS...: stdout of `tgsim check ARGS...`
  local want=$1 rc=0 out
  shift
  out=$("$tgsim" check "$@") || rc=$?
  [ "$rc" -eq "$want" ] || { echo "expected exit $want, got $rc from: tgsim check $*" >&2; exit 1; }
  printf '%s\n' "$out"
}
flat() { tr -d ' \n'; }
case $case_ in
determinism)
  last=("$dir/last_block.cu" --grid 64 --block 128 float[8192] float[64]=0 uint[1]=0 float[1]=0 int:8192)
  slots=("$dir/atomic_slots.cu" --grid 4 --block 64 int[1]=0 int[256]=0 int[1]=0 int[256]=0)
  overrun=("$dir/local_array.cu" --kernel store_past --grid 8 --block 64 int[512]=0 int:9)
  lanes=("$dir/lane_order.cu" --kernel lane_order --grid 1 --block 64 int[1]=0 --schedules 8)  # one group: groups racing on out[0] leave the value of whichever ends last
  for k in last slots overrun lanes; do
    declare -n args=$k
    first_rc=0
    first=$("$tgsim" check "${args[@]}" --json --threads 1) || first_rc=$?
    for run in 1 2 3; do
      for t in 1 2 4 8; do
        out=$(check "$first_rc" "${args[@]}" --json --threads "$t")
        if [ "$out" != "$first" ]; then
          echo "$k: the report with $t workers (run $run) differs from the first:"
          diff <(printf '%s\n' "$first") <(printf '%s\n' "$out") | head -20; exit 1
        fi
      done
    done
    echo "ok: $k: one report (exit $first_rc) for 1, 2, 4 and 8 workers, 3 runs"
  done
  # Block 63 takes the last ticket in every run: the other blocks' stores of their partials are
  # released (fence, then the ticket's atomic) and its loads acquired (after its atomic), so the
  # hand-over is no race, and its reset of the counter follows its own atomic.
  grep -q '"clean": true' <<<"$(check 0 "${last[@]}" --json --threads 4)"
  ;;
json)
  out=$(check 1 "$dir/flag_order.cu" --grid 1 --block 2 int[1]=0 int[1]=0 --json | flat)
  grep -q '"schedules":\["in-order","reverse"\]' <<<"$out"
  grep -q '"kind":"out-of-bounds".*"schedules":\["reverse"\]' <<<"$out"
  grep -q '"clean":false' <<<"$out"
  out=$(check 0 "$dir/atomic_slots.cu" --grid 1 --block 64 int[1]=0 int[64]=0 int[1]=0 int[64]=0 --json | flat)
  grep -q '"findings":\[\]' <<<"$out"
  grep -q '"buffer":"arg1(slots)","schedules":\["in-order","reverse"\],"index":0,"values":\["0","63"\],"explained_by_atomics":true' <<<"$out"
  grep -q '"buffer":"arg3(out)".*"explained_by_atomics":true' <<<"$out"
  grep -q '"clean":true' <<<"$out"
  out=$(check 1 "$dir/last_writer.cu" --grid 1 --block 64 int[1]=0 --json | flat)
  grep -q '"buffer":"arg0(out)",.*"explained_by_atomics":false,"unexplained":{"index":0,"values":\["63","0"\]}' <<<"$out"
  echo "ok: findings name their schedules; atomic order is information"
  ;;
same_value)
  # Every thread stores its element of a zero-filled input to out[0]: equal bytes, so no WAW
  # finding, but information naming two threads, the element and the line (with other data a
  # race). Every thread storing the constant 1 to a flag: equal in every run, nothing said.
  out=$(check 0 "$dir/same_value.cu" --kernel copy --grid 2 --block 64 int[64]=0 int[1]=0)
  grep -q 'findings: none' <<<"$out"
  grep -q '^note: equal values stored by two threads without order (information, not a finding): thread (0,0,0) and thread (1,0,0) of block (0,0,0) store the same bytes to global arg 1 (out)\[0\] at same_value.cu:7 and same_value.cu:7 (127 pair(s)); a stored value is not a constant of the program' <<<"$out" \
    || { echo "no equal-value note for copy:"; printf '%s\n' "$out"; exit 1; }
  out=$(check 1 "$dir/same_value.cu" --kernel copy --grid 2 --block 64 int[64]=0 int[1]=0 --same-value-waw)
  grep -q 'waw-hazard at same_value.cu:7 and same_value.cu:7' <<<"$out"
  out=$(check 0 "$dir/same_value.cu" --kernel flag --grid 2 --block 64 int[1]=0)
  grep -q 'findings: none' <<<"$out"
  if grep -q '^note:' <<<"$out"; then echo "a note for stores of a constant:"; printf '%s\n' "$out"; exit 1; fi
  json=$(check 0 "$dir/same_value.cu" --kernel copy --grid 4 --block 64 int[64]=0 int[1]=0 --json --threads 1)
  for t in 2 4; do
    [ "$(check 0 "$dir/same_value.cu" --kernel copy --grid 4 --block 64 int[64]=0 int[1]=0 --json --threads $t)" = "$json" ] \
      || { echo "the equal-value note differs with $t workers"; exit 1; }
  done
  echo "ok: equal values from data are information, equal constants nothing"
  ;;
*) echo "unknown case $case_"; exit 2 ;;
esac
