#!/usr/bin/env bash
# Issue 36 (widening, call sites), run on the device machine (an H100, kind nvidia-h100-x1) from
# the repository root:   bash tests/nvcc_fidelity/record_counts.sh SUITE OUTDIR
# Builds SUITE/driver.cu (the kernels of SUITE/SUITE.cu) with nvcc, keeps its SASS, and records
# each kernel's shared and global instructions, wavefronts, bank conflicts and sectors under
# Nsight Compute as OUTDIR/h100.csv (compare_counts.sh reads SUITE/h100/h100.csv).
set -uo pipefail
suite=${1:?usage: record_counts.sh SUITE OUTDIR}
out=${2:?usage: record_counts.sh SUITE OUTDIR}
mkdir -p "$out"
here=tests/nvcc_fidelity/$suite
{
  date -u +"recorded %Y-%m-%d %H:%M UTC"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  nvcc --version | tail -2
  ncu --version | tail -1
} >"$out/versions.txt" 2>&1
nvcc -std=c++17 -arch=sm_90 -O3 -lineinfo -I "$here" -o "$out/driver" "$here/driver.cu" >"$out/build.txt" 2>&1 || {
  cat "$out/build.txt"; exit 1; }
cuobjdump -sass "$out/driver" >"$out/sass.txt" 2>&1
m=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
m=$m,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum
m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
ncu --metrics "$m" --csv --print-units base "$out/driver" >"$out/ncu.csv" 2>"$out/ncu.err"
"$out/driver" >"$out/run.txt" 2>&1
rm -f "$out/driver"
python3 - "$out/ncu.csv" "$out/h100.csv" "$m" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head, rows = rows[0], rows[1:]
k, m, v = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
table = {}
for r in rows:
    table.setdefault(r[k].split("(")[0], {})[r[m]] = r[v].replace(",", "")
names = sys.argv[3].split(",")
cols = ["shared_load_instructions", "shared_store_instructions", "shared_load_wavefronts",
        "shared_store_wavefronts", "shared_load_conflicts", "shared_store_conflicts",
        "global_load_instructions", "global_store_instructions", "global_load_sectors", "global_store_sectors"]
with open(sys.argv[2], "w") as f:
    f.write("kernel," + ",".join(cols) + "\n")
    for name, t in table.items():
        f.write(",".join([name] + [t[n] for n in names]) + "\n")
print(open(sys.argv[2]).read())
PY
cat "$out/run.txt"
