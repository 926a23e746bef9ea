// The front end's compiler driver (compile.hpp).
#include "compile.hpp"

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

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

std::uint64_t fnv(std::uint64_t h, std::string_view s) {
  for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ull;
  return h;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CompileError("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string cache_dir() {
  if (const char* d = std::getenv("TGSIM_CACHE"); d && *d) return d;
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return std::string(d) + "/tgsim";
  if (const char* d = std::getenv("HOME"); d && *d) return std::string(d) + "/.cache/tgsim";
  return "/tmp/tgsim-cache-" + std::to_string(::getuid());
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
                                   // A frame larger than a page probes it page by page, so a large local
                                   // array hits the guard below the fiber's stack (guard.cpp), never
                                   // a neighbouring stack.
                                   "-fstack-clash-protection",
                                   "-fpass-plugin=" + tc.plugin, "-I", tc.include};
  if (!source_dir.empty()) cmd.insert(cmd.end(), {"-iquote", source_dir});
  if (lang == Language::kCuda) {
    cmd.insert(cmd.end(), {"-I", tc.include + "/tgsim/kernel/cuda", "-include", "tgsim/kernel/cuda_runtime.h"});
  } else {
    cmd.insert(cmd.end(), {"-I", tc.include + "/tgsim/kernel/metal"});
  }
  cmd.insert(cmd.end(), {"-x", "c++", prepared, "-o", out});
  if (shared) cmd.insert(cmd.end(), {"-shared", "-Wl,--allow-shlib-undefined"});
  else cmd.push_back("-c");
  return cmd;
}

int run_process(const std::vector<std::string>& argv, std::string* output) {
  char tmpl[] = "/tmp/tgsim-cc-XXXXXX";
  const int fd = ::mkstemp(tmpl);
  if (fd < 0) throw CompileError("cannot create a temporary file");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd, 1);
  posix_spawn_file_actions_adddup2(&fa, fd, 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  const int err = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  int status = 127;
  if (err == 0) ::waitpid(pid, &status, 0);
  ::close(fd);
  if (output) *output = read_file(tmpl);
  ::unlink(tmpl);
  if (err != 0) throw CompileError("cannot run " + argv[0] + ": " + std::strerror(err));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

std::string compile_to_shared_object(const std::string& file) {
  const std::string prepared = prepare_source(read_file(file), file);
  const Toolchain tc = toolchain();
  const Language lang = language_of(file);
  const std::string dir = fs::absolute(fs::path(file)).parent_path().string();
  std::uint64_t h = 0xCBF29CE484222325ull;
  h = fnv(h, prepared);
  for (const std::string& a : compile_command(tc, lang, "IN", "OUT", true, dir)) h = fnv(h, a);
  struct stat st {};
  if (::stat(tc.plugin.c_str(), &st) == 0) h = fnv(h, std::to_string(st.st_mtime) + ":" + std::to_string(st.st_size));
  char name[32];
  std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(h));
  const fs::path cache = cache_dir();
  const fs::path so = cache / (std::string(name) + ".so");
  if (fs::exists(so)) return so.string();
  std::error_code ec;
  fs::create_directories(cache, ec);
  const fs::path src = cache / (std::string(name) + (lang == Language::kMetal ? ".metal.cpp" : ".cu.cpp"));
  std::ofstream(src, std::ios::binary) << prepared;
  const fs::path tmp = cache / (std::string(name) + ".tmp." + std::to_string(::getpid()) + ".so");
  std::string output;
  const int rc = run_process(compile_command(tc, lang, src.string(), tmp.string(), true, dir), &output);
  if (rc != 0) {
    fs::remove(tmp, ec);
    throw CompileError(output);
  }
  fs::rename(tmp, so, ec);  // atomic: a concurrent compile of the same file wins or loses whole
  if (ec) throw CompileError("cannot write " + so.string() + ": " + ec.message());
  return so.string();
}

}  // namespace tgsim::frontend
