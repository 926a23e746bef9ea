#include "catalog.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "runners.hpp"
#include <tgsim/internal/text.hpp>

namespace tgsim::catalog {

using namespace runners;

double flops(const Entry& e, int n) {
  if (e.family == "matmul") return 2.0 * double(n) * n * n;
  return 0.0;
}

int access_exponent(const Entry& e) {
  return e.family == "matmul" || e.family == "int_matmul" ? 3 : 2;
}

// The tour's sentences, one per kernel, in English and Japanese.
namespace {

using internal::with_commas;

std::uint64_t conflicts(const Counters& c) { return c.shared_load.bank_conflicts() + c.shared_store.bank_conflicts(); }
std::string per(std::uint64_t a, std::uint64_t b) { return ratio_text(a, b); }

Text explain_matmul_naive(const Result& r, const Results&) {
  const Counters& c = r.report.counters;
  const std::string req = with_commas(c.global_load.requests()), spr = per(c.global_load.sectors, c.global_load.requests());
  return {"every thread reads a row of A and a column of B from global memory: " + req + " load requests, " + spr +
              " sectors each (a warp spans two 16-thread rows).",
          "各スレッドが A の行と B の列をグローバルメモリから読む: ロード " + req + " リクエスト、1 リクエスト " + spr +
              " セクタ（ワープは 16 スレッドの行 2 つにまたがる）。"};
}

Text explain_matmul_tiled(const Result& r, const Results& done) {
  const Counters& c = r.report.counters;
  const std::string t = r.report.kernel.substr(12);
  const Counters& naive = done.at("matmul_naive").report.counters;
  const std::string fall = per(naive.global_load.requests(), c.global_load.requests()),
                    req = with_commas(c.global_load.requests()),
                    wpi = per(c.shared_load.wavefronts, c.shared_load.instructions), bc = with_commas(conflicts(c));
  return {"loads fall " + fall + "x against naive (" + req + " requests): each value staged in the " + t + "x" + t +
              " tile is read " + t + " times from shared memory, " + wpi + " wavefront per shared load, " + bc +
              " bank conflicts.",
          "ロードは naive の 1/" + fall + "（" + req + " リクエスト）: " + t + "x" + t + " のタイルに載せた値を共有メモリから " +
              t + " 回ずつ読む。共有メモリのロード 1 回に " + wpi + " ウェーブフロント、バンクコンフリクト " + bc + "。"};
}

Text explain_transpose_naive(const Result& r, const Results&) {
  const Counters& c = r.report.counters;
  const std::string spr = per(c.global_load.sectors, c.global_load.requests()), all = with_commas(c.global_load.sectors),
                    st = per(c.global_store.sectors, c.global_store.requests());
  return {"the load walks a column of `in`: " + spr + " sectors per request (one per lane, " + all +
              " in all); the store is coalesced at " + st + ".",
          "ロードが `in` の列をたどる: 1 リクエスト " + spr + " セクタ（レーンごとに 1 つ、合計 " + all +
              "）。ストアはコアレッシングされて " + st + " セクタ。"};
}

Text explain_transpose_shared(const Result& r, const Results&) {
  const Counters& c = r.report.counters;
  const std::string spr = per(c.global_load.sectors, c.global_load.requests()),
                    wps = per(c.shared_store.wavefronts, c.shared_store.instructions),
                    bc = with_commas(c.shared_store.bank_conflicts());
  return {"both global sides coalesce (" + spr + " sectors/request), but s[lx][ly] writes a column of a [32][32] int "
              "tile: 32 lanes, one bank, " + wps + " wavefronts per store (" + bc + " conflicts).",
          "グローバルは読み書きともコアレッシングされる（1 リクエスト " + spr + " セクタ）が、s[lx][ly] は [32][32] の "
              "int タイルの列に書く: 32 レーンが 1 つのバンクに集まり、ストア 1 回に " + wps +
              " ウェーブフロント（バンクコンフリクト " + bc + "）。"};
}

Text explain_transpose_padded(const Result& r, const Results&) {
  const Counters& c = r.report.counters;
  const std::string wps = per(c.shared_store.wavefronts, c.shared_store.instructions),
                    bc = with_commas(c.shared_store.bank_conflicts());
  return {"padding the tile to [32][33] moves each row one bank over, so the column store hits 32 different banks: " +
              wps + " wavefront per store, " + bc + " conflicts.",
          "タイルを [32][33] にパディングすると行ごとにバンクが 1 つずれ、列へのストアが 32 個の別々のバンクに当たる: "
          "ストア 1 回に " + wps + " ウェーブフロント、バンクコンフリクト " + bc + "。"};
}

Text explain_block_peak(const Result& r, const Results&) {
  const Counters& c = r.report.counters;
  const std::string shfl = with_commas(c.shfl), sts = with_commas(c.shared_store.instructions);
  return {"each warp finds its arg-max in 5 shuffle steps of value and index: " + shfl +
              " SHFL (10 per warp + 10 more in warp 0), then 8 warp winners meet in shared memory (" + sts +
              " single-lane STS).",
          "各ワープが値とインデックスのシャッフル 5 段で最大値の位置を求める: SHFL " + shfl +
              "（ワープごとに 10、ワープ 0 はさらに 10）。その後 8 つのワープの勝者が共有メモリで出会う（1 レーンの STS " +
              sts + "）。"};
}

Text explain_reduce_interleaved(const Result& r, const Results&) {
  const Counters& c = r.report.counters;
  const std::string bc = with_commas(conflicts(c)), wpl = per(c.shared_load.wavefronts, c.shared_load.instructions);
  return {"s[2*s*tid] puts the active lanes 2s words apart: " + bc + " bank conflicts, " + wpl +
              " wavefronts per shared load.",
          "s[2*s*tid] では動いているレーンが 2s ワードずつ離れる: バンクコンフリクト " + bc + "、共有メモリのロード 1 回に " +
              wpl + " ウェーブフロント。"};
}

Text explain_reduce_sequential(const Result& r, const Results&) {
  const Counters& c = r.report.counters;
  const std::string bc = with_commas(conflicts(c)), lds = with_commas(c.shared_load.instructions);
  return {"s[tid] += s[tid + s] keeps the active lanes on consecutive words: the conflicts disappear (" + bc +
              "), same " + lds + " shared loads.",
          "s[tid] += s[tid + s] では動いているレーンが連続したワードを読む: バンクコンフリクトは消え（" + bc +
              "）、共有メモリのロードは同じ " + lds + "。"};
}

Text explain_reduce_shuffle(const Result& r, const Results& done) {
  const Counters& c = r.report.counters;
  const Counters& seq = done.at("reduce_sequential").report.counters;
  const std::string shfl = with_commas(c.shfl), lds = with_commas(seq.shared_load.instructions - c.shared_load.instructions),
                    bar = with_commas(c.barriers), bar_seq = with_commas(seq.barriers);
  return {"the tree moves into registers: " + shfl + " SHFL replace " + lds + " shared loads, and " + bar +
              " BAR instead of " + bar_seq + ".",
          "木構造のリダクションがレジスタに移る: SHFL " + shfl + " が共有メモリのロード " + lds + " に代わり、BAR は " +
              bar_seq + " から " + bar + " に。"};
}

Text explain_histogram(const Result& r, const Results&) {
  const Counters& c = r.report.counters;
  const std::string sh = with_commas(c.shared_atomic.instructions), gl = with_commas(c.global_atomic.instructions);
  return {"bytes are counted with " + sh + " shared-atomic warp instructions; only " + gl +
              " global atomics merge the per-group bins.",
          "バイトは共有メモリのアトミック（ワープ命令 " + sh + "）で数え、スレッドグループごとのビンをまとめるグローバルの"
          "アトミックは " + gl + " だけ。"};
}

Text explain_poly_eval(const Result& r, const Results&) {
  const Counters& c = r.report.counters;
  const std::string ld = with_commas(c.constant_load.instructions), acc = with_commas(c.constant_load.distinct_addresses);
  return {"every lane reads the same coefficient: each of the " + ld + " constant loads is one broadcast access (" +
              acc + " in all).",
          "全レーンが同じ係数を読む: 定数メモリのロード " + ld + " 回はそれぞれ 1 回のブロードキャスト（合計 " + acc + "）。"};
}

Text explain_lane_coeff(const Result& r, const Results&) {
  const Counters& c = r.report.counters;
  const std::string acc = with_commas(c.constant_load.distinct_addresses), ld = with_commas(c.constant_load.instructions);
  return {"lanes read coeffs[lane % 8]: 8 addresses per warp instruction, serialised into " + acc + " accesses for " +
              ld + " loads.",
          "レーンが coeffs[lane % 8] を読む: ワープ命令 1 つに 8 アドレス、ロード " + ld + " 回が " + acc +
              " 回のアクセスに直列化される。"};
}

Text explain_int_matmul_global(const Result& r, const Results&) {
  const Counters& c = r.report.counters;
  const std::string spr = per(c.global_load.sectors, c.global_load.requests());
  return {"seed 004: a warp walks 32 rows i, so A[i*n+k] touches 32 sectors per request (" + spr +
              " sectors/request on average).",
          "シード 004: ワープが 32 個の行 i をたどるので、A[i*n+k] は 1 リクエストで 32 セクタに触れる（平均 " + spr +
              " セクタ/リクエスト）。"};
}

Text explain_int_matmul_shared(const Result& r, const Results&) {
  const Counters& c = r.report.counters;
  const std::string wpl = per(c.shared_load.wavefronts, c.shared_load.instructions);
  return {"a[NT*i_local + k] is 32 words apart across the warp: a 32-way conflict on every other load (" + wpl +
              " wavefronts per LDS, docs/hardware-model.md E8).",
          "a[NT*i_local + k] はワープの中で 32 ワードずつ離れる: ロード 2 回に 1 回が 32-way のバンクコンフリクト"
          "（LDS 1 回に " + wpl + " ウェーブフロント、docs/hardware-model.md E8）。"};
}

Text explain_blur(const Result& r, const Results&) {
  const Counters& c = r.report.counters;
  const std::string wpl = per(c.shared_load.wavefronts, c.shared_load.instructions), bc = with_commas(conflicts(c));
  return {"the 18x18 tile with its halo is loaded once and read 9 times per pixel; a warp holds two 16-pixel rows 18 "
              "words apart, so banks 0-1 collide: " + wpl + " wavefronts per LDS (" + bc +
              " conflicts; only a row pitch of 16 mod 32 words, e.g. [18][48], would separate the rows).",
          "ハロー付きの 18x18 タイルを 1 回ロードし、画素ごとに 9 回読む。ワープは 18 ワード離れた 16 画素の行 2 つを持つ"
          "ので、バンク 0-1 がぶつかる: LDS 1 回に " + wpl + " ウェーブフロント（バンクコンフリクト " + bc +
              "。行の間隔を 32 で割って 16 余るワード数、例えば [18][48] にすれば行が分かれる）。"};
}

Text explain_neighbour(const Result& r, const Results&) {
  const std::string bc = with_commas(conflicts(r.report.counters));
  return {"seed 000's neighbour read through shared_data[256] with the barrier: a rotation of banks, " + bc +
              " conflicts.",
          "シード 000 の隣の要素の読み出しを、バリア付きで shared_data[256] を通して行う: バンクが 1 つずれるだけで、"
          "バンクコンフリクト " + bc + "。"};
}

Text explain_layer(const Result& r, const Results&) {
  const Counters& c = r.report.counters;
  const std::string spr = per(c.global_load.sectors, c.global_load.requests());
  return {"ReLU(W x + b) as three launches; matvec's W[row*n+k] is strided across a warp (" + spr +
              " sectors per request).",
          "ReLU(W x + b) を 3 回の起動で計算する。matvec の W[row*n+k] はワープの中で飛び飛び（1 リクエスト " + spr +
              " セクタ）。"};
}

}  // namespace

std::string ratio_text(std::uint64_t a, std::uint64_t b) {
  if (b == 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, a % b == 0 ? "%.0f" : "%.1f", double(a) / double(b));
  return buf;
}

// The catalog itself: one entry per kernel, a table that is long because the catalog is.
const std::vector<Entry>& entries() {
  static const std::vector<Entry> list = {
      {"matmul_naive", "matmul", "seed 001: one thread per element, all operands from global memory",
       256, 4096,
       [](const Device& d, const RunOptions& o) { return run_matmul(d, o, "matmul_naive", 16, matmul_naive); },
       false, {1, 1, 0}, explain_matmul_naive, {{"stage", "matmul_tiled16"}}},
      {"matmul_tiled8", "matmul", "seed 000: 8x8 tiles of A and B staged in shared memory", 256, 8192,
       [](const Device& d, const RunOptions& o) { return run_matmul(d, o, "matmul_tiled8", 8, matmul_tiled<8>); },
       false, {1, 2, 0}, explain_matmul_tiled},
      {"matmul_tiled16", "matmul", "seed 000: 16x16 tiles of A and B staged in shared memory", 256, 8192,
       [](const Device& d, const RunOptions& o) { return run_matmul(d, o, "matmul_tiled16", 16, matmul_tiled<16>); },
       false, {1, 3, 0}, explain_matmul_tiled},
      {"matmul_tiled32", "matmul", "seed 000: 32x32 tiles of A and B staged in shared memory", 256, 8192,
       [](const Device& d, const RunOptions& o) { return run_matmul(d, o, "matmul_tiled32", 32, matmul_tiled<32>); },
       false, {1, 4, 0}, explain_matmul_tiled},
      {"transpose_naive", "transpose", "seed 002: strided global loads, coalesced stores", 1024, 16384,
       [](const Device& d, const RunOptions& o) { return run_transpose(d, o, "transpose_naive", transpose_naive); },
       false, {1, 5, 0}, explain_transpose_naive, {{"coalesce", "transpose_padded"}}},
      {"transpose_shared", "transpose", "seed 002: through a [32][32] shared tile (column store: 32-way conflict)",
       1024, 16384,
       [](const Device& d, const RunOptions& o) { return run_transpose(d, o, "transpose_shared", transpose_shared); },
       false, {1, 6, 0}, explain_transpose_shared, {{"pad", "transpose_padded"}}},
      {"transpose_padded", "transpose", "seed 002: through a padded [32][33] shared tile (conflict-free)", 1024,
       16384,
       [](const Device& d, const RunOptions& o) { return run_transpose(d, o, "transpose_padded", transpose_padded); },
       false, {1, 7, 0}, explain_transpose_padded},
      {"relu", "layer", "seed 001: max(0, x) over an n x n matrix, 256 threads per group", 256, 8192, run_relu},
      {"add_bias", "layer", "seed 001: matrix[i] += bias[i % n] over an n x n matrix", 256, 8192, run_add_bias},
      {"layer_relu", "layer", "seed 001: ReLU(W x + b), n x n W, as matvec + add_bias + relu", 1024, 8192, run_layer,
       false, {2, 12, 0}, explain_layer},
      {"blur3x3", "blur", "seed 001: 3x3 box blur of an n x n image through an 18x18 shared tile with halo",
       512, 8192, run_blur, false, {2, 10, 0}, explain_blur},
      {"neighbour_sum", "neighbour", "seed 000: x[i] + x[i+1] through shared_data[256] with the barrier",
       65536, 1 << 24, run_neighbour, false, {2, 11, 0}, explain_neighbour},
      {"int_matmul_global", "int_matmul", "seed 004: int matmul, dim3(32, 32) blocks, j loop, global memory",
       1000, 2048,
       [](const Device& d, const RunOptions& o) { return run_int_matmul(d, o, "int_matmul_global", int_matmul_global); },
       false, {2, 8, 250}, explain_int_matmul_global},
      {"int_matmul_shared", "int_matmul", "seed 004: int matmul through a[NT*NT], b[NT*NT] shared tiles",
       1000, 2048,
       [](const Device& d, const RunOptions& o) { return run_int_matmul(d, o, "int_matmul_shared", int_matmul_shared); },
       false, {2, 9, 250}, explain_int_matmul_shared},
      {"block_peak", "peak", "seed 003: per-block arg-max with warp shuffles (value and index)", 1 << 20,
       1 << 26, [](const Device& d, const RunOptions& o) { return run_block_peak(d, o, "block_peak", block_peak); },
       false, {2, 1, 0}, explain_block_peak},
      {"block_peak_reviewed", "peak", "seed 003 review: ties go to the smaller index", 1 << 20, 1 << 26,
       [](const Device& d, const RunOptions& o) { return run_block_peak(d, o, "block_peak_reviewed", block_peak_reviewed); }},
      {"peak_centroid", "peak", "seed 003: block_peak + final_peak_and_centroid (5x5 moments at the peak)",
       1 << 20, 1 << 24,
       [](const Device& d, const RunOptions& o) {
         return run_peak_centroid(d, o, "final_peak_and_centroid", block_peak, final_peak_and_centroid);
       }},
      {"peak_centroid_reviewed", "peak", "seed 003 review: smaller index on ties, peak index via shared memory",
       1 << 20, 1 << 24,
       [](const Device& d, const RunOptions& o) {
         return run_peak_centroid(d, o, "final_peak_and_centroid_reviewed", block_peak_reviewed,
                                  final_peak_and_centroid_reviewed);
       }},
      {"reduce_interleaved", "tree_reduce", "block sum, s[2*s*tid] += s[2*s*tid + s]: bank conflicts", 1 << 20, 1 << 26,
       [](const Device& d, const RunOptions& o) { return run_block_sum(d, o, "reduce_interleaved", reduce_interleaved); },
       false, {2, 2, 0}, explain_reduce_interleaved, {{"sequential", "reduce_sequential"}}},
      {"reduce_sequential", "tree_reduce", "block sum, s[tid] += s[tid + s]: conflict-free", 1 << 20, 1 << 26,
       [](const Device& d, const RunOptions& o) { return run_block_sum(d, o, "reduce_sequential", reduce_sequential); },
       false, {2, 3, 0}, explain_reduce_sequential, {{"shuffle", "reduce_shuffle"}}},
      {"reduce_shuffle", "tree_reduce", "block sum with __shfl_down_sync and one shared word per warp", 1 << 20, 1 << 26,
       [](const Device& d, const RunOptions& o) { return run_block_sum(d, o, "reduce_shuffle", reduce_shuffle); },
       false, {2, 4, 0}, explain_reduce_shuffle},
      {"histogram256", "histogram", "256-bin byte histogram: shared atomics, then a global atomic merge", 1 << 22,
       1 << 28, run_histogram, false, {2, 5, 0}, explain_histogram},
      {"poly_eval", "constant", "degree-7 polynomial, coefficients in __constant__ memory (broadcast)", 1 << 20,
       1 << 26, run_poly, false, {2, 6, 0}, explain_poly_eval},
      {"lane_coeff", "constant", "lanes read coeffs[lane % 8] from __constant__ memory (serialised)", 1 << 20,
       1 << 26, run_lane_coeff, false, {2, 7, 0}, explain_lane_coeff},
      {"warp_reduce_syncwarp", "reduce", "a block sum whose last warp steps are ordered by __syncwarp",
       4096, 1 << 24,
       [](const Device& d, const RunOptions& o) { return run_reduce(d, o, "warp_reduce_syncwarp", warp_reduce_syncwarp); }},
      // Deliberately broken kernels (kernels/buggy.cu), for `tgsim check`; the tour skips them.
      {"matmul_tiled16_nobarrier1", "buggy", "matmul_tiled16 without the first __syncthreads (RAW)", 256, 4096,
       [](const Device& d, const RunOptions& o) { return run_matmul(d, o, "matmul_tiled16_nobarrier1", 16, matmul_tiled16_nobarrier1); },
       true},
      {"matmul_tiled16_nobarrier2", "buggy", "matmul_tiled16 without the second __syncthreads (WAR)", 256, 4096,
       [](const Device& d, const RunOptions& o) { return run_matmul(d, o, "matmul_tiled16_nobarrier2", 16, matmul_tiled16_nobarrier2); },
       true},
      {"neighbor_nobarrier", "buggy", "seed 000's bad example: a neighbour's shared element read with no barrier",
       1024, 1 << 24, run_neighbor, true},
      {"divergent_barrier", "buggy", "__syncthreads() inside if (threadIdx.x < 16)", 1024, 1 << 24, run_divergent,
       true},
      {"transpose_oob", "buggy", "transpose_naive with an off-by-one load index (out of bounds)", 1024, 16384,
       [](const Device& d, const RunOptions& o) { return run_transpose(d, o, "transpose_oob", transpose_oob); }, true},
      {"warp_reduce_nosync", "buggy", "the classic last-warp unroll of a sum without __syncwarp", 4096, 1 << 24,
       [](const Device& d, const RunOptions& o) { return run_reduce(d, o, "warp_reduce_nosync", warp_reduce_nosync); },
       true},
  };
  return list;
}

std::vector<const Entry*> tour_entries(int section) {
  std::vector<const Entry*> out;
  for (const Entry& e : entries())
    if (e.tour.section == section) out.push_back(&e);
  std::sort(out.begin(), out.end(), [](const Entry* a, const Entry* b) { return a->tour.order < b->tour.order; });
  return out;
}

std::string fix_for(std::string_view kernel, std::string_view rule) {
  if (const Entry* e = find(kernel))
    for (const Fix& f : e->fixes)
      if (f.rule == rule) return f.kernel;
  return "";
}

const Entry* find(std::string_view name) {
  for (const Entry& e : entries())
    if (e.name == name) return &e;
  return nullptr;
}

Result run(const Device& dev, std::string_view name, const RunOptions& opt) {
  const Entry* e = find(name);
  if (!e) {
    std::string known;
    for (const Entry& k : entries()) known += (known.empty() ? "" : ", ") + k.name;
    throw std::invalid_argument("unknown kernel '" + std::string(name) + "' (known: " + known + ")");
  }
  RunOptions o = opt;
  if (o.n == 0) o.n = e->default_n;
  if (o.n < 1 || o.n > e->max_n)
    throw std::invalid_argument("size " + std::to_string(o.n) + " for " + e->name +
                                " is outside 1.." + std::to_string(e->max_n));
  return e->run(dev, o);
}

}  // namespace tgsim::catalog
