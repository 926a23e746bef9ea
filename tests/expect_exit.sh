#!/usr/bin/env bash
# expect_exit.sh STATUS REGEX COMMAND...: runs COMMAND, passes when it exits with STATUS and
# its stdout+stderr match the extended REGEX (empty: anything), and it neither hangs (60 s)
# nor dies of a signal.
want=$1 regex=$2
shift 2
out=$(timeout 60 "$@" 2>&1)
rc=$?
if [ "$rc" -ne "$want" ]; then
  echo "expected exit $want, got $rc from: $*"; printf '%s\n' "$out" | tail -20; exit 1
fi
if [ -n "$regex" ] && ! printf '%s\n' "$out" | grep -Eq -- "$regex"; then
  echo "exit $rc as expected but no line matches /$regex/:"; printf '%s\n' "$out" | tail -20; exit 1
fi
echo "ok: exit $rc: $(printf '%s\n' "$out" | grep -E -m1 -- "${regex:-.}")"
