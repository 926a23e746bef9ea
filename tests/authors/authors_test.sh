#!/usr/bin/env bash
# The tgsim command for kernel authors and learners (issue 38), one case per ctest entry.
# Usage: authors_test.sh TGSIM CASE
#   html_paths    `explain KERNEL --html` and `--source`, run outside the project: no absolute
#                 path of the build machine (the catalog's files are named kernels/FILE)
#   dead_shared   a kernel whose shared-memory work the compiler removed says so; one whose
#                 shared accesses stay does not
set -u
tgsim=$1 case=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
case $case in
  html_paths)
    "$tgsim" explain transpose_shared --n 256 --threads 2 --html page.html --source >out.txt 2>&1 ||
      { cat out.txt; fail "explain exited with an error"; }
    grep -n "$root" page.html out.txt && fail "an absolute path of the build machine ($root) is shown"
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
  *) fail "unknown case $case" ;;
esac
echo "PASS: $case"
