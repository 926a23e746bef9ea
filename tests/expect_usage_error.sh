#!/usr/bin/env bash
# Runs a tgsim command that must be refused as a usage error: exit status 2 and exactly one
# line on stderr starting with "tgsim: error:".
out=$("$@" 2>&1 >/dev/null)
rc=$?
lines=$(printf '%s\n' "$out" | grep -c .)
if [ "$rc" -ne 2 ] || [ "$lines" -ne 1 ] || [[ "$out" != "tgsim: error:"* ]]; then
  echo "expected exit 2 and one 'tgsim: error:' line; got exit $rc and:"; printf '%s\n' "$out"; exit 1
fi
echo "ok: $out"
