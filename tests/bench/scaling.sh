#!/bin/bash
# tgsim's scaling on this machine: `tgsim bench` at N=1024 (default; counters and cache model
# on) with 1, 2, 4, 8 and 16 workers, each a separate run with --reps 2, and the efficiency of
# each row: (its 1-worker time / its time) / workers.
#   tests/bench/scaling.sh path/to/tgsim [N]
# Not run by ctest (it takes minutes).
set -euo pipefail
tgsim=${1:?usage: scaling.sh path/to/tgsim [N]}
n=${2:-1024}
echo "machine: $(nproc) cores,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
for w in 1 2 4 8 16; do "$tgsim" bench --sizes "$n" --reps 2 --threads "$w" --json; done |
  python3 -c "
import json, sys
dec, text, one = json.JSONDecoder(), sys.stdin.read(), {}
while text.strip():
    d, end = dec.raw_decode(text.lstrip()); text = text.lstrip()[end:]
    for r in d['runs']:
        mode = 'checker' if r['checker'] else ('counters' if r['count'] else 'engine')
        key = (r['kernel'], mode)
        one.setdefault(key, r['tgsim_s']) if r['threads'] == 1 else None
        eff = one[key] / r['tgsim_s'] / r['threads'] if key in one else float('nan')
        print(f\"workers={r['threads']:2d} {r['kernel']:15s} {mode:8s} {r['tgsim_s']:9.3f} s \"
              f\"{r['ns_per_access']:6.2f} ns/access  efficiency {eff:5.2f}\")
"
