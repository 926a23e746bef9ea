#!/usr/bin/env bash
# compile_cache.sh TGSIM WORKDIR: the compile cache of `tgsim run FILE` (src/frontend/compile_cache.hpp):
# where it is, whose it must be, what invalidates an entry, and what a signal leaves behind.
set -uo pipefail
tgsim=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work/src" "$work/tmp"
cp "$here/cache/value.cu" "$here/cache/other.cu" "$work/src/"
echo '#define VALUE 1' > "$work/src/value.h"
fails=0 checks=0
ok() { checks=$((checks + 1)); echo "ok: $*"; }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
run() { "$tgsim" run "$work/src/value.cu" --grid 1 --block 32 'int[32]' 2>&1; }

# 1. No HOME, no XDG: the cache is not a shared /tmp folder. With XDG_CACHE_HOME: there, 0700.
unset TGSIM_CACHE
out=$(env -u HOME XDG_CACHE_HOME="$work/xdg" "$tgsim" run "$work/src/value.cu" --grid 1 --block 32 'int[32]' 2>&1)
mode=$(stat -c %a "$work/xdg/tgsim" 2>/dev/null)
if grep -q "value 1" <<<"$out" && [ "$mode" = 700 ]; then ok "XDG_CACHE_HOME/tgsim made 0700"; else fail "XDG cache: mode '$mode': $out"; fi
planted="/tmp/tgsim-cache-$(id -u)"
if [ ! -e "$planted" ] || [ "$(stat -c %U "$planted")" = "$(id -un)" ]; then
  before=$(stat -c %Y "$planted" 2>/dev/null || echo none)
  env -u HOME -u XDG_CACHE_HOME -u TGSIM_CACHE TMPDIR="$work/tmp" "$tgsim" run "$work/src/value.cu" --grid 1 --block 32 'int[32]' >/dev/null 2>&1
  after=$(stat -c %Y "$planted" 2>/dev/null || echo none)
  if [ "$before" = "$after" ]; then ok "no HOME: /tmp/tgsim-cache-UID untouched"; else fail "no HOME: used $planted"; fi
fi

# 2. A cache folder others may write, or that someone else owns, is refused (exit 2), never used.
mkdir -p "$work/open" && chmod 777 "$work/open"
out=$(TGSIM_CACHE="$work/open" "$tgsim" run "$work/src/value.cu" --grid 1 --block 32 'int[32]' 2>&1); rc=$?
if [ $rc = 2 ] && grep -q "refusing the compile cache" <<<"$out" && [ -z "$(ls "$work/open")" ]; then
  ok "mode 777 folder refused"; else fail "mode 777 folder: exit $rc: $out"; fi
export TGSIM_CACHE="$work/cache"
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$work/theirs" && chown nobody "$work/theirs" && chmod 755 "$work/theirs"
  out=$(TGSIM_CACHE="$work/theirs" "$tgsim" run "$work/src/value.cu" --grid 1 --block 32 'int[32]' 2>&1); rc=$?
  if [ $rc = 2 ] && grep -q "belongs to user" <<<"$out"; then ok "someone else's folder refused"; else fail "someone else's folder: exit $rc: $out"; fi
fi

# 3. An edited header reaches the next run.
out=$(run); grep -q "value 1" <<<"$out" && ok "first run" || fail "first run: $out"
echo '#define VALUE 2' > "$work/src/value.h"
out=$(run); grep -q "value 2" <<<"$out" && ok "edited header recompiled" || fail "edited header ignored: $out"

# 4. A damaged or swapped entry is compiled again, never used.
so=$(ls "$work/cache"/*.so | head -1)
for damage in truncate zero random other; do
  for f in "$work/cache"/*.so; do
    case $damage in
      truncate) head -c 1000 "$f" > "$f.x" && mv "$f.x" "$f" ;;
      zero) : > "$f" ;;
      random) head -c 20000 /dev/urandom > "$f" ;;
      other) ;;
    esac
  done
  if [ $damage = other ]; then  # another file's object under this file's name
    TGSIM_CACHE="$work/cache2" "$tgsim" run "$work/src/other.cu" --grid 1 --block 32 'int[32]' >/dev/null 2>&1
    for f in "$work/cache"/*.so; do cp "$(ls "$work/cache2"/*.so | head -1)" "$f"; done
  fi
  chmod 700 "$work/cache"/*.so
  out=$(run); rc=$?
  if [ $rc = 0 ] && grep -q "value 2" <<<"$out"; then ok "$damage entry recompiled"; else fail "$damage entry: exit $rc: $out"; fi
done
if [ "$(id -u)" = 0 ]; then
  for f in "$work/cache"/*.so; do chown nobody "$f"; done
  out=$(run); rc=$?
  if [ $rc = 2 ] && grep -q "refusing the compile cache entry" <<<"$out"; then ok "someone else's entry refused"; else fail "someone else's entry: exit $rc: $out"; fi
  rm -f "$work/cache"/*.so
fi

# 5. TMPDIR is honoured and a signal during a compile leaves no temporaries.
echo '#define VALUE 3' > "$work/src/value.h"
TMPDIR="$work/tmp" "$tgsim" run "$work/src/value.cu" --grid 1 --block 32 'int[32]' >/dev/null 2>&1 &
pid=$!
sleep 0.4
kill -TERM $pid  # (a background job of a script ignores SIGINT)
wait $pid; rc=$?
left=$(ls -A "$work/tmp"; ls "$work/cache" | grep -F .tmp.)
if [ $rc = 143 ] && [ -z "$left" ]; then ok "interrupted compile (exit $rc) left nothing"; else fail "interrupted compile exit $rc left: $left"; fi
out=$(run); grep -q "value 3" <<<"$out" && ok "run after the interruption" || fail "after the interruption: $out"

echo "$checks checks, $fails failed"
[ $fails = 0 ]
