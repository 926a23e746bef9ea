#!/usr/bin/env bash
# metal_select.sh TGSIM WORKDIR: a command that names one kernel of a many-kernel file compiles
# that kernel alone (sim/pass/select_kernels.cpp), and listing a file's kernels compiles no body.
#  - the listing (--kernel naming none, or --kernel alone: on stdout, exit 0): every kernel with
#    its parameters' names, from one cache entry whose object references none of tgsim's access
#    hooks (no body was instrumented);
#  - running mul_int32: its result, and an entry whose object defines apply_op<int, Mul> alone
#    of the file's 12 instances (the listing's object keeps all 12 as empty bodies);
#  - a CUDA file: the kernel runs alone too, and the listing shows every kernel.
set -uo pipefail
tgsim=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
export TGSIM_CACHE="$work/cache"
fails=0
ok() { echo "ok: $*"; }
fail() { fails=$((fails + 1)); echo "FAIL: $*"; }
file=$here/metal_features/many_kernels.metal
instances() { nm -C --defined-only "$1" | grep -c ' apply_op<'; }

out=$("$tgsim" run "$file" --kernel none 2>&1); rc=$?
sos=("$TGSIM_CACHE"/*.so)
if [ $rc = 2 ] && [ "$(printf '%s\n' "$out" | grep -c '^  [a-z_0-9]*(.* out)$')" = 13 ] && [ ${#sos[@]} = 1 ] \
   && ! nm -u "${sos[0]}" | grep '__tgsim_thread\|__tgsim_access' >/dev/null; then
  ok "listing: 13 kernels with parameter names, no body compiled"
else
  fail "listing: rc $rc, ${#sos[@]} objects: $out"; nm -u "${sos[@]}"
fi
listing=${sos[0]}
# --kernel without a name: the same listing on stdout, exit 0, from the same entry.
out=$("$tgsim" run "$file" --kernel 2>/dev/null); rc=$?
sos=("$TGSIM_CACHE"/*.so)
if [ $rc = 0 ] && [ "$(printf '%s\n' "$out" | grep -c '^[a-z_0-9]*(.* out)$')" = 13 ] && [ ${#sos[@]} = 1 ]; then
  ok "--kernel without a name lists"
else
  fail "--kernel alone: rc $rc, ${#sos[@]} objects: $out"
fi

out=$("$tgsim" run "$file" --kernel mul_int32 --grid 1 --block 4 'int[4]=iota' 'int[4]=iota' 'int[4]' --save "2=$work/m.bin" 2>&1)
got=$(od -An -tu4 -w16 "$work/m.bin" 2>/dev/null | tr -s ' ')
if grep -q "findings: none" <<<"$out" && [ "$got" = " 0 1 4 9" ]; then ok "mul_int32 runs"
else fail "mul_int32: '$got' $out"; fi
selected=
for so in "$TGSIM_CACHE"/*.so; do [ "$so" != "$listing" ] && selected=$so; done
if [ -n "$selected" ] && [ "$(instances "$selected")" = 1 ] && nm -C --defined-only "$selected" | grep ' apply_op<int, Mul>(' >/dev/null \
   && ! nm -C --defined-only "$selected" | grep 'fill_seven' >/dev/null && [ "$(instances "$listing")" = 12 ]; then
  ok "the kernel's object holds it alone"
else
  fail "selected object: $(nm -C --defined-only "$selected" | grep -E 'apply_op|fill_seven')"
fi

cu=$here/frontend/basics.cu
out=$("$tgsim" run "$cu" --kernel nope 2>&1)
if grep -q '^  half_overrun(const int\* in, int\* out)$' <<<"$out"; then ok "CUDA listing"; else fail "CUDA listing: $out"; fi
out=$("$tgsim" run "$cu" --kernel shared_overrun --grid 1 --block 32 'int[32]' int:1 2>&1)
if grep -q "out-of-bounds at basics.cu:51" <<<"$out"; then ok "a CUDA kernel alone"; else fail "CUDA kernel: $out"; fi

[ $fails = 0 ] && echo "metal select OK" || { echo "$fails kernel selection checks failed"; exit 1; }
