// The Metal preprocessing stage (metal_preprocess.hpp).
#include "metal_preprocess.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "metal_adapter.hpp"

namespace tgsim::frontend {

namespace {

// A missing header of a library of Apple's that tgsim does not model, as one line naming it
// ("nax.h:12:10: MetalPerformancePrimitives ... is not modelled"); empty for any other error.
std::string unmodelled_library(const std::string& msg) {
  static const char* const kLibraries[][2] = {
      {"MetalPerformancePrimitives/", "MetalPerformancePrimitives (Apple's tensor library: mpp::tensor_ops, "
                                      "matmul2d on cooperative tensors)"},
  };
  for (const auto& [dir, what] : kLibraries) {
    const std::size_t at = msg.find(std::string("fatal error: '") + dir);
    if (at == std::string::npos || msg.find("file not found", at) == std::string::npos) continue;
    const std::size_t line_start = msg.rfind('\n', at) == std::string::npos ? 0 : msg.rfind('\n', at) + 1;
    return msg.substr(line_start, at - line_start) + what + " is not modelled by tgsim: the kernels of a file "
           "that includes it cannot run\n";
  }
  return "";
}

}  // namespace

std::string preprocess_metal(const Toolchain& tc, const std::string& file, const std::vector<std::string>& flags) {
  namespace fs = std::filesystem;
  std::vector<std::string> cmd = {tc.clang, "-E", "-x", "c++", "-std=c++20", "-D__METAL__",
                                  "-D__METAL_VERSION__=310", "-D__METAL_MACOS__", "-D__HAVE_BFLOAT__",
                                  "-DTGSIM_METAL_STDLIB", "-DTGSIM_METAL_MATH", "-DTGSIM_METAL_COMPUTE",
                                  "-DTGSIM_METAL_VECTOR", "-DTGSIM_METAL_SWIZZLE", "-DTGSIM_METAL_HALF", "-DTGSIM_METAL_TYPES",
                                  "-DTGSIM_METAL_SIMDGROUP_MATRIX", "-DTGSIM_METAL_ATOMIC", "-DTGSIM_METAL_BUILTINS", "-Wno-pragma-once-outside-header",
                                  "-I", tc.include + "/tgsim/kernel/metal",
                                  "-iquote", fs::absolute(fs::path(file)).parent_path().string()};
  cmd.insert(cmd.end(), flags.begin(), flags.end());
  std::string tmpl = (fs::temp_directory_path() / "tgsim-metal-XXXXXX").string();
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) throw CompileError("cannot create a temporary file for the preprocessor: " + std::string(std::strerror(errno)));
  ::close(fd);
  cmd.insert(cmd.end(), {file, "-o", tmpl});
  std::string msg;
  const int rc = run_process(cmd, &msg, {"LC_ALL=C"});
  std::ifstream in(tmpl, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::error_code ec;
  fs::remove(tmpl, ec);
  if (rc != 0 && !unmodelled_library(msg).empty()) throw CompileError(unmodelled_library(msg));
  if (rc != 0) throw CompileError(msg.empty() ? "the preprocessor failed and printed nothing\n" : msg);
  std::string out = ss.str();
  return out;
}

std::string prepare_metal_file(const Toolchain& tc, const std::string& file, const std::vector<std::string>& flags) {
  return adapt_metal(preprocess_metal(tc, file, flags), file);
}

}  // namespace tgsim::frontend
