// The scalar PTX instructions the pass computes (ptx_ops.cpp dispatches here first), each as the
// PTX ISA defines it, on b/u/s 8-64, f32, f64 and pred operands:
//   mov.T d, a (and mov.b64 / mov.b32 packing "{lo,hi}" or unpacking into it);
//   setp.CMP[.BOP].T p[|q], a, b[, {!}c] with CMP eq ne lt le gt ge lo ls hi hs (integers; lt..ge
//     signed for .s types), and for floats also equ neu ltu leu gtu geu num nan;
//   selp.T d, a, b, p;
//   add, sub (floats also .rn/.ftz), mul.{lo,hi,wide} / mul.f32, mad.{lo,hi,wide} / mad.f32 (fused),
//   min, max, neg, abs, and, or, xor, not (also .pred), shl / shr (a shift of the type's width or
//   more gives 0, or the sign for shr.s);
//   cvt.D.S between integers (extended by the source's sign), int to float (.rn), float to int
//   (.rzi .rni .rmi .rpi, saturating as the GPU does), f32 <-> f64;
//   cvta[.to].{shared,global}.{u32,u64} d, a: the address unchanged (tgsim's shared window
//   address is the generic one, as __cvta_generic_to_shared gives it; .u32 keeps its low half).
// Anything else among these opcodes (.sat, .cc, other rounding modes) is not modelled.
#include "ptx_asm.hpp"

#include <array>
#include <map>
#include <set>

#include <llvm/IR/Intrinsics.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

struct ScalarType {
  Type* t = nullptr;
  bool is_signed = false, is_float = false;
  unsigned bits = 0;
};

ScalarType scalar_type(IRBuilder<>& b, const std::string& q) {
  ScalarType r;
  if (q == "pred") {
    r.t = b.getInt1Ty();
    r.bits = 1;
    return r;
  }
  if (q.size() < 2 || (q[0] != 'b' && q[0] != 'u' && q[0] != 's' && q[0] != 'f')) return r;
  const std::string bits = q.substr(1);
  if (bits != "8" && bits != "16" && bits != "32" && bits != "64") return r;
  r.bits = static_cast<unsigned>(std::stoi(bits));
  r.is_signed = q[0] == 's';
  r.is_float = q[0] == 'f';
  if (q == "f32") r.t = b.getFloatTy();
  else if (q == "f64") r.t = b.getDoubleTy();
  else if (!r.is_float) r.t = b.getIntNTy(r.bits);
  return r;
}

// The qualifiers between the opcode and the type are all in `allowed`.
bool qualifiers_in(const PtxInstr& in, std::size_t last, const std::set<std::string>& allowed) {
  for (std::size_t i = 1; i < last; ++i)
    if (!allowed.count(in.op[i])) return false;
  return true;
}

Value* intrinsic(IRBuilder<>& b, Intrinsic::ID id, ArrayRef<Type*> types, ArrayRef<Value*> args) {
  return b.CreateCall(Intrinsic::getDeclaration(b.GetInsertBlock()->getModule(), id, types), args);
}

// A predicate operand, "!p" negated.
Value* predicate(IRBuilder<>& b, PtxOperands& ops, const std::string& tok) {
  const bool negate = !tok.empty() && tok[0] == '!';
  Value* p = ops.get(negate ? tok.substr(1) : tok, b.getInt1Ty());
  return p && negate ? b.CreateNot(p) : p;
}

Value* compare(IRBuilder<>& b, const std::string& cmp, Value* x, Value* y, const ScalarType& ty) {
  using P = CmpInst::Predicate;
  static const std::map<std::string, std::array<P, 3>> table = {  // unsigned, signed, float
      {"eq", {P::ICMP_EQ, P::ICMP_EQ, P::FCMP_OEQ}},    {"ne", {P::ICMP_NE, P::ICMP_NE, P::FCMP_ONE}},
      {"lt", {P::ICMP_ULT, P::ICMP_SLT, P::FCMP_OLT}},  {"le", {P::ICMP_ULE, P::ICMP_SLE, P::FCMP_OLE}},
      {"gt", {P::ICMP_UGT, P::ICMP_SGT, P::FCMP_OGT}},  {"ge", {P::ICMP_UGE, P::ICMP_SGE, P::FCMP_OGE}},
      {"lo", {P::ICMP_ULT, P::ICMP_ULT, P::BAD_FCMP_PREDICATE}}, {"ls", {P::ICMP_ULE, P::ICMP_ULE, P::BAD_FCMP_PREDICATE}},
      {"hi", {P::ICMP_UGT, P::ICMP_UGT, P::BAD_FCMP_PREDICATE}}, {"hs", {P::ICMP_UGE, P::ICMP_UGE, P::BAD_FCMP_PREDICATE}},
      {"equ", {P::BAD_ICMP_PREDICATE, P::BAD_ICMP_PREDICATE, P::FCMP_UEQ}},
      {"neu", {P::BAD_ICMP_PREDICATE, P::BAD_ICMP_PREDICATE, P::FCMP_UNE}},
      {"ltu", {P::BAD_ICMP_PREDICATE, P::BAD_ICMP_PREDICATE, P::FCMP_ULT}},
      {"leu", {P::BAD_ICMP_PREDICATE, P::BAD_ICMP_PREDICATE, P::FCMP_ULE}},
      {"gtu", {P::BAD_ICMP_PREDICATE, P::BAD_ICMP_PREDICATE, P::FCMP_UGT}},
      {"geu", {P::BAD_ICMP_PREDICATE, P::BAD_ICMP_PREDICATE, P::FCMP_UGE}},
      {"num", {P::BAD_ICMP_PREDICATE, P::BAD_ICMP_PREDICATE, P::FCMP_ORD}},
      {"nan", {P::BAD_ICMP_PREDICATE, P::BAD_ICMP_PREDICATE, P::FCMP_UNO}}};
  auto it = table.find(cmp);
  if (it == table.end() || ty.bits == 1) return nullptr;
  const P p = it->second[ty.is_float ? 2 : ty.is_signed ? 1 : 0];
  if (p == P::BAD_ICMP_PREDICATE || p == P::BAD_FCMP_PREDICATE) return nullptr;
  return ty.is_float ? b.CreateFCmp(p, x, y) : b.CreateICmp(p, x, y);
}

Value* combine(IRBuilder<>& b, const std::string& op, Value* x, Value* y) {
  if (op == "and") return b.CreateAnd(x, y);
  if (op == "or") return b.CreateOr(x, y);
  return b.CreateXor(x, y);
}

// setp.CMP[.BOP][.ftz].T p[|q], a, b[, c].
bool setp(IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  const ScalarType ty = scalar_type(b, in.op.back());
  if (!ty.t || in.op.size() < 3) return false;
  std::string bop;
  for (std::size_t i = 2; i + 1 < in.op.size(); ++i) {
    if (in.op[i] == "and" || in.op[i] == "or" || in.op[i] == "xor") bop = in.op[i];
    else if (in.op[i] != "ftz") return false;
  }
  if (in.args.size() != (bop.empty() ? 3u : 4u)) return false;
  Value *x = ops.get(in.args[1], ty.t, ty.is_signed), *y = ops.get(in.args[2], ty.t, ty.is_signed);
  Value* c = bop.empty() ? nullptr : predicate(b, ops, in.args[3]);
  if (!x || !y || (!bop.empty() && !c)) return false;
  Value* t = compare(b, in.op[1], x, y, ty);
  if (!t) return false;
  const std::size_t bar = in.args[0].find('|');
  const std::string p = in.args[0].substr(0, bar);
  Value* q = bop.empty() ? b.CreateNot(t) : combine(b, bop, b.CreateNot(t), c);
  if (!bop.empty()) t = combine(b, bop, t, c);
  if (!ops.writable(p) || !ops.set(p, t)) return false;
  return bar == std::string::npos || (ops.writable(in.args[0].substr(bar + 1)) && ops.set(in.args[0].substr(bar + 1), q));
}

// mov.T d, a; mov.b64 d, {lo,hi}; mov.b64 {lo,hi}, a (and b32 of two 16-bit halves).
bool mov(IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  const ScalarType ty = scalar_type(b, in.op.back());
  if (!ty.t || in.op.size() != 2 || in.args.size() != 2) return false;
  const bool pack = in.args[1].front() == '{', unpack = in.args[0].front() == '{';
  if (!pack && !unpack) {
    Value* v = ops.get(in.args[1], ty.t, ty.is_signed);
    return v && ops.writable(in.args[0]) && ops.set(in.args[0], v, ty.is_signed);
  }
  const std::vector<std::string> parts = ptx_registers(in.args[pack ? 1 : 0]);
  if (ty.is_float || ty.bits < 32 || parts.size() != 2) return false;
  Type* half = b.getIntNTy(ty.bits / 2);
  if (pack) {
    Value *lo = ops.get(parts[0], half), *hi = ops.get(parts[1], half);
    if (!lo || !hi) return false;
    Value* v = b.CreateOr(b.CreateShl(b.CreateZExt(hi, ty.t), ty.bits / 2), b.CreateZExt(lo, ty.t));
    return ops.writable(in.args[0]) && ops.set(in.args[0], v);
  }
  Value* v = ops.get(in.args[1], ty.t);
  if (!v || !ops.writable(parts[0]) || !ops.writable(parts[1])) return false;
  ops.set(parts[0], b.CreateTrunc(v, half));
  return ops.set(parts[1], b.CreateTrunc(b.CreateLShr(v, ty.bits / 2), half));
}

// shl / shr: the amount is a u32; one of the type's width or more shifts everything out.
Value* shift(IRBuilder<>& b, bool left, Value* x, Value* n, const ScalarType& ty) {
  Value* amount = b.CreateZExtOrTrunc(b.CreateSelect(b.CreateICmpUGE(n, b.getInt32(ty.bits)), b.getInt32(ty.bits - 1), n), ty.t);
  Value* over = b.CreateICmpUGE(n, b.getInt32(ty.bits));
  if (!left && ty.is_signed) return b.CreateAShr(x, amount);
  Value* r = left ? b.CreateShl(x, amount) : b.CreateLShr(x, amount);
  return b.CreateSelect(over, ConstantInt::get(ty.t, 0), r);
}

// mul/mad .lo .hi .wide of integers: the low or high half of the product, or the whole product
// at twice the width.
Value* int_multiply(IRBuilder<>& b, const std::string& mode, Value* x, Value* y, const ScalarType& ty) {
  if (mode == "lo") return b.CreateMul(x, y);
  Type* wide = b.getIntNTy(ty.bits * 2);
  Value* p = ty.is_signed ? b.CreateMul(b.CreateSExt(x, wide), b.CreateSExt(y, wide))
                          : b.CreateMul(b.CreateZExt(x, wide), b.CreateZExt(y, wide));
  if (mode == "wide") return p;
  return mode == "hi" ? b.CreateTrunc(b.CreateLShr(p, ty.bits), ty.t) : nullptr;
}

// add sub mul mad min max and or xor shl shr neg abs not.
bool arithmetic(IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  const std::string& o = in.op[0];
  const ScalarType ty = scalar_type(b, in.op.back());
  if (!ty.t) return false;
  const std::size_t last = in.op.size() - 1;
  const bool unary = o == "neg" || o == "abs" || o == "not", ternary = o == "mad";
  const bool logic = o == "and" || o == "or" || o == "xor" || o == "not";
  if (in.args.size() != (unary ? 2u : ternary ? 4u : 3u)) return false;
  if (logic && (ty.is_float || ty.is_signed || (in.op.back()[0] != 'b' && ty.bits != 1))) return false;
  if (!logic && ty.bits == 1) return false;
  if ((o == "shl" || o == "shr") && (ty.is_float || (o == "shl" && in.op.back()[0] != 'b'))) return false;
  std::string mode;  // mul / mad of integers: lo, hi or wide
  if (!ty.is_float && (o == "mul" || o == "mad")) {
    if (last != 2 || (in.op[1] != "lo" && in.op[1] != "hi" && in.op[1] != "wide")) return false;
    if (in.op[1] == "wide" && ty.bits > 32) return false;
    mode = in.op[1];
  } else if (!qualifiers_in(in, last, ty.is_float ? std::set<std::string>{"rn", "ftz"} : std::set<std::string>{})) {
    return false;
  }
  Type* result_t = mode == "wide" ? b.getIntNTy(ty.bits * 2) : ty.t;
  Value* x = ops.get(in.args[1], ty.t, ty.is_signed);
  Value* y = unary ? nullptr : ops.get(in.args[2], o == "shl" || o == "shr" ? b.getInt32Ty() : ty.t, ty.is_signed);
  Value* z = ternary ? ops.get(in.args[3], result_t, ty.is_signed) : nullptr;
  if (!x || (!unary && !y) || (ternary && !z)) return false;
  Value* r = nullptr;
  if (o == "add") r = ty.is_float ? b.CreateFAdd(x, y) : b.CreateAdd(x, y);
  else if (o == "sub") r = ty.is_float ? b.CreateFSub(x, y) : b.CreateSub(x, y);
  else if (o == "mul" && ty.is_float) r = b.CreateFMul(x, y);
  else if (o == "mad" && ty.is_float) r = intrinsic(b, Intrinsic::fma, {ty.t}, {x, y, z});
  else if (o == "mul" || o == "mad") r = int_multiply(b, mode, x, y, ty);
  else if (o == "min" || o == "max") {
    if (ty.is_float) r = intrinsic(b, o == "min" ? Intrinsic::minnum : Intrinsic::maxnum, {ty.t}, {x, y});
    else {
      Value* less = ty.is_signed ? b.CreateICmpSLT(x, y) : b.CreateICmpULT(x, y);
      r = o == "min" ? b.CreateSelect(less, x, y) : b.CreateSelect(less, y, x);
    }
  } else if (logic) r = o == "not" ? b.CreateNot(x) : combine(b, o, x, y);
  else if (o == "shl" || o == "shr") r = shift(b, o == "shl", x, y, ty);
  else if (o == "neg") r = ty.is_float ? b.CreateFNeg(x) : b.CreateNeg(x);
  else if (o == "abs") r = ty.is_float ? intrinsic(b, Intrinsic::fabs, {ty.t}, {x})
                                       : b.CreateSelect(b.CreateICmpSLT(x, ConstantInt::get(ty.t, 0)), b.CreateNeg(x), x);
  if (!r) return false;
  if (o == "mad" && !ty.is_float) r = b.CreateAdd(r, z);
  return ops.writable(in.args[0]) && ops.set(in.args[0], r, ty.is_signed);
}

// cvt[.rnd].D.S d, a.
bool cvt(IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  if (in.op.size() < 3 || in.op.size() > 4 || in.args.size() != 2) return false;
  const ScalarType to = scalar_type(b, in.op[in.op.size() - 2]), from = scalar_type(b, in.op.back());
  const std::string rnd = in.op.size() == 4 ? in.op[1] : "";
  if (!to.t || !from.t || to.bits == 1 || from.bits == 1) return false;
  Value* x = ops.get(in.args[1], from.t, from.is_signed);
  if (!x) return false;
  Value* r = nullptr;
  if (!to.is_float && !from.is_float && rnd.empty()) {
    r = ptx_fit(b, x, to.t, from.is_signed);
  } else if (to.is_float && !from.is_float && rnd == "rn") {
    r = from.is_signed ? b.CreateSIToFP(x, to.t) : b.CreateUIToFP(x, to.t);
  } else if (!to.is_float && from.is_float) {
    static const std::map<std::string, Intrinsic::ID> modes = {
        {"rzi", Intrinsic::trunc}, {"rni", Intrinsic::rint}, {"rmi", Intrinsic::floor}, {"rpi", Intrinsic::ceil}};
    if (!modes.count(rnd)) return false;
    Value* whole = intrinsic(b, modes.at(rnd), {from.t}, {x});
    r = intrinsic(b, to.is_signed ? Intrinsic::fptosi_sat : Intrinsic::fptoui_sat, {to.t, from.t}, {whole});
  } else if (to.is_float && from.is_float && to.bits > from.bits && rnd.empty()) {
    r = b.CreateFPExt(x, to.t);
  } else if (to.is_float && from.is_float && to.bits < from.bits && rnd == "rn") {
    r = b.CreateFPTrunc(x, to.t);
  }
  return r && ops.writable(in.args[0]) && ops.set(in.args[0], r, to.is_signed);
}

// cvta[.to].{shared,global}.{u32,u64} d, a.
bool cvta(IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  const std::size_t space = in.op.size() > 1 && in.op[1] == "to" ? 2 : 1;
  if (in.op.size() != space + 2 || (in.op[space] != "shared" && in.op[space] != "global") || in.args.size() != 2) return false;
  if (in.op.back() != "u32" && in.op.back() != "u64") return false;
  Value* v = ops.get(in.args[1], in.op.back() == "u32" ? b.getInt32Ty() : b.getInt64Ty());
  return v && ops.writable(in.args[0]) && ops.set(in.args[0], v);
}

// selp.T d, a, b, c: a when predicate c, else b.
bool selp(IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  const ScalarType ty = scalar_type(b, in.op.back());
  if (!ty.t || ty.bits == 1 || in.op.size() != 2 || in.args.size() != 4) return false;
  Value *x = ops.get(in.args[1], ty.t, ty.is_signed), *y = ops.get(in.args[2], ty.t, ty.is_signed);
  Value* c = predicate(b, ops, in.args[3]);
  return x && y && c && ops.writable(in.args[0]) && ops.set(in.args[0], b.CreateSelect(c, x, y), ty.is_signed);
}

}  // namespace

bool ptx_scalar(IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops, bool& known) {
  static const std::set<std::string> arith = {"add", "sub", "mul", "mad", "min", "max", "and",
                                              "or",  "xor", "not", "shl", "shr", "neg", "abs"};
  const std::string& o = in.op[0];
  known = o == "mov" || o == "setp" || o == "selp" || o == "cvt" || o == "cvta" || arith.count(o);
  if (!known || in.op.size() < 2 || in.args.empty() || in.args[0].empty() || in.args.back().empty()) return false;
  if (o == "mov") return mov(b, in, ops);
  if (o == "setp") return setp(b, in, ops);
  if (o == "selp") return selp(b, in, ops);
  if (o == "cvt") return cvt(b, in, ops);
  if (o == "cvta") return cvta(b, in, ops);
  return arithmetic(b, in, ops);
}

}  // namespace tgsim::pass
