// The Metal adapter's rules for the libraries' sources (metal_adapter_internal.hpp): preprocessor
// line markers, [[host_name]] instantiations, function constants, half literals, members and
// functions overloaded on address spaces.
#include <algorithm>
#include <string>

#include "metal_adapter_internal.hpp"

namespace tgsim::frontend::metal_adapter_detail {

// The index of the unmatched '{' that encloses token k (0 at file scope): a signature's scope.
size_t Adapter::enclosing_scope(size_t k) const {
  int depth = 0;
  while (k-- > 0) {
    if (is(k, "}")) ++depth;
    if (is(k, "{") && depth-- == 0) return k;
  }
  return 0;
}

// The first token of the declaration whose parameter list ends at `close_paren`: after the
// previous ; { } or access specifier's ':' outside brackets.
size_t Adapter::declaration_start(size_t close_paren) const {
  size_t first = close_paren + 1;
  int depth = 0;
  for (; first > 0; --first) {
    const std::string& s = toks_[first - 1].text;
    if (toks_[first - 1].kind == Kind::Directive) break;
    if (toks_[first - 1].kind != Kind::Punct) continue;
    if (s == ")" || s == "]") ++depth;
    if (s == "(" || s == "[") --depth;
    if (depth == 0 && (s == ";" || s == "{" || s == "}" || s == ":")) break;
  }
  while (first < close_paren && (toks_[first].kind == Kind::Space || toks_[first].kind == Kind::Comment)) ++first;
  return first;
}

// A function overloaded on its parameters' address spaces (MLX's complex.h: operator+= for
// thread, device and threadgroup references): after the adapter the overloads are one function,
// so a definition whose adapted signature was seen before is removed (C++ has one address
// space: the first definition serves every call). `brace` is a `{`; returns the last token removed.
size_t Adapter::address_space_overload(size_t brace) {
  size_t p = prev_sig(brace);
  if (is(p, "const")) p = prev_sig(p);
  if (is(p, ">")) return address_space_specialization(brace, p);
  if (!is(p, ")")) return brace;
  size_t open = p;
  for (int d = 0; open > 0; --open) {
    if (is(open, ")")) ++d;
    if (is(open, "(") && --d == 0) break;
  }
  const bool spaces = has_address_space(open, p);
  size_t name = prev_sig(open);
  if (name >= toks_.size()) return brace;
  for (size_t k = name; k > 0 && toks_[name].kind == Kind::Punct && !is(name, "]"); --k)  // operator+= (...)
    if (is(k, "operator")) name = k;
    else if (toks_[k].kind != Kind::Punct && toks_[k].kind != Kind::Space) break;
  if (!spaces || toks_[name].kind != Kind::Ident || toks_[name].text == "if" || toks_[name].text == "for" ||
      toks_[name].text == "while" || toks_[name].text == "switch")
    return brace;
  return remove_if_seen(declaration_start(p), p, brace);
}

// Whether tokens [first, last) name an address space.
bool Adapter::has_address_space(size_t first, size_t last) const {
  for (size_t k = first; k < last; ++k)
    if (toks_[k].kind == Kind::Ident && (toks_[k].text == "device" || toks_[k].text == "threadgroup" ||
                                         toks_[k].text == "constant" || toks_[k].text == "thread"))
      return true;
  return false;
}

// The definition whose head is tokens [first, head] and whose body opens at `brace`: kept when
// its adapted head is new in its scope, removed whole when it was seen (the same definition for
// another address space). Returns the last token handled.
size_t Adapter::remove_if_seen(size_t first, size_t head, size_t brace) {
  std::string sig = std::to_string(enclosing_scope(first)) + ":";
  for (size_t k = first; k <= head; ++k)
    for (char c : toks_[k].kind == Kind::Comment ? std::string() : toks_[k].out)
      if (!(c == ' ' || c == '\n' || c == '\t')) sig += c;
  if (signatures_.insert(sig).second) return brace;
  const size_t last = match(brace);
  for (size_t k = first; k <= last; ++k)
    if (toks_[k].kind != Kind::Directive) toks_[k].out = blank(toks_[k].text);
  return last;
}

// A class template specialized for each address space (MLX's steel type_traits.h:
// `template <typename T> struct pointer_element<thread T*> {...}`, then <device T*>, ...): after
// the adapter the specializations are one, so the first is kept and the others are removed.
// `close` is the `>` before the body's `{`.
size_t Adapter::address_space_specialization(size_t brace, size_t close) {
  size_t open = close;
  for (int d = 0; open > 0; --open) {
    if (is(open, ">")) ++d;
    if (is(open, "<") && --d == 0) break;
  }
  const size_t name = prev_sig(open), key = prev_sig(name);
  if (open == 0 || name >= toks_.size() || toks_[name].kind != Kind::Ident ||
      !(is(key, "struct") || is(key, "class") || is(key, "union")) || !has_address_space(open, close))
    return brace;
  return remove_if_seen(declaration_start(close), close, brace);
}

// A member function qualified by an address space (`T f() const device {...}`, MLX's complex64_t
// constructors `complex64_t(...) threadgroup : ...`): Metal overloads on the object's address
// space, C++ has one, so the first definition of a signature is kept (qualifier removed) and
// the others are removed whole. Returns the last token handled, or npos when the keyword is not
// such a qualifier.
size_t Adapter::qualified_member(size_t i) {
  size_t p = prev_sig(i);
  if (is(p, "const")) p = prev_sig(p);
  const size_t n = next_sig(i);
  if (!is(p, ")") || !(is(n, "{") || is(n, ":") || is(n, ";") || is(n, "=") || is(n, "const") || is(n, "noexcept")))
    return std::string::npos;
  // The first definition of a signature stays (its qualifier removed), a later one goes.
  const size_t first = declaration_start(p);
  std::string sig = std::to_string(enclosing_scope(first)) + ":";
  for (size_t k = first; k < i; ++k)
    for (char c : toks_[k].kind == Kind::Comment ? std::string() : toks_[k].out)
      if (!(c == ' ' || c == '\n' || c == '\t')) sig += c;
  if (signatures_.insert(sig).second) {
    toks_[i].out = blank(toks_[i].text);
    return i;
  }
  size_t last = n;
  while (last < toks_.size() && !is(last, "{") && !is(last, ";")) last = next_sig(last);
  if (is(last, "{")) last = match(last);
  for (size_t k = first; k <= last && k < toks_.size(); ++k)
    if (toks_[k].kind != Kind::Directive) toks_[k].out = blank(toks_[k].text);
  return last;
}

// A half literal (1.0h, 2h): half(1.0f). Hexadecimal integers have no 'h' digit.
void half_literal(Token& t) {
  const std::string& s = t.text;
  if (s.size() < 2 || (s.back() != 'h' && s.back() != 'H') || s[1] == 'x' || s[1] == 'X') return;
  std::string v = s.substr(0, s.size() - 1);
  if (v.find_first_of(".eE") == std::string::npos) v += ".";
  t.out = "half(" + v + "f)";
}

// A preprocessor line marker: where the lines after it come from.
void Adapter::marker(const Token& t) {
  size_t k = 1;
  while (k < t.text.size() && t.text[k] == ' ') ++k;
  if (k >= t.text.size() || !digit(t.text[k])) return;
  Marker m{t.line + 1, std::atoi(t.text.c_str() + k), "", false};
  const size_t q = t.text.find('"'), e = t.text.rfind('"');
  if (q == std::string::npos || e <= q) return;
  m.file = t.text.substr(q + 1, e - q - 1);
  m.system = t.text.find(" 3", e) != std::string::npos;
  markers_.push_back(m);
}

// The strings of a [[host_name("a" "b")]] attribute, concatenated.
std::string host_name_of(const std::string& a) {
  std::string r;
  for (size_t q = a.find('"'); q != std::string::npos; q = a.find('"', q + 1)) {
    const size_t e = a.find('"', q + 1);
    if (e == std::string::npos) break;
    r += a.substr(q + 1, e - q - 1);
    q = e;
  }
  return r;
}

// A kernel's host name: a global the pass reads (tgsim_host_name:NAME annotates a pointer to the
// kernel); `--kernel NAME` and the kernel list use the host name, as Metal's library does.
std::string host_name_global(const std::string& name, const std::string& kernel, size_t n) {
  return " static void* const __tgsim_host_name_" + std::to_string(n) +
         " __attribute__((used, annotate(\"tgsim_host_name:" + name + "\"))) = (void*)" + kernel + ";";
}

// The pointer type an explicit instantiation's parameter list names, its parameters adapted as a
// kernel's are (position attributes dropped, buffers in index order, constant T& by value):
// `void (*)(const float* in, ...)`, from which `&f` deduces the kernel template's arguments when
// the instantiation names none (MLX's `template [[host_name("x")]] [[kernel]] void f(...);`).
std::string Adapter::instantiation_type(size_t name, size_t open, size_t close) {
  std::vector<Param> params = split_params(open, close);
  const size_t kernel_name = kernel_name_;
  const std::string threadgroup_decl = threadgroup_decl_;
  kernel_name_ = name;
  std::string body;
  int next_buffer = 0;
  bool dynamic_seen = false;
  for (Param& p : params) param(p, body, next_buffer, dynamic_seen);
  kernel_name_ = kernel_name;
  threadgroup_decl_ = threadgroup_decl;
  std::vector<const Param*> order;
  for (const Param& p : params)
    if (p.kept) order.push_back(&p);
  std::stable_sort(order.begin(), order.end(), [](const Param* x, const Param* y) { return x->buffer < y->buffer; });
  std::string r = "void (*)(";
  for (size_t k = 0; k < order.size(); ++k) r += (k ? ", " : "") + render(order[k]->first, order[k]->last);
  return r + ")";
}

// `template [[host_name("x")]] [[kernel]] decltype(f<T>) f<T>;` (an explicit instantiation, as
// MLX's instantiate_kernel and ggml write them, with or without the parameter list): the whole
// statement becomes the host-name global, whose initializer instantiates f<T>. `i` is the
// `template` token; returns the statement's `;`.
size_t Adapter::host_name(size_t i) {
  std::string name, params;  // params: the pointer type of a parameter list after a name without <...>
  size_t e = i;
  int depth = 0;
  for (e = next_sig(i); e < toks_.size(); e = next_sig(e)) {
    const Token& t = toks_[e];
    if (t.kind == Kind::Attr && attr_text(t).rfind("host_name(", 0) == 0) name = host_name_of(attr_text(t));
    if (t.kind != Kind::Punct) continue;
    if (t.text == "(" || t.text == "{") ++depth;
    if (t.text == ")" || t.text == "}") --depth;
    if (depth == 0 && t.text == ";") break;
  }
  if (e >= toks_.size()) fail(toks_[i], "expected ';' after the [[host_name]] instantiation");
  auto prev = [&](size_t k) {
    do --k; while (k > i && (toks_[k].kind == Kind::Space || toks_[k].kind == Kind::Comment));
    return k;
  };
  size_t last = prev(e), open = toks_.size();
  if (is(last, ")")) {  // the parameter list: back to its '('
    const size_t close = last;
    int d = 0;
    for (; last > i; --last) {
      if (is(last, ")")) ++d;
      if (is(last, "(") && --d == 0) break;
    }
    open = last;
    last = prev(last);
    if (last > i && toks_[last].kind == Kind::Ident) params = instantiation_type(last, open, close);
  }
  size_t first = last;
  if (is(last, ">")) {  // the template arguments
    int d = 0;
    for (; first > i; --first) {
      if (is(first, ">")) ++d;
      if (is(first, "<") && --d == 0) break;
    }
    first = prev(first);
  }
  while (first > i && is(prev(first), "::")) first = prev(prev(first));
  if (first <= i || toks_[first].kind != Kind::Ident) fail(toks_[i], "cannot find the kernel this [[host_name]] instantiation names");
  std::string id = "&";
  for (size_t k = first; k <= last; ++k)
    if (toks_[k].kind != Kind::Comment) id += toks_[k].kind == Kind::Space ? " " : toks_[k].text;
  if (!params.empty()) id = "static_cast<" + params + ">(" + id + ")";  // no template arguments: deduced
  for (size_t k = i; k < e; ++k) toks_[k].out = blank(toks_[k].text);
  toks_[e].out = host_name_global(name, id, host_names_.size());
  host_names_.push_back(name);
  return e;
}

// `constant T NAME [[function_constant(n)]];`: a constant with the value given on the command
// line (--constant NAME=VALUE, the macro __tgsim_fc_NAME), 0 when none is given.
void Adapter::function_constant(size_t i) {
  const size_t name = prev_sig(i);
  if (name >= toks_.size() || toks_[name].kind != Kind::Ident) fail(toks_[i], "[[function_constant]] must follow the constant's name");
  toks_[i].out = " = __tgsim_fc_" + toks_[name].text;
  function_consts_.push_back(toks_[name].text);
}

}  // namespace tgsim::frontend::metal_adapter_detail
