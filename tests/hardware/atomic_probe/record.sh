#!/usr/bin/env bash
# Records what Nsight Compute counts for the global-atomic probes (atomic_probe.cu) on the GPU
# and writes atomic_probe_h100.json beside this script (or into DEST):
#   bash tests/hardware/atomic_probe/record.sh [DEST]
# Needs nvcc, ncu, cuobjdump and python3. Made for the H100 (sm_90).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEST=${1:-$HERE}
mkdir -p "$DEST"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/atomic_probe.XXXXXX")
nvcc -O3 -arch=sm_90 -lineinfo -o "$WORK/driver" "$HERE/driver.cu"
cuobjdump -sass "$WORK/driver" | grep -E "Function|ATOMG|REDG|RED\.|ATOM\." > "$DEST/atomic_probe_h100.sass.txt" || true
METRICS=smsp__sass_inst_executed_op_global_red.sum,smsp__sass_inst_executed_op_global_atom.sum
METRICS+=,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
METRICS+=,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
ncu --metrics "$METRICS" --csv --print-units base --print-kernel-base function "$WORK/driver" > "$WORK/ncu.csv"
python3 - "$WORK/ncu.csv" "$DEST/atomic_probe_h100.json" <<'PY'
import csv, json, subprocess, sys
rows = [l for l in open(sys.argv[1]) if l.startswith('"')]
out = {}
for r in csv.DictReader(rows):
    k = r["Kernel Name"].split("(")[0]
    v = r["Metric Value"].replace(",", "")
    out.setdefault(k, {})[r["Metric Name"]] = float(v) if "." in v else int(v)
gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                     capture_output=True, text=True).stdout.strip()
ncu = subprocess.run(["ncu", "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
json.dump({"gpu": gpu, "ncu": ncu, "command": "bash tests/hardware/atomic_probe/record.sh",
           "launch": "one block of 32 threads, buffers zeroed", "kernels": out},
          open(sys.argv[2], "w"), indent=1, sort_keys=True)
print(json.dumps(out, indent=1, sort_keys=True))
PY
