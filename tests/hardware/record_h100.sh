#!/usr/bin/env bash
# Record what Nsight Compute reports for the CUDA build of kernels/*.cu on an NVIDIA GPU
# (made for the H100, sm_90) and write the fixture that tgsim's counts are compared against.
#
#   bash tests/hardware/record_h100.sh [DEST]        # DEST defaults to tests/hardware
#
# Needs nvcc, cuobjdump, ncu (Nsight Compute), nvidia-smi and python3 (stdlib only); run as a
# user allowed to read GPU performance counters. Writes into DEST:
#   h100.json          the fixture (ncu metrics, static SASS counts, timings, versions, commands)
#   h100.sass.txt      cuobjdump -sass of the driver binary
#   h100_raw.tar.gz    everything behind it: CSV exports, .ncu-rep report, manifest, logs
# One pass does it all: build, SASS dump, metric check, ncu profile of `driver count` (every
# kernel launch of every driver entry; ncu ID i = manifest launch i, and an entry of several
# launches gets their metrics summed by ncu_to_json.py), CSV/ncu_report export, `driver time`, JSON. A failing step is noted in the JSON; later
# steps still run.
set -u -o pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DEST=${1:-$HERE}
mkdir -p "$DEST" && DEST=$(cd "$DEST" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/tgsim_hw.XXXXXX")
PROBE_KERNEL=transpose_shared   # small kernel used to check that ncu accepts the metrics

say() { echo "[record_h100 $(date -u +%H:%M:%S)] $*"; }
note() { echo "$*" >>"$WORK/notes.txt"; say "NOTE: $*"; }

find_tool() {  # NAME CANDIDATE... -> path of the first that exists ('' if none)
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

# probe OUTFILE METRICS [EXTRA NCU ARGS...]: 0 if ncu profiles the probe kernel with them
# (judged by ncu's own ==ERROR== lines, not by the driver's exit code).
probe() {
  local out=$1 metrics=$2 rc
  shift 2
  timeout 120 "$NCU" --metrics "$metrics" --cache-control all "$@" \
    "$WORK/driver" count "$PROBE_KERNEL" >"$out" 2>&1
  rc=$?
  [ $rc -ne 124 ] && ! grep -q "==ERROR==" "$out" && grep -q "==PROF==" "$out"
}

# export_csv OUT PAGE INSTANCES: ncu --import ... --csv into OUT, command appended to export_commands.txt
export_csv() {
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
  say "repo $ROOT, work $WORK, dest $DEST"

  NVCC=$(find_tool nvcc /usr/local/cuda/bin/nvcc)
  CUOBJDUMP=$(find_tool cuobjdump /usr/local/cuda/bin/cuobjdump "$(dirname "${NVCC:-/x}")/cuobjdump")
  NCU=$(find_tool ncu /usr/local/cuda/bin/ncu \
    "$(ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | sort -V | tail -n1)" \
    "$(ls -d /usr/local/cuda/nsight-compute*/ncu 2>/dev/null | sort -V | tail -n1)")
  PY=$(find_tool python3)
  say "nvcc=$NVCC cuobjdump=$CUOBJDUMP ncu=$NCU python3=$PY"

  # --- versions ------------------------------------------------------------------------------
  nvidia-smi --query-gpu=name,driver_version,pci.bus_id,clocks.max.sm,clocks.max.memory \
    --format=csv,noheader >"$WORK/gpu.txt" 2>&1 || note "nvidia-smi failed: $(cat "$WORK/gpu.txt")"
  nvidia-smi >"$WORK/nvidia_smi.txt" 2>&1 || true
  cat "$WORK/gpu.txt"
  [ -n "$NVCC" ] && "$NVCC" --version >"$WORK/nvcc_version.txt" 2>&1
  [ -n "$CUOBJDUMP" ] && "$CUOBJDUMP" --version >"$WORK/cuobjdump_version.txt" 2>&1
  [ -n "$NCU" ] && "$NCU" --version >"$WORK/ncu_version.txt" 2>&1
  cat "$WORK/nvcc_version.txt" "$WORK/ncu_version.txt" 2>/dev/null

  # --- build ---------------------------------------------------------------------------------
  if [ -z "$NVCC" ]; then note "nvcc not found"; return 1; fi
  echo "nvcc -std=c++20 -arch=sm_90 -O3 -I kernels -I sim/include tests/hardware/driver.cu -o driver" \
    >"$WORK/build_command.txt"
  say "build: $(cat "$WORK/build_command.txt")"
  if ! "$NVCC" -std=c++20 -arch=sm_90 -O3 -I kernels -I sim/include tests/hardware/driver.cu \
    -o "$WORK/driver"; then
    note "build failed"
    return 1
  fi

  # --- static SASS ---------------------------------------------------------------------------
  if [ -n "$CUOBJDUMP" ]; then
    "$CUOBJDUMP" -sass "$WORK/driver" >"$WORK/sass.txt" 2>&1 || note "cuobjdump -sass failed"
    "$CUOBJDUMP" -res-usage "$WORK/driver" >"$WORK/res_usage.txt" 2>&1 || true
    say "SASS: $(wc -l <"$WORK/sass.txt") lines"
    grep -E "Function|LDS|STS|LDG|STG|BAR|SHFL|VOTE|ATOM|RED|c\[0x3\]" "$WORK/sass.txt" |
      sed -E 's@ +/\* 0x[0-9a-f]+ \*/@@' | head -800
  else
    note "cuobjdump not found: no static SASS counts"
  fi

  # --- plain run (correctness without the profiler) ------------------------------------------
  say "driver count (no profiler)"
  timeout 120 "$WORK/driver" count --manifest "$WORK/manifest_plain.json" ||
    note "driver count without ncu exited $? (see log)"

  # --- metrics: which does this ncu know? ------------------------------------------------------
  METRICS=$("$PY" "$HERE/ncu_to_json.py" --metrics)
  if [ -z "$NCU" ]; then
    note "ncu not found: no profile"
  else
    timeout 180 "$NCU" --query-metrics --chip gh100 >"$WORK/query_metrics_gh100.txt" 2>&1 ||
      note "ncu --query-metrics --chip gh100 failed"
    : >"$WORK/metrics_query.tsv"
    for m in $METRICS; do
      base=${m%%.*}
      if grep -qE "^[[:space:]]*${base}([[:space:]]|$)" "$WORK/query_metrics_gh100.txt"; then
        printf '%s\tlisted\n' "$m" >>"$WORK/metrics_query.tsv"
      else
        printf '%s\tnot_listed\n' "$m" >>"$WORK/metrics_query.tsv"
      fi
    done
    say "query-metrics (gh100):"
    cat "$WORK/metrics_query.tsv"

    # Try them all at once; on failure find the ones ncu rejects, one by one.
    CLOCK_ARGS=()
    ALL=$(echo $METRICS | tr ' ' ',')
    : >"$WORK/metrics_rejected.tsv"
    : >"$WORK/metrics_collected.txt"
    if probe "$WORK/probe_all.txt" "$ALL"; then
      say "probe: ncu accepts all $(echo $METRICS | wc -w) metrics"
      for m in $METRICS; do echo "$m" >>"$WORK/metrics_collected.txt"; done
    elif probe "$WORK/probe_all_noclock.txt" "$ALL" --clock-control none; then
      note "ncu failed with default clock control, works with --clock-control none: $(grep -m1 ERROR "$WORK/probe_all.txt")"
      CLOCK_ARGS=(--clock-control none)
      for m in $METRICS; do echo "$m" >>"$WORK/metrics_collected.txt"; done
    else
      say "probe with all metrics failed:"
      tail -n 20 "$WORK/probe_all.txt"
      for m in $METRICS; do
        if probe "$WORK/probe_one.txt" "$m"; then
          echo "$m" >>"$WORK/metrics_collected.txt"
        else
          reason=$(grep -m1 "==ERROR==" "$WORK/probe_one.txt" | tr '\t' ' ')
          printf '%s\t%s\n' "$m" "${reason:-ncu exited non-zero}" >>"$WORK/metrics_rejected.tsv"
          note "metric dropped: $m (${reason:-ncu exited non-zero})"
        fi
      done
    fi
    COLLECT=$(paste -sd, "$WORK/metrics_collected.txt")

    # --- the profile ---------------------------------------------------------------------------
    if [ -n "$COLLECT" ]; then
      NCU_ARGS=(--metrics "$COLLECT" --cache-control all ${CLOCK_ARGS[@]+"${CLOCK_ARGS[@]}"}
        -o "$WORK/report" --force-overwrite)
      # (no argument contains a space, so the plain join is the exact command line)
      echo "$NCU ${NCU_ARGS[*]} $WORK/driver count --manifest $WORK/manifest.json" >"$WORK/ncu_command.txt"
      say "profile: $(cat "$WORK/ncu_command.txt")"
      timeout 420 "$NCU" "${NCU_ARGS[@]}" "$WORK/driver" count --manifest "$WORK/manifest.json" \
        2>&1 | tee "$WORK/ncu_profile.txt"
      rc=${PIPESTATUS[0]}
      [ "$rc" -eq 0 ] || note "ncu profile run exited $rc"
      if [ -f "$WORK/report.ncu-rep" ]; then
        export_csv "$WORK/ncu_details.csv" details details
        export_csv "$WORK/ncu_details_values.csv" details values
        export_csv "$WORK/ncu_raw.csv" raw details
        say "details CSV: $(wc -l <"$WORK/ncu_details.csv") lines"
        grep -E "per_opcode|ID\"" "$WORK/ncu_details.csv" | head -5 | cut -c1-1500
        # Per-opcode instances through Nsight Compute's Python module (labels = opcodes).
        NCU_REAL=$(readlink -f "$NCU")
        PYDIR=""
        for d in "$(dirname "$NCU_REAL")/extras/python" "$(dirname "$NCU_REAL")/../extras/python" \
          /opt/nvidia/nsight-compute/*/extras/python /usr/local/cuda/nsight-compute*/extras/python; do
          if [ -f "$d/ncu_report.py" ]; then PYDIR=$d; break; fi
        done
        if [ -n "$PYDIR" ]; then
          PYTHONPATH="$PYDIR" timeout 180 "$PY" "$HERE/ncu_report_dump.py" "$WORK/report.ncu-rep" $METRICS \
            >"$WORK/ncu_instances.json" 2>"$WORK/ncu_instances.err" ||
            { note "ncu_report dump failed: $(tail -n 3 "$WORK/ncu_instances.err" | tr '\n' ' ')"; rm -f "$WORK/ncu_instances.json"; }
        else
          note "ncu_report Python module not found next to $NCU_REAL"
        fi
      else
        note "no ncu report was written"
      fi
    fi
  fi

  # --- timings -------------------------------------------------------------------------------
  say "driver time"
  timeout 300 "$WORK/driver" time >"$WORK/timings.json" || note "driver time exited $?"
  cat "$WORK/timings.json"
  return 0
}

record 2>&1 | tee "$WORK/record.log"
say "writing $DEST/h100.json" | tee -a "$WORK/record.log"
python3 "$HERE/ncu_to_json.py" "$WORK" "$DEST/h100.json" 2>&1 | tee -a "$WORK/record.log"
[ -f "$WORK/sass.txt" ] && cp "$WORK/sass.txt" "$DEST/h100.sass.txt"
tar czf "$DEST/h100_raw.tar.gz" -C "$WORK" --exclude=./driver . && say "raw files: $DEST/h100_raw.tar.gz"
ls -la "$DEST"
