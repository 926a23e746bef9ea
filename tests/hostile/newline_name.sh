#!/usr/bin/env bash
# newline_name.sh TGSIM: a kernel file whose name holds a newline: its findings and compile
# errors name that file (the #line directive escapes the byte), never the copy in the cache.
tgsim=$1
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
export TGSIM_CACHE="$work/cache"
name="$work/two
lines.cu"
printf '%s\n' '__global__ void past_end(float* out) {' '  out[threadIdx.x + 1] = 1.0f;' '}' >"$name"
fail=0
out=$("$tgsim" check "$name" --grid 1 --block 32 float[32] 2>&1)
rc=$?
if [ $rc = 1 ] && grep -q "^lines.cu:2" <<<"$out" && ! grep -q "cache" <<<"$out"; then echo "ok: finding names the file"
else echo "FAIL finding: exit $rc: $out"; fail=1; fi
printf '%s\n' '__global__ void broken(float* out) {' '  out[0] = undeclared_name;' '}' >"$name"
out=$("$tgsim" run "$name" --grid 1 --block 32 float[32] 2>&1)
rc=$?
if [ $rc = 2 ] && grep -q "^lines.cu:2:[0-9]*: error: use of undeclared identifier" <<<"$out" && ! grep -q "cache" <<<"$out"
then echo "ok: compile error names the file"; else echo "FAIL compile error: exit $rc: $out"; fail=1; fi
exit $fail
