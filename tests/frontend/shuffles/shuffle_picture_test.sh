#!/usr/bin/env bash
# shuffle_picture_test.sh TGSIM DIR: `tgsim explain FILE` draws the shuffles the kernel ran (issue
# 38 item 2), not a fixed sum tree: for each kernel of DIR/shuffles.cu, the steps in words equal
# DIR/expected_KERNEL.txt (DIR/expected_arg_max_ja.txt with --lang ja), and the HTML page's
# shuffle picture has one group per step and one arrow per lane that read another lane.
set -u
tgsim=$1 dir=$2
file=$dir/shuffles.cu
fail() { echo "FAIL: $*"; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The steps in words: from the head line to the line before "wrote".
steps() { sed -n '/shuffles of warp\|が実行したシャッフル/,$p' "$1" | grep -v '^wrote \|に書き出した$'; }
# check NAME STEPS ARROWS LANG -- ARGS...: the words and the picture of kernel NAME.
check() {
  local name=$1 want_steps=$2 want_arrows=$3 expected=$dir/expected_$1.txt lang=(--lang "$4")
  [ "$4" = ja ] && expected=$dir/expected_${name}_ja.txt
  shift 5
  "$tgsim" "${lang[@]}" explain "$file" --kernel "$name" "$@" --html "$out/$name.html" >"$out/$name.txt" 2>&1 ||
    fail "explain $name: $(cat "$out/$name.txt")"
  steps "$out/$name.txt" >"$out/$name.steps"
  diff -u "$expected" "$out/$name.steps" || fail "$name: the steps in words differ from $expected"
  python3 - "$out/$name.html" "$want_steps" "$want_arrows" "$name" <<'PY' || exit 1
import re, sys
html, steps, arrows, name = open(sys.argv[1], encoding="utf-8").read(), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
svg = [s for s in re.findall(r"<svg.*?</svg>", html, re.S) if "shuffle-step" in s]
if len(svg) != 1:
    sys.exit(f"FAIL: {name}: {len(svg)} shuffle pictures in the page")
got_steps = svg[0].count("<g class='shuffle-step'")
got_arrows = len(re.findall(r"<line ", svg[0]))
if (got_steps, got_arrows) != (steps, arrows):
    sys.exit(f"FAIL: {name}: the picture has {got_steps} steps and {got_arrows} arrows, expected {steps} and {arrows}")
PY
}
# A tree sum: 5 steps, 16 + 24 + 28 + 30 + 31 lanes read another lane.
check tree_sum 5 129 en -- --grid 1 --block 32 'float[32]' 'float[1]=0'
# A butterfly: every lane reads another in each of 5 steps.
check butterfly_sum 5 160 en -- --grid 2 --block 64 'float[128]' 'float[128]=0'
# Seed 003's arg-max: value and index, two shuffles a step, drawn as one step naming both lines.
check arg_max 5 129 en -- --grid 1 --block 64 'float[64]' int:64 'int[4]=0'
check arg_max 5 129 ja -- --grid 1 --block 64 'float[64]' int:64 'int[4]=0'
# A segmented scan (width 16): 30 + 28 + 24 + 16 lanes, then 30 lanes read their segment's last.
check scan16 5 128 en -- --grid 1 --block 32 'int[32]' 'int[32]=0'
echo "shuffle_picture: the steps the kernels ran, in words and drawn"
