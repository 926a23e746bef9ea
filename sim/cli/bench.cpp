// `tgsim bench`: tgsim's time for the tiled 16x16 matmul (and the naive one, and seed 004's
// global int matmul sampled as `tgsim run` does, for its peak memory), measured side by
// side in this process (the minimum of --reps rounds, every configuration once per round):
//   counters  every counter on, the cache model off       cache    counters and the cache model
//   engine    the same kernel with counting off (LaunchConfig::count: fibers, barriers and memory
//             only, what an uncounted runtime such as HIP-CPU does)
//   checker   counters and the checker (cache model off)
// as ratios to the engine, to HIP-CPU running the same kernel (--hipcpu PROGRAM: the program of
// examples/hipcpu/, run once per round beside the rows) and to a plain C++ triple loop, with the
// machine. It reports measurements only: the project's own speed targets are judged on its JSON
// by tests/bench/targets.py. `--count none` times the engine alone. With more
// than one worker it also times two loops that share nothing (registers only; reads of a private
// 1 MiB) alone and on all workers at once: the machine's own efficiency, the yardstick for
// tgsim's (and HIP-CPU's) on a shared machine.
// `--threads 1,16` times only those worker counts; in every round each row runs at its worker
// counts back to back, so an efficiency compares runs seconds apart. `--rows` picks rows.
#include <malloc.h>
#include <sched.h>
#include <sys/resource.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "file_kernel.hpp"  // UsageError
#include "i18n.hpp"
#include "kernels.hpp"
#include "machine_loops.hpp"
#include <tgsim/internal/text.hpp>

namespace tgsim::cli {

using internal::fixed;

bool g_bench_cache = true;  // tgsim bench --no-cache: time without the memory-hierarchy model
bool g_bench_count_none = false;  // tgsim bench --count none: the uncounted engine alone
std::vector<std::string> g_bench_rows;  // tgsim bench --rows: those rows only (empty: all)

namespace {

using Clock = std::chrono::steady_clock;

template <class F>
double min_seconds(int reps, F&& f) {
  double best = 1e300;
  for (int i = 0; i < reps; ++i) {
    auto t0 = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return best;
}

// The plain triple loop (i, j, k) that the ratio is taken against.
__attribute__((noinline)) void native_matmul(const float* A, const float* B, float* C, int n) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0.0f;
      for (int k = 0; k < n; ++k) s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
}

// Peak RSS of each measurement on its own: Linux resets the high-water mark (VmHWM) to the
// current RSS when "5" is written to /proc/self/clear_refs, after malloc_trim has returned the
// heap that earlier rows freed (glibc keeps it otherwise, and the next row would carry it).
// Where that fails, the process-wide peak (getrusage) is reported instead, which only grows
// from one row to the next.
bool reset_peak_rss() {
  malloc_trim(0);
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
  f.flush();
  return static_cast<bool>(f);
}

double peak_rss_mb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // kB
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;
}

// The CPU's model name (/proc/cpuinfo), or "unknown CPU".
std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
    }
  return "unknown CPU";
}

using machine::LoopScaling;

// The machine's efficiency at `workers` threads, by two loops that share nothing
// (machine_loops.hpp): 8 multiply chains in registers, and reads of a private 1 MiB (more than
// L1, well inside the L2 of the machines here, where tgsim's workers keep their records and
// fiber stacks).
struct MachineScaling {
  unsigned workers = 0;
  LoopScaling reg{[] { return machine::scalar_chains_seconds(40'000'000); }};
  LoopScaling l2{[] { return machine::private_reads_seconds(std::size_t(1) << 20, 10'000); }};
  void round() { reg.round(workers), l2.round(workers); }
};

// bench --json's "machine": null at one worker (nothing to compare).
nlohmann::ordered_json machine_json(const MachineScaling& m) {
  if (m.workers < 2) return nullptr;
  return {{"workers", m.workers}, {"register_loop_alone_s", m.reg.alone}, {"register_loop_all_s", m.reg.all},
          {"register_loop_efficiency", m.reg.efficiency()}, {"l2_loop_alone_s", m.l2.alone},
          {"l2_loop_all_s", m.l2.all}, {"l2_loop_efficiency", m.l2.efficiency()}};
}

}  // namespace

std::string hipcpu_program;  // tgsim bench --hipcpu PROGRAM

namespace {

// One configuration of the table: a kernel in one mode at one worker count.
struct Mode {
  const char* name;  // counters, cache, engine, checker
  bool count, cache, check;
};
constexpr Mode kCounters{"counters", true, false, false}, kCache{"cache", true, true, false},
    kEngine{"engine", false, false, false}, kChecker{"checker", true, false, true};

using LaunchFn = void (*)(const Device&, LaunchConfig&, Buffer<float>&, Buffer<float>&, Buffer<float>&, int,
                          Report&);

struct Run {
  const char* kernel;
  Mode mode;
  unsigned threads;
  LaunchFn launch;
  LaunchConfig cfg;
  Report rep;
  double sec = 1e300, rss = 0;
  double busy = 0;  // the workers' busy share (LaunchTiming) in the round of the kept time
  double outside = 0;  // seconds of that launch outside the workers' part (set-up, merge)
  bool per_run_rss = true;
};

// HIP-CPU's run of the same kernel on `workers` cores: `taskset -c CPUS PROGRAM N 1` (the first
// `workers` CPUs this process may use) prints "... seconds=S accesses=A ...".
struct HipRun {
  unsigned workers = 0;
  double sec = 1e300, accesses = 0;
};
bool run_hipcpu(const std::string& program, int n, HipRun& out) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return false;
  std::string cpus;
  for (int c = 0, taken = 0; c < CPU_SETSIZE && taken < int(out.workers); ++c)
    if (CPU_ISSET(c, &set)) cpus += (taken++ ? "," : "") + std::to_string(c);
  const std::string cmd = "taskset -c " + cpus + " '" + program + "' " + std::to_string(n) + " 1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return false;
  std::string text;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) text += buf;
  const int rc = pclose(p);
  const auto sec = text.find("seconds="), acc = text.find("accesses=");
  if (rc != 0 || sec == std::string::npos || acc == std::string::npos) return false;
  out.sec = std::min(out.sec, std::atof(text.c_str() + sec + 8));
  out.accesses = std::atof(text.c_str() + acc + 9);
  return true;
}

std::vector<Run> plan_runs(int n, const std::vector<unsigned>& curve) {
  auto tiled16 = [](const Device& d, LaunchConfig& c, Buffer<float>& a, Buffer<float>& b, Buffer<float>& o, int m,
                    Report& r) { r = d.launch(c, matmul_tiled<16>, a.data(), b.data(), o.data(), m); };
  auto naive = [](const Device& d, LaunchConfig& c, Buffer<float>& a, Buffer<float>& b, Buffer<float>& o, int m,
                  Report& r) { r = d.launch(c, matmul_naive, a.data(), b.data(), o.data(), m); };
  // Seed 004's int matmul from global memory, as `tgsim run` launches it (--sample auto): no
  // barrier, so each group's lanes log n^2/16 accesses each; the row's peak RSS is the memory
  // target's case (2 x buffers + 200 MB, tests/bench/targets.py). The float buffers hold its ints.
  auto seed004 = [](const Device& d, LaunchConfig& c, Buffer<float>& a, Buffer<float>& b, Buffer<float>& o, int m,
                    Report& r) {
    r = d.launch(c, int_matmul_global, reinterpret_cast<int*>(o.data()), reinterpret_cast<const int*>(a.data()),
                 reinterpret_cast<const int*>(b.data()), m);
  };
  std::vector<Run> runs;
  auto add = [&](const char* kernel, Mode m, unsigned t, LaunchFn f) {
    Run r{kernel, m, t, f, LaunchConfig{}, Report{}};
    r.cfg.name = kernel;
    r.cfg.grid = Dim3(std::uint32_t((n + 15) / 16), std::uint32_t((n + 15) / 16));
    r.cfg.block = Dim3(16, 16);
    r.cfg.threads = t;
    r.cfg.check = m.check;
    r.cfg.cache_model = m.cache;
    r.cfg.count = m.count;
    runs.push_back(std::move(r));
  };
  auto row = [](const char* name) {
    return g_bench_rows.empty() || std::find(g_bench_rows.begin(), g_bench_rows.end(), name) != g_bench_rows.end();
  };
  for (unsigned t : curve) {
    if (!g_bench_count_none) {
      if (row("counters")) add("matmul_tiled16", kCounters, t, tiled16);
      if (g_bench_cache && row("cache")) add("matmul_tiled16", kCache, t, tiled16);
    }
    if (row("engine")) add("matmul_tiled16", kEngine, t, tiled16);
    if (g_bench_count_none) continue;
    if ((t == curve.front() || t == curve.back()) && row("checker")) add("matmul_tiled16", kChecker, t, tiled16);
    if (row("naive")) add("matmul_naive", g_bench_cache ? kCache : kCounters, t, naive);
    if ((t == curve.front() || t == curve.back()) && row("seed004")) {
      add("int_matmul_global", g_bench_cache ? kCache : kCounters, t, seed004);
      const std::uint32_t nt = INT_MATMUL_NT;
      runs.back().cfg.grid = Dim3((std::uint32_t(n) + nt - 1) / nt);
      runs.back().cfg.block = Dim3(nt, nt);
      runs.back().cfg.sample_auto = true;
    }
  }
  return runs;
}

std::uint64_t accesses(const Counters& c) {
  return c.global_load.thread_accesses + c.global_store.thread_accesses +
         c.shared_load.thread_accesses + c.shared_store.thread_accesses;
}

const Run* find_run(const std::vector<Run>& runs, const std::string& kernel, const char* mode, unsigned t) {
  for (const Run& r : runs)
    if (kernel == r.kernel && std::string(mode) == r.mode.name && r.threads == t) return &r;
  return nullptr;
}

// The rows of one N as JSON, with the ratios of each row to the engine, HIP-CPU and the first
// worker count of the same kernel and mode.
void add_rows(nlohmann::ordered_json& rows, const std::vector<Run>& runs, int n, double native,
              const std::vector<HipRun>& hip, double buffers_mb) {
  for (const Run& r : runs) {
    const Run* engine = find_run(runs, r.kernel, "engine", r.threads);
    const Run* counters = find_run(runs, r.kernel, "counters", r.threads);
    const Run* first = find_run(runs, r.kernel, r.mode.name, runs.front().threads);
    // The engine counts nothing; it makes the same accesses as the counted kernel.
    const Run* counted = r.mode.count ? &r : counters ? counters : find_run(runs, r.kernel, "cache", r.threads);
    // A sampled launch (seed004's row): its counters estimate the whole launch; the time is of the
    // groups that ran, so the accesses per second are of their share.
    const Sampling& smp = counted ? counted->rep.sampling : Sampling{};
    const double share = smp.on && smp.groups_total ? double(smp.groups_simulated) / double(smp.groups_total) : 1.0;
    const std::uint64_t acc = counted ? accesses(counted->rep.counters) : 0;
    const double simulated = double(acc) * share;
    const bool tiled = std::string(r.kernel) == "matmul_tiled16";
    double vs_hip = 0.0;
    for (const HipRun& h : hip)
      if (tiled && h.workers == r.threads && h.sec < 1e300) vs_hip = r.sec / h.sec;
    rows.push_back(nlohmann::ordered_json{
        {"kernel", r.kernel}, {"mode", r.mode.name}, {"count", r.mode.count}, {"cache_model", r.mode.cache},
        {"checker", r.mode.check}, {"n", n}, {"threads", r.threads}, {"tgsim_s", r.sec}, {"native_s", native},
        {"ratio", r.sec / native},
        {"vs_uncounted_engine", r.mode.count && engine ? r.sec / engine->sec : 0.0},
        {"vs_hipcpu", vs_hip},
        {"speedup_vs_1_thread", first && first->threads == 1 ? first->sec / r.sec : 0.0},
        {"workers_busy", r.busy}, {"outside_workers_s", r.outside},
        {"checker_vs_counters_only", r.mode.check && counters ? r.sec / counters->sec : 0.0},
        {"accesses", acc}, {"sampled_share", smp.on ? share : 0.0},
        {"ns_per_access", simulated > 0 ? r.sec * 1e9 / simulated : 0.0}, {"buffers_mb", buffers_mb},
        {"peak_rss_mb", r.rss}, {"peak_rss_per_run", r.per_run_rss}, {"findings", r.rep.findings.size()}});
  }
}

void print_table(std::ostream& os, const nlohmann::ordered_json& rows) {
  os << std::left << std::setw(18) << "kernel" << std::setw(9) << "mode" << std::right << std::setw(6) << "n"
     << std::setw(8) << "workers" << std::setw(9) << "tgsim s" << std::setw(9) << "x engine" << std::setw(9)
     << "x HIPCPU" << std::setw(9) << "x native" << std::setw(9) << "vs 1 w" << std::setw(6) << "busy" << std::setw(7) << "ns/acc"
     << std::setw(9) << "RSS MB" << "\n";
  auto opt = [](double v, int prec) { return v > 0 ? fixed(v, prec) : std::string("-"); };
  for (const auto& r : rows)
    os << std::left << std::setw(18) << r["kernel"].get<std::string>() << std::setw(9)
       << r["mode"].get<std::string>() << std::right << std::setw(6) << r["n"].get<int>() << std::setw(8)
       << r["threads"].get<unsigned>() << std::setw(9) << fixed(r["tgsim_s"], 3) << std::setw(9)
       << opt(r["vs_uncounted_engine"], 2) << std::setw(9) << opt(r["vs_hipcpu"], 2) << std::setw(9)
       << fixed(r["ratio"], 1) << std::setw(9) << opt(r["speedup_vs_1_thread"], 2) << std::setw(6)
       << fixed(r["workers_busy"], 2) << std::setw(7)
       << opt(r["ns_per_access"], 1) << std::setw(9) << fixed(r["peak_rss_mb"], 0) << "\n";
}

}  // namespace

int bench(std::ostream& os, const std::vector<int>& sizes, int reps, const std::vector<unsigned>& threads,
          bool json) {
  Device dev;
  nlohmann::ordered_json rows = nlohmann::json::array(), hip_rows = nlohmann::json::array();
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  // The worker counts of the scaling curve: 1, 2, 4, ..., all cores (or --threads, ascending).
  std::vector<unsigned> curve;
  if (!threads.empty()) {
    curve = threads;
  } else {
    for (unsigned t = 1; t < cores; t *= 2) curve.push_back(t);
    curve.push_back(cores);
  }
  MachineScaling machine{curve.back()};  // timed once per round, beside the rows of every size
  for (int n : sizes) {
    auto A = dev.alloc<float>(std::size_t(n) * n, "A");
    auto B = dev.alloc<float>(std::size_t(n) * n, "B");
    auto C = dev.alloc<float>(std::size_t(n) * n, "C");
    for (std::size_t i = 0; i < A.size(); ++i) {
      A[i] = float(int(i % 7) - 3);
      B[i] = float(int(i % 5) - 2);
    }
    const double buffers_mb = 3.0 * double(A.size()) * sizeof(float) / (1024.0 * 1024.0);
    std::vector<Run> runs = plan_runs(n, curve);
    // Round-robin, so that a slow spell of a shared machine hits every row alike; within a
    // round, one kernel and mode at every worker count in a row, so that each efficiency is the
    // ratio of two runs seconds apart, not a minute (the order of the table is worker-major).
    std::vector<Run*> order;
    for (Run& r : runs)
      if (r.threads == curve.front())
        for (Run& s : runs)
          if (std::string(s.kernel) == r.kernel && std::string(s.mode.name) == r.mode.name) order.push_back(&s);
    double native = 1e300;
    std::vector<HipRun> hip;
    if (!hipcpu_program.empty())
      for (unsigned t : curve) hip.push_back(HipRun{t});
    for (int i = 0; i < reps; ++i) {
      if (machine.workers > 1) machine.round();
      native = std::min(native, min_seconds(1, [&] { native_matmul(A.data(), B.data(), C.data(), n); }));
      for (HipRun& h : hip)
        if (!run_hipcpu(hipcpu_program, n, h))
          throw UsageError("--hipcpu '" + hipcpu_program + "' did not run under taskset or printed no seconds=");
      for (Run* run : order) {
        Run& r = *run;
        r.per_run_rss = reset_peak_rss() && r.per_run_rss;
        LaunchTiming timing;
        r.cfg.timing = &timing;
        const double sec = min_seconds(1, [&] { r.launch(dev, r.cfg, A, B, C, n, r.rep); });
        r.cfg.timing = nullptr;
        if (sec < r.sec) r.sec = sec, r.busy = timing.busy_share(), r.outside = std::max(0.0, sec - timing.wall_s);
        r.rss = std::max(r.rss, peak_rss_mb());
      }
    }
    // HIP-CPU's own efficiency over its one-core run: what the machine gave an uncounted runtime
    // of the same kernel in the same rounds, the yardstick for tgsim's efficiency rows.
    for (const HipRun& h : hip)
      hip_rows.push_back({{"n", n}, {"workers", h.workers}, {"seconds", h.sec}, {"ns_per_access", h.sec * 1e9 / h.accesses},
                          {"efficiency", hip.front().workers == 1 ? hip.front().sec / (h.sec * h.workers) : 0.0}});
    add_rows(rows, runs, n, native, hip, buffers_mb);
  }
  if (json) {
    os << nlohmann::ordered_json{{"schema", kJsonSchema}, {"tgsim", version()}, {"cores", cores},
                                 {"cpu", cpu_model()}, {"reps", reps}, {"runs", rows}, {"hipcpu", hip_rows},
                                 {"machine", machine_json(machine)}}
              .dump(2)
       << "\n";
    return 0;
  }
  os << "tgsim bench on " << cores << " cores, " << cpu_model() << "; minimum of " << reps << " rounds\n"
     << "counters: every counter, no cache model; cache: counters and the cache model; engine: the same\n"
     << "kernel with counting off (fibers, barriers, memory); checker: counters and the checker.\n"
     << "x engine, x HIPCPU, x native: time over the engine's, HIP-CPU's (--hipcpu) and a C++ i-j-k loop's;\n"
     << "vs 1 w: speedup over 1 worker (efficiency: that over the workers); busy: the share of the launch's\n"
     << "time that the workers spent running groups (1: none waited for work); ns/acc: time per access\n\n";
  print_table(os, rows);
  for (const auto& h : hip_rows)
    os << "HIP-CPU (" << hipcpu_program << ") N=" << h["n"].get<int>() << ", " << h["workers"].get<unsigned>()
       << " core(s): " << fixed(h["seconds"], 3) << " s, "
       << fixed(h["ns_per_access"], 2) << " ns per access"
       << (h["workers"].get<unsigned>() > 1 && h["efficiency"].get<double>() > 0
               ? ", efficiency " + fixed(h["efficiency"], 3)
               : std::string())
       << "\n";
  if (hipcpu_program.empty() && !g_bench_count_none)
    os << "(no HIP-CPU time: pass --hipcpu PROGRAM, built from examples/hipcpu/matmul_tiled16.cpp)\n";
  if (machine.workers > 1) {
    auto loop_line = [&](const char* what, const LoopScaling& l) {
      os << "machine: " << what << " on " << machine.workers << " threads at once runs at "
         << fixed(l.efficiency(), 2) << " of its speed alone (" << fixed(l.alone, 3) << " s alone, "
         << fixed(l.all, 3) << " s each)\n";
    };
    loop_line("a register-only loop (8 multiply chains, no memory)", machine.reg);
    loop_line("a loop reading its own 1 MiB (L2, nothing shared)", machine.l2);
    os << "(the efficiency this machine allows now, to a program that shares nothing)\n";
  }
  return 0;
}

Command add_bench(CLI::App& program) {
  struct State {
    std::vector<int> sizes = {256, 512};
    int reps = 3;
    std::vector<unsigned> threads;  // empty: 1, 2, 4, ..., all cores
    bool json = false, no_cache = false;
    std::string count = "all";
  };
  auto st = std::make_shared<State>();
  auto* c = program.add_subcommand("bench", "time tgsim against a native loop, in one process");
  c->add_option("--sizes", st->sizes, "matrix sizes")->delimiter(',');
  c->add_option("--reps", st->reps, "repetitions (the minimum time is kept)")->check(CLI::Range(1, 100));
  c->add_option("--threads", st->threads,
                "worker counts, ascending (default: 1, 2, 4, ..., all cores; 1,16: one worker against 16)")
      ->delimiter(',');
  c->add_flag("--json", st->json, "one JSON object");
  c->add_flag("--no-cache", st->no_cache, "time without the L1/L2/DRAM model");
  c->add_option("--hipcpu", hipcpu_program,
                "HIP-CPU's build of examples/hipcpu/matmul_tiled16.cpp, timed beside tgsim (PROGRAM N 1)");
  c->add_option("--count", st->count, "all: every row; none: only tgsim's engine with counting off")
      ->check(CLI::IsMember({"all", "none"}));
  c->add_option("--rows", g_bench_rows, "only these rows: counters, cache, engine, checker, naive, seed004 (default: all)")
      ->delimiter(',')
      ->check(CLI::IsMember({"counters", "cache", "engine", "checker", "naive", "seed004"}));
  return {c, [st] {
            for (int s : st->sizes)
              if (s < 16 || s > 4096) return usage_error("bench size " + std::to_string(s) + " is outside 16..4096");
            for (std::size_t i = 0; i < st->threads.size(); ++i)
              if (st->threads[i] == 0 || (i && st->threads[i] <= st->threads[i - 1]))
                return usage_error("bench --threads " + std::to_string(st->threads[i]) +
                                   (st->threads[i] ? " is not above the count before it" : " is not a worker count"));
            g_bench_cache = !st->no_cache;
            g_bench_count_none = st->count == "none";
            // --rows must leave a row that --count none and --no-cache still time.
            auto timed = [](const std::string& r) {
              return g_bench_count_none ? r == "engine" : g_bench_cache || r != "cache";
            };
            if (!g_bench_rows.empty() && std::none_of(g_bench_rows.begin(), g_bench_rows.end(), timed))
              return usage_error(std::string("bench --rows leaves no row to time with ") +
                                 (g_bench_count_none ? "--count none (engine only)" : "--no-cache"));
            try {
              return bench(std::cout, st->sizes, st->reps, st->threads, st->json);
            } catch (const UsageError& e) {  // a --hipcpu PROGRAM that does not run
              return usage_error(e.what());
            }
          }};
}

}  // namespace tgsim::cli
