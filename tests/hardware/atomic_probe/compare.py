#!/usr/bin/env python3
"""compare.py TGSIM: runs every global-atomic probe of atomic_probe.cu through `tgsim run` (one
block of 32 threads, buffers zeroed, as driver.cu launches them on the GPU) and compares tgsim's
global atomic instructions, requests and sectors with what Nsight Compute recorded on the H100
(atomic_probe_h100.json, written by record.sh). Exit 0 when every probe is recorded and equal."""
import json, os, re, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
tgsim = sys.argv[1]
fixture = json.load(open(os.path.join(here, "atomic_probe_h100.json")))["kernels"]
source = open(os.path.join(here, "atomic_probe.cu")).read()
elem = {"float": "float", "double": "double", "int": "int", "unsigned": "uint", "unsigned long long": "ulong"}
kernels = re.findall(r"__global__ void (\w+)\(([^)]*)\)", source)
bad = 0
for name, params in kernels:
    args = []
    for p in params.split(","):
        t = re.sub(r"\*\s*\w+$", "", p.strip()).strip()
        args.append(f"{elem[t]}[1024]=0")
    out = subprocess.run([tgsim, "run", os.path.join(here, "atomic_probe.cu"), "--kernel", name,
                          "--grid", "1", "--block", "32", *args, "--json"], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"FAIL {name}: tgsim exit {out.returncode}: {out.stderr.strip()[:300]}")
        bad += 1
        continue
    got = json.loads(out.stdout)["counters"]["global"]["atomic"]
    if name not in fixture:
        print(f"FAIL {name}: not in the recorded fixture")
        bad += 1
        continue
    h = fixture[name]
    want = {
        "instructions": h["smsp__sass_inst_executed_op_global_red.sum"] + h["smsp__sass_inst_executed_op_global_atom.sum"],
        "requests": h["l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"] + h["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"],
        "sectors": h["l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"] + h["l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"],
    }
    diff = {k: (got[k], v) for k, v in want.items() if got[k] != v}
    print(("FAIL " if diff else "ok   ") + f"{name:28s} tgsim/H100 " +
          " ".join(f"{k} {got[k]}/{v}" for k, v in want.items()))
    bad += bool(diff)
print(f"{len(kernels)} probes, {bad} differ from the H100")
sys.exit(1 if bad or not kernels else 0)
