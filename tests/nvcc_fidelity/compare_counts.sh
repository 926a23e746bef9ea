#!/usr/bin/env bash
# compare_counts.sh TGSIM WORKDIR SUITE: tgsim's shared and global counts for the kernels of
# SUITE/SUITE.cu (widening, call_sites) against the H100's (SUITE/h100/h100.csv, recorded by
# record_counts.sh with Nsight Compute), one line per kernel, each launched as 2 blocks of 256
# threads with the ARGs of SUITE/args.txt. Exit 0 when every kernel's ten counters are equal,
# but for the differences SUITE/known.txt lists with their cause (KERNEL|REASON lines, printed as
# KNOWN; one that becomes equal is a failure, so the list stays true). With SUITE/source.txt
# ("KERNEL N"): `--count source` gives that kernel N shared load instructions, one per source
# access, and the JSON says which count it is.
set -uo pipefail
tgsim=$1 work=$2 suite=$3
here=$(cd "$(dirname "$0")" && pwd)/$suite
read -r -a args <"$here/args.txt"
rm -rf "$work" && mkdir -p "$work"
export TGSIM_CACHE="$work/cache"
fail=0
declare -A known=()
while IFS='|' read -r k why; do [ -n "$k" ] && known[$k]=$why; done <"$here/known.txt"
while IFS=, read -r kernel want; do
  [ "$kernel" = kernel ] && continue
  shared=()
  [ "$kernel" = dynamic_4 ] && shared=(--shared 4096)
  "$tgsim" run "$here/$suite.cu" --kernel "$kernel" --grid 2 --block 256 "${shared[@]}" \
    "${args[@]}" --json >"$work/$kernel.json" 2>"$work/$kernel.err" ||
    { echo "FAIL $kernel: $(head -c 300 "$work/$kernel.err")"; fail=1; continue; }
  got=$(python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["counters"]
s, g = c["shared"], c["global"]
print(",".join(str(x) for x in (s["load"]["instructions"], s["store"]["instructions"], s["load"]["wavefronts"],
      s["store"]["wavefronts"], s["load"]["bank_conflicts"], s["store"]["bank_conflicts"],
      g["load"]["instructions"], g["store"]["instructions"], g["load"]["sectors"], g["store"]["sectors"])))' "$work/$kernel.json")
  if [ -n "${known[$kernel]:-}" ]; then
    if [ "$got" = "$want" ]; then
      echo "FAIL $kernel: listed as a known difference but equal now ($got): update the list"
      fail=1
    else
      echo "KNOWN $kernel: tgsim $got, H100 $want: ${known[$kernel]}"
    fi
  elif [ "$got" = "$want" ]; then
    echo "ok   $kernel: $got"
  else
    echo "DIFF $kernel: tgsim $got, H100 $want"
    fail=1
  fi
done <"$here/h100/h100.csv"
echo "(columns: shared load/store instructions, load/store wavefronts, load/store bank conflicts; global load/store instructions, load/store sectors)"
if [ -f "$here/source.txt" ]; then
  read -r kernel n <"$here/source.txt"
  "$tgsim" run "$here/$suite.cu" --kernel "$kernel" --grid 2 --block 256 --count source "${args[@]}" \
    --json >"$work/source.json" 2>"$work/source.err" || { echo "FAIL --count source: $(head -c 300 "$work/source.err")"; fail=1; }
  src=$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))
print(j["count"], j["counters"]["shared"]["load"]["instructions"])' "$work/source.json")
  if [ "$src" = "source $n" ]; then
    echo "ok   --count source: $kernel has $n shared load instructions, one per source access"
  else
    echo "FAIL --count source: '$src', expected 'source $n'"
    fail=1
  fi
fi
exit $fail
