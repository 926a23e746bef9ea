#!/usr/bin/env bash
# sample_cli.sh TGSIM: `tgsim run --sample P` states "sampled" wherever it shows counters (text
# and JSON), gives each counter's interval and the share simulated, leaves the result unchecked
# (correct: null), and refuses a bad share or --sample with --groups (exit 2, one line).
set -euo pipefail
tgsim=$1
here=$(cd "$(dirname "$0")" && pwd)
json=$("$tgsim" run transpose_shared --n 4096 --sample 2% --json)
jq -e '.sampled.share > 0.01 and .sampled.share < 0.03 and .correct == null' <<<"$json" >/dev/null ||
  { echo "bad sampled object:"; jq '.sampled | del(.intervals)' <<<"$json"; exit 1; }
jq -e '.sampled.intervals["shared.store.wavefronts"] | length == 2' <<<"$json" >/dev/null ||
  { echo "no interval for shared.store.wavefronts"; exit 1; }
text=$("$tgsim" run transpose_shared --n 4096 --sample 0.02)
grep -q "SAMPLED" <<<"$text" || { echo "the text report does not say SAMPLED"; exit 1; }
grep -q "result not checked (sampled)" <<<"$text" || { echo "the text report checks a sampled result"; exit 1; }
for bad in "0" "150%" "x" "1.5"; do
  "$here/expect_usage_error.sh" "$tgsim" run transpose_shared --sample "$bad"
done
"$here/expect_usage_error.sh" "$tgsim" run transpose_shared --sample 2% --groups 0/2
# --sample auto, the default: seed 004's int matmul at n=1000 is sampled and says so; a small
# launch stays exact (no "sampled", the result checked); off runs whole.
json=$("$tgsim" run int_matmul_global --json)
jq -e '.sampled.auto == true and .sampled.groups_simulated <= 6 and .correct == null
       and .counters.global.load.thread_accesses == 2000000000' <<<"$json" >/dev/null ||
  { echo "seed 004 at n=1000 is not sampled by default:"; jq 'del(.sites)' <<<"$json" | head -40; exit 1; }
text=$("$tgsim" run int_matmul_global --threads 2)
grep -q "sampled by --sample auto" <<<"$text" || { echo "the text report does not say --sample auto sampled"; exit 1; }
for s in auto off 100%; do
  json=$("$tgsim" run matmul_tiled16 --n 256 --sample "$s" --json)
  jq -e '(has("sampled") | not) and .correct == true' <<<"$json" >/dev/null ||
    { echo "a small launch with --sample $s is not exact"; exit 1; }
done
"$here/expect_usage_error.sh" "$tgsim" run transpose_shared --sample automatic
echo "ok: sampled runs say so"
