#!/bin/sh
# metal_compile.sh ADAPT CLANGXX SOURCE_DIR IN.metal OUT.cpp: the Metal adapter's output for IN
# compiles with clang++-14 and metal_stdlib, as tgsim's front end compiles it (no pass here).
set -e
"$1" "$4" "$5"
exec "$2" -std=c++20 -Xclang -fallow-half-arguments-and-returns -fsyntax-only -x c++ -I "$3/sim/include/tgsim/kernel/metal" -I "$3/sim/include" "$5"
