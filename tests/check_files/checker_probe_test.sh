#!/usr/bin/env bash
# checker_probe_test.sh PROBE: tests/hardware/checker_probe.cu built by tgsim (PROBE) gives, case by
# case, what the H100 gave (tests/hardware/checker_probe/results.txt) and the findings synccheck
# gave there:
#   sites_block      warps at two __syncthreads() sites meet (barrier 0): right result, one
#                    barrier-divergence finding saying the group went on;
#   sites_warp       lanes of one warp at two sites: a barrier-divergence finding (the H100's
#                    result is wrong too; tgsim ends the group);
#   exited_syncwarp  full-mask __syncwarp and shuffle after half the warp returned: right result,
#                    no finding;
#   ballot_lanemask  a ballot whose mask leaves the lane out (an illegal instruction on the H100):
#                    one warp-collective finding naming it, no barrier-divergence finding;
#   misaligned_float4  float4 loads 4 bytes past a 16-byte boundary: a misaligned-access finding
#                    and the launch fails with "misaligned address", as on the H100;
#   write_constant   a store to __constant__ memory (a trap on the H100): a constant-write finding
#                    and the launch fails with "unspecified launch failure".
set -uo pipefail
probe=$1
fail=0
expect() {  # expect CASE STATUS REGEX [ABSENT_REGEX]
  local out rc=0
  out=$(timeout 120 "$probe" "$1" 2>&1) || rc=$?
  if [ "$rc" -ne "$2" ]; then echo "FAIL $1: exit $rc, want $2"; printf '%s\n' "$out" | tail -5; fail=1; return; fi
  if ! grep -Eq -- "$3" <<<"$out"; then echo "FAIL $1: no line matches /$3/"; printf '%s\n' "$out" | tail -5; fail=1; return; fi
  if [ -n "${4:-}" ] && grep -Eq -- "$4" <<<"$out"; then
    echo "FAIL $1: a line matches /$4/"; printf '%s\n' "$out" | tail -5; fail=1; return
  fi
  echo "ok: $1"
}
expect sites_block 0 "barrier-divergence .*256 of 288 threads reached the barrier at barrier_sites.cu:[0-9]+; the others \(32\) wait at barrier_sites.cu:[0-9]+;.* these warps met there and the group went on"
expect sites_block 0 "^sites_block: ok$"
expect sites_warp 1 "barrier-divergence .*lanes of one warp wait at different barriers, so the group was ended"
expect exited_syncwarp 0 "^exited_syncwarp: ok$" "finding"
expect ballot_lanemask 1 "warp-collective .*lane 0 calls __ballot_sync with mask 0x00000000, which leaves itself out: an illegal instruction on the GPU" "barrier-divergence"
expect misaligned_float4 1 "misaligned-access .*loads 16 bytes at 0x[0-9a-f]+4, not a multiple of 16 \(32 of 32 lanes of warp 0\)"
expect misaligned_float4 1 "^misaligned_float4: ERROR .*misaligned address"
expect write_constant 1 "constant-write .*store to __constant__ 'coeffs'"
expect write_constant 1 "^write_constant: .*unspecified launch failure"
[ "$fail" -eq 0 ] && echo "checker probe: all checks passed"
exit "$fail"
