// The cache-model sink (sink_cache.hpp): per-site sectors and L1 hits of global loads and
// stores, and the launch's L2 traffic (the workers' sums) and DRAM traffic (the footprint).
#include "analyses/cache/sink_cache.hpp"

#include <bit>

namespace tgsim::detail {

CacheSink::CacheSink(LaunchState& st, const SinkEnv&) {
  if (st.cfg.cache_model && st.cfg.count) {
    sim_ = std::make_unique<CacheSim>(st.profile, *st.footprint);
    sms_ = st.sm_replay.get();
  }
}

// The sector gathering of the cache model gives the sector count (one pass over the lanes).
void CacheSink::count(const WarpInstruction& in) {
  if (in.site >= rows_.size()) rows_.resize(in.site + 1);
  Row& row = rows_[in.site];
  std::uint64_t dev[32];
  model::WarpAccess a{in.mask, in.width, in.addr};
  a.addr = device_addresses(in.mask, in.addr, in.width, in.spread, dev, &a.spread);
  if (in.kind == SiteKind::kGlobalLoad) {
    std::uint64_t s[64];
    const std::uint32_t n = sim_->sectors(a, s);
    row.sectors += n;
    if (l1_) {
      row.l1_hits += sim_->load(*l1_, s, n);
    } else {
      record_.push_back(std::uint64_t(in.site) << 8 | n);
      record_.insert(record_.end(), s, s + n);
      if (record_.size() >= reclaim_at_) reclaim();
    }
  } else {
    row.sectors += sim_->store(a);
  }
}

void CacheSink::on_group_end(const IntervalLogs&) {
  if (!sim_) return;
  sms_->submit(group_, record_,
               [this](L1Cache& l1, const std::vector<std::uint64_t>& r) { replay(l1, r); });
}

void CacheSink::reclaim() {
  reclaim_at_ = record_.size() + kReclaimWords;
  l1_ = sms_->claim(group_);
  if (!l1_) return;
  replay(*l1_, record_);
  record_.clear();
}

void CacheSink::replay(L1Cache& l1, const std::vector<std::uint64_t>& record) {
  for (std::size_t i = 0; i < record.size();) {
    const std::uint32_t site = static_cast<std::uint32_t>(record[i] >> 8);
    const std::uint32_t n = static_cast<std::uint32_t>(record[i] & 0xFF);
    if (site >= rows_.size()) rows_.resize(site + 1);
    rows_[site].l1_hits += sim_->load(l1, &record[i + 1], n);
    i += 1 + n;
  }
}

// With the spread known and every lane in the first lane's range (lanes_inside), one add per
// lane; the spread then holds for the device addresses too when it stays below 4 KiB (host
// and device ranges both start 4 KiB aligned: the low 12 bits are kept, the rest moves alike).
// Otherwise lane by lane, each lane's own range, and the spread is unknown.
const std::uint64_t* CacheSink::device_addresses(std::uint32_t mask, const std::uint64_t* addr, std::uint32_t width,
                                                 std::uint64_t spread, std::uint64_t* out,
                                                 std::uint64_t* out_spread) {
  *out_spread = model::kUnknownSpread;
  const std::uint64_t a0 = addr[std::countr_zero(mask)];
  const DeviceRange* first = ranges_.find(a0);
  if (!first) return addr;
  const DeviceRange r = *first;  // find may reorder its cache below
  const std::uint64_t delta = r.device_begin - r.begin;
  if (mask == 0xFFFFFFFFu && lanes_inside(a0, spread, width, r.zone_begin, r.zone_end - r.zone_begin)) {
    for (int l = 0; l < 32; ++l) out[l] = addr[l] + delta;
    if ((spread >> 12) == 0 && (delta & 4095) == 0) *out_spread = spread;
    return out;
  }
  for (std::uint32_t m = mask; m; m &= m - 1) {
    const int l = std::countr_zero(m);
    const std::uint64_t a = addr[l];
    if (r.in_zone(a)) {
      out[l] = a + delta;
    } else {
      const DeviceRange* q = ranges_.find(a);
      out[l] = q ? a - q->begin + q->device_begin : a;
    }
  }
  return out;
}

void CacheSink::Total::add(const CacheSink& w, MergeContext& m) {
  if (!w.sim_) return;
  for (std::size_t i = 0; i < w.rows_.size(); ++i) {
    m.acc[i].c.sectors += w.rows_[i].sectors;
    m.acc[i].c.l1_hit_sectors += w.rows_[i].l1_hits;
  }
  l2_read += w.sim_->l2_read_sectors;  // sums: order-free
  l2_write += w.sim_->l2_write_sectors;
}

void CacheSink::Total::finish(MergeContext& m) {
  if (!m.st.footprint) return;
  const DeviceProfile& p = m.st.profile;
  const std::uint64_t read_chunks = m.st.footprint->read_chunks.size();
  const std::uint64_t written_sectors = m.st.footprint->written_sectors.size();
  Counters& c = m.report.counters;
  c.cache_modelled = true;
  c.l2_read_sectors += l2_read;
  c.l2_write_sectors += l2_write;
  // DRAM: 64-byte chunks of first-touch L2 read misses, plus a fixed amount per launch;
  // written data stays in L2 unless the launch's footprint exceeds it.
  c.dram_read_bytes += read_chunks * p.dram_chunk_bytes + (read_chunks == 0 ? 0 : p.dram_fixed_read_bytes);
  const std::uint64_t bytes = read_chunks * p.dram_chunk_bytes + written_sectors * p.sector_bytes;
  c.dram_write_bytes += bytes > p.l2_bytes ? written_sectors * p.sector_bytes : 0;
}

}  // namespace tgsim::detail
