#!/usr/bin/env bash
# Installs the built tgsim into a temporary prefix and builds and runs tests/consumer against it
# with find_package(tgsim): what a user's own CMake project does.
set -euo pipefail
build_dir=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
cmake -S "$source_dir/tests/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/my_kernels"
"$work/consumer/vector_add"
