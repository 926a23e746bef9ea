// The usage errors of the tgsim command in Japanese (error_line, i18n.hpp): each entry's English
// side is the error as the code words it, "{0}".."{9}" standing for its variable parts (a file, an
// ARG, a number); an error that matches one is said with the Japanese side, the parts kept.
// Part of the one catalog (messages.hpp).
#include "messages.hpp"

namespace tgsim::cli {

const std::vector<Message>& error_messages() {
  static const std::vector<Message> m = {
      // The line around every error.
      {"error.prefix", "tgsim: error: ", "tgsim: エラー: "},
      {"error.see_help", " (see tgsim --help)", "（tgsim --help を参照）"},
      // CLI11's own parse errors (main.cpp).
      {"usage.cli.extra", "The following argument was not expected: {0}", "予期しない引数があります: {0}"},
      {"usage.cli.extras", "The following arguments were not expected: {0}", "予期しない引数があります: {0}"},
      {"usage.cli.required", "{0} is required", "{0} が必要です"},
      {"usage.cli.requires", "{0} requires {1}", "{0} には {1} が必要です"},
      {"usage.cli.missing", "{0}: {1} required {2} missing", "{0} に {2} の値が {1} 個必要です"},
      {"usage.cli.convert", "Could not convert: {0} = {1}", "{0} の値 {1} を解釈できません"},
      {"usage.cli.value", "{0}: Value {1} not in range {2}", "{0} の値 {1} が範囲 {2} の外です"},
      {"usage.cli.excludes", "{0} excludes {1}", "{0} と {1} は一緒に使えません"},
      {"usage.cli.subcommand", "A subcommand is required", "サブコマンドが必要です"},
      {"usage.cli.subcommands", "Requires at most 1 subcommands", "サブコマンドは 1 つまでです"},
      // A kernel FILE's launch (file_kernel.cpp).
      {"usage.params", "{0} takes {1} parameter(s), {2} ARG(s) given: {3}",
       "{0} の引数は {1} 個ですが、ARG が {2} 個あります: {3}"},
      {"usage.grid", "--grid is required (threadgroups, X[,Y[,Z]])",
       "--grid が必要です（スレッドグループの数、X[,Y[,Z]]）"},
      {"usage.block", "--block is required (threads per group, X[,Y[,Z]])",
       "--block が必要です（スレッドグループあたりのスレッド数、X[,Y[,Z]]）"},
      {"usage.dim3", "bad {0} '{1}' (X[,Y[,Z]], each at least 1)", "{0} '{1}' が正しくありません（X[,Y[,Z]]、どれも 1 以上）"},
      {"usage.no_file", "no such kernel file '{0}'", "カーネルのファイル '{0}' はありません"},
      {"usage.directory", "'{0}' is a directory, not a kernel file", "'{0}' はフォルダで、カーネルのファイルではありません"},
      {"usage.no_global", "{0} defines no __global__ kernel", "{0} には __global__ カーネルがありません"},
      {"usage.several", "{0} has several kernels; choose one with --kernel:{1}",
       "{0} にはカーネルがいくつかあります。--kernel で 1 つ選んでください:{1}"},
      {"usage.no_kernel", "no kernel '{0}' in {1}; it has:{2}", "{1} にカーネル '{0}' はありません。あるのは:{2}"},
      {"usage.no_kernel_params", "no kernel '{0}' with parameters ({1}) in {2}; it has:{3}",
       "{2} に引数が ({1}) のカーネル '{0}' はありません。あるのは:{3}"},
      {"usage.count", "bad element count '{0}' in ARG '{1}' (1 .. 2^34)",
       "ARG '{1}' の要素数 '{0}' が正しくありません（1 から 2^34 まで）"},
      {"usage.cast", "bad ARG '{0}' (a cast is (T*)TYPE[COUNT])", "ARG '{0}' が正しくありません（キャストは (T*)TYPE[COUNT] の形）"},
      {"usage.buffer", "bad buffer ARG '{0}' (TYPE[COUNT], e.g. float[1024])",
       "バッファの ARG '{0}' が正しくありません（TYPE[COUNT] の形、例 float[1024]）"},
      {"usage.arg", "bad ARG '{0}' (a buffer TYPE[COUNT] or a scalar TYPE:VALUE)",
       "ARG '{0}' が正しくありません（バッファは TYPE[COUNT]、スカラーは TYPE:VALUE）"},
      {"usage.elem_type", "unknown element type '{0}' in ARG '{1}'", "ARG '{1}' の要素の型 '{0}' は使えません"},
      {"usage.scalar_type", "unknown scalar type '{0}' in ARG '{1}'", "ARG '{1}' のスカラーの型 '{0}' は使えません"},
      {"usage.value", "bad {0} value '{1}' in ARG '{2}'", "ARG '{2}' の {0} の値 '{1}' が正しくありません"},
      {"usage.not_pointer", "ARG {0} '{1}' is a buffer, but parameter {2} ({3}) is not a pointer",
       "ARG {0} '{1}' はバッファですが、引数 {2}（{3}）はポインタではありません"},
      {"usage.buffer_type", "ARG {0} '{1}' is a {2} buffer, but parameter {3} is {4}: give {5}[...], or write '({6}*){7}' to bind it anyway",
       "ARG {0} '{1}' は {2} のバッファですが、引数 {3} は {4} です。{5}[...] を渡すか、そのまま渡すなら '({6}*){7}' と書いてください"},
      {"usage.scalar_mismatch", "ARG {0} '{1}' is {2}, but parameter {3} is {4}",
       "ARG {0} '{1}' は {2} ですが、引数 {3} は {4} です"},
      {"usage.init", "bad initialiser '{0}' in ARG '{1}' (=0, =iota, =@FILE or =@FILE+uninit)",
       "ARG '{1}' の初期値 '{0}' が正しくありません（=0、=iota、=@FILE、=@FILE+uninit のどれか）"},
      {"usage.read", "cannot read '{0}' for ARG '{1}'", "'{0}' を読めません（ARG '{1}'）"},
      {"usage.short_file", "'{0}' holds {1} bytes, but ARG '{2}' needs {3} ({4} x {5}); =@FILE+uninit leaves the rest uninitialised",
       "'{0}' は {1} バイトですが、ARG '{2}' には {3} バイト（{4} x {5}）が必要です。=@FILE+uninit なら残りを初期化せずに残します"},
      {"usage.count_mode", "bad --count '{0}' (hardware or source)", "--count '{0}' が正しくありません（hardware か source）"},
      {"usage.include", "-I '{0}' is not a folder", "-I '{0}' はフォルダではありません"},
      {"usage.pre_include", "--pre-include '{0}' is not a file", "--pre-include '{0}' はファイルではありません"},
      {"usage.compile", "{0} did not compile", "{0} をコンパイルできませんでした"},
      // Catalog kernels and options (run, check, explain).
      {"usage.profile", "unknown profile '{0}' (nvidia-h100, apple-m3, amd-cdna)",
       "プロファイル '{0}' はありません（nvidia-h100、apple-m3、amd-cdna）"},
      {"usage.sample", "bad --sample '{0}': a share of the threadgroups, above 0 and at most 1 (0.02) or 100% (2%)",
       "--sample '{0}' が正しくありません: スレッドグループの割合で、0 より大きく 1 以下（0.02）か 100% 以下（2%）"},
      {"usage.sample_groups", "--sample and --groups do not go together: sample the whole launch",
       "--sample と --groups は一緒に使えません。起動全体をサンプリングしてください"},
      {"usage.file_args", "ARGs, --grid and --block go with a kernel FILE (.cu, .metal), not '{0}'",
       "ARG、--grid、--block はカーネルのファイル（.cu、.metal）に使います。'{0}' には使えません"},
      {"usage.nothing_to_draw", "{0} has no global or shared access to draw",
       "{0} には描けるグローバルメモリや共有メモリのアクセスがありません"},
      {"usage.no_instruction", "no warp instruction of {0} at {1}", "{1} に {0} のワープ命令はありません"},
      {"usage.cannot_write", "cannot write {0}", "{0} に書き出せません"},
      {"usage.out_of_memory", "out of memory (a buffer larger than this machine can hold?)",
       "メモリが足りません（このマシンに収まらない大きさのバッファかもしれません）"},
      {"usage.schedule", "unknown --schedule '{0}' ({1})", "--schedule '{0}' は使えません（{1}）"},
      {"usage.save_expect", "'{0}' names no buffer parameter (the buffers: {1})",
       "'{0}' という名前のバッファの引数はありません（バッファは {1}）"},
  };
  return m;
}

}  // namespace tgsim::cli
