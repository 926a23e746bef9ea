#!/usr/bin/env bash
# catalog_names.sh TGSIM GEN WORKDIR: a user's kernel with the name and signature of any catalog
# kernel (all of them, from catalog_names_gen) runs its own code, an empty body: `tgsim run`
# reports no access and no finding for each. The tgsim command exports the catalog's symbols;
# before kernel files were linked -Bsymbolic, the catalog's code ran instead.
set -uo pipefail
tgsim=$1 gen=$2 work=$3
mkdir -p "$work"
"$gen" "$work/user.cu" "$work/kernels.list"
export TGSIM_CACHE="$work/cache"
n=0 bad=0
while IFS=$'\t' read -r name args; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  out=$("$tgsim" run "$work/user.cu" --kernel "$name" --grid 1 --block 32 $args --json 2>&1)
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL $name: exit $rc"; printf '%s\n' "$out" | tail -5; bad=$((bad + 1)); continue
  fi
  # Here-strings, not pipes: under pipefail, grep -q ending early can fail the printf feeding it.
  if ! grep -q '"thread_accesses": 0' <<<"$out" ||
     grep -Eq '"thread_accesses": [1-9]|"kind": "(out-of-bounds|raw-hazard|war-hazard|waw-hazard)' <<<"$out"; then
    echo "FAIL $name: the catalog's code ran (its whole report):"; printf '%s\n' "$out"
    bad=$((bad + 1))
  fi
done < "$work/kernels.list"
echo "$n catalog names, $bad ran other code than the user's"
[ "$n" -gt 0 ] && [ "$bad" -eq 0 ]
