// thrust::random, written for tgsim: the engines as thrust defines them (default_random_engine
// is minstd_rand: x = 48271 x mod 2^31-1) with std's distributions (their values may differ
// from thrust's own distributions).
#pragma once
#include <random>

namespace thrust {
namespace random {
typedef std::linear_congruential_engine<unsigned, 48271, 0, 2147483647> minstd_rand;
typedef std::linear_congruential_engine<unsigned, 16807, 0, 2147483647> minstd_rand0;
typedef minstd_rand default_random_engine;
typedef std::ranlux24 ranlux24;
typedef std::ranlux48 ranlux48;
typedef std::mt19937 taus88;
using std::normal_distribution;
using std::uniform_int_distribution;
using std::uniform_real_distribution;
}  // namespace random
using random::default_random_engine;
using random::minstd_rand;
using random::normal_distribution;
using random::uniform_int_distribution;
using random::uniform_real_distribution;
}  // namespace thrust
