// --save and --expect (buffers_out.hpp).
#include "buffers_out.hpp"

#include "i18n.hpp"

#include <cmath>
#include <cstring>
#include <fstream>
#include <ostream>
#include <sstream>

namespace tgsim::cli {

namespace {

// PARAM=REST split at the first '='.
std::pair<std::string, std::string> split_spec(const std::string& spec, const char* option, const char* form) {
  const std::size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
    throw UsageError(std::string("bad ") + option + " '" + spec + "' (" + form + ")");
  return {spec.substr(0, eq), spec.substr(eq + 1)};
}

const FileBuffer& find_buffer(const FileRun& r, const std::string& param, const std::string& spec) {
  for (const FileBuffer& b : r.buffers)
    if (!param.empty() && b.param == param) return b;
  if (param.find_first_not_of("0123456789") == std::string::npos)
    for (const FileBuffer& b : r.buffers)
      if (std::to_string(b.index) == param) return b;
  std::string names;
  for (const FileBuffer& b : r.buffers) names += (names.empty() ? "" : ", ") + b.name;
  throw UsageError("'" + spec + "' names no buffer parameter (the buffers: " + (names.empty() ? "none" : names) + ")");
}

// The scalar components of an element type as given ("float4" -> 4-byte floats).
struct Scalar {
  char kind;  // 'f' floating, 'i' other
  std::size_t bytes;
};
Scalar scalar_of(const FileBuffer& b) {
  if (b.type.rfind("double", 0) == 0) return {'f', 8};
  if (b.type.rfind("float", 0) == 0) return {'f', 4};
  return {'i', b.elem_bytes};
}

double component(const unsigned char* p, std::size_t bytes) {
  if (bytes == 8) {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  float f;
  std::memcpy(&f, p, 4);
  return f;
}

std::string element_text(const unsigned char* p, const FileBuffer& b, Scalar s) {
  std::ostringstream os;
  const std::size_t n = b.elem_bytes / s.bytes;
  if (n > 1) os << "(";
  for (std::size_t c = 0; c < n; ++c) {
    if (c) os << ", ";
    if (s.kind == 'f') {
      os.precision(9);
      os << component(p + c * s.bytes, s.bytes);
    } else {
      long long v = 0;
      std::memcpy(&v, p + c * s.bytes, s.bytes);  // little endian: the low bytes
      if (s.bytes < 8 && b.type[0] != 'u' && (v >> (s.bytes * 8 - 1)) & 1) v -= 1ll << (s.bytes * 8);
      os << v;
    }
  }
  if (n > 1) os << ")";
  return os.str();
}

bool same_element(const unsigned char* a, const unsigned char* b, std::size_t bytes, Scalar s, double rtol) {
  if (s.kind != 'f') return std::memcmp(a, b, bytes) == 0;
  for (std::size_t c = 0; c < bytes; c += s.bytes) {
    const double x = component(a + c, s.bytes), y = component(b + c, s.bytes);
    if (std::isnan(x) && std::isnan(y)) continue;
    if (x == y) continue;
    if (!(std::fabs(x - y) <= rtol * std::fabs(y))) return false;
  }
  return true;
}

}  // namespace

void save_buffers(const FileRun& r, const std::vector<std::string>& specs) {
  for (const std::string& spec : specs) {
    const auto [param, path] = split_spec(spec, "--save", "PARAM=PATH");
    const FileBuffer& b = find_buffer(r, param, spec);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(b.bytes.data()), static_cast<std::streamsize>(b.bytes.size()));
    out.flush();
    if (!out) throw UsageError("cannot write '" + path + "' for --save '" + spec + "'");
  }
}

std::vector<ExpectResult> expect_buffers(const FileRun& r, const std::vector<std::string>& specs) {
  std::vector<ExpectResult> out;
  for (const std::string& spec : specs) {
    auto [param, rest] = split_spec(spec, "--expect", "PARAM=PATH[:RTOL]");
    ExpectResult e;
    const std::size_t colon = rest.rfind(':');
    if (colon != std::string::npos) {
      const std::string t = rest.substr(colon + 1);
      char* end = nullptr;
      e.rtol = std::strtod(t.c_str(), &end);
      if (t.empty() || *end || !(e.rtol >= 0) || std::isinf(e.rtol))
        throw UsageError("bad RTOL '" + t + "' in --expect '" + spec + "' (a number >= 0)");
      rest = rest.substr(0, colon);
    }
    const FileBuffer& b = find_buffer(r, param, spec);
    std::ifstream in(rest, std::ios::binary);
    if (!in) throw UsageError("cannot read '" + rest + "' for --expect '" + spec + "'");
    std::vector<unsigned char> want((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (want.size() != b.bytes.size())
      throw UsageError("'" + rest + "' holds " + std::to_string(want.size()) + " bytes, but " + b.name + " is " +
                       std::to_string(b.bytes.size()) + " (" + std::to_string(b.count) + " x " + b.type + ")");
    const Scalar s = scalar_of(b);
    e.buffer = b.name;
    e.file = rest;
    e.elements = b.count;
    for (std::size_t i = 0; i < b.count; ++i) {
      const unsigned char* g = b.bytes.data() + i * b.elem_bytes;
      const unsigned char* w = want.data() + i * b.elem_bytes;
      if (same_element(g, w, b.elem_bytes, s, e.rtol)) continue;
      if (e.differing++ == 0) {
        e.first = i;
        e.got = element_text(g, b, s);
        e.want = element_text(w, b, s);
      }
    }
    out.push_back(e);
  }
  return out;
}

void write_expect_text(std::ostream& os, const std::vector<ExpectResult>& es) {
  for (const ExpectResult& e : es) {
    std::ostringstream rtol;
    rtol << e.rtol;
    const std::string elements = std::to_string(e.elements);
    if (!e.differing)
      os << trf(e.rtol > 0 ? "expect.equal_rtol" : "expect.equal", {e.buffer, e.file, elements, rtol.str()}) << "\n";
    else
      os << trf(e.rtol > 0 ? "expect.differs_rtol" : "expect.differs",
                {e.buffer, std::to_string(e.first), e.got, e.file, e.want, std::to_string(e.differing), elements,
                 rtol.str()})
         << "\n";
  }
}

nlohmann::ordered_json expect_json(const std::vector<ExpectResult>& es) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const ExpectResult& e : es) {
    nlohmann::ordered_json j;
    j["buffer"] = e.buffer;
    j["file"] = e.file;
    j["rtol"] = e.rtol;
    j["elements"] = e.elements;
    j["differing"] = e.differing;
    if (e.differing) j["first_difference"] = {{"index", e.first}, {"got", e.got}, {"want", e.want}};
    a.push_back(j);
  }
  return a;
}

}  // namespace tgsim::cli
