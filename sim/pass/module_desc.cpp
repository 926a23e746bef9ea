// The module's descriptor (tgsim_module_desc in abi.h) and the constructor that registers it:
// each kernel with its name, parameters, a trampoline that calls it from an array of argument
// pointers (how `tgsim run FILE` passes its ARGs), and its static shared bytes; the __device__
// and __constant__ variables device code uses; the shared layout. And each kernel's host entry:
// called from host code after a `<<<...>>>` configuration (the front end's rewrite), the kernel
// launches itself with its own arguments, as nvcc's host stub does.
#include "internal.hpp"

#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <tgsim/kernel/abi.h>

using namespace llvm;

namespace tgsim::pass {

namespace {

// The demangled name; for a function without its parameters and return type:
// "void matmul_tiled<16>(float const*, int)" -> "matmul_tiled<16>".
std::string demangled(StringRef mangled, bool function) {
  std::string full = llvm::demangle(mangled.str());
  if (!function || full.empty() || full.back() != ')') return full;
  int depth = 0;
  std::size_t open = std::string::npos;
  for (std::size_t i = full.size(); i-- > 0;) {
    if (full[i] == ')') ++depth;
    else if (full[i] == '(' && --depth == 0) {
      open = i;
      break;
    }
  }
  if (open == std::string::npos) return full;
  std::string name = full.substr(0, open);
  int angle = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == '>') ++angle;
    else if (name[i] == '<') --angle;
    else if (name[i] == ' ' && angle == 0) return name.substr(i + 1);
  }
  return name;
}

std::string type_name(const DataLayout& dl, const Argument& a) {
  Type* t = a.getType();
  if (a.hasByValAttr()) return "agg";
  if (t->isPointerTy()) return "ptr";
  if (t->isFloatTy()) return "f32";
  if (t->isDoubleTy()) return "f64";
  if (t->isIntegerTy()) return "i" + std::to_string(dl.getTypeSizeInBits(t).getFixedSize());
  return "agg";
}

// A parameter's C type from the debug info ("const float *"), or "" without it.
std::string c_type(const DIType* t) {
  if (!t) return "void";
  if (auto* d = dyn_cast<DIDerivedType>(t)) {
    switch (d->getTag()) {
      case dwarf::DW_TAG_const_type: return "const " + c_type(d->getBaseType());
      case dwarf::DW_TAG_volatile_type: return "volatile " + c_type(d->getBaseType());
      case dwarf::DW_TAG_restrict_type: return c_type(d->getBaseType()) + " __restrict__";
      case dwarf::DW_TAG_pointer_type: return c_type(d->getBaseType()) + "*";
      case dwarf::DW_TAG_reference_type: return c_type(d->getBaseType()) + "&";
      default: if (!d->getName().empty()) return d->getName().str(); return c_type(d->getBaseType());
    }
  }
  return t->getName().str();
}
// Parameter names from the debug info's variables (numbered as the C parameters), where -g kept them.
std::vector<std::string> param_names(Function& f, unsigned n) {
  std::vector<std::string> names(n);
  for (Instruction& i : instructions(f))
    if (auto* dv = dyn_cast<DbgVariableIntrinsic>(&i))
      if (DILocalVariable* v = dv->getVariable(); v && v->getArg() > 0 && v->getArg() <= names.size() &&
                                                  v->getScope()->getSubprogram() == f.getSubprogram())
        names[v->getArg() - 1] = v->getName().str();
  return names;
}

// One C parameter and the IR arguments Clang lowered it to (x86-64 System V): a struct passed by
// value is one byval pointer (in memory; over 16 bytes without byval: a pointer to a copy), one
// or two eightbytes coerced to scalars (in registers, the j-th at offset 8j), or none (empty);
// anything else is one argument. Without debug info, or where the counts do not add up: one per
// IR argument, as the pass sees them.
struct CParam {
  unsigned first = 0, count = 1;  // its IR arguments
  bool by_value = false;          // a struct: args[i] points at its bytes
  std::uint64_t bytes = 0;
  std::string c_type, name;
  std::string fields;  // a struct's (struct_fields)
};

const DIType* without_qualifiers(const DIType* t) {
  while (auto* d = dyn_cast_or_null<DIDerivedType>(t)) {
    const auto tag = d->getTag();
    if (tag != dwarf::DW_TAG_typedef && tag != dwarf::DW_TAG_const_type && tag != dwarf::DW_TAG_volatile_type) break;
    t = d->getBaseType();
  }
  return t;
}

std::vector<CParam> c_params(const DataLayout& dl, Function& k) {
  const unsigned nargs = k.arg_size();
  DISubprogram* sp = k.getSubprogram();
  const unsigned ncs = sp && sp->getType() && sp->getType()->getTypeArray().size() > 0
                           ? sp->getType()->getTypeArray().size() - 1  // [0]: the return type
                           : 0;
  std::vector<CParam> out;
  const std::vector<std::string> names = param_names(k, std::max(ncs, nargs));
  unsigned j = 0;
  for (unsigned i = 0; i < ncs; ++i) {
    const DIType* t = sp->getType()->getTypeArray()[i + 1];
    CParam p{j, 1, false, 0, c_type(t), names[i]};
    auto* s = dyn_cast_or_null<DICompositeType>(without_qualifiers(t));
    if (s && (s->getTag() == dwarf::DW_TAG_structure_type || s->getTag() == dwarf::DW_TAG_class_type ||
              s->getTag() == dwarf::DW_TAG_union_type)) {
      p.by_value = true;
      p.bytes = s->getSizeInBits() / 8;
      p.fields = struct_fields(t);
      const bool byval = j < nargs && k.getArg(j)->hasByValAttr();
      p.count = byval || p.bytes > 16 ? 1 : s->getElements().empty() ? 0 : p.bytes <= 8 ? 1 : 2;
    } else if (j < nargs) {
      p.bytes = dl.getTypeAllocSize(k.getArg(j)->getType());
    }
    j += p.count;
    out.push_back(p);
  }
  if (ncs > 0 && j == nargs) return out;
  out.assign(nargs, CParam{});
  for (unsigned i = 0; i < nargs; ++i) {
    out[i].first = i;
    out[i].name = names[i];
    out[i].bytes = dl.getTypeAllocSize(k.getArg(i)->getType());
  }
  return out;
}

// Calls the kernel with the values args[i] point at, one per C parameter (cudaLaunchKernel's
// convention): a struct's eightbytes loaded from its bytes, a struct in memory by its address.
Function* trampoline(Context& c, Function& k, const std::vector<CParam>& cps) {
  Type* i8pp = c.i8p->getPointerTo();
  auto* ty = FunctionType::get(Type::getVoidTy(c.ctx), {i8pp}, false);
  Function* t = Function::Create(ty, GlobalValue::InternalLinkage, "tgsim.tramp." + k.getName(), c.m);
  IRBuilder<> b(BasicBlock::Create(c.ctx, "", t));
  std::vector<Value*> args;
  for (unsigned i = 0; i < cps.size(); ++i) {
    const CParam& cp = cps[i];
    Value* p = b.CreateLoad(c.i8p, b.CreateConstInBoundsGEP1_64(c.i8p, t->getArg(0), i));
    for (unsigned j = 0; j < cp.count; ++j) {
      Argument& a = *k.getArg(cp.first + j);
      if (a.hasByValAttr() || (cp.by_value && cp.bytes > 16)) {
        args.push_back(b.CreateBitCast(p, a.getType()));
      } else if (cp.by_value) {
        Value* at = b.CreateConstInBoundsGEP1_64(c.i8, p, 8 * j);
        args.push_back(b.CreateAlignedLoad(a.getType(), b.CreateBitCast(at, a.getType()->getPointerTo()), Align(1)));
      } else {
        args.push_back(b.CreateLoad(a.getType(), b.CreateBitCast(p, a.getType()->getPointerTo())));
      }
    }
  }
  CallInst* call = b.CreateCall(&k, args);
  call->setAttributes(k.getAttributes());
  b.CreateRetVoid();
  return t;
}

// The inverse of the trampoline, at the kernel's entry: when the host thread has a launch
// configuration pending (`k<<<grid, block>>>(args)` became `(push_launch(grid, block), k(args))`),
// the call spills its arguments, one pointer per C parameter, and launches the kernel with them
// instead of running its body. C++ chose the function: templates deduced from the arguments,
// overloads, default arguments and conversions are as the compiler resolved the call. A thread
// of a launch (a fiber) never has a configuration pending: it runs the body. The entry block's
// static allocas move to the new entry, so they stay static (SROA after the pass needs them).
void add_host_entry(Context& c, Function& k, const std::vector<CParam>& cps) {
  if (!k.getReturnType()->isVoidTy() || k.isDeclaration()) return;
  BasicBlock& body = k.getEntryBlock();
  BasicBlock* entry = BasicBlock::Create(c.ctx, "tgsim.host_check", &k, &body);
  BasicBlock* launch = BasicBlock::Create(c.ctx, "tgsim.host_launch", &k, &body);
  IRBuilder<> b(entry);
  for (Instruction& i : make_early_inc_range(body))
    if (auto* a = dyn_cast<AllocaInst>(&i); a && isa<Constant>(a->getArraySize())) a->moveBefore(*entry, entry->end());
  DILocation* loc = nullptr;
  if (DISubprogram* sp = k.getSubprogram()) loc = DILocation::get(c.ctx, sp->getScopeLine(), 0, sp);
  auto* arr_ty = ArrayType::get(c.i8p, std::max<std::size_t>(cps.size(), 1));
  AllocaInst* arr = b.CreateAlloca(arr_ty, nullptr, "tgsim.host_args");
  std::vector<Value*> spilled;
  for (const CParam& cp : cps) {
    const bool in_memory = cp.count == 1 && (k.getArg(cp.first)->hasByValAttr() || (cp.by_value && cp.bytes > 16));
    if (in_memory) {
      spilled.push_back(b.CreateBitCast(k.getArg(cp.first), c.i8p));
      continue;
    }
    const std::uint64_t bytes = std::max<std::uint64_t>(cp.by_value ? (cp.bytes + 15) / 16 * 16 : 0, 16);
    AllocaInst* slot = b.CreateAlloca(ArrayType::get(c.i8, bytes));
    slot->setAlignment(Align(16));
    spilled.push_back(b.CreateBitCast(slot, c.i8p));
  }
  FunctionCallee pending = c.m.getOrInsertFunction("__tgsim_host_call_pending", c.i32);
  CallInst* is_host = b.CreateCall(pending, {});
  if (loc) is_host->setDebugLoc(loc);
  b.CreateCondBr(b.CreateICmpNE(is_host, ConstantInt::get(c.i32, 0)), launch, &body);
  b.SetInsertPoint(launch);
  for (std::size_t i = 0; i < cps.size(); ++i) {
    const CParam& cp = cps[i];
    Value* p = spilled[i];
    const bool in_memory = cp.count == 1 && (k.getArg(cp.first)->hasByValAttr() || (cp.by_value && cp.bytes > 16));
    for (unsigned j = 0; !in_memory && j < cp.count; ++j) {
      Argument& a = *k.getArg(cp.first + j);
      Value* at = b.CreateConstInBoundsGEP1_64(c.i8, p, cp.by_value ? 8 * j : 0);
      b.CreateAlignedStore(&a, b.CreateBitCast(at, a.getType()->getPointerTo()), Align(1));
    }
    b.CreateStore(p, b.CreateConstInBoundsGEP2_32(arr_ty, arr, 0, i));
  }
  FunctionCallee host_launch = c.m.getOrInsertFunction("__tgsim_host_call_launch", Type::getVoidTy(c.ctx), c.i8p,
                                                        c.i8p->getPointerTo());
  CallInst* call = b.CreateCall(host_launch, {ConstantExpr::getPointerCast(&k, c.i8p),
                                              b.CreateConstInBoundsGEP2_32(arr_ty, arr, 0, 0)});
  if (loc) call->setDebugLoc(loc);
  b.CreateRetVoid();
}

GlobalVariable* array_of(Context& c, StructType* ty, const std::vector<Constant*>& items, const char* name) {
  auto* at = ArrayType::get(ty, items.size());
  return new GlobalVariable(c.m, at, true, GlobalValue::PrivateLinkage, ConstantArray::get(at, items), name);
}

Constant* first(Context& c, GlobalVariable* arr, StructType* ty) {
  if (!arr) return ConstantPointerNull::get(ty->getPointerTo());
  Constant* zero = ConstantInt::get(c.i32, 0);
  return ConstantExpr::getInBoundsGetElementPtr(arr->getValueType(), arr, ArrayRef<Constant*>{zero, zero});
}

// A shared array's descriptor: its name and declaration from the debug info, its dimensions
// from its type ([16 x [17 x float]]: 16, 17; an extern [0 x float]: one dimension sized at launch).
Constant* shared_desc(Context& c, StructType* ty, const SharedVar& v, std::uint64_t dynamic_offset) {
  std::string name = demangled(v.gv->getName(), false), file;
  // A Metal [[threadgroup(n)]] parameter's array (metal_adapter.cpp:
  // __tgsim_threadgroup_KERNEL::p, a declaration, no debug info): named as the parameter.
  if (name.rfind("__tgsim_threadgroup_", 0) == 0 && name.find("::") != std::string::npos)
    name = name.substr(name.rfind("::") + 2);
  unsigned line = 0;
  SmallVector<DIGlobalVariableExpression*, 1> dis;
  v.gv->getDebugInfo(dis);
  if (!dis.empty() && dis[0]->getVariable()) {
    const DIGlobalVariable* d = dis[0]->getVariable();
    name = d->getName().str();
    file = d->getFilename().startswith("/") || d->getDirectory().empty()
               ? d->getFilename().str()
               : (d->getDirectory() + "/" + d->getFilename()).str();
    line = d->getLine();
  }
  std::vector<Constant*> extents;
  Type* t = v.gv->getValueType();
  while (auto* at = dyn_cast<ArrayType>(t)) {
    extents.push_back(ConstantInt::get(c.i64, at->getNumElements()));
    t = at->getElementType();
  }
  if (v.dynamic) extents.assign(1, ConstantInt::get(c.i64, 0));
  Constant* ext = ConstantPointerNull::get(c.i64->getPointerTo());
  if (!extents.empty()) {
    auto* at = ArrayType::get(c.i64, extents.size());
    auto* gv = new GlobalVariable(c.m, at, true, GlobalValue::PrivateLinkage, ConstantArray::get(at, extents),
                                  "tgsim.extents");
    Constant* zero = ConstantInt::get(c.i32, 0);
    ext = ConstantExpr::getInBoundsGetElementPtr(at, gv, ArrayRef<Constant*>{zero, zero});
  }
  return ConstantStruct::get(ty, {c.string(name), ConstantInt::get(c.i64, v.dynamic ? dynamic_offset : v.offset),
                                  ConstantInt::get(c.i64, v.dynamic ? 0 : v.bytes),
                                  ConstantInt::get(c.i64, c.dl.getTypeAllocSize(t)),
                                  ConstantInt::get(c.i32, extents.size()), ext, c.string(file),
                                  ConstantInt::get(c.i32, line)});
}

}  // namespace

void emit_module_descriptor(Context& c) {
  auto* param_ty = StructType::create(c.ctx, {c.i8p, c.i8p, c.i8p, c.i64, c.i8p}, "tgsim.param");
  auto* tramp_ty = FunctionType::get(Type::getVoidTy(c.ctx), {c.i8p->getPointerTo()}, false)->getPointerTo();
  auto* shared_ty = StructType::create(c.ctx, {c.i8p, c.i64, c.i64, c.i64, c.i32, c.i64->getPointerTo(), c.i8p,
                                               c.i32}, "tgsim.shared");
  auto* kernel_ty = StructType::create(c.ctx, {c.i8p, c.i8p, c.i8p, tramp_ty, c.i32, param_ty->getPointerTo(),
                                               c.i64, c.i8p, c.i32, c.i32, shared_ty->getPointerTo(), c.i64},
                                       "tgsim.kernel");
  std::map<GlobalVariable*, const SharedVar*> shared_var;
  for (const SharedVar& v : c.shared) shared_var[v.gv] = &v;
  auto* var_ty = StructType::create(c.ctx, {c.i8p, c.i64, c.i8p, c.i32}, "tgsim.var");
  auto* module_ty = StructType::create(c.ctx, {c.i32, c.i32, kernel_ty->getPointerTo(), c.i32,
                                               var_ty->getPointerTo(), c.i64, c.i64}, "tgsim.module");
  std::vector<Constant*> kernels;
  for (Function* k : c.kernels) {
    std::vector<Constant*> params;
    const std::vector<CParam> cps = c_params(c.dl, *k);
    for (const CParam& p : cps)
      params.push_back(ConstantStruct::get(
          param_ty, {c.string(p.by_value ? "struct" : type_name(c.dl, *k->getArg(p.first))), c.string(p.name),
                     c.string(p.c_type), ConstantInt::get(c.i64, p.bytes), c.string(p.fields)}));
    GlobalVariable* parr = params.empty() ? nullptr : array_of(c, param_ty, params, "tgsim.params");
    add_host_entry(c, *k, cps);
    std::string file;
    unsigned line = 0;
    if (DISubprogram* sp = k->getSubprogram()) {
      file = sp->getFilename().startswith("/") || sp->getDirectory().empty()
                 ? sp->getFilename().str()
                 : (sp->getDirectory() + "/" + sp->getFilename()).str();
      line = sp->getLine();
    }
    std::vector<Constant*> shared;
    for (GlobalVariable* gv : c.kernel_vars[k])
      if (auto it = shared_var.find(gv); it != shared_var.end())
        shared.push_back(shared_desc(c, shared_ty, *it->second, c.kernel_dynamic[k]));
    GlobalVariable* sarr = shared.empty() ? nullptr : array_of(c, shared_ty, shared, "tgsim.shared");
    std::vector<std::string> names = c.host_names[k];  // a Metal kernel is known by its host names
    if (names.empty()) names.push_back(demangled(k->getName(), true));
    for (const std::string& name : names)
    kernels.push_back(ConstantStruct::get(
        kernel_ty, {ConstantExpr::getPointerCast(k, c.i8p), c.string(name),
                    c.string(k->getName().str()), trampoline(c, *k, cps), ConstantInt::get(c.i32, cps.size()),
                    first(c, parr, param_ty), ConstantInt::get(c.i64, c.kernel_shared[k]), c.string(file),
                    ConstantInt::get(c.i32, line), ConstantInt::get(c.i32, shared.size()),
                    first(c, sarr, shared_ty), ConstantInt::get(c.i64, c.kernel_dynamic[k])}));
  }
  std::vector<Constant*> vars;
  auto add_var = [&](GlobalVariable* gv, unsigned kind) {
    vars.push_back(ConstantStruct::get(
        var_ty, {ConstantExpr::getPointerCast(gv, c.i8p), ConstantInt::get(c.i64, c.dl.getTypeAllocSize(gv->getValueType())),
                 c.string(demangled(gv->getName(), false)), ConstantInt::get(c.i32, kind)}));
  };
  for (GlobalVariable* gv : c.device_vars) add_var(gv, 0);
  for (GlobalVariable* gv : c.constant_vars) add_var(gv, 1);
  GlobalVariable* karr = array_of(c, kernel_ty, kernels, "tgsim.kernels");
  GlobalVariable* varr = vars.empty() ? nullptr : array_of(c, var_ty, vars, "tgsim.vars");
  Constant* desc_init = ConstantStruct::get(
      module_ty, {ConstantInt::get(c.i32, TGSIM_ABI_VERSION), ConstantInt::get(c.i32, kernels.size()),
                  first(c, karr, kernel_ty), ConstantInt::get(c.i32, vars.size()), first(c, varr, var_ty),
                  ConstantInt::get(c.i64, c.static_shared), ConstantInt::get(c.i64, c.dynamic_offset)});
  auto* desc = new GlobalVariable(c.m, module_ty, true, GlobalValue::PrivateLinkage, desc_init, "tgsim.module");
  auto make = [&](const char* name, const char* callee) {
    auto* fty = FunctionType::get(Type::getVoidTy(c.ctx), false);
    Function* f = Function::Create(fty, GlobalValue::InternalLinkage, name, c.m);
    IRBuilder<> b(BasicBlock::Create(c.ctx, "", f));
    FunctionCallee reg = c.m.getOrInsertFunction(callee, Type::getVoidTy(c.ctx), c.i8p);
    b.CreateCall(reg, {ConstantExpr::getPointerCast(desc, c.i8p)});
    b.CreateRetVoid();
    return f;
  };
  appendToGlobalCtors(c.m, make("tgsim.register", "__tgsim_register_module"), 0);
  appendToGlobalDtors(c.m, make("tgsim.unregister", "__tgsim_unregister_module"), 0);
}

}  // namespace tgsim::pass
