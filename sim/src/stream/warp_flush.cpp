// Warp instructions from the lanes' logs: grouping records into warp instructions
// (flush_warp, WarpGrouper) and handing them to the sinks (count_instruction, sinks.hpp), and
// the end of an interval's logs (end_interval). The common case (every lane the same records)
// takes each instruction's spread in one vectorised pass over the lanes (warp_transpose.hpp);
// a one-wavefront shared front-end access placed by that spread is only tallied per tag
// (quick_row) and counted per tag after the warp: its lanes are never gathered. Rows a sink
// must read are transposed four at a time as they are reached. The scheduler and barrier are
// in group.cpp and group_sync.cpp.
#include <algorithm>
#include <bit>
#include <cstring>
#include <cstdio>

#include <tgsim/models.hpp>

#include "analyses/list.hpp"
#include "engine/group.hpp"
#include "stream/warp_transpose.hpp"

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
                                 std::uint32_t mask, const std::uint64_t* addr, std::uint32_t w,
                                 std::uint64_t spread) {
  if (width > 1 && addr && mask) [[likely]] {  // misaligned lanes (the spread holds their low bits)
    std::uint64_t low = addr[std::countr_zero(mask)] | spread;
    if (spread == model::kUnknownSpread) {
      low = 0;
      for (std::uint32_t m = mask; m; m &= m - 1) low |= addr[std::countr_zero(m)];
    }
    if (low & (width - 1)) [[unlikely]] note_misaligned(site, kind, width, mask, addr, w);
  }
  sinks_->on_instruction(WarpInstruction{site, kind, width, mask, addr, group_, w, 1, spread});
}

// The pass records an access no wider than its alignment in the IR (wider ones are split into
// naturally aligned pieces), so a recorded access of N bytes at an address that is not a
// multiple of N is one the program declared aligned: nvcc emits one N-byte instruction for it
// and the GPU stops the launch (memcheck: "misaligned"). tgsim performs the access and reports
// the first such lane of the warp instruction.
void GroupRun::note_misaligned(std::uint32_t site, SiteKind kind, std::uint32_t width, std::uint32_t mask,
                               const std::uint64_t* addr, std::uint32_t w) {
  std::uint32_t lane = 0, n = 0;
  for (std::uint32_t m = mask; m; m &= m - 1) {
    const std::uint32_t l = static_cast<std::uint32_t>(std::countr_zero(m));
    if (!(addr[l] & (width - 1))) continue;
    if (n++ == 0) lane = l;
  }
  const SiteInfo& s = state_.sites.info(site);
  const bool store = is_write(kind);
  char where[40];
  std::snprintf(where, sizeof where, "0x%llx", static_cast<unsigned long long>(addr[lane] & kAddrMask));
  add_finding_at(threads_[w * 32 + lane].ctx, FindingKind::kMisaligned, s.file, s.line, s.column,
                 std::string(store ? "stores " : "loads ") + std::to_string(width) + " bytes at " + where +
                     ", not a multiple of " + std::to_string(width) + " (" + std::to_string(n) + " of " +
                     std::to_string(std::popcount(mask)) + " lanes of warp " + std::to_string(w) +
                     "); on the GPU a misaligned address stops the launch, tgsim performed the access");
}

void GroupRun::recycle_logs(WarpLog::LaneLog* lanes) {
  for (std::uint32_t l = 0; l < 32; ++l) lanes[l].recycle(log_pool_);
}

// The sinks read the interval's logs (the checker); with the checker on, the logs were kept
// for it and are emptied here, without it flush_warp empties each warp's log as it counts it.
void GroupRun::end_interval(bool group_end) {
  const IntervalLogs logs{warps_, tags_.infos(), *this, group_end || !device_unordered_};
  device_unordered_ = false;
  if (group_end) sinks_->on_group_end(logs);
  else sinks_->on_interval_end(logs);
  if (!checking_) return;
  for (WarpLog& wl : warps_) {
    empty_logs(wl.lanes);
    wl.syncs.clear();
    wl.sync_masks.clear();
    wl.fences.clear();
    wl.counted = false;
  }
}

// The common case: all 32 lanes hold `len` records. Their spreads into spread_
// (warp_transpose.hpp) and their logs into data; true when every lane's tags equal lane 0's:
// row k is then warp instruction k with all lanes, and spread_[k] its lanes' address spread
// (model::WarpAccess::spread). Rows are transposed (row()) only for the sinks that read them.
bool GroupRun::uniform_spreads(const WarpLog::LaneLog* lanes, std::size_t len, const std::uint64_t** data) {
  if (rows_.size() < len * 32) rows_.resize(len * 32);
  if (spread_.size() < len) spread_.resize(len);
  for (std::uint32_t l = 0; l < 32; ++l) data[l] = lanes[l].data();
  rows_done_ = 0;
  return lane_spreads(data, len, spread_.data());
}

// Row k of the uniform path (its lanes' addresses), transposed with the next three on first
// use: rows are asked for in increasing k.
const std::uint64_t* GroupRun::row(const std::uint64_t* const* data, std::size_t k, std::size_t len) {
  if (k >= rows_done_) {
    rows_done_ = std::min(k + 4, len);
    transpose_rows(data, k, rows_done_, rows_.data());
  }
  return rows_.data() + k * 32;
}

// One warp instruction of the uniform path (every lane, spread known) that quick_row did not
// take: a front-end access whose spread places it in shared memory (lanes_inside) goes to the
// sinks as a shared access without its lanes being placed one by one; any other (global,
// first placement of its site, straddling, misplaced) goes through count_placed.
[[gnu::always_inline]] inline void GroupRun::count_row(const std::uint64_t* const* data, std::size_t k, std::size_t len,
                                std::uint32_t w) {
  const std::uint32_t tag = static_cast<std::uint32_t>(data[0][k] >> kTagShift);
  const std::uint64_t spread = spread_[k];
  const TagInfo& ti = tags_[tag];
  std::uint32_t site = ti.site;
  SiteKind kind = ti.kind;
  if (((data[0][k] | spread) & (ti.width - 1)) && ti.width > 1) [[unlikely]] {  // misaligned lanes
    if (kind == SiteKind::kLoad || kind == SiteKind::kStore)
      count_placed(tag, 0xFFFFFFFFu, row(data, k, len), w, spread);
    else
      count_instruction(site, kind, ti.width, 0xFFFFFFFFu, row(data, k, len), w, spread);
    return;
  }
  if (kind == SiteKind::kLoad || kind == SiteKind::kStore) {
    const std::uint64_t base = placement_.shared_base(), valid = placement_.shared_valid();
    const std::uint64_t a0 = data[0][k] & kAddrMask;
    if (a0 - base >= valid || ti.placed[1] == ~0u || !lanes_inside(a0, spread, ti.width, base, valid)) {
      count_placed(tag, 0xFFFFFFFFu, row(data, k, len), w, spread);
      return;
    }
    site = ti.placed[1];
    kind = kind == SiteKind::kStore ? SiteKind::kSharedStore : SiteKind::kSharedLoad;
  }
  sinks_->on_instruction(WarpInstruction{site, kind, ti.width, 0xFFFFFFFFu, row(data, k, len), group_, w, 1, spread});
}

// A row of the uniform path that is a front-end shared access taking one wavefront, its site
// already placed: only tallied by its tag here (count_row would build its instruction), and
// handed to the sinks per tag by count_quick_rows after the warp, as fast shared rows
// (SharedRows: every sink handles them; none is sent while a sink wants the lanes). About 50 instructions a row with the loop, instead
// of about 100 through count_row.
[[gnu::always_inline]] inline bool GroupRun::quick_row(std::uint64_t record, std::uint64_t spread) {
  const std::uint32_t tag = static_cast<std::uint32_t>(record >> kTagShift);
  const TagInfo& ti = tags_[tag];
  if ((ti.kind != SiteKind::kLoad && ti.kind != SiteKind::kStore) || spread >= quick_spread_ ||
      ti.width > quick_width_ || ti.placed[1] == ~0u || ((record | spread) & (ti.width - 1)))
    return false;
  if (!lanes_inside(record & kAddrMask, spread, ti.width, placement_.shared_base(), placement_.shared_valid()))
    return false;
  if (quick_count_[tag]++ == 0) quick_tags_.push_back(tag);
  return true;
}

void GroupRun::count_quick_rows(std::uint32_t w) {
  for (std::uint32_t tag : quick_tags_) {
    const TagInfo& ti = tags_[tag];
    const SiteKind kind = ti.kind == SiteKind::kStore ? SiteKind::kSharedStore : SiteKind::kSharedLoad;
    sinks_->on_shared_rows(SharedRows{ti.placed[1], kind, ti.width, quick_count_[tag], group_, w});
    quick_count_[tag] = 0;
  }
  quick_tags_.clear();
}

// The hot path of warp formation, in one function on purpose: its three ways of pairing the
// lanes' records (equal-length logs taken by their spreads, prefix sequences, the general
// grouper) share the lane scan and the per-instruction dispatch, and the common case stays
// free of calls.
void GroupRun::flush_warp(std::uint32_t w) {
  if (checking_) {  // the log stays for the checker until the interval ends (end_interval)
    if (warps_[w].counted) return;
    warps_[w].counted = true;
  }
  if (spin_sites_) [[unlikely]] collapse_warp(w);  // a spin's repeated iterations (engine/spin.cpp)
  note_warp_divergence(w);
  WarpLog::LaneLog* lanes = warps_[w].lanes;
  if (!counting_) {  // LaunchConfig::count off: the engine alone
    empty_logs(lanes);
    return;
  }
  bool uniform = !lanes[0].empty();
  for (std::uint32_t l = 1; l < 32 && uniform; ++l) uniform = lanes[l].size() == lanes[0].size();
  const std::uint64_t* data[32];
  if (uniform && uniform_spreads(lanes, lanes[0].size(), data)) {
    if (quick_count_.size() < tags_.size()) quick_count_.resize(tags_.size(), 0);  // new tags
    for (std::size_t k = 0, len = lanes[0].size(); k < len; ++k)
      if (!quick_row(data[0][k], spread_[k])) count_row(data, k, len, w);
    count_quick_rows(w);
    if (!checking_)
      empty_logs(lanes);
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
      const TagInfo& ti = tags_[tag];
      if (ti.kind == SiteKind::kLoad || ti.kind == SiteKind::kStore) [[unlikely]]
        count_placed(tag, mask, addr, w);
      else
        count_instruction(ti.site, ti.kind, ti.width, mask, addr, w);
    }
  } else {
    for (std::uint32_t l = 0; l < 32; ++l)
      for (std::uint64_t r : lanes[l]) grouper_.add(r, l);
    for (const WarpGrouper::Slot& s : grouper_.slots) {
      const TagInfo& ti = tags_[s.tag];
      if (ti.kind == SiteKind::kLoad || ti.kind == SiteKind::kStore)
        count_placed(s.tag, s.mask, s.addr, w);
      else
        count_instruction(ti.site, ti.kind, ti.width, s.mask, s.addr, w);
    }
    grouper_.clear();
  }
  if (!checking_)
    empty_logs(lanes);
}

}  // namespace tgsim::detail
