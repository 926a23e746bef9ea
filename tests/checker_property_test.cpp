// The race checker (sim/src/analyses/checker/checker.cpp) against a brute-force oracle on random small kernels.
//
// A random kernel is a script per thread: barrier intervals, each split (per warp) into
// __syncwarp segments, each segment a random sequence of 4-byte loads and stores of a small
// shared array, at one of three load sites and three store sites (distinct source lines).
// The oracle takes every access to one word in one barrier interval and, among the stores of
// other threads not ordered with it (a __syncwarp orders lanes of one warp), picks the nearest
// on each side in lockstep order (each thread's access sequence number, then thread): a load
// pairs with the store before it (number <= its own: RAW) and the store after it (WAR), a store
// with the store before it (WAW, dropped when both stored the same value unless
// report_same_value_waw) -- the rule racecheck's shadow memory follows; and it marks a load
// uninitialised when no earlier interval stored to the word, its own thread did not store
// before it, no lane of its warp stored before a __syncwarp that precedes it, and no other
// unordered thread stores to the word. It then compares the multiset of
// (kind, site line, second site line) -> count with tgsim's findings, for a random schedule.
//
// 20,000 kernels from a fixed seed; TGSIM_PROPERTY_SEED=N picks another seed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <sstream>
#include <tuple>
#include <vector>

#include "dialect/cuda.hpp"
#include <tgsim/tgsim.hpp>

namespace {

using tgsim::FindingKind;

constexpr int kWords = 6;
enum class Op : std::uint8_t { kLoad, kStore, kSyncwarp, kBarrier };
struct Step {
  Op op;
  std::uint8_t word = 0, site = 0;
  int value = 0;
};
struct Program {
  std::uint32_t nthreads = 0;
  std::vector<std::vector<Step>> script;  // per thread
  bool same_value_waw = false;
};

// The access sites: each case on its own line, so a finding's line names the site.
const int kSiteBase = __LINE__;
inline int do_load(tgsim::shared_array<int[kWords]> s, int site, int w) {
  switch (site) {
    case 0: return s[w];  // kSiteBase + 3
    case 1: return s[w];  // kSiteBase + 4
    default: return s[w];  // kSiteBase + 5
  }
}
inline void do_store(tgsim::shared_array<int[kWords]> s, int site, int w, int v) {
  switch (site) {
    case 0: s[w] = v; break;  // kSiteBase + 10
    case 1: s[w] = v; break;  // kSiteBase + 11
    default: s[w] = v; break;  // kSiteBase + 12
  }
}
std::uint32_t load_line(int site) { return kSiteBase + 3 + site; }
std::uint32_t store_line(int site) { return kSiteBase + 10 + site; }

Program random_program(std::mt19937_64& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  Program p;
  p.nthreads = 1 + pick(80);  // up to three warps, partial last warp
  p.same_value_waw = pick(4) == 0;
  p.script.resize(p.nthreads);
  const int intervals = 1 + pick(3);
  const std::uint32_t nwarps = (p.nthreads + 31) / 32;
  const int max_ops = 1 + pick(4);
  const int values = 1 + pick(3);  // few values: same-value stores happen
  if (pick(2)) {  // half the kernels first initialise every word (one writer per word)
    for (int w = 0; w < kWords; ++w)
      p.script[static_cast<std::uint32_t>(w) % p.nthreads].push_back({Op::kStore, std::uint8_t(w), 0, 0});
    for (auto& s : p.script) s.push_back({Op::kBarrier});
  }
  for (int iv = 0; iv < intervals; ++iv) {
    if (iv) for (auto& s : p.script) s.push_back({Op::kBarrier});
    for (std::uint32_t w = 0; w < nwarps; ++w) {
      const int segments = 1 + (pick(3) == 0 ? pick(3) : 0);
      for (int seg = 0; seg < segments; ++seg) {
        for (std::uint32_t t = w * 32; t < std::min<std::uint32_t>(p.nthreads, w * 32 + 32); ++t) {
          auto& s = p.script[t];
          if (seg) s.push_back({Op::kSyncwarp});
          // Most threads idle: races stay few enough to read.
          if (pick(3) != 0) continue;
          int n = pick(max_ops + 1);
          for (int k = 0; k < n; ++k) {
            Step st;
            st.op = pick(2) ? Op::kLoad : Op::kStore;
            st.word = static_cast<std::uint8_t>(pick(kWords));
            st.site = static_cast<std::uint8_t>(pick(3));
            st.value = pick(values);
            s.push_back(st);
          }
        }
      }
    }
  }
  return p;
}

// (kind, line1, line2) -> count
using Tally = std::map<std::tuple<int, std::uint32_t, std::uint32_t>, std::uint64_t>;

FindingKind warp_kind(FindingKind k) {
  return k == FindingKind::kRaw ? FindingKind::kWarpRaw
         : k == FindingKind::kWar ? FindingKind::kWarpWar
                                   : FindingKind::kWarpWaw;
}

Tally oracle(const Program& p) {
  struct Acc {
    std::uint32_t thread, seq, wsync, line;
    bool write;
    int value;
  };
  Tally out;
  std::vector<bool> init(kWords, false);
  std::vector<std::size_t> pc(p.nthreads, 0);
  const std::uint32_t nwarps = (p.nthreads + 31) / 32;
  std::vector<std::uint32_t> wsync(nwarps, 0);  // a warp's __syncwarp count (all lanes agree)
  for (;;) {
    // One interval: every thread runs up to its next barrier.
    std::vector<std::vector<Acc>> per_word(kWords);
    bool more = false;
    std::vector<std::uint32_t> wsync_at_end(nwarps, 0);
    for (std::uint32_t t = 0; t < p.nthreads; ++t) {
      std::uint32_t seq = 0, ws = wsync[t / 32];
      auto& s = p.script[t];
      std::size_t& i = pc[t];
      for (; i < s.size() && s[i].op != Op::kBarrier; ++i) {
        const Step& st = s[i];
        if (st.op == Op::kSyncwarp) { ++ws; continue; }
        bool w = st.op == Op::kStore;
        per_word[st.word].push_back(
            Acc{t, seq++, ws, w ? store_line(st.site) : load_line(st.site), w, st.value});
      }
      wsync_at_end[t / 32] = ws;
      if (i < s.size()) { ++i; more = true; }
    }
    wsync = wsync_at_end;
    for (int word = 0; word < kWords; ++word) {
      const auto& v = per_word[word];
      bool any_write = false;
      // Each access against the nearest unordered store of another thread on each side, in
      // lockstep order (seq, thread): a load with the store before it (seq <= its own: RAW)
      // and the store after it (WAR); a store with the store before it (WAW).
      for (const Acc& a : v) {
        any_write |= a.write;
        const Acc *before = nullptr, *after = nullptr;
        for (const Acc& b : v) {
          if (!b.write || b.thread == a.thread) continue;
          if (a.thread / 32 == b.thread / 32 && a.wsync != b.wsync) continue;
          bool b_first = a.write ? std::tie(b.seq, b.thread) < std::tie(a.seq, a.thread) : b.seq <= a.seq;
          if (b_first) {
            if (!before || std::tie(before->seq, before->thread) < std::tie(b.seq, b.thread)) before = &b;
          } else if (!a.write) {
            if (!after || std::tie(b.seq, b.thread) < std::tie(after->seq, after->thread)) after = &b;
          }
        }
        auto kind = [&](FindingKind k, const Acc& b) { return a.thread / 32 == b.thread / 32 ? warp_kind(k) : k; };
        if (a.write) {
          if (before && (before->value != a.value || p.same_value_waw))
            ++out[{static_cast<int>(kind(FindingKind::kWaw, *before)), before->line, a.line}];
        } else {
          if (before) ++out[{static_cast<int>(kind(FindingKind::kRaw, *before)), before->line, a.line}];
          if (after) ++out[{static_cast<int>(kind(FindingKind::kWar, *after)), a.line, after->line}];
        }
      }
      if (!init[word]) {
        for (const Acc& r : v) {
          if (r.write) continue;
          bool before = false, racing = false;
          for (const Acc& w : v) {
            if (!w.write) continue;
            if (w.thread == r.thread)
              before |= w.seq < r.seq;
            else if (w.thread / 32 == r.thread / 32 && w.wsync != r.wsync)
              before |= w.wsync < r.wsync;
            else
              racing = true;
          }
          if (!before && !racing) ++out[{static_cast<int>(FindingKind::kUninitialized), r.line, 0}];
        }
      }
      if (any_write) init[word] = true;
    }
    if (!more) break;
  }
  return out;
}

Tally simulate(const Program& p, tgsim::Schedule sched, std::uint64_t seed) {
  tgsim::Device dev;
  tgsim::LaunchConfig c;
  c.grid = tgsim::Dim3(1);
  c.block = tgsim::Dim3(p.nthreads);
  c.threads = 1;
  c.check = true;
  c.schedule = sched;
  c.shuffle_seed = seed;
  c.report_same_value_waw = p.same_value_waw;
  c.stack_bytes = 64 * 1024;
  auto r = dev.launch(c, [&p](tgsim::ThreadCtx& t) {
    auto s = t.shared<int[kWords]>("s");
    int sink = 0;
    for (const Step& st : p.script[t.linear_tid]) {
      switch (st.op) {
        case Op::kLoad: sink += do_load(s, st.site, st.word); break;
        case Op::kStore: do_store(s, st.site, st.word, st.value); break;
        case Op::kSyncwarp: t.syncwarp(); break;
        case Op::kBarrier: t.barrier(); break;
      }
    }
    (void)sink;
  });
  Tally out;
  for (const tgsim::Finding& f : r.findings) {
    EXPECT_TRUE(tgsim::is_hazard(f.kind) || f.kind == FindingKind::kUninitialized)
        << tgsim::to_string(f.kind) << ": " << f.message;
    out[{static_cast<int>(f.kind), f.line, f.line2}] += f.count;
  }
  return out;
}

std::string show(const Tally& t) {
  std::ostringstream os;
  for (const auto& [k, n] : t)
    os << "  " << tgsim::to_string(static_cast<FindingKind>(std::get<0>(k))) << " "
       << std::get<1>(k) - kSiteBase << "/" << (std::get<2>(k) ? std::get<2>(k) - kSiteBase : 0)
       << " x" << n << "\n";
  return os.str();
}

std::string describe(const Program& p) {
  std::ostringstream os;
  os << p.nthreads << " threads, same_value_waw " << p.same_value_waw << "\n";
  for (std::uint32_t t = 0; t < p.nthreads; ++t) {
    if (p.script[t].empty()) continue;
    os << "  t" << t << ":";
    for (const Step& s : p.script[t]) {
      switch (s.op) {
        case Op::kLoad: os << " L" << int(s.site) << "[" << int(s.word) << "]"; break;
        case Op::kStore: os << " S" << int(s.site) << "[" << int(s.word) << "]=" << s.value; break;
        case Op::kSyncwarp: os << " |w"; break;
        case Op::kBarrier: os << " ||"; break;
      }
    }
    os << "\n";
  }
  return os.str();
}

std::uint64_t seed() {
  const char* s = std::getenv("TGSIM_PROPERTY_SEED");
  return s ? std::strtoull(s, nullptr, 10) : 20261122;
}

TEST(CheckerProperty, RaceCheckerMatchesPairwiseOracle) {
  std::mt19937_64 rng(seed());
  const int cases = 20000;
  int with_findings = 0, with_hazards = 0, failures = 0;
  std::uint64_t pairs = 0;
  for (int c = 0; c < cases && failures < 3; ++c) {
    Program p = random_program(rng);
    Tally want = oracle(p);
    auto sched = static_cast<tgsim::Schedule>(rng() % 3);
    Tally got = simulate(p, sched, rng());
    with_findings += !want.empty();
    bool hazard = false;
    for (const auto& [k, n] : want) hazard |= tgsim::is_hazard(static_cast<FindingKind>(std::get<0>(k)));
    with_hazards += hazard;
    for (const auto& [k, n] : want) pairs += n;
    if (got != want) {
      ++failures;
      ADD_FAILURE() << "case " << c << " (seed " << seed() << "), schedule " << int(sched)
                    << "\n" << describe(p) << "oracle:\n" << show(want) << "tgsim:\n" << show(got);
    }
  }
  // The generator must reach the interesting cases, not only clean kernels.
  EXPECT_GT(with_hazards, cases / 4);
  EXPECT_LT(with_findings, cases);
  RecordProperty("cases", cases);
  std::printf("checker property: %d kernels, %d with findings, %d with hazards, %llu hazard pairs "
              "and uninitialised reads, %d mismatches\n",
              cases, with_findings, with_hazards, static_cast<unsigned long long>(pairs), failures);
}

}  // namespace
