#!/usr/bin/env bash
# run_memory.sh TGSIM WORKDIR: `tgsim run FILE` holds a buffer ARG once. It used to copy every
# buffer after the launch (only `check` compares two runs' contents): a 1 GiB buffer cost 2.1 GB.
# Here a 256 MiB buffer must run in less than 1.5 times its size (the copy alone made it 2x).
set -uo pipefail
tgsim=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
export TGSIM_CACHE="$work/cache"
n=67108864  # floats: 256 MiB
python3 - "$tgsim" "$here/touch.cu" "$n" <<'PY'
import resource, subprocess, sys
tgsim, src, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
# Compile first (Clang's own peak is not the question), then measure the run alone.
cmd = [tgsim, "run", src, "--kernel", "touch", "--grid", "1", "--block", "32"]
subprocess.run(cmd + ["float[32]"], check=True, stdout=subprocess.DEVNULL)
before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
out = subprocess.run(cmd + [f"float[{n}]"], capture_output=True, text=True)
peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
buf_kib = n * 4 // 1024
print(f"exit {out.returncode}, peak {peak_kib} KiB for a {buf_kib} KiB buffer (earlier peak {before} KiB)")
if out.returncode != 0 or "findings: none" not in out.stdout:
    print(out.stdout, out.stderr); sys.exit(1)
sys.exit(0 if peak_kib < buf_kib * 3 // 2 else 1)
PY
