#include "report_words.hpp"

#include "i18n.hpp"

namespace tgsim::cli {

namespace {

ReportWords japanese() {
  ReportWords w;
  w.kernel = "カーネル";
  w.grid = "グリッド";
  w.block = "スレッドグループ";
  w.sampled = "サンプリング";
  w.sampled_exact = "サンプリング: スレッドグループ {1} 個のうち {0} 個をシミュレーション（{2}%）。グループが少ない"
                    "のでサンプリングせず、下のカウンタは正確な値";
  w.sampled_estimates = "サンプリング: スレッドグループ {1} 個のうち {0} 個をシミュレーション（{2}%）。下のカウンタ"
                        "は起動全体の推定値で、95% 信頼区間は次のとおり:";
  w.sampled_auto = "--sample auto でサンプリング: 全体を走らせるとスレッドのアクセスは約 {0} 回。層は {1} 個（うち {2} 個は"
                   "グループの通る経路が変わるところで分けた。パイロットのグループ {3} 個）。--sample off で全体を走らせる";
  w.thread_accesses = "スレッドアクセス";
  w.warp_instructions = "ワープ命令";
  w.sectors = "セクタ";
  w.sectors_per_request = "セクタ/要求";
  w.wavefronts = "ウェーブフロント";
  w.conflicts = "コンフリクト";
  w.global_load = "グローバル読み込み";
  w.global_store = "グローバル書き込み";
  w.shared_load = "共有メモリ読み込み";
  w.shared_store = "共有メモリ書き込み";
  w.global_atomics = "グローバルアトミック: ワープ命令 {0}、スレッド操作 {1}、セクタ {2}";
  w.shared_atomics = "共有メモリアトミック: ワープ命令 {0}、スレッド操作 {1}、ウェーブフロント {2}";
  w.constant_loads = "定数メモリ読み込み: ワープ命令 {0}、直列化されたアクセス {1}（異なるアドレスごとに 1 回）";
  w.barriers = "バリア（ワープごとの BAR）: {0}";
  w.simd_reductions = "SIMD リダクション";
  w.memory = "メモリ（{0}）: L1 ヒット {1}（読み込みセクタ {2} のうち）、L2 読み込み {3} / 書き込み {4} セクタ、"
             "DRAM 読み込み {5} / 書き込み {6} バイト";
  w.by_site = "ソースの場所ごと:";
  w.site_instructions = "命令";
  w.site_sectors = "セクタ";
  w.site_wavefronts = "ウェーブフロント";
  w.site_conflicts = "コンフリクト";
  w.site_serialised = "直列化";
  w.site_count = "回数";
  w.findings_none = "指摘: なし";
  w.findings = "指摘: {0} 件";
  w.finding = "{0}（{1}）[{2}]、例: スレッドグループ {3}: {5}";  // {5} names the thread (finding_example)
  w.and_word = " と ";
  w.time = " 回";
  w.times = " 回";
  w.example = finding_example;
  return w;
}

}  // namespace

void set_progress(LaunchConfig& cfg, bool on) {
  cfg.progress = on;
  cfg.progress_tenth = tr("progress.tenth");
  cfg.progress_live = tr("progress.live");
}

ReportWords report_words() { return lang() == Lang::kJa ? japanese() : ReportWords{}; }

}  // namespace tgsim::cli
