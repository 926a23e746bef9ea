#!/bin/bash
# The project's speed targets judged on `tgsim bench --json` by tests/bench/targets.py: at a tiny
# size with a stand-in for HIP-CPU (fake_hipcpu.sh, 1 ms) every target the rows allow is judged
# (the HIP-CPU ratios of counters and cache, the checker over counters-only, peak RSS, the
# efficiency at the last worker count); --require fails when one is missed.
#   tests/bench/targets_test.sh TGSIM
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
json=$(mktemp)
trap 'rm -f "$json"' EXIT
"$1" bench --sizes 32 --reps 1 --threads 1,2 --json --hipcpu "$here/fake_hipcpu.sh" > "$json"
out=$(python3 "$here/targets.py" "$json")
echo "$out"
for want in "counters time / HIP-CPU time .* <=   3.50  (met|NOT MET)" "cache time / HIP-CPU time .* <=   4.00  (met|NOT MET)" \
            "checker time / counters-only time .* <=   1.40  (met|NOT MET)" "peak RSS MB \(2 x buffers \+ 200\)" "int_matmul_global N=32, 1 worker: peak RSS MB" \
            "2 workers: engine efficiency .* >=   0.85  (met|NOT MET)"; do
  grep -qE "$want" <<<"$out" || { echo "targets_test: no target matching '$want'" >&2; exit 1; }
done
# (1 ms for HIP-CPU: tgsim's ratios over it are missed, so --require fails)
if python3 "$here/targets.py" "$json" --require > /dev/null; then
  echo "targets_test: --require passed with targets missed" >&2
  exit 1
fi
echo "targets_test: every target judged"
