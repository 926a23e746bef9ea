// The messages of the tgsim command. Japanese uses the seeds' terms: スレッドグループ (threadgroup),
// ワープ (warp), 共有メモリ (shared memory), グローバルメモリ (global memory), バンクコンフリクト
// (bank conflict), コアレッシング (coalescing), セクタ (sector), ウェーブフロント (wavefront).
// Placeholders: "{}" the next argument, "{0}".."{9}" a numbered one (i18n.hpp trf).
#include "messages.hpp"

namespace tgsim::cli {

// Every message in English and Japanese: a table, as long as the command has sentences.
const std::vector<Message>& messages() {
  static const std::vector<Message> m = [] {
    std::vector<Message> v = {
      // Usage errors and suggestions.
      {"err.unknown_kernel", "unknown kernel '{}'", "カーネル '{}' はありません"},
      {"err.did_you_mean", "did you mean {}?", "もしかして {} ですか？"},
      {"err.see_list", "tgsim list shows them all", "一覧は tgsim list で見られます"},
      {"err.sep", "; ", "。"},
      {"err.lang", "unknown language '{}' (en, ja)", "言語 '{}' は使えません（en、ja）"},
      // What the counts of a kernel file count (--count).
      {"count.hardware",
       "counted as the GPU executes: adjacent accesses nvcc merges are one wider instruction, loops run as nvcc unrolls them (--count source: one per source access, in source order)",
       "GPU が実行するとおりに数えています: nvcc がまとめる隣り合うアクセスは幅の広い 1 命令、ループは nvcc が展開するとおりに実行します（--count source でソースのアクセスごと、ソースの順）"},
      {"count.source",
       "counted per source access in source order (--count source): the GPU executes fewer, wider instructions where nvcc merges adjacent accesses, and unrolled loops in nvcc's order",
       "ソースのアクセスごとにソースの順で数えています（--count source）: nvcc が隣り合うアクセスをまとめると GPU の命令はより少なく幅が広くなり、展開したループは nvcc の順に実行されます"},
      // tgsim check and its findings.
      {"check.header", "tgsim check {0}  n {1}  grid {2}  block {3}",
       "tgsim check {0}  n {1}  グリッド {2}  スレッドグループ {3}"},
      {"check.all_schedules", "all schedules", "すべてのスケジュール"},
      {"check.schedule", "schedule {}", "スケジュール {}"},
      {"check.no_findings", "no findings", "指摘なし"},
      {"check.file_same", "the buffers are equal under every schedule ({})",
       "バッファはすべてのスケジュール（{}）で等しい"},
      {"check.findings_none_under", "findings: none (schedules {})", "指摘: なし（スケジュール {}）"},
      {"check.findings_under", "findings: {0} (schedules {1})", "指摘: {0} 件（スケジュール {1}）"},
      {"check.under", "under {}", "スケジュール: {}"},
      {"check.element_values", "{0}[{1}] is {2} under {3}, {4} under {5}",
       "{0}[{1}] は {3} で {2}、{5} で {4}"},
      {"check.schedule_dependent",
       "schedule-dependent result (a finding): {}; no atomic wrote it or came before its store (a race or a "
       "missing barrier?)",
       "スケジュール依存の結果（指摘）: {}。アトミック操作が書いた値でも、アトミック操作の後のストアでもない（競合か、バリアの抜けでは？）"},
      {"check.atomic_order",
       "information: the result depends on the order of atomics: {}; every differing byte was written by "
       "an atomic or stored after one (not a finding)",
       "情報: 結果がアトミック操作の順序に依存する: {}。異なるバイトはすべてアトミック操作か、その後のストアが書いた（指摘ではない）"},
      {"check.finding", "{} finding", "指摘 {} 件"},
      {"check.findings", "{} findings", "指摘 {} 件"},
      {"check.at", "at", "場所"},
      {"check.and", "and", "と"},
      {"check.time", "{} time", "{} 回"},
      {"check.times", "{} times", "{} 回"},
      {"run.estimate", "estimate ({0}): {1} ms, bound by {2}", "推定（{0}）: {1} ms、{2}律速"},
      {"run.estimate_sampled", "estimate ({0}, from the sampled counters): {1} ms, bound by {2}",
       "推定（{0}、サンプリングしたカウンタから）: {1} ms、{2}律速"},
      {"run.result_equals", "n {0}, result equals the CPU reference", "n {0}: 結果は CPU の参照結果と一致"},
      {"run.result_differs", "n {0}, result DIFFERS FROM the CPU reference", "n {0}: 結果は CPU の参照結果と一致しない"},
      {"run.result_sampled", "n {0}, result not checked (sampled)", "n {0}: サンプリングしたので結果は確かめていない"},
      {"check.example", "e.g. block {0}: {1}", "例: スレッドグループ {0}: {1}"},
      {"check.result_equals", "result under {}: equals the CPU reference",
       "スケジュール {} の結果: CPU の参照結果と一致"},
      {"check.result_differs", "result under {}: DIFFERS FROM the CPU reference",
       "スケジュール {} の結果: CPU の参照結果と一致しない"},
      {"check.agree", "schedules agree on the findings", "指摘はスケジュールによらず同じ"},
      {"check.disagree", "schedules DISAGREE on the findings", "指摘がスケジュールによって違う"},
      {"check.depends", "; the result depends on the schedule (a missing barrier shows)",
       "。結果がスケジュールに依存する（バリアの抜けが表に出ている）"},
      {"check.clean", "clean", "問題なし"},
      {"check.not_clean", "NOT clean", "問題あり"},
      // A finding's example in words (check.cpp finding_example; English prints the
      // simulator's own message, these English texts are the same sentences in short).
      // --expect's line per buffer (buffers_out.cpp): {0} the buffer, {1} the file, {2} its elements, {3} rtol;
      // a difference: {1} the first differing index, {2} its value, {3} the file, {4} the file's value,
      // {5} the differing elements, {6} all, {7} rtol.
      {"expect.equal", "expect: {0} equals {1} ({2} elements)", "期待値: {0} は {1} と一致（要素 {2} 個）"},
      {"expect.equal_rtol", "expect: {0} equals {1} ({2} elements, rtol {3})",
       "期待値: {0} は {1} と一致（要素 {2} 個、rtol {3}）"},
      {"expect.differs", "expect (a finding): {0}[{1}] is {2}, {3} has {4}; {5} of {6} elements differ",
       "期待値（指摘）: {0}[{1}] は {2} ですが、{3} では {4}。要素 {6} 個のうち {5} 個が違います"},
      {"expect.differs_rtol", "expect (a finding): {0}[{1}] is {2}, {3} has {4}; {5} of {6} elements differ (rtol {7})",
       "期待値（指摘）: {0}[{1}] は {2} ですが、{3} では {4}。要素 {6} 個のうち {5} 個が違います（rtol {7}）"},
      // A partial report (run --groups I/N) and tgsim merge's summary (partial.cpp, merge.cpp).
      {"partial.line",
       "partial: slice {0} of {1}, threadgroups {2} to {3} (of {4}); the counters are this slice's (`tgsim merge` sums the --json reports of all slices)",
       "部分レポート: {1} 個に分けたうちのスライス {0}、スレッドグループ {2} から {3} まで（全 {4} 個）。カウンタはこのスライスの分です（`tgsim merge` ですべてのスライスの --json レポートを合計できます）"},
      {"merge.summary", "merged from {0} slices; not exact:{1}; not covered: hazards between slices, the result's check",
       "スライス {0} 個を合計。正確でない値:{1}。扱わないもの: スライスをまたぐハザード、結果の確認"},
      {"merge.none", " none", " なし"},
      {"check.who", "thread {0} (warp {1} lane {2})", "スレッド {0}（ワープ {1} レーン {2}）"},
      {"check.who2", "thread {0}", "スレッド {0}"},
      {"check.who2_group", "thread {1} of block {0}", "スレッドグループ {0} のスレッド {1}"},
      {"check.same_word", "the same word", "同じワード"},
      {"check.ex.raw", "{0} stores {2} at {1}, {3} loads it at {4}; ",
       "{0} が {1} で {2} に書き込み、{3} が {4} で読み出す。"},
      {"check.ex.war", "{0} loads {2} at {1}, {3} stores it at {4}; ",
       "{0} が {1} で {2} を読み出し、{3} が {4} で書き込む。"},
      {"check.ex.waw", "{0} stores {2} at {1}, {3} stores it at {4}; ",
       "{0} が {1} で {2} に書き込み、{3} も {4} で書き込む。"},
      {"check.sep.barrier", "no barrier between them", "間にバリアがない"},
      {"check.sep.device", "the threadgroup_barrier between them orders no device memory (its flags lack mem_flags::mem_device)",
       "間の threadgroup_barrier はデバイスメモリの順序を保証しない（フラグに mem_flags::mem_device がない）"},
      {"check.sep.syncwarp", "no __syncwarp between them: lanes of a warp are unordered",
       "間に __syncwarp がない（同じワープのレーンの間にも順序はない）"},
      {"check.sep.grid", "threadgroups of one launch are unordered",
       "1 回の起動のスレッドグループの間には順序がない"},
      {"check.ex.uninitialized", "{0} loads {2} at {1} before anything stored to it",
       "{0} が {1} で、まだ何も書かれていない {2} を読み出す"},
      {"check.ex.out_of_bounds", "{0} accesses outside its array or buffer at {1}",
       "{0} が {1} で配列またはバッファの範囲外にアクセスする"},
      {"check.ex.barrier_divergence", "{0} does not reach the barrier at {1} with the others",
       "{0} が {1} のバリア（または __syncwarp）にほかのスレッドと一緒に到達しない"},
      {"check.ex.warp_collective", "{0} calls a shuffle or vote at {1} with a wrong or mismatched mask",
       "{0} が {1} で、マスクが自分を含まないかレーン間で食い違うシャッフルまたは投票を呼ぶ"},
      {"check.ex.constant_write", "{0} stores to __constant__ memory at {1} (the store is dropped)",
       "{0} が {1} で __constant__ メモリに書き込む（書き込みは捨てられる）"},
      {"check.ex.use_after_free", "{0} accesses a destroyed buffer at {1} (dropped; a load yields 0)",
       "{0} が {1} で破棄されたバッファにアクセスする（アクセスは捨てられ、ロードは 0 になる）"},
      {"check.ex.watchdog", "{0} made too many accesses between barriers at {1}; its group was ended",
       "{0} が {1} でバリアの間にアクセスしすぎた（無限ループの疑い）。そのスレッドグループは打ち切られた"},
      {"check.ex.watchdog_spin", "{0} waits at {1} on an address that no thread that can still run sets; its group was ended",
       "{0} が {1} で、まだ動けるどのスレッドも書き換えないアドレスを待ち続けている（GPU ではハングする）。そのスレッドグループは打ち切られた"},
      {"check.ex.unsupported", "{0} uses a feature tgsim does not model at {1}",
       "{0} が {1} で tgsim がモデル化していない機能を使う"},
      {"check.ex.assert", "{0} failed an assert() at {1}; the thread ended and the launch failed",
       "{0} が {1} の assert() に失敗した。そのスレッドは終了し、起動は失敗した"},
      {"check.ex.trap", "{0} trapped at {1}; the thread ended and the launch failed",
       "{0} が {1} でトラップした。そのスレッドは終了し、起動は失敗した"},
      {"check.ex.integer_division", "{0} divides an integer by zero (or INT_MIN by -1) at {1}",
       "{0} が {1} で整数を 0 で（または INT_MIN を -1 で）割る"},
      {"check.ex.misaligned", "{0} accesses memory at an address that is not a multiple of the access's size at {1}",
       "{0} が {1} でアクセスの大きさの倍数でないアドレスにアクセスする"},
      {"finding.unsupported", "", "未対応の機能: tgsim がモデル化していない CUDA または Metal の機能"},
      {"finding.assert", "", "アサーション失敗: カーネル内の assert() が偽になった（GPU では cudaErrorAssert）"},
      {"finding.trap", "", "トラップ: __trap()、asm(\"trap;\")、__brkpt() または abort()（GPU では起動失敗）"},
      {"finding.integer-division", "", "整数除算: 0 による除算、または INT_MIN / -1（GPU は不定の値を返して続行する）"},
      {"finding.misaligned-access", "",
       "ミスアラインアクセス: N バイトのアクセスのアドレスが N の倍数でない（GPU では起動が止まる: cudaErrorMisalignedAddress）"},
      {"finding.out-of-bounds", "", "範囲外アクセス: 確保したバッファの外を読み書きしている"},
      {"finding.barrier-divergence", "",
       "バリアの分岐: スレッドグループの一部のスレッドだけが __syncthreads（または __syncwarp）に到達する"},
      {"finding.raw-hazard", "",
       "RAW ハザード: 書き込みの後の読み出しの間にバリアがない（別のスレッドの書いた共有メモリを早く読みすぎる）"},
      {"finding.war-hazard", "",
       "WAR ハザード: 読み出しの後の書き込みの間にバリアがない（まだ読まれている値を上書きする）"},
      {"finding.waw-hazard", "", "WAW ハザード: 2 つのスレッドが同じワードにバリアなしで書き込む"},
      {"finding.warp-sync-raw-hazard", "",
       "ワープ内の RAW ハザード: 同じワープのレーン間でも __syncwarp がなければ順序は保証されない"},
      {"finding.warp-sync-war-hazard", "", "ワープ内の WAR ハザード: __syncwarp で順序をつける必要がある"},
      {"finding.warp-sync-waw-hazard", "", "ワープ内の WAW ハザード: __syncwarp で順序をつける必要がある"},
      {"finding.uninitialized-read", "",
       "未初期化の読み出し: スレッドグループのどのスレッドもまだ書いていない共有メモリのワードを読んでいる"},
      {"finding.warp-collective", "",
       "ワープ集団操作の誤り: シャッフルや投票のマスクが呼び出したレーンを含まない、またはレーン間で食い違う"},
      {"finding.constant-write", "", "定数メモリへの書き込み: __constant__ はカーネルからは読み出し専用"},
      {"finding.use-after-free", "", "解放後の使用: 破棄されたバッファを添字で参照している"},
      {"finding.watchdog", "", "ウォッチドッグ: バリアの間で 1 スレッドのアクセスが多すぎる（無限ループの疑い）"},
      // The tour's frame (its paragraphs are tour.cpp's).
      {"tour.progress", "tgsim tour: [{0}/{1}] {2}", "tgsim tour: [{0}/{1}] {2}"},
      // A launch's progress lines (set_progress): {0} the kernel, {1} percent or groups done, {2} the
      // groups, {3} seconds.
      {"progress.tenth", "tgsim: {0}: {1}% of {2} threadgroups done ({3} s)",
       "tgsim: {0}: スレッドグループ {2} 個の {1}% が終わった（{3} 秒）"},
      {"progress.live", "tgsim: {0}: {1} / {2} threadgroups ({3} s)", "tgsim: {0}: スレッドグループ {1} / {2}（{3} 秒）"},
      {"tour.title", "tgsim tour: the seed kernels, counted as Nsight Compute counts them on an H100",
       "tgsim tour: シードのカーネルを、H100 の Nsight Compute と同じ数え方で数える"},
      {"tour.legend",
       "(global: warp requests and 32-byte sectors; shared: warp instructions, wavefronts and bank conflicts = "
       "wavefronts - ideal; BAR: one per warp per __syncthreads; SHFL: one per warp per 32-bit shuffle; atomics: "
       "warp instructions, shared and global; L1 hit%: global load sectors found in the SM's L1; L2 sect: sectors "
       "L1 reads from and writes to L2; DRAM KB: bytes read and written in DRAM; est. us: the time estimate on {0}; "
       "--wide shows every column)",
       "（ロード・ストア: グローバルメモリへのワープのリクエストと 32 バイトのセクタ。共有ロード・共有ストア・共有メモリ: "
       "ワープ命令とウェーブフロント。バンクコンフリクト = ウェーブフロント - 理想値。バリア: __syncthreads 1 回につき"
       "ワープごとに 1。シャッフル: 32 ビットのシャッフル 1 回につきワープごとに 1。アトミック: 共有メモリとグローバル"
       "メモリのアトミックのワープ命令。L1 ヒット率: グローバルロードのセクタのうち SM の L1 にあったものの割合（%）。"
       "L2 セクタ: L1 が L2 から読み書きしたセクタ。DRAM KB: DRAM で読み書きしたバイト数。推定時間: {0} での推定時間"
       "（µs）。--wide ですべての列を表示）"},
      {"tour.device",
       "Device {0}: {1} SMs (cores), L1 {2} per SM, L2 {3}, clock {4} GHz, up to {5} resident threads per SM; "
       "counters and cache figures are simulated with this geometry, times estimated with its rates.",
       "デバイス {0}: SM（コア）{1} 個、L1 は SM ごとに {2}、L2 {3}、クロック {4} GHz、SM ごとに常駐スレッド最大 {5}。"
       "カウンタとキャッシュの値はこの構成でシミュレーションし、時間はその速度で推定する。"},
      {"tour.col.kernel", "kernel", "カーネル"},
      // The columns of the tour's tables (tour.cpp); a Japanese header in rows, split at \n.
      {"tour.col.n", "n", "n"},
      {"tour.col.ld_req", "ld req", "ロード\nリクエスト"},
      {"tour.col.ld_sectors", "ld sectors", "ロード\nセクタ"},
      {"tour.col.st_sectors", "st sectors", "ストア\nセクタ"},
      {"tour.col.sh_ld_inst", "sh ld inst", "共有\nロード\n命令"},
      {"tour.col.sh_ld_wavef", "sh ld wavef", "共有ロード\nウェーブ\nフロント"},
      {"tour.col.sh_st_wavef", "sh st wavef", "共有ストア\nウェーブ\nフロント"},
      {"tour.col.conflicts", "conflicts", "バンク\nコンフリクト"},
      {"tour.col.bar", "BAR", "バリア"},
      {"tour.col.shfl", "SHFL", "シャッフル"},
      {"tour.col.atomics", "atomics", "アトミック"},
      {"tour.col.l1_hit", "L1 hit%", "L1\nヒット率"},
      {"tour.col.l2_sect", "L2 sect", "L2\nセクタ"},
      {"tour.col.dram_kb", "DRAM KB", "DRAM\nKB"},
      {"tour.col.est_us", "est. us", "推定時間\n（µs）"},
      {"tour.col.correct", "correct", "結果"},
      {"tour.col.sh_wavef", "sh wavef", "共有メモリ\nウェーブ\nフロント"},
      {"tour.correct.yes", "yes", "一致"},
      {"tour.correct.no", "NO", "不一致"},
      {"tour.family1", "1. Tiling and padding (seeds 000, 001, 002)",
       "1. タイリングとパディング（シード 000、001、002）"},
      {"tour.family2", "2. Warps, reductions, atomics, constant memory (seeds 000, 001, 003, 004)",
       "2. ワープ、リダクション、アトミック、定数メモリ（シード 000、001、003、004）"},
      {"tour.numbers_say", "What the numbers say:", "数字から読み取れること:"},
      {"tour.why_tiling",
       "Why tiling helps: a tile is loaded from global memory once and then read TILE times from shared memory, "
       "so global requests fall by the tile width. Why padding helps: shared memory has 32 banks of 4 bytes; a "
       "column of a [32][32] int tile lies in one bank (32-way conflict, 32 wavefronts), a column of [32][33] lies "
       "in 32 banks (1 wavefront).\n",
       "タイリングが効く理由: タイルはグローバルメモリから 1 回だけロードされ、共有メモリからタイル幅の回数だけ"
       "読まれるので、グローバルのリクエストはタイル幅分の 1 になる。パディングが効く理由: 共有メモリは 4 バイトの"
       "バンク 32 個からなる。[32][32] の int タイルの列は 1 つのバンクに並び（32-way のバンクコンフリクト、32 "
       "ウェーブフロント）、[32][33] の列は 32 個のバンクに散らばる（1 ウェーブフロント）。\n"},
      // The tour's seed paragraphs (tour.cpp). Numbers come in as arguments.
      {"tour.p.matmul",
       "\nMatmul, the seed 001 puzzle. Seed 001 expects tiling to cut memory reads 8x; at tile 16 the global load "
       "requests fall {0}x ({1} -> {2}), the tile width, not 8. The time falls far less, because the naive kernel's "
       "reads were cheaper than they look: {3}% of its load sectors hit in the L1 ({4} per {5}; the threads of a "
       "group share rows of A and columns of B). ",
       "\n行列積、シード 001 の謎。シード 001 はタイリングでメモリの読み出しが 8 分の 1 になると見込むが、タイル 16 "
       "ではグローバルロードのリクエストが 1/{0}（{1} -> {2}）、つまりタイル幅の分だけ減る。8 ではない。時間の減り方は"
       "ずっと小さい。naive カーネルの読み出しは見かけより安かったからだ: ロードのセクタの {3}% が L1（{5}ごとに {4}）"
       "にヒットする（スレッドグループのスレッドが A の行と B の列を共有する）。"},
      {"tour.p.matmul.h100",
       "What decides the naive kernel's time is waiting: each warp waits for one load after another. On {0} the "
       "estimate at n=2048 is naive {1} ms, tiled16 {2} ms (H100 measured 5.62 / 2.86 ms); at n=4096 {3} / {4} ms "
       "(measured 80.9 / 22.8 ms). At n=4096 A and B hold 128 MiB, more than the {5} L2{6}: on the H100 the naive "
       "kernel's cost per load doubles between n=2560 and n=3072, where A and B outgrow L2 (tests/hardware/"
       "size_probe), which is why tiling gains 3.5x at n=4096 but 2x at n=2048. ",
       "naive カーネルの時間を決めるのは待ち時間: 各ワープはロードを 1 つずつ待つ。{0} での推定は n=2048 で naive {1} "
       "ms、tiled16 {2} ms（H100 の実測 5.62 / 2.86 ms）、n=4096 で {3} / {4} ms（実測 80.9 / 22.8 ms）。n=4096 では "
       "A と B で 128 MiB になり、{5} の L2 を超える{6}。H100 では A と B が L2 からあふれる n=2560 と n=3072 の間で "
       "naive カーネルのロード 1 回のコストが倍になる（tests/hardware/size_probe）。だからタイリングの効果は n=2048 で "
       "2 倍、n=4096 で 3.5 倍になる。"},
      {"tour.p.matmul.dram", ", so every L1 miss waits for DRAM", "ので、L1 のミスはすべて DRAM を待つ"},
      {"tour.p.matmul.unified",
       "On {0}, seed 001's own device, the estimate at n=2048 is naive {1} ms, tiled16 {2} ms, {3}x (seed 001 "
       "measured 82.9 / 60.7 ms, 1.37x; 1.56x at n=512, 1.18x at n=1024). On Apple GPUs threadgroup memory and the "
       "L1 data cache are one SRAM behind one port, so tiling only trades L1 sectors for threadgroup wavefronts "
       "through the same port: the naive kernel passes {4} global sectors, tiled16 {5} sectors and wavefronts, {6}x "
       "fewer. The model takes load latency as hidden on this profile (up to 3,072 threads per core) and has no "
       "measured M3 latency (docs/hardware-model.md 8.4). ",
       "シード 001 のデバイスである {0} では、n=2048 の推定は naive {1} ms、tiled16 {2} ms、{3} 倍（シード 001 の実測は "
       "82.9 / 60.7 ms で 1.37 倍、n=512 で 1.56 倍、n=1024 で 1.18 倍）。Apple の GPU ではスレッドグループメモリ"
       "（共有メモリ）と L1 データキャッシュが 1 つの SRAM と 1 つのポートを共有するので、タイリングは L1 のセクタを"
       "同じポートを通る共有メモリのウェーブフロントに置き換えるだけ: naive カーネルはグローバルのセクタ {4}、tiled16 "
       "はセクタとウェーブフロント合わせて {5} を通し、その差は {6} 倍。このプロファイルではロードのレイテンシは隠れる"
       "ものとする（コアごとに最大 3,072 スレッド）。M3 のレイテンシの実測はない（docs/hardware-model.md 8.4）。"},
      {"tour.p.matmul.scaled",
       "Times above n={0} are scaled from the counters at n={0}; the L2's merging of requests from several SMs is "
       "not modelled (`tgsim predict`). ",
       "n={0} より大きいサイズの時間は n={0} のカウンタから拡大したもの。複数の SM からのリクエストを L2 がまとめる"
       "効果はモデルにない（`tgsim predict`）。"},
      {"tour.p.matmul.tile32",
       "Tile 32 is not faster than tile 16 at n={0} (estimate {1} vs {2} us): its grid has only {3} groups for {4} "
       "SMs, so {5} SMs idle, while tile 16 has {6} groups. At n=2048 the grids fill every SM and tile 32 wins (H100 "
       "measured 2.65 vs 2.86 ms).",
       "n={0} ではタイル 32 はタイル 16 より速くない（推定 {1} 対 {2} µs）: グリッドのスレッドグループが {3} 個しか"
       "なく、{4} 個の SM のうち {5} 個が遊ぶ。タイル 16 は {6} 個。n=2048 ではグリッドがすべての SM を埋め、タイル 32 "
       "が勝つ（H100 の実測 2.65 対 2.86 ms）。"},
      {"tour.p.transpose",
       "\nTranspose, seed 002. The seed calls the naive transpose's store uncoalesced; in this kernel it is the load "
       "that walks a column: {0} sectors per load request, while the store takes {1} (one full 128-byte line). The "
       "load's cost is L1 work, not DRAM: {2} of {3} load sectors hit in L1. The seed also expects the shared-memory "
       "version to be faster; on the H100 it is slower (442 vs 415 us at n=8192), because s[lx][ly] writes a column "
       "of a [32][32] tile: a 32-way bank conflict, {4} store wavefronts. Padding to [32][33], the seed's own fix, "
       "removes it and wins (326 us). Predicted on {5} at n=8192: naive {6} us, shared {7} us, padded {8} us.\n",
       "\n転置、シード 002。シードは naive な転置のストアがコアレッシングされないと言うが、このカーネルで列をたどるのは"
       "ロードのほう: ロード 1 リクエストに {0} セクタ、ストアは {1}（128 バイトの行 1 本ちょうど）。ロードのコストは "
       "DRAM ではなく L1 の仕事: ロードのセクタ {3} のうち {2} が L1 にヒットする。シードは共有メモリ版のほうが速いとも"
       "見込むが、H100 では遅い（n=8192 で 442 対 415 µs）。s[lx][ly] が [32][32] のタイルの列に書くからで、32-way の"
       "バンクコンフリクト、ストアのウェーブフロント {4}。シード自身の修正である [32][33] へのパディングでこれが消え、"
       "いちばん速くなる（326 µs）。{5} での n=8192 の推定: transpose_naive {6} µs、transpose_shared {7} µs、transpose_padded {8} µs。\n"},
      {"tour.p.int_matmul",
       "\nSeed 004's int matmul. Verdict: the shared-memory version does not pay. a[NT*i_local + k] puts the 32 lanes "
       "of a warp 32 words apart, all in one bank: a 32-way conflict, {0} wavefronts per shared load on average. The "
       "estimate at n={1} is {2} us shared vs {3} us global; the H100 measured 79.6 vs 71.1 ms at n=2048. The fix is "
       "to pad the tile to [NT][NT+1] (index a[(NT+1)*i_local + k]), which puts the 32 lanes in 32 banks. And the "
       "grid is small: ceil(n/NT) groups in one dimension, {4} at n={1} and 32 at n=1000, for {5} SMs, so most of "
       "the GPU idles whichever version runs.\n",
       "\nシード 004 の int 行列積。結論: 共有メモリ版は割に合わない。a[NT*i_local + k] はワープの 32 レーンを 32 "
       "ワードずつ離し、すべて 1 つのバンクに置く: 32-way のバンクコンフリクトで、共有メモリのロード 1 回に平均 {0} "
       "ウェーブフロント。n={1} での推定は共有メモリ版 {2} µs、グローバル版 {3} µs。H100 の実測は n=2048 で 79.6 対 "
       "71.1 ms。修正はタイルを [NT][NT+1] にパディングすること（添字 a[(NT+1)*i_local + k]）で、32 レーンが 32 個の"
       "バンクに散らばる。さらにグリッドが小さい: スレッドグループは 1 次元に ceil(n/NT) 個、n={1} で {4} 個、n=1000 "
       "で 32 個しかなく、SM は {5} 個あるので、どちらの版でも GPU の大半が遊ぶ。\n"},
      {"unit.sm", "SM", "SM"},
      {"unit.core", "core", "コア"},
      {"tour.all_correct", "Every result equals its CPU reference, with no findings.",
       "すべての結果が CPU の参照結果と一致し、指摘はありません。"},
      {"tour.not_all_correct", "Every result does NOT equal its CPU reference.",
       "CPU の参照結果と一致しない結果があります。"},
      // The source view (explain --source / --html).
      {"src.header", "{0} (n {1}), profile {2}: estimate {3} ms, bound by {4}",
       "{0}（n {1}）、プロファイル {2}: 推定 {3} ms、{4}律速"},
      {"src.header.file", "{0}, profile {2}: estimate {3} ms, bound by {4}",
       "{0}、プロファイル {2}: 推定 {3} ms、{4}律速"},
      {"src.share.l1",
       "share: the line's part of the L1 traffic (global sectors + shared wavefronts), the unit that sets the estimate",
       "割合: 推定時間を決めるユニット L1 のトラフィック（グローバルのセクタ + 共有メモリのウェーブフロント）のうち、その行の分"},
      {"src.share.l2",
       "share: the line's part of the L2 traffic (load sectors that miss L1, store sectors), the unit that sets the estimate",
       "割合: 推定時間を決めるユニット L2 のトラフィック（L1 でミスしたロードのセクタ、ストアのセクタ）のうち、その行の分"},
      {"src.share.dram",
       "share: the line's part of the traffic behind L1 (load sectors that miss L1, store sectors); DRAM, the unit that "
       "sets the estimate, is apportioned like it (no per-line DRAM count)",
       "割合: L1 の先へ出るトラフィック（L1 でミスしたロードのセクタ、ストアのセクタ）のうち、その行の分。推定時間を決める "
       "DRAM はこれに比例して割り振る（行ごとの DRAM カウンタはない）"},
      {"src.share.latency",
       "share: the line's part of the global load instructions, whose latency sets the estimate",
       "割合: 推定時間を決めるロードのレイテンシ、つまりグローバルロード命令のうち、その行の分"},
      {"src.fp32", "(fp32 binds: no memory line sets the time; lines ranked by L1 traffic)",
       "（FP32 演算律速: 時間を決めるメモリの行はない。L1 トラフィックで並べる）"},
      {"src.worst", "Worst lines (share of the estimated time)", "コストの大きい行（推定時間に占める割合）"},
      {"src.rules", "What to change", "直すところ"},
      {"src.pictures", "Pictures", "図"},
      {"col.share", "share", "割合"},
      {"col.site", "site", "場所"},
      {"col.requests", "requests", "リクエスト"},
      {"col.req", "requests", "リクエスト"},
      {"col.spr", "sect/req", "セクタ/要求"},
      {"col.spr.short", "s/req", "セクタ/\n要求"},
      {"col.wavefronts", "wavefronts", "ウェーブフロント"},
      {"col.wavefronts.short", "wavefronts", "ウェーブ\nフロント"},
      {"col.conflicts", "conflicts", "コンフリクト"},
      {"col.conflicts.short", "conflicts", "バンク\nコンフリクト"},
      {"col.kind", "access", "アクセス"},
      {"col.line", "line", "行"},
      {"col.heat", "heat", "グラフ"},
      {"col.source", "source", "ソース"},
      // Rules: {0} requests, {1} sectors/request, {2} shared instructions, {3} wavefronts,
      // {4} bank conflicts, {5} wavefronts per shared instruction.
      {"rule.pad.title", "bank conflicts: pad the tile", "バンクコンフリクト: タイルをパディングする"},
      {"rule.pad",
       "Its shared accesses take {3} wavefronts for {2} instructions "
       "({5} per instruction, {4} bank conflicts): the lanes of a warp touch words a multiple of 32 words apart, and "
       "a bank (word mod 32) serves one word per wavefront. Fix: pad each row of the tile by one word, e.g. [32][32] -> "
       "[32][33]: s[row][col] becomes word row*33 + col, its bank (row*33 + col) mod 32 = (row + col) mod 32, so a "
       "column spreads over 32 banks. Counters it changes: shared wavefronts and bank conflicts fall to the ideal; "
       "global requests and sectors stay.",
       "共有メモリへのアクセスが {2} 命令で {3} ウェーブフロント（1 命令あたり {5}、"
       "バンクコンフリクト {4}）: ワープのレーンが 32 ワードの倍数だけ離れたワードに触れ、バンク（ワード番号 mod 32）は 1 "
       "ウェーブフロントに 1 ワードしか返せません。修正: タイルの各行を 1 ワードずつパディングする（例 [32][32] -> "
       "[32][33]）。s[row][col] のワードは row*33 + col、バンクは (row*33 + col) mod 32 = (row + col) mod 32 になり、列が "
       "32 個のバンクに散らばります。変わるカウンタ: 共有メモリのウェーブフロントとバンクコンフリクトが理想値まで減り、"
       "グローバルのリクエストとセクタは変わりません。"},
      {"rule.sequential.title", "bank conflicts: sequential addressing", "バンクコンフリクト: 連続アドレスで畳み込む"},
      {"rule.sequential",
       "{3} wavefronts for {2} shared instructions ({4} bank "
       "conflicts). s[2*s*tid] puts the active lanes 2s words apart, so they share banks. Fix: sequential "
       "addressing, s[tid] += s[tid + s]: the active lanes read consecutive words in 32 different banks. Counters it "
       "changes: bank conflicts to 0, shared wavefronts to the ideal; the shared instructions stay.",
       "共有メモリ {2} 命令で {3} ウェーブフロント（バンクコンフリクト {4}）。"
       "s[2*s*tid] では動いているレーンが 2s ワードずつ離れ、同じバンクに重なります。修正: 連続アドレスにする "
       "s[tid] += s[tid + s]。動いているレーンが連続したワード、つまり 32 個の別々のバンクを読みます。変わるカウンタ: "
       "バンクコンフリクトが 0 に、ウェーブフロントが理想値に。共有メモリの命令数は変わりません。"},
      {"rule.shuffle.title", "a reduction through shared memory: use a shuffle",
       "共有メモリを通すリダクション: シャッフルを使う"},
      {"rule.shuffle",
       "A tree reduction through shared memory ({2} shared "
       "instructions), every step followed by a barrier. Fix: use a shuffle. Inside a warp, "
       "__shfl_down_sync(0xffffffff, v, offset) for offset = 16, 8, 4, 2, 1 adds 32 values in registers in 5 "
       "steps, with no shared memory and no barrier; one shared word per warp remains. Counters it changes: shared "
       "loads and barriers (BAR) fall, SHFL appear.",
       "共有メモリを通す木構造のリダクション（共有メモリ {2} 命令）で、"
       "段ごとにバリアが入ります。修正: シャッフルを使う。ワープの中では __shfl_down_sync(0xffffffff, v, offset) を "
       "offset = 16, 8, 4, 2, 1 と 5 段行えば 32 個の値がレジスタの中で足され、共有メモリもバリアも要りません。"
       "共有メモリはワープごとに 1 ワードだけ残ります。変わるカウンタ: 共有メモリのロードとバリア（BAR） が減り、SHFL "
       "が現れます。"},
      {"rule.coalesce.title", "uncoalesced global load: coalesce it, or stage it through shared memory",
       "コアレッシングされないグローバルロード: コアレッシングする、または共有メモリを経由する"},
      {"rule.coalesce",
       "Its global loads take {1} sectors per request ({0} "
       "requests). The lanes of a warp read addresses far apart (a column), one sector each, where a coalesced warp "
       "needs 4 sectors for 32 4-byte words. Fix: let consecutive lanes read consecutive addresses; when the data "
       "must be read by column, stage it through shared memory: read a tile by rows (coalesced), then read its "
       "column from shared memory, in a padded tile so the column does not conflict. Counters it changes: sectors "
       "per request fall to 4 and global load sectors fall; shared wavefronts appear.",
       "グローバルロードが 1 リクエストあたり {1} セクタ（{0} リクエスト）。"
       "ワープのレーンが離れたアドレス（列）を読み、1 レーンに 1 セクタ要ります。コアレッシングされたワープなら 4 バイト "
       "32 ワードで 4 セクタです。修正: 隣のレーンが隣のアドレスを読むようにする（コアレッシング）。列で読む必要があれば"
       "共有メモリを経由する: タイルを行で読み（コアレッシングされる）、列は共有メモリから読む。タイルはパディングして"
       "バンクコンフリクトを避ける。変わるカウンタ: セクタ/リクエストが 4 に、グローバルロードのセクタが減り、共有メモリの"
       "ウェーブフロントが現れます。"},
      {"rule.stage.title", "the same values loaded again and again: stage them through shared memory (tiling)",
       "同じ値を何度もロードしている: 共有メモリに載せる（タイリング）"},
      {"rule.stage",
       "{0} global load requests ({1} sectors each), most of them hits "
       "in L1: the threads of a group read the same rows and columns over and over. Fix: stage through shared "
       "memory (tiling): the group loads a tile once, waits at a barrier, and each thread reads it TILE times from "
       "shared memory. Counters it changes: global load requests and sectors fall by the tile width; shared "
       "wavefronts appear; L2 sectors fall as the tile grows.",
       "グローバルロード {0} リクエスト（1 リクエスト {1} セクタ）のほとんどが L1 "
       "ヒット: スレッドグループのスレッドが同じ行と列を何度も読んでいます。修正: 共有メモリに載せる（タイリング）。"
       "スレッドグループがタイルを 1 回だけロードし、バリアで待ち、各スレッドは共有メモリからタイル幅の回数だけ読みます。"
       "変わるカウンタ: グローバルロードのリクエストとセクタがタイル幅分の 1 に、共有メモリのウェーブフロントが現れ、"
       "タイルを大きくすると L2 のセクタが減ります。"},
      {"rule.lead", "This line carries {0}% of the estimated time.", "この行が推定時間の {0}% を占めます。"},
      {"rule.lead.l1",
       "The estimate is bound by {1}, to which this line adds {0}%, but the line carries {2}% of the L1 "
       "traffic (the model gives barriers no cost): this is what remains once {1} is hidden.",
       "推定時間は {1}律速で、この行の割合は {0}% ですが、L1 トラフィックの {2}% をこの行が占めます（モデルは"
       "バリアのコストを数えない）。{1} が隠れたときに残るのはここです。"},
      {"rule.unchecked", "(The catalog has no fixed variant of this kernel: not checked by a rerun.)",
       "（カタログにこのカーネルの修正版がないため、再実行による確認はしていません。）"},
      {"rule.checked", "Checked by rerunning {0} at n={1}: {2}; estimate {3} -> {4} us.",
       "{0} を n={1} で再実行して確認: {2}。推定 {3} -> {4} µs。"},
      {"rule.not_confirmed", "Rerunning {0} at n={1} did NOT confirm it: {2}; estimate {3} -> {4} us.",
       "{0} を n={1} で再実行したが確認できなかった: {2}。推定 {3} -> {4} µs。"},
      // Pads tried on a user's kernel FILE (try_pad.hpp): {0} the array as declared, {1} padded,
      // {2} -> {3} the launch's bank-conflict wavefronts, {4} the estimate after as % of before.
      {"rule.pad.seen", "Its shared accesses take {3} wavefronts for {2} instructions ({5} per instruction, {4} bank conflicts).",
       "共有メモリへのアクセスが {2} 命令で {3} ウェーブフロント（1 命令あたり {5}、バンクコンフリクト {4}）。"},
      {"rule.pad.none.title", "bank conflicts: padding the array does not remove them",
       "バンクコンフリクト: 配列のパディングでは消えない"},
      {"rule.pad.none",
       "No pad is advised: the re-run shows that padding the array does not change the banks the lanes meet in. "
       "Change the index instead (which lane reads which word).",
       "パディングは勧めません。再実行の結果、配列をパディングしてもレーンが同じバンクで重なることは変わりません。"
       "代わりにインデックス（どのレーンがどのワードを読むか）を変えてください。"},
      {"try.helps",
       "tried: {0} -> {1}: {2} -> {3} conflict wavefronts, estimated time {4}% of now (this launch re-run with the "
       "same arguments, with the same results). Fix: declare the array {1}.",
       "試した修正: {0} -> {1}: バンクコンフリクトのウェーブフロント {2} -> {3}、推定時間は今の {4}%（同じ引数で"
       "この起動を再実行し、結果も同じ）。修正: 配列を {1} と宣言する。"},
      {"try.no_help", "tried: {0} -> {1}: {2} -> {3} conflict wavefronts, estimated time {4}% of now. Not advised:",
       "試した修正: {0} -> {1}: バンクコンフリクトのウェーブフロント {2} -> {3}、推定時間は今の {4}%。勧めません:"},
      {"try.why.conflicts", "the conflicts did not fall.", "バンクコンフリクトが減りません。"},
      {"try.why.slower", "the estimated time grew.", "推定時間が延びます。"},
      {"try.why.results", "the kernel's results changed (it reaches the array's memory other than by its rows).",
       "カーネルの結果が変わります（配列のメモリに行の添字以外の方法で触れている）。"},
      {"try.why.findings", "the re-run has new findings (tgsim check shows them).",
       "再実行で新しい指摘が出ます（tgsim check で確認できます）。"},
      {"try.error",
       "tried: {0} -> {1}: the padded copy of the kernel did not build or run (more shared memory than a group may "
       "have, perhaps), so no pad is advised.",
       "試した修正: {0} -> {1}: パディングしたカーネルのコピーがビルドも実行もできなかったため、パディングは勧めません"
       "（スレッドグループの共有メモリの上限を超えた可能性があります）。"},
      {"advice.none", "No rule applies to this kernel's costliest lines.",
       "このカーネルのコストの大きい行に当てはまる規則はありません。"},
      // explain's terminal output (explain.cpp).
      {"explain.head", "{0} (n {1}), {2} at {3}, block {4} warp {5}, {6}-byte lanes",
       "{0}（n {1}）、{3} の {2}、スレッドグループ {4} のワープ {5}、レーンあたり {6} バイト"},
      {"explain.head.file", "{0}, {2} at {3}, block {4} warp {5}, {6}-byte lanes",
       "{0}、{3} の {2}、スレッドグループ {4} のワープ {5}、レーンあたり {6} バイト"},
      {"explain.file_at",
       "estimate for {0} threadgroups: the counters of the {1} launched, scaled by {0} / {1} (each group with "
       "work and data of its own)",
       "{0} スレッドグループでの推定: 起動した {1} グループのカウンタを {0} / {1} 倍した値（各グループが自分の処理と"
       "データを持つ場合）"},
      {"explain.lane_bank", "lane -> bank:", "レーン -> バンク:"},
      {"explain.wavefront", "{0} wavefront (ideal {1}, {2} bank conflicts)",
       "ウェーブフロント {0}（理想 {1}、バンクコンフリクト {2}）"},
      {"explain.wavefronts", "{0} wavefronts (ideal {1}, {2} bank conflicts)",
       "ウェーブフロント {0}（理想 {1}、バンクコンフリクト {2}）"},
      {"explain.sectors", "1 request, {0} sectors of {1} bytes", "リクエスト 1 回、{1} バイトのセクタ {0} 個"},
      {"explain.launch",
       "launch: {0} load requests, {1} load sectors ({2} hit in L1), L2 {3} read / {4} write sectors, DRAM {5} "
       "bytes read",
       "起動全体: ロードのリクエスト {0}、ロードのセクタ {1}（L1 ヒット {2}）、L2 のセクタ（読み出し {3} / 書き込み "
       "{4}）、DRAM 読み出し {5} バイト"},
      {"explain.estimate", "estimate: {0} ms, bound by {1} (dram {2}, l2 {3}, l1 {4}, fp32 {5}, latency {6} ms)",
       "推定: {0} ms、{1}律速（DRAM {2}、L2 {3}、L1 {4}、FP32 {5}、レイテンシ {6} ms）"},
      // The unit that binds an estimate (bound_name).
      {"bound.dram", "dram", "DRAM 帯域"},
      {"bound.l2", "l2", "L2 帯域"},
      {"bound.l1", "l1", "L1 帯域"},
      {"bound.fp32", "fp32", "FP32 演算"},
      {"bound.latency", "latency", "レイテンシ"},
      {"explain.wrote", "wrote {}", "{} に書き出した"},
      {"note.shared_removed",
       "0 shared accesses: the file declares shared memory, but the compiled kernel has no shared access left: "
       "the compiler removed it, because nothing it computes reaches global memory (store the result to a "
       "buffer to keep the work)",
       "共有メモリへのアクセスは 0 回: ファイルは共有メモリを宣言しているが、コンパイル後のカーネルには共有メモリへの"
       "アクセスが残っていない。計算結果がグローバルメモリに届かないため、コンパイラが取り除いた（結果をバッファに"
       "書き込めば処理は残る）"},
      {"explain.profile_note",
       "profile {0}: warp size {1} is not simulated yet; counters come from 32-wide warps, limits and figures "
       "from {0}",
       "プロファイル {0}: ワープ幅 {1} はまだシミュレーションしていない。カウンタは 32 幅のワープで数え、上限と数値は "
       "{0} のものを使う"},
      {"explain.measured", "H100 measured at n={0}: {1}", "H100 の実測（n={0}）: {1}"},
      {"explain.sweep_note", "(counters at n={0}; predicted time at n={0}, profile {1})",
       "（カウンタは n={0}、推定時間も n={0}、プロファイル {1}）"},
      {"explain.sweep_note_at",
       "(counters at n={0}; predicted time at n={2}, counters scaled by (N/n)^3, DRAM by (N/n)^2, profile {1})",
       "（カウンタは n={0}、推定時間は n={2} で、カウンタを (N/n)^3 倍、DRAM を (N/n)^2 倍して推定、プロファイル {1}）"},
      // The sweep table's columns; each fits its column (15, 11 x 6, 10, 8 terminal columns).
      {"sweep.variant", "variant", "カーネル"},
      {"sweep.ld_req", "ld req", "ロード\nリクエスト"},
      {"sweep.ld_sectors", "ld sectors", "ロード\nセクタ"},
      {"sweep.l1_hits", "L1 hits", "L1\nヒット"},
      {"sweep.l2_sectors", "L2 sectors", "L2\nセクタ"},
      {"sweep.dram_bytes", "DRAM bytes", "DRAM\nバイト"},
      {"sweep.sh_wavef", "sh wavef", "共有メモリ\nウェーブ\nフロント"},
      {"sweep.est_ms", "est. ms", "推定時間\n（ms）"},
      {"sweep.bound", "bound", "律速"},
      {"ctr.conflicts", "bank conflicts", "バンクコンフリクト"},
      {"ctr.shared_wavefronts", "shared wavefronts", "共有メモリのウェーブフロント"},
      {"ctr.shared_instructions", "shared instructions", "共有メモリの命令"},
      {"ctr.shared_loads", "shared loads", "共有メモリのロード"},
      {"ctr.load_spr", "load sectors/request", "ロードのセクタ/リクエスト"},
      {"ctr.load_sectors", "load sectors", "ロードのセクタ"},
      {"ctr.store_spr", "store sectors/request", "ストアのセクタ/リクエスト"},
      {"ctr.store_sectors", "store sectors", "ストアのセクタ"},
      {"ctr.load_requests", "load requests", "ロードのリクエスト"},
      {"ctr.l2_sectors", "L2 sectors", "L2 のセクタ"},
      {"ctr.barriers", "BAR", "BAR"},
      {"ctr.shfl", "SHFL", "SHFL"},
    };
    v.insert(v.end(), picture_messages().begin(), picture_messages().end());
    v.insert(v.end(), error_messages().begin(), error_messages().end());
    v.insert(v.end(), list_messages().begin(), list_messages().end());
    v.insert(v.end(), try_messages().begin(), try_messages().end());
    v.insert(v.end(), help_messages().begin(), help_messages().end());
    v.insert(v.end(), launch_error_messages().begin(), launch_error_messages().end());
    v.insert(v.end(), note_messages().begin(), note_messages().end());
    return v;
  }();
  return m;
}

}  // namespace tgsim::cli
