#!/bin/sh
# pass_fast_path_ir.sh PREPARE CLANG PLUGIN INCLUDE KERNELS WORKDIR: compiles KERNELS (a .cu file)
# through tgsim-prepare and Clang with the pass to LLVM IR, then checks the shape of the inline
# append in every instrumented function (sim/pass/fast_path.cpp):
#  - the lane's cursor (a load of i64* from i64**) is read only in the entry block, after a call
#    in the same block, or at the start of an invoke's destination: never per access, so a loop
#    without calls keeps it in a register;
#  - the tag cache (tgsim.keycell / tgsim.tagcell) is read only in the entry block;
#  - each block's accesses share one capacity check (cur + m <= end: an icmp ule of i64*), whose
#    slow path is __tgsim_reserve; no access takes __tgsim_access (constant loads only);
#  - and, so that the checks are not vacuous, the functions carry the cursor in a phi and have
#    a slow path.
set -eu
prepare=$1 clang=$2 plugin=$3 include=$4 src=$5 dir=$6
mkdir -p "$dir"
"$prepare" "$src" "$dir/kernels.cpp"
"$clang" -std=c++20 -fdeclspec -O2 -fno-vectorize -fno-slp-vectorize -fno-builtin-printf -Wno-unknown-attributes \
  -fno-discard-value-names -fpass-plugin="$plugin" -I "$include" -I "$include/tgsim/kernel/cuda" \
  -include tgsim/kernel/cuda_runtime.h -x c++ "$dir/kernels.cpp" -S -emit-llvm -o "$dir/kernels.ll"
awk '
  /^define / { match($0, /@[^(]*/); fn = substr($0, RSTART + 1, RLENGTH - 1); infn = 1; block = 0; called = 0; body = 0;
               phi = 0; slow = 0; next }
  !infn { next }
  /^}/ { infn = 0
         if (slow) { checked++
           if (!phi) { print fn ": the cursor is in no phi"; bad = 1 } }
         next }
  # A kernel starts with its host check (module_desc.cpp): the launch block and the body entry
  # after it count as the entry block.
  /^[A-Za-z0-9_.$-]+:/ { label = $1; sub(/:.*/, "", label); if (label == "tgsim.host_launch") skip = 2
                         if (skip > 0) skip--; else if (body) block++
                         called = (label in after_invoke); next }
  /^ / { body = 1 }
  /(call|invoke) |landingpad/ { called = 1 }
  /unwind label %/ { n = split($0, w, /label %/); for (i = 2; i <= n; i++) { l = w[i]; sub(/[ ,].*/, "", l); after_invoke[l] = 1 } }
  /call void @__tgsim_reserve\(/ { slow = 1 }
  /call void @__tgsim_access\(/ { print fn ": an access takes the slow path __tgsim_access: " $0; bad = 1 }
  /= phi i64\* / { phi = 1 }
  /= icmp ule i64\* / { runs++ }
  /= load i64\*, i64\*\* / && block > 0 && !called {
    print fn ": the lane cursor is loaded in block " block " with no call before it: " $0; bad = 1 }
  /= load i64, i64\* %tgsim\.(key|tag)cell/ && block > 0 {
    print fn ": the tag cache is read outside the entry block: " $0; bad = 1 }
  END { if (!runs) { print "no block of accesses shares a capacity check"; bad = 1 }
        if (checked < 4) { print "only " checked " instrumented functions with a slow path found"; bad = 1 }
        if (bad) exit 1
        print "fast path IR OK: " checked " functions, " runs " capacity checks" }
' "$dir/kernels.ll"
