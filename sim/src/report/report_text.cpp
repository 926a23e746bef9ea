// The text report (write_text): the launch, the counter table, the sites and the findings, in
// the words a ReportWords gives (English by default; the command passes Japanese for --lang ja).
// Cells are padded by display width, a CJK character taking two columns, so a table in either
// language keeps its columns.
#include <tgsim/report.hpp>

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string_view>
#include <vector>

#include "report/util.hpp"

namespace tgsim {

using detail::with_commas;

namespace {

// Terminal columns of UTF-8 text: code points from U+1100 (Hangul, CJK, kana, full-width
// forms) take two.
std::size_t columns(std::string_view s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    const std::size_t len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    char32_t cp = len == 1 ? b : b & (0xFF >> (len + 1));
    for (std::size_t k = 1; k < len && i + k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    n += cp >= 0x1100 ? 2 : 1;
    i += len;
  }
  return n;
}

// `s` left-aligned or right-aligned in `w` columns (as std::setw: a wider `s` is not cut).
std::string left(const std::string& s, std::size_t w) {
  const std::size_t c = columns(s);
  return c >= w ? s : s + std::string(w - c, ' ');
}
std::string right(const std::string& s, std::size_t w) {
  const std::size_t c = columns(s);
  return c >= w ? s : std::string(w - c, ' ') + s;
}

// `format` with "{0}".."{9}" replaced by args.
std::string fill(const std::string& format, const std::vector<std::string>& args) {
  std::string out;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] == '{' && i + 2 < format.size() && format[i + 2] == '}' && format[i + 1] >= '0' &&
        format[i + 1] <= '9' && std::size_t(format[i + 1] - '0') < args.size()) {
      out += args[std::size_t(format[i + 1] - '0')];
      i += 2;
    } else {
      out += format[i];
    }
  }
  return out;
}

// The share simulated and every counter's 95% interval, before the (estimated) counters.
void write_sampling(std::ostream& os, const Sampling& s, const ReportWords& t) {
  const bool all = s.groups_simulated == s.groups_total;
  std::ostringstream share;
  share << std::fixed << std::setprecision(2)
        << 100.0 * double(s.groups_simulated) / double(std::max<std::uint64_t>(s.groups_total, 1));
  os << "  "
     << fill(all ? t.sampled_exact : t.sampled_estimates,
             {with_commas(s.groups_simulated), with_commas(s.groups_total), share.str()})
     << "\n";
  if (s.automatic) {
    std::ostringstream events;
    events << std::setprecision(3) << s.full_events;
    os << "  "
       << fill(t.sampled_auto, {events.str(), std::to_string(s.strata), std::to_string(s.path_splits),
                                with_commas(s.pilot_groups)})
       << "\n";
  }
  if (all) return;
  for (const Sampling::Interval& i : s.intervals)
    os << "    " << std::left << std::setw(34) << i.counter << std::right << std::fixed << std::setprecision(0)
       << std::setw(16) << i.low << " .. " << std::setw(16) << i.high << "\n";
  os.unsetf(std::ios::floatfield);
  os << std::setprecision(6);
}

// The counter table: a header of four columns, the global rows, a second header, the shared
// rows. Columns are at least 14, 13, 14, 11 wide, each widened to its widest cell + 1, so that
// counts of 10^9 and more keep their columns apart.
void write_table(std::ostream& os, const Counters& c, const ReportWords& t) {
  const AccessCounters* rows[] = {&c.global_load, &c.global_store, &c.shared_load, &c.shared_store};
  const std::string* names[] = {&t.global_load, &t.global_store, &t.shared_load, &t.shared_store};
  std::size_t label = 14;
  for (const std::string* n : names) label = std::max(label, columns(*n) + 1);
  std::size_t w[] = {14, 13, 14, 11};
  const std::string* heads[] = {&t.thread_accesses, &t.warp_instructions, &t.sectors, &t.sectors_per_request,
                                &t.wavefronts, &t.conflicts};
  for (int k = 0; k < 6; ++k) w[k < 4 ? k : k - 2] = std::max(w[k < 4 ? k : k - 2], columns(*heads[k]) + 1);
  for (int i = 0; i < 4; ++i) {
    const std::uint64_t v[] = {rows[i]->thread_accesses, rows[i]->instructions,
                               i < 2 ? rows[i]->sectors : rows[i]->wavefronts, i < 2 ? 0 : rows[i]->bank_conflicts()};
    for (int k = 0; k < 4; ++k) w[k] = std::max(w[k], with_commas(v[k]).size() + 1);
  }
  auto row = [&](int i) {
    const AccessCounters& a = *rows[i];
    os << "  " << left(*names[i], label) << right(with_commas(a.thread_accesses), w[0])
       << right(with_commas(a.instructions), w[1]);
    if (i < 2)
      os << right(with_commas(a.sectors), w[2])
         << right(a.instructions ? std::to_string(a.sectors * 100 / a.instructions / 100) + "." +
                                       std::to_string(a.sectors * 100 / a.instructions % 100 / 10)
                                 : std::string("-"),
                  w[3])
         << "\n";
    else
      os << right(with_commas(a.wavefronts), w[2]) << right(with_commas(a.bank_conflicts()), w[3]) << "\n";
  };
  os << "  " << left("", label) << right(t.thread_accesses, w[0]) << right(t.warp_instructions, w[1])
     << right(t.sectors, w[2]) << right(t.sectors_per_request, w[3]) << "\n";
  row(0);
  row(1);
  os << "  " << left("", label) << right("", w[0]) << right("", w[1]) << right(t.wavefronts, w[2])
     << right(t.conflicts, w[3]) << "\n";
  row(2);
  row(3);
}

// Atomics, constant loads, barriers and warp collectives, and the memory model's line.
void write_other_counters(std::ostream& os, const Report& r, const ReportWords& t) {
  const Counters& c = r.counters;
  if (c.global_atomic.instructions)
    os << "  "
       << fill(t.global_atomics, {with_commas(c.global_atomic.instructions),
                                  with_commas(c.global_atomic.thread_accesses), with_commas(c.global_atomic.sectors)})
       << "\n";
  if (c.shared_atomic.instructions)
    os << "  "
       << fill(t.shared_atomics, {with_commas(c.shared_atomic.instructions),
                                  with_commas(c.shared_atomic.thread_accesses), with_commas(c.shared_atomic.wavefronts)})
       << "\n";
  if (c.constant_load.instructions)
    os << "  "
       << fill(t.constant_loads,
               {with_commas(c.constant_load.instructions), with_commas(c.constant_load.distinct_addresses)})
       << "\n";
  os << "  " << fill(t.barriers, {with_commas(c.barriers)});
  if (c.shfl) os << "   SHFL: " << with_commas(c.shfl);
  if (c.vote) os << "   VOTE: " << with_commas(c.vote);
  if (c.warpsync) os << "   WARPSYNC: " << with_commas(c.warpsync);
  if (c.warp_reduce) os << "   " << t.simd_reductions << ": " << with_commas(c.warp_reduce);
  os << "\n";
  if (c.cache_modelled)
    os << "  "
       << fill(t.memory, {r.profile, with_commas(c.global_load.l1_hit_sectors), with_commas(c.global_load.sectors),
                          with_commas(c.l2_read_sectors), with_commas(c.l2_write_sectors),
                          with_commas(c.dram_read_bytes), with_commas(c.dram_write_bytes)})
       << "\n";
}

void write_sites(std::ostream& os, const Report& r, const ReportWords& t) {
  if (!r.sites.empty()) os << "  " << t.by_site << "\n";
  for (const SiteCounters& s : r.sites) {
    os << "    " << left(s.where(), 24) << " " << left(to_string(s.kind), 14);
    const std::string instr = t.site_instructions + " " + with_commas(s.counters.instructions);
    switch (s.kind) {
      case SiteKind::kBarrier: os << "BAR " << with_commas(s.barriers); break;
      case SiteKind::kGlobalLoad:
      case SiteKind::kGlobalStore:
      case SiteKind::kGlobalAtomic: os << instr << "  " << t.site_sectors << " " << with_commas(s.counters.sectors); break;
      case SiteKind::kSharedLoad:
      case SiteKind::kSharedStore:
        os << instr << "  " << t.site_wavefronts << " " << with_commas(s.counters.wavefronts) << "  "
           << t.site_conflicts << " " << with_commas(s.counters.bank_conflicts());
        break;
      case SiteKind::kSharedAtomic: os << instr; break;
      case SiteKind::kConstantLoad:
        os << instr << "  " << t.site_serialised << " " << with_commas(s.counters.distinct_addresses);
        break;
      default: os << t.site_count << " " << with_commas(s.warp_ops); break;
    }
    os << "\n";
  }
}

void write_findings(std::ostream& os, const Report& r, const ReportWords& t) {
  if (r.findings.empty()) {
    os << "  " << t.findings_none << "\n";
    return;
  }
  os << "  " << fill(t.findings, {std::to_string(r.findings.size())}) << "\n";
  for (const Finding& f : r.findings) {
    const std::string where = f.where() + (f.file2.empty() ? std::string() : t.and_word + f.where2());
    const std::string count = with_commas(f.count) + (f.count == 1 ? t.time : t.times);
    os << "    "
       << fill(t.finding, {to_string(f.kind), where, count, f.block.str(), f.thread.str(),
                           t.example ? t.example(f) : f.message})
       << "\n";
  }
}

}  // namespace

void write_text(std::ostream& os, const Report& r, const ReportWords& words) {
  os << words.kernel << " " << r.kernel << "  " << words.grid << " " << r.grid.str() << "  " << words.block << " "
     << r.block.str() << (r.sampling.on ? "  " + words.sampled : std::string()) << "\n";
  if (r.sampling.on) write_sampling(os, r.sampling, words);
  write_table(os, r.counters, words);
  write_other_counters(os, r, words);
  write_sites(os, r, words);
  write_findings(os, r, words);
}

}  // namespace tgsim
