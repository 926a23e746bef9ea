// Loops that share nothing, timed alone and on N threads at once: what a machine allows a
// program at N threads. A loop that touches only registers or its own buffer slows at once
// only where the cores share something underneath (a host's hyperthreads or other tenants of
// a virtual machine, the clock when all are busy, what serves their private caches), as any
// program would. `tgsim bench` times two of them beside its rows; tests/bench/machine_loops.cpp
// times these and five more on the device machines.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace tgsim::machine {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// 8 independent 64-bit multiply-add chains in registers, `iterations` steps of each.
inline double scalar_chains_seconds(long iterations) {
  std::uint64_t y[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < iterations; ++i) {
    for (std::uint64_t j = 0; j < 8; ++j) y[j] = y[j] * 6364136223846793005ull + j;
    asm volatile("" : "+r"(y[0]), "+r"(y[1]), "+r"(y[2]), "+r"(y[3]), "+r"(y[4]), "+r"(y[5]), "+r"(y[6]), "+r"(y[7]));
  }
  return seconds_since(t0);
}

// Independent reads of a private buffer of `bytes`, 16 bytes per 64-byte line, `passes` times
// over the whole buffer: the bandwidth of the cache level the buffer fits in.
inline double private_reads_seconds(std::size_t bytes, long passes) {
  std::vector<std::uint64_t> buf(bytes / sizeof(std::uint64_t), 1);
  std::uint64_t s = 0;
  for (std::uint64_t v : buf) s += v;  // resident before the clock starts
  const auto t0 = std::chrono::steady_clock::now();
  for (long pass = 0; pass < passes; ++pass) {
    for (std::size_t i = 0; i + 1 < buf.size(); i += 8) s += buf[i] ^ buf[i + 1];
    asm volatile("" : "+r"(s) : : "memory");  // every pass reads the buffer again
  }
  return seconds_since(t0);
}

// One loop's efficiency at `workers` threads: the loop alone, then on `workers` threads at
// once (their mean time), each the minimum over the rounds; efficiency = alone / all.
struct LoopScaling {
  std::function<double()> loop;
  double alone = 1e300, all = 1e300;
  void round(unsigned workers) {
    alone = std::min(alone, loop());
    std::vector<double> sec(workers);
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < workers; ++i) threads.emplace_back([this, &sec, i] { sec[i] = loop(); });
    for (std::thread& t : threads) t.join();
    double sum = 0;
    for (double v : sec) sum += v;
    all = std::min(all, sum / workers);
  }
  double efficiency() const { return all < 1e300 ? alone / all : 0.0; }
};

}  // namespace tgsim::machine
