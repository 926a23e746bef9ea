#!/usr/bin/env bash
# grid_sync.sh TGSIM: a cooperative launch from the command line (--cooperative): the counts of
# grid.sync() (two BARs per warp, one 4-byte global atomic per group) and the same report for
# any worker count.
set -u
tgsim=$1
dir=$(cd "$(dirname "$0")" && pwd)
k=$dir/grid_sync_kernels.cu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
run() {  # run WORKERS OUT
  "$tgsim" run "$k" --kernel rotate 'int[256]' 'int[256]' int:3 --grid 4 --block 64 --cooperative \
    --threads "$1" --json > "$2" 2> "$work/err" || { echo "exit $? with $1 workers:"; cat "$work/err"; exit 1; }
}
run 1 "$work/one.json"
run 2 "$work/two.json"
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
# 4 groups x 2 warps x 3 rounds x 2 grid syncs x 2 BARs; 4 groups x 6 grid syncs atomics
want() {
  local got; got=$(field "$work/one.json" "$1")
  if [ "$got" != "$2" ]; then echo "FAILED: $1 = $got, expected $2"; fail=1; else echo "ok: $1 = $got"; fi
}
want "d['counters']['barriers']" 96
want "d['counters']['global']['atomic']['instructions']" 24
want "d['counters']['global']['atomic']['sectors']" 24
want "d['counters']['global']['load']['instructions']" 48
want "d['counters']['global']['store']['instructions']" 48
want "sorted(s['line'] for s in d['sites'] if s['kind'] == 'global.atomic')" "[11, 13]"
want "len(d['findings'])" 0
want "any('no cache model' in n for n in d['notes'])" True
if cmp -s "$work/one.json" "$work/two.json"; then echo "ok: the same report with 1 and 2 workers"
else echo "FAILED: the reports of 1 and 2 workers differ"; diff "$work/one.json" "$work/two.json" | head; fail=1; fi
[ $fail = 0 ] && echo "grid sync from the command line: all checks passed"
exit $fail
