#!/usr/bin/env python3
"""The project's own speed targets, judged on the rows of `tgsim bench --json` (the command
reports measurements only; what counts as fast enough is the project's, kept here):
  counters <= 3.5x and cache <= 4x HIP-CPU's time, the checker <= 1.4x counters-only,
  peak RSS with the cache model <= 2 x buffers + 200 MB, >= 85% parallel efficiency of the
  tiled matmul at all workers (stated for N=512 one worker, and N=1024 all workers).
  tests/bench/targets.py BENCH.json [--markdown] [--require]
    --markdown  a table for docs/performance.md (tests/bench/perf_table.sh)
    --require   exit 1 when a target is not met"""
import json
import sys


def judge(bench):
    """Every target the rows can judge, as (what, value, limit, at_most, met)."""
    runs = bench["runs"]
    all_workers = max((r["threads"] for r in runs), default=1)
    out = []

    def target(what, v, limit, at_most):
        out.append((what, v, limit, at_most, v <= limit if at_most else v >= limit))

    for r in runs:
        mode, kernel, t = r["mode"], r["kernel"], r["threads"]
        at = f"{kernel} N={r['n']}, {t} {'worker' if t == 1 else 'workers'}: "
        if r["vs_hipcpu"] > 0 and mode in ("counters", "cache"):
            target(at + mode + " time / HIP-CPU time", r["vs_hipcpu"], 4.0 if mode == "cache" else 3.5, True)
        if mode == "checker" and r["checker_vs_counters_only"] > 0:  # 0: no counters row
            target(at + "checker time / counters-only time", r["checker_vs_counters_only"], 1.4, True)
        if mode == "cache" and r["peak_rss_per_run"]:
            target(at + "peak RSS MB (2 x buffers + 200)", r["peak_rss_mb"], 2.0 * r["buffers_mb"] + 200.0, True)
        if (t == all_workers and t > 1 and kernel == "matmul_tiled16" and mode != "checker"
                and r["speedup_vs_1_thread"] > 0):
            target(at + mode + " efficiency", r["speedup_vs_1_thread"] / t, 0.85, False)
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        targets = judge(json.load(f))
    if "--markdown" in argv:
        if targets:
            print("| target | value | limit | met |")
            print("|---|---:|---:|---|")
        for what, v, limit, at_most, met in targets:
            print(f"| {what} | {v:.3f} | {'<=' if at_most else '>='} {limit:.2f} | {'met' if met else 'missed'} |")
    else:
        print("targets (stated for N=512 one worker, and N=1024 all workers):")
        for what, v, limit, at_most, met in targets:
            print(f"  {what:<66}{v:8.3f}{'  <= ' if at_most else '  >= '}{limit:6.2f}  {'met' if met else 'NOT MET'}")
    return 1 if "--require" in argv and not all(t[4] for t in targets) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
