#!/usr/bin/env bash
# struct_fields.sh TGSIM: a struct parameter given field by field, {NAME=VALUE,...}, as the
# kernel's debug info names its fields (CUDA by value; Metal's constant T&): the bytes the
# kernel sees are those of the same struct packed by Python and given as struct:FILE.bin; and
# the usage errors (an unknown field, a missing one, a value that does not fit, an array of
# another length, a bit-field) exit 2 with one line naming it.
set -u
tgsim=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TGSIM_CACHE="$work/cache"
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAILED: $1"; fail=1; }
# same NAME FILE KERNEL BYTES PACKED FIELDS: run with {FIELDS} and with struct:PACKED; both save
# exactly the bytes of PACKED.
same() {
  local name=$1 file=$2 kernel=$3 bytes=$4 packed=$5 fields=$6
  "$tgsim" run "$file" --kernel "$kernel" --grid 1 --block 64 "$fields" "uchar[$bytes]=0" \
    --save "out=$work/f.bin" > "$work/out" 2>&1 || { bad "$name: {...}: exit $?"; cat "$work/out"; return; }
  "$tgsim" run "$file" --kernel "$kernel" --grid 1 --block 64 "struct:$packed" "uchar[$bytes]=0" \
    --save "out=$work/b.bin" > "$work/out" 2>&1 || { bad "$name: struct:FILE: exit $?"; cat "$work/out"; return; }
  if cmp -s "$work/f.bin" "$packed" && cmp -s "$work/b.bin" "$packed"; then ok "$name"
  else bad "$name: $(od -A d -t x1 "$work/f.bin" | head -4) vs $(od -A d -t x1 "$packed" | head -4)"; fi
}
# usage NAME PATTERN RUN-ARGS...: exit 2, one line, matching PATTERN
usage() {
  local name=$1 pattern=$2
  shift 2
  "$tgsim" run "$@" > "$work/out" 2>&1
  local rc=$? lines
  lines=$(wc -l < "$work/out")
  if [ $rc = 2 ] && [ "$lines" = 1 ] && grep -Eq -- "$pattern" "$work/out"; then ok "$name: $(cat "$work/out")"
  else bad "$name: exit $rc, $lines line(s):"; cat "$work/out"; fi
}

cu=$here/struct_fields.cu
python3 -c "
import struct
open('$work/params.bin', 'wb').write(struct.pack('<ifB?xxih6xd3ie2xQ', -5, 1.5, 200, True, 7, -3, 0.25, 1, 2, 3, 0.5,
                                                 0x123456789))
open('$work/small.bin', 'wb').write(struct.pack('<if', 0x7fffffff, -2.0))
open('$work/kargs.bin', 'wb').write(struct.pack('<iiQf?xe8x4f2hH10x', 32, -1, 128, 0.125, True, 1.5, 1, 2, 3, 4, -7, 9, 0x4020))"
same "CUDA struct in memory, nested struct, enum, bool, array, __half" "$cu" copy_params 56 "$work/params.bin" \
  '{n=-5, scale=1.5, flag=200, on=1, mode=7, in.s=-3, in.d=0.25, v=[1,2,3], h=0.5, big=0x123456789}'
same "CUDA struct in a register" "$cu" copy_small 8 "$work/small.bin" '{b=-2,a=2147483647}'
same "Metal constant kargs& (ggml style: half, bfloat, float4, short[2])" "$here/struct_fields.metal" copy_args 64 "$work/kargs.bin" \
  '{ne00=32,ne01=-1,nb01=128,slope=0.125,flag=1,h=1.5,v=[1,2,3,4],a=[-7,9],b=2.5}'

small() { echo "$cu" --kernel copy_small --grid 1 --block 8; }
usage "unknown field" "tgsim: error: parameter 0 \(Small s\) has no field 'c' \(its fields: a, b\)$" \
  $(small) '{a=1,b=2,c=3}' 'uchar[8]'
usage "missing field" "parameter 0 \(Small s\): field\(s\) not given: b " $(small) '{a=1}' 'uchar[8]'
usage "int out of range" "value '2147483648' does not fit field 'a' of parameter 0 \(Small s\) \(int32\)$" \
  $(small) '{a=2147483648,b=0}' 'uchar[8]'
usage "not a number" "value '1.5' does not fit field 'a' of parameter 0 \(Small s\) \(int32\)$" \
  $(small) '{a=1.5,b=0}' 'uchar[8]'
usage "field twice" "field 'a' of parameter 0 \(Small s\) is given twice" $(small) '{a=1,a=2,b=0}' 'uchar[8]'
usage "bad syntax" "bad field 'b' in ARG" $(small) '{a=1,b}' 'uchar[8]'
usage "unsigned char out of range" "value '256' does not fit field 'flag' of parameter 0 \(Params p\) \(uint8\)$" \
  "$cu" --kernel copy_params --grid 1 --block 8 \
  '{n=-5,scale=1.5,flag=256,on=1,mode=7,in.s=-3,in.d=0.25,v=[1,2,3],h=0.5,big=1}' 'uchar[56]'
usage "array length" "field 'v' of parameter 0 \(Params p\) is an array of 3 int32, 2 value\(s\) given$" \
  "$cu" --kernel copy_params --grid 1 --block 8 \
  '{n=-5,scale=1.5,flag=2,on=1,mode=7,in.s=-3,in.d=0.25,v=[1,2],h=0.5,big=1}' 'uchar[56]'
usage "bit-field" "field 'lo \(a bit-field\)' of parameter 0 \(Packed p\) cannot be given by name: give the struct as struct:FILE.bin$" \
  "$cu" --kernel copy_packed --grid 1 --block 8 '{lo=1,hi=2}' 'uchar[4]'
usage "Metal int32_t out of range" "value '3000000000' does not fit field 'ne00' of parameter 0 \(.*kargs_copy.*\) \(int32\)$" \
  "$here/struct_fields.metal" --kernel copy_args --grid 1 --block 8 \
  '{ne00=3000000000,ne01=-1,nb01=128,slope=0.125,flag=1,h=1.5,v=[1,2,3,4],a=[-7,9],b=0}' 'uchar[64]'
usage "Metal unknown field" "has no field 'ne02' \(its fields: ne00, ne01, nb01, slope, flag, h, v, a, b\)$" \
  "$here/struct_fields.metal" --kernel copy_args --grid 1 --block 8 '{ne02=1}' 'uchar[64]'
# Japanese: the catalog says it.
"$tgsim" --lang ja run $(small) '{a=1}' 'uchar[8]' > "$work/out" 2>&1
grep -q "指定されていないフィールドがあります: b" "$work/out" && ok "--lang ja: $(cat "$work/out")" || { bad "ja"; cat "$work/out"; }

[ $fail = 0 ] && echo "struct fields: all checks passed"
exit $fail
