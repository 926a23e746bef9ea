#!/usr/bin/env bash
# metal_textures.sh TGSIM WORKDIR: Metal textures and samplers (tests/metal_features/textures.metal)
# run as written: read, write, sample under each address mode and filter (values computed by hand
# from the texels), sizes, uint, half, 1D, 3D and array textures; each texel read a global load and
# each write a global store at its line; a race on one texel and a read outside the texture found.
set -uo pipefail
tgsim=$1 work=$2
file=$(cd "$(dirname "$0")" && pwd)/metal_features/textures.metal
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
export TGSIM_CACHE="$work/cache"
fails=0
ok() { echo "ok: $*"; }
fail() { fails=$((fails + 1)); echo "FAIL: $*"; }
has() { local s; s=$(printf '%s' "$1" | tr -s ' \n' '  '); grep -Eq -- "$2" <<<"$s"; }  # no pipe into grep -q (pipefail)
# values FILE FMT: the saved buffer's values, one Python tuple
values() { python3 -c "import struct, sys; d = open('$1', 'rb').read(); print(struct.unpack('<%d$2' % (len(d) // struct.calcsize('$2')), d))"; }

out=$("$tgsim" run "$file" --kernel invert --grid 1 --block 4,2 'uint[3]=0' 'tex2d:rgba8unorm[4x2]=iota' \
      'tex2d:rgba8unorm[4x2]=0' --save dst=dst.bin --save size=size.bin 2>&1); rc=$?
want=$(python3 -c "print(tuple(255 - k for k in range(32)))")
if [ $rc = 0 ] && [ "$(values dst.bin B)" = "$want" ] && [ "$(values size.bin I)" = "(4, 2, 1)" ] \
   && has "$out" "global load 8 1 " && has "$out" "global store 11 4 " \
   && has "$out" "textures.metal:11:32 global.load" && has "$out" "textures.metal:11:7 global.store"; then
  ok "rgba8unorm read and write, sizes, one global access per texel at its line"
else fail "invert (rc $rc): $out $(values dst.bin B)"; fi

python3 -c "import struct; open('where.bin', 'wb').write(struct.pack('<12f', 2.5, 0.5, 1.0, 0.5, 1.25, 1.0, -0.5, 0.5, 5.5, 0.5, 0.625, 0.25))"
# texels of float[4x2]=iota: row 0 is 0 1 2 3, row 1 is 4 5 6 7; a format without alpha reads alpha 1
expect_sample() {  # SAMPLER and the red channel at the six coordinates of where.bin
  local s=$1; shift
  "$tgsim" run "$file" --kernel sample_at --grid 1 --block 6 'float2[6]=@where.bin' 'float4[6]=0' \
    'tex2d:float[4x2]=iota' "$s" --save out=o.bin >/dev/null 2>&1 || { fail "$s: run failed"; return; }
  local got want
  got=$(python3 -c "import struct; v = struct.unpack('<24f', open('o.bin', 'rb').read()); print(' '.join('%g' % v[4 * i] for i in range(6)), v[3::4] == (1.0,) * 6)")
  want="$* True"
  if [ "$got" = "$want" ]; then ok "$s: $got"; else fail "$s: got '$got', want '$want'"; fi
}
expect_sample sampler:nearest,pixel 2 1 5 0 3 0
expect_sample sampler:linear,pixel 2 0.5 2.75 0 3 0.125
expect_sample sampler:repeat,pixel 2 1 5 3 1 0
expect_sample sampler:mirrored_repeat,pixel 2 1 5 0 2 0
expect_sample sampler:clamp_to_zero,pixel 2 1 5 0 0 0
expect_sample sampler:clamp_to_border,opaque_white,pixel 2 1 5 1 1 0
expect_sample sampler:nearest 7 7 7 4 7 2
expect_sample sampler 7 7 7 4 7 2

"$tgsim" run "$file" --kernel sample_constexpr --grid 1 --block 2 'float4[2]=0' 'tex2d:float[4x2]=iota' --save out=o.bin >/dev/null 2>&1
got=$(values o.bin f)
if [ "$got" = "(1.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)" ]; then ok "constexpr samplers (file scope, in the kernel)"
else fail "sample_constexpr: $got"; fi

"$tgsim" run "$file" --kernel add_uint --grid 1 --block 2,1 'tex2d:uchar4[2x1]=iota' --save t=o.bin >/dev/null 2>&1
got=$(values o.bin B)
if [ "$got" = "(1, 3, 5, 7, 5, 7, 9, 11)" ]; then ok "texture2d<uint, access::read_write>"; else fail "add_uint: $got"; fi

"$tgsim" run "$file" --kernel half_to_float --grid 1 --block 2,1 'float4[2]=0' 'tex2d:rgba16float[2x1]=iota' --save out=o.bin >/dev/null 2>&1
got=$(values o.bin f)
if [ "$got" = "(0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0)" ]; then ok "texture2d<half> of rgba16float"; else fail "half_to_float: $got"; fi

out=$("$tgsim" run "$file" --kernel shapes --grid 1 --block 8 'float[11]=0' 'tex1d:float[8]=iota' 'tex3d:r32float[2x2x2]=iota' \
      'tex2d_array:float[2x1x4]=iota' --save out=o.bin 2>&1); rc=$?
got=$(values o.bin f)
if [ $rc = 0 ] && [ "$got" = "(0.0, 1101.0, 2202.0, 3303.0, 4404.0, 5505.0, 6606.0, 7707.0, 8.0, 2.0, 4.0)" ] \
   && has "$out" "global load 24 "; then ok "texture1d, texture3d, texture2d_array"; else fail "shapes (rc $rc): $got $out"; fi

"$tgsim" run "$file" --kernel shadow --grid 1 --block 6 'float[6]=0' 'depth2d_array:r32float[2x1x3]=iota' --save out=o.bin >/dev/null 2>&1
got=$(values o.bin f)
if [ "$got" = "(300.0, 310.0, 320.0, 331.0, 341.0, 351.0)" ]; then ok "depth2d_array read, sample_compare, get_array_size"
else fail "shadow: $got"; fi

# faces of texcube:float[2x2]=iota hold 4f .. 4f+3; each direction picks a face and a texel on it
"$tgsim" run "$file" --kernel sky --grid 1 --block 6 'float[6]=0' 'texcube:float[2x2]=iota' --save out=o.bin >/dev/null 2>&1
got=$(values o.bin f)
if [ "$got" = "(300.0, 707.0, 1111.0, 1515.0, 1919.0, 2320.0)" ]; then ok "texturecube sample by direction, read by face"
else fail "sky: $got"; fi

out=$("$tgsim" check "$file" --kernel one_texel --grid 1 --block 4,1 'tex2d:float4[2x2]=0' 2>&1); rc=$?
if [ $rc = 1 ] && has "$out" "write-after-write on global arg 0 \(dst\)\[0\]: thread \(0,0,0\) stores at textures.metal:63"; then
  ok "threads writing one texel race"
else fail "one_texel (rc $rc): $out"; fi

out=$("$tgsim" check "$file" --kernel read_right --grid 1 --block 4,2 'float[8]=0' 'tex2d:float[4x2]=iota' 2>&1); rc=$?
if [ $rc = 1 ] && has "$out" "out-of-bounds at textures.metal:69 \[2 times\]" \
   && has "$out" "thread \(3,0,0\): texture read of 'src' at \(4, 0, 0\) outside its 4x2x1 texels: undefined in Metal"; then
  ok "a read outside the texture is an out-of-bounds finding"
else fail "read_right (rc $rc): $out"; fi

# Matrix arithmetic, which Apple's texture samples use beside their textures: m * v, v * m, m * m,
# s * m + m - m, a matrix of scalars; sincos.
"$tgsim" run "$(dirname "$file")/matrices.metal" --kernel m --grid 1 --block 1 'float4[5]=0' --save out=o.bin >/dev/null 2>&1
got=$(values o.bin f)
if [ "$got" = "(32.0, 36.0, 40.0, 44.0, 11.0, 27.0, 43.0, 59.0, 202.0, 228.0, 254.0, 280.0, 26.0, 28.0, 30.0, 32.0, 4.0, 6.0, 0.0, 1.0)" ]; then
  ok "float4x4 * float4, float4 * float4x4, products, sums, float2x2 of 4 scalars, sincos"
else fail "matrices: $got"; fi

# The listing shows a texture or a sampler as one parameter, in ARG order.
out=$("$tgsim" run "$file" --kernel 2>&1)
if has "$out" "add_uint\(texture2d t\)" && has "$out" "sample_at\(const float2\* where, float4\* out, texture2d tex, sampler s\)" \
   && has "$out" "shapes\(float\* out, texture1d line, texture3d cube, texture2d_array layers\)"; then ok "the listing in ARG order"
else fail "listing: $out"; fi

# A kernel after a vertex function with many comment lines (Apple's samples): its lines are its own.
out=$("$tgsim" run "$(dirname "$file")/render_beside.metal" --kernel after_vertex --grid 1 --block 32 'float[32]' 2>&1)
if has "$out" "render_beside.metal:21:8 +global.store"; then ok "lines after a vertex function left out"
else fail "render_beside: $out"; fi

[ $fails = 0 ] && echo "metal textures OK"
exit $fails
