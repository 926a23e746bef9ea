#!/usr/bin/env bash
# lines_test.sh TGSIM DIR: every site and finding of the kernels in DIR (tests/frontend/lines)
# names a real source line, and the right ones, where Clang merged, hoisted or sank an access
# (issue 32 item 9): no line 0, no "<no debug info>", and a merged access names both lines.
tgsim=$1 dir=$2
fail=0
# expect NAME REGEX OUTPUT: OUTPUT matches the extended REGEX.
expect() {
  if printf '%s\n' "$3" | grep -Eq -- "$2"; then echo "ok: $1: /$2/"
  else echo "FAIL: $1: no line matches /$2/ in:"; printf '%s\n' "$3" | tail -30; fail=1; fi
}
# clean NAME OUTPUT: no site or finding at line 0 or without debug info.
clean() {
  if printf '%s\n' "$2" | grep -Eq -- '"line2?": 0[,}]?$|<no debug info>|\.(cu|metal):0([^0-9]|$)'; then
    echo "FAIL: $1: a site or finding without a line:"; printf '%s\n' "$2" | grep -E -- '"line2?": 0|<no debug info>|:0'
    fail=1
  else echo "ok: $1: every line is real"; fi
}
# run KERNEL FILE ARGS...: the text report and the JSON one, both checked for line 0.
run() {
  local kernel=$1 file=$2; shift 2
  text=$(timeout 120 "$tgsim" run "$dir/$file" --kernel "$kernel" "$@" 2>&1)
  json=$(timeout 120 "$tgsim" run "$dir/$file" --kernel "$kernel" --json "$@" 2>&1)
  clean "$kernel (text)" "$text"
  clean "$kernel (json)" "$json"
}

# if (c) a[i] = x; else a[i] = y;: one store (MergedLoadStoreMotion keeps line 10's location).
run store_merge merged.cu --grid 1 --block 32 'int[32]=0' 'int[32]=iota' int:1 int:2
expect "store_merge names both stores" 'merged\.cu:8:10 \(also line 10\) +global\.store' "$text"
expect "store_merge json" '"also_line": 10' "$json"
# Two stores merged at line 0; every thread writes a[0]: the waw hazard names both lines.
check=$(timeout 120 "$tgsim" check "$dir/merged.cu" --kernel store_merge_race --grid 1 --block 64 'int[1]=0' \
        'int[64]=iota' int:1 int:2 2>&1)
clean "store_merge_race (check)" "$check"
expect "store_merge_race waw at both lines" \
  'waw-hazard at merged\.cu:17 \(also line 19\) and merged\.cu:17 \(also line 19\)' "$check"
run store_merge_race merged.cu --grid 1 --block 32 'int[1]=0' 'int[32]=iota' int:1 int:2
expect "store_merge_race site" 'merged\.cu:17:10 \(also line 19\) +global\.store' "$text"
# w[i] hoisted out of the loop by LICM (it loses its location): the loop's line.
run hoisted_load merged.cu --grid 1 --block 32 'float[32]=0' 'float[32]=iota' 'float[8]=iota' int:8
expect "hoisted_load w[i]" 'merged\.cu:27:9 +global\.load +instr 1 ' "$text"
# a[i] on both arms, hoisted above the branch at line 0.
run hoisted_common_load merged.cu --grid 1 --block 32 'float[32]=0' 'float[32]=iota' 'int[32]=iota'
expect "hoisted_common_load names both loads" 'merged\.cu:36:9 \(also line 38\) +global\.load' "$text"
expect "hoisted_common_load json" '"also_line": 38' "$json"
# out[i] zeroed, then accumulated in a loop.
run sunk_store merged.cu --grid 1 --block 32 'float[32]=0' 'float[8]=iota' int:8
expect "sunk_store first store" 'merged\.cu:45:10 +global\.store' "$text"
expect "sunk_store loop store" 'merged\.cu:47:12 +global\.store' "$text"
# c[i] ? a[i] : b[i]: one load of a select of the two addresses.
run select_loads merged.cu --grid 1 --block 32 'float[32]=0' 'float[32]=iota' 'float[32]=iota' 'int[32]=iota'
expect "select_loads names both loads" 'merged\.cu:53:12 \(also line 54\) +global\.load' "$text"
# The MLX-style kernel: the helper's hoisted scale load and the merged store of two branches.
run 'rms_like<float, 4>' mlx_style.cu --grid 4 --block 16 'float[64]=0' 'float[256]=iota' 'float[4]=iota' int:64
expect "rms_like helper loads" 'mlx_style\.cu:7:10 +global\.load' "$text"
expect "rms_like hoisted scale load" 'mlx_style\.cu:7:31 +global\.load' "$text"
expect "rms_like merged store" 'mlx_style\.cu:21:41 \(also line 23\) +global\.store' "$text"
exit $fail
