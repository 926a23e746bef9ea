// Writers for a Report: JSON (machine) and a text table (people).
#include <tgsim/report.hpp>

#include <algorithm>
#include <cstring>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>
#include "report/util.hpp"

namespace tgsim {

using detail::with_commas;

namespace {

// The bytes of the fields a fields() list names: adding a field changes the struct's size,
// and the static_asserts below fail until the list names it too.
template <class T>
constexpr std::size_t listed_bytes() {
  std::size_t n = 0;
  T::fields([&](const char*, auto member) { n += sizeof(std::declval<T&>().*member); });
  return n;
}

}  // namespace

static_assert(sizeof(AccessCounters) == listed_bytes<AccessCounters>(),
              "AccessCounters::fields must list every field");
// (cache_modelled, a bool, is followed by 7 bytes of padding)
static_assert(sizeof(Counters) == listed_bytes<Counters>() + 7, "Counters::fields must list every field");

AccessCounters& AccessCounters::operator+=(const AccessCounters& o) {
  fields([&](const char*, auto m) { this->*m += o.*m; });
  return *this;
}

Counters& Counters::operator+=(const Counters& o) {
  fields([&](const char*, auto m) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(this->*m)>, bool>)
      this->*m = this->*m || o.*m;
    else
      this->*m += o.*m;
  });
  return *this;
}

const char* to_string(SiteKind k) {
  switch (k) {
    case SiteKind::kGlobalLoad: return "global.load";
    case SiteKind::kGlobalStore: return "global.store";
    case SiteKind::kSharedLoad: return "shared.load";
    case SiteKind::kSharedStore: return "shared.store";
    case SiteKind::kBarrier: return "barrier";
    case SiteKind::kGlobalAtomic: return "global.atomic";
    case SiteKind::kSharedAtomic: return "shared.atomic";
    case SiteKind::kConstantLoad: return "constant.load";
    case SiteKind::kShuffle: return "shfl";
    case SiteKind::kVote: return "vote";
    case SiteKind::kWarpSync: return "warpsync";
    case SiteKind::kWarpReduce: return "warp_reduce";
    case SiteKind::kLoad: return "load";
    case SiteKind::kStore: return "store";
  }
  return "?";
}

const char* to_string(FindingKind k) {
  switch (k) {
    case FindingKind::kOutOfBounds: return "out-of-bounds";
    case FindingKind::kBarrierDivergence: return "barrier-divergence";
    case FindingKind::kRaw: return "raw-hazard";
    case FindingKind::kWar: return "war-hazard";
    case FindingKind::kWaw: return "waw-hazard";
    case FindingKind::kWarpRaw: return "warp-sync-raw-hazard";
    case FindingKind::kWarpWar: return "warp-sync-war-hazard";
    case FindingKind::kWarpWaw: return "warp-sync-waw-hazard";
    case FindingKind::kUninitialized: return "uninitialized-read";
    case FindingKind::kWarpCollective: return "warp-collective";
    case FindingKind::kConstantWrite: return "constant-write";
    case FindingKind::kUseAfterFree: return "use-after-free";
    case FindingKind::kWatchdog: return "watchdog";
    case FindingKind::kUnsupported: return "unsupported";
    case FindingKind::kAssert: return "assert";
    case FindingKind::kTrap: return "trap";
    case FindingKind::kIntegerDivision: return "integer-division";
    case FindingKind::kMisaligned: return "misaligned-access";
  }
  return "?";
}

bool is_hazard(FindingKind k) {
  return k == FindingKind::kRaw || k == FindingKind::kWar || k == FindingKind::kWaw ||
         k == FindingKind::kWarpRaw || k == FindingKind::kWarpWar || k == FindingKind::kWarpWaw;
}

namespace {

nlohmann::json dim(const Dim3& d) { return nlohmann::json::array({d.x, d.y, d.z}); }

nlohmann::json global_json(const AccessCounters& c) {
  return {{"thread_accesses", c.thread_accesses}, {"instructions", c.instructions},
          {"requests", c.requests()},             {"sectors", c.sectors},
          {"bytes", c.bytes}};
}

nlohmann::json shared_json(const AccessCounters& c) {
  return {{"thread_accesses", c.thread_accesses}, {"instructions", c.instructions},
          {"wavefronts", c.wavefronts},           {"ideal_wavefronts", c.ideal_wavefronts},
          {"bank_conflicts", c.bank_conflicts()}, {"bytes", c.bytes}};
}

nlohmann::json atomic_json(const AccessCounters& c) {
  return {{"thread_accesses", c.thread_accesses}, {"instructions", c.instructions},
          {"wavefronts", c.wavefronts}, {"bytes", c.bytes}};
}

nlohmann::json constant_json(const AccessCounters& c) {
  return {{"thread_accesses", c.thread_accesses}, {"instructions", c.instructions},
          {"serialized_accesses", c.distinct_addresses}, {"bytes", c.bytes}};
}

// Every field of Counters at its path (Counters::fields); the memory-hierarchy fields only
// with the cache model on.
nlohmann::json counters_json(const Counters& c) {
  nlohmann::json j = nlohmann::json::object();
  Counters::fields([&](std::string_view path, auto m) {
    using T = std::remove_cvref_t<decltype(c.*m)>;
    const std::size_t dot = path.find('.');
    const std::string head(path.substr(0, dot));
    if constexpr (std::is_same_v<T, AccessCounters>) {
      const std::string kind(path.substr(dot + 1));
      nlohmann::json v = head == "constant" ? constant_json(c.*m)
                         : head == "global" ? global_json(c.*m)
                         : kind == "atomic" ? atomic_json(c.*m)
                                            : shared_json(c.*m);
      if (path == "global.load" && c.cache_modelled) v["l1_hit_sectors"] = (c.*m).l1_hit_sectors;
      j[head][kind] = v;
    } else if constexpr (std::is_same_v<T, bool>) {
      // cache_modelled: said by the presence of "l2" and "dram"
    } else if (dot == std::string_view::npos) {
      j[head] = c.*m;
    } else if (c.cache_modelled) {
      j[head][std::string(path.substr(dot + 1))] = c.*m;
    }
  });
  return j;
}

}  // namespace

std::string SiteCounters::where() const {
  return detail::basename_of(file) + ":" + std::to_string(line) + ":" + std::to_string(tgsim_site_column(column)) +
         detail::also_line(column);
}

std::string Finding::where() const {
  return detail::basename_of(file) + ":" + std::to_string(line) + detail::also_line(column);
}

std::string Finding::where2() const {
  return file2.empty() ? std::string()
                       : detail::basename_of(file2) + ":" + std::to_string(line2) + detail::also_line(column2);
}

namespace {

// The column and, for a merged site, its second line (detail::also_line).
nlohmann::json column_json(std::uint32_t column_field, const char* column, const char* also) {
  nlohmann::json j = {{column, tgsim_site_column(column_field)}};
  if (tgsim_site_also(column_field)) j[also] = tgsim_site_also(column_field);
  return j;
}

}  // namespace

namespace {

// A sampled launch's "sampled" object: the share simulated and each counter's 95% interval.
nlohmann::json sampling_json(const Sampling& s) {
  nlohmann::json j = {{"share", s.groups_total ? double(s.groups_simulated) / double(s.groups_total) : 0.0},
                      {"groups_simulated", s.groups_simulated}, {"groups_total", s.groups_total},
                      {"replicates", s.replicates}, {"confidence", 0.95},
                      {"method", "the first and last threadgroups, and systematic samples of the others in grid "
                                 "order, in strata by position and by the path a pilot's groups take; counters "
                                 "and sites are estimates, findings those of the sampled groups"}};
  j["auto"] = s.automatic;
  j["share_asked"] = s.share_asked;
  if (s.automatic) j["full_run_thread_events"] = s.full_events;
  j["strata"] = s.strata;
  j["path_splits"] = s.path_splits;
  j["pilot_groups"] = s.pilot_groups;
  j["intervals"] = nlohmann::json::object();
  for (const Sampling::Interval& i : s.intervals) j["intervals"][i.counter] = {i.low, i.high};
  return j;
}

}  // namespace

std::string to_json(const Report& r, int indent) {
  nlohmann::json j;
  j["kernel"] = r.kernel;
  j["grid"] = dim(r.grid);
  j["block"] = dim(r.block);
  j["profile"] = r.profile;
  j["counters"] = counters_json(r.counters);
  j["sites"] = nlohmann::json::array();
  for (const SiteCounters& s : r.sites) {
    nlohmann::json e = {{"file", s.file}, {"line", s.line}, {"kind", to_string(s.kind)}};
    e.update(column_json(s.column, "column", "also_line"));
    switch (s.kind) {
      case SiteKind::kBarrier: e["barriers"] = s.barriers; break;
      case SiteKind::kGlobalLoad:
      case SiteKind::kGlobalStore:
      case SiteKind::kGlobalAtomic:
        e.update(global_json(s.counters));
        if (r.counters.cache_modelled && s.kind == SiteKind::kGlobalLoad)
          e["l1_hit_sectors"] = s.counters.l1_hit_sectors;
        break;
      case SiteKind::kSharedLoad:
      case SiteKind::kSharedStore: e.update(shared_json(s.counters)); break;
      case SiteKind::kSharedAtomic: e.update(atomic_json(s.counters)); break;
      case SiteKind::kConstantLoad: e.update(constant_json(s.counters)); break;
      default: e["count"] = s.warp_ops; break;
    }
    j["sites"].push_back(e);
  }
  j["findings"] = nlohmann::json::array();
  for (const Finding& f : r.findings) {
    nlohmann::json e = {{"kind", to_string(f.kind)}, {"file", f.file}, {"line", f.line},
                        {"message", f.message},
                        {"block", dim(f.block)}, {"thread", dim(f.thread)},
                        {"warp", f.warp}, {"lane", f.lane}, {"count", f.count}};
    e.update(column_json(f.column, "column", "also_line"));
    if (!f.file2.empty()) {
      e.update({{"file2", f.file2}, {"line2", f.line2}, {"block2", dim(f.block2)}, {"thread2", dim(f.thread2)}});
      e.update(column_json(f.column2, "column2", "also_line2"));
    }
    if (!f.object.empty()) e.update({{"object", f.object}, {"index", f.index}});
    j["findings"].push_back(e);
  }
  if (!r.printed.empty()) j["printed"] = r.printed;
  if (!r.notes.empty()) j["notes"] = r.notes;
  if (r.sampling.on) j["sampled"] = sampling_json(r.sampling);
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);  // names need not be UTF-8
}

}  // namespace tgsim
