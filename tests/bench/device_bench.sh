#!/bin/bash
# tgsim bench on a machine without Boost or oneTBB (the H100 machine's 16 CPU cores): the tgsim
# binary and hipcpu_tiled16 (examples/hipcpu/matmul_tiled16.cpp, built by the user against
# HIP-CPU: nothing here builds third-party code) travel in DIR with their shared libraries and
# ld-linux-x86-64.so.2, and run through that loader.
#   tests/bench/device_bench.sh DIR one-core   N=512, one worker, pinned to the last core (tgsim and
#                                              HIP-CPU; core 0 takes more of the machine's own work)
#                                              (REPS=K: K rounds, each row's minimum kept; 3)
#   tests/bench/device_bench.sh DIR scaling    N=1024, 1..all workers, HIP-CPU beside each
#   tests/bench/device_bench.sh DIR efficiency N=1024, 1 and all workers only, each row's two runs
#                                              back to back (REPS=K rounds; 4)
#   tests/bench/device_bench.sh DIR memory     peak RSS of `tgsim run matmul_tiled16 --n 2048`
#                                              with the cache model at 2, 4, 8, 16 workers
#   tests/bench/device_bench.sh DIR machine    what the machine allows a program that shares
#                                              nothing: tests/bench/machine_loops.cpp (built as
#                                              build/tests/machine_loops, carried in DIR) on all cores
#   tests/bench/device_bench.sh DIR copies     N=512, one worker: HIP-CPU, then tgsim's counters
#                                              and engine rows, alone on the last core and as one
#                                              copy per core at once (the machine's per-core
#                                              slowdown when all cores are busy, with no sharing)
set -eu
D=$(cd "${1:?usage: device_bench.sh DIR one-core|scaling|efficiency|memory|machine|copies}" && pwd)
what=${2:?usage: device_bench.sh DIR one-core|scaling|efficiency|memory|machine|copies}
tgsim() { "$D/ld-linux-x86-64.so.2" --library-path "$D" "$D/tgsim" "$@"; }
cat > "$D/hipcpu.sh" <<EOS
#!/bin/sh
exec "$D/ld-linux-x86-64.so.2" --library-path "$D" "$D/hipcpu_tiled16" "\$@"
EOS
chmod +x "$D/hipcpu.sh"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
case $what in
  one-core) taskset -c $(($(nproc) - 1)) "$D/ld-linux-x86-64.so.2" --library-path "$D" "$D/tgsim" \
              bench --sizes 512 --reps "${REPS:-3}" --threads 1 --hipcpu "$D/hipcpu.sh" ;;
  scaling) tgsim bench --sizes 1024 --reps 2 --hipcpu "$D/hipcpu.sh" ;;
  efficiency) tgsim bench --sizes 1024 --reps "${REPS:-4}" --threads "1,$(nproc)" --hipcpu "$D/hipcpu.sh" ;;
  memory)
    for t in 2 4 8 16; do
      python3 - "$D" "$t" <<'EOP'
import resource, subprocess, sys
d, t = sys.argv[1], sys.argv[2]
subprocess.run([d + "/ld-linux-x86-64.so.2", "--library-path", d, d + "/tgsim", "run", "matmul_tiled16",
                "--n", "2048", "--threads", t, "--json"], check=True, stdout=subprocess.DEVNULL)
mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"matmul_tiled16 n=2048 workers={t} cache model on: peak RSS {mb:.1f} MB "
      f"(buffers 48 MB; bound 2 x 48 + 200 = 296 MB)")
EOP
    done ;;
  machine) "$D/ld-linux-x86-64.so.2" --library-path "$D" "$D/machine_loops" "$(nproc)" ;;
  copies)
    last=$(($(nproc) - 1)) tmp=$(mktemp -d)
    hip() { taskset -c "$1" "$D/hipcpu.sh" 512 5 | sed 's/.*seconds=\([0-9.]*\).*/\1/'; }
    tg() { taskset -c "$1" "$D/ld-linux-x86-64.so.2" --library-path "$D" "$D/tgsim" bench --sizes 512 --reps 3 \
             --threads 1 --no-cache --json | python3 -c "import json, sys
print(' '.join('%s=%.3f' % (r['mode'], r['tgsim_s']) for r in json.load(sys.stdin)['runs'] if r['kernel'] == 'matmul_tiled16'))"; }
    for prog in hip tg; do
      echo "$prog alone on CPU $last: $($prog $last)"
      for c in $(seq 0 $last); do $prog "$c" > "$tmp/$c" & done
      wait
      echo "$prog, one copy per CPU at once:"; sort "$tmp"/* | tr '\n' ' '; echo
    done
    rm -rf "$tmp" ;;
  *) echo "unknown: $what" >&2; exit 2 ;;
esac
