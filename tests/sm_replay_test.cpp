// The cache model's SMs fed in group order (sim/src/analyses/cache/sm_replay.hpp): a group owns its SM's L1
// when every earlier group of the SM is done, else its loads are recorded and replayed in
// group order; the counts are those of one worker running the groups one after another.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dialect/cuda.hpp"
#include <tgsim/tgsim.hpp>

#include "analyses/cache/sm_replay.hpp"
#include "catalog.hpp"

using tgsim::Dim3;

namespace {

using tgsim::detail::L1Cache;
using Entry = std::pair<const L1Cache*, std::uint64_t>;  // the SM's L1, the record's first word

// Replays into `log` the records' first words, per SM (the L1 tells which SM replays).
struct Replays {
  std::vector<Entry> log;
  void operator()(tgsim::detail::L1Cache& l1, const std::vector<std::uint64_t>& rec) {
    log.emplace_back(&l1, rec.empty() ? ~0ull : rec[0]);
  }
};

}  // namespace

TEST(SmReplay, ClaimOnlyWhenEarlierGroupsAreDoneAndReplayInGroupOrder) {
  tgsim::detail::SmReplay sms(tgsim::profiles::nvidia_h100(), 2);  // groups 0, 2, 4 on SM 0
  Replays r;
  tgsim::detail::L1Cache* sm0 = sms.claim(0);
  ASSERT_NE(sm0, nullptr);
  EXPECT_EQ(sms.claim(2), nullptr) << "group 0 of SM 0 has not ended";
  EXPECT_EQ(sms.claim(4), nullptr);
  std::vector<std::uint64_t> rec4{4}, rec2{2}, rec1{1}, rec0;
  sms.submit(4, rec4, std::ref(r));  // held: SM 0 waits for 0 and 2
  EXPECT_TRUE(rec4.empty());
  EXPECT_TRUE(r.log.empty());
  sms.submit(2, rec2, std::ref(r));  // held
  tgsim::detail::L1Cache* sm1 = sms.claim(1);
  ASSERT_NE(sm1, nullptr);
  EXPECT_NE(sm1, sm0);
  sms.submit(1, rec1, std::ref(r));  // SM 1 replays group 1 at once
  ASSERT_EQ(r.log.size(), 1u);
  EXPECT_EQ(r.log[0], Entry(sm1, 1));
  EXPECT_NE(sms.claim(3), nullptr);
  sms.submit(0, rec0, std::ref(r));  // group 0 looked its loads up itself: empty, then 2 and 4
  ASSERT_EQ(r.log.size(), 4u);
  EXPECT_EQ(r.log[1], Entry(sm0, ~0ull));
  EXPECT_EQ(r.log[2], Entry(sm0, 2));
  EXPECT_EQ(r.log[3], Entry(sm0, 4));
  EXPECT_EQ(sms.claim(6), sm0) << "every earlier group of SM 0 is replayed";
  EXPECT_EQ(sms.claim(5), nullptr) << "group 3 of SM 1 has not ended";
}

namespace {

// Odd groups load four times as long as even ones, cycling over a 256 KiB array (as large as
// the SM's L1), so a group's hits depend on what the SM's earlier groups left in L1.
TG_KERNEL void long_and_short(TG_GLOBAL(const float) in, TG_GLOBAL(float) out, int base) {
  const int iters = blockIdx.x % 2 ? 4 * base : base;
  float s = 0;
  for (int i = 0; i < iters; ++i) s += in[(i * 32 + static_cast<int>(threadIdx.x)) % 65536];
  out[blockIdx.x * 32 + threadIdx.x] = s;
}

// One device and its buffers for every run: the L1's hashed sets follow the device addresses,
// and a buffer allocated again gets new ones.
struct LongAndShort {
  explicit LongAndShort(const tgsim::DeviceProfile& p)
      : dev(p), in(dev.alloc<float>(65536, "in")), out(dev.alloc<float>(8 * 32, "out")) {
    for (int i = 0; i < 65536; ++i) in[i] = 1.0f;
  }
  std::string run(unsigned threads, tgsim::Counters* c = nullptr) {
    tgsim::LaunchConfig cfg;
    cfg.grid = Dim3(8);
    cfg.block = Dim3(32);
    cfg.threads = threads;
    cfg.name = "long_and_short";
    const tgsim::Report r = dev.launch(cfg, long_and_short, in, out, 10000);
    if (c) *c = r.counters;
    return tgsim::to_json(r);
  }
  tgsim::Device dev;
  tgsim::Buffer<float> in, out;
};

}  // namespace

// With one or two SMs and several workers, groups start while an earlier group of their SM
// still runs: they record, replay when their SM is free (a long group as soon as its record
// reaches 64 Ki words and the SM has become free), or wait as records. The report is the
// same as one worker's, which owns every SM at every group's start.
TEST(SmReplay, FewSmsManyWorkersCountAsOneWorker) {
  for (std::uint32_t sms : {1u, 2u}) {
    tgsim::DeviceProfile p = tgsim::profiles::nvidia_h100();
    p.sm_count = sms;
    LongAndShort k(p);
    tgsim::Counters one;
    const std::string first = k.run(1, &one);
    EXPECT_GT(one.global_load.l1_hit_sectors, 0u);
    EXPECT_LT(one.global_load.l1_hit_sectors, one.global_load.sectors);
    for (unsigned threads : {2u, 3u, 4u, 1u})
      EXPECT_EQ(k.run(threads), first) << sms << " SMs, " << threads << " workers";
  }
  // Catalog kernels with many groups on few SMs.
  for (const char* k : {"matmul_tiled16", "matmul_naive", "transpose_shared"}) {
    tgsim::DeviceProfile p = tgsim::profiles::nvidia_h100();
    p.sm_count = 3;
    std::string first;
    for (unsigned threads : {1u, 2u, 3u}) {
      tgsim::catalog::RunOptions o;
      o.n = 128;
      o.threads = threads;
      const std::string j = tgsim::to_json(tgsim::catalog::run(tgsim::Device{p}, k, o).report);
      if (first.empty()) first = j;
      EXPECT_EQ(j, first) << k << " threads " << threads;
    }
  }
}
