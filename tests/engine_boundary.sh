#!/bin/bash
# The engine does not know the analyses (issue 33): no file of sim/src/engine includes a header
# of sim/src/analyses, and no file outside sim/src/analyses names a sink type: the stream hands
# every event to the list (analyses/list.hpp), never to one named analysis.
#   tests/engine_boundary.sh [REPOSITORY ROOT]     (default: the folder above this script's)
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root/sim/src"
status=0
if grep -n '#include "analyses/' engine/*; then
  echo "engine_boundary: the engine includes an analysis (above); it reaches them through engine/analyses.hpp" >&2
  status=1
fi
# (code only: comments may name them)
if grep -nE '^[^/]*\b(CounterSink|CacheSink|CaptureSink|CheckerSink)\b' $(find . -path ./analyses -prune -o -type f -print); then
  echo "engine_boundary: a sink named outside sim/src/analyses (above): a side door past the list" >&2
  status=1
fi
[ $status = 0 ] && echo "engine_boundary: the engine reaches the analyses only through the list"
exit $status
