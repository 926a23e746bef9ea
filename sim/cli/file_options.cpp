// The command-line side of kernel files (file_kernel.hpp): the compiler flags -I, -D,
// --pre-include and --constant make, the options run/check/explain share, and the parsing of
// --grid, --block and --stack.
#include "file_kernel.hpp"


#include <CLI/CLI.hpp>
#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include <tgsim/kernel/abi.h>

#include "arg_types.hpp"
#include "buffers_out.hpp"
#include "commands.hpp"
#include <tgsim/internal/compile.hpp>
#include "i18n.hpp"
#include "report_words.hpp"
#include "struct_arg.hpp"
#include "texture_arg.hpp"
#include "try_pad.hpp"
#include <tgsim/internal/launch.hpp>
#include <tgsim/hash.hpp>


namespace tgsim::cli {

std::vector<std::string> compile_flags(const FileLaunch& f) {
  std::vector<std::string> out;
  for (const std::string& d : f.include_dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(d, ec)) throw UsageError("-I '" + d + "' is not a folder");
    out.push_back("-I" + std::filesystem::absolute(d).lexically_normal().string());
  }
  for (const std::string& d : f.defines) {  // NAME, NAME=VALUE, or a function-like NAME(A,B)=VALUE
    std::string name = d.substr(0, d.find('='));
    bool ok = true;
    if (const std::size_t open = name.find('('); open != std::string::npos) {
      const std::string params = name.substr(open + 1);
      ok = !params.empty() && params.back() == ')';
      for (std::size_t i = 0; ok && i + 1 < params.size(); ++i)
        ok = std::isalnum(static_cast<unsigned char>(params[i])) || params[i] == '_' || params[i] == ',' ||
             params[i] == ' ' || params[i] == '.';
      name = name.substr(0, open);
    }
    ok = ok && !name.empty() && !(name[0] >= '0' && name[0] <= '9');
    for (char ch : name) ok = ok && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
    if (!ok) throw UsageError("bad -D '" + d + "' (NAME, NAME=VALUE or NAME(ARGS)=VALUE, NAME a C identifier)");
    out.push_back("-D" + d);
  }
  for (const std::string& h : f.pre_includes) {  // -include FILE: read before the kernel file
    std::error_code ec;
    if (!std::filesystem::is_regular_file(h, ec)) throw UsageError("--pre-include '" + h + "' is not a file");
    out.push_back("-include");
    out.push_back(std::filesystem::absolute(h).lexically_normal().string());
  }
  for (const std::string& c : f.constants) {  // the macro the Metal adapter reads the constant from
    const std::size_t eq = c.find('=');
    const std::string name = c.substr(0, eq);
    bool ok = eq != std::string::npos && eq + 1 < c.size() && !name.empty() && !(name[0] >= '0' && name[0] <= '9');
    for (char ch : name) ok = ok && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
    if (!ok) throw UsageError("bad --constant '" + c + "' (NAME=VALUE, NAME a [[function_constant]]'s name)");
    out.push_back("-D__tgsim_fc_" + c);
  }
  if (f.count != "hardware" && f.count != "source")
    throw UsageError("bad --count '" + f.count + "' (hardware or source)");
  if (f.count == "source") out.push_back("-DTGSIM_COUNT_SOURCE");
  return out;
}

void add_file_options(CLI::App& app, FileLaunch& f, const std::string& verb) {
  app.add_option("--save", f.save, "with a FILE: PARAM=PATH writes that buffer (name or 0-based index) after the launch");
  app.add_option("--expect", f.expect,
                 "with a FILE: PARAM=PATH[:RTOL] compares that buffer with a file of raw values; a difference is "
                 "a finding (exit 1) naming the first differing element");
  app.add_option("-I,--include-dir", f.include_dirs, "with a FILE: a folder to search for #include, as the compiler's -I");
  app.add_option("-D,--define", f.defines,
                 "with a FILE: a macro NAME, NAME=VALUE or NAME(ARGS)=VALUE, as the compiler's -D");
  app.add_option("--pre-include", f.pre_includes,
                 "with a FILE: a header read before the kernel file, as the compiler's -include");
  app.add_option("--constant", f.constants,
                 "with a Metal FILE: NAME=VALUE gives a [[function_constant]] its value (0 and not defined without)");
  app.add_option("args", f.args, "with a FILE: one ARG per kernel parameter (TYPE[COUNT], TYPE:VALUE, struct:FILE.bin, {NAME=VALUE,...})");
  CLI::Option* kernel = app.add_option("--kernel", f.kernel, "with a FILE: the kernel to " + verb +
                                                                  " (without a name: list the file's kernels)")
                            ->expected(0, 1);
  app.parse_complete_callback([kernel, &f] { f.list_kernels = kernel->count() > 0 && f.kernel.empty(); });
  app.add_option("--grid", f.grid, "with a FILE: threadgroups, X[,Y[,Z]]");
  app.add_option("--block", f.block, "with a FILE: threads per group, X[,Y[,Z]]");
  app.add_option("--shared", f.shared,
                 "with a FILE: bytes of dynamic shared memory (extern __shared__, a Metal [[threadgroup(n)]] parameter)");
  app.add_option("--stack", f.stack, "with a FILE: bytes of stack per simulated thread (default 262144)");
  app.add_flag("--cooperative", f.cooperative,
               "with a FILE: a cooperative launch (cudaLaunchCooperativeKernel): grid.sync() allowed, the grid "
               "must fit on the device at once");
  app.add_option("--count", f.count,
                 "with a FILE: hardware (default: adjacent accesses that nvcc merges into one wider instruction "
                 "count as one, as Nsight Compute counts them) or source (one per access the source makes)");
  app.add_option("--threads-in-grid", f.grid_threads,
                 "with a Metal FILE: dispatchThreads' grid size in threads, X[,Y[,Z]]");
}

bool looks_like_kernel_file(const std::string& a) {
  for (const char* ext : {".cu", ".cuh", ".metal", ".cpp"})
    if (a.size() > std::strlen(ext) && a.compare(a.size() - std::strlen(ext), std::string::npos, ext) == 0)
      return true;
  return false;
}

Dim3 parse_dim3(const std::string& s, const char* what) {
  std::uint32_t v[3] = {1, 1, 1};
  std::stringstream ss(s);
  std::string part;
  int n = 0;
  while (std::getline(ss, part, ',')) {
    char* end = nullptr;
    errno = 0;
    const unsigned long x = std::strtoul(part.c_str(), &end, 10);
    if (n == 3 || part.empty() || *end || errno || x == 0 || x > 0xFFFFFFFFul || part[0] == '-')
      throw UsageError(std::string("bad ") + what + " '" + s + "' (X[,Y[,Z]], each at least 1)");
    v[n++] = static_cast<std::uint32_t>(x);
  }
  if (n == 0) throw UsageError(std::string("bad ") + what + " '" + s + "' (X[,Y[,Z]], each at least 1)");
  return Dim3(v[0], v[1], v[2]);
}

// --stack BYTES: decimal, from 16 KiB to 1 GiB (the limits run_launch checks for the C++ API).
std::size_t parse_stack(const std::string& s) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || *end || errno || s[0] == '-' || s[0] == '+' || v < kMinStackBytes || v > kMaxStackBytes)
    throw UsageError("bad --stack '" + s + "' (bytes per simulated thread, " + std::to_string(kMinStackBytes) +
                     " to " + std::to_string(kMaxStackBytes) + ")");
  return static_cast<std::size_t>(v);
}

}  // namespace tgsim::cli
