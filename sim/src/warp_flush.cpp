// Warp instructions from the lanes' logs: grouping records into warp instructions
// (flush_warp, WarpGrouper) and handing them to the sinks (count_instruction, sinks.hpp), and
// the end of an interval's logs (end_interval). The scheduler and barrier are in group.cpp
// and group_sync.cpp.
#include <algorithm>
#include <bit>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
                                 std::uint32_t mask, const std::uint64_t* addr, std::uint32_t w) {
  sinks_->on_instruction(WarpInstruction{site, kind, width, mask, addr, group_, w});
}

// The sinks read the interval's logs (the checker); with the checker on, the logs were kept
// for it and are emptied here, without it flush_warp empties each warp's log as it counts it.
void GroupRun::end_interval(bool group_end) {
  const IntervalLogs logs{warps_, tag_info_, *this};
  if (group_end) sinks_->on_group_end(logs);
  else sinks_->on_interval_end(logs);
  if (!checking_) return;
  for (WarpLog& wl : warps_) {
    for (std::uint32_t l = 0; l < 32; ++l) wl.lanes[l].clear();
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

// The hot path of warp formation, in one function on purpose: its three ways of pairing the
// lanes' records (equal-length logs transposed in one pass, prefix sequences, the general
// grouper) share the lane scan and the per-instruction dispatch, and the common case stays
// free of calls.
void GroupRun::flush_warp(std::uint32_t w) {
  if (checking_) {  // the log stays for the checker until the interval ends (end_interval)
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
        count_instruction(ti.site, ti.kind, ti.width, 0xFFFFFFFFu, rows_.data() + k * 32, w);
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
        count_instruction(ti.site, ti.kind, ti.width, mask, addr, w);
    }
  } else {
    for (std::uint32_t l = 0; l < 32; ++l)
      for (std::uint64_t r : lanes[l]) grouper_.add(r, l);
    for (const WarpGrouper::Slot& s : grouper_.slots) {
      const TagInfo& ti = tag_info_[s.tag];
      if (ti.kind == SiteKind::kLoad || ti.kind == SiteKind::kStore)
        count_placed(s.tag, s.mask, s.addr, w);
      else
        count_instruction(ti.site, ti.kind, ti.width, s.mask, s.addr, w);
    }
    grouper_.clear();
  }
  if (!checking_)
    for (std::uint32_t l = 0; l < 32; ++l) lanes[l].clear();
}

}  // namespace tgsim::detail
