#!/usr/bin/env bash
# compare.sh TGSIM WORKDIR: tgsim's global load/store instructions and sectors for the kernels of
# libm_reuse.cu equal the H100's (h100/h100.csv, recorded by record.sh with Nsight Compute).
# nvcc's math sets no errno, so a value read before expf/sqrtf/logf/powf/exp is not read again
# after it; kernel files are compiled with -fno-math-errno to match (issue 36, cause 3).
set -uo pipefail
tgsim=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
export TGSIM_CACHE="$work/cache"
fail=0
while IFS=, read -r kernel ld st lds sts; do
  [ "$kernel" = kernel ] && continue
  t=float
  [ "$kernel" = after_double_exp ] && t=double
  "$tgsim" run "$here/libm_reuse.cu" --kernel "$kernel" --grid 4 --block 256 "$t[1024]" "$t[1024]=0" --json \
    >"$work/$kernel.json" 2>"$work/$kernel.err" || { echo "FAIL $kernel: $(head -c 300 "$work/$kernel.err")"; fail=1; continue; }
  got=$(python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["counters"]["global"]
print(",".join(str(x) for x in (c["load"]["instructions"], c["store"]["instructions"], c["load"]["sectors"], c["store"]["sectors"])))' "$work/$kernel.json")
  if [ "$got" = "$ld,$st,$lds,$sts" ]; then
    echo "ok   $kernel: $got (H100 $ld,$st,$lds,$sts)"
  else
    echo "FAIL $kernel: tgsim $got, H100 $ld,$st,$lds,$sts (load instr, store instr, load sectors, store sectors)"
    fail=1
  fi
done <"$here/h100/h100.csv"
exit $fail
