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
  if (rc != 0) throw CompileError(msg.empty() ? "the preprocessor failed and printed nothing\n" : msg);
  std::string out = ss.str();
  return out;
}

std::string prepare_metal_file(const Toolchain& tc, const std::string& file, const std::vector<std::string>& flags) {
  return adapt_metal(preprocess_metal(tc, file, flags), file);
}

}  // namespace tgsim::frontend
