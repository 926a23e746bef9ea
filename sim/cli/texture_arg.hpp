// Metal texture and sampler ARGs (sim/src/frontend/metal_adapter_texture.cpp turns a
// [[texture(n)]] parameter into five kernel parameters and a [[sampler(n)]] one into one):
//   tex2d:FORMAT[WxH][=0|=iota|=@FILE]   (tex1d [W], tex3d [WxHxD], tex2d_array [WxHxLAYERS],
//                                          texcube [WxW]: 6 faces, depth2d [WxH], depth2d_array
//                                          [WxHxLAYERS]) texels row
//                                          after row, then slice after slice, no padding
//   sampler:linear,repeat,pixel,...       filter, address mode, coordinates, border colour
// FORMAT: Metal's pixel formats r8unorm .. rgba32float (R, RG, RGBA of 8unorm 8snorm 8uint
// 8sint 16unorm 16snorm 16uint 16sint 16float 32uint 32sint 32float), or an element type of 1,
// 2 or 4 components (float4, half, uchar4, ...: read as their values, not normalized).
// A texture is a buffer of its texels: random, zero, iota or the file's bytes as a buffer ARG,
// printed and saved (--save NAME=PATH) as buffers are.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include <tgsim/kernel/abi.h>

namespace tgsim::cli {

// The ARG for one parameter of the compiled kernel after expansion, the user's ARG it comes
// from, and the parameter's name as the user wrote it.
struct KernelArg {
  std::string arg;
  std::size_t user_index = 0;
  std::string shown_name;
};

// The parameters the user gives ARGs for: a texture's five count as one.
std::size_t user_param_count(const tgsim_kernel_desc& k);
// One KernelArg per kernel parameter; UsageError (one line) for a bad texture or sampler ARG.
// `args` must hold user_param_count(k) ARGs.
std::vector<KernelArg> expand_texture_args(const tgsim_kernel_desc& k, const std::vector<std::string>& args);

// How a listing shows the Metal texture or sampler whose first kernel parameter is i
// ("texture2d src", "sampler s"); i is moved to the group's last parameter. "" for another.
std::string metal_param_text(const tgsim_kernel_desc& k, unsigned& i);

}  // namespace tgsim::cli
