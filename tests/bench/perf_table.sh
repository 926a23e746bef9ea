#!/bin/bash
# The current performance table of docs/performance.md, regenerated: runs `tgsim bench --json` and
# prints the markdown that docs/performance.md holds (the machine, the date, the command, the rows,
# HIP-CPU's times, what the machine allows, and the project's targets judged by
# tests/bench/targets.py). Paste its output over the
# section "The current table" of docs/performance.md; nothing else there is a measurement.
#   tests/bench/perf_table.sh [BENCH OPTION...]
#     TGSIM=path/to/tgsim   the binary (default: build/bin/tgsim)
#     HIPCPU=path/to/prog   HIP-CPU's matmul_tiled16 (examples/hipcpu/; adds --hipcpu PROG)
#   With no options: --sizes 512 --reps 10 (every worker count from 1 to all cores).
set -euo pipefail
TGSIM=${TGSIM:-build/bin/tgsim}
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--sizes 512 --reps 10)
[ -z "${HIPCPU:-}" ] || args+=(--hipcpu "$HIPCPU")
json=$(mktemp)
trap 'rm -f "$json"' EXIT
"$TGSIM" bench "${args[@]}" --json > "$json"
python3 - "$json" "$(date -u +%Y-%m-%d)" "$TGSIM bench ${args[*]} --json" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
date, command = sys.argv[2], sys.argv[3]
def x(v, digits=2):
    return "-" if not v else f"{v:.{digits}f}"
print(f"Measured {date} on {b['cores']} cores, {b['cpu']}; tgsim {b['tgsim']}; "
      f"each row the minimum of {b['reps']} rounds. Command: `{command}` "
      f"(through `tests/bench/perf_table.sh`).")
print()
print("| kernel | mode | N | workers | tgsim s | x engine | x HIP-CPU | vs 1 worker | busy | ns/access | peak RSS MB |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for r in b["runs"]:
    print(f"| {r['kernel']} | {r['mode']} | {r['n']} | {r['threads']} | {r['tgsim_s']:.3f} | "
          f"{x(r['vs_uncounted_engine'])} | {x(r['vs_hipcpu'])} | {x(r['speedup_vs_1_thread'])} | "
          f"{x(r['workers_busy'])} | {x(r['ns_per_access'], 1)} | {r['peak_rss_mb']:.0f} |")
if b["hipcpu"]:
    print()
    print("| HIP-CPU | N | workers | s | ns/access | efficiency |")
    print("|---|---:|---:|---:|---:|---:|")
    for h in b["hipcpu"]:
        print(f"| matmul_tiled16 | {h['n']} | {h['workers']} | {h['seconds']:.3f} | "
              f"{h['ns_per_access']:.2f} | {x(h['efficiency'])} |")
m = b.get("machine")
if m:
    print()
    print(f"What the machine allows a program that shares nothing, on {m['workers']} threads at once: "
          f"a register-only loop runs at {m['register_loop_efficiency']:.2f} of its speed alone, "
          f"a loop reading its own 1 MiB at {m['l2_loop_efficiency']:.2f}.")
PY
echo
python3 "$(dirname "$0")/targets.py" "$json" --markdown
