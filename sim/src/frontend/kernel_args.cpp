// The buffers a front-end kernel's arguments point into, from its descriptor alone (a launch
// through the CUDA host API, <<<...>>>, or `tgsim run FILE`, where no C++ types are at hand):
// the same rule as tgsim::launch's (launch.hpp, collect_buffers). A pointer to numbers names
// the one buffer it points into; it is read-only when the parameter is `const T*` and no
// argument is opaque (a struct, a pointer to pointers or to structs, void*, a type the debug
// info does not name), since an opaque argument may carry a pointer the kernel stores through.
#include "frontend/kernel_args.hpp"

#include <cstring>
#include <set>
#include <string>

#include <tgsim/launch.hpp>

namespace tgsim::detail {

namespace {

// "const float* __restrict__" -> {"float", const}; false when it is no pointer to a number.
bool pointer_to_number(std::string t, bool* is_const) {
  static const std::set<std::string> numbers = {
      "char", "signed char", "unsigned char", "short", "unsigned short", "short int",
      "short unsigned int", "int", "unsigned int", "long", "unsigned long", "long int",
      "long unsigned int", "long long", "unsigned long long", "long long int",
      "long long unsigned int", "float", "double", "bool", "_Bool", "int8_t", "uint8_t",
      "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "size_t"};
  for (const char* q : {" __restrict__", " volatile"})
    if (const std::size_t at = t.find(q); at != std::string::npos) t.erase(at, std::strlen(q));
  if (t.empty() || t.back() != '*') return false;
  t.pop_back();
  *is_const = t.rfind("const ", 0) == 0;
  if (*is_const) t.erase(0, 6);
  return numbers.count(t) != 0;
}

bool scalar_param(const tgsim_param_desc& p) { return std::strcmp(p.type, "ptr") != 0 && std::strcmp(p.type, "agg") != 0; }

}  // namespace

std::vector<BufferSpan> kernel_arg_spans(const tgsim_kernel_desc& k, void* const* args) {
  std::vector<BufferSpan> spans;
  bool opaque = false;
  std::vector<char> ro(k.nparams, 0);
  for (unsigned i = 0; i < k.nparams; ++i) {
    const tgsim_param_desc& p = k.params[i];
    if (scalar_param(p)) continue;
    bool is_const = false;
    if (std::strcmp(p.type, "ptr") != 0 || !pointer_to_number(p.c_type, &is_const)) opaque = true;
    ro[i] = is_const;
  }
  for (unsigned i = 0; i < k.nparams; ++i)
    if (std::strcmp(k.params[i].type, "ptr") == 0)
      add_raw_span(spans, *static_cast<void* const*>(args[i]), !opaque && ro[i]);
  return spans;
}

}  // namespace tgsim::detail
