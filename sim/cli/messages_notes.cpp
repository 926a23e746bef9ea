// The library's English that the command says in Japanese by matching it (i18n.cpp
// localize_error): the checker's equal-value note, the compiler's null-store warning, the
// tables of `tgsim validate` and `tgsim predict` ("table." entries), and the pieces that fill
// their slots ("part." entries, matched only inside a slot). Each English side is the text as
// the library words it, "{0}".."{9}" standing for its variable parts. Part of the one catalog
// (messages.hpp).
#include "messages.hpp"

namespace tgsim::cli {

const std::vector<Message>& note_messages() {
  static const std::vector<Message> m = {
      // The checker's note on equal values stored without order (sim/src/analyses/checker/checker.cpp).
      {"note.same_value",
       "equal values stored by two threads without order (information, not a finding): {0} store the same bytes to "
       "{1} at {2} and {3} ({4} pair(s)); {5}: with other data this is a write-after-write race (--same-value-waw "
       "or LaunchConfig::report_same_value_waw reports it as one)",
       "順序づけのない 2 つのスレッドが同じ値をストアしました（指摘ではなく情報です）: {0} が {2} と {3} で{1} "
       "に同じバイトを書きました（{4} 組）。{5}。別のデータでは書き込み後の書き込み（WAW）の競合になります"
       "（--same-value-waw か LaunchConfig::report_same_value_waw で指摘として報告します）"},
      {"part.same_value.block", "thread {0} and thread {1} of block {2}", "スレッドグループ {2} のスレッド {0} と {1}"},
      {"part.same_value.grid", "block {0} thread {1} and block {2} thread {3}",
       "スレッドグループ {0} のスレッド {1} とスレッドグループ {2} のスレッド {3}"},
      {"part.same_value.shared", "shared {0}", "共有メモリの {0}"},
      {"part.same_value.global", "global {0}", "グローバルメモリの {0}"},
      {"part.same_value.data",
       "a stored value is not a constant of the program, so they are equal in this run only if the data it was "
       "computed from is",
       "ストアした値はプログラムの定数ではないので、等しいのは、この実行でその元のデータが等しかったからにすぎません"},
      {"part.same_value.unknown",
       "tgsim cannot tell whether the stored values are constants of the program (only the plain stores of a "
       "kernel file say); if they come from data, they are equal in this run only if that data is",
       "ストアした値がプログラムの定数かどうか、tgsim にはわかりません（わかるのはカーネルファイルのふつうのストア"
       "だけです）。データから計算した値なら、等しいのは、この実行でそのデータが等しかったからにすぎません"},
      // run --json: the kernel printed more than "printed" holds (file_kernel.cpp).
      {"note.printed_json", "the kernel printed {0} bytes; \"printed\" holds the first {1} (run without --json for all of it)",
       "カーネルは {0} バイトを出力しました。`printed` に入れたのは最初の {1} バイトです（すべて見るには --json "
       "なしで実行してください）"},
      // The compiler's warning where it deletes a store through a null pointer (sim/pass/null_store.cpp).
      {"note.null_store",
       "{0}: warning: store through a null pointer: undefined behaviour, which the compiler deletes (on a GPU, an "
       "illegal address); where it leaves an `unreachable`, tgsim reports a trap there when the kernel runs, else "
       "it cannot report it",
       "{0}: 警告: ヌルポインタを通したストアです。未定義動作なので、コンパイラはこのストアを消します（GPU では不正な"
       "アドレスへのアクセスです）。コンパイラが `unreachable` を残したところでは、カーネルを実行したときに tgsim "
       "がトラップとして報告しますが、残さなかったところは報告できません"},
      // tgsim bench --hipcpu PROGRAM (bench.cpp).
      {"usage.hipcpu_run", "--hipcpu '{0}' did not run under taskset or printed no seconds=",
       "--hipcpu '{0}' は taskset の下で動かなかったか、seconds= を出力しませんでした"},
      // A list in a sentence: ", " in English, "、" in Japanese (schedules, measured variants).
      {"list.sep", ", ", "、"},
      // tgsim validate (sim/validation/validate.cpp format_table).
      {"table.validate.head", "tgsim vs {0} (driver {1}, Nsight Compute {2})",
       "tgsim と {0} の比較（ドライバ {1}、Nsight Compute {2}）"},
      {"table.validate.compared1", "compared: SASS-level instruction, request, sector, wavefront, BAR, SHFL, atomic and",
       "比べる値（SASS レベルの命令、リクエスト、セクタ、ウェーブフロント、BAR、SHFL、アトミック、"},
      {"table.validate.compared2", "constant-replay counts must be equal;",
       "定数メモリのリプレイの回数）は、すべて等しくなければなりません。"},
      {"table.validate.info", "(info) rows are hardware bank-conflict counters, which include arbitration wavefronts",
       "（参考）の行はハードウェアのバンクコンフリクトのカウンタで、調停によるウェーブフロントも数えています"},
      {"table.validate.result", "result {0} in tgsim, {1} on the H100", "結果: tgsim は{0}、H100 は{1}"},
      {"part.validate.correct", "correct", "正解"},
      {"part.validate.wrong", "WRONG", "不正解"},
      {"table.validate.equal", "equal", "一致"},
      {"table.validate.different", "DIFFERENT", "不一致"},
      {"table.validate.info_row", "(info)", "（参考）"},
      {"table.validate.missing", "{0}: NOT IN THE FIXTURE", "{0}: 記録にありません"},
      {"table.validate.all_equal", "all compared counters equal", "比べたカウンタはすべて一致しました"},
      {"table.validate.mismatch", "MISMATCH", "一致しないカウンタがあります"},
      // tgsim predict (sim/validation/predict.cpp format_prediction).
      {"table.predict.cache", "Cache counters, tgsim vs H100 (Nsight Compute), at the fixture's sizes",
       "キャッシュのカウンタ: 記録のサイズでの tgsim と H100（Nsight Compute）の比較"},
      {"table.kernel", "kernel", "カーネル"},
      {"table.counter", "counter", "カウンタ"},
      {"table.error", "error", "誤差"},
      {"table.bound", "bound", "律速"},
      {"table.measured", "measured", "実測"},
      {"table.predict.time", "Time estimate vs H100 timings (counters simulated at n=sim, scaled to n)",
       "時間の推定と H100 の実測（カウンタは n=sim でシミュレーションし、n に換算）"},
      {"table.predict.speedups", "Speedups (t(first) / t(second)), measured vs predicted",
       "速度比（1 つ目の時間 / 2 つ目の時間）: 実測と予測"},
      {"table.predict.device",
       "On {0} (seed 001's measurements; simulated at n={1} under --profile {2}, scaled; unified load path rule):",
       "{0} での比較（seed 001 の実測。--profile {2} で n={1} をシミュレーションして換算。統合ロードパスの規則）:"},
      {"table.predict.wrong_order", "WRONG ORDER", "速い順が逆"},
      {"table.predict.misses", "model misses: beyond {0}", "モデルが外れた（誤差が {0} を超える）"},
      {"table.predict.not_modelled",
       "(Not modelled: the L2's merging of requests of several SMs, so matmul L2 reads are an upper\n"
       " bound; clock changes and timing effects. Times at n above the simulated size are scaled.)",
       "（モデルにないもの: 複数の SM のリクエストを L2 がまとめること（そのため matmul の L2 読み込みは\n"
       "上限です）、クロックの変化、タイミングの効果。シミュレーションしたサイズより大きい n の時間は換算した値です）"},
  };
  return m;
}

}  // namespace tgsim::cli
