// The module registry (modules.hpp).
#include "frontend/modules.hpp"

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "memory/device_memory.hpp"

namespace tgsim::detail {

namespace {

struct Registry {
  std::mutex mu;
  std::vector<const tgsim_module_desc*> modules;
  std::map<const void*, KernelRef> by_fn;
  std::map<const tgsim_var_desc*, BufferInfo*> var_info;  // kept, never freed (like Buffers')
};
Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}

std::string base_name(const std::string& n) {
  auto lt = n.find('<');
  return lt == std::string::npos ? n : n.substr(0, lt);
}

}  // namespace

KernelRef find_kernel(const void* fn) {
  Registry& g = registry();
  std::lock_guard lock(g.mu);
  auto it = g.by_fn.find(fn);
  return it == g.by_fn.end() ? KernelRef{} : it->second;
}

std::vector<KernelRef> all_kernels() {
  Registry& g = registry();
  std::lock_guard lock(g.mu);
  std::vector<KernelRef> out;
  for (const tgsim_module_desc* m : g.modules)
    for (unsigned i = 0; i < m->nkernels; ++i) out.push_back(KernelRef{&m->kernels[i], m});
  return out;
}

std::vector<KernelRef> kernels_named(const std::string& name) {
  std::vector<KernelRef> exact, base;
  for (const KernelRef& k : all_kernels()) {
    if (name == k.kernel->name) exact.push_back(k);
    else if (name == base_name(k.kernel->name)) base.push_back(k);
  }
  return exact.empty() ? base : exact;
}

std::size_t kernel_shared_bytes(const KernelRef& k, std::size_t dynamic) {
  if (dynamic == 0) return k.kernel->static_shared;
  return std::max<std::size_t>(k.kernel->static_shared, k.kernel->dynamic_shared_offset + dynamic);
}

}  // namespace tgsim::detail

using namespace tgsim::detail;

extern "C" void __tgsim_register_module(const tgsim_module_desc* m) {
  if (m->version != TGSIM_ABI_VERSION) {
    std::fprintf(stderr, "tgsim: a kernel module was compiled for ABI version %u, this library "
                 "speaks version %d: recompile it with this tgsim\n", m->version, TGSIM_ABI_VERSION);
    std::abort();
  }
  Registry& g = registry();
  std::lock_guard lock(g.mu);
  g.modules.push_back(m);
  for (unsigned i = 0; i < m->nkernels; ++i) g.by_fn[m->kernels[i].fn] = KernelRef{&m->kernels[i], m};
  for (unsigned i = 0; i < m->nvars; ++i) {
    const tgsim_var_desc& v = m->vars[i];
    auto* info = new BufferInfo;
    info->name = v.name;
    info->space = v.kind == 1 ? "constant" : "global";
    info->count = v.bytes;
    info->elem_size = 1;
    g.var_info[&v] = info;
    register_device_range(v.addr, v.bytes, info);
  }
}

namespace tgsim::detail {

// (modules.hpp)
std::pair<std::string, std::uint64_t> zero_size_variable_near(std::uint64_t addr, std::uint64_t reach) {
  Registry& g = registry();
  std::lock_guard lock(g.mu);
  std::pair<std::string, std::uint64_t> best{"", 0};
  for (const tgsim_module_desc* m : g.modules)
    for (unsigned i = 0; i < m->nvars; ++i) {
      const auto a = reinterpret_cast<std::uint64_t>(m->vars[i].addr);
      if (m->vars[i].bytes == 0 && a <= addr && addr - a < reach && (best.first.empty() || a > best.second))
        best = {m->vars[i].name, a};
    }
  return best;
}

}  // namespace tgsim::detail

extern "C" void __tgsim_unregister_module(const tgsim_module_desc* m) {
  Registry& g = registry();
  std::lock_guard lock(g.mu);
  std::erase(g.modules, m);
  for (unsigned i = 0; i < m->nkernels; ++i) g.by_fn.erase(m->kernels[i].fn);
  for (unsigned i = 0; i < m->nvars; ++i) unregister_device_range(m->vars[i].addr);
}
