#!/usr/bin/env bash
# determinism_across_runs.sh TGSIM: the same counters in two processes (each with its own
# address-space layout) for a launch whose footprint overflows L1: the cache model works on
# simulated device addresses, not on where the host mapped the buffers.
set -euo pipefail
tgsim=$1
a=$("$tgsim" run int_matmul_global --n 250 --json | grep -v '"tgsim"')
b=$("$tgsim" run int_matmul_global --n 250 --json | grep -v '"tgsim"')
if [ "$a" != "$b" ]; then
  echo "the two runs differ:"; diff <(printf '%s\n' "$a") <(printf '%s\n' "$b") | head -20; exit 1
fi
printf '%s\n' "$a" | grep -m1 '"l1_hit_sectors"'
echo "ok: two processes, the same report"
