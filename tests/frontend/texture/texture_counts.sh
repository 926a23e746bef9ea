#!/usr/bin/env bash
# texture_counts.sh PROGRAM: runs texture_counts.cu's program with TGSIM_REPORT and checks each
# kernel's global loads in its report (instructions, thread accesses, bytes, sectors).
set -u
report=$(mktemp)
trap 'rm -f "$report"' EXIT
TGSIM_REPORT=$report "$1" || { echo "texture_counts: the program failed"; exit 1; }
python3 - "$report" <<'PY'
import json, sys
want = {"point_fetch": (1, 32, 128, 4), "bilinear_fetch": (4, 128, 512, 18)}
bad = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["kernel"] not in want:
        continue
    g = r["counters"]["global"]["load"]
    got = (g["instructions"], g["thread_accesses"], g["bytes"], g["sectors"])
    ok = got == want.pop(r["kernel"])
    bad += not ok
    print(r["kernel"], "global loads (instructions, thread accesses, bytes, sectors):", got, "ok" if ok else "WRONG")
bad += len(want)
print("texture counts:", "all checks passed" if bad == 0 else "%d failed" % bad)
PY
