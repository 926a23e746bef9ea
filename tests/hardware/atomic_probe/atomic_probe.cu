// One-warp probes of global atomics where lanes share words and sectors: what the H100 counts as
// the sectors of one ATOMG/REDG (recorded by record.sh under Nsight Compute, atomic_probe_h100.json)
// and what tgsim counts (tests/atomic_probe_test.cpp). Each kernel is launched with one block of
// 32 threads; `word(lane)` is the 4-byte word (or 8-byte word for the double/long probes) of
// `p` that lane adds to. Plain CUDA: the same file builds with nvcc and with tgsim's front end.

// REDG (result unused), float: every lane on one word.
__global__ void red_one_word(float* p) { atomicAdd(&p[0], 1.0f); }
// Every lane its own word, 32 consecutive words (4 sectors).
__global__ void red_consecutive(float* p) { atomicAdd(&p[threadIdx.x], 1.0f); }
// Two words of one sector, 16 lanes each.
__global__ void red_two_words_one_sector(float* p) { atomicAdd(&p[threadIdx.x & 1], 1.0f); }
// Eight words of one sector, 4 lanes each.
__global__ void red_eight_words_one_sector(float* p) { atomicAdd(&p[threadIdx.x & 7], 1.0f); }
// Two words in two sectors, 16 lanes each.
__global__ void red_two_sectors(float* p) { atomicAdd(&p[(threadIdx.x & 1) * 8], 1.0f); }
// Pairs of lanes on a word: 16 words in 2 sectors.
__global__ void red_pairs(float* p) { atomicAdd(&p[threadIdx.x / 2], 1.0f); }
// Every lane its own sector.
__global__ void red_sector_stride(float* p) { atomicAdd(&p[threadIdx.x * 8], 1.0f); }
// Uneven: lanes 0-19 on word 0, lanes 20-31 on word 9 (another sector), 12 lanes.
__global__ void red_uneven(float* p) { atomicAdd(&p[threadIdx.x < 20 ? 0 : 9], 1.0f); }
// Half the warp active, all on one word.
__global__ void red_half_warp(float* p) {
  if (threadIdx.x < 16) atomicAdd(&p[0], 1.0f);
}
// Unsigned integer add on one word.
__global__ void red_uint_one_word(unsigned* p) { atomicAdd(&p[0], 1u); }
// ATOMG (result used): every lane on one word.
__global__ void atom_one_word(unsigned* p, unsigned* out) { out[threadIdx.x] = atomicAdd(&p[0], 1u); }
// ATOMG: pairs of lanes on a word.
__global__ void atom_pairs(unsigned* p, unsigned* out) { out[threadIdx.x] = atomicAdd(&p[threadIdx.x / 2], 1u); }
// ATOMG: compare-and-swap, every lane on one word.
__global__ void atom_cas_one_word(unsigned* p, unsigned* out) {
  out[threadIdx.x] = atomicCAS(&p[0], 0u, threadIdx.x);
}
// ATOMG: exchange, four words of one sector, 8 lanes each.
__global__ void atom_exch_four_words(unsigned* p, unsigned* out) {
  out[threadIdx.x] = atomicExch(&p[threadIdx.x & 3], threadIdx.x);
}
// 8-byte words: double add on one word.
__global__ void red_double_one_word(double* p) { atomicAdd(&p[0], 1.0); }
// 8-byte words: unsigned long long add, pairs of lanes on a word (16 words, 4 sectors).
__global__ void red_u64_pairs(unsigned long long* p) { atomicAdd(&p[threadIdx.x / 2], 1ull); }
// Max on one word (ATOMG/REDG.MAX).
__global__ void red_max_one_word(int* p) { atomicMax(&p[0], static_cast<int>(threadIdx.x)); }
// 8-byte integer add on one word.
__global__ void red_u64_one_word(unsigned long long* p) { atomicAdd(&p[0], 1ull); }
// ATOMG max, result used, on one word.
__global__ void atom_max_one_word(int* p, unsigned* out) {
  out[threadIdx.x] = static_cast<unsigned>(atomicMax(&p[0], static_cast<int>(threadIdx.x)));
}
// REDG or on one word.
__global__ void red_or_one_word(unsigned* p) { atomicOr(&p[0], 1u << (threadIdx.x & 31)); }
// ATOMG inc on one word.
__global__ void atom_inc_one_word(unsigned* p, unsigned* out) { out[threadIdx.x] = atomicInc(&p[0], 1000u); }
// Integer add to a word every lane shares at run time only (its index read from memory: `out`
// is zeroed), which the compiler cannot prove uniform.
__global__ void red_uint_runtime_one_word(unsigned* p, unsigned* out) { atomicAdd(&p[out[threadIdx.x]], 1u); }
// Float add to one word by a block-uniform index (blockIdx.x: provably uniform).
__global__ void red_float_block_word(float* p) { atomicAdd(&p[blockIdx.x], 1.0f); }
// Integer add with a provably uniform index that is not a constant.
__global__ void red_uint_block_word(unsigned* p) { atomicAdd(&p[blockIdx.x], 1u); }
