// tgsim-nvcc: nvcc's command line for a program's own build (a Makefile's `NVCC = nvcc`), with
// tgsim's front end instead of nvcc: every source (.cu, and .cpp/.cc/.c, which nvcc also compiles
// as C++) goes through the <<<...>>> rewrite and Clang with tgsim's pass; the program is linked
// with tgsim's library, so it runs its kernels in the simulator.
//   tgsim-nvcc [-c] [-o OUT] [-I DIR] [-D NAME[=VALUE]] [-U NAME] [-l LIB] [-L DIR] FILE...
// Options about GPU code generation (-arch, -gencode, -O3, -lineinfo, --use_fast_math, -Xptxas ...)
// have no meaning here and are accepted silently; other unknown options are named once on stderr
// and ignored. The CUDA toolkit's libraries (-lcudart, -lcublas, -lcurand ...) are tgsim's headers
// and library: those -l are dropped. Exit status: the compiler's (1 on an error), 2 for a usage error.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "compile.hpp"
#include "template_keyword.hpp"

namespace fs = std::filesystem;
using namespace tgsim::frontend;

namespace {

struct Options {
  bool compile_only = false, shared = false, openmp = false;
  std::string out;
  std::vector<std::string> sources, objects, flags, link;  // flags: -I -D -U -include for every compile
};

bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

bool is_source(const std::string& f) {
  for (const char* ext : {".cu", ".cpp", ".cc", ".cxx", ".c", ".C", ".cup"})
    if (f.size() > std::string(ext).size() && f.compare(f.size() - std::string(ext).size(), std::string::npos, ext) == 0)
      return true;
  return false;
}

// nvcc's options that take a value as the next argument and mean nothing to the simulator.
const std::set<std::string> kIgnoredWithValue = {
    "-arch", "--gpu-architecture", "-gencode", "--generate-code", "-code", "--gpu-code", "-Xptxas",
    "--ptxas-options", "-Xnvlink", "--nvlink-options", "-maxrregcount", "--maxrregcount", "-ccbin",
    "--compiler-bindir", "-t", "--threads", "-diag-suppress", "--diag-suppress", "-ftz", "-prec-div",
    "-prec-sqrt", "-fmad", "-rdc", "--relocatable-device-code", "-std", "--std", "-x", "-Xarchive",
    "--default-stream", "-dlto", "--split-compile", "-Werror"};

// The CUDA toolkit's own libraries: tgsim's headers and library stand in for them.
bool toolkit_library(const std::string& name) {
  return starts(name, "cu") || starts(name, "nv") || name == "nppc" || starts(name, "npp");
}

// -Xcompiler a,b,c: the host compiler's options; the ones that matter to a build are kept (-D,
// -I, -U; -fopenmp: host code's OpenMP, compiled by Clang and linked with LLVM's OpenMP runtime,
// openmp_runtime), the rest ignored (-fPIC and -shared are implied).
void host_options(Options& o, const std::string& list) {
  std::stringstream ss(list);
  for (std::string a; std::getline(ss, a, ',');) {
    if (starts(a, "-D") || starts(a, "-I") || starts(a, "-U")) o.flags.push_back(a);
    if (a == "-fopenmp" || a == "-qopenmp") o.openmp = true;
  }
}

// Parses argv; a usage error exits 2 with one line.
Options parse(int argc, char** argv) {
  Options o;
  std::set<std::string> warned;
  auto value = [&](int& i) -> std::string {
    if (i + 1 >= argc) {
      std::cerr << "tgsim-nvcc: " << argv[i] << " needs a value\n";
      std::exit(2);
    }
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-c" || a == "--compile" || a == "-dc" || a == "--device-c") o.compile_only = true;
    else if (a == "-o" || a == "--output-file") o.out = value(i);
    else if (a == "-shared" || a == "--shared") o.shared = true;
    else if (a == "-I" || a == "-D" || a == "-U" || a == "-isystem") o.flags.push_back((a == "-isystem" ? "-I" : a) + value(i));
    else if (a == "-include" || a == "--pre-include") o.flags.insert(o.flags.end(), {"-include", value(i)});
    else if (starts(a, "-I") || starts(a, "-D") || starts(a, "-U")) o.flags.push_back(a);
    else if (a == "-l" || starts(a, "-l")) {
      const std::string lib = a == "-l" ? value(i) : a.substr(2);
      if (!toolkit_library(lib)) o.link.push_back("-l" + lib);
    } else if (a == "-L" || starts(a, "-L")) o.link.push_back(a == "-L" ? "-L" + value(i) : a);
    else if (a == "-Xcompiler" || a == "--compiler-options") host_options(o, value(i));
    else if (starts(a, "-Xcompiler=") || starts(a, "--compiler-options=")) host_options(o, a.substr(a.find('=') + 1));
    else if (a == "-Xlinker" || a == "--linker-options") o.link.push_back("-Wl," + value(i));
    else if (kIgnoredWithValue.count(a)) (void)value(i);
    else if (!a.empty() && a[0] == '-') {
      const std::string name = a.substr(0, a.find('='));
      if (kIgnoredWithValue.count(name) || starts(a, "-O") || starts(a, "-W") || starts(a, "-f") || starts(a, "-m") ||
          starts(a, "--expt-") || starts(a, "-std=") || starts(a, "--std=") ||
          std::set<std::string>{"-g", "-G", "-lineinfo", "--use_fast_math", "-use_fast_math", "-w", "--extended-lambda",
                                "-extended-lambda", "-res-usage", "--resource-usage", "-pthread", "-dlink", "-v",
                                "--keep", "-keep", "--cudart", "-cudart", "-lmpi", "-static", "-dw", "--dryrun"}
              .count(name) ||
          starts(a, "-cudart") || starts(a, "--cudart") || starts(a, "--ptxas-options") || starts(a, "-Xptxas")) {
        if (a == "-cudart" || a == "--cudart") (void)value(i);
      } else if (warned.insert(name).second) {
        std::cerr << "tgsim-nvcc: ignoring " << name << " (not an option tgsim-nvcc models)\n";
      }
    } else if (is_source(a)) o.sources.push_back(a);
    else o.objects.push_back(a);  // objects, archives, linker scripts
  }
  if (o.sources.empty() && o.objects.empty()) {
    std::cerr << "tgsim-nvcc: no input files\n";
    std::exit(2);
  }
  if (o.compile_only && !o.out.empty() && o.sources.size() > 1) {
    std::cerr << "tgsim-nvcc: -o " << o.out << " with -c and " << o.sources.size() << " sources\n";
    std::exit(2);
  }
  return o;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CompileError("tgsim-nvcc: cannot read " + path + "\n");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// One source compiled into `obj`; the compiler's output is shown; false on an error. A dependent
// member template called without `template` (template_keyword.hpp) is compiled again with the
// keyword put in, at most 8 times, with a note naming each changed file.
bool compile_one(const Options& o, const std::string& source, const std::string& obj, const fs::path& tmp) {
  const std::string source_path = fs::absolute(source).lexically_normal().string();
  const fs::path src = tmp / (fs::path(source).filename().string() + ".tgsim.cpp");
  tgsim::frontend::TemplateKeywordPatches patches;
  std::string output;
  int rc = 1;
  for (int attempt = 0; attempt < 9; ++attempt) {
    const auto own = patches.files.find(source_path);
    const std::string text = own != patches.files.end() ? own->second : read_file(source);
    std::ofstream(src, std::ios::binary) << prepare_source(text, fs::absolute(source).string());
    std::vector<std::string> cmd = compile_command(toolchain(), language_of(source), src.string(), obj, false,
                                                   fs::absolute(source).parent_path().string());
    add_user_flags(cmd, o.flags);
    if (o.openmp) add_user_flags(cmd, {"-fopenmp"});
    const std::string overlay = tgsim::frontend::write_overlay(patches, source_path, tmp);
    if (!overlay.empty()) add_user_flags(cmd, {"-ivfsoverlay", overlay});
    output.clear();
    rc = run_process(cmd, &output);
    if (rc == 0 || !tgsim::frontend::add_template_keywords(output, patches)) break;
  }
  if (rc == 0)
    for (const auto& [file, count] : patches.inserted)
      std::cerr << "tgsim-nvcc: note: " << file << ": `template` put before " << count
                << " member template(s) of a dependent type called without it (nvcc accepts this; Clang needs it)\n";
  std::cerr << output;
  return rc == 0;
}

// LLVM's OpenMP runtime beside the Clang that compiles (Debian: libomp-14-dev), for host code
// built with -Xcompiler -fopenmp; empty when it is not installed.
std::string openmp_runtime() {
  std::error_code ec;
  const fs::path clang = fs::canonical(toolchain().clang, ec);
  const fs::path lib = clang.parent_path().parent_path() / "lib" / "libomp.so";
  return !ec && fs::exists(lib) ? lib.string() : std::string();
}

// Where tgsim's library is: beside the installed program, else the build tree's.
std::string library_path() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  for (const char* dir : {"lib", "lib64", "lib/x86_64-linux-gnu"}) {
    const fs::path p = self.parent_path().parent_path() / dir / "libtgsim.a";
    if (!ec && fs::exists(p)) return p.string();
  }
  return TGSIM_BUILD_LIBRARY;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && (std::string(argv[1]) == "--version" || std::string(argv[1]) == "-V")) {
    std::cout << "tgsim-nvcc: nvcc's command line for tgsim's front end (kernels run in the simulator)\n";
    return 0;
  }
  const Options o = parse(argc, argv);
  std::string base = std::getenv("TMPDIR") && *std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  std::string dir_tmpl = base + "/tgsim-nvcc-XXXXXX";
  if (!::mkdtemp(dir_tmpl.data())) {
    std::cerr << "tgsim-nvcc: cannot create a temporary folder in " << base << "\n";
    return 2;
  }
  const fs::path tmp = dir_tmpl;
  int rc = 0;
  try {
    std::vector<std::string> objects;
    for (const std::string& s : o.sources) {
      std::string obj;
      if (o.compile_only) obj = !o.out.empty() ? o.out : fs::path(s).stem().string() + ".o";
      else obj = (tmp / (fs::path(s).filename().string() + ".o")).string();
      if (!compile_one(o, s, obj, tmp)) {
        rc = 1;
        break;
      }
      objects.push_back(obj);
    }
    if (rc == 0 && !o.compile_only) {
      std::vector<std::string> cmd = {TGSIM_NVCC_LINKER};
      if (std::string(TGSIM_NVCC_LINK_FLAGS) != "") cmd.push_back(TGSIM_NVCC_LINK_FLAGS);
      cmd.insert(cmd.end(), objects.begin(), objects.end());
      cmd.insert(cmd.end(), o.objects.begin(), o.objects.end());
      cmd.insert(cmd.end(), {"-o", o.out.empty() ? "a.out" : o.out});
      if (o.shared) cmd.push_back("-shared");
      cmd.push_back(library_path());
      cmd.insert(cmd.end(), o.link.begin(), o.link.end());
      if (o.openmp) {
        const std::string omp = openmp_runtime();
        if (omp.empty()) throw CompileError("tgsim-nvcc: -Xcompiler -fopenmp needs LLVM's OpenMP runtime beside " +
                                            toolchain().clang + " (Debian: libomp-14-dev)\n");
        cmd.insert(cmd.end(), {omp, "-Wl,-rpath," + fs::path(omp).parent_path().string()});
      }
      cmd.insert(cmd.end(), {"-lboost_context", "-ltbb", "-ldl", "-lm", "-pthread"});
      std::string output;
      rc = run_process(cmd, &output) == 0 ? 0 : 1;
      std::cerr << output;
    }
  } catch (const std::exception& e) {
    std::cerr << e.what();
    rc = 1;
  }
  std::error_code ec;
  fs::remove_all(tmp, ec);
  return rc;
}
