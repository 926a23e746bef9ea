// tgsim._tgsim: the C++ half of the `tgsim` Python module (tgsim/__init__.py is the other). It
// runs a kernel file as `tgsim run|check FILE` does (file_kernel.hpp: compiled through the cache,
// loaded, ARGs bound to the parameters, launched) and hands back the report as the JSON text
// `--json` prints. Buffers come from numpy arrays: their bytes are copied into device memory
// before the launch and copied back into the arrays after it.
#include <dlfcn.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <tgsim/errors.hpp>
#include <tgsim/profile.hpp>

#include "commands.hpp"  // parse_schedule
#include "file_kernel.hpp"
#include "frontend/compile.hpp"

namespace py = pybind11;
namespace cli = tgsim::cli;

namespace {

// The errors tgsim prints as "tgsim: error: ..." / "tgsim: launch error: ...", raised as the
// module's exceptions with the same message.
struct CompileFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct LaunchFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct KernelFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The launch as `tgsim run FILE` takes it, from the keyword arguments tgsim/__init__.py checked.
cli::FileLaunch launch_of(const py::dict& o) {
  cli::FileLaunch f;
  f.file = o["file"].cast<std::string>();
  f.kernel = o["kernel"].cast<std::string>();
  f.grid = o["grid"].cast<std::string>();
  f.block = o["block"].cast<std::string>();
  f.grid_threads = o["threads_in_grid"].cast<std::string>();
  f.shared = o["shared"].cast<std::size_t>();
  f.stack = o["stack"].cast<std::string>();
  f.args = o["args"].cast<std::vector<std::string>>();
  f.include_dirs = o["include_dirs"].cast<std::vector<std::string>>();
  f.defines = o["defines"].cast<std::vector<std::string>>();
  f.constants = o["constants"].cast<std::vector<std::string>>();
  return f;
}

tgsim::LaunchConfig config_of(const py::dict& o) {
  tgsim::LaunchConfig c;
  c.threads = o["threads"].cast<unsigned>();
  c.cache_model = o["cache_model"].cast<bool>();
  return c;
}

tgsim::DeviceProfile profile_of(const py::dict& o) {
  const std::string name = o["profile"].cast<std::string>();
  auto p = tgsim::profiles::by_name(name);
  if (!p) throw cli::UsageError("unknown profile '" + name + "' (nvidia-h100, apple-m3, amd-cdna)");
  return *p;
}

// Runs `body` with the arrays' bytes bound (FileLaunch::host_data), then copies the buffers of
// the run back into the writeable arrays. The exceptions of a run become the module's.
template <class Body>
std::string with_arrays(cli::FileLaunch& f, const std::map<std::size_t, py::array>& arrays, Body body) {
  for (const auto& [i, a] : arrays) f.host_data[i] = a.data();
  cli::FileRun first;
  std::string json;
  try {
    json = body(first);
  } catch (const tgsim::frontend::CacheError&) {
    throw;  // its message as it is (RuntimeError)
  } catch (const tgsim::frontend::CompileError& e) {
    throw CompileFailed(f.file + " did not compile\n" + e.what());
  } catch (const tgsim::LaunchError& e) {
    throw LaunchFailed(std::string("launch error: ") + e.what());
  } catch (const cli::UsageError&) {
    throw;  // ValueError
  } catch (const std::bad_alloc&) {
    throw;  // MemoryError
  } catch (const std::exception& e) {
    throw KernelFailed(std::string("kernel error: ") + e.what());
  }
  for (const cli::FileBuffer& b : first.buffers) {
    auto a = arrays.find(b.index);
    if (a == arrays.end() || !a->second.writeable()) continue;
    py::array arr = a->second;
    if (static_cast<std::size_t>(arr.nbytes()) != b.bytes.size())
      throw std::logic_error("tgsim: buffer " + b.name + " changed size");
    std::memcpy(arr.mutable_data(), b.bytes.data(), b.bytes.size());
  }
  return json;
}

// One dict per parameter of the kernel the launch names: name, the pass's type ("ptr", "i32",
// "f32", "struct", ...), the C type, and for a pointer the element type in ARG words ("float",
// "uint", "float4"; "" when unknown: any array binds).
py::dict params(const py::dict& o) {
  cli::FileLaunch f = launch_of(o);
  const tgsim_kernel_desc* k = nullptr;
  try {
    k = &cli::file_kernel(f);
  } catch (const tgsim::frontend::CacheError&) {
    throw;
  } catch (const tgsim::frontend::CompileError& e) {
    throw CompileFailed(f.file + " did not compile\n" + e.what());
  }
  py::list out;
  for (unsigned i = 0; i < k->nparams; ++i) {
    const tgsim_param_desc& p = k->params[i];
    py::dict d;
    d["name"] = std::string(p.name);
    d["type"] = std::string(p.type);
    d["c_type"] = std::string(p.c_type);
    d["arg_type"] = std::string(p.type) == "ptr" ? cli::pointee_arg_type(p.c_type) : std::string();
    d["bytes"] = p.bytes;
    out.append(d);
  }
  py::dict kernel;
  kernel["name"] = std::string(k->name);
  kernel["params"] = out;
  return kernel;
}

std::string run(const py::dict& o, const std::map<std::size_t, py::array>& arrays) {
  cli::FileLaunch f = launch_of(o);
  const tgsim::LaunchConfig base = config_of(o);
  const tgsim::DeviceProfile prof = profile_of(o);
  tgsim::LaunchConfig c = base;
  std::vector<cli::ScheduleChoice> s;
  try {
    s = cli::parse_schedule(o["schedule"].cast<std::string>(), false);
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(e.what());
  }
  c.schedule = s.front().schedule;
  c.shuffle_seed = s.front().seed;
  return with_arrays(f, arrays, [&](cli::FileRun& first) {
    first = cli::run_file(f, prof, c, /*keep_buffers=*/!arrays.empty());
    return cli::file_json(first, -1);
  });
}

std::string check(const py::dict& o, const std::map<std::size_t, py::array>& arrays) {
  cli::FileLaunch f = launch_of(o);
  const tgsim::LaunchConfig base = config_of(o);
  const tgsim::DeviceProfile prof = profile_of(o);
  const std::string schedule = o["schedule"].cast<std::string>();
  return with_arrays(f, arrays, [&](cli::FileRun& first) {
    return cli::check_file_json(f, prof, base, schedule, &first);
  });
}

// Kernel files loaded later (dlopen, RTLD_LOCAL) call the library this module holds
// (tgsim/kernel/abi.h): Python loaded the module with RTLD_LOCAL, so its symbols are made
// global here, as the tgsim command exports its own. Installed (<prefix>/TGSIM_PYTHON_DIR/tgsim/),
// the compiler's plugin and headers are the prefix's, as they are beside an installed command.
void make_symbols_global_and_find_toolchain() {
  Dl_info info{};
  if (!::dladdr(reinterpret_cast<void*>(&make_symbols_global_and_find_toolchain), &info) || !info.dli_fname)
    throw std::runtime_error("tgsim: cannot find the module's own file");
  if (!::dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL))
    throw std::runtime_error(std::string("tgsim: cannot make the module's symbols global: ") + ::dlerror());
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(info.dli_fname).parent_path().parent_path();  // the folder above tgsim/
  const fs::path suffix = TGSIM_PYTHON_DIR;
  fs::path prefix = dir;
  for (auto it = suffix.begin(); it != suffix.end() && !it->empty(); ++it) prefix = prefix.parent_path();
  const fs::path plugin = prefix / TGSIM_INSTALL_LIBDIR / "tgsim" / "tgsim_pass.so";
  std::error_code ec;
  if (fs::equivalent(prefix / suffix, dir, ec) && fs::exists(plugin, ec)) {
    ::setenv("TGSIM_PLUGIN", plugin.c_str(), 0);  // an environment's own setting wins
    ::setenv("TGSIM_INCLUDE", (prefix / "include").c_str(), 0);
  }
}

}  // namespace

PYBIND11_MODULE(_tgsim, m) {
  m.doc() = "tgsim's kernel-file runner (use the tgsim package: tgsim.run, tgsim.check)";
  make_symbols_global_and_find_toolchain();
  static py::exception<KernelFailed> error(m, "Error", PyExc_RuntimeError);
  static py::exception<CompileFailed> compile_error(m, "CompileError", error.ptr());
  static py::exception<LaunchFailed> launch_error(m, "LaunchError", error.ptr());
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const CompileFailed& e) {
      compile_error(e.what());
    } catch (const LaunchFailed& e) {
      launch_error(e.what());
    } catch (const KernelFailed& e) {
      error(e.what());
    } catch (const cli::UsageError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  m.def("params", &params, "the chosen kernel's name and parameters");
  m.def("toolchain", [] {
    const tgsim::frontend::Toolchain t = tgsim::frontend::toolchain();
    return std::map<std::string, std::string>{{"clang", t.clang}, {"plugin", t.plugin}, {"include", t.include}};
  }, "the compiler, tgsim's LLVM pass and the headers kernel files are compiled with");
  m.def("run", &run, "run a kernel file; the report as `tgsim run FILE --json` prints it");
  m.def("check", &check, "check a kernel file; the report as `tgsim check FILE --json` prints it");
}
