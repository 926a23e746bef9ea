// Inputs, sizes and CPU references for the kernels of tests/frontend/own_samples/, shared by the
// H100 driver (tests/hardware/own_samples_driver.cu, nvcc) and tgsim's test
// (tests/frontend_own_samples_test.cpp, GCC), so both run the very same launches on the same data.
// Written for tgsim; plain C++ (no CUDA). Every value is chosen so that float results are exact
// (small integers, or dyadic fractions with few bits) whatever the order or FMA contraction, so
// every check is an equality.
#ifndef TGSIM_TESTS_OWN_SAMPLES_REF_H
#define TGSIM_TESTS_OWN_SAMPLES_REF_H

#include <cstdint>
#include <vector>

namespace samples {

// ---- sizes (the same in the driver and the test) ------------------------------------------------
constexpr int kVecN = 50000, kVecBlock = 256;                  // own_vector_sum: 196 groups, the last partial
constexpr int kMmTile = 16;                                    // own_tiled_matmul<16>
constexpr int kMmHA = 128, kMmWA = 128, kMmWB = 256;           // C = A(128x128) B(128x256)
constexpr int kTrN = 256;                                      // transposes: 256 x 256, 32 x 32 tiles, 32 x 8 groups
constexpr unsigned kRedN = 1u << 16, kRedThreads = 256;        // own_reduce_*
constexpr unsigned kRedStridedBlocks = 64;                     // own_reduce_strided's fixed grid
constexpr unsigned kHistBytes = 1u << 18;                      // histogram input bytes
constexpr unsigned kHist256Groups = 64, kHist256Threads = 256; // own_histogram256 (grid-stride)
constexpr unsigned kHist64Groups = 16, kHist64Threads = 128;   // own_histogram64_warps (grid-stride)
constexpr int kConvW = 256, kConvH = 128, kConvRadius = 8;     // own_filter_rows / own_filter_columns
constexpr unsigned kScanN = 16384, kScanChunk = 512;           // own_scan_*: 32 chunks of 512

// ---- inputs ------------------------------------------------------------------------------------
inline float vec_a(int i) { return float((7 * i + 3) % 13 - 6); }
inline float vec_b(int i) { return float((5 * i + 1) % 11 - 5); }
inline float mm_a(int i) { return float((7 * i + 3) % 13 - 6); }
inline float mm_b(int i) { return float((5 * i + 1) % 11 - 5); }
inline float tr_in(int i) { return float(3 * i + 1); }
inline int red_int(unsigned i) { return int((7 * i + 1) % 19) - 9; }
inline double red_double(unsigned i) { return double(i % 17) * 0.5 - 4.0; }
inline std::uint32_t hist_word(unsigned i) {  // 4 input bytes per word
  std::uint32_t w = 0;
  for (unsigned b = 0; b < 4; ++b) w |= ((std::uint32_t(4 * i + b) * 2654435761u) >> 13 & 0xFFu) << (8 * b);
  return w;
}
inline float conv_kernel(int k) { return float(k % 5 + 1) / 16.0f; }  // own_taps[0..16]
inline float conv_src(int i) { return float((7 * i + 2) % 16); }
inline unsigned scan_in(unsigned i) { return (13 * i + 5) % 64; }

// ---- references --------------------------------------------------------------------------------
inline std::vector<float> ref_matmul(const std::vector<float>& A, const std::vector<float>& B) {
  std::vector<float> C(std::size_t(kMmHA) * kMmWB);
  for (int i = 0; i < kMmHA; ++i)
    for (int j = 0; j < kMmWB; ++j) {
      float s = 0;
      for (int k = 0; k < kMmWA; ++k) s += A[i * kMmWA + k] * B[k * kMmWB + j];
      C[i * kMmWB + j] = s;
    }
  return C;
}

// What each transpose kernel leaves in odata[y * n + x] (n = kTrN).
inline float ref_transpose(bool transposed, const std::vector<float>& in, int x, int y) {
  return transposed ? in[x * kTrN + y] : in[y * kTrN + x];
}

template <class T, class F> std::vector<T> ref_block_sums(F in, unsigned n, unsigned per_block, unsigned blocks) {
  std::vector<T> s(blocks, T(0));
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned i = b * per_block; i < (b + 1) * per_block && i < n; ++i) s[b] += in(i);
  return s;
}
// own_reduce_strided: group b sums the elements i with (i / threads) % blocks == b.
inline std::vector<int> ref_strided_sums(unsigned n, unsigned threads, unsigned blocks) {
  std::vector<int> s(blocks, 0);
  for (unsigned i = 0; i < n; ++i) s[(i / threads) % blocks] += red_int(i);
  return s;
}

inline std::vector<std::uint32_t> ref_histogram(unsigned bins) {  // 64: the top 6 bits of each byte
  std::vector<std::uint32_t> h(bins, 0);
  for (unsigned w = 0; w < kHistBytes / 4; ++w)
    for (unsigned b = 0; b < 4; ++b) {
      const unsigned byte = hist_word(w) >> (8 * b) & 0xFFu;
      ++h[bins == 64 ? byte >> 2 : byte];
    }
  return h;
}

// The rows / columns filters: dst[x] = sum over k of src[x + k] * taps[radius - k], zero outside.
inline std::vector<float> ref_conv_rows(const std::vector<float>& src) {
  std::vector<float> dst(src.size());
  for (int y = 0; y < kConvH; ++y)
    for (int x = 0; x < kConvW; ++x) {
      float s = 0;
      for (int k = -kConvRadius; k <= kConvRadius; ++k)
        if (x + k >= 0 && x + k < kConvW) s += src[y * kConvW + x + k] * conv_kernel(kConvRadius - k);
      dst[y * kConvW + x] = s;
    }
  return dst;
}
inline std::vector<float> ref_conv_columns(const std::vector<float>& src) {
  std::vector<float> dst(src.size());
  for (int y = 0; y < kConvH; ++y)
    for (int x = 0; x < kConvW; ++x) {
      float s = 0;
      for (int k = -kConvRadius; k <= kConvRadius; ++k)
        if (y + k >= 0 && y + k < kConvH) s += src[(y + k) * kConvW + x] * conv_kernel(kConvRadius - k);
      dst[y * kConvW + x] = s;
    }
  return dst;
}

inline std::vector<unsigned> ref_scan_exclusive() {
  std::vector<unsigned> out(kScanN);
  unsigned s = 0;
  for (unsigned i = 0; i < kScanN; ++i) out[i] = s, s += scan_in(i);
  return out;
}

}  // namespace samples

#endif
