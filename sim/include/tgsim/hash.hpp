// The multiplicative-hash constant every hash in tgsim uses, and the two functions built on it.
// One definition matters: the tag cache's slot (record.hpp) is computed by the library and,
// inline, by the code the LLVM pass emits into kernels (sim/pass/instrument.cpp).
#pragma once
#include <cstdint>

namespace tgsim::detail {

// 2^64 / golden ratio, odd: multiplying by it spreads the low bits of a key into the high ones.
inline constexpr std::uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ull;

// Fibonacci hashing: the top (64 - shift) bits of key * kGoldenGamma.
constexpr std::uint64_t fib_hash(std::uint64_t key, unsigned shift) { return (key * kGoldenGamma) >> shift; }

// splitmix64 (Steele, Lea, Flood 2014): a fast, well-mixed sequence from a 64-bit state.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += kGoldenGamma);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace tgsim::detail
