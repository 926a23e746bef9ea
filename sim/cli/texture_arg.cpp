// Metal texture and sampler ARGs (texture_arg.hpp).
#include "texture_arg.hpp"

#include <cerrno>
#include <cstdlib>
#include <map>

#include "file_kernel.hpp"

namespace tgsim::cli {

namespace {

// A pixel format: the buffer element holding one texel, and the bits metal_texture reads
// (channels, bits per channel, kind 0 signed 1 unsigned 2 float, normalized).
struct PixelFormat {
  std::string elem;
  unsigned channels, bits, kind;
  bool normalized;
  unsigned code() const { return channels | bits << 4 | kind << 12 | (normalized ? 1u << 16 : 0u); }
};

const std::map<std::string, PixelFormat>& pixel_formats() {
  static const std::map<std::string, PixelFormat> formats = [] {
    std::map<std::string, PixelFormat> m;
    struct Base { const char* elem; unsigned bits, kind; };
    const std::map<std::string, Base> suffixes = {
        {"8unorm", {"uchar", 8, 1}},   {"8snorm", {"char", 8, 0}},     {"8uint", {"uchar", 8, 1}},
        {"8sint", {"char", 8, 0}},     {"16unorm", {"ushort", 16, 1}}, {"16snorm", {"short", 16, 0}},
        {"16uint", {"ushort", 16, 1}}, {"16sint", {"short", 16, 0}},   {"16float", {"half", 16, 2}},
        {"32uint", {"uint", 32, 1}},   {"32sint", {"int", 32, 0}},     {"32float", {"float", 32, 2}}};
    const std::pair<const char*, unsigned> prefixes[] = {{"r", 1}, {"rg", 2}, {"rgba", 4}};
    for (const auto& [p, n] : prefixes)
      for (const auto& [s, b] : suffixes) {
        const bool norm = s.find("norm") != std::string::npos;
        m[p + s] = {std::string(b.elem) + (n > 1 ? std::to_string(n) : ""), n, b.bits, b.kind, norm};
      }
    const Base elems[] = {{"float", 32, 2}, {"half", 16, 2}, {"int", 32, 0},  {"uint", 32, 1},
                          {"short", 16, 0}, {"ushort", 16, 1}, {"char", 8, 0}, {"uchar", 8, 1}};
    for (const Base& e : elems)
      for (unsigned n : {1u, 2u, 4u}) {
        const std::string name = e.elem + (n > 1 ? std::to_string(n) : "");
        m[name] = {name, n, e.bits, e.kind, false};
      }
    return m;
  }();
  return formats;
}

// The texture kind a kernel parameter's name gives (__tgsim_tex_2d__NAME: "2d"), "" if none.
std::string texture_kind_of(const std::string& param, std::string& user_name) {
  static const char* const kinds[] = {"2d_array", "depth2d_array", "depth2d", "cube", "1d", "2d", "3d"};
  const std::string prefix = "__tgsim_tex_";
  if (param.rfind(prefix, 0) != 0) return "";
  for (const char* k : kinds) {
    const std::string p = prefix + k + "__";
    if (param.rfind(p, 0) == 0) {
      user_name = param.substr(p.size());
      return k;
    }
  }
  return "";
}

unsigned parse_extent(const std::string& s, const std::string& arg) {
  char* end = nullptr;
  errno = 0;
  const unsigned long v = std::strtoul(s.c_str(), &end, 10);
  if (s.empty() || *end || errno || s[0] == '-' || v == 0 || v > 65536)
    throw UsageError("bad texture size '" + s + "' in ARG '" + arg + "' (each of W, H, D from 1 to 65536)");
  return static_cast<unsigned>(v);
}

// tgsim ARGs for the five parameters of texture parameter `name` of kind `kind`.
std::vector<std::string> texture_args(const std::string& arg, const std::string& kind, const std::string& name,
                                      std::size_t index) {
  const std::string want = kind.rfind("depth", 0) == 0 ? kind : "tex" + kind;
  const std::string what = "ARG " + std::to_string(index) + " '" + arg + "'";
  const std::size_t colon = arg.find(':'), open = arg.find('['), close = arg.find(']');
  if (colon == std::string::npos || open == std::string::npos || close == std::string::npos || open < colon ||
      close < open || arg.substr(0, colon) != want)
    throw UsageError(what + ": parameter " + std::to_string(index) + " (" + name + ") is a texture: give " + want +
                     ":FORMAT[" + (kind == "1d" ? "W" : kind == "3d" ? "WxHxD" : kind == "2d_array" || kind == "depth2d_array" ? "WxHxLAYERS" : "WxH") +
                     "], e.g. " + want + ":rgba8unorm[" + (kind == "1d" ? "64" : kind == "3d" || kind == "2d_array" || kind == "depth2d_array" ? "8x8x4" : "64x48") + "]");
  const std::string format = arg.substr(colon + 1, open - colon - 1);
  const auto f = pixel_formats().find(format);
  if (f == pixel_formats().end())
    throw UsageError(what + ": unknown pixel format '" + format + "' (r8unorm .. rgba32float, or float4, half4, uchar4, ...)");
  std::vector<unsigned> extent;
  const std::string dims = arg.substr(open + 1, close - open - 1);
  for (std::size_t b = 0;;) {
    const std::size_t x = dims.find('x', b);
    extent.push_back(parse_extent(dims.substr(b, x == std::string::npos ? std::string::npos : x - b), arg));
    if (x == std::string::npos) break;
    b = x + 1;
  }
  const std::size_t rank = kind == "1d" ? 1 : kind == "3d" || kind == "2d_array" || kind == "depth2d_array" ? 3 : 2;
  if (extent.size() != rank)
    throw UsageError(what + ": a " + want + " has " + std::to_string(rank) + " size(s), not " + std::to_string(extent.size()));
  extent.resize(3, 1);
  if (kind == "cube") {
    if (extent[0] != extent[1]) throw UsageError(what + ": a cube's faces are square (WxW)");
    extent[2] = 6;  // +x -x +y -y +z -z, one after the other
  }
  const unsigned long long texels = 1ull * extent[0] * extent[1] * extent[2];
  return {"(void*)" + f->second.elem + "[" + std::to_string(texels) + "]" + arg.substr(close + 1),
          "uint:" + std::to_string(extent[0]), "uint:" + std::to_string(extent[1]), "uint:" + std::to_string(extent[2]),
          "uint:" + std::to_string(f->second.code())};
}

// sampler:WORD,WORD,...: metal::sampler::from_bits's bits.
std::string sampler_arg(const std::string& arg, const std::string& name, std::size_t index) {
  const std::string what = "ARG " + std::to_string(index) + " '" + arg + "'";
  if (arg != "sampler" && arg.rfind("sampler:", 0) != 0)
    throw UsageError(what + ": parameter " + std::to_string(index) + " (" + name +
                     ") is a sampler: give sampler:WORD,... (e.g. sampler:linear,repeat,normalized)");
  static const std::map<std::string, std::pair<unsigned, unsigned>> words = {  // {shift, value}
      {"nearest", {12, 0}},         {"linear", {12, 1}},         {"normalized", {14, 0}},
      {"pixel", {14, 1}},           {"transparent_black", {16, 0}}, {"opaque_black", {16, 1}},
      {"opaque_white", {16, 2}},    {"clamp_to_edge", {0, 0}},   {"clamp_to_zero", {0, 1}},
      {"repeat", {0, 2}},           {"mirrored_repeat", {0, 3}}, {"clamp_to_border", {0, 4}}};
  unsigned bits = 0;
  const std::string list = arg.size() > 8 ? arg.substr(8) : "";
  for (std::size_t b = 0; b < list.size();) {
    std::size_t e = list.find(',', b);
    if (e == std::string::npos) e = list.size();
    const auto w = words.find(list.substr(b, e - b));
    if (w == words.end())
      throw UsageError(what + ": unknown sampler word '" + list.substr(b, e - b) +
                       "' (nearest linear normalized pixel clamp_to_edge clamp_to_zero repeat mirrored_repeat "
                       "clamp_to_border transparent_black opaque_black opaque_white)");
    const auto [shift, value] = w->second;
    if (shift == 0) bits = (bits & ~0xFFFu) | value | value << 4 | value << 8;
    else bits = (bits & ~(3u << shift)) | value << shift;
    b = e + 1;
  }
  return "uint:" + std::to_string(bits);
}

}  // namespace

std::size_t user_param_count(const tgsim_kernel_desc& k) {
  std::size_t n = 0;
  for (unsigned i = 0; i < k.nparams; ++i) {
    const std::string p = k.params[i].name ? k.params[i].name : "";
    if (p.rfind("__tgsim_tex", 0) != 0 || p.rfind("__tgsim_tex_", 0) == 0) ++n;
  }
  return n;
}

std::string metal_param_text(const tgsim_kernel_desc& k, unsigned& i) {
  const std::string p = k.params[i].name ? k.params[i].name : "";
  std::string name;
  const std::string kind = texture_kind_of(p, name);
  if (!kind.empty()) {
    i += 4;
    return (kind.rfind("depth", 0) == 0 ? kind : "texture" + kind) + " " + name;
  }
  if (p.rfind("__tgsim_sampler_", 0) == 0) return "sampler " + p.substr(16);
  return "";
}

std::vector<KernelArg> expand_texture_args(const tgsim_kernel_desc& k, const std::vector<std::string>& args) {
  std::vector<KernelArg> out;
  std::size_t u = 0;
  for (unsigned i = 0; i < k.nparams && u < args.size(); ++u) {
    const std::string p = k.params[i].name ? k.params[i].name : "";
    std::string name;
    const std::string kind = texture_kind_of(p, name);
    if (!kind.empty()) {
      for (std::string& a : texture_args(args[u], kind, name, u)) out.push_back({std::move(a), u, name});
      i += 5;
    } else if (p.rfind("__tgsim_sampler_", 0) == 0) {
      name = p.substr(16);
      out.push_back({sampler_arg(args[u], name, u), u, name});
      ++i;
    } else {
      out.push_back({args[u], u, p});
      ++i;
    }
  }
  return out;
}

}  // namespace tgsim::cli
