#!/usr/bin/env bash
# Builds the libFuzzer target (clang, -fsanitize=fuzzer,address,undefined) into build-fuzz and
# runs it for a bounded time (default 60 s): bash tests/fuzz/run.sh [SECONDS]. Exits non-zero
# on any finding (an oracle mismatch aborts; crashes and sanitizer reports are kept as
# build-fuzz/crash-*). Needs: clang, libclang-rt-14-dev (apt-get install -y clang libclang-rt-14-dev), g++.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
out=build-fuzz
mkdir -p "$out/corpus"
# The fuzz target and the models are compiled by clang with libFuzzer's coverage, ASan and
# UBSan. Launch validation lives in the library, whose headers need std::source_location (not
# available to clang 14 with libstdc++ 12): validate_shim.cpp is compiled by g++ against the
# Release library in ./build (built if missing) and linked in, uninstrumented.
[ -f build/sim/libtgsim.a ] || { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build -j "$(nproc)" --target tgsim_sim; }
cmake --build build --target tgsim_sim >/dev/null
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Isim/include)
if [ ! -x "$out/models_fuzz" ] || [ -n "$(find tests/fuzz sim build/sim/libtgsim.a -newer "$out/models_fuzz" | head -1)" ]; then
  g++ -std=c++20 -O1 -g -Isim/include -c tests/fuzz/validate_shim.cpp -o "$out/validate_shim.o"
  clang++ "${flags[@]}" tests/fuzz/models_fuzz.cpp sim/src/analyses/models.cpp "$out/validate_shim.o" \
    build/sim/libtgsim.a -lboost_context -ltbb -lpthread -o "$out/models_fuzz"
fi
cd "$out"
rc=0
./models_fuzz -max_total_time="$secs" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 corpus \
  > fuzz.log 2>&1 || rc=$?
grep -E "^#[0-9]+ *(DONE|INITED)|stat::number_of_executed_units|ERROR|models_fuzz:|SUMMARY" fuzz.log || true
echo "models_fuzz: exit $rc ($out/fuzz.log)"
exit "$rc"
