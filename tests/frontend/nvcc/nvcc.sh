#!/bin/bash
# tgsim-nvcc as a Makefile calls nvcc: usage: nvcc.sh TGSIM_NVCC SOURCE_DIR WORK_DIR
# Separate compile with nvcc's options (-arch, -O3, -Xcompiler, -D, -I), link with -lcudart, run;
# an unknown option named once; a usage error exits 2; a compile error exits 1 naming file:line.
set -u
NVCC=$1 SRC=$2 WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

"$NVCC" -std=c++17 -arch=sm_90 -gencode arch=compute_90,code=sm_90 -O3 -lineinfo -Xcompiler -Wall,-fPIC \
  -DSCALE=3 -I "$SRC/include" -c "$SRC/saxpy.cu" -o saxpy.o 2> compile.err || fail "compile: $(cat compile.err)"
[ -s saxpy.o ] || fail "no saxpy.o"
"$NVCC" -std=c++17 -O3 --frobnicate --frobnicate saxpy.o "$SRC/main.cpp" -o prog -lcudart 2> link.err || fail "link: $(cat link.err)"
[ "$(grep -c 'ignoring --frobnicate' link.err)" = 1 ] || fail "unknown option not named once: $(cat link.err)"
out=$(./prog) || fail "program: $out"
[ "$out" = "nvcc program: 0 wrong" ] || fail "output: $out"

"$NVCC" -c "$SRC/saxpy.cu" -o 2> usage.err
rc=$?
[ $rc = 2 ] || fail "-o without a value exited $rc"
grep -q -- "-o needs a value" usage.err || fail "usage message: $(cat usage.err)"

"$NVCC" -c "$SRC/broken.cu" -o broken.o 2> broken.err
rc=$?
[ $rc = 1 ] || fail "compile error exited $rc"
grep -q "broken.cu:3:.*undeclared_name" broken.err || fail "compile error message: $(cat broken.err)"
# Host OpenMP: -Xcompiler -fopenmp compiles the pragmas (Clang, GCC's libgomp) and links libgomp.
"$NVCC" -O3 -Xcompiler -fopenmp,-O3 "$SRC/openmp.cu" -o omp 2> omp.err || fail "openmp build: $(cat omp.err)"
out=$(OMP_NUM_THREADS=3 ./omp) || fail "openmp program: $out"
[ "$out" = "openmp: sum 2016, team 3" ] || fail "openmp output: $out"
# A dependent member template called without `template` (nvcc accepts it): put in, with a note.
"$NVCC" -I "$SRC/include" "$SRC/template_keyword.cu" -o tk 2> tk.err || fail "template keyword build: $(cat tk.err)"
grep -q "member_template.cuh: .template. put before 1 member template" tk.err || fail "header note: $(cat tk.err)"
grep -q "template_keyword.cu: .template. put before 1 member template" tk.err || fail "file note: $(cat tk.err)"
out=$(./tk) || fail "template keyword program: $out"
[ "$out" = "member template: 0.5 7.5 0 2" ] || fail "template keyword output: $out"
echo "tgsim-nvcc: all checks passed"
