// machine_loops THREADS [SCALE]: what a machine allows a program that shares nothing. Each loop
// (sim/cli/machine_loops.hpp's two, which tgsim bench also times, and five more) runs alone,
// then on THREADS threads at once (their mean time), each the minimum of 3 rounds, and prints
// efficiency = alone / at once. tgsim's efficiency target (85% at 16 workers) is judged against
// these on the device machines (tests/bench/device_bench.sh DIR machine). SCALE (default 1)
// multiplies every loop's length.
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "machine_loops.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using tgsim::machine::seconds_since;
double scale = 1.0;

long steps(double n) { return std::max(1L, static_cast<long>(n * scale)); }

// 8 independent chains of 256-bit fused multiply-adds (the CPU's wide units and their clock).
__attribute__((target("avx2,fma"))) double avx2_chains() {
  const long n = steps(60e6);
  __m256 a[8];
  for (int j = 0; j < 8; ++j) a[j] = _mm256_set1_ps(1.0f + float(j) * 1e-3f);
  const __m256 m = _mm256_set1_ps(0.999999f), c = _mm256_set1_ps(1e-6f);
  const auto t0 = Clock::now();
  for (long i = 0; i < n; ++i) {
    for (int j = 0; j < 8; ++j) a[j] = _mm256_fmadd_ps(a[j], m, c);
    asm volatile("" : "+x"(a[0]), "+x"(a[1]), "+x"(a[2]), "+x"(a[3]), "+x"(a[4]), "+x"(a[5]), "+x"(a[6]), "+x"(a[7]));
  }
  return seconds_since(t0);
}

// A dependent walk over the lines of a private buffer in a random cycle: one load at a time,
// so its time is the latency of the level the buffer fits in.
double chase(std::size_t bytes, double n_steps) {
  const std::size_t lines = bytes / 64;
  std::vector<std::uint64_t> buf(lines * 8);
  std::vector<std::size_t> order(lines);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin() + 1, order.end(), std::mt19937_64(42));
  for (std::size_t i = 0; i < lines; ++i) buf[order[i] * 8] = order[(i + 1) % lines] * 8;
  const long n = steps(n_steps);
  std::uint64_t p = 0;
  const auto t0 = Clock::now();
  for (long i = 0; i < n; ++i) p = buf[p];
  asm volatile("" : "+r"(p));
  return seconds_since(t0);
}

void measure(const char* name, unsigned threads, std::function<double()> loop) {
  tgsim::machine::LoopScaling l{std::move(loop)};
  for (int round = 0; round < 3; ++round) l.round(threads);
  std::printf("%-40s alone %.3f s, each of %u at once %.3f s: efficiency %.3f\n", name, l.alone, threads, l.all,
              l.efficiency());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const long threads = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 0;
  if (threads < 1 || threads > 4096 || (argc > 2 && (scale = std::strtod(argv[2], nullptr)) <= 0)) {
    std::fprintf(stderr, "usage: machine_loops THREADS [SCALE]  (THREADS 1..4096, SCALE > 0)\n");
    return 2;
  }
  const unsigned t = static_cast<unsigned>(threads);
  using namespace tgsim::machine;
  measure("8 scalar multiply chains (registers)", t, [] { return scalar_chains_seconds(steps(60e6)); });
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    measure("8 AVX2 FMA chains (registers)", t, avx2_chains);
  measure("pointer chase, private 32 KiB (L1)", t, [] { return chase(32 << 10, 100e6); });
  measure("pointer chase, private 1 MiB (L2)", t, [] { return chase(1 << 20, 30e6); });
  measure("pointer chase, private 16 MiB (L3)", t, [] { return chase(16 << 20, 5e6); });
  measure("reads of a private 1 MiB (L2)", t, [] { return private_reads_seconds(1 << 20, steps(12000)); });
  measure("reads of a private 8 MiB (L3)", t, [] { return private_reads_seconds(8 << 20, steps(1200)); });
  return 0;
}
