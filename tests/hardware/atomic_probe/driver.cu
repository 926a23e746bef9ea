// nvcc's host side for atomic_probe.cu: launches every probe once, one block of 32 threads, on
// zeroed buffers, in the order of the list below (record.sh names ncu's launches by it).
#include <cstdio>

#include "atomic_probe.cu"

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e = (x);                                                      \
    if (e != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));            \
      return 1;                                                               \
    }                                                                         \
  } while (0)

int main() {
  void *p = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&p, 4096));
  CHECK(cudaMalloc(&out, 4096));
  auto fresh = [&] { return cudaMemset(p, 0, 4096) == cudaSuccess && cudaMemset(out, 0, 4096) == cudaSuccess; };
  float* f = static_cast<float*>(p);
  unsigned* u = static_cast<unsigned*>(p);
  unsigned* o = static_cast<unsigned*>(out);
#define RUN(k, ...)                    \
  if (!fresh()) return 1;              \
  k<<<1, 32>>>(__VA_ARGS__);           \
  CHECK(cudaDeviceSynchronize());      \
  std::printf("ran %s\n", #k);
  RUN(red_one_word, f)
  RUN(red_consecutive, f)
  RUN(red_two_words_one_sector, f)
  RUN(red_eight_words_one_sector, f)
  RUN(red_two_sectors, f)
  RUN(red_pairs, f)
  RUN(red_sector_stride, f)
  RUN(red_uneven, f)
  RUN(red_half_warp, f)
  RUN(red_uint_one_word, u)
  RUN(atom_one_word, u, o)
  RUN(atom_pairs, u, o)
  RUN(atom_cas_one_word, u, o)
  RUN(atom_exch_four_words, u, o)
  RUN(red_double_one_word, static_cast<double*>(p))
  RUN(red_u64_pairs, static_cast<unsigned long long*>(p))
  RUN(red_max_one_word, static_cast<int*>(p))
  RUN(red_u64_one_word, static_cast<unsigned long long*>(p))
  RUN(atom_max_one_word, static_cast<int*>(p), o)
  RUN(red_or_one_word, u)
  RUN(atom_inc_one_word, u, o)
  RUN(red_uint_runtime_one_word, u, o)
  RUN(red_float_block_word, f)
  RUN(red_uint_block_word, u)
  return 0;
}
