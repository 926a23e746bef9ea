#!/usr/bin/env bash
# errors.sh TGSIM WORKDIR: every error of the command is one JSON object under --json with the
# documented exit status; file names need not be UTF-8; a report that cannot be written is an
# error (exit status 5), never a silent exit 0.
set -uo pipefail
tgsim=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
export TGSIM_CACHE="$work/cache"
fails=0 checks=0
ok() { checks=$((checks + 1)); echo "ok: $*"; }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
# json_error NAME STATUS KIND ARGS...: exit STATUS, stdout exactly one JSON object with error.kind KIND
json_error() {
  local name=$1 status=$2 kind=$3
  shift 3
  local out rc
  out=$("$tgsim" "$@" --json 2>/dev/null); rc=$?
  if [ $rc = "$status" ] && printf '%s' "$out" | python3 -c "
import json, sys
e = json.load(sys.stdin)['error']
sys.exit(0 if e['kind'] == '$kind' and e['exit_status'] == $status and e['message'] else 1)"; then
    ok "$name: exit $rc, JSON error '$kind'"
  else
    fail "$name: exit $rc (want $status), stdout: $(printf '%s' "$out" | head -c 300)"
  fi
}
json_error usage 2 usage run "$here/args.cu" --kernel nope --grid 1 --block 32 'int[32]' int:1
json_error bad_option 2 usage run matmul_naive --bogus
json_error type_mismatch 2 usage run "$here/args.cu" --kernel sum_floats --grid 1 --block 32 'double[32]' 'float[32]'
json_error unclosed_launch 2 compile run "$here/unclosed_launch.cu" --grid 1 --block 32 'int[32]'
printf '__global__ void k(int* p) { p[0] = ; }\n' > "$work/broken.cu"
json_error compile_error 2 compile run "$work/broken.cu" --grid 1 --block 32 'int[32]'
json_error launch_error 2 launch run "$here/args.cu" --kernel show_int --grid 1 --block 4096 'int[32]' int:1

# The ends of the process (a stack overflow: 3; an address nothing can stand in for: 4) too.
json_error stack_overflow 3 stack-overflow run "$here/faults.cu" --kernel big_local --grid 2 --block 64 'int[64]'
json_error wild_access 4 wild-access run "$here/args.cu" --kernel poke --grid 1 --block 32 'int[32]' long:0

# A Latin-1 byte in the file name: still one valid JSON report.
latin1="$work/caf"$'\xe9'".cu"
cp "$here/args.cu" "$latin1"
out=$("$tgsim" run "$latin1" --kernel show_int --grid 1 --block 32 'int[32]' int:1 --json 2>&1); rc=$?
if [ $rc = 0 ] && printf '%s' "$out" | python3 -c "import json,sys; json.load(sys.stdin)"; then
  ok "Latin-1 file name: valid JSON"; else fail "Latin-1 file name: exit $rc: $(printf '%s' "$out" | head -c 300)"; fi

# A report that cannot be written: exit status 5 and a line on stderr.
if [ -w /dev/full ]; then
  err=$("$tgsim" run matmul_naive --n 32 2>&1 >/dev/full); rc=$?
  if [ $rc = 5 ] && grep -q "cannot write the report" <<<"$err"; then ok "full disk: exit 5"; else fail "full disk: exit $rc: $err"; fi
fi
err=$("$tgsim" run matmul_naive --n 32 2>&1 >&-); rc=$?
if [ $rc = 5 ] && grep -q "cannot write the report" <<<"$err"; then ok "closed stdout: exit 5"; else fail "closed stdout: exit $rc: $err"; fi

echo "$checks checks, $fails failed"
[ $fails = 0 ]
