#!/usr/bin/env bash
# metal_features.sh TGSIM WORKDIR: the Metal that MLX's and ggml's kernels are written in, each
# feature in a small kernel of tests/metal_features/, run from its file with exact results and
# counts: [[host_name]] instantiations (--kernel takes the host name), half and bfloat, Metal's
# constants and type traits, a header with Metal keywords found through -I, atomics, function
# constants (--constant), simdgroup_matrix and SIMD functions of half and vectors, type traits,
# uniform<T>, instantiations whose template arguments are deduced, <simd/simd.h> and buffer
# indices named by enumerators, the geometric functions.
set -uo pipefail
tgsim=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)/metal_features
rm -rf "$work" && mkdir -p "$work"
export TGSIM_CACHE="$work/cache"
fails=0
ok() { echo "ok: $*"; }
fail() { fails=$((fails + 1)); echo "FAIL: $*"; }
# expect NAME OUTPUT_FILE... -- PATTERN...: every PATTERN (grep -E) is in the output
has() { grep -Eq -- "$2" <<<"$1"; }  # a here-string: no pipe for grep -q to close early under pipefail
# values FILE FORMAT EXPECTED: the file's values (Python struct FORMAT) are exactly EXPECTED
values() {
  python3 -c "
import struct, sys
v = struct.unpack('$2', open('$1', 'rb').read())
sys.exit(0 if list(v) == $3 else 1)" 2>/dev/null
}
run() { "$tgsim" run "$@" 2>&1; }

python3 - "$work" <<'PY'
import struct, sys
w = sys.argv[1]
open(f"{w}/half_in.bin", "wb").write(struct.pack("32e", *[i + 0.5 for i in range(32)]))
open(f"{w}/half4_in.bin", "wb").write(struct.pack("8e", *range(1, 9)))
open(f"{w}/m.bin", "wb").write(struct.pack("16e", *range(16)))
A = [float(i % 5) for i in range(64)]
B = [float((i * 3) % 7 - 3) for i in range(64)]
open(f"{w}/A.bin", "wb").write(struct.pack("64f", *A))
open(f"{w}/B.bin", "wb").write(struct.pack("64e", *B))
C = [1 + sum(A[r * 8 + k] * B[k * 8 + c] for k in range(8)) for r in range(8) for c in range(8)]
open(f"{w}/C.bin", "wb").write(struct.pack("64f", *C))
PY

# [[host_name]]: the list names the host names; --kernel runs one.
out=$(run "$here/host_names.metal" --kernel none)
if has "$out" "it has:" && [ "$(printf '%s\n' "$out" | grep -Ec '^  (scale_int_3|scale_float_2|scale_int_5|copy_first)\(')" = 4 ] \
   && ! has "$out" "^  scale<"; then ok "host names listed"; else fail "host names: $out"; fi
out=$(run "$here/host_names.metal" --kernel scale_int_5 --grid 1 --block 4 'int[4]=iota' 'int[4]' --save "1=$work/s.bin")
if has "$out" "findings: none" && values "$work/s.bin" 4i "[0, 5, 10, 15]"; then ok "scale_int_5 runs"; else fail "scale_int_5: $out"; fi
out=$(run "$here/host_names.metal" --kernel copy_first --grid 1 --block 2 'int[2]=iota' 'int[2]' --save "1=$work/c.bin")
if values "$work/c.bin" 2i "[0, 0]"; then ok "plain [[host_name]] kernel"; else fail "copy_first: $out"; fi

# half and bfloat: values, and 2-byte stores (32 halves: 64 bytes, 2 sectors).
out=$(run "$here/half_types.metal" --kernel half_math --grid 1 --block 32 "ushort[32]=@$work/half_in.bin" 'ushort[32]' \
      'ushort[32]' 'float[32]' --save "1=$work/hb.bin" --save "2=$work/bits.bin" --save "3=$work/hf.bin")
want_b=$(python3 -c "print([(i + 0.5) * 2 + 0.25 for i in range(32)])")
want_f=$(python3 -c "
import struct
bf = lambda x: struct.unpack('f', struct.pack('I', (struct.unpack('I', struct.pack('f', x))[0] + 0x7fff + ((struct.unpack('I', struct.pack('f', x))[0] >> 16) & 1)) & 0xffff0000))[0]
print([bf(bf((i + 0.5) * 2 + 0.25) * 3) + ((i + 0.5) * 2 + 0.25 if i < 2 else 1.0) for i in range(32)])")
if values "$work/hb.bin" 32e "$want_b" && values "$work/bits.bin" 32H "[13653] * 32" && values "$work/hf.bin" 32f "$want_f" \
   && has "$out" "half_types.metal:9:8 +global.store +instr 1 +sectors 2"; then
  ok "half and bfloat arithmetic, as_type, 2-byte stores"
else
  fail "half_math: $out"
fi
out=$(run "$here/half_types.metal" --kernel half4_sum --grid 1 --block 2 "ushort[8]=@$work/half4_in.bin" 'float[2]' --save "1=$work/h4.bin")
if values "$work/h4.bin" 2f "[14.0, 30.0]"; then ok "half4"; else fail "half4_sum: $out"; fi

# Constants, METAL_FUNC, numeric_limits<half>, is_same_v, size_t, float4x4 from half4x4, pragmas.
out=$(run "$here/constants.metal" --grid 1 --block 1 'float[8]' "ushort[16]=@$work/m.bin" --save "0=$work/k.bin")
want_k=$(python3 -c "
import struct
f = lambda x: struct.unpack('f', struct.pack('f', x))[0]
print([f(3.14159265358979), 1.0, 1.0, 1.0, 65504.0, 2.0, 9.0, f(f(1.41421356237309) * f(1.41421356237309))])")
if has "$out" "findings: none" && values "$work/k.bin" 8f "$want_k"; then ok "constants"; else fail "constants: $out"; fi

# A header with Metal keywords and a kernel template, through -I.
out=$(run "$here/uses_header.metal" -I "$here/include" --kernel scaled_sum_int --grid 1 --block 32 'int[32]=iota' 'int[1]' int:3 \
      --save "1=$work/u.bin")
if has "$out" "scaled.h:9:13 +shared.store" && values "$work/u.bin" 1i "[1488]"; then ok "header through -I"; else fail "uses_header: $out"; fi

# Atomics: device int add and uint max (combined per SIMD group), threadgroup float add, compare-exchange.
out=$(run "$here/atomics.metal" --grid 2 --block 32 'int[1]=0' 'uint[1]=0' 'uint[64]=iota' 'float[1]=0' \
      --save "0=$work/a0.bin" --save "1=$work/a1.bin" --save "3=$work/a3.bin")
if values "$work/a0.bin" 1i "[64]" && values "$work/a1.bin" 1I "[63]" && values "$work/a3.bin" 1f "[32.0]" \
   && has "$out" "shared atomics: 2 warp instr., 64 thread ops"; then ok "atomics"; else fail "atomics: $out"; fi

# Function constants: given, and not given (0, not defined).
out=$(run "$here/function_constants.metal" --grid 1 --block 4 'int[4]' --constant FC_FACTOR=3 --constant FC_ADD_ONE=true \
      --save "0=$work/f1.bin")
out2=$(run "$here/function_constants.metal" --grid 1 --block 4 'int[4]' --save "0=$work/f2.bin")
if values "$work/f1.bin" 4i "[1, 4, 7, 10]" && values "$work/f2.bin" 4i "[0, -1, -2, -3]"; then ok "function constants"
else fail "function constants: $out $out2"; fi
out=$(run "$here/function_constants.metal" --grid 1 --block 4 'int[4]' --constant 3=1); rc=$?
if [ $rc = 2 ] && has "$out" "bad --constant '3=1'"; then ok "bad --constant: exit 2"; else fail "bad --constant: rc $rc $out"; fi

# simdgroup_matrix: C = A * B + 1 by one SIMD group, 2 elements per thread loaded and stored.
out=$(run "$here/simdgroup_matrix.metal" --grid 1 --block 32 "float[64]=@$work/A.bin" "ushort[64]=@$work/B.bin" 'float[64]' \
      'float[2]' --expect "2=$work/C.bin" --save "3=$work/e.bin")
if has "$out" "findings: none" && has "$out" "global load +128 " && values "$work/e.bin" 2f "[32.0, 5.0]"; then
  ok "simdgroup_matrix and SIMD functions of half and float4"
else
  fail "simdgroup_matrix: $out"
fi

# MLX's header idioms: address-space overloads, __metal_* builtins, a function-constant parameter.
out=$(run "$here/mlx_style.metal" --grid 1 --block 32 'float[35]' 'float[1]=0' 'uint[1]=0' --constant has_bias=true \
      --save "0=$work/ms.bin" --save "2=$work/flags.bin")
want_ms=$(python3 -c "print([float(l + 4) for l in range(28)] + [100.0, 101.0, 102.0, 103.0, 5.5, 0.0, 15.0])")
if has "$out" "findings: none" && values "$work/ms.bin" 35f "$want_ms" && values "$work/flags.bin" 1I "[1]"; then
  ok "MLX's header idioms"
else
  fail "mlx_style: $out"
fi

python3 -c "import struct; open('$work/at.bin', 'wb').write(struct.pack('3i', 1, 2, 5))"
# <metal_type_traits>: bool_constant, true_type/false_type tags, _disjunction/_conjunction/_negation.
out=$(run "$here/type_traits.metal" --grid 1 --block 4 'int[4]' --save "0=$work/tt.bin")
if has "$out" "findings: none" && values "$work/tt.bin" 4i "[5, 21, 79, 142]"; then ok "type traits"; else fail "type_traits: $out"; fi

# A class template specialized for each address space (device, threadgroup, constant, thread pointers).
out=$(run "$here/pointer_traits.metal" --grid 1 --block 4 'float[4]' "int[1]=@$work/at.bin" --save "0=$work/pt.bin")
if has "$out" "findings: none" && values "$work/pt.bin" 4f "[9.0, 11.0, 13.0, 15.0]"; then ok "address-space specializations"
else fail "pointer_traits: $out"; fi

# Quad-group reductions, scans, shuffles and votes, a partial last quad included.
out=$(run "$here/quadgroup.metal" --grid 1 --block 12 'float[10]' 'int[10]' 'uint[10]' 'ushort[20]' \
      --save "0=$work/q0.bin" --save "1=$work/q1.bin" --save "2=$work/q2.bin" --save "3=$work/q3.bin")
if has "$out" "findings: none" && values "$work/q0.bin" 10f "[8.0] * 4 + [24.0] * 4 + [18.0] * 2" \
   && values "$work/q1.bin" 10i "[0, 100, 301, 603, 400, 904, 1509, 2215, 800, 1708]" \
   && values "$work/q2.bin" 10I "[1000, 0, 3000, 2000, 5043, 4043, 7043, 6043, 9081, 8081]" \
   && values "$work/q3.bin" 20e "[3.0, -0.0] * 4 + [7.0, -4.0] * 4 + [9.0, -8.0] * 2"; then ok "quad-group functions"
else fail "quadgroup: $out"; fi

# A vector from fewer scalars than its components: the rest 0 (a float3's padding is not compared).
out=$(run "$here/vector_init.metal" --grid 1 --block 2 'uint4[2]' '(float3*)float[8]' --save "0=$work/vi.bin" --save "1=$work/vf.bin")
if has "$out" "findings: none" && values "$work/vi.bin" 8I "[0, 1, 240, 0, 1, 2, 241, 0]" \
   && python3 -c "import struct, sys; v = struct.unpack('8f', open('$work/vf.bin', 'rb').read()); sys.exit(v[0:3] + v[4:7] != (1.5, 0, 0, 1.5, 1, 0))"; then
  ok "vector initializer lists"
else
  fail "vector_init: $out"
fi

# A class converting to bool, converted to bfloat, half and float.
out=$(run "$here/class_to_bfloat.metal" --grid 1 --block 2 'float[2]' --save "0=$work/cb.bin")
if has "$out" "findings: none" && values "$work/cb.bin" 2f "[333.0, 1444.0]"; then ok "class to bfloat"; else fail "class_to_bfloat: $out"; fi

# simdgroup_matrix a * b.
out=$(run "$here/simdgroup_product.metal" --grid 1 --block 32 "float[64]=@$work/A.bin" 'float[64]=iota' 'float[64]' --save "2=$work/sp.bin")
want_sp=$(python3 -c "
A = [float(i % 5) for i in range(64)]
print([sum(A[r * 8 + k] * (k * 8 + c) for k in range(8)) for r in range(8) for c in range(8)])")
if has "$out" "findings: none" && values "$work/sp.bin" 64f "$want_sp"; then ok "simdgroup_matrix a * b"; else fail "simdgroup_product: $out"; fi

# uniform<T> and make_uniform in loop bounds and arithmetic.
out=$(run "$here/uniform.metal" --grid 1 --block 4 'float[4]' int:11 --save "0=$work/un.bin")
if has "$out" "findings: none" && values "$work/un.bin" 4f "[9.0, 10.0, 11.0, 12.0]"; then ok "uniform"; else fail "uniform: $out"; fi

# A kernel template instantiated without template arguments: deduced from the parameters.
out=$(run "$here/deduced_instantiation.metal" --kernel gather_sum_int_3 --grid 1 --block 4 'int[16]=iota' 'int[4]' \
      "int[3]=@$work/at.bin" int:100 --save "1=$work/gi.bin")
out2=$(run "$here/deduced_instantiation.metal" --kernel gather_sum_float_2 --grid 1 --block 4 'float[16]=iota' 'float[4]' \
       "int[2]=@$work/at.bin" int:100 --save "1=$work/gf.bin")
if values "$work/gi.bin" 4i "[108, 111, 114, 117]" && values "$work/gf.bin" 4f "[103.0, 105.0, 107.0, 109.0]"; then
  ok "instantiation with deduced template arguments"
else
  fail "deduced_instantiation: $out $out2"
fi

# <simd/simd.h> in a header shared with host code: vector_float4, simd_float2, matrix_float2x2.
python3 -c "
import struct
parts = b''.join(struct.pack('4f2f8x', i, 2 * i, 0, 1, 1, i) for i in range(4))
open('$work/particles.bin', 'wb').write(parts)
open('$work/params.bin', 'wb').write(struct.pack('4f2ff4x', 0, 1, -1, 0, 0, -1, 0.5))"
# (BufferIndexParams is 0, BufferIndexParticles 1: the struct's ARG comes first.)
out=$(run "$here/simd_header.metal" -I "$here/include" --grid 1 --block 4 "struct:$work/params.bin" \
      "float[32]=@$work/particles.bin" --save "particles=$work/pa.bin")
want_pa=$(python3 -c "
r = []
for i in range(4):
    v = (-i, 1 - 1)
    r += [i + 0.5 * v[0], 2 * i + 0.5 * v[1], 0, 1, v[0], v[1], 0, 0]
print([float(x) for x in r])")
if has "$out" "findings: none" && values "$work/pa.bin" 32f "$want_pa"; then ok "simd/simd.h types"; else fail "simd_header: $out"; fi

# distance_squared, reflect, faceforward, refract.
out=$(run "$here/geometric.metal" --grid 1 --block 1 'float[8]' --save "0=$work/geo.bin")
if has "$out" "findings: none" && values "$work/geo.bin" 8f "[25.0, 1.0, 1.0, 0.0, 1.0, -1.0, -1.0, 0.0]"; then
  ok "geometric functions"
else fail "geometric: $out"; fi

# Apple's tensor library (MLX's *_nax.metal): not modelled, one line naming it, exit 2.
out=$(run "$here/tensor_library.metal" --grid 1 --block 1 'float[1]'); rc=$?
if [ $rc = 2 ] && has "$out" "^[^ ]*tensor_library.metal:4:10: MetalPerformancePrimitives \\(Apple's tensor library.* is not modelled by tgsim" \
   && [ "$(printf '%s\n' "$out" | wc -l)" = 2 ]; then ok "tensor library named"; else fail "tensor library: rc $rc $out"; fi

[ $fails = 0 ] && echo "metal features OK" || { echo "$fails metal feature checks failed"; exit 1; }
