// The Metal source adapter: Metal Shading Language kernels (.metal, as Apple's tutorials write
// them) turned into C++ that Clang compiles with tgsim's kernel headers
// (sim/include/tgsim/kernel/metal/metal_stdlib) and tgsim's LLVM pass.
//
// Line numbers are kept: the output starts with a prelude (`#include <metal_stdlib>`,
// `using namespace metal;`) and `#line 1 "file"`, then the source with no newline added or
// removed; keywords are replaced by text of the same length where C++ has one (`device` ->
// spaces, `constant` -> `const   `), so most expressions keep their columns too.
//
// Rules (see metal_adapter.cpp for each):
//   kernel void f(...)                 -> extern "C++" __global__ void f(...)
//   device T* p [[buffer(n)]]          -> T* p            (parameters sorted by buffer index)
//   constant T& v [[buffer(n)]]        -> const T v       (by value)
//   threadgroup T* p [[threadgroup(n)]]-> removed; before the kernel (same line)
//                                         namespace __tgsim_threadgroup_K { extern thread_local T p[]; }
//                                         and T* p = __tgsim_threadgroup_K::p; in the body (the
//                                         group's dynamic memory: --shared / the launch's bytes)
//   threadgroup T a[N] (parameter)     -> removed; thread_local T a[N]; in the body
//   T id [[thread_position_in_grid]]   -> removed; T id = ...__tgsim_thread() fields...; in the body
//   every kernel body starts with      if (!__tgsim_metal_in_grid()) return;
//   threadgroup T a[N]; (declaration)  -> thread_local T a[N];  (the pass makes it group memory)
//   device / thread / threadgroup in pointer and reference types -> removed; constant -> const
//   template [[host_name("x")]] ... f<T>;  -> a global naming f<T>'s kernel "x" (the pass reads it)
//   [[host_name("x")]] kernel void f(...)   -> the same, after the body
//   constant T c [[function_constant(n)]]   -> const T c = __tgsim_fc_c (--constant c=VALUE, else 0)
//   1.0h                                    -> half(1.0f)
//   f() const device {...}, overloads on parameters' address spaces -> the first definition of a
//                                              signature in its scope stays, the others go
//   # LINE "FILE" markers (metal_preprocess.hpp) -> errors name the user's file and line
//   texture2d<T, A> t [[texture(n)]], sampler s [[sampler(n)]] -> the texels and four numbers,
//                                      one number; after the buffers (metal_adapter_texture.cpp)
// Errors (an unknown attribute, a texture type tgsim does not model...) throw
// std::runtime_error("file:line:col: message").
#pragma once
#include <string>
#include <string_view>

namespace tgsim::frontend {

std::string adapt_metal(std::string_view source, std::string_view file_name);

}  // namespace tgsim::frontend
