// The buffers of a front-end kernel's launch from its descriptor (kernel_args.cpp).
#pragma once
#include <vector>

#include <tgsim/kernel/abi.h>
#include <tgsim/launch.hpp>

namespace tgsim::detail {

// One BufferSpan per pointer argument that points into a device allocation; read-only for a
// `const T*` parameter to numbers when no argument is opaque. args[i] points at argument i.
std::vector<BufferSpan> kernel_arg_spans(const tgsim_kernel_desc& k, void* const* args);

}  // namespace tgsim::detail
