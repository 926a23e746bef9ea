// Running a kernel file (file_kernel.hpp): compile, load, bind ARGs to parameters, launch.
#include "file_kernel.hpp"

#include <CLI/CLI.hpp>
#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include <tgsim/kernel/abi.h>

#include "arg_types.hpp"
#include "buffers_out.hpp"
#include "commands.hpp"
#include <tgsim/internal/compile.hpp>
#include "i18n.hpp"
#include "report_words.hpp"
#include "struct_arg.hpp"
#include "texture_arg.hpp"
#include "try_pad.hpp"
#include <tgsim/internal/launch.hpp>
#include <tgsim/hash.hpp>

namespace tgsim::cli {

namespace {

std::uint64_t parse_count(const std::string& s, const std::string& arg) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  if (s.empty() || *end || errno || v == 0 || v > (1ull << 34) || s[0] == '-')
    throw UsageError("bad element count '" + s + "' in ARG '" + arg + "' (1 .. 2^34)");
  return v;
}

struct BoundArg {
  std::vector<unsigned char> scalar;  // a scalar's bytes
  std::shared_ptr<unsigned char> buffer;  // a buffer's memory (device_bytes)
  void* ptr = nullptr;                // what args[i] points at for a buffer
  ElemType type{};
  std::string type_name;
  std::size_t count = 0;
  std::string name;  // "arg 0 (A)"
};

// Device memory for COUNT elements of a TYPE chosen at run time (float3 is 12 bytes, which no
// Buffer<T> holds): its BufferInfo counts in that type, so a finding gives the index the user
// wrote. Every byte counts as initialised: the host fills the whole buffer before the launch.
std::shared_ptr<unsigned char> device_bytes(std::size_t count, std::size_t elem, std::string name,
                                            const internal::BufferInfo** made = nullptr) {
  internal::buffer_bytes(count, elem, name);  // LaunchError when count * elem overflows
  internal::BufferInfo* info = internal::acquire_buffer_info();
  if (made) *made = info;
  info->name = std::move(name);
  info->count = count;
  info->elem_size = elem;
  info->assume_init = true;
  void* p = nullptr;
  try {
    p = internal::device_alloc(count * elem, info);
  } catch (...) {
    internal::release_buffer_info(info);
    throw;
  }
  return std::shared_ptr<unsigned char>(static_cast<unsigned char*>(p), [info](unsigned char* q) {
    internal::device_free(q);  // before the info is retired, as a Buffer does
    internal::release_buffer_info(info);
  });
}

std::string param_text(const tgsim_param_desc& p) {
  return std::string(*p.c_type ? p.c_type : p.type) + (*p.name ? std::string(" ") + p.name : "");
}

}  // namespace

std::string pointee_arg_type(std::string t) {
  auto strip = [&t](const std::string& w) {
    for (std::size_t at; (at = t.find(w)) != std::string::npos;) {
      const bool starts = at == 0 || t[at - 1] == ' ' || t[at - 1] == '*';
      const std::size_t end = at + w.size();
      const bool ends = end == t.size() || t[end] == ' ' || t[end] == '*';
      if (!starts || !ends) return;
      t.erase(at, w.size());
    }
  };
  for (const char* w : {"const", "volatile", "__restrict__", "__restrict", "restrict", "device", "constant"}) strip(w);
  t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
  if (t.empty() || t.back() != '*') return "";
  t.pop_back();
  if (!t.empty() && t.back() == '*') return "*";
  return canonical_arg_type(t);
}

namespace {

void bind_buffer(BoundArg& b, std::string arg, const tgsim_param_desc& p, std::size_t i,
                 std::uint64_t& seed, const void* host) {
  // "(T*)TYPE[COUNT]...": the user binds a TYPE buffer to a parameter of another type on purpose.
  bool cast = false;
  if (!arg.empty() && arg[0] == '(') {
    const std::size_t end = arg.find(')');
    if (end == std::string::npos) throw UsageError("bad ARG '" + arg + "' (a cast is (T*)TYPE[COUNT])");
    arg = arg.substr(end + 1);
    cast = true;
  }
  const std::size_t open = arg.find('['), close = arg.find(']');
  if (close == std::string::npos || close < open)
    throw UsageError("bad buffer ARG '" + arg + "' (TYPE[COUNT], e.g. float[1024])");
  b.type_name = canonical_arg_type(arg.substr(0, open));
  if (b.type_name.empty()) b.type_name = arg.substr(0, open);
  auto it = elem_types().find(b.type_name);
  if (it == elem_types().end()) throw UsageError("unknown element type '" + b.type_name + "' in ARG '" + arg + "'");
  if (std::string(p.type) == "struct")
    throw UsageError("ARG " + std::to_string(i) + " '" + arg + "' is a buffer, but parameter " + std::to_string(i) +
                     " (" + param_text(p) + ") is a struct of " + std::to_string(p.bytes) +
                     " bytes passed by value: give its bytes as struct:FILE.bin");
  if (std::string(p.type) != "ptr")
    throw UsageError("ARG " + std::to_string(i) + " '" + arg + "' is a buffer, but parameter " +
                     std::to_string(i) + " (" + param_text(p) + ") is not a pointer");
  const std::string want = pointee_arg_type(p.c_type);
  if (want == "*")
    throw UsageError("parameter " + std::to_string(i) + " (" + param_text(p) +
                     ") is a pointer to pointers: a buffer ARG cannot fill it");
  // (2-byte integers stand for half and bfloat elements as before those types had names: their bits)
  const auto w = elem_types().find(want);
  const bool bits = w != elem_types().end() && (w->second.kind == 'h' || w->second.kind == 'b') &&
                    (it->second.kind == 'u' || it->second.kind == 'i') &&
                    (it->second.scalar == w->second.scalar || it->second.bytes == w->second.bytes);
  if (!cast && !want.empty() && want != b.type_name && !bits)
    throw UsageError("ARG " + std::to_string(i) + " '" + arg + "' is a " + b.type_name + " buffer, but parameter " +
                     std::to_string(i) + " is " + param_text(p) + ": give " + want + "[...], or write '(" +
                     want + "*)" + arg + "' to bind it anyway");
  b.type = it->second;
  b.count = parse_count(arg.substr(open + 1, close - open - 1), arg);
  b.name = "arg " + std::to_string(i) + (*p.name ? std::string(" (") + p.name + ")" : "");
  const internal::BufferInfo* info = nullptr;
  b.buffer = device_bytes(b.count, b.type.bytes, b.name, &info);
  b.ptr = b.buffer.get();
  const std::string init = arg.substr(close + 1);
  const std::size_t comps = b.type.bytes / b.type.scalar;
  if (host) {  // the caller's bytes (FileLaunch::host_data)
    std::memcpy(b.buffer.get(), host, b.count * b.type.bytes);
  } else if (init.empty() || init == "=iota") {
    for (std::size_t e = 0; e < b.count; ++e)
      for (std::size_t c = 0; c < comps; ++c) {
        const std::uint64_t r = internal::splitmix64(seed);
        const double v = init.empty() ? (static_cast<double>(r >> 11) / 9007199254740992.0) * 2 - 1
                                      : static_cast<double>(e * comps + c);
        const std::int64_t iv = init.empty() ? static_cast<std::int64_t>(r % 100) : static_cast<std::int64_t>(e * comps + c);
        put(b.buffer.get() + e * b.type.bytes + c * b.type.scalar, b.type, v, iv);
      }
  } else if (init == "=0") {
  } else if (init.rfind("=@", 0) == 0) {
    // =@FILE+uninit: a shorter file leaves the rest of the buffer unwritten (initcheck reports
    // the kernel's loads of it); =@FILE alone needs the whole buffer.
    const bool uninit = init.size() > 9 && init.compare(init.size() - 7, 7, "+uninit") == 0;
    const std::string file = init.substr(2, init.size() - 2 - (uninit ? 7 : 0));
    std::ifstream in(file, std::ios::binary);
    if (!in) throw UsageError("cannot read '" + file + "' for ARG '" + arg + "'");
    const auto want = static_cast<std::streamsize>(b.count * b.type.bytes);
    in.read(reinterpret_cast<char*>(b.buffer.get()), want);
    const auto got = static_cast<std::size_t>(in.gcount());
    if (uninit && in.gcount() < want) {
      info->assume_init = false;
      info->written.assign((static_cast<std::size_t>(want) + 63) / 64, 0);
      for (std::size_t k = 0; k < got / 64; ++k) info->written[k] = ~0ull;
      if (got % 64) info->written[got / 64] = (1ull << (got % 64)) - 1;
    } else if (in.gcount() < want) {  // never zeros standing in for data the file did not have
      throw UsageError("'" + file + "' holds " + std::to_string(got) + " bytes, but ARG '" + arg +
                       "' needs " + std::to_string(want) + " (" + std::to_string(b.count) + " x " +
                       std::to_string(b.type.bytes) + "); =@FILE+uninit leaves the rest uninitialised");
    }
  } else {
    throw UsageError("bad initialiser '" + init + "' in ARG '" + arg + "' (=0, =iota, =@FILE or =@FILE+uninit)");
  }
}

// A struct passed by value: struct:FILE, the file holding exactly its bytes (as the host lays it
// out), or its fields {NAME=VALUE,...} (struct_arg.hpp).
void bind_struct(BoundArg& b, const std::string& arg, const tgsim_param_desc& p, std::size_t i) {
  const std::string param = "parameter " + std::to_string(i) + " (" + param_text(p) + ")";
  const std::string what = param + " is a struct of " + std::to_string(p.bytes) + " bytes passed by value";
  b.type_name = "struct";
  if (!arg.empty() && arg[0] == '{') {
    b.scalar = struct_from_fields(arg, p, param);
    b.scalar.resize(std::max<std::size_t>(b.scalar.size(), 8));
    return;
  }
  if (arg.rfind("struct:", 0) != 0)
    throw UsageError(what + ": give its bytes as struct:FILE.bin, its fields as {NAME=VALUE,...} (or struct:0, all zero), not '" +
                     arg + "'");
  const std::string file = arg.substr(7);
  if (file == "0") {  // struct:0: every byte zero
    b.scalar.assign(std::max<std::size_t>(p.bytes, 8), 0);
    return;
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw UsageError("cannot read '" + file + "' for ARG '" + arg + "'");
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() != p.bytes)
    throw UsageError("'" + file + "' holds " + std::to_string(bytes.size()) + " bytes, but " + what);
  b.type_name = "struct";
  b.scalar.assign(bytes.begin(), bytes.end());
  b.scalar.resize(std::max<std::size_t>(b.scalar.size(), 8));
}

// A scalar ARG TYPE:VALUE. TYPE is any name canonical_arg_type knows (int64_t:5, size_t:7,
// 'unsigned char:3'); half and bfloat (__half, __nv_bfloat16) fill any 2-byte parameter that is
// not a pointer (a Metal half, CUDA's __half struct), rounded to nearest even.
void bind_scalar(BoundArg& b, const std::string& arg, const tgsim_param_desc& p, std::size_t i) {
  const std::size_t colon = arg.find(':');
  const std::string canon = colon == std::string::npos ? "" : canonical_arg_type(arg.substr(0, colon));
  const bool two_byte_float = (canon == "half" || canon == "bfloat") && p.bytes == 2 && std::string(p.type) != "ptr";
  if (std::string(p.type) == "struct" && !two_byte_float) return bind_struct(b, arg, p, i);
  if (colon == std::string::npos)
    throw UsageError("bad ARG '" + arg + "' (a buffer TYPE[COUNT] or a scalar TYPE:VALUE)");
  b.type_name = canon.empty() ? arg.substr(0, colon) : canon;
  const std::string v = arg.substr(colon + 1);
  auto it = elem_types().find(b.type_name);
  if (it == elem_types().end() || it->second.bytes != it->second.scalar)
    throw UsageError("unknown scalar type '" + b.type_name + "' in ARG '" + arg + "'");
  const ElemType t = it->second;
  const std::string want = t.kind == 'f' ? (t.bytes == 4 ? "f32" : "f64") : "i" + std::to_string(t.bytes * 8);
  const std::string have = p.type;
  if (have != want && !(have == "i1" && t.bytes == 1) && !two_byte_float)
    throw UsageError("ARG " + std::to_string(i) + " '" + arg + "' is " +
                     (t.kind == 'h' || t.kind == 'b' ? b.type_name : want) + ", but parameter " +
                     std::to_string(i) + " is " + param_text(p));
  char* end = nullptr;
  errno = 0;
  b.scalar.assign(8, 0);
  if (t.kind == 'f' || t.kind == 'h' || t.kind == 'b') {
    const double d = std::strtod(v.c_str(), &end);
    if (v.empty() || *end || errno) throw UsageError("bad " + b.type_name + " value '" + v + "' in ARG '" + arg + "'");
    put(b.scalar.data(), t, d, 0);
  } else {
    const bool is_signed = t.kind == 'i';
    // Decimal, or hexadecimal written 0x...: never octal (int:010 is ten).
    const std::size_t digits = v[0] == '-' || v[0] == '+' ? 1 : 0;
    const int base = v.compare(digits, 2, "0x") == 0 || v.compare(digits, 2, "0X") == 0 ? 16 : 10;
    const long long s = is_signed ? std::strtoll(v.c_str(), &end, base) : 0;
    const unsigned long long u = is_signed ? 0 : std::strtoull(v.c_str(), &end, base);
    const int bits = static_cast<int>(t.bytes * 8);
    const bool range = is_signed ? (bits == 64 || (s >= -(1ll << (bits - 1)) && s < (1ll << (bits - 1))))
                                 : (v[0] != '-' && (bits == 64 || u < (1ull << bits)));
    if (v.empty() || *end || errno || !range)
      throw UsageError("bad " + b.type_name + " value '" + v + "' in ARG '" + arg + "'");
    const std::int64_t iv = is_signed ? s : static_cast<std::int64_t>(u);
    std::memcpy(b.scalar.data(), &iv, t.bytes);
  }
}

std::string signature(const tgsim_kernel_desc& k) {
  std::string s = std::string(k.name) + "(";
  for (unsigned i = 0; i < k.nparams; ++i) {
    const bool first = i == 0;
    const std::string metal = metal_param_text(k, i);  // a texture's five parameters as one
    s += (first ? "" : ", ") + (metal.empty() ? param_text(k.params[i]) : metal);
  }
  return s + ")";
}

// A parameter list as types only, without spaces: "(const float* A, int n)" -> {"constfloat*", "int"};
// a kernel's from its parameters' C types (the pass's type where there is no debug info).
std::vector<std::string> param_types_of(const tgsim_kernel_desc& k) {
  std::vector<std::string> out;
  for (unsigned i = 0; i < k.nparams; ++i) {
    std::string t = *k.params[i].c_type ? k.params[i].c_type : k.params[i].type;
    t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
    out.push_back(t);
  }
  return out;
}
std::vector<std::string> param_types_of(const std::string& list) {  // "int*, float" (no names)
  std::vector<std::string> out;
  std::stringstream ss(list);
  for (std::string t; std::getline(ss, t, ',');) {
    t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
    out.push_back(t);
  }
  if (out.size() == 1 && out[0].empty()) out.clear();  // "()"
  return out;
}

// A template kernel's name as written on the command line or demangled, compared without blanks
// and integer suffixes: "k<1U, 8>", "k<1u,8>" and "k<1, 8>" are one name.
std::string normal_name(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == ' ' || c == '\t') continue;
    if ((c == 'u' || c == 'U' || c == 'l' || c == 'L') && !out.empty() && std::isdigit(static_cast<unsigned char>(out.back()))) {
      std::size_t j = out.size();
      while (j > 0 && std::isalnum(static_cast<unsigned char>(out[j - 1]))) --j;
      if (std::isdigit(static_cast<unsigned char>(out[j]))) continue;  // a suffix of a number, not of a name
    }
    out += c;
  }
  return out;
}

// For --kernel 'name<ARGS>' in a CUDA file: source that instantiates the template (the file need
// not instantiate it itself), taking the kernel's address after everything the file declares.
std::string instantiation(const FileLaunch& f) {
  const std::string& k = f.kernel;
  if (k.find('<') == std::string::npos || k.back() != '>' || internal::language_of(f.file) != internal::Language::kCuda)
    return {};
  std::string shown;
  for (char c : "--kernel " + k) shown += c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20 ? '?' : c;
  return "\n#line 1 \"" + shown + "\"\n__attribute__((used)) static const void* const tgsim_instantiate_kernel = " +
         "reinterpret_cast<const void*>(&" + k + ");\n";
}

// The kernel --kernel names: "name", "name<16>", or an overload by its parameter types,
// "name(int*, float)"; with no --kernel, the file's only kernel.
const internal::KernelRef& choose_kernel(const std::vector<internal::KernelRef>& kernels, const FileLaunch& f) {
  std::string list, name = f.kernel, params;
  for (const internal::KernelRef& k : kernels) list += "\n  " + signature(*k.kernel);
  const bool by_types = !name.empty() && name.back() == ')' && name.find('(') != std::string::npos;
  if (by_types) {
    params = name.substr(name.find('(') + 1, name.size() - name.find('(') - 2);
    name = name.substr(0, name.find('('));
    name.erase(std::remove(name.begin(), name.end(), ' '), name.end());
  }
  const internal::KernelRef* k = nullptr;
  for (const internal::KernelRef& c : kernels) {
    const std::string n = c.kernel->name;
    const bool named = name.empty() ? kernels.size() == 1
                                    : (normal_name(n) == normal_name(name) || n.substr(0, n.find('<')) == name);
    if (!named || (by_types && param_types_of(*c.kernel) != param_types_of(params))) continue;
    if (k)
      throw UsageError("--kernel '" + f.kernel + "' names more than one kernel; give the template arguments " +
                       "(--kernel 'name<16>') or the parameter types (--kernel '" + name +
                       "(int*, float)'):" + list);
    k = &c;
  }
  if (!k && by_types)
    throw UsageError("no kernel '" + name + "' with parameters (" + params + ") in " + f.file + "; it has:" + list);
  if (!k)
    throw UsageError(f.kernel.empty() ? f.file + " has several kernels; choose one with --kernel:" + list
                                      : "no kernel '" + f.kernel + "' in " + f.file + "; it has:" + list);
  return *k;
}

// How many kernels each file's listing showed (file_kernel_ref).
std::map<std::string, std::size_t>& listed_kernels() {
  static std::map<std::string, std::size_t> listed;
  return listed;
}

// The kernels FILE's module registered when it was loaded.
std::vector<internal::KernelRef> load_module(const std::string& so) {
  static std::map<std::string, std::vector<internal::KernelRef>> loaded;  // dlopen runs constructors once
  if (auto it = loaded.find(so); it != loaded.end()) return it->second;
  std::set<const tgsim_kernel_desc*> before;
  for (const internal::KernelRef& k : internal::all_kernels()) before.insert(k.kernel);
  if (!::dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL))
    throw internal::CompileError(std::string("cannot load the compiled kernel file: ") + ::dlerror());
  std::vector<internal::KernelRef> out;
  for (const internal::KernelRef& k : internal::all_kernels())
    if (!before.count(k.kernel)) out.push_back(k);
  loaded[so] = out;
  return out;
}

}  // namespace

namespace {

// The file's text without its comments (their line breaks kept).
std::string code_of(const std::string& file) {
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "//") == 0) {
      i = std::min(text.find('\n', i), text.size()) - 1;
    } else if (text.compare(i, 2, "/*") == 0) {
      const std::size_t end = std::min(text.find("*/", i + 2), text.size() - 2);
      out += std::string(std::count(text.begin() + i, text.begin() + end, '\n'), '\n');
      i = end + 1;
    } else {
      out += text[i];
    }
  }
  return out;
}

// The text of the function defined at `line` (1-based): from that line to its closing brace.
std::string body_at(const std::string& code, unsigned line) {
  std::size_t p = 0;
  for (unsigned l = 1; l < line; ++l) {
    p = code.find('\n', p);
    if (p == std::string::npos) return "";
    ++p;
  }
  const std::size_t open = code.find('{', p);
  if (open == std::string::npos) return "";
  int depth = 0;
  for (std::size_t i = open; i < code.size(); ++i) {
    depth += code[i] == '{' ? 1 : code[i] == '}' ? -1 : 0;
    if (depth == 0) return code.substr(p, i + 1 - p);
  }
  return code.substr(p);
}

// A launch that made no shared access of a kernel that declares shared memory (__shared__, Metal
// threadgroup) in its body, or of a file that declares some where no kernel of the compiled
// module reaches any, while the compiled kernel reaches no shared array: the optimiser removed
// the shared-memory work (code whose results never reach global memory is dead), which a
// learner would otherwise read as a kernel that runs without it. Sound: a compiled kernel that
// reaches no shared array cannot make a shared access at any launch size. The compiled module
// holds the chosen kernel alone (file_kernel_ref): of a file with several kernels, whose others
// may reach the file's shared arrays, only a declaration in the kernel's own body counts.
void note_removed_shared(Report& r, const std::string& file, const internal::KernelRef& k) {
  const Counters& c = r.counters;
  if (c.shared_load.instructions + c.shared_store.instructions + c.shared_atomic.instructions) return;
  if (k.kernel->nshared) return;
  bool module_has_shared = k.module->shared_static_bytes != 0 || listed_kernels()[file] > 1;
  for (unsigned i = 0; i < k.module->nkernels; ++i) module_has_shared = module_has_shared || k.module->kernels[i].nshared;
  static const std::regex declares(R"(\b__shared__\b|\bthreadgroup\s+[A-Za-z_])");
  const std::string code = code_of(file);
  const bool in_body = k.kernel->file && std::filesystem::path(k.kernel->file).filename() ==
                                             std::filesystem::path(file).filename() &&
                       std::regex_search(body_at(code, k.kernel->line), declares);
  if (in_body || (!module_has_shared && std::regex_search(code, declares)))
    r.notes.push_back(tr("note.shared_removed"));
}

}  // namespace

// The kernel --kernel names (or the file's only one), compiled and loaded, with its module.
// Chosen from the file's listing (its kernels' signatures, for the front end's cost), then
// compiled alone: the other kernels of the file are neither optimised nor instrumented.
internal::KernelRef file_kernel_ref(const FileLaunch& f) {
  if (!std::filesystem::exists(f.file)) throw UsageError("no such kernel file '" + f.file + "'");
  if (std::filesystem::is_directory(f.file)) throw UsageError("'" + f.file + "' is a directory, not a kernel file");
  const auto listing = internal::KernelSelection::listing();
  std::string epilogue;
  std::vector<internal::KernelRef> kernels =
      load_module(internal::compile_to_shared_object(f.file, compile_flags(f), epilogue, listing));
  // A template kernel the file does not instantiate with the arguments --kernel gives: compiled
  // again with the instantiation after the file's text.
  const std::string inst = instantiation(f);
  if (!inst.empty() && std::none_of(kernels.begin(), kernels.end(), [&](const internal::KernelRef& k) {
        return normal_name(k.kernel->name) == normal_name(f.kernel);
      })) {
    epilogue = inst;
    kernels = load_module(internal::compile_to_shared_object(f.file, compile_flags(f), epilogue, listing));
  }
  if (kernels.empty()) throw UsageError(f.file + " defines no __global__ kernel");
  listed_kernels()[f.file] = kernels.size();
  if (f.list_kernels) {
    std::string list;
    for (const internal::KernelRef& k : kernels) list += signature(*k.kernel) + "\n";
    throw KernelListing(list);
  }
  const tgsim_kernel_desc& listed = *choose_kernel(kernels, f).kernel;
  const std::string name = listed.name, symbol = listed.mangled;
  for (const internal::KernelRef& k : load_module(internal::compile_to_shared_object(
           f.file, compile_flags(f), epilogue, internal::KernelSelection::one(symbol))))
    if (k.kernel->name == name && k.kernel->mangled == symbol) return k;
  throw internal::CompileError("the compile of " + name + " alone (" + symbol + ") lost it\n");
}

const tgsim_kernel_desc& file_kernel(const FileLaunch& f) { return *file_kernel_ref(f).kernel; }

FileRun run_file(const FileLaunch& f, const DeviceProfile& profile, LaunchConfig cfg, bool keep_buffers) {
  const internal::KernelRef k = file_kernel_ref(f);
  const tgsim_kernel_desc& kd = *k.kernel;
  if (f.args.size() != user_param_count(kd))
    throw UsageError(std::string(kd.name) + " takes " + std::to_string(user_param_count(kd)) + " parameter(s), " +
                     std::to_string(f.args.size()) + " ARG(s) given: " + signature(kd));
  const std::vector<KernelArg> args = expand_texture_args(kd, f.args);  // a Metal texture: 5 parameters
  if (f.grid.empty() && f.grid_threads.empty()) throw UsageError("--grid is required (threadgroups, X[,Y[,Z]])");
  if (f.block.empty()) throw UsageError("--block is required (threads per group, X[,Y[,Z]])");
  cfg.block = parse_dim3(f.block, "--block");
  if (!f.grid_threads.empty()) {
    const Dim3 t = parse_dim3(f.grid_threads, "--threads-in-grid");
    cfg.grid_threads = t;
    cfg.grid = f.grid.empty() ? Dim3((t.x + cfg.block.x - 1) / cfg.block.x, (t.y + cfg.block.y - 1) / cfg.block.y,
                                     (t.z + cfg.block.z - 1) / cfg.block.z)
                              : parse_dim3(f.grid, "--grid");
  } else {
    cfg.grid = parse_dim3(f.grid, "--grid");
  }
  cfg.shared_bytes = f.shared;
  if (!f.stack.empty()) cfg.stack_bytes = parse_stack(f.stack);
  cfg.cooperative = f.cooperative;
  cfg.name = kd.name;
  std::vector<std::unique_ptr<BoundArg>> bound;
  std::vector<void*> argv;
  std::uint64_t seed = 0x7467736D;  // "tgsm": the same random inputs every run
  for (std::size_t i = 0; i < args.size(); ++i) {
    auto b = std::make_unique<BoundArg>();
    tgsim_param_desc p = kd.params[i];
    p.name = args[i].shown_name.c_str();  // the user's name and ARG number, not the adapter's
    const std::string& arg = args[i].arg;
    if (arg.find('[') != std::string::npos && arg[0] != '{') {
      const auto host = f.host_data.find(args[i].user_index);
      bind_buffer(*b, arg, p, args[i].user_index, seed, host == f.host_data.end() ? nullptr : host->second);
      argv.push_back(&b->ptr);
    } else {
      bind_scalar(*b, arg, p, args[i].user_index);
      argv.push_back(b->scalar.data());
    }
    bound.push_back(std::move(b));
  }
  struct Body {
    void (*tramp)(void**);
    void** args;
  } body{kd.trampoline, argv.data()};
  internal::KernelFn fn{[](void* p, ThreadCtx&) {
                        auto* x = static_cast<Body*>(p);
                        x->tramp(x->args);
                      },
                      &body, kd.fn};
  const std::vector<internal::BufferSpan> spans = internal::kernel_arg_spans(kd, argv.data());
  FileRun out;
  out.report = internal::run_launch(profile, cfg, fn, spans);
  note_removed_shared(out.report, f.file, k);
  out.file = f.file;
  out.signature = signature(kd);
  out.count = f.count;
  for (std::size_t i = 0; keep_buffers && i < bound.size(); ++i) {
    if (!bound[i]->ptr) continue;
    FileBuffer fb;
    fb.name = bound[i]->name;
    fb.param = args[i].shown_name;
    fb.index = args[i].user_index;
    fb.type = bound[i]->type_name;
    fb.count = bound[i]->count;
    fb.elem_bytes = bound[i]->type.bytes;
    const unsigned char* data = bound[i]->buffer.get();
    fb.bytes.assign(data, data + fb.count * fb.elem_bytes);
    out.buffers.push_back(std::move(fb));
  }
  return out;
}

}  // namespace tgsim::cli
