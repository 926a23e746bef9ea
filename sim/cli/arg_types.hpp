// The element and scalar types of a kernel file's ARGs (TYPE[COUNT], TYPE:VALUE): tgsim's short
// names (int, uint, float4, half, bfloat2, ...), the C and <stdint.h> spellings that mean the
// same (int64_t, size_t, unsigned char, __half, __nv_bfloat16, ...), and how one component is
// written (half and bfloat rounded to nearest even, as the GPU converts).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace tgsim::cli {

struct ElemType {
  std::size_t bytes;   // of one element
  char kind;           // 'i' signed, 'u' unsigned, 'f' floating, 'h' IEEE half, 'b' bfloat16
  std::size_t scalar;  // bytes of one component
};

// tgsim's names, scalars and their 2-, 3- and 4-vectors.
const std::map<std::string, ElemType>& elem_types();
// tgsim's name for a type as the user or a C declaration wrote it ("unsigned char", "int64_t",
// "size_t", "__half", "float4"), "" when it names none. Spaces are ignored.
std::string canonical_arg_type(std::string t);
// One component of value v (floating kinds) or iv (integers) written at p.
void put(unsigned char* p, const ElemType& t, double v, std::int64_t iv);
// IEEE binary16 and bfloat16 bits of a float, rounded to nearest even (NaN stays NaN).
std::uint16_t half_bits(float f);
std::uint16_t bfloat_bits(float f);

}  // namespace tgsim::cli
