// The tgsim command's interface (tgsim/internal/, not for users; docs/design.md): what
// `tgsim run FILE` needs beyond the public API to launch a kernel it compiled and loaded, whose
// argument types it learns only at run time: the kernels of the loaded modules, device memory
// of a type chosen at run time, the launch by descriptor, the same random inputs every run, and
// the fatal errors (exit statuses 3 and 4) as JSON. The library spells these detail::, the
// command internal::.
#pragma once
#include <vector>

#include <tgsim/hash.hpp>
#include <tgsim/kernel/abi.h>
#include <tgsim/launch.hpp>
#include <tgsim/memory.hpp>

namespace tgsim::detail {

// A kernel of a module compiled by tgsim's front end (frontend/modules.hpp: the registry).
struct KernelRef {
  const tgsim_kernel_desc* kernel = nullptr;
  const tgsim_module_desc* module = nullptr;
};
std::vector<KernelRef> all_kernels();  // every kernel of every loaded module

// One BufferSpan per pointer argument that points into a device allocation; read-only for a
// `const T*` parameter to numbers when no argument is opaque. args[i] points at argument i.
// (frontend/kernel_args.cpp)
std::vector<BufferSpan> kernel_arg_spans(const tgsim_kernel_desc& k, void* const* args);

// The two fatal ends of the process (a fiber's stack overflow, a wild access: engine/guard.hpp)
// also write one JSON object to standard output, {"error": {"kind": "stack-overflow"|
// "wild-access", "message": ..., "exit_status": 3|4}} (the tgsim command under --json).
void set_fatal_errors_as_json(bool on);

}  // namespace tgsim::detail

namespace tgsim::internal {
using detail::acquire_buffer_info;
using detail::all_kernels;
using detail::buffer_bytes;
using detail::BufferInfo;
using detail::BufferSpan;
using detail::device_alloc;
using detail::device_free;
using detail::kernel_arg_spans;
using detail::KernelFn;
using detail::KernelRef;
using detail::release_buffer_info;
using detail::run_launch;
using detail::set_fatal_errors_as_json;
using detail::splitmix64;
}  // namespace tgsim::internal
