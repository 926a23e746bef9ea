// A .cu file as tgsim's front end hands it to Clang: `kernel<<<grid, block[, shared[, stream]]>>>(args)`
// becomes `::tgsim_cuda::launch(kernel, grid, block[, shared[, stream]])(args)` (cuda_host.h), the
// only rewrite; everything else, kernels included, is compiled as written (cuda_runtime.h is
// force-included). Lines are kept (`#line 1 "file"` first, no newline added or removed), so sites
// keep their line numbers; a launch line's columns shift.
// prepare_source() picks the CUDA or the Metal adapter (metal_adapter.hpp) by the file's extension.
#pragma once
#include <string>
#include <string_view>

namespace tgsim::frontend {

std::string rewrite_cuda_launches(std::string_view source, std::string_view file_name);

enum class Language { kCuda, kMetal };
Language language_of(std::string_view path);  // .metal -> Metal, anything else -> CUDA
std::string prepare_source(std::string_view source, std::string_view file_name);

}  // namespace tgsim::frontend
