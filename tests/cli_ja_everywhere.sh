#!/usr/bin/env bash
# cli_ja_everywhere.sh TGSIM DIR: under --lang ja every line tgsim prints is Japanese (issue 38
# item 1), beyond run's report (cli_ja_report.sh): explain of a catalog kernel and of a kernel
# file (its source view, rules, shuffle steps and HTML page), run --sample's sampling lines (auto's too), the
# progress lines, tgsim list, check's findings (2-D indices kept), and usage errors. English words are allowed only
# in identifiers: file:line, access kinds, options, code, kernel and profile names, quoted
# arguments, units. Also each usage, launch and compile error of the options and commands,
# --help, the tour's tables, the library's notes and warnings, validate and predict. One word for
# a block (CUDA) and a threadgroup (Metal): スレッドグループ, never ブロック. And no ASCII ; or ? in a Japanese sentence, no half-width space after 。、）.
set -u
tgsim=$1 dir=$2
fail() { echo "FAIL: $*"; exit 1; }
export LANG=C LC_ALL=C
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ja() { "$tgsim" --lang ja "$@"; }
shuffles=$dir/frontend/shuffles/shuffles.cu
race=$dir/frontend/cli/race.cu
ja explain transpose_shared --n 256 --source >"$out/explain_catalog.txt" 2>&1 || fail "explain transpose_shared"
ja explain "$shuffles" --kernel arg_max --grid 1 --block 64 'float[64]' int:64 'int[4]=0' --source \
  --html "$out/page.html" >"$out/explain_file.txt" 2>&1 || fail "explain FILE: $(cat "$out/explain_file.txt")"
ja run matmul_naive --n 1024 --sample 0.05 >"$out/sample.txt" 2>/dev/null || fail "run --sample"
grep -q "95%" "$out/sample.txt" || fail "run --sample printed no intervals"
ja run matmul_naive --n 1024 >"$out/sample_auto.txt" 2>/dev/null || fail "run (--sample auto)"
grep -q "sample auto" "$out/sample_auto.txt" || fail "run --sample auto printed no line of its own"
# Progress lines start after a second: n = 1,024 on one worker takes about 8 s (n = 512, 1 s, was flaky).
ja run matmul_naive --n 1024 --threads 1 --sample off >/dev/null 2>"$out/progress.txt" || fail "run (progress)"
grep -q "matmul_naive" "$out/progress.txt" || fail "no progress line on stderr"
ja list >"$out/list.txt" 2>&1 || fail "list"
ja check "$race" --grid 1 --block 64 'float[64]' 'float[1]=0' >"$out/check.txt" 2>&1
[ $? -eq 1 ] || fail "check race.cu: expected exit 1 (a finding)"
# A finding's element keeps its indices per dimension, as in English (tileB[0][0], not tileB[0]).
ja check matmul_tiled16_nobarrier1 --n 32 >"$out/check_2d.txt" 2>&1
grep -q "tileB\[0\]\[0\] に書き込み" "$out/check_2d.txt" || fail "the finding lost tileB's 2-D index: $(grep -m1 例 "$out/check_2d.txt")"
# Usage errors: each exits 2 with one Japanese line.
n=0
usage() {
  n=$((n + 1))
  ja "$@" >"$out/usage_$n.txt" 2>&1
  [ $? -eq 2 ] || fail "expected exit 2 from: $*"
}
usage run "$race" --grid 1 --block 64 'float[64]'
usage run "$race" --block 64 'float[64]' 'float[1]=0'
usage run "$race" --grid 1 --block 64 'floot[64]' 'float[1]=0'
usage run "$race" --grid 1 --block 64 'float[64]=@no_such_file.bin' 'float[1]=0'
usage run no_such_file.cu --grid 1 --block 1
usage run matmul_naive --bogus
usage run matmul_naive --sample 8
usage run matmul_tile16
usage explain matmul_naive --profile nvidia-a100
usage check matmul_naive --schedule sometimes
# The options' own errors (-D, --constant, --stack, --schedules, --save/--expect, --groups, --advice).
launch=(--grid 1 --block 64 'float[64]' 'float[1]=0')
head -c 12 /dev/zero >"$out/twelve.bin.data"
usage run "$race" "${launch[@]}" -D 1bad
usage run "$race" "${launch[@]}" --constant x
usage run "$race" "${launch[@]}" --stack 12
usage check "$race" "${launch[@]}" --schedules 0
usage check "$race" "${launch[@]}" --schedules 5 --schedule reverse
usage check "$race" "${launch[@]}" --schedule shuffle:x
usage run "$race" "${launch[@]}" --save nofile
usage run "$race" "${launch[@]}" --save "in=$out/no/such/folder.bin"
usage run "$race" "${launch[@]}" --expect 'in=x.bin:abc'
usage run "$race" "${launch[@]}" --expect 'in=no_such_file.bin'
usage run "$race" "${launch[@]}" --expect "in=$out/twelve.bin.data"
usage run "$race" "${launch[@]}" --save in=a.bin --sample 0.5
usage run "$race" "${launch[@]}" --advice --sample 0.5
usage run "$race" "${launch[@]}" --threads 999
usage run matmul_naive --advice
usage run matmul_naive --groups 3/2
usage run matmul_naive --groups x
usage explain matmul --sweep foo=1
usage explain matmul --sweep tile=7
usage bench --sizes 8
usage bench --count sometimes
usage bench --threads 4,2
usage bench --rows cache --no-cache
usage merge no_such_part.json
echo '{}' >"$out/part.json.data"
usage merge "$out/part.json.data"
usage validate --fixture no_such_fixture.json
usage predict --fixture no_such_fixture.json
usage tour --profile nvidia-a100
# The launch's errors (the engine's limits) and the ARGs a kernel's parameters refuse.
errors=$dir/frontend/cli/ja_errors.cu
usage run "$race" --grid 1 --block 2048 'float[64]' 'float[1]=0'
usage run "$race" --grid 1 --block 1,1,128 'float[64]' 'float[1]=0'
usage run "$race" --grid 3000000000 --block 32 'float[64]' 'float[1]=0'
usage run "$race" "${launch[@]}" --shared 300000
usage run "$race" "${launch[@]}" --cooperative --sample 0.5
usage run "$errors" --kernel big_tile --grid 1 --block 32 'float[32]'
usage run "$errors" --kernel fill --grid 1 --block 1 'float[1]'
usage run "$errors" --kernel by_value --grid 1 --block 1 'float[1]' 'float[1]'
usage run "$errors" --kernel by_value --grid 1 --block 1 "struct:$out/twelve.bin.data" 'float[1]'
usage run "$errors" --kernel pointers --grid 1 --block 1 'float[1]'
usage run "$dir/frontend/cli/syntax_error.cu" --grid 1 --block 1
grep -q "コンパイルできませんでした" "$out/usage_$n.txt" || fail "no Japanese lead-in after the compiler's diagnostics"
sed -i '/^[^ ]*syntax_error.cu:/,/errors\? generated\.$/d' "$out/usage_$n.txt"  # Clang's own diagnostics
# A kernel file's report: printf's output, its findings (out of bounds, assert) and a note.
ja run "$errors" --kernel talk --grid 1 --block 8 'float[64]' int:5 >"$out/talk.txt" 2>&1
grep -q "printf の出力" "$out/talk.txt" || fail "no Japanese printf line: $(head -3 "$out/talk.txt")"
sed -i '/^lane [0-9]/d' "$out/talk.txt"  # the kernel's own output
ja run "$errors" --kernel idle --grid 1 --block 1 int:3 >"$out/idle.txt" 2>&1 || fail "run idle"
grep -q "^注: " "$out/idle.txt" || fail "no Japanese note"
# --expect's line, a partial report (run --groups) and merge's summary.
head -c 4 /dev/zero >"$out/four.bin.data"
ja run "$race" --grid 1 --block 64 'float[64]=iota' 'float[1]=0' --expect "out=$out/four.bin.data" >"$out/expect.txt" 2>&1
grep -q "期待値" "$out/expect.txt" || fail "no Japanese --expect line: $(tail -1 "$out/expect.txt")"
for i in 0 1; do
  ja run "$race" --grid 2 --block 64 'float[128]' 'float[1]=0' --groups $i/2 --json >"$out/part$i.json.data" 2>/dev/null
done
ja run "$race" --grid 2 --block 64 'float[128]' 'float[1]=0' --groups 1/2 >"$out/partial.txt" 2>&1
ja merge "$out/part0.json.data" "$out/part1.json.data" >"$out/merge.txt" 2>&1 || fail "merge: $(cat "$out/merge.txt")"
grep -q "スライス 2 個を合計" "$out/merge.txt" || fail "merge's summary is not Japanese"
ja explain matmul --sweep tile=8,16 --n 64 >"$out/sweep.txt" 2>&1 || fail "explain --sweep"
grep -q "リクエスト" "$out/sweep.txt" || fail "explain --sweep's headers are not Japanese"
# The library's English said in Japanese: the checker's equal-value notes (shared, global from
# data), run --json's note on printf output past 16 MiB, the compiler's null-store warning,
# bench --hipcpu's failure, the validate and predict tables. Schedules listed with 、.
checkf=$dir/check_files
ja check "$checkf/byte_and_half.cu" --grid 1 --block 64 'uint[1]=0' int:0x0705 >"$out/same_shared.txt" 2>&1 ||
  fail "check byte_and_half.cu: $(cat "$out/same_shared.txt")"
grep -q "^注: 順序づけのない 2 つのスレッドが同じ値をストアしました.*: スレッドグループ (0,0,0) のスレッド (1,0,0) と (33,0,0) が" \
  "$out/same_shared.txt" || fail "the equal-value note is not Japanese: $(grep -m1 "^注\|^note" "$out/same_shared.txt")"
ja check "$checkf/same_value.cu" --kernel copy --grid 2 --block 64 'int[64]=0' 'int[1]=0' >"$out/same_global.txt" 2>&1 ||
  fail "check same_value.cu: $(cat "$out/same_global.txt")"
grep -q "グローバルメモリの arg 1 (out)\[0\] に同じバイト" "$out/same_global.txt" || fail "the global equal-value note is not Japanese"
ja run "$dir/hostile/printf_many.cu" --kernel many --grid 64 --block 256 int:32 --json 2>/dev/null |
  python3 -c 'import json, sys; print("\n".join(json.load(sys.stdin)["notes"]))' >"$out/printed_note.txt" ||
  fail "run --json of printf_many.cu"
grep -q "^カーネルは [0-9]* バイトを出力しました" "$out/printed_note.txt" || fail "the printed note: $(cat "$out/printed_note.txt")"
ja run "$dir/hostile/null_store.cu" --grid 1 --block 32 'int[32]' >/dev/null 2>"$out/null_store.txt" || fail "run null_store.cu"
grep -q "null_store.cu:5:[0-9]*: 警告: ヌルポインタを通したストアです" "$out/null_store.txt" ||
  fail "the null-store warning is not Japanese: $(cat "$out/null_store.txt")"
usage bench --sizes 16 --count none --rows engine --threads 1 --hipcpu /bin/false
grep -q "taskset の下で動かなかった" "$out/usage_$n.txt" || fail "bench --hipcpu's failure: $(cat "$out/usage_$n.txt")"
ja validate --kernels matmul_naive >"$out/validate.txt" 2>&1 || fail "validate: $(cat "$out/validate.txt")"
grep -q "比べたカウンタはすべて一致しました" "$out/validate.txt" || fail "validate's table is not Japanese"
ja predict >"$out/predict.txt" 2>&1 || fail "predict: $(tail -3 "$out/predict.txt")"
grep -q "^速度比" "$out/predict.txt" || fail "predict's table is not Japanese"
ja check "$race" --grid 1 --block 64 'float[64]' 'float[1]=0' --schedules 2 >"$out/schedules.txt" 2>&1
grep -q "in-order、reverse" "$out/schedules.txt" || fail "schedules not listed with 、: $(grep -m1 in-order "$out/schedules.txt")"
# --help, and the tour (its tables' headers and legend).
for cmd in "" run check explain tour list bench validate predict merge; do
  ja $cmd --help >"$out/help_${cmd:-tgsim}.txt" 2>&1 || fail "$cmd --help"
done
grep -q "使い方" "$out/help_run.txt" || fail "run --help has no Japanese usage line"
ja tour >"$out/tour.txt" 2>/dev/null || fail "tour"
ja tour --wide >"$out/tour_wide.txt" 2>/dev/null || fail "tour --wide"
grep -q "バンク" "$out/tour.txt" || fail "the tour's headers are not Japanese"
# Under AddressSanitizer (bash .ci/sanitize) its runtime warns once on stderr about swapcontext:
# not tgsim's output.
sed -i '/^==[0-9]*==WARNING: ASan /d' "$out"/*.txt
python3 - "$out" <<'PY' || exit 1
import html, os, re, sys
out = sys.argv[1]
english = re.compile(r"\b(the|of|and|is|are|to|in|by|for|at|per|with|not|no|from|as|on|one|all|lanes?|loads?|stores?|"
                     r"warps?|bank|steps?|offset|reads?|keeps?|value|estimate|bound|tile|source|line|share|requests?|"
                     r"sectors?|wavefronts?|conflicts?|measured|heat|block|threads?|padded|sampled|simulated|"
                     r"threadgroups|done|error|unknown|bad|required|expected|following|argument|given|takes|"
                     r"parameters?|kernels?|file|such|cannot|several|choose|default|intervals|counters|shuffles?|"
                     r"pictures?|worst|change|rule|fix|tried|rerun|result|findings?|example|schedule|memory|"
                     r"usage|options|positionals|subcommands?|text|print|help|exit|display|limit|exceeds|declares|"
                     r"allows|bytes|dimension|slices?|fixture|nothing|compiler|supports|rows|worker|cooperative|"
                     r"sampling|ld|req|sect|est|conflicts|yes|names|more|than|give|need|needs|whole|launch|"
                     r"open|read|write|number|outside|above|below|must|passed|pointers?|buffer|sweep|groups|equal|values|stored|"
                     r"printed|holds|warning|null|compared|correct|wrong|different|mismatch|predicted|speedups|"
                     r"modelled|driver|did|timings|constant|data)\b", re.I)
def identifiers_out(line):
    t = re.sub(r"'[^']*'", " ", line)                                   # quoted arguments
    t = re.sub(r"\S*[=/]\S*", " ", t)                                   # NAME=VALUE, tile=8,16, paths
    t = re.sub(r"\b(FILE|PARAM|PATH|NAME|RTOL|ARGS|PART|PROGRAM|N)\b", " ", t)  # --help's placeholders
    t = re.sub(r"\bfile:line\S*", " ", t)
    t = re.sub(r"\b(all|none|counters|cache|engine|checker|naive|hardware|source)(?=[、:（）,]| *のどれか)", " ", t)  # option values
    t = re.sub(r"`[^`]*`", " ", t)                                      # code
    t = re.sub(r"\b(const )?\w+\*+ \w+", " ", t)                        # a parameter: float** rows
    t = re.sub(r"\barg \d+ \(\w*\)", " ", t)                             # a buffer's name: arg 0 (in)
    t = re.sub(r"\b\w+\([^)]*\)", " ", t)                                # a C signature, a call
    t = re.sub(r"\w+\[[^\]]*\]", " ", t)                                 # an element: coeffs[lane % 8]
    t = re.sub(r"\S+\.(cu|metal|cpp|h|html|bin)(:\d+(-\d+)?)?(:\d+)?", " ", t)  # files, file:line
    t = re.sub(r"\b[a-z0-9]+(\.[a-z0-9_]+)+\b", " ", t)                 # global.load, counter paths
    t = re.sub(r"--count (hardware|source)", " ", t)                    # an option and its value
    t = re.sub(r"--[a-z-]+", " ", t)                                    # options
    t = re.sub(r"\b[a-z0-9]+(-[a-z0-9]+)+\b", " ", t)                   # finding kinds, profiles
    t = re.sub(r"\b\w*_\w*\b", " ", t)                                  # code and kernel names
    t = re.sub(r"\b(tgsim|nvidia-h100|nvidia-a100|apple-m3|amd-cdna|ms|µs|relu|raw-hazard|in-order|reverse|"
               r"shuffle|both|out-of-bounds|seed|review|int|float|ARG|TYPE|COUNT|VALUE|SEED)\b", " ", t)
    return t
bad = []
for name in sorted(os.listdir(out)):
    if name.endswith(".data"):
        continue  # the test's own input files
    text = open(os.path.join(out, name), encoding="utf-8").read()
    if name.endswith(".html"):
        text = re.sub(r"<td class='code'>.*?</td>", " ", text, flags=re.S)  # the kernel's own code
        text = re.sub(r"<style>.*?</style>", " ", text, flags=re.S)
        text = html.unescape(re.sub(r"<[^>]+>", "\n", text))
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if name.startswith("tour") and re.match(r"^[a-z]\w* +\d", line):
            continue  # a row of the tour's table: a kernel's name and its numbers
        if name.startswith("explain") and re.match(r"^ *\d+ ", line):
            continue  # a row of a table or of the listing (the kernel's own code beside its counters)
        if name.startswith("explain") and line.startswith(" " * 20):
            continue  # the listing's wrapped code
        if name == "check.txt" and i == 0:
            continue  # the kernel's C++ signature
        m = english.search(identifiers_out(line))
        if m:
            bad.append(f"{name}: English word {m.group(0)!r}: {line.strip()}")
        if re.search(r"[\u3040-\u30ff\u4e00-\u9fff][^a-zA-Z0-9\"'\[\](){}]*[;?]", line) and "asm(" not in line:
            bad.append(f"{name}: ASCII ; or ? in a Japanese sentence: {line.strip()}")
        if re.search(r"[\u3040-\u30ff\u4e00-\u9fff] [\u3040-\u30ff\u4e00-\u9fff]", line) and re.search(r"[、。:]", line):
            bad.append(f"{name}: a half-width space between two Japanese words: {line.strip()}")  # not "律速は レイテンシ"
        if "ブロック" in line:
            bad.append(f"{name}: ブロック where the rest says スレッドグループ: {line.strip()}")
        if re.search(r"[。、）] [\u3040-\u30ff\u4e00-\u9fff]", line):
            bad.append(f"{name}: a half-width space after 。、）: {line.strip()}")
if bad:
    sys.exit("FAIL:\n" + "\n".join(bad[:40]))
PY
echo "cli_ja_everywhere: explain, the HTML page, sampling, progress, list, check and usage errors are Japanese"
