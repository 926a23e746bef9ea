#!/usr/bin/env bash
# `tgsim explain KERNEL --html FILE` in headless Chromium: the page loads with no console or
# network error, fetches nothing, and its DOM holds the kernel's source lines, the counters
# beside them, the rule with its rerun check, and the pictures. Chromium is required (the
# Debian package `chromium`, which `bash .ci/build test` installs): without it this test fails.
# Usage: html_view_test.sh TGSIM KERNEL N LANG EXPECTED...  (each EXPECTED a fixed string of the DOM)
set -u
tgsim=$1 kernel=$2 n=$3 lang=$4
shift 4
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "FAIL: chromium is not installed (apt-get install chromium; bash .ci/build test installs it)"
  exit 1
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if ! "$tgsim" --lang "$lang" explain "$kernel" --n "$n" --threads 2 --html "$dir/page.html" >"$dir/out.txt" 2>&1; then
  echo "FAIL: tgsim explain exited with an error:"; cat "$dir/out.txt"; exit 1
fi
# Self-contained: no scripts, no external resources (the SVG namespace is a name, not a fetch).
if grep -Eq "<script|<link|<img|src=|href=|@import|url\(http" "$dir/page.html"; then
  echo "FAIL: the page refers to something outside itself"; exit 1
fi
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --user-data-dir="$dir/profile" \
  --enable-logging=stderr --v=0 --dump-dom "file://$dir/page.html" >"$dir/dom.html" 2>"$dir/log.txt"
rc=$?
if [ $rc -ne 0 ] || ! grep -q "</html>" "$dir/dom.html"; then
  echo "FAIL: chromium did not load the page (exit $rc):"; tail -20 "$dir/log.txt"; exit 1
fi
if grep -E "CONSOLE|Uncaught|net::ERR|Failed to load" "$dir/log.txt"; then
  echo "FAIL: the page logged errors while loading"; exit 1
fi
status=0
for want in "$@"; do
  if ! grep -qF -- "$want" "$dir/dom.html"; then
    echo "FAIL: the DOM lacks: $want"
    status=1
  fi
done
svgs=$(grep -o "<svg" "$dir/dom.html" | wc -l)
if [ "$svgs" -lt 1 ]; then
  echo "FAIL: no picture (svg) in the DOM"; status=1
fi
[ $status -eq 0 ] && echo "OK: $kernel page loads in chromium; DOM has the source lines, counters, rules and $svgs pictures"
exit $status
