#!/usr/bin/env bash
# cli_ja_report.sh TGSIM FILE: with --lang ja, `tgsim run` prints its report in Japanese (issue
# 38 item 1): for a catalog kernel with a finding and for a kernel file, no English word but
# identifiers (kernel names, file:line, access kinds, finding kinds, profile and bound names,
# BAR/SHFL/L1/L2/DRAM/CPU/ms), and the counter table's rows as wide on screen as their header
# (a CJK character takes two columns). Without --lang ja the report is English.
set -u
tgsim=$1 file=$2
fail() { echo "FAIL: $*"; exit 1; }
export LANG=C LC_ALL=C
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$tgsim" run transpose_oob --n 64 --lang ja >"$out/catalog.txt" 2>/dev/null
[ $? -eq 1 ] || fail "run transpose_oob --lang ja: expected exit 1 (a finding)"
"$tgsim" run "$file" --kernel tile_2d_loop --grid 2 --block 256 'float[4096]' 'float[4096]=0' --lang ja \
  >"$out/file.txt" 2>/dev/null || fail "run FILE --lang ja failed"
"$tgsim" run "$file" --kernel tile_2d_loop --grid 2 --block 256 'float[4096]' 'float[4096]=0' \
  >"$out/file_en.txt" 2>/dev/null || fail "run FILE failed"
grep -q "shared load" "$out/file_en.txt" || fail "the English report lost its rows"
python3 - "$out/catalog.txt" "$out/file.txt" <<'PY' || exit 1
import re, sys, unicodedata
def width(s):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
english = re.compile(r"\b(load|loads|store|stores|sectors?|findings?|kernel|grid|block|barriers?|memory|"
                     r"instr|estimate|result|wavefronts?|conflicts?|source|site|thread|threads|reference|"
                     r"bound|equals|differs|none|hits|read|write|bytes|times?|warp|acc|req)\b", re.I)
for path in sys.argv[1:]:
    lines = open(path, encoding="utf-8").read().splitlines()
    if path.endswith("file.txt"):
        lines = lines[1:]  # the kernel's C++ signature
    for line in lines:
        # a site row's place and kind (file:line:col, then global.load, barrier, shfl ...)
        text = re.sub(r"^    \S+\.(cu|metal|cpp|h):\d+(:\d+)?\s+\S+", " ", line)
        text = re.sub(r"\S+\.(cu|metal|cpp|h):\d+(:\d+)?", " ", text)      # file:line[:col]
        text = re.sub(r"\b[a-z]+\.[a-z]+\b", " ", text)                    # global.load ...
        text = re.sub(r"--[a-z-]+( (source|hardware))?", " ", text)         # options
        text = re.sub(r"\b(tile_2d_loop|transpose_oob|nvidia-h100|out-of-bounds|l1|l2|dram|latency|fp32)\b", " ", text)
        m = english.search(text)
        if m:
            sys.exit(f"FAIL: English word {m.group(0)!r} in {path}: {line}")
    start = next(i for i, l in enumerate(lines) if l.startswith("カーネル "))
    table = lines[start + 1:start + 7]
    if width(table[0]) != width(table[1]) or width(table[1]) != width(table[2]):
        sys.exit("FAIL: the global rows are not as wide as their header:\n" + "\n".join(table[:3]))
    if width(table[3]) != width(table[4]) or width(table[4]) != width(table[5]):
        sys.exit("FAIL: the shared rows are not as wide as their header:\n" + "\n".join(table[3:6]))
print("cli_ja_report: the Japanese reports hold no English word and keep their columns")
PY
