#!/usr/bin/env bash
# metal_barrier_rules.sh TGSIM WORKDIR: Metal's barrier rules under `tgsim check`, with the
# kernels of tests/metal_features/barrier_flags.metal: threadgroup_barrier(mem_threadgroup) does
# not order device memory (a race), mem_device and mem_device|mem_threadgroup do; a thread that
# returns before a threadgroup_barrier the others reach is a finding in Metal's words.
set -uo pipefail
tgsim=$1 work=$2
file=$(cd "$(dirname "$0")" && pwd)/metal_features/barrier_flags.metal
rm -rf "$work" && mkdir -p "$work"
export TGSIM_CACHE="$work/cache"
fails=0
ok() { echo "ok: $*"; }
fail() { fails=$((fails + 1)); echo "FAIL: $*"; }
# has TEXT PATTERN: the report's text, its wrapped lines joined, matches PATTERN (grep -E)
has() { local s; s=$(printf '%s' "$1" | tr -s ' \n' '  '); grep -Eq -- "$2" <<<"$s"; }  # no pipe into grep -q (pipefail)
check() { "$tgsim" check "$file" "$@" 2>&1; }
pair=(--grid 1 --block 64 'float[64]=0' 'float[64]=0')

out=$(check --kernel neighbour_tg_only "${pair[@]}"); rc=$?
if [ $rc = 1 ] && has "$out" "raw-hazard at barrier_flags.metal:12 and barrier_flags.metal:14 \[64 times\]" \
   && has "$out" "read-after-write on global arg 0 \(data\)\[0\]: thread \(0,0,0\) stores at barrier_flags.metal:12, thread \(63,0,0\) loads at barrier_flags.metal:14; the threadgroup_barrier between them orders no device memory \(its flags lack mem_flags::mem_device\)" \
   && ! has "$out" "warp-sync|__syncwarp"; then
  ok "mem_threadgroup leaves device memory unordered"
else fail "neighbour_tg_only (rc $rc): $out"; fi
for k in neighbour_device neighbour_both neighbour_combined neighbour_late_device; do
  out=$(check --kernel $k "${pair[@]}"); rc=$?
  if [ $rc = 0 ] && has "$out" "findings: none"; then ok "$k orders device memory"; else fail "$k (rc $rc): $out"; fi
done
out=$(check --kernel tile_neighbour --grid 1 --block 64 'float[64]=0'); rc=$?
if [ $rc = 0 ] && has "$out" "findings: none"; then ok "mem_threadgroup orders threadgroup memory"; else fail "tile_neighbour (rc $rc): $out"; fi

out=$(check --kernel early_return --grid 1 --block 32 'float[32]=0'); rc=$?
if [ $rc = 1 ] && has "$out" "barrier-divergence" \
   && has "$out" "16 of 32 threads reached the threadgroup_barrier at barrier_flags.metal:67; the others \(16\) returned before it" \
   && has "$out" "undefined behaviour" && ! has "$out" "__syncthreads"; then
  ok "a return before threadgroup_barrier is a finding"
else fail "early_return (rc $rc): $out"; fi
out=$("$tgsim" run "$file" --kernel early_return --grid 1 --block 32 'float[32]=0' 2>&1); rc=$?
if [ $rc = 1 ] && has "$out" "returned before it"; then ok "run reports it too"; else fail "run early_return (rc $rc): $out"; fi
out=$(check --kernel return_after --grid 1 --block 32 'float[32]=0'); rc=$?
if [ $rc = 0 ] && has "$out" "findings: none"; then ok "a return after the barrier is fine"; else fail "return_after (rc $rc): $out"; fi
out=$(check --kernel partial_grid --grid 2 --block 32 --threads-in-grid 40 'float[40]=0'); rc=$?
if [ $rc = 0 ] && has "$out" "findings: none"; then ok "threads outside a dispatchThreads grid are not counted"
else fail "partial_grid (rc $rc): $out"; fi

out=$(check --kernel two_barriers --grid 1 --block 64 'float[64]=0'); rc=$?
if [ $rc = 1 ] && has "$out" "32 of 64 threads reached the threadgroup_barrier at barrier_flags.metal:95; the others \(32\) wait at barrier_flags.metal:98; first divergent thread \(32,0,0\) \(SIMD group 1, lane 0\); in Metal every thread of a threadgroup must reach the same threadgroup_barrier" \
   && ! has "$out" "__syncthreads|\(warp [0-9]"; then ok "SIMD groups at two threadgroup_barriers, in Metal's words"
else fail "two_barriers (rc $rc): $out"; fi

# The same findings for any number of workers (4 groups).
findings() { "$tgsim" check "$file" --kernel "$1" --grid 4 --block 64 'float[256]=0' 'float[256]=0' --threads "$2" --json 2>/dev/null |
             python3 -c "import json, sys; print(json.dumps(json.load(sys.stdin)['findings'], sort_keys=True))"; }
a=$(findings neighbour_tg_only 1) b=$(findings neighbour_tg_only 3)
if [ -n "$a" ] && [ "$a" = "$b" ] && has "$a" "orders no device memory"; then ok "same findings on 1 and 3 workers"
else fail "workers: $a / $b"; fi

[ $fails = 0 ] && echo "metal barrier rules OK"
exit $fails
