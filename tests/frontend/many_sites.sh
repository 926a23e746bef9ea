#!/usr/bin/env bash
# many_sites.sh TGSIM WORKDIR: kernels with more sites than the pass keeps in registers (more
# than 64 tags: sim/pass/fast_path.cpp reads them through __tgsim_load_tags into a stack array)
# and 32-bit indices `i + k` widened before the records (sim/pass/widen_indices.cpp) give the
# right results and counts: a kernel of 100 statements and a device function of 90 loads called
# twice per thread, the second time with the tags in the worker's cache. The calls also grow the
# lane's log inside the function: the caller must reload its cursor after each call (a stale
# GlobalsAA once let GVN keep the cursor from before the call: writes into the freed log, exit 134).
set -uo pipefail
tgsim=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
export TGSIM_CACHE="$work/cache"
{
  echo '__device__ float sum90(const float* in, int i) {'
  echo '  float s = 0;'
  for k in $(seq 0 89); do echo "  s += in[i + $k];"; done
  echo '  return s;'
  echo '}'
  echo '__global__ void many(const float* in, float* out, float* sums, int n) {'
  echo '  int i = blockIdx.x * blockDim.x + threadIdx.x;'
  for k in $(seq 0 99); do echo "  out[i * 100 + $k] = in[i + $k] * 2.0f + $k;"; done
  echo '  sums[2 * i] = sum90(in, i);'
  echo '  sums[2 * i + 1] = sum90(in, i + 1);'
  echo '}'
} > "$work/many.cu"
"$tgsim" run "$work/many.cu" --kernel many --grid 2 --block 64 'float[228]=iota' 'float[12800]=0' 'float[256]=0' int:128 \
  --save "1=$work/out.bin" --save "2=$work/sums.bin" --json > "$work/run.json" 2> "$work/err.txt"
rc=$?
python3 - "$work" "$rc" <<'PY'
import json, struct, sys
work, rc = sys.argv[1], int(sys.argv[2])
ok = True
def check(cond, what):
    global ok
    if not cond: print("FAIL", what); ok = False
check(rc == 0, f"exit {rc}: {open(work + '/err.txt').read()[:300]}")
out = struct.unpack("12800f", open(work + "/out.bin", "rb").read())
sums = struct.unpack("256f", open(work + "/sums.bin", "rb").read())
check(all(out[i * 100 + k] == (i + k) * 2.0 + k for i in range(128) for k in range(100)), "out values")
check(all(sums[2 * i] == sum(range(i, i + 90)) and sums[2 * i + 1] == sum(range(i + 1, i + 91)) for i in range(128)),
      "sums values")
j = json.load(open(work + "/run.json"))
c = j["counters"]
# 4 warps: 100 + 2 * 90 loads and 100 + 2 stores each
check(c["global"]["load"]["instructions"] == 4 * 280, f"global loads {c['global']['load']}")
check(c["global"]["store"]["instructions"] == 4 * 102, f"global stores {c['global']['store']}")
print("many sites: results and counts", "ok" if ok else "WRONG")
sys.exit(0 if ok else 1)
PY
