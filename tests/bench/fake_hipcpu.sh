#!/bin/sh
# A stand-in for HIP-CPU's matmul_tiled16 program in tgsim bench's tests: prints what the real
# one prints (examples/hipcpu/matmul_tiled16.cpp), with a fixed time of 1 ms.
echo "hipcpu matmul_tiled16 n=$1 seconds=0.001000 accesses=74752 ns_per_access=13.378 c00=ok"
