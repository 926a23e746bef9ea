// A struct parameter's fields from its debug info (tgsim_param_desc::fields in abi.h): what
// `tgsim run FILE` needs to lay out an ARG written {name=value,...} as the compiler laid it out.
#include "internal.hpp"

#include <llvm/IR/DebugInfoMetadata.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

const DIType* strip(const DIType* t) {  // typedefs, const, volatile
  while (auto* d = dyn_cast_or_null<DIDerivedType>(t)) {
    const auto tag = d->getTag();
    if (tag != dwarf::DW_TAG_typedef && tag != dwarf::DW_TAG_const_type && tag != dwarf::DW_TAG_volatile_type &&
        tag != dwarf::DW_TAG_atomic_type)
      break;
    t = d->getBaseType();
  }
  return t;
}

bool is_record(const DIType* t) {
  auto* s = dyn_cast_or_null<DICompositeType>(t);
  return s && (s->getTag() == dwarf::DW_TAG_structure_type || s->getTag() == dwarf::DW_TAG_class_type);
}

// The kind of a scalar type ('?' for none): its DWARF encoding; CUDA's __half and
// __nv_bfloat16 (structs of one unsigned short) are halves and bfloats too.
char scalar_kind(const DIType* t) {
  if (auto* b = dyn_cast_or_null<DIBasicType>(t)) {
    const std::string name = b->getName().str();
    switch (b->getEncoding()) {
      case dwarf::DW_ATE_float:
        if (b->getSizeInBits() == 16) return name.find("bf") != std::string::npos ? 'b' : 'h';
        return 'f';
      case dwarf::DW_ATE_signed:
      case dwarf::DW_ATE_signed_char: return 'i';
      case dwarf::DW_ATE_unsigned:
      case dwarf::DW_ATE_unsigned_char:
      case dwarf::DW_ATE_boolean:
      case dwarf::DW_ATE_UTF: return 'u';
      default: return '?';
    }
  }
  if (auto* d = dyn_cast_or_null<DIDerivedType>(t); d && d->getTag() == dwarf::DW_TAG_pointer_type) return 'u';
  if (auto* s = dyn_cast_or_null<DICompositeType>(t)) {
    if (s->getTag() == dwarf::DW_TAG_enumeration_type) {
      const DIType* base = strip(s->getBaseType());
      return base ? scalar_kind(base) : 'i';
    }
    const StringRef name = s->getName();
    if (name == "__half" || name == "__nv_half") return 'h';
    if (name == "__nv_bfloat16" || name == "f16<1>") return 'b';  // f16<1>: Metal's bfloat (metal_half)
    if (name == "f16<0>") return 'h';
  }
  return '?';
}

struct Lister {
  std::string out;
  void add(const std::string& name, char kind, std::uint64_t offset, std::uint64_t bytes, std::uint64_t count) {
    if (!out.empty()) out += ';';
    out += name + ":" + kind + ":" + std::to_string(offset) + ":" + std::to_string(bytes) + ":" + std::to_string(count);
  }
  void member(const std::string& name, const DIType* t, std::uint64_t offset);
  void record(const std::string& prefix, const DICompositeType* s, std::uint64_t offset) {
    for (const DINode* e : s->getElements()) {
      auto* m = dyn_cast<DIDerivedType>(e);
      if (!m || m->isStaticMember()) continue;
      const std::uint64_t at = offset + m->getOffsetInBits() / 8;
      if (m->getTag() == dwarf::DW_TAG_inheritance) {  // a base class's fields are the struct's own
        if (auto* base = dyn_cast_or_null<DICompositeType>(strip(m->getBaseType()))) record(prefix, base, at);
        continue;
      }
      if (m->getTag() != dwarf::DW_TAG_member) continue;
      const std::string name = prefix + m->getName().str();
      if (m->isBitField()) {
        add(name + " (a bit-field)", '?', at, 0, 0);
        continue;
      }
      member(name, m->getBaseType(), at);
    }
  }
};

// Metal's vec<T, N> and packed_vec<T, N> (metal_vector): a union whose first member is T e[N],
// given as that array; nullptr for any other type (its member through *at).
const DIDerivedType* metal_vector_elements(const DIType* t, std::uint64_t& at) {
  auto* s = dyn_cast_or_null<DICompositeType>(t);
  if (!s || !is_record(s) || !(s->getName().startswith("vec<") || s->getName().startswith("packed_vec<"))) return nullptr;
  for (const DINode* e : s->getElements()) {
    auto* m = dyn_cast<DIDerivedType>(e);
    auto* u = m && m->getTag() == dwarf::DW_TAG_member ? dyn_cast_or_null<DICompositeType>(strip(m->getBaseType())) : nullptr;
    if (!u || u->getTag() != dwarf::DW_TAG_union_type || u->getElements().empty()) continue;
    auto* first = dyn_cast<DIDerivedType>(u->getElements()[0]);
    if (!first || first->getName() != "e") return nullptr;
    at = (m->getOffsetInBits() + first->getOffsetInBits()) / 8;
    return first;
  }
  return nullptr;
}

void Lister::member(const std::string& name, const DIType* type, std::uint64_t offset) {
  const DIType* t = strip(type);
  const char kind = scalar_kind(t);
  if (kind != '?') return add(name, kind, offset, t->getSizeInBits() / 8, 0);
  std::uint64_t at = 0;
  if (const DIDerivedType* e = metal_vector_elements(t, at)) return member(name, e->getBaseType(), offset + at);
  if (is_record(t)) return record(name + ".", cast<DICompositeType>(t), offset);
  auto* a = dyn_cast_or_null<DICompositeType>(t);
  if (a && a->getTag() == dwarf::DW_TAG_array_type) {  // an array or vector of scalars: all its elements
    const DIType* elem = strip(a->getBaseType());
    std::uint64_t count = 1;
    for (const DINode* r : a->getElements())
      if (auto* sub = dyn_cast<DISubrange>(r); sub && sub->getCount().is<ConstantInt*>())
        count *= sub->getCount().get<ConstantInt*>()->getZExtValue();
    if (elem && scalar_kind(elem) != '?' && count > 0 && elem->getSizeInBits() > 0)
      return add(name, scalar_kind(elem), offset, elem->getSizeInBits() / 8, count);
    return add(name + " (an array of structs)", '?', offset, 0, 0);
  }
  if (a && a->getTag() == dwarf::DW_TAG_union_type) return add(name + " (a union)", '?', offset, 0, 0);
  add(name + " (of a type no ARG gives)", '?', offset, 0, 0);
}

}  // namespace

std::string struct_fields(const DIType* t) {
  t = strip(t);
  if (!is_record(t)) return "";
  Lister l;
  l.record("", cast<DICompositeType>(t), 0);
  return l.out;
}

}  // namespace tgsim::pass
