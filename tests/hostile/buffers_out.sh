#!/usr/bin/env bash
# buffers_out.sh TGSIM WORKDIR: --save PARAM=PATH writes a buffer after the launch; --expect
# PARAM=PATH[:RTOL] compares it with a reference file (a difference is exit 1 naming the first
# differing element); bad PARAMs and files are usage errors (exit 2).
set -uo pipefail
tgsim=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
export TGSIM_CACHE="$work/cache"
fails=0 checks=0
ok() { checks=$((checks + 1)); echo "ok: $*"; }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
run() { "$tgsim" "$1" "$here/args.cu" --kernel sum_floats --grid 1 --block 32 'float[32]=iota' 'float[32]=0' "${@:2}" 2>&1; }
# expect_case NAME STATUS REGEX ARGS...
expect_case() {
  local name=$1 status=$2 regex=$3 out rc
  shift 3
  out=$(run "$@"); rc=$?
  if [ $rc = "$status" ] && grep -Eq -- "$regex" <<<"$out"; then ok "$name"; else fail "$name: exit $rc: $(tail -5 <<<"$out")"; fi
}
python3 - "$work" <<'PY'
import struct, sys
w = sys.argv[1]
vals = [float(i + 1) for i in range(32)]
open(f"{w}/ref.bin", "wb").write(struct.pack("32f", *vals))
bad = list(vals); bad[17] = 99.0
open(f"{w}/bad.bin", "wb").write(struct.pack("32f", *bad))
near = [v * (1 + 1e-4) for v in vals]
open(f"{w}/near.bin", "wb").write(struct.pack("32f", *near))
open(f"{w}/short.bin", "wb").write(struct.pack("16f", *vals[:16]))
PY
out=$(run run --save "out=$work/out.bin" --save "1=$work/out1.bin"); rc=$?
if [ $rc = 0 ] && cmp -s "$work/out.bin" "$work/ref.bin" && cmp -s "$work/out1.bin" "$work/ref.bin"; then
  ok "--save by name and by index"; else fail "--save: exit $rc: $out"; fi
expect_case equal 0 "^expect: arg 1 \(out\) equals .*ref.bin \(32 elements\)" run --expect "out=$work/ref.bin"
expect_case differ 1 "^expect \(a finding\): arg 1 \(out\)\[17\] is 18, .*bad.bin has 99; 1 of 32 elements differ" \
  run --expect "out=$work/bad.bin"
expect_case within_rtol 0 "equals .*near.bin \(32 elements, rtol 0.001\)" run --expect "out=$work/near.bin:1e-3"
expect_case beyond_rtol 1 "32 of 32 elements differ \(rtol 1e-06\)" run --expect "out=$work/near.bin:1e-6"
expect_case unknown_param 2 "'nope=.*' names no buffer parameter \(the buffers: arg 0 \(in\), arg 1 \(out\)\)" \
  run --expect "nope=$work/ref.bin"
expect_case wrong_size 2 "short.bin' holds 64 bytes, but arg 1 \(out\) is 128" run --expect "out=$work/short.bin"
expect_case bad_rtol 2 "bad RTOL 'x'" run --expect "out=$work/ref.bin:x"
expect_case check_differ 1 "^expect \(a finding\): arg 1 \(out\)\[17\]" check --expect "out=$work/bad.bin"
out=$(run run --expect "out=$work/bad.bin" --json); rc=$?
if [ $rc = 1 ] && printf '%s' "$out" | python3 -c "
import json, sys
e = json.load(sys.stdin)['expect'][0]
sys.exit(0 if e['differing'] == 1 and e['first_difference']['index'] == 17 and e['first_difference']['want'] == '99' else 1)"; then
  ok "--json expect"; else fail "--json expect: exit $rc: $(head -c 300 <<<"$out")"; fi
echo "$checks checks, $fails failed"
[ $fails = 0 ]
