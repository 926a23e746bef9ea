#!/usr/bin/env bash
# arg_types.sh TGSIM: ARGs in the C spellings kernels declare (int64_t, size_t, unsigned char,
# uint16_t, int8_t, __half, __nv_bfloat16 scalars; __half buffers; struct:0; Metal's half,
# bfloat, int64_t and size_t), checked through
# the values the kernels store (--save), and the errors for a mismatch.
set -u
tgsim=$1
k=$(cd "$(dirname "$0")" && pwd)/arg_types.cu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAILED: $1"; fail=1; }
run() { "$tgsim" run "$k" "$@" --grid 1 --block 1 > "$work/out" 2>&1 || { bad "exit $? from run $*"; cat "$work/out"; }; }
run --kernel scalars 'long[5]=0' int64_t:-5000000000 size_t:0x10000000000 'unsigned char:200' uint16_t:65535 \
  int8_t:-7 --save "out=$work/s.bin"
got=$(od -A n -t d8 -v "$work/s.bin" | tr -s ' \n' ' ')
[ "$got" = " -5000000000 1099511627776 200 65535 -7 " ] && ok "integer scalars: $got" || bad "integer scalars: '$got'"
run --kernel two_byte_floats 'float[2]=0' half:0.1 'bfloat:1.00390625' --save "out=$work/h.bin"
got=$(python3 -c "import struct,sys; print('%.10g %.10g' % struct.unpack('2f', open(sys.argv[1],'rb').read()))" "$work/h.bin")
# half(0.1) rounds to 0.0999755859375; bfloat(1.00390625) is a tie, to even: 1
[ "$got" = "0.09997558594 1" ] && ok "half and bfloat scalars: $got" || bad "half and bfloat scalars: '$got'"
run --kernel two_byte_floats 'float[2]=0' __half:65520 __nv_bfloat16:3.0e38 --save "out=$work/i.bin"
got=$(python3 -c "import struct,sys; print('%g %g' % struct.unpack('2f', open(sys.argv[1],'rb').read()))" "$work/i.bin")
[ "$got" = "inf 3.00406e+38" ] && ok "65520 as a half is inf, 3e38 as a bfloat: $got" || bad "overflow: '$got'"
run --kernel by_value 'float[1]=0' struct:0 --save "out=$work/v.bin"
got=$(od -A n -t f4 "$work/v.bin" | tr -d ' \n')
[ "$got" = "0" ] && ok "struct:0 passes zero bytes" || bad "struct:0: '$got'"
"$tgsim" run "$k" --kernel half_buffer 'float[64]=0' '__half[64]=iota' --grid 1 --block 64 --save "out=$work/b.bin" \
  > "$work/out" 2>&1 || bad "half buffer run"
got=$(python3 -c "import struct,sys; v=struct.unpack('64f', open(sys.argv[1],'rb').read()); print(v[0], v[1], v[63])" "$work/b.bin")
[ "$got" = "0.0 1.0 63.0" ] && ok "a __half[64]=iota buffer: $got" || bad "half buffer: '$got'"
"$tgsim" run "$k" --kernel scalars 'long[5]=0' int:1 size_t:1 'unsigned char:1' uint16_t:1 int8_t:1 --grid 1 --block 1 \
  > "$work/out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q "ARG 1 'int:1' is i32, but parameter 1 is" "$work/out"; then ok "int for an int64_t: exit 2"
else bad "int for an int64_t: exit $rc"; cat "$work/out"; fi
"$tgsim" run "$k" --kernel scalars 'long[5]=0' half:1 size_t:1 'unsigned char:1' uint16_t:1 int8_t:1 --grid 1 --block 1 \
  > "$work/out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q "ARG 1 'half:1' is half, but parameter 1 is" "$work/out"; then ok "half for an int64_t: exit 2"
else bad "half for an int64_t: exit $rc"; cat "$work/out"; fi
m=$(dirname "$k")/arg_types.metal
"$tgsim" run "$m" --kernel metal_scalars 'float[4]=0' half:0.1 int64_t:-3 bfloat:2.5 size_t:4096 --grid 1 --block 1 \
  --save "out=$work/m.bin" > "$work/out" 2>&1 || { bad "metal run: exit $?"; cat "$work/out"; }
got=$(python3 -c "import struct,sys; print('%.10g %g %g %g' % struct.unpack('4f', open(sys.argv[1],'rb').read()))" "$work/m.bin")
[ "$got" = "0.09997558594 -3 2.5 4096" ] && ok "Metal half, int64_t, bfloat, size_t scalars: $got" || bad "Metal scalars: '$got'"
[ $fail = 0 ] && echo "arg types: all checks passed"
exit $fail
