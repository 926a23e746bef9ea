#!/usr/bin/env bash
# source_layout_test.sh TGSIM DIR: `tgsim explain FILE --source` on a file with tabs, a long
# name and long lines (issue 38 item 2), in English and Japanese: no tab reaches the terminal,
# file names and line numbers are whole, every counter of a line is whole and in its column, the
# code of every line is all there (wrapped, never cut: no "~"), and rows fit 100 columns.
set -u
tgsim=$1 dir=$2
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sub=a_directory_with_a_long_name_to_see_the_listing_header
mkdir -p "$work/$sub"
cp "$dir/a_source_file_with_a_long_name_for_layout.cu" "$work/$sub/"
cd "$work" || exit 1
for lang in en ja; do
  "$tgsim" --lang $lang explain "$sub/a_source_file_with_a_long_name_for_layout.cu" --grid 4096 --block 32 \
    'float[4194304]' 'float[131072]=0' int:0 --source --no-try >"$work/$lang.txt" 2>&1 || fail "explain ($lang): $(tail -3 "$work/$lang.txt")"
  # Under AddressSanitizer (bash .ci/sanitize) its runtime warns once on stderr: not tgsim's output.
  sed -i '/^==[0-9]*==WARNING: ASan /d' "$work/$lang.txt"
  python3 - "$work/$lang.txt" "$sub/a_source_file_with_a_long_name_for_layout.cu" <<'PY' || exit 1
import re, sys, unicodedata
out_path, src_path = sys.argv[1], sys.argv[2]
out = open(out_path, encoding="utf-8").read()
lines = out.splitlines()
def width(s):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
def fail(msg):
    sys.exit(f"FAIL ({out_path}): {msg}")
if "\t" in out:
    fail("a tab reached the output")
if "~" in out:
    fail("something was cut (~): " + next(l for l in lines if "~" in l))
name = "a_source_file_with_a_long_name_for_layout.cu"
for ln in (6, 9):
    if not re.search(rf"(^|\s){re.escape(name)}:{ln}(\s|$)", out, re.M):
        fail(f"the worst lines lack the whole site {name}:{ln}")
header = f"{src_path}:2-10"
if header not in lines:
    fail(f"the listing lacks its whole header {header}")
for l in lines:
    if l != header and width(l) > 100:
        fail(f"a row wider than 100 columns: {l}")
# The listing: under its header (one row, or two in Japanese), whose last word heads the code
# column; a row with something left of that column starts a source line (its number first), the
# rows under it go on with it.
at = lines.index(header) + 1
while lines[at].split()[-1] not in ("source", "ソース"):
    at += 1
head_row = lines[at]
code_col = width(head_row) - width(head_row.split()[-1]) - 1  # the rows below are ASCII
rows, code, current = {}, {}, None
for l in lines[at + 1:]:
    if l[:code_col].strip():
        current = int(l.split()[0])
        rows[current] = l[:code_col]
    code[current] = code.get(current, "") + l[code_col:]
# (line 9's tile[tx][0], [tx][1], [tx][2] are one LDS.128, three of an aligned four, as ptxas reads them)
# (line 6's loop of 32 stores is unrolled as nvcc unrolls it: tile[tx][r..r+3] are one STS.128)
want = {6: ["97.0%", "131,072", "4.0", "1,048,576", "917,504"], 9: ["3.0%", "4,096", "4.0", "143,360", "114,688"]}
for ln, cells in want.items():
    got = rows[ln].split()
    if got[0] != str(ln) or got[1] != cells[0] or got[-4:] != cells[1:]:
        fail(f"line {ln}'s counters are not whole: {rows[ln]}")
src = open(src_path, encoding="utf-8").read().splitlines()
for ln in range(2, 11):
    have = re.sub(r"\s+", "", code.get(ln, ""))
    expect = re.sub(r"\s+", "", src[ln - 1])
    if have != expect:
        fail(f"line {ln}'s code is not all there:\n  {have}\n  {expect}")
PY
done
echo "source_layout: tabs expanded, names, counters and code whole, 100 columns"
