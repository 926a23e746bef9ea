#include "validate.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "catalog.hpp"
#include "report/util.hpp"

namespace tgsim::catalog {

using detail::with_commas;

namespace {

std::uint64_t metric(const nlohmann::json& m, const std::string& name) {
  auto it = m.find(name);
  if (it == m.end() || !it->is_number())
    throw std::runtime_error("fixture lacks metric " + name);
  return it->get<std::uint64_t>();
}

}  // namespace

bool KernelComparison::all_equal() const {
  for (const MetricRow& r : rows)
    if (r.compared && !r.equal()) return false;
  return correct_tgsim && correct_h100;
}

bool Validation::all_equal() const {
  for (const KernelComparison& k : kernels)
    if (!k.all_equal()) return false;
  return catalog_kernels_missing.empty();
}

std::string default_fixture_path() {
  namespace fs = std::filesystem;
  std::error_code ec;
  auto exists = [&ec](const fs::path& p) { return fs::is_regular_file(p, ec); };
  if (const char* dir = std::getenv("TGSIM_FIXTURE_DIR"); dir && *dir) {
    const fs::path p = fs::path(dir) / "h100.json";
    return exists(p) ? p.string() : std::string();
  }
  // TGSIM_DATA_FROM_BIN: the install's data folder relative to its bin folder ("../share/tgsim").
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = (exe.parent_path() / TGSIM_DATA_FROM_BIN / "h100.json").lexically_normal();
    if (exists(installed)) return installed.string();
  }
  const fs::path source = fs::path(TGSIM_SOURCE_DIR) / "tests" / "hardware" / "h100.json";
  return exists(source) ? source.string() : std::string();
}

namespace {

Validation validate_fixture(const std::string& path, unsigned threads, const std::vector<std::string>& only) {
  for (const std::string& k : only)
    if (!find(k)) throw std::runtime_error("unknown kernel '" + k + "' (tgsim list)");
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open fixture " + path);
  nlohmann::json fx = nlohmann::json::parse(in);
  Validation v;
  v.gpu = fx.at("gpu").value("name", "?");
  v.driver = fx.at("gpu").value("driver_version", "?");
  v.ncu = fx.at("versions").value("ncu", "?");
  const nlohmann::json& kernels = fx.at("kernels");
  Device dev;
  for (const Entry& e : entries()) {
    if (e.buggy) continue;  // racy on purpose: their results and counts are not a reference
    if (!only.empty() && std::find(only.begin(), only.end(), e.name) == only.end()) continue;
    if (!kernels.contains(e.name)) {
      v.catalog_kernels_missing.push_back(e.name);
      continue;
    }
    const nlohmann::json& k = kernels.at(e.name);
    const nlohmann::json& m = k.at("metrics");
    RunOptions opt;
    opt.n = k.at("n").get<int>();
    opt.threads = threads;
    Result r = run(dev, e.name, opt);
    const Counters& c = r.report.counters;
    KernelComparison kc;
    kc.kernel = e.name;
    kc.n = opt.n;
    kc.correct_tgsim = r.correct;
    kc.correct_h100 = k.value("correct", false);
    auto add = [&](const char* counter, const char* name, std::uint64_t ours, bool compared = true) {
      kc.rows.push_back({counter, name, ours, metric(m, name), compared});
    };
    add("global.load.instructions", "smsp__sass_inst_executed_op_global_ld.sum", c.global_load.instructions);
    add("global.load.requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", c.global_load.requests());
    add("global.load.sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", c.global_load.sectors);
    add("global.store.instructions", "smsp__sass_inst_executed_op_global_st.sum", c.global_store.instructions);
    add("global.store.requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", c.global_store.requests());
    add("global.store.sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", c.global_store.sectors);
    add("shared.load.instructions", "smsp__sass_inst_executed_op_shared_ld.sum", c.shared_load.instructions);
    add("shared.load.wavefronts", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        c.shared_load.wavefronts);
    add("shared.store.instructions", "smsp__sass_inst_executed_op_shared_st.sum", c.shared_store.instructions);
    add("shared.store.wavefronts", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        c.shared_store.wavefronts);
    add("barriers", "sass__inst_executed_per_opcode[BAR]", c.barriers);
    // Shuffles, atomics and constant loads (a global atomic is ATOMG, or REDG when its result
    // is unused; a constant load's replays are its distinct addresses past the first).
    auto add_sum = [&](const char* counter, const char* m1, const char* m2, std::uint64_t ours) {
      kc.rows.push_back({counter, std::string(m1) + " + " + m2, ours, metric(m, m1) + metric(m, m2), true});
    };
    add("shfl", "sass__inst_executed_per_opcode[SHFL]", c.shfl);
    add("shared.atomic.instructions", "smsp__sass_inst_executed_op_shared_atom.sum",
        c.shared_atomic.instructions);
    add("shared.atomic.wavefronts", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
        c.shared_atomic.wavefronts);
    add_sum("global.atomic.instructions", "smsp__sass_inst_executed_op_global_atom.sum",
            "smsp__sass_inst_executed_op_global_red.sum", c.global_atomic.instructions);
    add_sum("global.atomic.sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", c.global_atomic.sectors);
    add("constant.load.replays", "sm__idc_divergent_instruction_replays.sum",
        c.constant_load.distinct_addresses - c.constant_load.instructions);
    // Information only: hardware counters that include arbitration (upper bounds).
    add("shared.load.bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        c.shared_load.bank_conflicts(), false);
    add("shared.store.bank_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        c.shared_store.bank_conflicts(), false);
    v.kernels.push_back(std::move(kc));
  }
  return v;
}

}  // namespace

// A fixture that is not the JSON this expects is a runtime_error naming the file (one line).
Validation validate_against(const std::string& path, unsigned threads, const std::vector<std::string>& only) {
  try {
    return validate_fixture(path, threads, only);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("fixture " + path + " is malformed: " + e.what());
  }
}

std::size_t display_columns(const std::string& s) {
  std::size_t cols = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if ((b & 0xC0) == 0x80) continue;  // a continuation byte
    cols += b >= 0xE1 && b <= 0xEF ? 2 : 1;  // U+1000..U+FFFF: the kana, kanji and full-width forms
  }
  return cols;
}

std::string pad_cell(const std::string& s, std::size_t w, bool left) {
  const std::size_t cols = display_columns(s);
  if (!left && cols >= w) return " " + s;  // a right-aligned cell that fills its column never touches the one before
  const std::string fill(cols < w ? w - cols : 0, ' ');
  return left ? s + fill : fill + s;
}

std::string format_table(const Validation& v, const Say& say_in) {
  const Say say = say_in ? say_in : [](const std::string& en) { return en; };
  std::ostringstream os;
  os << say("tgsim vs " + v.gpu + " (driver " + v.driver + ", Nsight Compute " + v.ncu + ")") << "\n"
     << say("compared: SASS-level instruction, request, sector, wavefront, BAR, SHFL, atomic and") << "\n"
     << say("constant-replay counts must be equal;") << "\n"
     << say("(info) rows are hardware bank-conflict counters, which include arbitration wavefronts") << "\n\n";
  for (const KernelComparison& k : v.kernels) {
    const std::string ours = k.correct_tgsim ? "correct" : "WRONG", theirs = k.correct_h100 ? "correct" : "WRONG";
    os << k.kernel << "  n=" << k.n << "  "
       << say("result " + ours + " in tgsim, " + theirs + " on the H100") << "\n";
    for (const MetricRow& r : k.rows) {
      if (!r.compared && r.tgsim == 0 && r.h100 == 0) continue;
      os << "  " << std::left << std::setw(28) << r.counter << std::right << std::setw(15) << with_commas(r.tgsim)
         << std::setw(15) << with_commas(r.h100) << "  "
         << say(r.compared ? (r.equal() ? "equal" : "DIFFERENT") : "(info)") << "\n";
    }
  }
  for (const std::string& k : v.catalog_kernels_missing) os << say(k + ": NOT IN THE FIXTURE") << "\n";
  os << "\n" << say(v.all_equal() ? "all compared counters equal" : "MISMATCH") << "\n";
  return os.str();
}

}  // namespace tgsim::catalog
