// The first stage of compiling a .metal file: Clang's preprocessor over the file with the
// user's -I and -D, Metal's predefined macros (__METAL__, __METAL_VERSION__ 310) and tgsim's
// Metal headers read as empty (TGSIM_METAL_PREPROCESS), so that the user's own macros and
// headers are expanded and the Metal adapter (metal_adapter.hpp) sees every kernel, every
// [[host_name]] instantiation an instantiate macro writes and every Metal keyword of an
// #include'd header. Its output keeps the preprocessor's line markers (# LINE "FILE"), which the
// adapter and the compiler read: messages and debug lines name the user's files.
#pragma once
#include <string>
#include <vector>

#include "compile.hpp"

namespace tgsim::frontend {

// FILE preprocessed (throws CompileError with the preprocessor's message, e.g. a missing header).
std::string preprocess_metal(const Toolchain& tc, const std::string& file, const std::vector<std::string>& flags);

// FILE preprocessed and adapted: the C++ the compiler reads.
std::string prepare_metal_file(const Toolchain& tc, const std::string& file, const std::vector<std::string>& flags);

}  // namespace tgsim::frontend
