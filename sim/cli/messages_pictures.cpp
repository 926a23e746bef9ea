// The messages of the pictures of `tgsim explain` (explain.cpp, svg.cpp, shuffle_picture.cpp):
// part of the one catalog (messages.hpp), kept apart to keep each file small.
#include "messages.hpp"

namespace tgsim::cli {

const std::vector<Message>& picture_messages() {
  static const std::vector<Message> m = {
      // Picture titles and the sweep chart's labels (explain.cpp).
      {"pic.title", "{0}: {1} at {2}", "{0}: {2} の {1}"},
      {"pic.and_padded", ", and padded", "、とパディング版"},
      {"pic.file_padded", " (re-run: {0} -> {1} conflict wavefronts)",
       "（再実行: バンクコンフリクトのウェーブフロント {0} -> {1}）"},
      {"pic.shuffle.title", "{0}: the shuffles of one warp, as they ran", "{0}: 1 つのワープが実行したシャッフル"},
      {"pic.shuffle.note", "{0} SHFL in this launch; warp {1} of block {2} ran {3} shuffles in {4} steps",
       "この起動の SHFL は {0} 回。スレッドグループ {2} のワープ {1} は {4} 段で {3} 回シャッフルした"},
      {"pic.shuffle.cut", " (the first {0} steps drawn)", "（最初の {0} 段を描く）"},
      {"pic.sweep.title", "matmul, n={0}: traffic and predicted time per variant ({1})",
       "行列積、n={0}: 版ごとのトラフィックと推定時間（{1}）"},
      {"pic.bar.requests", "load requests", "ロードのリクエスト"},
      {"pic.bar.sectors", "load sectors", "ロードのセクタ"},
      {"pic.bar.l1_hits", "L1 hit sectors", "L1 ヒットのセクタ"},
      {"pic.bar.l2", "L2 sectors", "L2 のセクタ"},
      {"pic.bar.dram", "DRAM bytes", "DRAM のバイト"},
      {"pic.bar.wavefronts", "shared wavefronts", "共有メモリのウェーブフロント"},
      {"pic.bar.ms", "predicted ms", "推定 ms"},
      {"pic.bar.ms_at", "predicted ms (n={0})", "推定 ms（n={0}）"},
      {"pic.measured_h100", "H100 measured at n={0} (tests/hardware/h100.json)",
       "H100 の実測 n={0}（tests/hardware/h100.json）"},
      // The pictures' texts (svg.cpp).
      {"svg.sub.shared", "{0} active lanes, {1}-byte {2}: {3} {4} (ideal {5}, {6} bank conflicts){7}",
       "動いているレーン {0}、{1} バイトの{2}: {3} {4}（理想 {5}、バンクコンフリクト {6}）{7}"},
      {"svg.sub.global", "{0} active lanes, {1}-byte global access: 1 request, {2} {3} of {4} bytes",
       "動いているレーン {0}、{1} バイトのグローバルアクセス: 1 リクエスト、{4} バイトの{3} {2} 個"},
      {"svg.load", "load", "ロード"},
      {"svg.store", "store", "ストア"},
      {"svg.wavefront", "wavefront", "ウェーブフロント"},
      {"svg.wavefronts", "wavefronts", "ウェーブフロント"},
      {"svg.sector", "sector", "セクタ"},
      {"svg.sectors", "sectors", "セクタ"},
      {"svg.assumed", "  [bank layout assumed]", "  [バンク構成は仮定]"},
      {"svg.where", "block {0} (linear), warp {1}; profile {2}",
       "スレッドグループ {0}（1 次元の番号）、ワープ {1}、プロファイル {2}"},
      {"svg.lanes", "lanes", "レーン"},
      {"svg.banks", "banks", "バンク"},
      {"svg.words", "words", "ワード"},
      {"svg.legend.words",
       "Each coloured cell under a bank is one distinct 4-byte word that bank must serve; a bank serves one word per "
       "wavefront, so the tallest stack ({0}) sets the wavefronts of this phase.",
       "バンクの下の色付きのセルは、そのバンクが返すべき別々の 4 バイトのワード 1 つ。バンクは 1 ウェーブフロントに "
       "1 ワードしか返せないので、いちばん高い積み上げ（{0}）がこのフェーズのウェーブフロント数を決める。"},
      {"svg.legend.arrows",
       "Arrow colour = the wavefront that serves the lane (lanes reading the same word share it: broadcast).",
       "矢印の色 = そのレーンに返すウェーブフロント（同じワードを読むレーンは共有する: ブロードキャスト）。"},
      {"svg.legend.sectors",
       "Sectors are numbered from the first one touched ({0}-byte units; 4 sectors = one 128-byte line). Every "
       "distinct sector is one L1 tag lookup and, on a miss, one L2 sector read.",
       "セクタは最初に触れたものから番号を振る（{0} バイト単位、4 セクタ = 128 バイトの行 1 本）。別々のセクタ 1 つ"
       "ごとに L1 のタグ検索が 1 回、ミスすれば L2 のセクタ読み出しが 1 回。"},
      {"svg.bars.scaled", "each group of bars is scaled to its largest value", "棒のグループごとに最大値で目盛りを合わせる"},
      {"svg.measured", "measured", "実測"},
      {"svg.tile.bank", "bank of {0}[row][col] = (row*{1} + col) mod {2}", "{0}[row][col] のバンク = (row*{1} + col) mod {2}"},
      {"svg.tile.lane", "lane {0}: ", "レーン {0}: "},
      {"svg.tile.summary", "{0} {1} for {2} lanes: {3} {4} ({5} bank conflicts)",
       "{2} レーンに {1} {0} 個: {3} {4}（バンクコンフリクト {5}）"},
      {"svg.bank", "bank", "バンク"},
      {"svg.tile.note",
       "Each square is one 4-byte word of the tile, its background hue its bank; a number is the lane of warp {0} "
       "that touches it, coloured by the wavefront that serves it.",
       "1 つの四角がタイルの 4 バイトのワード 1 つで、背景の色合いがそのバンク。数字はそこに触れるワープ {0} の"
       "レーンで、色はそのレーンに返すウェーブフロント。"},
      {"svg.shuffle.end",
       "An arrow runs from the lane whose value is read to the lane that reads it; a lane with no arrow keeps its own "
       "value. Each shuffle is one SHFL per warp per 32-bit word, with no shared memory and no barrier.",
       "矢印は値を読まれるレーンから読むレーンへ向かう。矢印のないレーンは自分の値のまま。シャッフル 1 回は 32 ビットの"
       "ワードごとにワープあたり SHFL 1 回で、共有メモリもバリアも使わない。"},
      // The shuffle steps in words (shuffle_picture.cpp).
      {"shfl.head", "the shuffles of warp {0} of block {1}, as they ran: {2} in {3} steps",
       "スレッドグループ {1} のワープ {0} が実行したシャッフル: {3} 段で {2} 回"},
      {"shfl.head_cut", "the shuffles of warp {0} of block {1}, as they ran: {2} in all, the first {4} in {3} steps",
       "スレッドグループ {1} のワープ {0} が実行したシャッフル: 全部で {2} 回、最初の {4} 回は {3} 段"},
      {"shfl.more", "... and {0} more steps", "……ほかに {0} 段"},
      {"shfl.comma", ", ", "、"},
      {"shfl.colon", ": ", ": "},
      {"shfl.sep", "; ", "。"},
      {"shfl.end", "", "。"},
      {"shfl.lines", " ({0})", "（{0}）"},
      {"shfl.arg.offset", "offset {0}", "オフセット {0}"},
      {"shfl.arg.xor", "lane mask {0}", "レーンマスク {0}"},
      {"shfl.arg.idx", "source lane {0}", "読むレーン {0}"},
      {"shfl.per_lane.offset", "an offset per lane", "レーンごとに違うオフセット"},
      {"shfl.per_lane.xor", "a lane mask per lane", "レーンごとに違うレーンマスク"},
      {"shfl.per_lane.idx", "a source lane per lane", "レーンごとに違う読むレーン"},
      {"shfl.width", "width {0}", "幅 {0}"},
      {"shfl.reads", "lanes {0} read lane {1}", "レーン {0} がレーン {1} の値を読む"},
      {"shfl.reads1", "lane {0} reads lane {1}", "レーン {0} がレーン {1} の値を読む"},
      {"shfl.reads_segment", "lanes {0} read lane {1} of their {2}-lane segment",
       "レーン {0} が {2} レーンずつの区切りの中でレーン {1} の値を読む"},
      {"shfl.reads_pairs", "lanes read (reader<-read): {0}", "読むレーン<-読まれるレーン: {0}"},
      {"shfl.keep", "lanes {0} keep their own value", "レーン {0} は自分の値のまま"},
      {"shfl.keep1", "lane {0} keeps its own value", "レーン {0} は自分の値のまま"},
      {"shfl.poison", "lanes {0} read a lane that does not take part (a poison value)",
       "レーン {0} は参加していないレーンを読む（不定な値になる）"},
      {"shfl.poison1", "lane {0} reads a lane that does not take part (a poison value)",
       "レーン {0} は参加していないレーンを読む（不定な値になる）"},
      {"shfl.out", "lanes {0} do not take part", "レーン {0} は参加しない"},
      {"shfl.out1", "lane {0} does not take part", "レーン {0} は参加しない"},
  };
  return m;
}

}  // namespace tgsim::cli
