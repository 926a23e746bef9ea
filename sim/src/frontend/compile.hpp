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

// What the compiler printed when it failed (exit status 2 for `tgsim run`).
struct CompileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The compile cache cannot be used (not a directory, read-only, someone else's, a full disk):
// no fault of the file; the message names the cache and what to do.
struct CacheError : CompileError {
  using CompileError::CompileError;
};

// Runs argv, returning its exit status; stdout and stderr go to *output. `extra_env` entries
// ("NAME=VALUE") replace or add to the environment the program gets.
int run_process(const std::vector<std::string>& argv, std::string* output);
int run_process(const std::vector<std::string>& argv, std::string* output,
                const std::vector<std::string>& extra_env);

// FILE compiled into a shared object in the compile cache (compile_cache.hpp: where it is, whose
// it must be, and what its key covers), reused while nothing the compile read has changed. A
// signal during the compile removes its temporaries before it ends tgsim; the compiler's own
// temporaries go to a private folder under TMPDIR.
// `flags` (-I DIR, -D NAME=VALUE) go to the compiler and into the key; `epilogue` is source text
// put after the file's (an instantiation the command line asks for), part of the key too.
std::string compile_to_shared_object(const std::string& file, const std::vector<std::string>& flags = {},
                                     const std::string& epilogue = {});

}  // namespace tgsim::frontend
