// The capture sink (sink_capture.hpp).
#include "analyses/capture/sink_capture.hpp"
#include <cstdlib>
#include <utility>

#include <tgsim/kernel/abi.h>
#include <tgsim/warp.hpp>

namespace tgsim::detail {

CaptureSink::CaptureSink(LaunchState& st, const SinkEnv& env)
    : st_(st), shared_base_(reinterpret_cast<std::uint64_t>(env.arena)) {
  if (st.cfg.capture_site.empty()) return;
  // "file:line" or "file:line:column".
  std::string c = st.cfg.capture_site;
  std::uint32_t nums[2] = {0, 0};
  int count = 0;
  for (; count < 2; ++count) {
    auto colon = c.rfind(':');
    if (colon == std::string::npos || colon + 1 >= c.size() ||
        c.find_first_not_of("0123456789", colon + 1) != std::string::npos)
      break;
    nums[count] = static_cast<std::uint32_t>(std::strtoul(c.c_str() + colon + 1, nullptr, 10));
    c.resize(colon);
  }
  file_ = c;
  if (count == 2) {
    line_ = nums[1];
    column_ = nums[0];
  } else if (count == 1) {
    line_ = nums[0];
  }
  on_ = line_ > 0;
}

void CaptureSink::take(const WarpInstruction& in) {
  if (in.site >= match_.size()) match_.resize(in.site + 1, -1);
  if (match_[in.site] < 0) {
    SiteInfo info = st_.sites.info(in.site);
    const std::string& f = info.file;
    bool match = info.line == line_ && (column_ == 0 || tgsim_site_column(info.column) == column_) &&
                 f.size() >= file_.size() &&
                 f.compare(f.size() - file_.size(), file_.size(), file_) == 0;
    match_[in.site] = match ? 1 : 0;
  }
  if (!match_[in.site]) return;
  // The lowest (group, warp) wins; within one warp the first instruction flushed.
  CapturedInstruction& cap = captured_;
  if (cap.present && std::make_pair(cap.group, cap.warp) <= std::make_pair(in.group, in.warp)) return;
  SiteInfo info = st_.sites.info(in.site);
  cap.present = true;
  cap.file = info.file;
  cap.line = info.line;
  cap.column = info.column;
  cap.kind = in.kind;
  cap.width = in.width;
  cap.mask = in.mask;
  // Front-end shared accesses carry raw addresses (placement.cpp): pictures show offsets.
  const bool raw_shared =
      st_.frontend && (in.kind == SiteKind::kSharedLoad || in.kind == SiteKind::kSharedStore);
  const std::uint64_t base = raw_shared ? shared_base_ : 0;
  for (std::uint32_t l = 0; l < 32; ++l) cap.addr[l] = (in.mask >> l) & 1u ? in.addr[l] - base : 0;
  cap.group = in.group;
  cap.warp = in.warp;
}

void CaptureSink::take_shuffle(std::uint32_t site, const CollectiveOp& op, const std::int64_t* arg,
                               std::uint32_t took_part, std::uint64_t group, std::uint32_t warp) {
  if (!shuffles_.empty()) {  // the lowest (group, warp) wins; its shuffles in the order they completed
    const auto have = std::make_pair(shuffles_.front().group, shuffles_.front().warp);
    if (have < std::make_pair(group, warp)) return;
    if (std::make_pair(group, warp) < have) shuffles_.clear(), shuffles_total_ = 0;
  }
  if (op.shfl < 0) return;
  ++shuffles_total_;
  if (shuffles_.size() >= kMaxCapturedShuffles) return;
  const SiteInfo info = st_.sites.info(site);
  CapturedShuffle& s = shuffles_.emplace_back();
  s.file = info.file;
  s.line = info.line;
  s.column = info.column;
  s.op = op.name;
  s.mask = took_part;
  s.words = op.count;
  for (std::uint32_t l = 0; l < 32; ++l) {
    if (!(took_part >> l & 1u)) continue;
    s.arg[l] = static_cast<std::int32_t>(arg[l]);
    s.width[l] = static_cast<std::int32_t>(arg[l] >> 32);
    s.source[l] = shfl_source(static_cast<Shfl>(op.shfl), l, arg[l]);
  }
  s.group = group;
  s.warp = warp;
}

void CaptureSink::Total::add(const CaptureSink& w, MergeContext& m) {
  const CapturedInstruction& cap = w.captured_;
  CapturedInstruction& best = m.report.captured;
  if (cap.present && (!best.present || std::make_pair(cap.group, cap.warp) < std::make_pair(best.group, best.warp)))
    best = cap;
  std::vector<CapturedShuffle>& sh = m.report.shuffles;
  if (!w.shuffles_.empty() &&
      (sh.empty() || std::make_pair(w.shuffles_.front().group, w.shuffles_.front().warp) <
                         std::make_pair(sh.front().group, sh.front().warp))) {
    sh = w.shuffles_;
    m.report.shuffles_total = w.shuffles_total_;
  }
}

}  // namespace tgsim::detail
