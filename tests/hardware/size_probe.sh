#!/usr/bin/env bash
# Issue 14 probe: L1/L2/DRAM traffic and duration of the seed matmuls and transposes as n
# grows (size_probe.cu). Writes into DEST (default tests/hardware/size_probe):
#   size_probe_labels.txt  what each profiled launch is (ncu ID = line number - 1)
#   size_probe_ncu.csv     ncu --page raw export (metrics below, one row per launch)
#   size_probe_log.txt     versions and the commands that ran
#   size_probe_time.txt    `size_probe time`: CUDA-event timings at default clocks
#
#   bash tests/hardware/size_probe.sh [DEST]
set -u -o pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DEST=${1:-$HERE/size_probe}
mkdir -p "$DEST" && DEST=$(cd "$DEST" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/size_probe.XXXXXX")
LOG=$DEST/size_probe_log.txt
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | sort -V | tail -n1)
METRICS=gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,\
dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,\
sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,\
lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  "$NVCC" --version | tail -n 2
  "$NCU" --version | tail -n 1
  cd "$ROOT" || exit 1
  echo "+ nvcc -std=c++20 -arch=sm_90 -O3 -I kernels -I sim/include tests/hardware/size_probe.cu"
  "$NVCC" -std=c++20 -arch=sm_90 -O3 -I kernels -I sim/include tests/hardware/size_probe.cu \
    -o "$WORK/size_probe" || exit 1
  "$WORK/size_probe" > "$DEST/size_probe_labels.txt" || exit 1
  echo "+ $NCU --metrics $METRICS --cache-control all --clock-control base -o $WORK/rep size_probe"
  "$NCU" --metrics "$METRICS" --cache-control all --clock-control base -o "$WORK/rep" \
    "$WORK/size_probe" > "$WORK/ncu_stdout.txt" 2>&1 || { tail -n 20 "$WORK/ncu_stdout.txt"; exit 1; }
  "$NCU" --import "$WORK/rep.ncu-rep" --csv --page raw --print-units base > "$DEST/size_probe_ncu.csv"
  "$WORK/size_probe" time > "$DEST/size_probe_time.txt" || exit 1
  date -u
} > "$LOG" 2>&1
status=$?
cat "$LOG"
exit $status
