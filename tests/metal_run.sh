#!/bin/sh
# metal_run.sh ADAPT CLANGXX SOURCE_DIR WORK_DIR: adapts seed001_matmul and seed001_blur,
# compiles them with clang++-14 -O2 and runs them through tests/metal_run_driver.cpp.
set -e
A="$1"; CXX="$2"; S="$3"; W="$4"
mkdir -p "$W"
FLAGS="-std=c++20 -O2 -I $S/sim/include/tgsim/kernel/metal -I $S/sim/include"
for k in seed001_matmul seed001_blur; do
  "$A" "$S/tests/metal/$k.metal" "$W/$k.cpp"
  "$CXX" $FLAGS -x c++ -c "$W/$k.cpp" -o "$W/$k.o"
done
"$CXX" $FLAGS -c "$S/tests/metal_run_driver.cpp" -o "$W/driver.o"
"$CXX" "$W/driver.o" "$W/seed001_matmul.o" "$W/seed001_blur.o" -o "$W/metal_run"
exec "$W/metal_run"
