#!/bin/bash
# The command and the catalog use the library as its users do (issue 33): no file of sim/cli or
# kernels/ includes a private header of sim/src or names a tgsim::detail:: entity; beyond the
# public headers they reach the library only through the command's interface,
# sim/include/tgsim/internal/ (docs/design.md). Their own headers (sim/cli, kernels/,
# sim/validation) are theirs to include.
#   tests/cli_boundary.sh [REPOSITORY ROOT]     (default: the folder above this script's)
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
status=0
files=$(find sim/cli kernels -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' -o -name '*.cu' \))
while IFS=: read -r file line inc; do
  name=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/' <<<"$inc")
  ok=0
  for dir in "$(dirname "$file")" sim/cli kernels sim/validation; do
    [ -f "$dir/$name" ] && ok=1
  done
  if [ -f "sim/src/$name" ] || [ -n "$(find sim/src -path "*/$name" -print -quit)" ] || [ $ok = 0 ]; then
    echo "$file:$line: includes \"$name\", a private header of sim/src (or none of the command's own)"
    status=1
  fi
done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $files || true)
# (code only: comments may name them)
if grep -nE '^[^/]*\bdetail::' $files; then
  echo "cli_boundary: a detail:: name in the command or the catalog (above): use the public API or tgsim/internal/" >&2
  status=1
fi
if [ $status = 0 ]; then
  echo "cli_boundary: the command and the catalog include only public headers and tgsim/internal/"
else
  echo "cli_boundary: the command or the catalog reaches into sim/src (above)" >&2
fi
exit $status
