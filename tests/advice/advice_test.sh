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
#   swap      `run FILE --advice` on a naive matmul whose row comes from threadIdx.x
#             (coalesce.cu): the x and y thread mapping swapped in a re-run, its global sectors
#             fall by more than 4x and its estimate falls, advised with the numbers, in text and
#             JSON; the user's file is untouched; --no-try tries nothing
#   swap_no_help  strided both ways: the swap is tried, its sectors do not fall, it is not advised
#   swap_results  a warp shuffle reduction: the swap changes the output, it is not advised
#   swap_ja   the tried swap in Japanese, without ASCII ; ? or English words
#   swap_metal    the same naive matmul in Metal (the position parameter's .x and .y swapped)
#   swap_explain  `explain FILE --source --html` shows the tried swap; --no-try does not
#   swap_store    an uncoalesced global store alone (fill_rows_x): rule "coalesce_store", the swap
#             tried on it, its sectors fall by more than 4x, in text, JSON ("access":"store") and Japanese
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
  swap | swap_ja | swap_explain)
    cp "$here/coalesce.cu" c.cu
    m=(--kernel matmul_rows_x --grid 8,32 --block 32,8 'float[65536]' 'float[65536]' 'float[65536]' int:256 --threads 2)
    if [ $case = swap_explain ]; then
      "$tgsim" explain c.cu "${m[@]}" --source --html page.html >out.txt 2>&1 || { cat out.txt; fail "explain"; }
      grep -q "tried: swap x and y thread mapping: [0-9,]* -> [0-9,]* sectors" out.txt || { cat out.txt; fail "explain --source"; }
      grep -q "tried: swap x and y thread mapping: [0-9,]* -&gt; [0-9,]* sectors" page.html || fail "the page has no tried swap"
      "$tgsim" explain c.cu "${m[@]}" --source --no-try >plain.txt 2>&1 || { cat plain.txt; fail "--no-try"; }
      grep -q "tried:" plain.txt && { cat plain.txt; fail "explain --no-try tried a swap"; }
    elif [ $case = swap_ja ]; then
      "$tgsim" --lang ja run c.cu "${m[@]}" --advice >out.txt 2>&1 || { cat out.txt; fail "run --advice"; }
      tr -d '\n' <out.txt | sed 's/   */ /g' |
        grep -q "試した修正: x と y のスレッド対応を入れ替える: セクタ [0-9,]* -> [0-9,]*、推定時間は今の [0-9]*%" ||
        { cat out.txt; fail "no Japanese tried swap"; }
      sed -n '/直すところ/,$p' out.txt | grep -n "[;?]\|。 \|tried\|sectors\|Fix" && fail "ASCII or English in the Japanese advice"
    else
      "$tgsim" run c.cu "${m[@]}" --advice >out.txt 2>&1 || { cat out.txt; fail "run --advice"; }
      flat=$(tr '\n' ' ' <out.txt | sed 's/  */ /g')
      echo "$flat" | grep -q "c.cu:12 uncoalesced global load: swap the x and y thread mapping" ||
        { cat out.txt; fail "no swap advised for line 12"; }
      read -r before after pct < <(echo "$flat" | grep -o "tried: swap x and y thread mapping: [0-9,]* -> [0-9,]* sectors, estimated time [0-9]*%" |
        sed -E 's/.*: ([0-9,]*) -> ([0-9,]*) sectors, estimated time ([0-9]*)%/\1 \2 \3/; s/,//g')
      [ "${before:-0}" -gt 0 ] && [ "${after:-0}" -gt 0 ] && [ $((after * 4)) -lt "$before" ] && [ "${pct:-100}" -lt 100 ] ||
        { cat out.txt; fail "sectors $before -> $after, time $pct%: not a fall"; }
      echo "$flat" | grep -q "grid 8,32 -> 32,8 and block 32,8 -> 8,32" || { cat out.txt; fail "the launch swapped is not named"; }
      cmp -s c.cu "$here/coalesce.cu" || fail "the user's file was changed"
      [ "$(ls)" = "$(printf 'c.cu\nk.cu\nout.txt')" ] || { ls; fail "files left beside the kernel"; }
      "$tgsim" run c.cu "${m[@]}" --advice --json | tr -d ' \n' >flat.json
      grep -q '"rule":"coalesce".*"swapped":\[{"grid_from":"8,32","grid_to":"32,8","block_from":"32,8","block_to":"8,32","stride_x_bytes":1024,"stride_y_bytes":null,"sectors_before":'"$before"',"sectors_after":'"$after"',' flat.json ||
        { cat flat.json; fail "the JSON's swap"; }
      grep -q '"helps":true,"failed":null' flat.json || { cat flat.json; fail "the JSON does not say the swap helps"; }
      "$tgsim" run c.cu "${m[@]}" --advice --no-try >plain.txt 2>&1 || { cat plain.txt; fail "--no-try"; }
      grep -q "tried:" plain.txt && { cat plain.txt; fail "--no-try tried a swap"; }
    fi
    ;;
  swap_no_help | swap_results)
    cp "$here/coalesce.cu" c.cu
    if [ $case = swap_no_help ]; then
      k=(--kernel strided_both --grid 2,8 --block 32,8 'float[262144]' 'float[4096]' --threads 2) why="the global sectors did not fall" j=sectors
    else
      k=(--kernel warp_column_sums --grid 2,8 --block 32,8 'float[4096]' 'float[128]' int:64 --threads 2)
      why="the kernel's results changed" j=results
    fi
    "$tgsim" run c.cu "${k[@]}" --advice >out.txt 2>&1 || { cat out.txt; fail "run --advice"; }
    flat=$(tr '\n' ' ' <out.txt | sed 's/  */ /g')
    echo "$flat" | grep -q "tried: swap x and y thread mapping (grid 2,8 -> 8,2, block 32,8 -> 8,32): [0-9,]* -> [0-9,]* sectors" ||
      { cat out.txt; fail "the swap tried is not shown"; }
    echo "$flat" | grep -q "It did not help, so it is not advised: $why" || { cat out.txt; fail "not said why it failed"; }
    echo "$flat" | grep -q "No swap is advised" || { cat out.txt; fail "not said that no swap is advised"; }
    grep -q "Fix: give x\|swap the x and y thread mapping$" out.txt && { cat out.txt; fail "a swap that does not help is advised"; }
    "$tgsim" run c.cu "${k[@]}" --advice --json | tr -d ' \n' >flat.json
    grep -q '"helps":false,"failed":"'$j'"' flat.json || { cat flat.json; fail "the JSON's failed swap"; }
    ;;
  swap_metal)
    cat >m.metal <<'METAL'
#include <metal_stdlib>
using namespace metal;

// A naive matrix product with the row from the grid position's x (the lanes read a column of A).
kernel void matmul_rows_x(device const float* A [[buffer(0)]], device const float* B [[buffer(1)]],
                          device float* C [[buffer(2)]], constant uint& n [[buffer(3)]],
                          uint2 gid [[thread_position_in_grid]]) {
  const uint row = gid.x, col = gid.y;
  if (row >= n || col >= n) return;
  float acc = 0.0f;
  for (uint k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}
METAL
    "$tgsim" run m.metal --kernel matmul_rows_x --grid 8,32 --block 32,8 'float[65536]' 'float[65536]' 'float[65536]' \
      uint:256 --threads 2 --advice >out.txt 2>&1 || { cat out.txt; fail "run --advice"; }
    flat=$(tr '\n' ' ' <out.txt | sed 's/  */ /g')
    echo "$flat" | grep -q "m.metal:11 uncoalesced global load: swap the x and y thread mapping" || { cat out.txt; fail "no swap advised"; }
    echo "$flat" | grep -q "tried: swap x and y thread mapping: [0-9,]* -> [0-9,]* sectors, estimated time [0-9]*% of now" ||
      { cat out.txt; fail "no tried swap"; }
    ;;
  swap_store)
    cp "$here/coalesce.cu" c.cu
    f=(--kernel fill_rows_x --grid 8,32 --block 32,8 'float[65536]' int:256 --threads 2)
    "$tgsim" run c.cu "${f[@]}" --advice >out.txt 2>&1 || { cat out.txt; fail "run --advice"; }
    flat=$(tr '\n' ' ' <out.txt | sed 's/  */ /g')
    echo "$flat" | grep -q "c.cu:46 uncoalesced global store: swap the x and y thread mapping" ||
      { cat out.txt; fail "no swap advised for the store of line 46"; }
    echo "$flat" | grep -q "lanes one thread apart in x write addresses 1,024 bytes apart" || { cat out.txt; fail "the store's stride"; }
    read -r before after pct < <(echo "$flat" | grep -o "tried: swap x and y thread mapping: [0-9,]* -> [0-9,]* sectors, estimated time [0-9]*%" |
      sed -E 's/.*: ([0-9,]*) -> ([0-9,]*) sectors, estimated time ([0-9]*)%/\1 \2 \3/; s/,//g')
    [ "${before:-0}" -gt 0 ] && [ "${after:-0}" -gt 0 ] && [ $((after * 4)) -lt "$before" ] && [ "${pct:-100}" -lt 100 ] ||
      { cat out.txt; fail "sectors $before -> $after, time $pct%: not a fall"; }
    "$tgsim" run c.cu "${f[@]}" --advice --json | tr -d ' \n' >flat.json
    grep -q '"rule":"coalesce_store".*"swapped":\[{"grid_from":"8,32".*"helps":true,"failed":null,"access":"store"' flat.json ||
      { cat flat.json; fail "the JSON's swap of a store"; }
    "$tgsim" --lang ja run c.cu "${f[@]}" --advice >ja.txt 2>&1 || { cat ja.txt; fail "run --advice --lang ja"; }
    tr -d '\n' <ja.txt | sed 's/   */ /g' | grep -q "コアレッシングされないグローバルストア: x と y のスレッド対応を入れ替える" ||
      { cat ja.txt; fail "no Japanese swap of a store"; }
    sed -n '/直すところ/,$p' ja.txt | grep -n "[;?]\|。 \|tried\|sectors\|write" && fail "ASCII or English in the Japanese advice"
    ;;
  *) fail "unknown case $case" ;;
esac
echo "PASS: $case"
