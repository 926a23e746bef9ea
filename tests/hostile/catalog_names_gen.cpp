// For the test that a user's kernel file runs its own code even where a kernel has the name and
// signature of one of the catalog's kernels (which the tgsim command links and exports): writes
// a kernel file with an empty kernel under each catalog kernel's mangled name (an asm label, so
// the symbol is exactly the catalog's), and one line per kernel for the driver: the name to
// pass to --kernel, then one ARG per parameter.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <string>

#include "frontend/modules.hpp"

namespace {

// A C type with the parameter's calling convention, and an ARG for `tgsim run` that fits it.
std::pair<std::string, std::string> param(const std::string& t) {
  if (t == "ptr") return {"float*", "float[64]"};
  if (t == "i1" || t == "i8") return {"char", "char:1"};
  if (t == "i16") return {"short", "short:1"};
  if (t == "i32") return {"int", "int:1"};
  if (t == "i64") return {"long long", "long:1"};
  if (t == "f32") return {"float", "float:1"};
  if (t == "f64") return {"double", "double:1"};
  return {"", ""};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: catalog_names_gen OUT.cu OUT.list\n";
    return 2;
  }
  std::ofstream cu(argv[1]), list(argv[2]);
  std::set<std::string> seen;
  int n = 0;
  for (const tgsim::detail::KernelRef& k : tgsim::detail::all_kernels()) {
    const tgsim_kernel_desc& d = *k.kernel;
    if (!seen.insert(d.mangled).second) continue;
    std::string params, args;
    bool ok = true;
    for (unsigned i = 0; i < d.nparams; ++i) {
      auto [type, arg] = param(d.params[i].type);
      if (type.empty()) ok = false;
      params += (i ? ", " : "") + type;
      args += " " + arg;
    }
    if (!ok) {
      std::cerr << "catalog_names_gen: a parameter type of " << d.name << " has no ARG here\n";
      return 1;
    }
    cu << "__global__ void user_kernel_" << n++ << "(" << params << ") asm(\"" << d.mangled << "\");\n"
       << "__global__ void user_kernel_" << n - 1 << "(" << params << ") {}\n";
    list << d.name << "\t" << (args.empty() ? "" : args.substr(1)) << "\n";
  }
  std::cerr << "catalog_names_gen: " << n << " catalog kernels\n";
  return n > 0 ? 0 : 1;
}
