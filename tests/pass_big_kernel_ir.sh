#!/bin/sh
# pass_big_kernel_ir.sh PREPARE CLANG PLUGIN INCLUDE WORKDIR: a kernel of 400 statements
# `a[i+k] = b[i+k] * c` (800 records, 800 tags: -g gives each line its own sites) through the
# pass to LLVM IR. The instrumented code must grow linearly with the kernel (issue 40: 1,000
# statements compiled in 43 s against 3 s for plain Clang; tests/bench/pass_scaling.sh):
#  - a function with more than 64 tags has them filled in by one __tgsim_load_tags call at
#    entry, into one stack array each record reads its tag from (a volatile load), instead of
#    inline checks of every key at entry (one block of 4n memory operations, quadratic in the
#    backend's scheduler) or tags held in registers from entry on (n live ranges as long as the
#    function); no tag flows through a phi;
#  - the 800 records of the one block share a capacity check per 64 records (13), whose slow
#    path is one __tgsim_reserve call, instead of one check and one __tgsim_access call each (800
#    blocks with a call each: the register allocator and scheduler grew faster than linearly
#    with them), nor one check for all (one block of 800 records: the backend is superlinear in
#    a block's memory operations);
#  - the checker's 400 __tgsim_note_store calls (a[i+k] never aliases a[i+j]) are grouped, one
#    `if (checking)` block per capacity check, not one block per store (store_notes.cpp);
#  - the index i + k is computed in 64 bits from one extension of i (sim/pass/widen_indices.cpp),
#    not as sext(i + k) with the 32-bit i live across every record's block (LLVM 14's
#    CodeGenPrepare re-promotes those block by block, quadratic).
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
awk -v want=$((2 * n)) -v checks=$(((2 * n + 63) / 64)) '
  /^define .*3big/ { infn = 1; entry = 1; next }
  !infn { next }
  /^}/ { infn = 0; next }
  entry && /^$/ { entry = 0 }
  entry && /^  / { entry_insts++ }
  /call void @__tgsim_load_tags\(/ { load_tags++ }
  /getelementptr inbounds \[[0-9]+ x i64\], \[[0-9]+ x i64\]\* %tgsim\.tags\.array/ { cells++ }
  /= load volatile i64, i64\* / { vloads++ }
  /= phi i64 / && /tgsim\.tag/ { phi++ }
  /= sext i32 / { sext++ }
  /^[A-Za-z0-9._]+:/ { noted = 0 }
  /call void @__tgsim_note_store\(/ { notes++; if (!noted) note_blocks++; noted = 1 }
  /call void @__tgsim_reserve\(/ { reserve++ }
  /call void @__tgsim_access\(/ { access++ }
  END { print load_tags + 0 " __tgsim_load_tags calls, " cells + 0 " reads of the tags array, " vloads + 0 \
              " volatile tag loads (want at least " want "), " phi + 0 " tag phis, " sext + 0 \
              " sext i32, " entry_insts + 0 " instructions in the entry block, " \
              reserve + 0 " __tgsim_reserve calls (want " checks "), " access + 0 " __tgsim_access calls (want 0), " \
              notes + 0 " __tgsim_note_store calls (want " want / 2 ") in " note_blocks + 0 " blocks (want " checks ")"
        if (load_tags != 1 || cells < want || vloads < want || phi > 0 || sext > 4 || entry_insts > 80 || \
            reserve != checks || access != 0 || notes != want / 2 || note_blocks != checks) exit 1 }
' "$dir/big.ll"
