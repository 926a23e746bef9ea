#!/bin/sh
# pass_big_kernel_ir.sh PREPARE CLANG PLUGIN INCLUDE WORKDIR: a kernel of 400 statements
# `a[i+k] = b[i+k] * c` (800 records, 800 tags: -g gives each line its own sites) through the
# pass to LLVM IR. A function with more than 64 tags reads each record's tag from its stack slot
# where the record is written (sim/pass/fast_path.cpp, kTagsInRegisters) instead of holding
# every tag in a register from entry on: n live ranges as long as the function made SROA and
# register allocation grow as n times the kernel's length (issue 40). Here: every tag is read
# by a (volatile) load of its slot; no tag flows through a phi.
set -eu
prepare=$1 clang=$2 plugin=$3 include=$4 dir=$5
mkdir -p "$dir"
n=400
{
  echo '__global__ void big(float* a, const float* b, float c) {'
  echo '  int i = blockIdx.x * blockDim.x + threadIdx.x;'
  k=0
  while [ $k -lt $n ]; do echo "  a[i + $k] = b[i + $k] * c;"; k=$((k + 1)); done
  echo '}'
} > "$dir/big.cu"
"$prepare" "$dir/big.cu" "$dir/big.cpp"
"$clang" -std=c++20 -fdeclspec -O2 -g -fno-vectorize -fno-slp-vectorize -fno-builtin-printf -Wno-unknown-attributes \
  -fno-discard-value-names -fpass-plugin="$plugin" -I "$include" -I "$include/tgsim/kernel/cuda" \
  -include tgsim/kernel/cuda_runtime.h -x c++ "$dir/big.cpp" -S -emit-llvm -o "$dir/big.ll"
awk -v want=$((2 * n)) '
  /^define .*3big/ { infn = 1; next }
  !infn { next }
  /^}/ { infn = 0; next }
  /= load volatile i64, i64\* %tgsim\.tag\.slot/ { slot++ }
  /= phi i64 / && /tgsim\.tag/ { phi++ }
  END { print slot " tag loads from their slots (want at least " want "), " phi + 0 " tag phis"
        if (slot < want || phi > 0) exit 1 }
' "$dir/big.ll"
