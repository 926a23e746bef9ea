#!/usr/bin/env bash
# python_install_test.sh BUILD_DIR SOURCE_DIR PYTHON DIR: `cmake --install` puts the tgsim Python
# package in PREFIX/DIR/tgsim (DIR: TGSIM_PYTHON_INSTALL_DIR, lib/python3/dist-packages); imported from there (outside the build
# tree, with a fresh compile cache) it compiles a kernel file with the installed plugin and
# headers and runs it.
set -uo pipefail
build_dir=$1
source_dir=$2
python=$3
site=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null || fail "cmake --install"
ls "$work/prefix/$site"/tgsim/_tgsim*.so "$work/prefix/$site/tgsim/__init__.py" \
  >/dev/null || fail "no tgsim package in PREFIX/$site"
cp "$source_dir/tests/python/vector_add.cu" "$work/"
cd "$work" || fail "cd"
env -u TGSIM_PLUGIN -u TGSIM_INCLUDE PYTHONPATH="$work/prefix/$site" TGSIM_CACHE="$work/cache" \
  PYTHONDONTWRITEBYTECODE=1 "$python" - "$work/prefix" <<'PY' || fail "the installed module"
import os, sys
import numpy as np
import tgsim
prefix = sys.argv[1]
assert tgsim.__file__.startswith(prefix), tgsim.__file__
a = np.arange(256, dtype=np.float32)
c = np.zeros(256, dtype=np.float32)
r = tgsim.run("vector_add.cu", grid=1, block=256, args=[a, a, c, 256])
assert (c == 2 * a).all() and r.counters["global.store.sectors"] == 32
tools = tgsim.toolchain()
assert tools["plugin"].startswith(prefix) and os.path.exists(tools["plugin"]), tools
assert tools["include"] == os.path.join(prefix, "include"), tools
print("OK")
PY
