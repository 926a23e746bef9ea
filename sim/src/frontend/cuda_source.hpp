// A .cu file as tgsim's front end hands it to Clang: `kernel<<<grid, block[, shared[, stream]]>>>(args)`
// becomes `(::tgsim_cuda::push_launch(grid, block[, shared[, stream]]), kernel(args),
// ::tgsim_cuda::pop_launch())` (cuda_host.h; the kernel's host entry launches it), or, where no
// argument list follows (a macro's body), `::tgsim_cuda::launch(kernel, grid, block...)`. Besides
// it, only what nvcc takes and Clang does not is touched: extended lambdas' `__host__ __device__`
// blanked, and in `asm` statements a lone `%` before a PTX name doubled and a missing comma
// between operands put in; everything else, kernels included, is compiled as written
// (cuda_runtime.h is force-included). Lines are kept (`#line 1 "file"` first, no newline added or removed), so sites
// keep their line numbers; a launch line's columns shift.
// prepare_source() picks the CUDA or the Metal adapter (metal_adapter.hpp) by the file's extension.
#pragma once
#include <string>
#include <string_view>

#include <tgsim/internal/compile.hpp>  // Language, language_of

namespace tgsim::frontend {

std::string rewrite_cuda_launches(std::string_view source, std::string_view file_name);

// `#line LINE "file"` with the name escaped as a string literal (control and non-ASCII bytes as
// octal escapes), and its newline.
std::string line_directive(std::size_t line, std::string_view file_name);

// A header the file includes with `#include "..."` (found beside the file that includes it) that
// launches a kernel with <<<...>>>, itself or through its own such includes, is put in the file's
// place between #line directives, so the launch rewrite sees it and messages name the header's
// lines; a second #include of it is dropped (as its guard would), `#pragma once` in it blanked.
// Other includes are left to the compiler. (cuda_includes.cpp)
std::string inline_launching_headers(std::string_view source, std::string_view file_name);

std::string prepare_source(std::string_view source, std::string_view file_name);

}  // namespace tgsim::frontend
