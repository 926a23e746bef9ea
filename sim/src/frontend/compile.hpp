// Compiling a kernel file with tgsim's front end: prepare the source (cuda_source.hpp), then
// Clang 14 with tgsim's pass and flags. One flag list serves the CMake function
// (tgsim_add_cuda_library, through tgsim-prepare) and `tgsim run FILE` (a cached shared object).
// The flags: -O2 as nvcc optimises; no vectoriser, so one source access stays one access per
// thread (nvcc does not vectorise loads across iterations either); debug line tables with
// columns for the sites; -fno-builtin-printf so a kernel's printf stays printf.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_source.hpp"
#include <tgsim/internal/compile.hpp>  // CompileError, compile_to_shared_object

namespace tgsim::frontend {

// Where the compiler, the pass plugin and tgsim's headers are: TGSIM_CLANG, TGSIM_PLUGIN and
// TGSIM_INCLUDE when set, else the build tree's (or the installation's, beside the binary).
struct Toolchain {
  std::string clang, plugin, include;
};
Toolchain toolchain();

// The compiler's command for `prepared` (a prepared source), writing `out` (an object, or a
// shared object when `shared`); `source_dir` is searched for the user's own #include "...".
std::vector<std::string> compile_command(const Toolchain& tc, Language lang, const std::string& prepared,
                                         const std::string& out, bool shared, const std::string& source_dir);

// The user's -I and -D put into `cmd` after tgsim's own include folders (tgsim's CUDA and Metal
// headers stand in for the toolkit's: a -I of a CUDA installation must not shadow them), before
// the source.
void add_user_flags(std::vector<std::string>& cmd, const std::vector<std::string>& flags);

// Runs argv, returning its exit status; stdout and stderr go to *output. `extra_env` entries
// ("NAME=VALUE") replace or add to the environment the program gets. Without them, TGSIM_SELECT_KERNELS
// is empty: the pass keeps every kernel (a whole program's compile).
int run_process(const std::vector<std::string>& argv, std::string* output);
int run_process(const std::vector<std::string>& argv, std::string* output,
                const std::vector<std::string>& extra_env);

}  // namespace tgsim::frontend
