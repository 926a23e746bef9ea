#!/usr/bin/env bash
# Measured advice for a user's kernel file (issue 38 item 3), one case per ctest entry.
# Usage: advice_test.sh TGSIM CASE
#   pad       `run FILE --advice` on a tile whose two rows per warp meet in two banks: the pad
#             tried is the one that separates them ([16][18] -> [16][48], not the usual +1), the
#             re-run's conflicts fall from >0 to 0, in text and JSON; the user's file is untouched
#   explain   `explain FILE --source` shows the same tried line; --no-try shows none
#   no_help   a 1-D array read at stride 2: the tried pad does not help and is not advised
#   clean     a kernel without conflicts: nothing is tried
#   tile      `explain FILE --html`: the tile picture of the user's own shared array (lanes ->
#             words -> banks) from the recorded warp instruction, beside the padded array that
#             the re-run confirmed; with --no-try the unpadded one alone
#   ja        --lang ja: the tried line in Japanese, without ASCII ; or ? in its sentences
set -u
tgsim=$1 case=$2
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
cp "$here/rows.cu" k.cu
fail() { echo "FAIL: $*"; exit 1; }
rows=(--kernel smooth_rows --grid 4,4 --block 16,16 'float[4096]' 'float[4096]' int:64 --threads 2)
other=(--kernel every_other --grid 8 --block 32 'float[512]' 'float[256]' --threads 2)
# tried_numbers FILE: "BEFORE AFTER" of the first tried line of FILE
tried_numbers() {
  tr '\n' ' ' <"$1" | sed 's/  */ /g' | grep -o "tried: [^:]*: [0-9,]* -> [0-9,]* conflict" | head -1 |
    sed -E 's/.*: ([0-9,]*) -> ([0-9,]*) conflict/\1 \2/; s/,//g'
}
case $case in
  pad)
    "$tgsim" run k.cu "${rows[@]}" --advice >out.txt 2>&1 || { cat out.txt; fail "run --advice"; }
    grep -q "tried: tile\[16\]\[18\] -> tile\[16\]\[48\]" out.txt || { cat out.txt; fail "no tried line for [16][48]"; }
    read -r before after < <(tried_numbers out.txt)
    [ "${before:-0}" -gt 0 ] && [ "${after:-x}" = 0 ] || { cat out.txt; fail "conflicts $before -> $after, not >0 -> 0"; }
    grep -q "Fix: declare the array" out.txt || { cat out.txt; fail "the pad that helps is not advised"; }
    cmp -s k.cu "$here/rows.cu" || fail "the user's file was changed"
    [ "$(ls)" = "$(printf 'k.cu\nout.txt')" ] || { ls; fail "files left beside the kernel"; }
    "$tgsim" run k.cu "${rows[@]}" --advice --json >out.json 2>err.txt || { cat out.json err.txt; fail "--json"; }
    tr -d ' \n' <out.json >flat.json
    grep -q '"advice":\[{"file":"k.cu","line":13,"rule":"pad"' flat.json || { cat out.json; fail "no advice for line 13"; }
    grep -q '"to":"tile\[16\]\[48\]","pad":30,"conflicts_before":'"$before"',"conflicts_after":0,' flat.json ||
      { cat out.json; fail "the JSON's tried pad"; }
    grep -q '"helps":true' flat.json || { cat out.json; fail "the JSON does not say the pad helps"; }
    "$tgsim" run k.cu "${rows[@]}" --advice --no-try >plain.txt 2>&1 || { cat plain.txt; fail "--no-try"; }
    grep -q "tried:" plain.txt && { cat plain.txt; fail "--no-try tried a pad"; }
    grep -q "bank conflicts: pad the tile" plain.txt || { cat plain.txt; fail "--no-try dropped the rule"; }
    ;;
  explain)
    "$tgsim" explain k.cu "${rows[@]}" --source >out.txt 2>&1 || { cat out.txt; fail "explain --source"; }
    read -r before after < <(tried_numbers out.txt)
    grep -q "tried: tile\[16\]\[18\] -> tile\[16\]\[48\]" out.txt && [ "${before:-0}" -gt 0 ] && [ "${after:-x}" = 0 ] ||
      { cat out.txt; fail "explain --source: no tried line with conflicts >0 -> 0"; }
    "$tgsim" explain k.cu "${rows[@]}" --source --no-try >plain.txt 2>&1 || { cat plain.txt; fail "--no-try"; }
    grep -q "tried:" plain.txt && { cat plain.txt; fail "explain --no-try tried a pad"; }
    ;;
  no_help)
    "$tgsim" run k.cu "${other[@]}" --advice >out.txt 2>&1 || { cat out.txt; fail "run --advice"; }
    grep -q "tried: s\[64\] -> s\[65\]" out.txt || { cat out.txt; fail "the pad tried is not shown"; }
    read -r before after < <(tried_numbers out.txt)
    [ "${before:-0}" -gt 0 ] && [ "$before" = "$after" ] || { cat out.txt; fail "conflicts $before -> $after"; }
    grep -q "Not advised" out.txt && grep -q "No pad is advised" out.txt || { cat out.txt; fail "not said to fail"; }
    grep -q "Fix: declare\|pad the tile\|\[32\]\[33\]" out.txt && { cat out.txt; fail "a pad that does not help is advised"; }
    "$tgsim" run k.cu "${other[@]}" --advice --json | tr -d ' \n' >flat.json
    grep -q '"helps":false,"failed":"conflicts"' flat.json || { cat flat.json; fail "the JSON's failed pad"; }
    ;;
  clean)
    "$tgsim" run k.cu --kernel plain_rows --grid 8 --block 32,8 'float[2048]' 'float[2048]' --advice >out.txt 2>&1 ||
      { cat out.txt; fail "run --advice"; }
    grep -q "conflicts [1-9]" out.txt && { cat out.txt; fail "plain_rows has conflicts"; }
    grep -q "tried:" out.txt && { cat out.txt; fail "a pad tried on a kernel without conflicts"; }
    grep -q "No rule applies" out.txt || { cat out.txt; fail "no word that nothing applies"; }
    ;;
  tile)
    "$tgsim" explain k.cu "${rows[@]}" --source --html page.html >out.txt 2>&1 || { cat out.txt; fail "explain --html"; }
    for want in "smooth_rows: tile\[16\]\[18\]<" "bank of tile\[row\]\[col\] = (row\*18 + col) mod 32" \
                "30 banks for 32 lanes: 2 wavefronts (1 bank conflicts)" "smooth_rows: tile\[16\]\[48\] (re-run: " \
                "bank of tile\[row\]\[col\] = (row\*48 + col) mod 32" "32 banks for 32 lanes: 1 wavefront (0 bank conflicts)"; do
      grep -q "$want" page.html || fail "the page has no '$want'"
    done
    "$tgsim" explain k.cu "${rows[@]}" --source --no-try --html plain.html >out.txt 2>&1 || { cat out.txt; fail "--no-try"; }
    grep -q "smooth_rows: tile\[16\]\[18\]<" plain.html || fail "--no-try: no tile picture"
    grep -q "tile\[16\]\[48\]" plain.html && fail "--no-try: a padded tile that was not re-run"
    ;;
  ja)
    "$tgsim" --lang ja run k.cu "${rows[@]}" --advice >out.txt 2>&1 || { cat out.txt; fail "run --advice"; }
    grep -q "試した修正: tile\[16\]\[18\] -> tile\[16\]\[48\]: バンクコンフリクトのウェーブフロント [0-9,]* -> 0、" out.txt ||
      { cat out.txt; fail "no Japanese tried line"; }
    "$tgsim" --lang ja run k.cu "${other[@]}" --advice >other.txt 2>&1 || { cat other.txt; fail "run --advice"; }
    grep -q "勧めません" other.txt || { cat other.txt; fail "no Japanese word that the pad is not advised"; }
    for f in out.txt other.txt; do
      sed -n '/直すところ/,$p' $f | grep -n "[;?]\|。 " && fail "ASCII ; or ? or a space after 。 in Japanese"
      sed -n '/直すところ/,$p' $f | grep -n "tried\|conflict\|Not advised" && fail "English in the Japanese advice"
    done

    ;;
  *) fail "unknown case $case" ;;
esac
echo "PASS: $case"
