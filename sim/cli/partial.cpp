// A slice's report (`tgsim run --groups I/N`): the --groups option, the raw report that
// `tgsim merge` sums (merge.cpp), and the launch's fingerprint.
#include "partial.hpp"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <type_traits>

#include <tgsim/launch.hpp>

#include "i18n.hpp"

namespace tgsim::cli {

GroupsOption parse_groups(const std::string& s) {
  const std::size_t slash = s.find('/');
  auto number = [&](std::size_t b, std::size_t e, std::uint64_t& v) {
    auto [p, ec] = std::from_chars(s.data() + b, s.data() + e, v);
    return b < e && ec == std::errc() && p == s.data() + e;
  };
  std::uint64_t i = 0, n = 0;
  if (slash == std::string::npos || !number(0, slash, i) || !number(slash + 1, s.size(), n))
    throw std::invalid_argument("bad --groups '" + s + "': I/N, slice I (from 0) of N slices, e.g. 0/4");
  if (n < 1 || n > 0xFFFFFFFFull)
    throw std::invalid_argument("bad --groups '" + s + "': N must be from 1 to 4294967295");
  if (i >= n)
    throw std::invalid_argument("bad --groups '" + s + "': I must be below N (slices 0 to " + std::to_string(n - 1) +
                                ")");
  return {true, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(n)};
}

SampleChoice parse_sample(const std::string& s) {
  if (s == "auto") return {true, 0.0};
  if (s == "off") return {false, 0.0};
  const bool percent = !s.empty() && s.back() == '%';
  const std::string v = percent ? s.substr(0, s.size() - 1) : s;
  double p = -1;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), p);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !(p > 0) || p > (percent ? 100.0 : 1.0))
    throw std::invalid_argument("bad --sample '" + s + "': a share of the threadgroups, above 0 and at most 1 "
                                "(0.02) or 100% (2%)");
  return {false, percent ? p / 100.0 : p};
}

namespace {

nlohmann::json dim(const Dim3& d) { return nlohmann::json::array({d.x, d.y, d.z}); }
Dim3 dim_of(const nlohmann::json& j) {
  return Dim3(j.at(0).get<std::uint32_t>(), j.at(1).get<std::uint32_t>(), j.at(2).get<std::uint32_t>());
}

nlohmann::ordered_json access_raw(const AccessCounters& c) {
  nlohmann::ordered_json j;
  AccessCounters::fields([&](const char* name, auto m) { j[name] = c.*m; });
  return j;
}
AccessCounters access_from_raw(const nlohmann::json& j) {
  AccessCounters c;
  AccessCounters::fields([&](const char* name, auto m) { c.*m = j.at(name).get<std::uint64_t>(); });
  return c;
}

template <class E>
E enum_from(const std::string& s, int last, const char* what) {
  for (int k = 0; k <= last; ++k)
    if (s == to_string(static_cast<E>(k))) return static_cast<E>(k);
  throw std::runtime_error(std::string("unknown ") + what + " '" + s + "'");
}

}  // namespace

nlohmann::ordered_json report_raw(const Report& r) {
  nlohmann::ordered_json j;
  j["kernel"] = r.kernel;
  j["grid"] = dim(r.grid);
  j["block"] = dim(r.block);
  j["profile"] = r.profile;
  nlohmann::ordered_json c;
  Counters::fields([&](const char* path, auto m) {
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(r.counters.*m)>, AccessCounters>)
      c[path] = access_raw(r.counters.*m);
    else
      c[path] = r.counters.*m;
  });
  j["counters"] = c;
  j["sites"] = nlohmann::ordered_json::array();
  for (const SiteCounters& s : r.sites)
    j["sites"].push_back({{"file", s.file}, {"line", s.line}, {"column", s.column}, {"kind", to_string(s.kind)},
                          {"counters", access_raw(s.counters)}, {"barriers", s.barriers}, {"warp_ops", s.warp_ops}});
  j["findings"] = nlohmann::ordered_json::array();
  for (const Finding& f : r.findings)
    j["findings"].push_back({{"kind", to_string(f.kind)}, {"file", f.file}, {"line", f.line}, {"column", f.column},
                             {"file2", f.file2}, {"line2", f.line2}, {"column2", f.column2},
                             {"message", f.message}, {"block", dim(f.block)}, {"thread", dim(f.thread)},
                             {"warp", f.warp}, {"lane", f.lane}, {"block2", dim(f.block2)},
                             {"thread2", dim(f.thread2)}, {"object", f.object}, {"index", f.index},
                             {"count", f.count}});
  j["printed"] = r.printed;
  j["notes"] = r.notes;
  return j;
}

Report report_from_raw(const nlohmann::json& j) {
  try {
    Report r;
    r.kernel = j.at("kernel").get<std::string>();
    r.grid = dim_of(j.at("grid"));
    r.block = dim_of(j.at("block"));
    r.profile = j.at("profile").get<std::string>();
    const nlohmann::json& c = j.at("counters");
    Counters::fields([&](const char* path, auto m) {
      using T = std::remove_cvref_t<decltype(r.counters.*m)>;
      if constexpr (std::is_same_v<T, AccessCounters>)
        r.counters.*m = access_from_raw(c.at(path));
      else
        r.counters.*m = c.at(path).get<T>();
    });
    for (const nlohmann::json& s : j.at("sites")) {
      SiteCounters x;
      x.file = s.at("file").get<std::string>();
      x.line = s.at("line").get<std::uint32_t>();
      x.column = s.at("column").get<std::uint32_t>();
      x.kind = enum_from<SiteKind>(s.at("kind").get<std::string>(), int(SiteKind::kStore), "site kind");
      x.counters = access_from_raw(s.at("counters"));
      x.barriers = s.at("barriers").get<std::uint64_t>();
      x.warp_ops = s.at("warp_ops").get<std::uint64_t>();
      r.sites.push_back(std::move(x));
    }
    for (const nlohmann::json& f : j.at("findings")) {
      Finding x;
      x.kind = enum_from<FindingKind>(f.at("kind").get<std::string>(), int(FindingKind::kMisaligned), "finding kind");
      x.file = f.at("file").get<std::string>();
      x.line = f.at("line").get<std::uint32_t>();
      x.column = f.at("column").get<std::uint32_t>();
      x.file2 = f.at("file2").get<std::string>();
      x.line2 = f.at("line2").get<std::uint32_t>();
      x.column2 = f.at("column2").get<std::uint32_t>();
      x.message = f.at("message").get<std::string>();
      x.block = dim_of(f.at("block"));
      x.thread = dim_of(f.at("thread"));
      x.warp = f.at("warp").get<std::uint32_t>();
      x.lane = f.at("lane").get<std::uint32_t>();
      x.block2 = dim_of(f.at("block2"));
      x.thread2 = dim_of(f.at("thread2"));
      x.object = f.at("object").get<std::string>();
      x.index = f.at("index").get<std::int64_t>();
      x.count = f.at("count").get<std::uint64_t>();
      r.findings.push_back(std::move(x));
    }
    r.printed = j.at("printed").get<std::string>();
    r.notes = j.at("notes").get<std::vector<std::string>>();
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("its raw report is incomplete (") + e.what() + ")");
  }
}

namespace {

// FNV-1a, 64 bits: the arguments' hash in the fingerprint (not for security: two parts made
// from different inputs are told apart, not guarded against).
std::string fnv1a(const std::string& s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

void add_list(std::string& out, const char* what, const std::vector<std::string>& v) {
  out += what;
  for (const std::string& s : v) out += std::to_string(s.size()) + ":" + s;
  out += "\n";
}

}  // namespace

std::string file_launch_args(const FileLaunch& f) {
  std::ifstream in(f.file, std::ios::binary);
  std::string out(std::istreambuf_iterator<char>(in), {});
  out = "file " + std::to_string(out.size()) + ":" + out + "\nkernel " + f.kernel + "\nthreads-in-grid " +
        f.grid_threads + "\nshared " + std::to_string(f.shared) + "\nstack " + f.stack + "\n";
  add_list(out, "args ", f.args);
  add_list(out, "-I ", f.include_dirs);
  add_list(out, "-D ", f.defines);
  add_list(out, "pre-include ", f.pre_includes);
  add_list(out, "constant ", f.constants);
  return out;
}

nlohmann::ordered_json launch_fingerprint(const Report& r, const std::string& args, bool cache_model,
                                          const std::string& schedule) {
  return {{"kernel", r.kernel},  {"grid", dim(r.grid)},        {"block", dim(r.block)},
          {"args_hash", fnv1a(args)}, {"tgsim", version()},    {"profile", r.profile},
          {"cache_model", cache_model}, {"schedule", schedule}};
}

nlohmann::ordered_json partial_json(const Report& r, const GroupsOption& g, const DeviceProfile& p,
                                    nlohmann::ordered_json fingerprint) {
  const std::uint64_t groups = r.grid.volume();
  const auto [first, last] = group_slice(groups, g.slice, g.slices);
  nlohmann::ordered_json j;
  j["slice"] = g.slice;
  j["slices"] = g.slices;
  j["groups"] = {first, last};
  j["groups_total"] = groups;
  // Every SM's groups in one slice (group g on SM g % sm_count): the L1 model is exact.
  j["whole_sms"] = g.slices == 1 || groups <= p.sm_count;
  j["fingerprint"] = std::move(fingerprint);
  j["raw"] = report_raw(r);
  return j;
}

std::string partial_line(const Report& r, const GroupsOption& g) {
  const std::uint64_t groups = r.grid.volume();
  const auto [first, last] = group_slice(groups, g.slice, g.slices);
  return trf("partial.line", {std::to_string(g.slice), std::to_string(g.slices), std::to_string(first),
                               std::to_string(last), std::to_string(groups)}) +
         "\n";
}

}  // namespace tgsim::cli
