#!/usr/bin/env python3
"""Summarise what l2_probe.sh recorded (issue 8: L1 hits and L2 read sectors of the matmuls).

    python3 tests/hardware/l2_probe_summary.py tests/hardware/l2_probe > tests/hardware/l2_probe/summary.txt

Reads DIR/l2_probe_ncu.csv, DIR/l2_probe_labels.txt and l2_probe_place.txt (from DIR, or from
DIR/l2_probe_raw.tar.gz). Standard library only. Prints:
  1. the ncu counters of every profiled launch;
  2. the SM -> GPC components found with thread-block clusters;
  3. per matmul launch shape (N=256): blocks per SM, and the L1 hits and L2 reads that follow
     from the *measured* block -> SM placement (one per-SM L1 that keeps every sector: misses =
     distinct sectors per SM), with the lower bounds if every concurrent request for a sector
     were merged within a TPC or within a cluster component (GPC).
"""
import csv
import io
import sys
import tarfile
from collections import defaultdict

SHORT = [
    ("sm__ctas_launched.sum", "ctas"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "ld_sectors"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "l1_hit"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", "l1_miss"),
    ("l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum", "xbar2l1tex"),
    ("lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum", "lrc_coalesced"),
    ("lts__t_sectors_srcunit_tex_op_read.sum", "l2_read"),
    ("lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum", "l2_rd_miss"),
    ("dram__bytes_read.sum", "dram_read"),
]
N = 256
TILE = {"matmul_naive": 16, "matmul_tiled8": 8, "matmul_tiled16": 16, "matmul_tiled32": 32}


def read_place(d):
    try:
        return open(f"{d}/l2_probe_place.txt").read()
    except OSError:
        with tarfile.open(f"{d}/l2_probe_raw.tar.gz") as t:
            return t.extractfile("l2_probe_place.txt").read().decode()


def sectors(kind, b):
    """Distinct 32-byte sectors (matrix, row, sector) one block of the matmul loads."""
    t = TILE[kind]
    g = N // t
    by, bx = divmod(b, g)
    a = {("A", r, c) for r in range(by * t, by * t + t) for c in range(N // 8)}
    bb = {("B", r, c) for r in range(N) for c in range(bx * t // 8, (bx * t + t) // 8)}
    return a | bb


def main(d):
    rows = list(csv.reader(open(f"{d}/l2_probe_ncu.csv")))
    hdr, data = rows[0], rows[2:]
    labels = [l.split(" ", 1)[1].strip() for l in open(f"{d}/l2_probe_labels.txt")
              if l.strip() and not l.startswith("#")]
    col = {h: i for i, h in enumerate(hdr)}
    print("1. ncu counters per profiled launch (--cache-control all)")
    print("%-46s" % "launch" + "".join("%14s" % s for _, s in SHORT))
    for r, lab in zip(data, labels):
        print("%-46s" % lab[:46] + "".join("%14s" % r[col[m]].replace(",", "") for m, _ in SHORT))

    place = read_place(d)
    gpc = {}
    blocks = defaultdict(list)
    for line in place.splitlines():
        f = line.split()
        if f and f[0] == "gpc":
            gpc[int(f[1])] = int(f[2])
        elif f and f[0] == "blk":
            blocks[(f[1], f[2], int(f[3]))].append((int(f[4]), int(f[5])))
    comps = defaultdict(list)
    for s, c in gpc.items():
        comps[c].append(s)
    print("\n2. SM components that shared thread-block clusters (a cluster never spans GPCs)")
    for c in sorted(comps):
        print(f"  component {c}: {len(comps[c])} SMs {sorted(comps[c])}")

    print("\n3. Matmul placement at N=256 (def = default occupancy, one = 1 block per SM; blk/SM =")
    print("   most blocks one SM ran in the launch; *_pl = from the recorded placement, one L1 per SM")
    print("   that keeps every sector; bounds = distinct sectors per TPC / per cluster component)")
    print("%-16s %-3s %3s %6s %12s %12s %12s %12s" % (
        "kernel", "occ", "rep", "blk/SM", "L1hits_pl", "L1miss_pl", "TPC_bound", "GPC_bound"))
    for key in sorted(blocks):
        kind, occ, rep = key
        per_sm, per_tpc, per_gpc = defaultdict(set), defaultdict(set), defaultdict(set)
        count = defaultdict(int)
        total = 0
        for b, s in blocks[key]:
            u = sectors(kind, b)
            per_sm[s] |= u
            per_tpc[s // 2] |= u
            per_gpc[gpc.get(s, -1 - s)] |= u
            count[s] += 1
            # Sector lookups: a tiled block loads each of its sectors once; in the naive kernel
            # each sector is looked up 8 times (A: 8 consecutive k by one warp; B: by 8 warps).
            total += len(u) * (8 if kind == "matmul_naive" else 1)
        size = lambda m: sum(len(v) for v in m.values())
        print("%-16s %-3s %3d %6d %12d %12d %12d %12d" % (
            kind, occ, rep, max(count.values()), total - size(per_sm), size(per_sm),
            size(per_tpc), size(per_gpc)))
    first = blocks.get(("matmul_tiled16", "def", 0), [])
    if first:
        print("\n  dispatch order (SM of block 0, 1, ...) of matmul_tiled16 def rep 0:")
        print("  ", " ".join(str(s) for _, s in first))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/hardware/l2_probe")
