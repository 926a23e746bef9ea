#!/usr/bin/env bash
# Builds the libFuzzer target (clang, -fsanitize=fuzzer,address,undefined) into build-fuzz and
# runs it for a bounded time (default 60 s): bash tests/fuzz/run.sh [SECONDS]. Exits non-zero
# on any finding (an oracle mismatch aborts; crashes and sanitizer reports are kept as
# build-fuzz/crash-*). Needs: clang, libclang-rt-14-dev (apt-get install -y clang libclang-rt-14-dev).
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
out=build-fuzz
mkdir -p "$out/corpus"
CXX=${CXX:-clang++}
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
       -DBOOST_USE_UCONTEXT -DBOOST_USE_ASAN -Isim/include)
# The models and the launch validation (launch.cpp pulls in the rest of the library).
srcs=(tests/fuzz/models_fuzz.cpp sim/src/models.cpp sim/src/launch.cpp sim/src/group.cpp
      sim/src/checker.cpp sim/src/report.cpp sim/src/buffers.cpp sim/src/guard.cpp sim/src/boost_ucontext.cpp)
if [ ! -x "$out/models_fuzz" ] || [ -n "$(find "${srcs[@]}" sim/include -newer "$out/models_fuzz" | head -1)" ]; then
  "$CXX" "${flags[@]}" "${srcs[@]}" -o "$out/models_fuzz" -ltbb -lpthread
fi
cd "$out"
rc=0
./models_fuzz -max_total_time="$secs" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 corpus \
  > fuzz.log 2>&1 || rc=$?
grep -E "^#[0-9]+ *(DONE|INITED)|stat::number_of_executed_units|ERROR|models_fuzz:|SUMMARY" fuzz.log || true
echo "models_fuzz: exit $rc ($out/fuzz.log)"
exit "$rc"
