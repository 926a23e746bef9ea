#!/usr/bin/env bash
# spin_wait.sh TGSIM WORKDIR: threadgroups that wait for each other through a global flag
# (tests/hostile/spin_wait.cu) run to completion with the same report, byte for byte, and the
# right result for --threads 1, 2 and 8, under run and check; a flag nobody sets and a grid whose
# resident blocks all wait for blocks that cannot start end in a watchdog finding at the spin.
# Before co-resident groups (engine/coresident.cpp), --threads 1 ended every wait on a later
# block in a watchdog finding ("a runaway loop?") and more workers could succeed.
set -uo pipefail
tgsim=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
src=$here/spin_wait.cu
rm -rf "$work" && mkdir -p "$work"
export TGSIM_CACHE="$work/cache"
fail=0

# same_reports NAME CMD...: the JSON report and the saved buffer for 1, 2 and 8 workers; prints
# the saved buffer of the first run as decimal ints.
same_reports() {
  local name=$1; shift
  local th
  for th in 1 2 8; do
    "$@" --threads "$th" --json --save "out=$work/$name.$th.bin" >"$work/$name.$th.json" 2>"$work/$name.$th.err"
    local rc=$?
    if [ "$rc" != 0 ]; then echo "FAIL $name --threads $th: exit $rc"; cat "$work/$name.$th.err"; fail=1; fi
  done
  for th in 2 8; do
    cmp -s "$work/$name.1.json" "$work/$name.$th.json" || { echo "FAIL $name: report of --threads $th differs"; diff "$work/$name.1.json" "$work/$name.$th.json" | head; fail=1; }
    cmp -s "$work/$name.1.bin" "$work/$name.$th.bin" || { echo "FAIL $name: result of --threads $th differs"; fail=1; }
  done
  grep -q '"findings": \[\]' "$work/$name.1.json" || { echo "FAIL $name: findings"; grep -A12 '"findings"' "$work/$name.1.json"; fail=1; }
}
ints() { od -An -td4 -v "$1" | tr -s ' \n' ' ' | sed 's/^ //;s/ $//'; }

for cmd in run check; do
  # Block 0 spins on atomicAdd(flag, 0) until the last block's atomicExch; 32 lanes read 42 + lane.
  same_reports "$cmd.atomic" "$tgsim" "$cmd" "$src" --kernel wait_for_last --grid 4 --block 32 'int[1]=0' 'int[1]=0' 'int[32]=0'
  want=$(seq 42 73 | tr '\n' ' ' | sed 's/ $//')
  [ "$(ints "$work/$cmd.atomic.1.bin")" = "$want" ] || { echo "FAIL $cmd.atomic result: $(ints "$work/$cmd.atomic.1.bin")"; fail=1; }
  # The same through a volatile flag.
  same_reports "$cmd.volatile" "$tgsim" "$cmd" "$src" --kernel volatile_wait_for_last --grid 4 --block 32 'int[1]=0' 'int[1]=0' 'int[1]=0'
  [ "$(ints "$work/$cmd.volatile.1.bin")" = "7" ] || { echo "FAIL $cmd.volatile result"; fail=1; }
  # A chain of 16 blocks, each waiting for the next: out[b] = b + ... + 15.
  same_reports "$cmd.chain" "$tgsim" "$cmd" "$src" --kernel chain --grid 16 --block 32 --shared 64 'int[16]=0' 'int[16]=0'
  want=$(python3 -c 'print(" ".join(str(sum(range(b, 16))) for b in range(16)))')
  [ "$(ints "$work/$cmd.chain.1.bin")" = "$want" ] || { echo "FAIL $cmd.chain result: $(ints "$work/$cmd.chain.1.bin")"; fail=1; }
done
# The spin counts as one iteration: one atomic of the spin and one of the release.
grep -A4 '"atomic": {' "$work/run.atomic.1.json" | sed -n 1,5p | grep '"instructions": 2,' >/dev/null ||
  { echo "FAIL run.atomic: the spin's atomics are not counted once"; fail=1; }

# A chain of 132 blocks fits an H100 with 200,000 bytes of shared memory each (1 per SM): it
# completes. 140 do not: the 132 resident blocks all wait and the rest cannot start.
"$tgsim" run "$src" --kernel chain --grid 132 --block 32 --shared 200000 'int[132]=0' 'int[132]=0' --threads 2 \
  >"$work/fits.txt" 2>&1 || { echo "FAIL chain of 132"; cat "$work/fits.txt"; fail=1; }
grep -q "findings: none" "$work/fits.txt" || { echo "FAIL chain of 132: findings"; fail=1; }
for th in 1 2 8; do
  "$tgsim" run "$src" --kernel chain --grid 140 --block 32 --shared 200000 'int[140]=0' 'int[140]=0' --threads "$th" \
    --json >"$work/big.$th.json" 2>/dev/null
  [ $? = 1 ] || { echo "FAIL chain of 140 --threads $th: exit status"; fail=1; }
done
cmp -s "$work/big.1.json" "$work/big.2.json" && cmp -s "$work/big.1.json" "$work/big.8.json" ||
  { echo "FAIL chain of 140: reports differ"; fail=1; }
python3 - "$work/big.1.json" <<'PY' || fail=1
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
assert len(f) == 1 and f[0]["kind"] == "watchdog", f
f = f[0]
assert f["file"].endswith("spin_wait.cu") and f["line"] == 51 and f["block"] == [0, 0, 0] and f["thread"] == [0, 0, 0], f
assert f["count"] == 132, f
for part in ["of block (0,0,0) spins on one address that no resident thread sets",
             "holds at most 132 blocks of 32 threads", "on the GPU the launch would hang"]:
    assert part in f["message"], (part, f["message"])
PY

# A flag nobody sets: the watchdog at the spin, for every waiting block, at once (no hang).
timeout 60 "$tgsim" run "$src" --kernel never_set --grid 2 --block 64 'int[1]=0' 'int[128]=0' --threads 1 >"$work/never.txt" 2>&1
[ $? = 1 ] || { echo "FAIL never_set: exit status"; cat "$work/never.txt"; fail=1; }
grep -q "watchdog at spin_wait.cu:65 \[2 times\], e.g. block (0,0,0) thread (0,0,0): thread (0,0,0) (warp 0, lane 0) of block (0,0,0) spins on one address that no thread of the launch sets" "$work/never.txt" ||
  { echo "FAIL never_set: message"; cat "$work/never.txt"; fail=1; }

# The same in Japanese: the example names the wait, not "too many accesses between barriers".
timeout 60 "$tgsim" check "$src" --kernel never_set --grid 2 --block 64 'int[1]=0' 'int[128]=0' --threads 1 --lang ja >"$work/never_ja.txt" 2>&1
grep -q "書き換えないアドレスを待ち続けている" "$work/never_ja.txt" ||
  { echo "FAIL never_set --lang ja: example"; cat "$work/never_ja.txt"; fail=1; }

# 300 waiting blocks of 64 threads hold more stacks than tgsim keeps (16,384 threads): a finding
# that says so, not a crash (each thread's stack is two memory mappings of at most 65,530).
timeout 120 "$tgsim" run "$src" --kernel never_set --grid 300 --block 64 'int[1]=0' 'int[19200]=0' --threads 2 >"$work/cap.txt" 2>&1
[ $? = 1 ] || { echo "FAIL never_set x300: exit status"; tail -3 "$work/cap.txt"; fail=1; }
grep -q "watchdog at spin_wait.cu:65 \[256 times\].*tgsim keeps at most 256 groups of 64 threads waiting at once" "$work/cap.txt" ||
  { echo "FAIL never_set x300: message"; cat "$work/cap.txt"; fail=1; }

[ $fail = 0 ] && echo "spin waits: same reports for 1, 2 and 8 workers"
exit $fail
