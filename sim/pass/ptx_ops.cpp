// The PTX instructions the pass computes for an inline asm statement (ptx_asm.cpp), each as the
// PTX ISA defines it:
//   bfind.{u32,s32}, brev.b32, popc.b32, clz.b32;
//   lop3.b32 d, a, b, c, LUT (any 8-bit LUT as an immediate);
//   prmt.b32{,.f4e,.b4e,.rc8,.ecl,.ecr,.rc16} d, a, b, c (byte permute, sign replication);
//   shf.{l,r}.{wrap,clamp}.b32 d, a, b, c (funnel shift);
//   v{absdiff,add,sub,min,max}{2,4}.{u32,s32}.{u32,s32}.{u32,s32}.add d, a, b, c (SIMD lanes
//     reduced into c) and v{shl,shr}.{u32,s32}.{u32,s32}.u32.{clamp,wrap}{,.add,.min,.max};
//   {tanh,ex2,lg2,rcp,rsqrt,sqrt,sin,cos}.approx{,.ftz}.f32 (computed exactly);
//   ld / st with any cache, ordering and scope qualifiers on generic or .global addresses,
//     .v2/.v4, [addr] or [addr+imm]: one load or store of the vector's width, as the GPU makes,
//     instrumented and counted like any other (acquire, release, relaxed and volatile ones kept
//     volatile).
//   cp.async.{ca,cg}.shared.global [dst], [src], {4,8,16}[, src-size] (the shared address as
//     __cvta_generic_to_shared gives it), done at once; cp.async.{commit_group,wait_group,wait_all};
//   shfl.sync.{idx,up,down,bfly}.b32 as tgsim's warp shuffle;
//   and first the scalar instructions of ptx_scalar.cpp (mov, setp, selp, add, ...).
// An operand is $N, a block's local register (ptx_block.cpp) or an immediate.
// Anything else (operand selectors, .sat, other modes) is left to the caller's finding.
#include "internal.hpp"
#include "ptx_asm.hpp"

#include <array>
#include <cstring>

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <tgsim/kernel/abi.h>

using namespace llvm;

namespace tgsim::pass {

Value* ptx_fit(IRBuilder<>& b, Value* v, Type* t, bool is_signed) {
  Type* f = v->getType();
  if (f == t) return v;
  if (f->isIntegerTy() && t->isIntegerTy()) return is_signed ? b.CreateSExtOrTrunc(v, t) : b.CreateZExtOrTrunc(v, t);
  if (f->isPointerTy() && t->isIntegerTy()) return b.CreatePtrToInt(v, t);
  if (f->isIntegerTy() && t->isPointerTy()) return b.CreateIntToPtr(v, t);
  if (f->isPointerTy() && t->isPointerTy()) return b.CreatePointerCast(v, t);
  if (f->getPrimitiveSizeInBits() == t->getPrimitiveSizeInBits()) return b.CreateBitCast(v, t);
  if (t->isIntegerTy()) return ptx_fit(b, b.CreateBitCast(v, b.getIntNTy(f->getPrimitiveSizeInBits())), t, is_signed);
  return b.CreateBitCast(ptx_fit(b, v, b.getIntNTy(t->getPrimitiveSizeInBits()), is_signed), t);
}

PtxOperands::PtxOperands(CallInst& call, IRBuilder<>& builder) : ci(call), b(builder) {
  unsigned input = 0;
  for (const InlineAsm::ConstraintInfo& k : cast<InlineAsm>(ci.getCalledOperand())->ParseConstraints()) {
    if (k.Type == InlineAsm::isOutput) {
      if (k.isIndirect) ok = false;
      ++outputs;
    } else if (k.Type == InlineAsm::isInput) {
      const std::string& code = k.Codes.empty() ? std::string() : k.Codes[0];
      if (!code.empty() && isdigit(static_cast<unsigned char>(code[0]))) tied[std::stoul(code)] = ci.getArgOperand(input);
      ++input;
    }
  }
  results.assign(outputs, nullptr);
}

namespace {

// "$N" -> N, else -1.
int operand_number(const std::string& tok) {
  if (tok.size() < 2 || tok[0] != '$' || tok.find_first_not_of("0123456789", 1) != std::string::npos) return -1;
  return std::stoi(tok.substr(1));
}

Type* output_type(CallInst& ci, unsigned outputs, unsigned k) {
  return outputs == 1 ? ci.getType() : cast<StructType>(ci.getType())->getElementType(k);
}

}  // namespace

// A PTX float immediate: 0fXXXXXXXX (the float's bits), 0dXXXXXXXXXXXXXXXX (the double's), or a
// decimal; null for anything else.
static Value* float_immediate(const std::string& tok, Type* want) {
  char* end = nullptr;
  if (tok.size() == 10 && tok[0] == '0' && (tok[1] == 'f' || tok[1] == 'F')) {
    const unsigned long bits = std::strtoul(tok.c_str() + 2, &end, 16);
    if (*end != '\0') return nullptr;
    float x;
    const auto u = static_cast<std::uint32_t>(bits);
    std::memcpy(&x, &u, sizeof x);
    return ConstantFP::get(want, x);
  }
  if (tok.size() == 18 && tok[0] == '0' && (tok[1] == 'd' || tok[1] == 'D')) {
    const unsigned long long bits = std::strtoull(tok.c_str() + 2, &end, 16);
    if (*end != '\0') return nullptr;
    double x;
    std::memcpy(&x, &bits, sizeof x);
    return ConstantFP::get(want, x);
  }
  const double x = std::strtod(tok.c_str(), &end);
  return !tok.empty() && *end == '\0' ? ConstantFP::get(want, x) : nullptr;
}

Value* PtxOperands::get(const std::string& tok, Type* want, bool is_signed) {
  if (auto it = locals.find(tok); it != locals.end()) return ptx_fit(b, it->second, want, is_signed);
  if (want->isFloatingPointTy() && operand_number(tok) < 0) return float_immediate(tok, want);
  int n = operand_number(tok);
  if (n >= 0) {
    Value* v = nullptr;
    if (unsigned(n) < outputs) v = results[n] ? results[n] : (tied.count(n) ? tied[n] : nullptr);
    else if (unsigned(n) - outputs < ci.arg_size()) v = ci.getArgOperand(n - outputs);
    return v ? ptx_fit(b, v, want, is_signed) : nullptr;
  }
  if (tok.empty() || !want->isIntegerTy()) return nullptr;
  char* end = nullptr;
  const long long x = std::strtoll(tok.c_str(), &end, 0);
  return *end == '\0' ? ConstantInt::get(want, static_cast<std::uint64_t>(x)) : nullptr;
}

bool PtxOperands::writable(const std::string& tok) const {
  const int n = operand_number(tok);
  return locals.count(tok) || (n >= 0 && unsigned(n) < outputs);
}

void PtxOperands::start_block() {
  for (unsigned k = 0; k < outputs; ++k)
    results[k] = tied.count(k) ? ptx_fit(b, tied[k], output_type(ci, outputs, k), false)
                               : Constant::getNullValue(output_type(ci, outputs, k));
}

bool PtxOperands::set(const std::string& tok, Value* v, bool is_signed) {
  if (auto it = locals.find(tok); it != locals.end() && v) {
    it->second = ptx_fit(b, v, it->second->getType(), is_signed);
    return true;
  }
  int n = operand_number(tok);
  if (n < 0 || unsigned(n) >= outputs || !v) return false;
  results[n] = ptx_fit(b, v, output_type(ci, outputs, n), is_signed);
  return true;
}

Value* PtxOperands::result() {
  if (outputs == 0) return nullptr;
  for (unsigned k = 0; k < outputs; ++k)
    if (!results[k]) results[k] = tied.count(k) ? ptx_fit(b, tied[k], output_type(ci, outputs, k), false)
                                                : UndefValue::get(output_type(ci, outputs, k));
  if (outputs == 1) return results[0];
  Value* s = UndefValue::get(ci.getType());
  for (unsigned k = 0; k < outputs; ++k) s = b.CreateInsertValue(s, results[k], {k});
  return s;
}

namespace {

Value* intrinsic(IRBuilder<>& b, Intrinsic::ID id, Type* t, ArrayRef<Value*> args) {
  return b.CreateCall(Intrinsic::getDeclaration(b.GetInsertBlock()->getModule(), id, {t}), args);
}

// bfind, brev, popc, clz (32-bit): d, a.
bool bits(IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  const std::string& o = in.op[0];
  if (in.args.size() != 2 || in.op.size() != 2 || (o != "bfind" && o != "brev" && o != "popc" && o != "clz")) return false;
  if (in.op[1] != "b32" && in.op[1] != "u32" && in.op[1] != "s32") return false;
  Value* x = ops.get(in.args[1], b.getInt32Ty());
  if (!x) return false;
  Value* r;
  if (o == "bfind") {
    // s32: the highest bit that differs from the sign bit; 0xffffffff for none.
    Value* v = in.op[1] == "s32" ? b.CreateXor(x, b.CreateAShr(x, 31)) : x;
    Value* clz = intrinsic(b, Intrinsic::ctlz, b.getInt32Ty(), {v, b.getTrue()});
    r = b.CreateSelect(b.CreateICmpEQ(v, b.getInt32(0)), b.getInt32(-1), b.CreateSub(b.getInt32(31), clz));
  } else if (o == "brev") {
    r = intrinsic(b, Intrinsic::bitreverse, b.getInt32Ty(), {x});
  } else if (o == "popc") {
    r = intrinsic(b, Intrinsic::ctpop, b.getInt32Ty(), {x});
  } else {
    r = intrinsic(b, Intrinsic::ctlz, b.getInt32Ty(), {x, b.getFalse()});
  }
  return ops.set(in.args[0], r);
}

// lop3.b32 d, a, b, c, LUT: bit i of the LUT is the result for a = i & 4, b = i & 2, c = i & 1
// (LUT = F(0xf0, 0xcc, 0xaa)).
bool lop3(IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  if (in.op.size() != 2 || in.op[1] != "b32" || in.args.size() != 5) return false;
  Type* t = b.getInt32Ty();
  Value *x = ops.get(in.args[1], t), *y = ops.get(in.args[2], t), *z = ops.get(in.args[3], t);
  auto* lut = dyn_cast_or_null<ConstantInt>(ops.get(in.args[4], t));
  if (!x || !y || !z || !lut) return false;
  Value* r = b.getInt32(0);
  for (unsigned i = 0; i < 8; ++i) {
    if (!((lut->getZExtValue() >> i) & 1)) continue;
    Value* term = b.CreateAnd(b.CreateAnd(i & 4 ? x : b.CreateNot(x), i & 2 ? y : b.CreateNot(y)), i & 1 ? z : b.CreateNot(z));
    r = b.CreateOr(r, term);
  }
  return ops.set(in.args[0], r);
}

// prmt.b32{.mode} d, a, b, c: the bytes of {b, a} (a bytes 0-3, b bytes 4-7) picked per result
// byte by a selector nibble of c (bit 3: replicate the picked byte's sign); the modes pick by
// c & 3 from the PTX ISA's tables (selectors of d.b3..d.b0, as nibbles).
bool prmt(IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  static const std::map<std::string, std::array<unsigned, 4>> modes = {
      {"f4e", {0x3210, 0x4321, 0x5432, 0x6543}}, {"b4e", {0x5670, 0x6701, 0x7012, 0x0123}},
      {"rc8", {0x0000, 0x1111, 0x2222, 0x3333}}, {"ecl", {0x3210, 0x3211, 0x3222, 0x3333}},
      {"ecr", {0x0000, 0x1110, 0x2210, 0x3210}}, {"rc16", {0x1010, 0x3232, 0x1010, 0x3232}}};
  if (in.op.size() < 2 || in.op.size() > 3 || in.op[1] != "b32" || in.args.size() != 4) return false;
  if (in.op.size() == 3 && !modes.count(in.op[2])) return false;
  Type* t = b.getInt32Ty();
  Value *x = ops.get(in.args[1], t), *y = ops.get(in.args[2], t), *sel = ops.get(in.args[3], t);
  if (!x || !y || !sel) return false;
  if (in.op.size() == 3) {
    const std::array<unsigned, 4>& m = modes.at(in.op[2]);
    Value* k = b.CreateAnd(sel, 3);
    Value* s = b.getInt32(m[3]);
    for (unsigned i = 0; i < 3; ++i) s = b.CreateSelect(b.CreateICmpEQ(k, b.getInt32(i)), b.getInt32(m[i]), s);
    sel = s;
  }
  Type* w = b.getInt64Ty();
  Value* both = b.CreateOr(b.CreateShl(b.CreateZExt(y, w), 32), b.CreateZExt(x, w));
  Value* r = b.getInt32(0);
  for (unsigned i = 0; i < 4; ++i) {
    Value* nib = b.CreateLShr(sel, 4 * i);
    Value* shift = b.CreateZExt(b.CreateShl(b.CreateAnd(nib, 7), 3), w);
    Value* byte = b.CreateTrunc(b.CreateAnd(b.CreateLShr(both, shift), 0xff), t);
    Value* sign = b.CreateICmpNE(b.CreateAnd(nib, 8), b.getInt32(0));
    Value* fill = b.CreateSelect(b.CreateICmpNE(b.CreateAnd(byte, 0x80), b.getInt32(0)), b.getInt32(0xff), b.getInt32(0));
    r = b.CreateOr(r, b.CreateShl(b.CreateSelect(sign, fill, byte), 8 * i));
  }
  return ops.set(in.args[0], r);
}

// shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: the 64-bit {b, a} shifted by c (c & 31 under wrap,
// min(c, 32) under clamp), its upper (l) or lower (r) 32 bits.
bool shf(IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  if (in.op.size() != 4 || in.op[3] != "b32" || in.args.size() != 4) return false;
  const bool left = in.op[1] == "l", clamp = in.op[2] == "clamp";
  if ((!left && in.op[1] != "r") || (!clamp && in.op[2] != "wrap")) return false;
  Type* t = b.getInt32Ty();
  Value *lo = ops.get(in.args[1], t), *hi = ops.get(in.args[2], t), *n = ops.get(in.args[3], t);
  if (!lo || !hi || !n) return false;
  Value* r = intrinsic(b, left ? Intrinsic::fshl : Intrinsic::fshr, t, {hi, lo, n});
  if (clamp) r = b.CreateSelect(b.CreateICmpUGE(n, b.getInt32(32)), left ? lo : hi, r);
  return ops.set(in.args[0], r);
}

// v{absdiff,add,sub,min,max}{2,4}.dtype.atype.btype.add d, a, b, c: each 8-bit (4) or 16-bit
// (2) lane of a and b, signed or not by its type, combined; the lanes' sum added to c.
bool video_simd(IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  const std::string& o = in.op[0];
  const unsigned lanes = o.back() == '4' ? 4 : o.back() == '2' ? 2 : 0;
  const std::string base = lanes ? o.substr(0, o.size() - 1) : o;
  if (!lanes || in.op.size() != 5 || in.op[4] != "add" || in.args.size() != 4) return false;
  if (base != "vabsdiff" && base != "vadd" && base != "vsub" && base != "vmin" && base != "vmax") return false;
  for (unsigned i = 1; i < 4; ++i)
    if (in.op[i] != "u32" && in.op[i] != "s32") return false;
  Type* t = b.getInt32Ty();
  Value *x = ops.get(in.args[1], t), *y = ops.get(in.args[2], t), *acc = ops.get(in.args[3], t);
  if (!x || !y || !acc) return false;
  const unsigned width = 32 / lanes;
  Type* lane_t = b.getIntNTy(width);
  auto lane = [&](Value* v, unsigned i, bool is_signed) {
    Value* l = b.CreateTrunc(b.CreateLShr(v, i * width), lane_t);
    return is_signed ? b.CreateSExt(l, t) : b.CreateZExt(l, t);
  };
  for (unsigned i = 0; i < lanes; ++i) {
    Value *p = lane(x, i, in.op[2] == "s32"), *q = lane(y, i, in.op[3] == "s32"), *r;
    if (base == "vabsdiff") r = b.CreateSelect(b.CreateICmpSGT(p, q), b.CreateSub(p, q), b.CreateSub(q, p));
    else if (base == "vadd") r = b.CreateAdd(p, q);
    else if (base == "vsub") r = b.CreateSub(p, q);
    else if (base == "vmin") r = b.CreateSelect(b.CreateICmpSLT(p, q), p, q);
    else r = b.CreateSelect(b.CreateICmpSGT(p, q), p, q);
    acc = b.CreateAdd(acc, r);
  }
  return ops.set(in.args[0], acc);
}

// v{shl,shr}.dtype.atype.u32.{clamp,wrap}{.add,.min,.max} d, a, b{, c}: a shifted by b (at
// most 32 under clamp, b & 31 under wrap; shr of an s32 keeps the sign), then the secondary
// operation with c.
bool video_shift(IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  const bool left = in.op[0] == "vshl";
  if ((!left && in.op[0] != "vshr") || in.op.size() < 5 || in.op.size() > 6) return false;
  const std::string second = in.op.size() == 6 ? in.op[5] : "";
  if (in.op[4] != "clamp" && in.op[4] != "wrap") return false;
  if (!second.empty() && second != "add" && second != "min" && second != "max") return false;
  if ((in.op[1] != "u32" && in.op[1] != "s32") || (in.op[2] != "u32" && in.op[2] != "s32") || in.op[3] != "u32") return false;
  if (in.args.size() != (second.empty() ? 3u : 4u)) return false;
  Type *t = b.getInt32Ty(), *w = b.getInt64Ty();
  Value *x = ops.get(in.args[1], t), *n = ops.get(in.args[2], t), *c = second.empty() ? nullptr : ops.get(in.args[3], t);
  if (!x || !n || (!second.empty() && !c)) return false;
  n = in.op[4] == "wrap" ? b.CreateAnd(n, 31)
                          : b.CreateSelect(b.CreateICmpUGT(n, b.getInt32(32)), b.getInt32(32), n);
  Value* wide = in.op[2] == "s32" ? b.CreateSExt(x, w) : b.CreateZExt(x, w);
  Value* nw = b.CreateZExt(n, w);
  Value* r = b.CreateTrunc(left ? b.CreateShl(wide, nw) : in.op[2] == "s32" ? b.CreateAShr(wide, nw) : b.CreateLShr(wide, nw), t);
  const bool is_signed = in.op[1] == "s32";
  if (second == "add") r = b.CreateAdd(r, c);
  if (second == "min") r = b.CreateSelect(is_signed ? b.CreateICmpSLT(r, c) : b.CreateICmpULT(r, c), r, c);
  if (second == "max") r = b.CreateSelect(is_signed ? b.CreateICmpSGT(r, c) : b.CreateICmpUGT(r, c), r, c);
  return ops.set(in.args[0], r);
}

// {tanh,ex2,lg2,rcp,rsqrt,sqrt,sin,cos}.approx{.ftz}.f32 d, a (rcp and sqrt also .rn): computed
// to float precision, which is within the approximations' documented error.
bool approx_math(IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  const std::string& o = in.op[0];
  if (in.op.back() != "f32" || in.args.size() != 2 || !(in.has("approx") || (in.has("rn") && (o == "rcp" || o == "sqrt"))))
    return false;
  Type* f = b.getFloatTy();
  Value* x = ops.get(in.args[1], f);
  if (!x) return false;
  Value* r;
  if (o == "ex2") r = intrinsic(b, Intrinsic::exp2, f, {x});
  else if (o == "lg2") r = intrinsic(b, Intrinsic::log2, f, {x});
  else if (o == "sqrt") r = intrinsic(b, Intrinsic::sqrt, f, {x});
  else if (o == "sin") r = intrinsic(b, Intrinsic::sin, f, {x});
  else if (o == "cos") r = intrinsic(b, Intrinsic::cos, f, {x});
  else if (o == "rcp") r = b.CreateFDiv(ConstantFP::get(f, 1.0), x);
  else if (o == "rsqrt") r = b.CreateFDiv(ConstantFP::get(f, 1.0), intrinsic(b, Intrinsic::sqrt, f, {x}));
  else if (o == "tanh") r = b.CreateCall(b.GetInsertBlock()->getModule()->getOrInsertFunction("tanhf", f, f), {x});
  else return false;
  return ops.set(in.args[0], r);
}

// The element type of a load or store's type qualifier (b8..b64, u, s, f32, f64); null if none.
Type* element_type(IRBuilder<>& b, const std::string& q, bool& is_signed) {
  if (q.size() < 2 || (q[0] != 'b' && q[0] != 'u' && q[0] != 's' && q[0] != 'f')) return nullptr;
  const std::string bits = q.substr(1);
  if (bits != "8" && bits != "16" && bits != "32" && bits != "64") return nullptr;
  is_signed = q[0] == 's';
  if (q == "f32") return b.getFloatTy();
  if (q == "f64") return b.getDoubleTy();
  return q[0] == 'f' ? nullptr : b.getIntNTy(std::stoi(bits));
}

// "[$N]" or "[$N+imm]": the address as an i8*.
Value* address(IRBuilder<>& b, PtxOperands& ops, const std::string& tok) {
  if (tok.size() < 3 || tok.front() != '[' || tok.back() != ']') return nullptr;
  const std::string in = tok.substr(1, tok.size() - 2);
  const std::size_t plus = in.find_first_of("+-", 1);
  Value* p = ops.get(in.substr(0, plus), b.getInt8PtrTy());
  if (!p || plus == std::string::npos) return p;
  char* end = nullptr;
  const long long off = std::strtoll(in.c_str() + plus, &end, 0);
  return *end == '\0' ? b.CreateGEP(b.getInt8Ty(), p, b.getInt64(static_cast<std::uint64_t>(off))) : nullptr;
}

}  // namespace

std::vector<std::string> ptx_registers(const std::string& tok) {
  std::vector<std::string> r;
  std::string s = tok.size() > 1 && tok.front() == '{' && tok.back() == '}' ? tok.substr(1, tok.size() - 2) : tok;
  for (std::size_t p = 0, q; p <= s.size(); p = q + 1) {
    q = s.find(',', p);
    if (q == std::string::npos) q = s.size();
    r.push_back(s.substr(p, q - p));
  }
  return r;
}

namespace {

// ld / st on a generic or .global address: one access of the whole vector.
bool load_store(IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  const bool load = in.op[0] == "ld";
  if ((!load && in.op[0] != "st") || in.args.size() != 2) return false;
  for (const char* space : {"shared", "const", "local", "param", "tex"})
    if (in.has(space)) return false;
  bool is_signed = false;
  Type* e = element_type(b, in.op.back(), is_signed);
  const unsigned n = in.has("v4") ? 4 : in.has("v2") ? 2 : 1;
  const std::vector<std::string> regs = ptx_registers(in.args[load ? 0 : 1]);
  if (!e || regs.size() != n) return false;
  Value* at = address(b, ops, in.args[load ? 1 : 0]);
  if (!at) return false;
  Type* t = n == 1 ? e : static_cast<Type*>(FixedVectorType::get(e, n));
  Value* p = b.CreatePointerCast(at, PointerType::getUnqual(t));
  const Align align(e->getPrimitiveSizeInBits() / 8 * n);
  const bool ordered = in.has("volatile") || in.has("relaxed") || in.has("acquire") || in.has("release");
  if (load) {
    for (const std::string& r : regs)
      if (!ops.writable(r)) return false;
    Value* v = b.CreateAlignedLoad(t, p, align, ordered);
    for (unsigned i = 0; i < n; ++i) ops.set(regs[i], n == 1 ? v : b.CreateExtractElement(v, i), is_signed);
    return true;
  }
  Value* v = n == 1 ? nullptr : UndefValue::get(t);
  for (unsigned i = 0; i < n; ++i) {
    Value* x = ops.get(regs[i], e, is_signed);
    if (!x) return false;
    v = n == 1 ? x : b.CreateInsertElement(v, x, i);
  }
  b.CreateAlignedStore(v, p, align, ordered);
  return true;
}

// A .shared address "[$N]" or "[$N+off]": a shared-window address as __cvta_generic_to_shared
// gives it (the generic address, of which a 32-bit register keeps the low half), back to a
// pointer into the group's arena: arena + ((address - arena) mod 2^32).
Value* shared_address(Context& c, IRBuilder<>& b, PtxOperands& ops, const std::string& tok) {
  if (tok.size() < 3 || tok.front() != '[' || tok.back() != ']') return nullptr;
  const std::string in = tok.substr(1, tok.size() - 2);
  const std::size_t plus = in.find_first_of("+-", 1);
  Value* low = ops.get(in.substr(0, plus), c.i32);
  if (!low) return nullptr;
  Value* arena = c.entry(*b.GetInsertBlock()->getParent()).shared;
  Value* arena_low = b.CreateTrunc(b.CreatePtrToInt(arena, c.i64), c.i32);
  Value* p = b.CreateGEP(c.i8, arena, b.CreateZExt(b.CreateSub(low, arena_low), c.i64));
  if (plus == std::string::npos) return p;
  char* end = nullptr;
  const long long off = std::strtoll(in.c_str() + plus, &end, 0);
  return *end == '\0' ? b.CreateGEP(c.i8, p, b.getInt64(static_cast<std::uint64_t>(off))) : nullptr;
}

// cp.async.{ca,cg}.shared.global [dst], [src], cp-size[, src-size]: done at once (a later
// wait_group would see it; reading it before is the program's race), one load and one store of
// cp-size bytes, or, when src-size is smaller, src-size bytes copied and the rest zero-filled
// (a memset and a memcpy: the lanes that copy less are counted as a second instruction).
// commit_group, wait_group and wait_all: nothing left to wait for.
bool cp_async(Context& c, IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  if (in.op.size() >= 3 && (in.op[2] == "commit_group" || in.op[2] == "wait_group" || in.op[2] == "wait_all"))
    return true;
  if (in.op.size() < 5 || (in.op[2] != "ca" && in.op[2] != "cg") || in.op[3] != "shared" || in.op[4] != "global" ||
      in.args.size() < 3 || in.args.size() > 4)
    return false;
  Value* dst = shared_address(c, b, ops, in.args[0]);
  Value* src = address(b, ops, in.args[1]);
  auto* size = dyn_cast_or_null<ConstantInt>(ops.get(in.args[2], c.i64));
  if (!dst || !src || !size || (size->getZExtValue() != 4 && size->getZExtValue() != 8 && size->getZExtValue() != 16))
    return false;
  const unsigned bytes = static_cast<unsigned>(size->getZExtValue());
  Type* t = bytes == 16 ? static_cast<Type*>(FixedVectorType::get(c.i32, 4)) : b.getIntNTy(bytes * 8);
  auto whole = [&](IRBuilder<>& at) {
    Value* v = at.CreateAlignedLoad(t, at.CreatePointerCast(src, PointerType::getUnqual(t)), Align(bytes));
    at.CreateAlignedStore(v, at.CreatePointerCast(dst, PointerType::getUnqual(t)), Align(bytes));
  };
  if (in.args.size() == 3) {
    whole(b);
    return true;
  }
  Value* given = ops.get(in.args[3], c.i64);
  if (!given) return false;
  Instruction* then_at = nullptr;
  Instruction* else_at = nullptr;
  SplitBlockAndInsertIfThenElse(b.CreateICmpUGE(given, size), &*b.GetInsertPoint(), &then_at, &else_at);
  IRBuilder<> full(then_at), part(else_at);
  whole(full);
  part.CreateMemSet(dst, part.getInt8(0), bytes, MaybeAlign(bytes));
  part.CreateMemCpy(dst, MaybeAlign(1), src, MaybeAlign(1), given);
  b.SetInsertPoint(&*b.GetInsertPoint());
  return true;
}

// shfl.sync.{idx,up,down,bfly}.b32 d, a, b, c, membermask: the warp shuffle of __shfl_sync and
// the others (abi.h's collective), the segment width from c's upper field: 32 - (c >> 8).
bool shuffle(Context& c, IRBuilder<>& b, const PtxInstr& in, PtxOperands& ops) {
  static const std::map<std::string, int> modes = {
      {"idx", TGSIM_SHFL_IDX}, {"up", TGSIM_SHFL_UP}, {"down", TGSIM_SHFL_DOWN}, {"bfly", TGSIM_SHFL_XOR}};
  if (in.op.size() != 4 || in.op[1] != "sync" || !modes.count(in.op[2]) || in.op[3] != "b32" || in.args.size() != 5 ||
      !ops.writable(in.args[0]))
    return false;
  Value *x = ops.get(in.args[1], c.i32), *arg = ops.get(in.args[2], c.i32), *clamp = ops.get(in.args[3], c.i32);
  Value* mask = ops.get(in.args[4], c.i32);
  if (!x || !arg || !clamp || !mask) return false;
  FunctionCallee f = c.m.getOrInsertFunction("__tgsim_collective", c.i64, c.i8p, c.i32, c.i32, c.i32, c.i64, c.i32, c.i32);
  Value* width = b.CreateSub(b.getInt32(32), b.CreateLShr(clamp, 8));
  Value* site = ConstantExpr::getPointerCast(c.site(ops.ci), c.i8p);
  Value* r = b.CreateCall(f, {site, b.getInt32(modes.at(in.op[2])), b.getInt32(TGSIM_U32), mask, b.CreateZExt(x, c.i64), arg, width});
  return ops.set(in.args[0], b.CreateTrunc(r, c.i32));
}

}  // namespace

bool ptx_compute(Context& c, const PtxInstr& in, PtxOperands& ops) {
  IRBuilder<>& b = ops.b;
  const std::string& o = in.op[0];
  bool known = false;
  const bool done = ptx_scalar(b, in, ops, known);
  if (known) return done;
  if (o == "lop3") return lop3(b, in, ops);
  if (o == "prmt") return prmt(b, in, ops);
  if (o == "shf") return shf(b, in, ops);
  if (o == "vshl" || o == "vshr") return video_shift(b, in, ops);
  if (o.size() > 1 && o[0] == 'v' && (o.back() == '2' || o.back() == '4')) return video_simd(b, in, ops);
  if (o == "ld" || o == "st") return load_store(b, in, ops);
  if (o == "shfl") return shuffle(c, b, in, ops);
  if (o == "cp" && in.op.size() > 1 && in.op[1] == "async") return cp_async(c, b, in, ops);
  if (in.has("approx") || in.has("rn")) return approx_math(b, in, ops);
  return bits(b, in, ops);
}

}  // namespace tgsim::pass
