// The messages of the fixes tried on a user's kernel FILE by a re-run (try_swap.cpp, rules.cpp):
// part of the one catalog (messages.hpp), kept apart to keep each file small.
#include "messages.hpp"

namespace tgsim::cli {

const std::vector<Message>& try_messages() {
  static const std::vector<Message> m = {
      // The x and y thread mapping swapped for an uncoalesced global load (try_swap.hpp): {0} -> {1}
      // the grid, {2} -> {3} the group's dimensions, {4} -> {5} the launch's global load and store
      // sectors, {6} the estimate after as % of before.
      {"rule.coalesce.seen", "Its global loads take {1} sectors per request ({0} requests).",
       "グローバルロードが 1 リクエストあたり {1} セクタ（{0} リクエスト）。"},
      {"rule.coalesce.swap.title", "uncoalesced global load: swap the x and y thread mapping",
       "コアレッシングされないグローバルロード: x と y のスレッド対応を入れ替える"},
      {"rule.coalesce.swap_none.title",
       "uncoalesced global load: swapping the x and y thread mapping does not fix it",
       "コアレッシングされないグローバルロード: x と y のスレッド対応の入れ替えでは直らない"},
      {"rule.coalesce.swap_none",
       "No swap is advised: the re-run shows that it does not help. Let consecutive lanes read consecutive "
       "addresses another way, or stage the data through shared memory: read a tile by rows (coalesced), then "
       "read its column from a padded shared tile.",
       "入れ替えは勧めません。再実行の結果、効果がないからです。別の方法で隣のレーンが隣のアドレスを読むようにするか、"
       "共有メモリを経由してください。タイルを行で読み（コアレッシングされる）、列はパディングした共有メモリのタイル"
       "から読みます。"},
      // The same for an uncoalesced global store (rule "coalesce_store", rules.cpp): a line whose loads
      // call for no rule. {0} requests, {1} sectors per request.
      {"rule.coalesce_store.title", "uncoalesced global store: let consecutive lanes write consecutive addresses",
       "コアレッシングされないグローバルストア: 隣のレーンが隣のアドレスに書くようにする"},
      {"rule.coalesce_store",
       "Its global stores take {1} sectors per request ({0} requests). The lanes of a warp write addresses far "
       "apart (a column), one sector each, where a coalesced warp needs 4 sectors for 32 4-byte words. Fix: let "
       "consecutive lanes write consecutive addresses; when the data must be written by column, gather a tile in "
       "shared memory and write it by rows. Counters it changes: store sectors per request fall to 4 and global "
       "store sectors fall.",
       "グローバルストアが 1 リクエストあたり {1} セクタ（{0} リクエスト）。ワープのレーンが離れたアドレス（列）に"
       "書き、1 レーンに 1 セクタ要ります。コアレッシングされたワープなら 4 バイト 32 ワードで 4 セクタです。修正: 隣の"
       "レーンが隣のアドレスに書くようにする（コアレッシング）。列で書く必要があれば、共有メモリにタイルを集めてから"
       "行で書く。変わるカウンタ: ストアのセクタ/リクエストが 4 に、グローバルストアのセクタが減ります。"},
      {"rule.coalesce_store.seen", "Its global stores take {1} sectors per request ({0} requests).",
       "グローバルストアが 1 リクエストあたり {1} セクタ（{0} リクエスト）。"},
      {"rule.coalesce_store.swap.title", "uncoalesced global store: swap the x and y thread mapping",
       "コアレッシングされないグローバルストア: x と y のスレッド対応を入れ替える"},
      {"rule.coalesce_store.swap_none.title",
       "uncoalesced global store: swapping the x and y thread mapping does not fix it",
       "コアレッシングされないグローバルストア: x と y のスレッド対応の入れ替えでは直らない"},
      {"rule.coalesce_store.swap_none",
       "No swap is advised: the re-run shows that it does not help. Let consecutive lanes write consecutive "
       "addresses another way, or gather a tile in shared memory and write it by rows.",
       "入れ替えは勧めません。再実行の結果、効果がないからです。別の方法で隣のレーンが隣のアドレスに書くようにするか、"
       "共有メモリにタイルを集めてから行で書いてください。"},
      {"swap.strides_store.xy",
       "In the first warp that reaches it, lanes one thread apart in x write addresses {0} bytes apart, lanes one "
       "thread apart in y {1} bytes apart.",
       "この行に最初に来たワープでは、x で隣り合うスレッドのレーンが {0} バイト離れたアドレスに、y で隣り合う"
       "スレッドのレーンが {1} バイト離れたアドレスに書きます。"},
      {"swap.strides_store.x",
       "In the first warp that reaches it, lanes one thread apart in x write addresses {0} bytes apart.",
       "この行に最初に来たワープでは、x で隣り合うスレッドのレーンが {0} バイト離れたアドレスに書きます。"},
      {"swap.strides.xy",
       "In the first warp that reaches it, lanes one thread apart in x read addresses {0} bytes apart, lanes one "
       "thread apart in y {1} bytes apart.",
       "この行に最初に来たワープでは、x で隣り合うスレッドのレーンが {0} バイト離れたアドレスを、y で隣り合う"
       "スレッドのレーンが {1} バイト離れたアドレスを読みます。"},
      {"swap.strides.x",
       "In the first warp that reaches it, lanes one thread apart in x read addresses {0} bytes apart.",
       "この行に最初に来たワープでは、x で隣り合うスレッドのレーンが {0} バイト離れたアドレスを読みます。"},
      {"swap.helps",
       "tried: swap x and y thread mapping: {4} -> {5} sectors, estimated time {6}% of now (a copy of the kernel "
       "with the thread position's .x and .y exchanged, launched with grid {0} -> {1} and block {2} -> {3}: this "
       "launch re-run with the same arguments, with the same results). Fix: give x the index that walks along a "
       "row (consecutive addresses), y the other one, and swap the grid and block dimensions.",
       "試した修正: x と y のスレッド対応を入れ替える: セクタ {4} -> {5}、推定時間は今の {6}%（スレッド位置の .x と "
       ".y を入れ替えたカーネルのコピーを、グリッド {0} -> {1}、スレッドグループ {2} -> {3} で起動し、同じ引数でこの"
       "起動を再実行した。結果も同じ）。修正: 行に沿って進む添字（連続したアドレス）を x に、もう一方を y に割り当て、"
       "グリッドとスレッドグループの大きさも入れ替える。"},
      {"swap.no_help",
       "tried: swap x and y thread mapping (grid {0} -> {1}, block {2} -> {3}): {4} -> {5} sectors, estimated "
       "time {6}% of now. It did not help, so it is not advised:",
       "試した修正: x と y のスレッド対応を入れ替える（グリッド {0} -> {1}、スレッドグループ {2} -> {3}）: セクタ "
       "{4} -> {5}、推定時間は今の {6}%。効果がないため勧めません:"},
      {"swap.why.sectors", "the global sectors did not fall.", "グローバルメモリのセクタが減りません。"},
      {"swap.why.slower", "the estimated time grew.", "推定時間が延びます。"},
      {"swap.why.results",
       "the kernel's results changed (it reads its thread's position other than by .x and .y, or its result "
       "depends on which threads share a warp).",
       "カーネルの結果が変わります（スレッドの位置を .x と .y 以外の方法で読んでいるか、どのスレッドが同じワープに"
       "入るかで結果が変わります）。"},
      {"swap.why.findings", "the re-run has new findings (tgsim check shows them).",
       "再実行で新しい指摘が出ます（tgsim check で確認できます）。"},
      {"swap.error",
       "tried: swap x and y thread mapping (grid {0} -> {1}, block {2} -> {3}): the swapped copy of the kernel "
       "did not build or run, so no swap is advised.",
       "試した修正: x と y のスレッド対応を入れ替える（グリッド {0} -> {1}、スレッドグループ {2} -> {3}）: 入れ替えた"
       "カーネルのコピーがビルドも実行もできなかったため、入れ替えは勧めません。"},
  };
  return m;
}

}  // namespace tgsim::cli
