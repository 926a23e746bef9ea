#!/bin/sh
# pass_store_notes_ir.sh PREPARE CLANG PLUGIN INCLUDE WORKDIR: where the checker's
# __tgsim_note_store calls go (sim/pass/store_notes.cpp). Each call reads the stored bytes when it
# runs, so the calls of several stores share one block after them only while nothing may write
# those bytes again in between:
#  - apart:  a[i], a[i+64], a[i+128] never alias: three stores, then their three calls;
#  - alias:  p[i], q[i], p[i+64] with p and q possibly one buffer: each store's call before the
#            next store (q[i] may be p[i]; p[i+64] may be q[i]);
#  - writer: an inline asm that clobbers memory may write p[i]: p[i]'s call before it (a call
#            that may reach the library ends the region, and its calls go before it anyway).
# The line printed per kernel is its stores (S) and calls (N) in IR order.
set -eu
prepare=$1 clang=$2 plugin=$3 include=$4 dir=$5
mkdir -p "$dir"
cat > "$dir/notes.cu" <<'CU'
__global__ void apart(int* a) { int i = threadIdx.x; a[i] = 1; a[i + 64] = 2; a[i + 128] = 3; }
__global__ void alias(int* p, int* q) { int i = threadIdx.x; p[i] = 1; q[i] = 2; p[i + 64] = 3; }
__global__ void writer(int* p) { int i = threadIdx.x; p[i] = 1; asm volatile("" ::: "memory"); p[i + 64] = 2; }
CU
"$prepare" "$dir/notes.cu" "$dir/notes.cpp"
"$clang" -std=c++20 -fdeclspec -O2 -g -fno-vectorize -fno-slp-vectorize -fno-builtin-printf -Wno-unknown-attributes \
  -fno-discard-value-names -fpass-plugin="$plugin" -I "$include" -I "$include/tgsim/kernel/cuda" \
  -include tgsim/kernel/cuda_runtime.h -x c++ "$dir/notes.cpp" -S -emit-llvm -o "$dir/notes.ll"
awk '
  /^define .*5apart/ { fn = "apart" } /^define .*5alias/ { fn = "alias" } /^define .*6writer/ { fn = "writer" }
  /^}/ { fn = "" }
  fn == "" { next }
  /store i32 [0-9]+, i32\* / { seq[fn] = seq[fn] "S" }
  /call void asm sideeffect "", "~\{memory\}/ { seq[fn] = seq[fn] "A" }
  /call void @__tgsim_note_store\(/ { seq[fn] = seq[fn] "N" }
  END {
    print "apart " seq["apart"] " (want SSSNNN), alias " seq["alias"] " (want SNSNSN), writer " seq["writer"] " (want SNASN)"
    if (seq["apart"] != "SSSNNN" || seq["alias"] != "SNSNSN" || seq["writer"] != "SNASN") exit 1
  }
' "$dir/notes.ll"
