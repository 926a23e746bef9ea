// The tgsim command's interface (tgsim/internal/, not for users; docs/design.md): compiling a
// kernel file with tgsim's front end into a shared object of the compile cache, and the two
// errors a compile can end with. The front end (sim/src/frontend/compile.hpp) declares the
// rest of its compiler (toolchain, flags, processes) for the library alone.
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tgsim::frontend {

enum class Language { kCuda, kMetal };
Language language_of(std::string_view path);  // .metal -> Metal, anything else -> CUDA

// What the compiler printed when it failed (exit status 2 for `tgsim run`).
struct CompileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The compile cache cannot be used (not a directory, read-only, someone else's, a full disk):
// no fault of the file; the message names the cache and what to do.
struct CacheError : CompileError {
  using CompileError::CompileError;
};

// FILE compiled into a shared object in the compile cache (compile_cache.hpp: where it is, whose
// it must be, and what its key covers), reused while nothing the compile read has changed. A
// signal during the compile removes its temporaries before it ends tgsim; the compiler's own
// temporaries go to a private folder under TMPDIR.
// `flags` (-I DIR, -D NAME=VALUE) go to the compiler and into the key; `epilogue` is source text
// put after the file's (an instantiation the command line asks for), part of the key too.
//
// `selection`: which kernels the object keeps (the pass's SelectKernels, sim/pass/select_kernels.cpp),
// part of the key: all (a whole program); a listing (every kernel's signature without its body,
// for the cost of the front end); or the one whose symbol a listing showed, with what it reaches
// (the other kernels of the file are neither optimised nor instrumented).
struct KernelSelection {
  enum class Kind { kAll, kListing, kSymbol } kind = Kind::kAll;
  std::string symbol;  // kSymbol: the kernel's `mangled` (tgsim_kernel_desc)
  static KernelSelection listing() { return {Kind::kListing, {}}; }
  static KernelSelection one(std::string symbol) { return {Kind::kSymbol, std::move(symbol)}; }
  // The compiler's TGSIM_SELECT_KERNELS: "", "listing" or "symbol:NAME".
  std::string env_value() const {
    return kind == Kind::kAll ? "" : kind == Kind::kListing ? "listing" : "symbol:" + symbol;
  }
};
std::string compile_to_shared_object(const std::string& file, const std::vector<std::string>& flags = {},
                                     const std::string& epilogue = {}, const KernelSelection& selection = {});

// Where the compiler's warnings of a successful compile go (a store through a null pointer it
// deletes, on every run of the file): stderr as the compiler wrote them, or `print` once the
// command sets one (its language's words). nullptr: stderr again.
using WarningPrinter = void (*)(const std::string& text);
void set_compile_warning_printer(WarningPrinter print);

// The cache directory, created 0700 when missing (throws CacheError when it cannot be used
// safely); a 128-bit content hash as 32 hex digits; `#line LINE "file"` with its newline. The
// command writes a padded copy of a user's file there (try_pad.cpp).
std::string secure_cache_dir();
std::string content_hash(std::string_view bytes);
std::string line_directive(std::size_t line, std::string_view file_name);

}  // namespace tgsim::frontend

namespace tgsim::internal {
using frontend::CacheError;
using frontend::compile_to_shared_object;
using frontend::KernelSelection;
using frontend::CompileError;
using frontend::content_hash;
using frontend::line_directive;
using frontend::secure_cache_dir;
using frontend::set_compile_warning_printer;
using frontend::Language;
using frontend::language_of;
}  // namespace tgsim::internal
