#!/usr/bin/env bash
# Issue 8 probe: block -> SM/GPC placement of the matmuls and where the H100 merges L1 load
# misses before L2. Writes into DEST (default tests/hardware/l2_probe):
#   l2_probe_place.txt    SM -> GPC map and per-block %smid / %globaltimer of the matmul launches
#   l2_probe_labels.txt   what each profiled launch is (ncu ID = line number - 1)
#   l2_probe_ncu.csv      ncu --page raw export of the profile (metrics below, one row per launch)
#   l2_probe_log.txt      versions and the commands that ran
#   l2_probe_sass.txt     LDG lines of cuobjdump -sass of the probe binary
#   l2_probe.ncu-rep      the ncu report
#
#   bash tests/hardware/l2_probe.sh [DEST]
set -u -o pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DEST=${1:-$HERE/l2_probe}
mkdir -p "$DEST" && DEST=$(cd "$DEST" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/l2_probe.XXXXXX")
LOG=$DEST/l2_probe_log.txt
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | sort -V | tail -n1)
CUOBJDUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
METRICS=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,\
l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,\
lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric.sum,\
lts__t_sectors_srcnode_gpc_op_read.sum,lrc__xbar2lrc_requests_op_read.sum,lrc__xbar2lrc_requests_cmd_bypassed.sum,\
lrc__request_sectors_op_read_coalescable.sum,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,\
lrc__lrc2xbar_sectors_op_read.sum,lrc__lrc2xbar_sectors_op_read_coalescing_achieved.sum,\
lrc__lrc2xbar_sectors_op_read_coalescing_none.sum,lrc__lts2lrc_sectors_op_read.sum,\
lrc__xbar2gpc_sectors_op_read.sum,lrc__xbar2gpc_sectors_op_read_coalescing_achieved.sum,\
dram__bytes_read.sum,sm__ctas_launched.sum
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  "$NVCC" --version | tail -n 2
  "$NCU" --version | tail -n 1
  cd "$ROOT" || exit 1
  echo "+ nvcc -std=c++20 -arch=sm_90 -O3 -I kernels -I sim/include tests/hardware/l2_probe.cu -o l2_probe"
  "$NVCC" -std=c++20 -arch=sm_90 -O3 -I kernels -I sim/include tests/hardware/l2_probe.cu \
    -o "$WORK/l2_probe" || exit 1
  "$CUOBJDUMP" -sass "$WORK/l2_probe" | grep -E "Function|LDG" | sed -E 's@ +/\* 0x[0-9a-f]+ \*/@@' \
    >"$DEST/l2_probe_sass.txt"
  echo "+ l2_probe place l2_probe_place.txt"
  timeout 120 "$WORK/l2_probe" place "$DEST/l2_probe_place.txt"
  echo "place exit $?"
  echo "+ $NCU --metrics $METRICS --cache-control all -o l2_probe --force-overwrite l2_probe count l2_probe_place.txt l2_probe_labels.txt"
  timeout 400 "$NCU" --metrics "$METRICS" --cache-control all -o "$DEST/l2_probe" --force-overwrite \
    "$WORK/l2_probe" count "$DEST/l2_probe_place.txt" "$DEST/l2_probe_labels.txt" 2>&1 | grep -v "^==PROF== Profiling"
  echo "ncu exit ${PIPESTATUS[0]}"
  echo "+ $NCU --import l2_probe.ncu-rep --csv --page raw --print-units base > l2_probe_ncu.csv"
  "$NCU" --import "$DEST/l2_probe.ncu-rep" --csv --page raw --print-units base >"$DEST/l2_probe_ncu.csv"
  echo "export exit $?"
  date -u
} >"$LOG" 2>&1
cat "$LOG"
