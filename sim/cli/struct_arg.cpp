// {NAME=VALUE,...} for a struct parameter (struct_arg.hpp).
#include "struct_arg.hpp"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

#include "arg_types.hpp"
#include "file_kernel.hpp"

namespace tgsim::cli {

namespace {

struct Field {
  std::string name;
  char kind = '?';
  std::size_t offset = 0, bytes = 0, count = 0;  // count 0: a scalar
};

// tgsim_param_desc::fields: "NAME:KIND:OFFSET:BYTES:COUNT;...".
std::vector<Field> fields_of(const char* text) {
  std::vector<Field> out;
  std::stringstream all(text ? text : "");
  for (std::string entry; std::getline(all, entry, ';');) {
    std::stringstream parts(entry);
    Field f;
    std::string kind, offset, bytes, count;
    std::getline(parts, f.name, ':');
    std::getline(parts, kind, ':');
    std::getline(parts, offset, ':');
    std::getline(parts, bytes, ':');
    std::getline(parts, count, ':');
    f.kind = kind.empty() ? '?' : kind[0];
    f.offset = std::strtoull(offset.c_str(), nullptr, 10);
    f.bytes = std::strtoull(bytes.c_str(), nullptr, 10);
    f.count = std::strtoull(count.c_str(), nullptr, 10);
    out.push_back(f);
  }
  return out;
}

std::string trim(const std::string& s) {
  const std::size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// "a=1, b=[1,2]" -> {"a=1", "b=[1,2]"}: split at the commas outside brackets.
std::vector<std::string> split_top(const std::string& s, const std::string& arg) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '[') ++depth;
    if (c == ']' && --depth < 0) break;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (depth != 0) throw UsageError("bad ARG '" + arg + "' (fields are {NAME=VALUE,NAME=[V,V],...})");
  if (!trim(cur).empty() || !out.empty()) out.push_back(trim(cur));
  return out;
}

std::string type_words(const Field& f) {
  switch (f.kind) {
    case 'i': return "int" + std::to_string(f.bytes * 8);
    case 'u': return "uint" + std::to_string(f.bytes * 8);
    case 'f': return f.bytes == 8 ? "double" : "float";
    case 'h': return "half";
    case 'b': return "bfloat";
    default: return "?";
  }
}

// One element of field f at `at`; false when `v` is no value of its type.
bool put_value(unsigned char* at, const Field& f, const std::string& v) {
  if (v.empty()) return false;
  char* end = nullptr;
  errno = 0;
  if (f.kind == 'f' || f.kind == 'h' || f.kind == 'b') {
    const double d = std::strtod(v.c_str(), &end);
    if (*end || errno || (f.bytes == 4 && std::isfinite(d) && std::fabs(d) > 3.4028234663852886e38)) return false;
    put(at, ElemType{f.bytes, f.kind, f.bytes}, d, 0);
    return true;
  }
  if (f.bytes == 0 || f.bytes > 8) return false;
  const std::size_t sign = v[0] == '-' || v[0] == '+' ? 1 : 0;
  const int base = v.compare(sign, 2, "0x") == 0 || v.compare(sign, 2, "0X") == 0 ? 16 : 10;
  const int bits = static_cast<int>(f.bytes * 8);
  std::int64_t iv = 0;
  if (f.kind == 'i') {
    const long long s = std::strtoll(v.c_str(), &end, base);
    if (*end || errno || (bits < 64 && (s < -(1ll << (bits - 1)) || s >= (1ll << (bits - 1))))) return false;
    iv = s;
  } else {
    const unsigned long long u = std::strtoull(v.c_str(), &end, base);
    if (*end || errno || v[0] == '-' || (bits < 64 && u >= (1ull << bits))) return false;
    iv = static_cast<std::int64_t>(u);
  }
  std::memcpy(at, &iv, f.bytes);  // little-endian: the low bytes
  return true;
}

void fill(std::vector<unsigned char>& out, const Field& f, const std::string& value, const std::string& where) {
  std::vector<std::string> values{value};
  if (f.count > 0) {
    if (value.size() < 2 || value.front() != '[' || value.back() != ']')
      throw UsageError(where + " is an array of " + std::to_string(f.count) + " " + type_words(f) +
                       ": give [V,V,...], not '" + value + "'");
    const std::string inner = value.substr(1, value.size() - 2);
    values = split_top(inner, value);
    if (values.size() != f.count)
      throw UsageError(where + " is an array of " + std::to_string(f.count) + " " + type_words(f) + ", " +
                       std::to_string(values.size()) + " value(s) given");
  }
  for (std::size_t j = 0; j < values.size(); ++j) {
    if (f.offset + (j + 1) * f.bytes > out.size() || !put_value(out.data() + f.offset + j * f.bytes, f, values[j]))
      throw UsageError("value '" + values[j] + "' does not fit " + where + " (" + type_words(f) + ")");
  }
}

}  // namespace

std::vector<unsigned char> struct_from_fields(const std::string& arg, const tgsim_param_desc& p,
                                              const std::string& param) {
  const std::vector<Field> fields = fields_of(p.fields);
  if (fields.empty())
    throw UsageError(param + " has no fields known to tgsim (no debug info, or a union): give its bytes as struct:FILE.bin");
  if (arg.size() < 2 || arg.back() != '}')
    throw UsageError("bad ARG '" + arg + "' (fields are {NAME=VALUE,NAME=[V,V],...})");
  for (const Field& f : fields)
    if (f.kind == '?')
      throw UsageError("field '" + f.name + "' of " + param + " cannot be given by name: give the struct as struct:FILE.bin");
  std::vector<unsigned char> out(p.bytes, 0);
  std::map<std::string, bool> given;
  for (const std::string& item : split_top(arg.substr(1, arg.size() - 2), arg)) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos)
      throw UsageError("bad field '" + item + "' in ARG '" + arg + "' (NAME=VALUE)");
    const std::string name = trim(item.substr(0, eq)), value = trim(item.substr(eq + 1));
    const Field* f = nullptr;
    for (const Field& g : fields)
      if (g.name == name) f = &g;
    if (!f) {
      std::string all;
      for (const Field& g : fields) all += (all.empty() ? "" : ", ") + g.name;
      throw UsageError(param + " has no field '" + name + "' (its fields: " + all + ")");
    }
    if (given[name]) throw UsageError("field '" + name + "' of " + param + " is given twice");
    given[name] = true;
    fill(out, *f, value, "field '" + name + "' of " + param);
  }
  std::string missing;
  for (const Field& f : fields)
    if (!given[f.name]) missing += (missing.empty() ? "" : ", ") + f.name;
  if (!missing.empty())
    throw UsageError(param + ": field(s) not given: " + missing + " (every field is needed; struct:0 is all zero)");
  return out;
}

}  // namespace tgsim::cli
