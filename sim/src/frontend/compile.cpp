// The front end's compiler driver (compile.hpp).
#include "compile.hpp"

#include <signal.h>
#include <spawn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "compile_cache.hpp"
#include "metal_preprocess.hpp"

extern char** environ;

namespace tgsim::frontend {

namespace fs = std::filesystem;

namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

std::string self_dir() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string(".") : p.parent_path().string();
}

// A signal that would end tgsim while a compile runs (SIGINT, SIGTERM, SIGHUP): noted, so that
// the compile's temporaries are removed before tgsim ends by it (CompileSignals).
volatile sig_atomic_t g_signal = 0;
extern "C" void note_signal(int sig) { g_signal = sig; }

// While alive, the signals above are noted instead of ending tgsim; finish() removes the
// temporaries and, when one was noted, ends tgsim by it as it would have been without us.
class CompileSignals {
 public:
  CompileSignals() {
    struct sigaction sa {};
    sa.sa_handler = note_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; ++i) {
      ::sigaction(kSignals[i], nullptr, &old_[i]);
      if (old_[i].sa_handler != SIG_IGN) ::sigaction(kSignals[i], &sa, nullptr);  // ignored stays ignored
    }
  }
  ~CompileSignals() { restore(); }
  CompileSignals(const CompileSignals&) = delete;
  CompileSignals& operator=(const CompileSignals&) = delete;
  void finish(const std::vector<fs::path>& temporaries) {
    std::error_code ec;
    for (const fs::path& t : temporaries) fs::remove_all(t, ec);
    if (const int sig = g_signal) {
      restore();
      ::raise(sig);
    }
  }

 private:
  void restore() {
    for (int i = 0; i < 3; ++i) ::sigaction(kSignals[i], &old_[i], nullptr);
  }
  static constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction old_[3];
};

// The identity of a file that is not read whole (the compiler, the plugin): where it really is,
// its size and modification time.
std::string file_identity(const std::string& path) {
  std::string where = path;
  if (path.find('/') == std::string::npos) {  // a bare name: as posix_spawnp finds it
    const char* p = std::getenv("PATH");
    std::stringstream dirs(p ? p : "");
    for (std::string d; std::getline(dirs, d, ':');)
      if (!d.empty() && ::access((d + "/" + path).c_str(), X_OK) == 0) { where = d + "/" + path; break; }
  }
  std::error_code ec;
  const fs::path real = fs::canonical(where, ec);
  struct stat st {};
  if (ec || ::stat(real.c_str(), &st) != 0) return path + ":unknown";
  return real.string() + ":" + std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

// A private folder for the compiler's own temporaries, under TMPDIR (else /tmp).
fs::path make_private_tmpdir() {
  std::string base = env_or("TMPDIR", "/tmp");
  std::string tmpl = base + "/tgsim-cc-XXXXXX";
  if (!::mkdtemp(tmpl.data()))
    throw CompileError("cannot create a temporary folder in " + base + ": " + std::strerror(errno));
  return tmpl;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CompileError("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The source the compiler reads: the <<<...>>> rewrite, or the Metal preprocessor and adapter.
// Errors are the file's, as the compiler's are. Kept for the process: a command compiles a
// file's listing, then its kernel (file_kernel.cpp), from the same text.
std::string prepared_source(const std::string& file, const std::vector<std::string>& flags) {
  static std::map<std::vector<std::string>, std::string> prepared;
  std::vector<std::string> key = flags;
  key.push_back(fs::absolute(file).string());
  if (auto it = prepared.find(key); it != prepared.end()) return it->second;
  std::string text;
  try {
    text = language_of(file) == Language::kMetal ? prepare_metal_file(toolchain(), file, flags)
                                                 : prepare_source(read_file(file), file);
  } catch (const CompileError&) {
    throw;
  } catch (const std::runtime_error& e) {
    throw CompileError(std::string(e.what()) + "\n");
  }
  return prepared[key] = text;
}

}  // namespace

Toolchain toolchain() {
  Toolchain t;
  // Installed: <prefix>/bin/tgsim, <prefix>/<libdir>/tgsim/tgsim_pass.so, <prefix>/include.
  const fs::path prefix = fs::path(self_dir()).parent_path();
  std::string plugin = (prefix / TGSIM_INSTALL_LIBDIR / "tgsim" / "tgsim_pass.so").string();
  std::string include = (prefix / "include").string();
  if (!fs::exists(plugin)) {  // the build tree
    plugin = TGSIM_BUILD_PLUGIN;
    include = TGSIM_SOURCE_INCLUDE;
  }
  t.clang = env_or("TGSIM_CLANG", TGSIM_CLANGXX);
  t.plugin = env_or("TGSIM_PLUGIN", plugin);
  t.include = env_or("TGSIM_INCLUDE", include);
  return t;
}

std::vector<std::string> compile_command(const Toolchain& tc, Language lang, const std::string& prepared,
                                         const std::string& out, bool shared, const std::string& source_dir) {
  std::vector<std::string> cmd = {tc.clang, "-std=c++20", "-O2", "-g", "-gdwarf-4", "-fPIC", "-fno-vectorize",
                                   "-fno-slp-vectorize", "-fno-builtin-printf", "-Wno-unknown-attributes",
                                   // What nvcc accepts with a warning: `register` (removed in C++17)
                                   // and narrowing in braces.
                                   "-Wno-register", "-Wno-c++11-narrowing",
                                   // The GPU's math sets no errno: expf, sqrtf ... read and write no
                                   // memory, so a value read before the call is not read again after
                                   // it, as nvcc emits (tests/nvcc_fidelity: one LDG, not two).
                                   "-fno-math-errno",
                                   // The two arms of an `if` keep their stores to different
                                   // addresses, one each, as nvcc does (one STG per call site of a
                                   // helper); the pass merges those to one address
                                   // (sim/pass/merge_arm_stores.cpp).
                                   "-mllvm", "-sink-common-insts=false",
                                   // Clang's own runtime unrolling (by the host's costs) is left
                                   // out: the pass unrolls as NVVM and ptxas do (sim/pass/unroll.cpp).
                                   "-mllvm", "-unroll-runtime=false",
                                   // A frame larger than a page probes it page by page, so a large local
                                   // array hits the guard below the fiber's stack (guard.cpp), never
                                   // a neighbouring stack.
                                   "-fstack-clash-protection",
                                   "-fpass-plugin=" + tc.plugin, "-I", tc.include};
  if (!source_dir.empty()) cmd.insert(cmd.end(), {"-iquote", source_dir});
  if (lang == Language::kCuda) {
    // NVVM unrolls loops of constant trip count further than Clang's -O2 (a cost of 150, no
    // partial unrolling): completely up to a larger cost, else a few copies, so that a thread's
    // As[row * K + k] loads of four k become one LDS.128. The costs are those that give the
    // H100's counts on SGEMM_CUDA's steps 3, 4 and 10 and on tests/nvcc_fidelity/full_unroll/
    // (dot products of 32 to 256 trips, nests of 8 x 8 to 64 x 4). Metal files keep Clang's:
    // Apple's compiler is not measured, and the seeds' lessons count their loops as written.
    cmd.insert(cmd.end(), {"-mllvm", "-unroll-threshold=400", "-mllvm", "-unroll-allow-partial", "-mllvm",
                           "-unroll-partial-threshold=140"});
    // -fdeclspec: the built-in variables' members are properties (cuda_runtime.h).
    cmd.insert(cmd.end(), {"-fdeclspec", "-I", tc.include + "/tgsim/kernel/cuda", "-include", "tgsim/kernel/cuda_runtime.h"});
  } else {
    // Metal's half is __fp16 (metal_half), which Metal passes and returns by value; `static
    // constant const T` is `static const const T` after the adapter, which Metal accepts; a
    // [[function_constant]] not given is 0 at compile time (x % FC, switch (FC) warn of code the
    // host's values select away).
    cmd.insert(cmd.end(), {"-I", tc.include + "/tgsim/kernel/metal", "-Xclang", "-fallow-half-arguments-and-returns",
                           "-Wno-duplicate-decl-specifier", "-Wno-division-by-zero", "-Wno-switch",
                           "-Wno-c99-designator", "-Wno-c++11-narrowing"});
  }
  cmd.insert(cmd.end(), {"-x", "c++", prepared, "-o", out});
  // A shared object binds to its own definitions first (-Bsymbolic): a kernel with the name and
  // signature of one that the loading program exports (the tgsim command's catalog) is its own.
  if (shared) cmd.insert(cmd.end(), {"-shared", "-Wl,--allow-shlib-undefined", "-Wl,-Bsymbolic"});
  else cmd.push_back("-c");
  return cmd;
}

// A whole program's compile keeps every kernel, whatever the environment says.
int run_process(const std::vector<std::string>& argv, std::string* output) {
  return run_process(argv, output, {"TGSIM_SELECT_KERNELS="});
}

int run_process(const std::vector<std::string>& argv, std::string* output,
                const std::vector<std::string>& extra_env) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw CompileError(std::string("cannot create a pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char*> env;
  for (const std::string& e : extra_env) env.push_back(const_cast<char*>(e.c_str()));
  for (char** e = environ; *e; ++e) {
    bool replaced = false;
    for (const std::string& x : extra_env)
      if (std::strncmp(*e, x.c_str(), x.find('=') + 1) == 0) replaced = true;
    if (!replaced) env.push_back(*e);
  }
  env.push_back(nullptr);
  pid_t pid;
  const int err = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&fa);
  ::close(fds[1]);
  std::string out;
  int status = 127;
  if (err == 0) {
    bool forwarded = false;
    char buf[4096];
    for (;;) {
      const ssize_t n = ::read(fds[0], buf, sizeof buf);
      if (n > 0) out.append(buf, static_cast<std::size_t>(n));
      else if (n == 0 || errno != EINTR) break;
      if (g_signal && !forwarded) {  // a signal sent to tgsim alone: the compiler stops too
        ::kill(pid, g_signal);
        forwarded = true;
      }
    }
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  ::close(fds[0]);
  if (output) *output = out;
  if (err != 0) throw CompileError("cannot run " + argv[0] + ": " + std::strerror(err));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

void add_user_flags(std::vector<std::string>& cmd, const std::vector<std::string>& flags) {
  const auto x = std::find(cmd.begin(), cmd.end(), std::string("-x"));
  cmd.insert(x, flags.begin(), flags.end());
}

namespace {
WarningPrinter g_warning_printer = nullptr;
}  // namespace

void set_compile_warning_printer(WarningPrinter print) { g_warning_printer = print; }

std::string compile_to_shared_object(const std::string& file, const std::vector<std::string>& flags,
                                     const std::string& epilogue, const KernelSelection& selection) {
  std::string prepared = prepared_source(file, flags);
  const Toolchain tc = toolchain();
  const Language lang = language_of(file);
  const std::string dir = fs::absolute(fs::path(file)).parent_path().string();
  // The key: the prepared source, the command, the compiler, the plugin and tgsim's version; the
  // files the compile reads (headers, tgsim's own included) are checked through the manifest.
  prepared += epilogue;
  std::string key_text = prepared;
  key_text += '\0';
  std::vector<std::string> command = compile_command(tc, lang, "IN", "OUT", true, dir);
  add_user_flags(command, flags);
  for (const std::string& a : command) key_text += a + '\0';
  key_text += file_identity(tc.clang) + '\0' + file_identity(tc.plugin) + '\0' + TGSIM_CACHE_VERSION;
  const std::string select_env = "TGSIM_SELECT_KERNELS=" + selection.env_value();
  key_text += '\0' + select_env;
  const std::string key = content_hash(key_text);
  const fs::path cache = secure_cache_dir();
  const fs::path so = cache / (key + ".so");
  const fs::path manifest = cache / (key + ".manifest");
  // The compiler's warnings of a successful compile (a null store it deletes, null_store.cpp),
  // kept beside the entry so that every run of the file shows them, as the first did.
  const fs::path warnings = cache / (key + ".warnings");
  auto show_warnings = [&] {
    std::error_code ec;
    if (!fs::is_regular_file(warnings, ec)) return;
    const std::string text = read_file(warnings.string());
    if (g_warning_printer) g_warning_printer(text);
    else std::fputs(text.c_str(), stderr);
  };
  if (entry_is_valid(key, so.string(), manifest.string())) {
    show_warnings();
    return so.string();
  }

  CompileSignals signals;
  const std::string pid = std::to_string(::getpid());
  const fs::path src = cache / (key + (lang == Language::kMetal ? ".metal.cpp" : ".cu.cpp"));
  const fs::path tmp = cache / (key + ".tmp." + pid + ".so");
  const fs::path dep = cache / (key + ".tmp." + pid + ".d");
  fs::path private_tmp;
  std::vector<fs::path> temporaries = {tmp, dep};
  std::string error;
  try {
    write_atomically(src.string(), prepared);
    private_tmp = make_private_tmpdir();
    temporaries.push_back(private_tmp);
    std::vector<std::string> cmd = compile_command(tc, lang, src.string(), tmp.string(), true, dir);
    add_user_flags(cmd, flags);
    cmd.insert(cmd.end(), {"-MD", "-MF", dep.string(), "-MT", "tgsim-object"});
    std::string output;
    if (run_process(cmd, &output, {"TMPDIR=" + private_tmp.string(), select_env}) != 0) {
      error = output.empty() ? "the compiler failed and printed nothing" : output;
    } else {
      Manifest m{key, content_hash(read_file(tmp.string())), {}};
      for (const std::string& d : parse_depfile(read_file(dep.string())))
        if (fs::absolute(d) != fs::absolute(src)) m.deps.emplace_back(fs::absolute(d).string(), content_hash(read_file(d)));
      std::error_code ec;
      fs::permissions(tmp, fs::perms::owner_all, ec);  // whatever the umask: no one else may write it
      fs::rename(tmp, so, ec);  // atomic: a concurrent compile of the same file wins or loses whole
      if (ec) throw CacheError("cannot write " + so.string() + " in the compile cache: " + ec.message());
      if (!output.empty()) write_atomically(warnings.string(), output);
      else fs::remove(warnings, ec);
      write_atomically(manifest.string(), write_manifest_text(m));
    }
  } catch (...) {
    signals.finish(temporaries);
    throw;
  }
  signals.finish(temporaries);
  if (!error.empty()) throw CompileError(error);
  show_warnings();
  return so.string();
}

}  // namespace tgsim::frontend
