#!/usr/bin/env bash
# expect_width.sh COLUMNS COMMAND...: runs COMMAND and passes when it exits with 0 or 1 (a
# kernel's findings) and no line of its standard output is wider than COLUMNS terminal columns
# (a Japanese character counts 2: GNU wc -L in a UTF-8 locale).
cols=$1
shift
out=$(timeout 300 "$@" 2>/dev/null)
rc=$?
if [ "$rc" -gt 1 ]; then
  echo "FAIL: exit $rc from: $*"; exit 1
fi
widest=$(printf '%s\n' "$out" | LC_ALL=C.UTF-8 wc -L)
if [ "$widest" -gt "$cols" ]; then
  echo "FAIL: a line is $widest columns wide (limit $cols):"
  printf '%s\n' "$out" | while IFS= read -r l; do
    w=$(printf '%s' "$l" | LC_ALL=C.UTF-8 wc -L)
    [ "$w" -gt "$cols" ] && printf '%4d| %s\n' "$w" "$l"
  done | head -10
  exit 1
fi
echo "ok: $(printf '%s\n' "$out" | wc -l) lines, the widest $widest columns: $*"
