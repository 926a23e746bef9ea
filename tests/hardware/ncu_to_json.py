#!/usr/bin/env python3
"""Turn one record_h100.sh work folder into the fixture tests/hardware/h100.json.

    python3 ncu_to_json.py WORKDIR OUT.json     # build the fixture
    python3 ncu_to_json.py --metrics            # print the ncu metric list (used by the script)

WORKDIR holds what record_h100.sh left there (any file may be missing; the JSON then says so):
  manifest.json         `driver count` manifest: its entries (tgsim name, n, launch indices, correct) and
                        every launch in order (entry name, symbol, n, grid, block, source_accesses);
                        a manifest without "entries" (schema 1) is one launch per entry
  ncu_details.csv       ncu --import ... --csv --page details --print-metric-instances details
  ncu_details_values.csv  same with --print-metric-instances values
  ncu_raw.csv           ncu --import ... --csv --page raw
  ncu_instances.json    ncu_report_dump.py output (Nsight Compute's Python module)
  sass.txt              cuobjdump -sass of the driver binary
  timings.json          `driver time` output
  gpu.txt, ncu_version.txt, nvcc_version.txt, cuobjdump_version.txt, build_command.txt,
  ncu_command.txt, export_commands.txt, metrics_query.tsv, metrics_collected.txt,
  metrics_rejected.tsv, notes.txt
Only the Python standard library is used, so it runs on the GPU machine and here alike
(re-run it on an unpacked h100_raw.tar.gz to rebuild h100.json without a GPU).
"""
import csv
import datetime
import io
import json
import os
import re
import sys
from collections import Counter, OrderedDict

# Nsight Compute metrics recorded for every kernel (docs/hardware-model.md section 9).
METRICS = [
    "smsp__sass_inst_executed_op_global_ld.sum",
    "smsp__sass_inst_executed_op_global_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_write.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "sass__inst_executed_per_opcode",
    # Atomics and reductions (ATOMS/ATOM on shared memory, ATOMG/ATOM and RED on global memory).
    "smsp__sass_inst_executed_op_shared_atom.sum",
    "smsp__sass_inst_executed_op_global_atom.sum",
    "smsp__sass_inst_executed_op_global_red.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
    # __constant__ memory: LDC instructions and the immediate-constant cache (IDC).
    "smsp__inst_executed_op_ldc.sum",
    "idc__requests.sum",
    "idc__requests_lookup_hit.sum",
    "sm__idc_divergent_instruction_replays.sum",
]
PER_OPCODE = "sass__inst_executed_per_opcode"
# Opcodes whose per-opcode count is always written (0 when the kernel executes none).
# LDC counts every executed LDC, including the kernel-parameter / stack-pointer loads from bank
# c[0x0] (e.g. `LDC R1, c[0x0][0x28]` at the top of every sm_90 kernel), not only __constant__ reads.
# On sm_90 a global-memory atomic whose result is unused is REDG (RED only with a generic address),
# and a __constant__ read with a warp-uniform index can be a ULDC (uniform datapath), which neither
# smsp__inst_executed_op_ldc nor idc__requests counts.
ALWAYS_OPCODES = ["BAR", "SHFL", "VOTE", "LDS", "STS", "LDG", "STG", "ATOMS", "ATOMG", "ATOM", "RED", "REDG",
                  "WARPSYNC", "LDC", "ULDC"]
# Static SASS opcodes counted per kernel (the source-level accesses, barriers, shuffles, votes,
# atomics); the driver's source_accesses give the expected number of each.
SASS_OPCODES = ["LDS", "STS", "LDG", "STG", "BAR", "SHFL", "VOTE", "ATOMS", "ATOMG", "RED", "REDG"]
# Other memory / cross-lane opcodes listed per kernel when present.
SASS_LISTED = SASS_OPCODES + ["LD", "ST", "LDSM", "STSM", "LDGSTS", "ATOM", "VOTEU", "LDL", "STL",
                              "MEMBAR", "WARPSYNC"]
# __constant__ data lives in constant bank 3 on sm_90 (bank 0 holds the kernel parameters and driver
# constants). A source-level __constant__ read becomes an LDC/ULDC from c[0x3], or a c[0x3][..] operand
# of another instruction (an FFMA, say). "CONST" counts the static instructions that read c[0x3] in
# either way and is compared with the driver's source_accesses["CONST"].
USER_CONST_BANK = "0x3"
# source_accesses key -> the static SASS counts it is compared with. A source-level global reduction
# (atomicAdd & co. with the result unused; the driver's `red`) is REDG on sm_90, RED if generic.
COMPARED = OrderedDict([(op, (op,)) for op in SASS_OPCODES if op not in ("RED", "REDG")] +
                       [("RED", ("RED", "REDG")), ("CONST", ("CONST",))])
CBANK_RE = re.compile(r"c\[(0x[0-9a-fA-F]+)\]\[")


def read_text(path, default=None):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return default


def read_json(path):
    text = read_text(path)
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError as e:
        return {"_error": "unreadable JSON: %s" % e}


NUMBER_RE = re.compile(r"^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?([eE][-+]?\d+)?$")


def parse_number(text):
    """'1,048,576' -> 1048576, '12.5' -> 12.5; None if not a plain number."""
    if text is None:
        return None
    t = str(text).strip().strip('"').strip()
    if not NUMBER_RE.match(t):
        return None
    t = t.replace(",", "")
    try:
        v = float(t)
    except ValueError:
        return None
    return int(v) if v.is_integer() and abs(v) < 2**63 else v


# One instance "LABEL: 1,234" / "LABEL=1234" / "LABEL 1234" (the label an SASS opcode or a name).
PAIR_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)\s*[:=]?\s*\(?\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)")


def parse_instances(text):
    """Best-effort parse of an instanced metric value printed by ncu's CSV export.

    Returns (labelled dict or None, unlabelled list or None)."""
    if text is None:
        return None, None
    t = str(text).strip()
    if not t:
        return None, None
    pairs = PAIR_RE.findall(t)
    pairs = [(k, v) for k, v in pairs if k.lower() not in ("n", "a", "na")]
    if pairs:
        out = OrderedDict()
        for k, v in pairs:
            out[k] = parse_number(v)
        return out, None
    parts = [p for p in re.split(r"[;\s]+", t) if p]
    nums = [parse_number(p) for p in parts]
    if len(nums) > 1 and all(n is not None for n in nums):
        return None, nums
    return None, None


def read_ncu_csv(path):
    """Rows of an ncu --csv export (lines before the header, e.g. ==PROF==, are skipped)."""
    text = read_text(path)
    if text is None:
        return None
    lines = text.splitlines(True)
    start = None
    for i, line in enumerate(lines):
        if line.startswith('"ID"') or line.startswith("ID,"):
            start = i
            break
    if start is None:
        return []
    return list(csv.DictReader(io.StringIO("".join(lines[start:]))))


def parse_details(path):
    """Long-format details page -> OrderedDict ncu id -> kernel record."""
    rows = read_ncu_csv(path)
    if rows is None:
        return None
    out = OrderedDict()
    for r in rows:
        kid = parse_number(r.get("ID"))
        if kid is None:
            continue
        k = out.setdefault(kid, {"kernel_name": r.get("Kernel Name"), "block_size": r.get("Block Size"),
                                 "grid_size": r.get("Grid Size"), "device": r.get("Device"), "cc": r.get("CC"),
                                 "values": OrderedDict(), "units": OrderedDict()})
        name = (r.get("Metric Name") or "").strip()
        if not name:
            continue
        k["values"][name] = r.get("Metric Value")
        k["units"][name] = r.get("Metric Unit")
    return out


def parse_raw(path):
    """Wide-format raw page -> OrderedDict ncu id -> {'kernel_name', 'values': {metric: text}}."""
    rows = read_ncu_csv(path)
    if rows is None:
        return None
    out = OrderedDict()
    for r in rows:
        kid = parse_number(r.get("ID"))
        if kid is None:  # the units row
            continue
        out[kid] = {"kernel_name": r.get("Kernel Name"), "values": OrderedDict((k, v) for k, v in r.items() if k)}
    return out


def metric_lookup(values, name):
    """Find `name` among ncu's printed metric names (exact, or with/without the .sum suffix)."""
    if values is None:
        return None
    if name in values:
        return values[name]
    base = name.split(".")[0]
    for key in (base, base + ".sum"):
        if key in values:
            return values[key]
    return None


SASS_LINE_RE = re.compile(
    r"^\s*/\*([0-9a-fA-F]{4,})\*/\s+(?:\{\s*)?(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_]*)((?:\.[A-Za-z0-9_]+)*)([^;]*);")
FUNC_RE = re.compile(r"^\s*Function\s*:\s*(\S+)")


def parse_sass(path):
    """cuobjdump -sass -> {function: {'histogram': {opcode: n}, 'full': {opcode.mods: n}, 'listed': [text],
    'banks': {bank: {'LDC'|'ULDC'|'operand': n}}, 'const_listed': [text of instructions reading c[0x3]]}}."""
    text = read_text(path)
    if text is None:
        return None
    funcs = OrderedDict()
    cur = None
    for line in text.splitlines():
        m = FUNC_RE.match(line)
        if m:
            cur = funcs.setdefault(m.group(1), {"histogram": Counter(), "full": Counter(), "listed": [],
                                                "banks": OrderedDict(), "const_listed": []})
            continue
        if cur is None:
            continue
        m = SASS_LINE_RE.match(line)
        if not m:
            continue
        pred, op, mods, rest = m.group(2) or "", m.group(3), m.group(4) or "", m.group(5) or ""
        cur["histogram"][op] += 1
        cur["full"][op + mods] += 1
        text = "/*%s*/ %s%s%s %s" % (m.group(1), pred, op, mods, rest.strip())
        if op in SASS_LISTED:
            cur["listed"].append(text)
        banks = sorted(set(b.lower() for b in CBANK_RE.findall(rest)))
        for b in banks:
            kind = op if op in ("LDC", "ULDC") else "operand"
            cur["banks"].setdefault(b, Counter())[kind] += 1
        if USER_CONST_BANK in banks:
            cur["const_listed"].append(text)
    return funcs


def sass_summary(funcs, symbol, source):
    if funcs is None:
        return {"available": False, "notes": ["no cuobjdump output"]}
    f = funcs.get(symbol)
    if f is None:
        return {"available": False, "notes": ["function %s not found in cuobjdump output" % symbol]}
    counts = OrderedDict((op, f["histogram"].get(op, 0)) for op in SASS_OPCODES)
    banks = f.get("banks", {})
    counts["CONST"] = sum(banks.get(USER_CONST_BANK, {}).values())
    notes = []
    one = None
    if source:
        one = True
        for key, ops in COMPARED.items():
            have = sum(counts[op] for op in ops)
            if have != source.get(key, 0):
                one = False
                notes.append("%s: %d static SASS instructions%s for %d source-level accesses" % (
                    key, have, " (%s)" % " + ".join(ops) if len(ops) > 1 else "", source.get(key, 0)))
    wide = sorted(k for k in f["full"] if k.split(".")[0] in ("LDS", "STS", "LDG", "STG", "LD", "ST")
                  and any(w in k.split(".")[1:] for w in ("64", "128", "U8", "S8", "U16", "S16")))
    if wide:
        notes.append("non-32-bit accesses present: %s" % ", ".join(wide))
    for op in ("LD", "ST", "LDSM", "LDGSTS", "LDL", "STL"):
        if f["histogram"].get(op):
            notes.append("%d %s instruction(s) present (generic/local/async, counted by other ncu metrics)" % (f["histogram"][op], op))
    if one:
        notes.append("every source-level global/shared access, __syncthreads, shuffle, vote, atomic and "
                     "__constant__ read is exactly one SASS instruction")
    return OrderedDict([
        ("available", True),
        ("function", symbol),
        ("counts", counts),
        ("source_accesses", source),
        ("one_instruction_per_access", one),
        ("opcodes_with_modifiers", OrderedDict(sorted((k, v) for k, v in f["full"].items()
                                                      if k.split(".")[0] in SASS_LISTED))),
        ("memory_and_sync_instructions", f["listed"]),
        ("constant_bank_refs", OrderedDict(("c[%s]" % b, OrderedDict(sorted(c.items())))
                                           for b, c in sorted(banks.items()))),
        ("constant_instructions", f.get("const_listed", [])),
        ("total_instructions", sum(f["histogram"].values())),
        ("notes", notes),
    ])


def sum_metrics(per_launch, notes):
    """Sum the metrics of several launches. A per-opcode instance missing from a launch counts 0;
    any other metric missing from a launch is left out of the sum (and noted)."""
    keys = []
    for kn in per_launch:
        for k in kn["metrics"]:
            if k not in keys:
                keys.append(k)
    plain = [k for k in keys if not k.startswith(PER_OPCODE + "[")]
    opcodes = sorted(k for k in keys if k.startswith(PER_OPCODE + "["))
    out = OrderedDict()
    for k in plain + opcodes:
        values = [kn["metrics"].get(k) for kn in per_launch]
        if k in opcodes:
            values = [0 if v is None else v for v in values]
        if any(v is None for v in values):
            notes.append("%s: missing for launch(es) %s, not summed" % (
                k, [kn.get("launch") for kn, v in zip(per_launch, values) if v is None]))
            continue
        out[k] = sum(values)
    return out


def combine_sass(per_launch):
    """Entry-level static SASS summary of a multi-launch entry: counts and expectations summed."""
    sums = [kn.get("sass") or {} for kn in per_launch]
    available = all(s.get("available") for s in sums)
    counts = OrderedDict((op, sum((s.get("counts") or {}).get(op, 0) for s in sums)) for op in SASS_OPCODES + ["CONST"])
    sources = [s.get("source_accesses") for s in sums]
    source = None
    if all(sources):
        source = OrderedDict((op, sum(src.get(op, 0) for src in sources)) for op in COMPARED)
    ones = [s.get("one_instruction_per_access") for s in sums]
    one = None if any(o is None for o in ones) else all(ones)
    notes = []
    for kn, s in zip(per_launch, sums):
        for n in s.get("notes", []):
            notes.append("%s: %s" % (kn.get("symbol"), n))
    return OrderedDict([
        ("available", available),
        ("functions", [kn.get("symbol") for kn in per_launch]),
        ("counts", counts),
        ("source_accesses", source),
        ("one_instruction_per_access", one),
        ("notes", notes),
    ])


def combine_launches(entry, per_launch):
    """The fixture record of a multi-launch entry: summed metrics, per-launch detail in `launches`."""
    notes = []
    kn = OrderedDict()
    kn["launch"] = per_launch[0].get("launch")
    kn["launch_count"] = len(per_launch)
    kn["ncu_ids"] = [k.get("ncu_id") for k in per_launch]
    kn["symbols"] = [k.get("symbol") for k in per_launch]
    kn["n"] = entry.get("n", per_launch[0].get("n"))
    kn["correct"] = entry.get("correct")
    kn["metrics"] = sum_metrics(per_launch, notes)
    kn["sass"] = combine_sass(per_launch)
    notes.append("metrics are sums over the %d launches listed in `launches`" % len(per_launch))
    kn["notes"] = notes
    kn["launches"] = per_launch
    return kn


def first_line_with(text, word):
    if not text:
        return None
    for line in text.splitlines():
        if word in line:
            return line.strip()
    return None


def read_lines(path):
    text = read_text(path)
    if text is None:
        return None
    return [l.rstrip("\n") for l in text.splitlines() if l.strip()]


def build(work, out_path):
    notes = []
    manifest = read_json(os.path.join(work, "manifest.json"))
    details = parse_details(os.path.join(work, "ncu_details.csv"))
    details_values = parse_details(os.path.join(work, "ncu_details_values.csv"))
    raw = parse_raw(os.path.join(work, "ncu_raw.csv"))
    dump = read_json(os.path.join(work, "ncu_instances.json"))
    sass = parse_sass(os.path.join(work, "sass.txt"))
    timings = read_json(os.path.join(work, "timings.json"))

    collected = read_lines(os.path.join(work, "metrics_collected.txt"))
    rejected = OrderedDict()
    for line in read_lines(os.path.join(work, "metrics_rejected.tsv")) or []:
        parts = line.split("\t", 1)
        rejected[parts[0]] = parts[1] if len(parts) > 1 else "rejected"
    query = OrderedDict()
    for line in read_lines(os.path.join(work, "metrics_query.tsv")) or []:
        parts = line.split("\t")
        if len(parts) >= 2:
            query[parts[0]] = parts[1] == "listed"
    if collected is None:
        collected = [m for m in METRICS if m not in rejected]
    for line in read_lines(os.path.join(work, "notes.txt")) or []:
        notes.append(line)

    if manifest is None or "launches" not in (manifest or {}):
        notes.append("no driver manifest: kernels could not be mapped to tgsim names")
        launches = []
    else:
        launches = manifest["launches"]
    if details is None:
        notes.append("no ncu details CSV")
    dump_kernels = (dump or {}).get("kernels") if isinstance(dump, dict) else None
    if dump_kernels is None:
        notes.append("ncu_report Python dump not available; per-opcode instances parsed from the CSV export")

    det_ids = list(details.keys()) if details else []
    per_launch = []
    for i, L in enumerate(launches):
        name, symbol = L["name"], L["symbol"]
        kn = OrderedDict()
        kn["launch"] = L.get("launch", i)
        # ncu ID i is the i-th profiled launch; verify by name, else search by name.
        kid = det_ids[i] if i < len(det_ids) else None
        det = details.get(kid) if details and kid is not None else None
        if det is not None and det.get("kernel_name") not in (symbol, None) and symbol not in (det.get("kernel_name") or ""):
            match = [k for k, v in details.items() if v.get("kernel_name") == symbol]
            notes.append("%s: ncu ID %s is named %r; matched by name instead (%s)" % (name, kid, det.get("kernel_name"), match))
            kid = match[0] if len(match) == 1 else None
            det = details.get(kid) if kid is not None else None
        dv = details_values.get(kid) if details_values and kid is not None else None
        rw = raw.get(kid) if raw and kid is not None else None
        dk = None
        if dump_kernels is not None and i < len(dump_kernels):
            dk = dump_kernels[i]
            if dk.get("mangled") not in (None, symbol):
                match = [d for d in dump_kernels if d.get("mangled") == symbol]
                dk = match[0] if len(match) == 1 else None
        kn["ncu_id"] = kid
        kn["symbol"] = symbol
        kn["ncu_kernel_name"] = det.get("kernel_name") if det else (dk or {}).get("mangled")
        kn["n"] = L.get("n")
        kn["grid"] = L.get("grid")
        kn["block"] = L.get("block")
        if det:
            kn["ncu_grid_size"] = det.get("grid_size")
            kn["ncu_block_size"] = det.get("block_size")
        kn["correct"] = L.get("correct")
        metrics = OrderedDict()
        text_values = OrderedDict()
        kn_notes = []
        for m in collected:
            if m == PER_OPCODE:
                continue
            v = None
            src = None
            for label, values in (("details", (det or {}).get("values")), ("ncu_report", (dk or {}).get("metrics")),
                                  ("raw", (rw or {}).get("values"))):
                t = metric_lookup(values, m)
                if t is None:
                    continue
                v = t if isinstance(t, (int, float)) else parse_number(t)
                if v is None:
                    text_values[m] = t
                    continue
                src = label
                break
            if v is None:
                kn_notes.append("%s: no numeric value in the ncu output" % m)
                continue
            metrics[m] = v
            # Cross-check CSV against ncu_report where both exist.
            if src == "details" and dk is not None:
                other = metric_lookup(dk.get("metrics"), m)
                if isinstance(other, (int, float)) and other != v:
                    kn_notes.append("%s: CSV %s vs ncu_report %s" % (m, v, other))
        if PER_OPCODE in collected:
            inst = None
            how = None
            if dk is not None:
                di = dk.get("instances", {})
                for key in (PER_OPCODE, PER_OPCODE + ".sum"):
                    if di.get(key):
                        inst, how = di[key], "ncu_report correlation ids"
                        break
            for label, source in (("details CSV", det), ("details CSV (values)", dv), ("raw CSV", rw)):
                if inst is not None:
                    break
                t = metric_lookup((source or {}).get("values"), PER_OPCODE)
                if t is None:
                    continue
                labelled, unlabelled = parse_instances(t)
                if labelled:
                    inst, how = labelled, label
                elif unlabelled:
                    text_values[PER_OPCODE] = t
                    kn_notes.append("%s: %s lists %d unlabelled instances" % (PER_OPCODE, label, len(unlabelled)))
                else:
                    text_values[PER_OPCODE] = t
            if inst:
                for op in sorted(inst):
                    v = inst[op]
                    if v is None:
                        continue
                    metrics["%s[%s]" % (PER_OPCODE, op)] = v
                for op in ALWAYS_OPCODES:
                    metrics.setdefault("%s[%s]" % (PER_OPCODE, op), 0)
                kn_notes.append("%s instances from %s" % (PER_OPCODE, how))
            else:
                kn_notes.append("%s: instances not parsed (see text_values)" % PER_OPCODE)
        kn["metrics"] = metrics
        if text_values:
            kn["text_values"] = text_values
        kn["sass"] = sass_summary(sass, symbol, L.get("source_accesses"))
        kn["notes"] = kn_notes
        per_launch.append(kn)

    # Entries: one tgsim kernel each, made of one launch or several (their metrics summed).
    # A manifest of schema 1 (no "entries") has one launch per entry.
    entries = (manifest or {}).get("entries") if isinstance(manifest, dict) else None
    if entries is None:
        entries = [{"name": L["name"], "n": L.get("n"), "launches": [i], "correct": L.get("correct")}
                   for i, L in enumerate(launches)]
    kernels = OrderedDict()
    for e in entries:
        idx = [i for i in e.get("launches", []) if 0 <= i < len(per_launch)]
        if len(idx) != len(e.get("launches", [])):
            notes.append("%s: manifest launches %s out of range" % (e.get("name"), e.get("launches")))
        if e.get("problem"):
            notes.append("%s: driver reports: %s" % (e.get("name"), e["problem"]))
        if not idx:
            continue
        if len(idx) == 1:
            kn = per_launch[idx[0]]
            kn["correct"] = e.get("correct", kn.get("correct"))
            kernels[e["name"]] = kn
        else:
            kernels[e["name"]] = combine_launches(e, [per_launch[i] for i in idx])

    gpu_line = (read_lines(os.path.join(work, "gpu.txt")) or [""])[0]
    gpu_fields = [f.strip() for f in gpu_line.split(",")]
    dev = (manifest or {}).get("device", {}) if isinstance(manifest, dict) else {}
    ncu_version = read_text(os.path.join(work, "ncu_version.txt"))
    nvcc_version = read_text(os.path.join(work, "nvcc_version.txt"))
    cuobjdump_version = read_text(os.path.join(work, "cuobjdump_version.txt"))
    ncu_cmd = read_text(os.path.join(work, "ncu_command.txt"))
    export_cmds = read_lines(os.path.join(work, "export_commands.txt"))
    build_cmd = read_text(os.path.join(work, "build_command.txt"))

    out = OrderedDict()
    out["schema"] = 2  # 2: entries of several launches (metrics summed, detail under `launches`)
    out["description"] = ("Nsight Compute counts for the CUDA build (nvcc -arch=sm_90 -O3) of kernels/*.cu, "
                          "each driver entry run once at its default size (one kernel launch, or several whose "
                          "metrics are summed, per-launch detail under `launches`), recorded by tests/hardware/record_h100.sh; "
                          "tgsim's counts are compared against this fixture.")
    # The recording time is that of the manifest `driver count` wrote under ncu (kept by tar), so a
    # JSON rebuilt later from h100_raw.tar.gz keeps it; generated_utc is when this JSON was written.
    stamp_src = next((os.path.join(work, f) for f in ("manifest.json", "ncu_details.csv")
                      if os.path.exists(os.path.join(work, f))), None)
    fmt_utc = lambda t: t.strftime("%Y-%m-%dT%H:%M:%SZ")
    now = datetime.datetime.now(datetime.timezone.utc)
    out["recorded_utc"] = fmt_utc(datetime.datetime.fromtimestamp(os.path.getmtime(stamp_src), datetime.timezone.utc)
                                  if stamp_src else now)
    out["generated_utc"] = fmt_utc(now)
    out["gpu"] = OrderedDict([
        ("name", gpu_fields[0] if gpu_fields and gpu_fields[0] else dev.get("name")),
        ("driver_version", gpu_fields[1] if len(gpu_fields) > 1 else None),
        ("nvidia_smi", gpu_line or None),
        ("device_properties", dev or None),
    ])
    out["versions"] = OrderedDict([
        ("ncu", first_line_with(ncu_version, "Version")),
        ("nvcc", " / ".join(l.strip() for l in (nvcc_version or "").splitlines() if "release" in l or l.startswith("Build")) or None),
        ("cuobjdump", first_line_with(cuobjdump_version, "release") or first_line_with(cuobjdump_version, "Version")),
    ])
    out["build_command"] = build_cmd.strip() if build_cmd else None
    out["ncu"] = OrderedDict([
        ("command", ncu_cmd.strip() if ncu_cmd else None),
        ("export_commands", export_cmds),
        ("metrics_requested", METRICS),
        ("metrics_collected", collected),
        ("metrics_rejected", rejected),
        ("metrics_listed_by_query_metrics_gh100", query or None),
        ("mapping", "ncu ID i = launch i of `driver count` (table order; an entry owns one or more consecutive "
                    "launches), checked against the mangled kernel name"),
    ])
    out["kernels"] = kernels
    out["timings"] = timings
    out["notes"] = notes
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    return out


def summary(out):
    lines = []
    for name, k in out["kernels"].items():
        m = k["metrics"]
        s = k.get("sass", {})
        lines.append("%-17s n=%-5s correct=%-5s metrics=%-3d sass_one_per_access=%s" % (
            name, k.get("n"), k.get("correct"), len(m), s.get("one_instruction_per_access")))
    return "\n".join(lines)


def main(argv):
    if len(argv) == 2 and argv[1] == "--metrics":
        print(" ".join(METRICS))
        return 0
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    out = build(argv[1], argv[2])
    print(summary(out))
    for n in out["notes"]:
        print("note:", n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
