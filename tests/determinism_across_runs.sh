#!/usr/bin/env bash
# determinism_across_runs.sh TGSIM: the same counters in two processes (each with its own
# address-space layout) for a launch whose footprint overflows L1: the cache model works on
# simulated device addresses, not on where the host mapped the buffers.
# No `producer | grep -m1` (or -q) here: under pipefail, grep leaving at its first match makes
# the producer's later writes fail with SIGPIPE (exit 141) whenever the two run at once.
set -euo pipefail
tgsim=$1
run() {
  local out rc=0
  out=$("$tgsim" run int_matmul_global --n 250 --json) || rc=$?
  [ "$rc" -eq 0 ] || { echo "run $1: tgsim exited $rc" >&2; exit 1; }
  grep -v '"tgsim"' <<<"$out"
}
a=$(run 1)
b=$(run 2)
if [ "$a" != "$b" ]; then
  echo "the two runs differ:"; diff <(printf '%s\n' "$a") <(printf '%s\n' "$b") || true; exit 1
fi
grep -m1 '"l1_hit_sectors"' <<<"$a"
echo "ok: two processes, the same report"
