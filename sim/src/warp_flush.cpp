// Warp instructions from the lanes' logs: grouping records into warp instructions
// (flush_warp, WarpGrouper), counting them through the models and the cache model
// (count_instruction), the capture for pictures, and the checker's reading of an interval's
// logs (check_interval). The scheduler and barrier are in group.cpp and group_sync.cpp.
#include <algorithm>
#include <bit>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <tgsim/models.hpp>

#include "group.hpp"

namespace tgsim::detail {

// ------------------------------------------------------------------ warp grouping

void WarpGrouper::add(std::uint64_t record, std::uint32_t lane) {
  const std::uint32_t tag = static_cast<std::uint32_t>(record >> kTagShift);
  if (tag >= by_tag.size()) {
    by_tag.resize(tag + 1);
    occurrence.resize((tag + 1) * 32, 0);
  }
  std::uint32_t k = occurrence[tag * 32 + lane]++;
  std::vector<std::uint32_t>& v = by_tag[tag];
  if (k == v.size()) {
    v.push_back(static_cast<std::uint32_t>(slots.size()));
    Slot& s = slots.emplace_back();
    s.tag = tag;
    s.mask = 0;
  }
  Slot& s = slots[v[k]];
  s.mask |= 1u << lane;
  s.addr[lane] = record & kAddrMask;
}

void WarpGrouper::clear() {
  for (const Slot& s : slots) {
    if (by_tag[s.tag].empty()) continue;
    by_tag[s.tag].clear();
    std::fill_n(occurrence.begin() + s.tag * 32, 32, 0u);
  }
  slots.clear();
}

void GroupRun::count_instruction(std::uint32_t site, SiteKind kind, std::uint32_t width,
                                 std::uint32_t mask, const std::uint64_t* addr) {
  if (site >= acc_.size()) acc_.resize(site + 1);
  AccessCounters& c = acc_[site].c;
  std::uint32_t lanes = static_cast<std::uint32_t>(std::popcount(mask));
  c.thread_accesses += lanes;
  c.instructions += 1;
  c.bytes += std::uint64_t(lanes) * width;
  model::WarpAccess a{mask, width, addr};
  if (capturing_) [[unlikely]]
    maybe_capture(site, kind, width, mask, addr);
  switch (kind) {
    // With the cache model, its sector gathering gives the count (one pass over the lanes).
    case SiteKind::kGlobalLoad:
      if (mem_) {
        std::uint64_t dev[32];
        std::uint32_t hits = 0;
        c.sectors += mem_->load(model::WarpAccess{mask, width, device_addresses(mask, addr, dev)}, hits);
        c.l1_hit_sectors += hits;
      } else {
        c.sectors += model::global_sectors(a);
      }
      break;
    case SiteKind::kGlobalStore:
      if (mem_) {
        std::uint64_t dev[32];
        c.sectors += mem_->store(model::WarpAccess{mask, width, device_addresses(mask, addr, dev)});
      } else {
        c.sectors += model::global_sectors(a);
      }
      break;
    case SiteKind::kGlobalAtomic: c.sectors += model::global_sectors(a); break;
    case SiteKind::kSharedLoad:
    case SiteKind::kSharedStore: {
      model::Wavefronts wf = model::shared_wavefronts(a, kind == SiteKind::kSharedLoad);
      c.wavefronts += wf.wavefronts;
      c.ideal_wavefronts += wf.ideal;
      break;
    }
    case SiteKind::kSharedAtomic: {
      model::Wavefronts wf = model::shared_atomic_wavefronts(a);
      c.wavefronts += wf.wavefronts;
      c.ideal_wavefronts += wf.ideal;
      break;
    }
    case SiteKind::kConstantLoad: c.distinct_addresses += model::distinct_addresses(a); break;
    default: break;
  }
}

void GroupRun::maybe_capture(std::uint32_t site, SiteKind kind, std::uint32_t width,
                             std::uint32_t mask, const std::uint64_t* addr) {
  if (site >= capture_match_.size()) capture_match_.resize(site + 1, -1);
  if (capture_match_[site] < 0) {
    SiteInfo info = state_.sites.info(site);
    const std::string& f = info.file;
    bool match = info.line == capture_line_ && kind != SiteKind::kBarrier &&
                 (capture_column_ == 0 || info.column == capture_column_) &&
                 f.size() >= capture_file_.size() &&
                 f.compare(f.size() - capture_file_.size(), capture_file_.size(), capture_file_) == 0;
    capture_match_[site] = match ? 1 : 0;
  }
  if (!capture_match_[site]) return;
  // The lowest (group, warp) wins; within one warp the first instruction flushed.
  if (capture_.present && std::make_pair(capture_.group, capture_.warp) <=
                              std::make_pair(group_, flushing_warp_))
    return;
  SiteInfo info = state_.sites.info(site);
  capture_.present = true;
  capture_.file = info.file;
  capture_.line = info.line;
  capture_.column = info.column;
  capture_.kind = kind;
  capture_.width = width;
  capture_.mask = mask;
  // Front-end shared accesses carry raw addresses (placement.cpp): pictures show offsets.
  const bool raw_shared = state_.frontend && (kind == SiteKind::kSharedLoad || kind == SiteKind::kSharedStore);
  const std::uint64_t base = raw_shared ? reinterpret_cast<std::uint64_t>(arena_.data()) : 0;
  for (std::uint32_t l = 0; l < 32; ++l) capture_.addr[l] = (mask >> l) & 1u ? addr[l] - base : 0;
  capture_.group = group_;
  capture_.warp = flushing_warp_;
}

// The checker reads the interval's accesses from the warps' logs, kept until the barrier is
// released: a record's index in its lane's log is its lockstep time (accesses since the
// barrier), the sync positions give its __syncwarp count, and stores take their bytes from the
// lane's value log in order. Every access goes to the checker except plain loads of shared
// words that nobody stored in this interval (note_store marked the stored ones as they happened)
// and that are initialised: nothing to pair, analyze() would skip them after building their
// lists. Those are most accesses of a tiled kernel.
void GroupRun::check_interval() {
  Checker& checker = *checker_;
  const TagInfo* tags = tag_info_.data();
  const std::uint64_t arena = reinterpret_cast<std::uint64_t>(arena_.data());
  for (std::uint32_t w = 0; w < warps_.size(); ++w) {
    WarpLog& wl = warps_[w];
    const std::size_t nsync = wl.syncs.size();
    checker.warp_syncs(w, wl.sync_masks);
    for (std::uint32_t l = 0; l < 32; ++l) {
      const WarpLog::LaneLog& log = wl.lanes[l];
      const std::size_t n = log.size();
      const std::uint64_t* vals = wl.values[l].data();
      const std::uint32_t thread = w * 32 + l;
      std::size_t vi = 0, e = 0;
      std::uint32_t wsync = 0;
      for (std::size_t k = 0; k < n; ++k) {
        const std::uint64_t r = log[k];
        const TagInfo& ti = tags[r >> kTagShift];
        if (ti.kind == SiteKind::kLoad || ti.kind == SiteKind::kStore) [[unlikely]] {
          // Front-end code: the same quick skip for a shared load of at most 4 bytes, placed by
          // its address in the arena; the rest is placed in check_placed.
          const std::uint64_t off = (r & kAddrMask) - arena;
          if (ti.kind == SiteKind::kLoad && ti.width <= 4 && off < shared_valid_ && checker.quiet_shared_load(off))
            continue;
        } else if (ti.shared_word_load && checker.quiet_shared_load(r & kAddrMask)) {
          continue;
        }
        // wsync: the number of the last __syncwarp this lane took part in before access k.
        for (; e < nsync && (!(wl.sync_masks[e] >> l & 1u) || wl.syncs[e][l] <= k); ++e)
          if (wl.sync_masks[e] >> l & 1u) wsync = static_cast<std::uint32_t>(e + 1);
        if (ti.kind == SiteKind::kLoad || ti.kind == SiteKind::kStore) [[unlikely]] {
          check_placed(tag_info_[r >> kTagShift], thread, static_cast<std::uint32_t>(k), wsync,
                       r & kAddrMask, ti.kind == SiteKind::kStore ? vals[vi++] : 0);
          continue;
        }
        const std::uint64_t v = is_write(ti.kind) ? vals[vi++] : 0;
        checker.access(thread, static_cast<std::uint32_t>(k), wsync, ti.site, ti.kind,
                       r & kAddrMask, ti.width, v);
      }
    }
  }
  for (WarpLog& wl : warps_) {
    for (std::uint32_t l = 0; l < 32; ++l) {
      wl.lanes[l].clear();
      wl.values[l].clear();
    }
    wl.syncs.clear();
    wl.sync_masks.clear();
    wl.counted = false;
  }
}

// The common case: all 32 lanes hold `len` records. Transposes them into rows_ (row k: the
// addresses of record k of lanes 0..31) while checking that every lane's tags equal lane 0's;
// true when they do, and row k is then warp instruction k with all lanes. One pass over the
// records (two lanes x two records per step with SSE2), where checking and gathering column k
// separately read every record twice.
bool GroupRun::transpose_uniform(const WarpLog::LaneLog* lanes, std::size_t len) {
  if (rows_.size() < len * 32) rows_.resize(len * 32);
  std::uint64_t* rows = rows_.data();
  const std::uint64_t* data[32];
  for (std::uint32_t l = 0; l < 32; ++l) data[l] = lanes[l].data();
  const std::uint64_t* ref = data[0];
  std::uint64_t diff = 0;  // tag bits (and address bits) of any record unlike lane 0's
  std::size_t k = 0;
#if defined(__SSE2__)
  const __m128i amask = _mm_set1_epi64x(static_cast<long long>(kAddrMask));
  __m128i d = _mm_setzero_si128();
  for (; k + 2 <= len; k += 2) {
    const __m128i r = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ref + k));
    std::uint64_t* row0 = rows + k * 32;
    std::uint64_t* row1 = row0 + 32;
    for (std::uint32_t l = 0; l < 32; l += 2) {
      __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data[l] + k));  // lane l: k, k+1
      __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data[l + 1] + k));
      d = _mm_or_si128(d, _mm_or_si128(_mm_xor_si128(a, r), _mm_xor_si128(b, r)));
      a = _mm_and_si128(a, amask);
      b = _mm_and_si128(b, amask);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(row0 + l), _mm_unpacklo_epi64(a, b));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(row1 + l), _mm_unpackhi_epi64(a, b));
    }
  }
  diff = static_cast<std::uint64_t>(_mm_cvtsi128_si64(d)) |
         static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_unpackhi_epi64(d, d)));
#endif
  for (; k < len; ++k)
    for (std::uint32_t l = 0; l < 32; ++l) {
      const std::uint64_t x = data[l][k];
      diff |= x ^ ref[k];
      rows[k * 32 + l] = x & kAddrMask;
    }
  return (diff >> kTagShift) == 0;
}

void GroupRun::flush_warp(std::uint32_t w) {
  flushing_warp_ = w;
  if (checking_) {  // the log stays for the checker until the interval ends (check_interval)
    if (warps_[w].counted) return;
    warps_[w].counted = true;
  }
  note_warp_divergence(w);
  WarpLog::LaneLog* lanes = warps_[w].lanes;
  if (!counting_) {  // LaunchConfig::count off: the engine alone
    for (std::uint32_t l = 0; l < 32; ++l) lanes[l].clear();
    return;
  }
  bool uniform = !lanes[0].empty();
  for (std::uint32_t l = 1; l < 32 && uniform; ++l) uniform = lanes[l].size() == lanes[0].size();
  if (uniform && transpose_uniform(lanes, lanes[0].size())) {
    const std::uint64_t* refrec = lanes[0].data();
    for (std::size_t k = 0, len = lanes[0].size(); k < len; ++k) {
      const std::uint32_t tag = static_cast<std::uint32_t>(refrec[k] >> kTagShift);
      const TagInfo& ti = tag_info_[tag];
      if (ti.kind == SiteKind::kLoad || ti.kind == SiteKind::kStore)
        count_placed(tag, 0xFFFFFFFFu, rows_.data() + k * 32, w);
      else
        count_instruction(ti.site, ti.kind, ti.width, 0xFFFFFFFFu, rows_.data() + k * 32);
    }
    if (!checking_)
      for (std::uint32_t l = 0; l < 32; ++l) lanes[l].clear();
    return;
  }
  // The reference sequence is the longest lane's; the others must be prefixes of it.
  std::uint32_t ref = 0;
  for (std::uint32_t l = 1; l < 32; ++l)
    if (lanes[l].size() > lanes[ref].size()) ref = l;
  const std::size_t len = lanes[ref].size();
  if (len == 0) return;
  const std::uint64_t* refrec = lanes[ref].data();
  bool prefixes = true;
  for (std::uint32_t l = 0; l < 32 && prefixes; ++l) {
    const std::uint64_t* v = lanes[l].data();
    const std::size_t n = lanes[l].size();
    std::uint64_t diff = 0;
    for (std::size_t k = 0; k < n; ++k) diff |= (v[k] ^ refrec[k]) >> kTagShift;
    prefixes = diff == 0;
  }
  if (prefixes) {
    // Lanes sorted out once: `full` have every record, the others stop early.
    std::uint64_t addr[32];
    const std::uint64_t* rec[32];
    std::size_t size[32];
    std::uint32_t full = 0, partial = 0;
    for (std::uint32_t l = 0; l < 32; ++l) {
      rec[l] = lanes[l].data();
      size[l] = lanes[l].size();
      if (size[l] == len) full |= 1u << l;
      else if (size[l] > 0) partial |= 1u << l;
    }
    for (std::size_t k = 0; k < len; ++k) {
      std::uint32_t mask = full;
      if (full == 0xFFFFFFFFu) {
        for (std::uint32_t l = 0; l < 32; ++l) addr[l] = rec[l][k] & kAddrMask;
      } else {
        for (std::uint32_t m = full; m; m &= m - 1) {
          int l = std::countr_zero(m);
          addr[l] = rec[l][k] & kAddrMask;
        }
        for (std::uint32_t m = partial; m; m &= m - 1) {
          int l = std::countr_zero(m);
          if (k < size[l]) {
            mask |= 1u << l;
            addr[l] = rec[l][k] & kAddrMask;
          }
        }
      }
      const std::uint32_t tag = static_cast<std::uint32_t>(refrec[k] >> kTagShift);
      const TagInfo& ti = tag_info_[tag];
      if (ti.kind == SiteKind::kLoad || ti.kind == SiteKind::kStore) [[unlikely]]
        count_placed(tag, mask, addr, w);
      else
        count_instruction(ti.site, ti.kind, ti.width, mask, addr);
    }
  } else {
    for (std::uint32_t l = 0; l < 32; ++l)
      for (std::uint64_t r : lanes[l]) grouper_.add(r, l);
    for (const WarpGrouper::Slot& s : grouper_.slots) {
      const TagInfo& ti = tag_info_[s.tag];
      if (ti.kind == SiteKind::kLoad || ti.kind == SiteKind::kStore)
        count_placed(s.tag, s.mask, s.addr, w);
      else
        count_instruction(ti.site, ti.kind, ti.width, s.mask, s.addr);
    }
    grouper_.clear();
  }
  if (!checking_)
    for (std::uint32_t l = 0; l < 32; ++l) lanes[l].clear();
}

}  // namespace tgsim::detail
