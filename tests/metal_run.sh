#!/bin/sh
# metal_run.sh ADAPT CLANGXX SOURCE_DIR WORK_DIR: adapts seed001_matmul, seed001_blur and the
# SIMD probe (tests/metal_simd_probe.metal),
# compiles them with clang++-14 -O2 and runs them through tests/metal_run_driver.cpp.
set -e
A="$1"; CXX="$2"; S="$3"; W="$4"
mkdir -p "$W"
FLAGS="-std=c++20 -Xclang -fallow-half-arguments-and-returns -O2 -I $S/sim/include/tgsim/kernel/metal -I $S/sim/include"
for k in metal/seed001_matmul metal/seed001_blur metal_simd_probe; do
  "$A" "$S/tests/$k.metal" "$W/${k#metal/}.cpp"
  "$CXX" $FLAGS -x c++ -c "$W/${k#metal/}.cpp" -o "$W/${k#metal/}.o"
done
"$CXX" $FLAGS -c "$S/tests/metal_run_driver.cpp" -o "$W/driver.o"
"$CXX" "$W/driver.o" "$W/seed001_matmul.o" "$W/seed001_blur.o" "$W/metal_simd_probe.o" -o "$W/metal_run"
exec "$W/metal_run"
