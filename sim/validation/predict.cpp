#include "predict.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace tgsim::catalog {

double CacheRow::error() const {
  if (h100 == 0) return tgsim == 0 ? 0.0 : 1.0;
  return (double(tgsim) - double(h100)) / double(h100);
}

Estimate predict(const Entry& e, const Result& r, const DeviceProfile& p, int at_n) {
  Workload w;
  w.groups = r.report.grid.volume();
  w.threads_per_group = static_cast<std::uint32_t>(r.report.block.volume());
  if (at_n <= 0 || at_n == r.n) {
    w.flops = flops(e, r.n);
    return estimate(r.report.counters, w, p);
  }
  const double k = double(at_n) / double(r.n);
  const double groups_factor = k * k;  // every catalog kernel tiles an n x n output
  w.groups = static_cast<std::uint64_t>(std::llround(double(w.groups) * groups_factor));
  w.flops = flops(e, at_n);
  Counters c = scale_counters(r.report.counters, std::pow(k, access_exponent(e)), k * k, p);
  return estimate(c, w, p);
}

namespace {

const char* kKernels[] = {"matmul_naive", "matmul_tiled8", "matmul_tiled16", "matmul_tiled32",
                          "transpose_naive", "transpose_shared", "transpose_padded",
                          // cache counters only (their timings are not compared)
                          "relu", "add_bias", "blur3x3", "neighbour_sum", "layer_relu",
                          "warp_reduce_syncwarp"};
bool timed(const std::string& k) { return k.rfind("matmul", 0) == 0 || k.rfind("transpose", 0) == 0; }

std::uint64_t get(const nlohmann::json& m, const char* name) {
  auto it = m.find(name);
  return it != m.end() && it->is_number() ? it->get<std::uint64_t>() : 0;
}

}  // namespace

namespace {

Prediction predict_fixture(const std::string& path, unsigned threads) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open fixture " + path);
  nlohmann::json fx = nlohmann::json::parse(in);
  Prediction out;
  Device dev;
  std::map<std::string, Result> runs;
  std::map<std::pair<std::string, int>, Estimate> est;
  for (const char* k : kKernels) {
    const Entry* e = find(k);
    const nlohmann::json& fk = fx.at("kernels").at(k);
    RunOptions opt;
    opt.threads = threads;
    opt.n = fk.value("n", 0);
    Result r = run(dev, k, opt);
    const Counters& c = r.report.counters;
    const nlohmann::json& m = fk.at("metrics");
    auto row = [&](const char* counter, const char* metric, std::uint64_t v) {
      out.cache.push_back(CacheRow{k, counter, metric, r.n, v, get(m, metric)});
    };
    row("global.load.l1_hit_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
        c.global_load.l1_hit_sectors);
    row("l2.read_sectors", "lts__t_sectors_srcunit_tex_op_read.sum", c.l2_read_sectors);
    row("l2.write_sectors", "lts__t_sectors_srcunit_tex_op_write.sum", c.l2_write_sectors);
    row("dram.read_bytes", "dram__bytes_read.sum", c.dram_read_bytes);
    row("dram.write_bytes", "dram__bytes_write.sum", c.dram_write_bytes);
    const nlohmann::json& tk = fx.at("timings").at("kernels");
    if (timed(k) && tk.contains(k))
      for (const auto& [ns, t] : tk.at(k).items()) {
        TimingRow tr;
        tr.kernel = k;
        tr.n = std::stoi(ns);
        tr.scaled_from_n = r.n;
        tr.measured_ms = t.value("ms_median", 0.0);
        tr.est = predict(*e, r, dev.profile(), tr.n);
        est[{k, tr.n}] = tr.est;
        out.timings.push_back(tr);
      }
    runs[k] = std::move(r);
  }
  // Every pair of variants of one family timed at the same size.
  for (std::size_t i = 0; i < out.timings.size(); ++i)
    for (std::size_t j = i + 1; j < out.timings.size(); ++j) {
      const TimingRow& a = out.timings[i];
      const TimingRow& b = out.timings[j];
      if (a.n != b.n || a.kernel.substr(0, 6) != b.kernel.substr(0, 6)) continue;
      PairRow p;
      p.slower = a.kernel;
      p.faster = b.kernel;
      p.n = a.n;
      p.measured = a.measured_ms / b.measured_ms;
      p.predicted = a.est.time_ms() / b.est.time_ms();
      out.pairs.push_back(p);
    }
  const std::string m3 = path.substr(0, path.find_last_of('/') + 1) + "apple_m3_seed001.json";
  if (std::ifstream(m3)) add_m3_pairs(out, m3, threads);
  return out;
}

}  // namespace

void add_m3_pairs(Prediction& out, const std::string& path, unsigned threads) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open fixture " + path);
  const nlohmann::json fx = nlohmann::json::parse(in);
  const DeviceProfile m3 = profiles::apple_m3();
  Device dev(m3);
  RunOptions opt;  // the catalog's default size, as `tgsim tour` and `tgsim explain --at` use
  opt.threads = threads;
  const Result naive = run(dev, "matmul_naive", opt);
  const Result tiled = run(dev, "matmul_tiled16", opt);
  const auto& t = fx.at("timings");
  std::vector<PairRow> rows;
  for (const auto& [ns, tn] : t.at("matmul_naive").items()) {
    PairRow p;
    p.device = m3.name;
    p.slower = "matmul_naive";
    p.faster = "matmul_tiled16";
    p.n = std::stoi(ns);
    p.simulated_n = naive.n;
    p.measured = tn.at("ms_mean").get<double>() / t.at("matmul_tiled16").at(ns).at("ms_mean").get<double>();
    p.predicted = predict(*find("matmul_naive"), naive, m3, p.n).time_s /
                  predict(*find("matmul_tiled16"), tiled, m3, p.n).time_s;
    rows.push_back(p);
  }
  std::sort(rows.begin(), rows.end(), [](const PairRow& a, const PairRow& b) { return a.n < b.n; });
  out.pairs.insert(out.pairs.end(), rows.begin(), rows.end());
}

double PairRow::target() const { return device == "apple-m3" ? 0.30 : 0.25; }

std::string prediction_json(const Prediction& p, int indent) {
  nlohmann::ordered_json j;
  j["speedups"] = nlohmann::ordered_json::array();
  for (const PairRow& r : p.pairs)
    j["speedups"].push_back({{"device", r.device}, {"first", r.slower}, {"second", r.faster}, {"n", r.n},
                             {"measured", r.measured}, {"predicted", r.predicted}, {"error", r.error()},
                             {"target", r.target()}});
  j["timings"] = nlohmann::ordered_json::array();
  for (const TimingRow& t : p.timings)
    j["timings"].push_back({{"device", "nvidia-h100"}, {"kernel", t.kernel}, {"n", t.n},
                            {"simulated_n", t.scaled_from_n}, {"measured_ms", t.measured_ms},
                            {"predicted_ms", t.est.time_ms()}, {"bound", t.est.bound},
                            {"waves", t.est.waves}, {"groups_per_sm", t.est.groups_per_sm},
                            {"reads_fit_l2", t.est.reads_fit_l2}});
  j["cache"] = nlohmann::ordered_json::array();
  for (const CacheRow& c : p.cache)
    j["cache"].push_back({{"kernel", c.kernel}, {"n", c.n}, {"counter", c.counter}, {"metric", c.metric},
                          {"tgsim", c.tgsim}, {"h100", c.h100}});
  return j.dump(indent);
}


// A fixture that is not the JSON this expects is a runtime_error naming the file (one line).
Prediction predict_against(const std::string& path, unsigned threads) {
  try {
    return predict_fixture(path, threads);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("fixture " + path + " is malformed: " + e.what());
  }
}

std::string format_prediction(const Prediction& p, const Say& say_in) {
  const Say say = say_in ? say_in : [](const std::string& en) { return en; };
  std::ostringstream o;
  auto pct = [](double e) {
    std::ostringstream s;
    s << std::showpos << std::fixed << std::setprecision(1) << e * 100 << "%";
    return s.str();
  };
  auto num = [](double v, int precision) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(precision) << v;
    return s.str();
  };
  o << say("Cache counters, tgsim vs H100 (Nsight Compute), at the fixture's sizes") << "\n";
  o << pad_cell(say("kernel"), 22, true) << pad_cell(say("counter"), 28, true) << std::right << std::setw(12) << "tgsim"
    << std::setw(12) << "H100" << pad_cell(say("error"), 10, false) << "\n";
  for (const CacheRow& r : p.cache)
    o << std::left << std::setw(22) << r.kernel << std::setw(28) << r.counter << std::right << std::setw(12)
      << r.tgsim << std::setw(12) << r.h100 << std::setw(10) << pct(r.error()) << "\n";
  o << "\n" << say("Time estimate vs H100 timings (counters simulated at n=sim, scaled to n)") << "\n";
  std::size_t bound_w = 9;  // the widest bound's name and a space ("レイテンシ" takes 10 columns)
  for (const TimingRow& t : p.timings) bound_w = std::max(bound_w, display_columns(say(t.est.bound)) + 1);
  o << pad_cell(say("kernel"), 18, true) << std::right << std::setw(6) << "n" << std::setw(6) << "sim"
    << pad_cell(say("H100 ms"), 12, false) << pad_cell(say("tgsim ms"), 12, false)
    << pad_cell(say("bound"), bound_w, false) << "\n";
  for (const TimingRow& t : p.timings)
    o << std::left << std::setw(18) << t.kernel << std::right << std::setw(6) << t.n << std::setw(6)
      << t.scaled_from_n << std::setw(12) << num(t.measured_ms, 3) << std::setw(12) << num(t.est.time_ms(), 3)
      << pad_cell(say(t.est.bound), bound_w, false) << "\n";
  o << "\n" << say("Speedups (t(first) / t(second)), measured vs predicted") << "\n";
  std::string device = "nvidia-h100";
  for (const PairRow& r : p.pairs) {
    if (r.device != device) {
      device = r.device;
      o << say("On " + device + " (seed 001's measurements; simulated at n=" + std::to_string(r.simulated_n) +
               " under --profile " + device + ", scaled; unified load path rule):")
        << "\n";
    }
    o << "  " << std::left << std::setw(18) << r.slower << "/ " << std::setw(18) << r.faster << std::right
      << " n=" << std::setw(5) << r.n << "  " << say("measured") << " " << std::setw(6) << num(r.measured, 2)
      << "  tgsim " << std::setw(6) << num(r.predicted, 2) << "  " << say("error") << " " << std::setw(8)
      << pct(r.error()) << (r.same_sign() ? "" : "  " + say("WRONG ORDER"))
      << (std::abs(r.error()) <= r.target() ? "" : "  " + say("model misses: beyond " + pct(r.target()).substr(1)))
      << "\n";
  }
  o << say("(Not modelled: the L2's merging of requests of several SMs, so matmul L2 reads are an upper\n"
           " bound; clock changes and timing effects. Times at n above the simulated size are scaled.)")
    << "\n";
  return o.str();
}

}  // namespace tgsim::catalog
