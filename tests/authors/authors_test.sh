#!/usr/bin/env bash
# The tgsim command for kernel authors and learners (issue 38), one case per ctest entry.
# Usage: authors_test.sh TGSIM CASE
#   html_paths    `explain KERNEL --html` and `--source`, run outside the project: no absolute
#                 path of the build machine (the catalog's files are named kernels/FILE)
#   dead_shared   a kernel whose shared-memory work the compiler removed says so; one whose
#                 shared accesses stay does not
#   explain_file  `explain FILE` names no "(n 0)" and --at G predicts the time of G threadgroups
#   json_paths    --json names the kernel file as the user gave it, never by an absolute path
#   dims          an index outside an inner dimension of a shared array (inside the array) is
#                 an out-of-bounds finding naming the array, its shape and each index; pointer
#                 arithmetic over the whole array and in-range tiles are not
#   progress      a long launch (whole: --sample off) with stderr not a terminal: one progress line per tenth of groups
set -u
tgsim=$1 case=$2
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
case $case in
  html_paths)
    "$tgsim" explain transpose_shared --n 256 --threads 2 --html page.html --source >out.txt 2>&1 ||
      { cat out.txt; fail "explain exited with an error"; }
    grep -nE "(^|[ >'\"(])/[^ <'\"]+\.(cu|cuh|hpp|h|metal|cpp)" page.html out.txt &&
      fail "an absolute path of the build machine is shown"
    grep -q "kernels/transpose.cu" page.html || fail "the page does not name kernels/transpose.cu"
    grep -q "kernels/transpose.cu" out.txt || fail "--source does not name kernels/transpose.cu"
    ;;
  dead_shared)
    args=(--grid 2 --block 64 'float[128]' 'float[128]' int:128)
    "$tgsim" run "$here/dead_shared.cu" --kernel dead_tile "${args[@]}" >dead.txt 2>&1 || { cat dead.txt; fail "run"; }
    grep -q "note: 0 shared accesses: .*the compiler removed it" dead.txt || { cat dead.txt; fail "no note for dead_tile"; }
    "$tgsim" run "$here/dead_shared.cu" --kernel live_tile "${args[@]}" >live.txt 2>&1 || { cat live.txt; fail "run"; }
    grep -q "0 shared accesses" live.txt && { cat live.txt; fail "a note for live_tile, whose shared accesses stay"; }
    "$tgsim" run "$here/dead_shared.cu" --kernel dead_tile "${args[@]}" --json >dead.json 2>&1
    grep -q '"0 shared accesses' dead.json || { cat dead.json; fail "no note in the JSON"; }
    ;;
  explain_file)
    cp "$here/matchers.cu" k.cu
    args=(--kernel authors_stride2 --grid 4 --block 32 'float[128]' 'float[128]')
    "$tgsim" explain k.cu "${args[@]}" --source >plain.txt 2>&1 || { cat plain.txt; fail "explain"; }
    grep -n "(n 0)\|（n 0）\|n 0)" plain.txt && fail "explain FILE shows a problem size n 0"
    "$tgsim" explain k.cu "${args[@]}" --at 4096 >at.txt 2>&1 || { cat at.txt; fail "explain --at"; }
    grep -q "estimate for 4096 threadgroups" at.txt || { cat at.txt; fail "--at is not honoured"; }
    e1=$(grep -o "estimate: [0-9.]* ms" plain.txt) e2=$(grep -o "estimate: [0-9.]* ms" at.txt)
    [ -n "$e1" ] && [ -n "$e2" ] && [ "$e1" != "$e2" ] || fail "the estimate did not change with --at ($e1 / $e2)"
    ;;
  json_paths)
    mkdir sub && cp "$here/dims.cu" sub/k.cu
    "$tgsim" run sub/k.cu --kernel inner_oob --grid 1 --block 32 'float[32]' --json >out.json 2>err.txt
    grep -q '"file": "sub/k.cu"' out.json || { cat out.json err.txt; fail "no file named sub/k.cu"; }
    grep -n '"file2\?": "/' out.json && fail "an absolute path in the JSON"
    "$tgsim" check sub/k.cu --kernel inner_oob --grid 1 --block 32 'float[32]' --json >check.json 2>err.txt
    grep -q '"file": "sub/k.cu"' check.json || { cat check.json err.txt; fail "check: no file named sub/k.cu"; }
    grep -n '"file2\?": "/' check.json && fail "check: an absolute path in the JSON"
    ;;
  dims)
    # has_finding JSON LINE THREAD COUNT TEXT: one out-of-bounds finding at LINE, first thread
    # THREAD, COUNT times, its message containing TEXT.
    has_finding() {
      python3 - "$@" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
f = [x for x in j["findings"] if x["kind"] == "out-of-bounds"]
ok = len(f) == 1 and f[0]["line"] == int(sys.argv[2]) and f[0]["thread"][0] == int(sys.argv[3]) \
     and f[0]["count"] == int(sys.argv[4]) and sys.argv[5] in f[0]["message"]
sys.exit(0 if ok else 1)
PY
    }
    "$tgsim" check "$here/dims.cu" --kernel inner_oob --grid 1 --block 32 'float[32]' --json >inner.json 2>>stderr.txt
    has_finding inner.json 9 25 7 "shared index 33 in dimension 2 of 's[32][33]' is outside [0, 33): s[0][33]" ||
      { cat inner.json; fail "inner_oob: no finding naming s[0][33] of s[32][33] at dims.cu:9"; }
    "$tgsim" run "$here/dims.cu" --kernel inner_oob --grid 1 --block 32 'float[32]' --json >run.json 2>>stderr.txt
    has_finding run.json 9 25 7 "s[0][33]" || { cat run.json; fail "inner_oob: run reports no finding"; }
    "$tgsim" check "$here/dims.cu" --kernel three_d --grid 1 --block 8 'int[8]' --json >three.json 2>>stderr.txt
    has_finding three.json 38 4 4 "shared index 4 in dimension 2 of 'c[2][4][8]' is outside [0, 4): c[0][4]" ||
      { cat three.json; fail "three_d: no finding naming c[0][4] of c[2][4][8]"; }
    "$tgsim" check "$here/dims.cu" --kernel extern_rows --grid 1 --block 32 --shared 4224 'float[32]' --json >ext.json 2>>stderr.txt
    has_finding ext.json 48 25 7 "shared index 33 in dimension 2 of 'rows[0][33]' is outside [0, 33): rows[1][33]" ||
      { cat ext.json; fail "extern_rows: no finding naming rows[1][33]"; }
    "$tgsim" check "$here/dims.cu" --kernel flattened --grid 1 --block 32 'float[32]' >flat.txt 2>&1 ||
      { cat flat.txt; fail "flattened: a finding for pointer arithmetic inside the array"; }
    "$tgsim" check "$here/dims.cu" --kernel tiles --grid 1 --block 16,16 'float[256]' 'float[256]' int:16 >tiles.txt 2>&1 ||
      { cat tiles.txt; fail "tiles: a finding for in-range subscripts"; }
    ;;
  progress)
    "$tgsim" run "$here/busy.cu" --kernel authors_busy --grid 32768 --block 256 'float[4096]' 'float[4096]' \
      int:4096 --threads 1 --sample off >out.txt 2>err.txt || { cat out.txt err.txt; fail "run"; }
    lines=$(grep -c "tgsim: authors_busy: [0-9]*% of 32768 threadgroups done" err.txt)
    [ "$lines" -ge 1 ] && [ "$lines" -le 10 ] || { cat err.txt; fail "$lines progress lines (1 to 10 expected)"; }
    grep -q $'\r' err.txt && fail "terminal redraws (carriage returns) in a log"
    ;;
  *) fail "unknown case $case" ;;
esac
echo "PASS: $case"
