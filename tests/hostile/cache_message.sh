#!/usr/bin/env bash
# cache_message.sh TGSIM FILE.cu: a compile cache that is not a directory, or not the user's, is
# an error of the cache (exit 2, one line naming it, kind "resource" under --json), never
# "FILE did not compile".
tgsim=$1 file=$2
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
: >"$work/not_a_dir"
fail=0
out=$(TGSIM_CACHE="$work/not_a_dir" "$tgsim" run "$file" --kernel static_48k --grid 1 --block 32 float[32] 2>&1)
rc=$?
if [ $rc = 2 ] && grep -q "^tgsim: error: the compile cache $work/not_a_dir is not a directory$" <<<"$out" &&
   ! grep -q "did not compile" <<<"$out"; then echo "ok: $out"; else echo "FAIL not a directory: exit $rc: $out"; fail=1; fi
out=$(TGSIM_CACHE="$work/not_a_dir" "$tgsim" run --json "$file" --kernel static_48k --grid 1 --block 32 float[32] 2>/dev/null)
if grep -q '"kind": "resource"' <<<"$out"; then echo "ok: json kind resource"; else echo "FAIL json: $out"; fail=1; fi
exit $fail
