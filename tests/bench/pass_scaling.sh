#!/bin/sh
# tests/bench/pass_scaling.sh BUILD [N...]: compile time of a generated kernel of N statements
# `a[i+k] = b[i+k] * c` with tgsim's flags, plain Clang against Clang with the instrumenting pass
# (BUILD/sim/pass/tgsim_pass.so), CPU seconds of the compiler (user), and with -ftime-report the
# three costliest passes of the instrumented compile at the largest N (issue 40: the instrumented compile grows
# faster than linearly in N). Defaults: N = 150 300 600. EXTRA_FLAGS: more flags for both compiles
# (e.g. "-mllvm -disable-cgp", to see a backend pass's share).
set -eu
build=$1
shift
[ $# -gt 0 ] || set -- 150 300 600
here=$(cd "$(dirname "$0")/../.." && pwd)
inc=$here/sim/include
plugin=$build/sim/pass/tgsim_pass.so
dir=$(mktemp -d "${TMPDIR:-/tmp}/tgsim-pass-scaling.XXXXXX")
trap 'rm -rf "$dir"' EXIT
# The flags of frontend::compile_command (sim/src/frontend/compile.cpp) for a .cu file.
flags="-std=c++20 -O2 -g -gdwarf-4 -fPIC -fno-vectorize -fno-slp-vectorize -fno-builtin-printf
       -Wno-unknown-attributes -Wno-register -Wno-c++11-narrowing -fstack-clash-protection
       -I $inc -fdeclspec -I $inc/tgsim/kernel/cuda -include tgsim/kernel/cuda_runtime.h ${EXTRA_FLAGS:-}"
user() {  # CPU seconds of the command's children
  python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN); print("%.2f" % r.ru_utime)' "$@"
}
printf '%8s %10s %10s %7s\n' N plain_s tgsim_s ratio
for n in "$@"; do
  {
    echo '__global__ void big(float* a, const float* b, float c) {'
    echo '  int i = blockIdx.x * blockDim.x + threadIdx.x;'
    k=0
    while [ "$k" -lt "$n" ]; do echo "  a[i + $k] = b[i + $k] * c;"; k=$((k + 1)); done
    echo '}'
  } > "$dir/k$n.cu"
  # shellcheck disable=SC2086
  plain=$(user clang++-14 $flags -x c++ "$dir/k$n.cu" -c -o "$dir/p.o")
  # shellcheck disable=SC2086
  inst=$(user clang++-14 $flags -fpass-plugin="$plugin" -x c++ "$dir/k$n.cu" -c -o "$dir/t.o")
  printf '%8s %10s %10s %7s\n' "$n" "$plain" "$inst" "$(python3 -c "print('%.1f' % ($inst / max($plain, 0.01)))")"
done
for n; do :; done  # the largest (last) N
# shellcheck disable=SC2086
clang++-14 $flags -fpass-plugin="$plugin" -x c++ "$dir/k$n.cu" -c -o "$dir/t.o" -ftime-report 2> "$dir/report.txt"
echo "costliest passes at N=$n (user seconds):"
grep -E '^ +[0-9.]+ \( *[0-9.]+%\)' "$dir/report.txt" | grep -v -e Total -e timer | sort -rn | head -3
