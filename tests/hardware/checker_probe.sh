#!/usr/bin/env bash
# Issue 37 probe, run on the device machine (an H100, kind nvidia-h100-x1) from the repository root:
#   bash tests/hardware/checker_probe.sh OUTDIR
# Builds tests/hardware/checker_probe.cu, runs every case of tests/check_files/barrier_sites.cu,
# misaligned.cu and constant_write.cu
# plainly (does the GPU give the result the kernel expects?) and under compute-sanitizer's
# synccheck, racecheck and memcheck, and keeps the SASS of the kernels (which barrier each
# __syncthreads() is). Everything goes to OUTDIR; tests/hardware/checker_probe/ holds a recording.
set -uo pipefail
out=${1:?usage: checker_probe.sh OUTDIR}
mkdir -p "$out"
cases="sites_block sites_warp exited_syncwarp ballot_lanemask misaligned_float4 write_constant"
{
  date -u +"recorded %Y-%m-%d %H:%M UTC"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -2
  compute-sanitizer --version | grep -i "^version"
} >"$out/versions.txt" 2>&1
nvcc -std=c++17 -arch=sm_90 -lineinfo -o "$out/checker_probe" tests/hardware/checker_probe.cu >"$out/build.txt" 2>&1 || {
  cat "$out/build.txt"; exit 1; }
cuobjdump -sass "$out/checker_probe" >"$out/sass.txt" 2>&1
for c in $cases; do
  echo "=== plain $c"
  "$out/checker_probe" "$c"
  for tool in synccheck racecheck memcheck; do
    echo "=== $tool $c"
    extra=()
    [ "$tool" = racecheck ] && extra=(--racecheck-report all)
    compute-sanitizer --tool "$tool" "${extra[@]}" "$out/checker_probe" "$c"
  done
done >"$out/results.txt" 2>&1
rm -f "$out/checker_probe"
cat "$out/results.txt"
