#!/usr/bin/env bash
# install_fixture_test.sh BUILD_DIR: the installed tgsim finds its installed H100 fixture
# (PREFIX/share/tgsim/h100.json) without --fixture, reads that copy before the source tree's,
# and, when no fixture can be found, `validate` and `predict` exit 2 with one line naming
# --fixture. TGSIM_FIXTURE_DIR (the only place looked at when set) stands in for a machine
# without the source tree.
set -uo pipefail
build_dir=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null || fail "cmake --install"
share="$work/prefix/share/tgsim"
tgsim="$work/prefix/bin/tgsim"
for f in h100.json own_samples_h100.json apple_m3_seed001.json; do
  [ -f "$share/$f" ] || fail "$f not installed in $share"
done

# 1. The installed command, no --fixture: the installed copy, all equal (exit 0).
out=$(timeout 120 "$tgsim" validate --kernels matmul_naive --threads 2 2>&1) ||
  { printf '%s\n' "$out" | tail -20; fail "installed tgsim validate exited $?"; }
echo "ok: installed tgsim validate --kernels matmul_naive exits 0"

# 2. It read the installed copy, not the source tree's: a broken installed copy fails it.
mv "$share/h100.json" "$share/h100.json.good"
echo '{"broken": true' > "$share/h100.json"
timeout 120 "$tgsim" validate --kernels matmul_naive --threads 2 >/dev/null 2>&1 &&
  fail "validate passed with a broken installed fixture (the installed copy is not the one read)"
mv "$share/h100.json.good" "$share/h100.json"
echo "ok: the installed copy is the one read"

# 3. TGSIM_FIXTURE_DIR names the installed folder: found there.
TGSIM_FIXTURE_DIR="$share" timeout 120 "$tgsim" validate --kernels matmul_naive --threads 2 >/dev/null 2>&1 ||
  fail "validate with TGSIM_FIXTURE_DIR=$share"

# 4. No fixture anywhere: exit 2 and one line that says to pass --fixture.
mkdir -p "$work/empty"
for cmd in validate predict; do
  out=$(TGSIM_FIXTURE_DIR="$work/empty" timeout 60 "$tgsim" $cmd 2>&1)
  rc=$?
  [ "$rc" -eq 2 ] || { printf '%s\n' "$out"; fail "$cmd without a fixture exited $rc, not 2"; }
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || { printf '%s\n' "$out"; fail "$cmd: not one line"; }
  grep -q -- "--fixture" <<<"$out" || fail "$cmd: the line does not name --fixture: $out"
  echo "ok: $cmd without a fixture: exit 2: $out"
  # An explicit --fixture still works there.
  if [ "$cmd" = validate ]; then
    TGSIM_FIXTURE_DIR="$work/empty" timeout 120 "$tgsim" validate --fixture "$share/h100.json" \
      --kernels matmul_naive --threads 2 >/dev/null 2>&1 || fail "validate --fixture with no default"
  fi
done
echo "OK"
