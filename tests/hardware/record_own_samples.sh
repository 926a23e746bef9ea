#!/usr/bin/env bash
# Record what Nsight Compute reports for the kernels of tests/frontend/own_samples/ (written for
# tgsim; the launches of tests/hardware/own_samples_driver.cu, at the sizes of own_samples_ref.h) on an NVIDIA GPU
# (made for the H100, sm_90), as record_h100.sh does for the catalog kernels.
#
#   bash tests/hardware/record_own_samples.sh [DEST]      # DEST defaults to tests/hardware
#
# Writes into DEST:
#   own_samples_h100.json        the fixture (ncu_to_json.py's format: kernels.<entry>.metrics, and
#                            .launches[j].metrics for an entry of several launches)
#   own_samples_h100_raw.csv     ncu's raw CSV page (every metric of every launch)
#   own_samples_h100.sass.txt    cuobjdump -sass of the driver
#   own_samples_h100_raw.tar.gz  the work folder: CSV exports, .ncu-rep report, manifest, logs
# One pass, no metric probing (record_h100.sh found all of ncu_to_json.py's metrics accepted on
# the H100); if the profile fails with ncu's default clock control it is retried with
# --clock-control none. A failing step is noted in the JSON; later steps still run.
set -u -o pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DEST=${1:-$HERE}
mkdir -p "$DEST" && DEST=$(cd "$DEST" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tgsim_own_samples.XXXXXX")

say() { echo "[record_own_samples $(date -u +%H:%M:%S)] $*"; }
note() { echo "$*" >>"$WORK/notes.txt"; say "NOTE: $*"; }
find_tool() {  # NAME CANDIDATE... -> the first that exists ('' if none)
  local name=$1 p c
  shift
  p=$(command -v "$name" 2>/dev/null || true)
  if [ -z "$p" ]; then
    for c in "$@"; do
      if [ -n "$c" ] && [ -x "$c" ]; then p=$c; break; fi
    done
  fi
  echo "$p"
}

export_csv() {  # OUT PAGE INSTANCES
  local out=$1 page=$2 inst=$3
  local args=(--import "$WORK/report.ncu-rep" --csv --page "$page" --print-units base
    --print-kernel-base mangled --print-metric-instances "$inst")
  if "$NCU" "${args[@]}" --print-metric-name name >"$out" 2>"$out.err"; then
    echo "ncu ${args[*]} --print-metric-name name > $(basename "$out")" >>"$WORK/export_commands.txt"
  elif "$NCU" "${args[@]}" >"$out" 2>"$out.err"; then
    echo "ncu ${args[*]} > $(basename "$out")" >>"$WORK/export_commands.txt"
  else
    note "ncu export $page/$inst failed: $(head -c 300 "$out.err" | tr '\n' ' ')"
  fi
}

record() {
  cd "$ROOT" || return 1
  NVCC=$(find_tool nvcc /usr/local/cuda/bin/nvcc)
  CUOBJDUMP=$(find_tool cuobjdump /usr/local/cuda/bin/cuobjdump "$(dirname "${NVCC:-/x}")/cuobjdump")
  NCU=$(find_tool ncu /usr/local/cuda/bin/ncu \
    "$(ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | sort -V | tail -n1)" \
    "$(ls -d /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | sort -V | tail -n1)")
  PY=$(find_tool python3)
  say "repo $ROOT, work $WORK; nvcc=$NVCC cuobjdump=$CUOBJDUMP ncu=$NCU"
  nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.max.sm,clocks.max.memory \
    --format=csv,noheader >"$WORK/gpu.txt" 2>&1 || note "nvidia-smi failed: $(cat "$WORK/gpu.txt")"
  [ -n "$NVCC" ] && "$NVCC" --version >"$WORK/nvcc_version.txt" 2>&1
  [ -n "$CUOBJDUMP" ] && "$CUOBJDUMP" --version >"$WORK/cuobjdump_version.txt" 2>&1
  [ -n "$NCU" ] && "$NCU" --version >"$WORK/ncu_version.txt" 2>&1
  cat "$WORK/gpu.txt" "$WORK/nvcc_version.txt" "$WORK/ncu_version.txt" 2>/dev/null

  # --- build -----------------------------------------------------------------------------------
  if [ -z "$NVCC" ]; then note "nvcc not found"; return 1; fi
  local build=(-std=c++17 -arch=sm_90 -O3 -I tests/frontend/own_samples -I tests/hardware
    tests/hardware/own_samples_driver.cu -o "$WORK/driver")
  echo "nvcc ${build[*]}" | sed "s@$WORK/@@" >"$WORK/build_command.txt"
  say "build: $(cat "$WORK/build_command.txt")"
  if ! "$NVCC" "${build[@]}"; then note "build failed"; return 1; fi
  if [ -n "$CUOBJDUMP" ]; then
    "$CUOBJDUMP" -sass "$WORK/driver" >"$WORK/sass.txt" 2>&1 || note "cuobjdump -sass failed"
    "$CUOBJDUMP" -res-usage "$WORK/driver" >"$WORK/res_usage.txt" 2>&1 || true
  fi

  # --- plain run (correctness without the profiler) --------------------------------------------
  say "driver count (no profiler)"
  timeout 120 "$WORK/driver" count --manifest "$WORK/manifest_plain.json" ||
    note "driver count without ncu exited $?"
  if [ -z "$NCU" ]; then note "ncu not found: no profile"; return 0; fi

  # --- the profile -------------------------------------------------------------------------------
  METRICS=$("$PY" "$HERE/ncu_to_json.py" --metrics | tr -s ' \n' ',' | sed 's/^,//; s/,$//')
  echo "$METRICS" | tr ',' '\n' >"$WORK/metrics_collected.txt"
  : >"$WORK/metrics_rejected.tsv"
  local clock=()
  local rc=1 try
  for try in default none; do
    [ "$try" = none ] && clock=(--clock-control none)
    local args=(--metrics "$METRICS" --cache-control all ${clock[@]+"${clock[@]}"} -o "$WORK/report" --force-overwrite)
    echo "$NCU ${args[*]} $WORK/driver count --manifest $WORK/manifest.json" | sed "s@$WORK/@@g" >"$WORK/ncu_command.txt"
    say "profile: $(cat "$WORK/ncu_command.txt")"
    timeout 300 "$NCU" "${args[@]}" "$WORK/driver" count --manifest "$WORK/manifest.json" 2>&1 |
      tee "$WORK/ncu_profile.txt"
    rc=${PIPESTATUS[0]}
    if [ "$rc" -eq 0 ] && ! grep -q "==ERROR==" "$WORK/ncu_profile.txt"; then break; fi
    note "ncu profile ($try clock control) exited $rc: $(grep -m1 ERROR "$WORK/ncu_profile.txt")"
  done
  if [ ! -f "$WORK/report.ncu-rep" ]; then note "no ncu report was written"; return 0; fi
  export_csv "$WORK/ncu_details.csv" details details
  export_csv "$WORK/ncu_details_values.csv" details values
  export_csv "$WORK/ncu_raw.csv" raw details
  local real pydir="" d
  real=$(readlink -f "$NCU")
  for d in "$(dirname "$real")/extras/python" "$(dirname "$real")/../extras/python" \
    /opt/nvidia/nsight-compute/*/extras/python /usr/local/cuda/nsight-compute*/extras/python; do
    if [ -f "$d/ncu_report.py" ]; then pydir=$d; break; fi
  done
  if [ -n "$pydir" ]; then
    PYTHONPATH="$pydir" timeout 120 "$PY" "$HERE/ncu_report_dump.py" "$WORK/report.ncu-rep" \
      $("$PY" "$HERE/ncu_to_json.py" --metrics) >"$WORK/ncu_instances.json" 2>"$WORK/ncu_instances.err" ||
      { note "ncu_report dump failed: $(tail -n 3 "$WORK/ncu_instances.err" | tr '\n' ' ')"; rm -f "$WORK/ncu_instances.json"; }
  else
    note "ncu_report Python module not found next to $real"
  fi
  return 0
}

record 2>&1 | tee "$WORK/record.log"
say "writing $DEST/own_samples_h100.json" | tee -a "$WORK/record.log"
python3 "$HERE/ncu_to_json.py" "$WORK" "$DEST/own_samples_h100.json" 2>&1 | tee -a "$WORK/record.log"
[ -f "$WORK/sass.txt" ] && cp "$WORK/sass.txt" "$DEST/own_samples_h100.sass.txt"
[ -f "$WORK/ncu_raw.csv" ] && cp "$WORK/ncu_raw.csv" "$DEST/own_samples_h100_raw.csv"
tar czf "$DEST/own_samples_h100_raw.tar.gz" -C "$WORK" --exclude=./driver . && say "raw files: $DEST/own_samples_h100_raw.tar.gz"
ls -la "$DEST"
