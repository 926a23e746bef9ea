// Texture and sampler parameters of a Metal kernel (metal_adapter.hpp): each becomes kernel
// parameters the command line fills (sim/cli/texture_arg.cpp) and a declaration in the body
// (sim/include/tgsim/kernel/metal/metal_texture):
//   texture2d<float, access::read> t [[texture(n)]]
//     -> void* __tgsim_tex_2d__t, unsigned __tgsim_texw_t, unsigned __tgsim_texh_t,
//        unsigned __tgsim_texd_t, unsigned __tgsim_texf_t          (texels, width, height,
//        depth or layers, pixel format), and in the body
//        texture2d<float, access::read> t(__tgsim_tex_2d__t, ..., "t");
//   sampler s [[sampler(n)]] -> unsigned __tgsim_sampler_s; sampler s = sampler::from_bits(...);
// Parameters are ordered buffers first (by buffer index), then textures (by texture index),
// then samplers (by sampler index): the order of the ARGs on the command line.
#include "metal_adapter_internal.hpp"

#include <stdexcept>
#include <string>

namespace tgsim::frontend::metal_adapter_detail {

namespace {

// The texture kind the command line names ("1d", "2d", "3d", "2d_array", "cube", "depth2d", "depth2d_array") for a type
// naming one of Metal's texture templates; "" for another type.
std::string texture_kind(const std::string& ident) {
  if (ident == "texture1d") return "1d";
  if (ident == "texture2d") return "2d";
  if (ident == "texture3d") return "3d";
  if (ident == "texture2d_array") return "2d_array";
  if (ident == "texturecube") return "cube";
  if (ident == "depth2d") return "depth2d";
  if (ident == "depth2d_array") return "depth2d_array";
  return "";
}

}  // namespace

void Adapter::texture_param(Param& p, const std::string& attr_text, size_t attr, size_t name, std::string& body) {
  // [[texture(n), function_constant(c)]]: bound only when c is true; here always a parameter at n.
  const std::string a = attr_text.substr(0, attr_text.find(",function_constant("));
  const bool is_sampler = a.rfind("sampler(", 0) == 0;
  const size_t open = a.find('(');
  const std::string index_text = a.substr(open + 1, a.size() - open - 2);
  long long index = -1;
  if (!index_text.empty() && index_text.find_first_not_of("0123456789") == std::string::npos && index_text.size() < 4)
    index = std::stoll(index_text);
  else
    index = enumerator_value(index_text);  // [[texture(AAPLTextureIndexInput)]]
  if (a.back() != ')' || index < 0 || index > 127)
    fail(toks_[attr], "[[" + a + "]]: the index must be an integer literal (0 to 127) or an enumerator declared with one");
  p.buffer = (is_sampler ? kSamplerSlots : kTextureSlots) + static_cast<int>(index);
  std::string kind;
  for (size_t i : p.toks)
    if (i < name && toks_[i].kind == Kind::Ident && kind.empty()) kind = texture_kind(toks_[i].text);
  const std::string type = render(p.first, name - 1);
  const std::string& nm = toks_[name].text;
  std::string params;
  if (is_sampler) {
    if (type != "sampler" && type != "metal::sampler")
      fail(toks_[p.first], "[[" + a + "]] on a parameter of type '" + type + "': a sampler parameter is a sampler");
    params = "unsigned __tgsim_sampler_" + nm;
    body += " " + type + " " + nm + " = metal::sampler::from_bits(__tgsim_sampler_" + nm + ");";
  } else {
    if (kind.empty())
      fail(toks_[p.first], "[[" + a + "]] on a parameter of type '" + type +
                               "': tgsim models texture1d, texture2d, texture3d, texture2d_array, texturecube, depth2d and depth2d_array");
    params = "void* __tgsim_tex_" + kind + "__" + nm + ", unsigned __tgsim_texw_" + nm + ", unsigned __tgsim_texh_" +
             nm + ", unsigned __tgsim_texd_" + nm + ", unsigned __tgsim_texf_" + nm;
    body += " " + type + " " + nm + "(__tgsim_tex_" + kind + "__" + nm + ", __tgsim_texw_" + nm + ", __tgsim_texh_" +
            nm + ", __tgsim_texd_" + nm + ", __tgsim_texf_" + nm + ", \"" + nm + "\", " +
            (kind == "2d_array" || kind == "depth2d_array" || kind == "cube" ? "true" : "false") + ");";
  }
  for (size_t i = p.first; i <= p.last; ++i) toks_[i].out = blank(toks_[i].text);
  toks_[p.first].out = params;
}

}  // namespace tgsim::frontend::metal_adapter_detail
