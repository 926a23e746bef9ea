// ARG types (arg_types.hpp).
#include "arg_types.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace tgsim::cli {

const std::map<std::string, ElemType>& elem_types() {
  static const std::map<std::string, ElemType> t = [] {
    std::map<std::string, ElemType> m = {
        {"char", {1, 'i', 1}},  {"uchar", {1, 'u', 1}},  {"short", {2, 'i', 2}}, {"ushort", {2, 'u', 2}},
        {"int", {4, 'i', 4}},   {"uint", {4, 'u', 4}},   {"long", {8, 'i', 8}},  {"ulong", {8, 'u', 8}},
        {"float", {4, 'f', 4}}, {"double", {8, 'f', 8}}, {"bool", {1, 'u', 1}},  {"half", {2, 'h', 2}},
        {"bfloat", {2, 'b', 2}}};
    for (const char* base :
         {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double", "half", "bfloat"})
      for (int n : {2, 3, 4}) {
        ElemType e = m[base];
        m[std::string(base) + std::to_string(n)] = {e.bytes * static_cast<std::size_t>(n), e.kind, e.scalar};
      }
    return m;
  }();
  return t;
}

std::string canonical_arg_type(std::string t) {
  t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
  static const std::map<std::string, std::string> names = {
      {"signedchar", "char"}, {"int8_t", "char"}, {"unsignedchar", "uchar"}, {"uint8_t", "uchar"},
      {"int16_t", "short"}, {"shortint", "short"}, {"unsignedshort", "ushort"}, {"uint16_t", "ushort"},
      {"signedint", "int"}, {"int32_t", "int"}, {"unsignedint", "uint"}, {"unsigned", "uint"},
      {"uint32_t", "uint"}, {"longlong", "long"}, {"longint", "long"}, {"int64_t", "long"},
      {"longlongint", "long"}, {"ptrdiff_t", "long"}, {"unsignedlong", "ulong"}, {"unsignedlonglong", "ulong"},
      {"uint64_t", "ulong"}, {"size_t", "ulong"}, {"__half", "half"}, {"float16_t", "half"},
      {"__fp16", "half"}, {"_Float16", "half"}, {"__nv_bfloat16", "bfloat"}, {"bfloat16_t", "bfloat"},
      {"__bf16", "bfloat"}, {"__half2", "half2"}, {"__nv_bfloat162", "bfloat2"}};
  if (auto it = names.find(t); it != names.end()) return it->second;
  if (elem_types().count(t)) return t;
  return "";
}

std::uint16_t half_bits(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u, mag = x & 0x7FFFFFFFu;
  if (mag >= 0x7F800000u) return static_cast<std::uint16_t>(sign | 0x7C00u | (mag > 0x7F800000u ? 0x200u : 0));
  if (mag >= 0x477FF000u) return static_cast<std::uint16_t>(sign | 0x7C00u);  // rounds past 65504: inf
  if (mag < 0x38800000u) {  // below 2^-14: a subnormal half (or zero), rounded to nearest even
    if (mag < 0x33000000u) return static_cast<std::uint16_t>(sign);  // below half the smallest: 0
    const std::uint32_t e = mag >> 23, m = (mag & 0x7FFFFFu) | 0x800000u;
    const std::uint32_t shift = 126 - e;  // to units of 2^-24
    std::uint32_t h = m >> shift;
    const std::uint32_t rest = m & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (h & 1))) ++h;
    return static_cast<std::uint16_t>(sign | h);
  }
  std::uint32_t h = ((mag >> 13) - (112u << 10));  // rebias the exponent 127 -> 15
  const std::uint32_t rest = mag & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1))) ++h;
  return static_cast<std::uint16_t>(sign | h);
}

std::uint16_t bfloat_bits(float f) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  return static_cast<std::uint16_t>((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}

void put(unsigned char* p, const ElemType& t, double v, std::int64_t iv) {
  if (t.kind == 'h' || t.kind == 'b') {
    const std::uint16_t h = t.kind == 'h' ? half_bits(static_cast<float>(v)) : bfloat_bits(static_cast<float>(v));
    std::memcpy(p, &h, 2);
    return;
  }
  switch (t.scalar * 4 + (t.kind == 'f')) {
    case 4 * 4 + 1: { float f = static_cast<float>(v); std::memcpy(p, &f, 4); break; }
    case 8 * 4 + 1: std::memcpy(p, &v, 8); break;
    default: std::memcpy(p, &iv, t.scalar); break;  // little endian: the low bytes
  }
}

}  // namespace tgsim::cli
