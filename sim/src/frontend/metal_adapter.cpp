// The Metal source adapter (metal_adapter.hpp): a tokenizer and token-level edits.
// Every token keeps its source text unless an edit replaces it; whitespace and comments are
// tokens too, so the output is the concatenation of the tokens' texts and newlines survive.
#include "metal_adapter.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

namespace tgsim::frontend {
namespace {

enum class Kind { Space, Comment, Directive, Ident, Number, String, Punct, Attr };

struct Token {
  Kind kind;
  std::string text;  // the source text
  std::string out;   // what the output holds in its place
  int line, col;
};

bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
bool digit(char c) { return c >= '0' && c <= '9'; }

// Every non-newline byte as a space: a removed token keeps the columns of what follows.
std::string blank(std::string_view s) {
  std::string r(s);
  for (char& c : r)
    if (c != '\n') c = ' ';
  return r;
}

class Adapter {
 public:
  Adapter(std::string_view src, std::string_view file) : src_(src), file_(file) {}
  std::string run();

 private:
  struct Param {
    std::vector<size_t> toks;  // significant tokens (no space or comment)
    size_t first = 0, last = 0;  // token range of the declaration
    int buffer = -1;             // buffer index of a kept parameter
    bool kept = true;
  };

  // A preprocessor line marker (# LINE "FILE" FLAGS): the source line that the next line is.
  struct Marker {
    int at;           // the output line after the marker
    int line;         // its line in `file`
    std::string file;
    bool system;      // flag 3: a system header, left as it is
  };
  [[noreturn]] void fail(const Token& t, const std::string& msg) const {
    std::string file(file_);
    int line = t.line;
    for (auto m = markers_.rbegin(); m != markers_.rend(); ++m)
      if (m->at <= t.line) {
        file = m->file;
        line = m->line + (t.line - m->at);
        break;
      }
    throw std::runtime_error(file + ":" + std::to_string(line) + ":" + std::to_string(t.col) + ": " + msg);
  }
  void marker(const Token& t);
  size_t host_name(size_t i);
  void function_constant(size_t i);
  void tokenize();
  void push(Kind k, size_t b, size_t e);
  size_t next_sig(size_t i) const;  // the next token after i that is not space or comment
  size_t match(size_t open) const;  // the token closing the bracket at `open`
  bool is(size_t i, std::string_view text) const {
    return i < toks_.size() && toks_[i].kind != Kind::String && toks_[i].text == text;
  }
  size_t address_space(size_t i);
  size_t qualified_member(size_t i);
  size_t address_space_overload(size_t brace);
  size_t declaration_start(size_t close_paren) const;
  size_t enclosing_scope(size_t k) const;
  std::set<std::string> signatures_;  // functions with address-space parameters, as adapted
  void attribute(size_t i);
  size_t kernel(size_t i);
  std::vector<Param> split_params(size_t open, size_t close) const;
  void param(Param& p, std::string& body, int& next_buffer, bool& dynamic_seen);
  std::string render(size_t first, size_t last) const;
  void place_params(std::vector<Param>& params, size_t open, size_t close);

  std::string_view src_, file_;
  std::vector<Token> toks_;
  std::vector<Marker> markers_;
  std::vector<std::string> host_names_;      // the annotated globals naming kernels, put after each
  std::vector<std::string> function_consts_;  // [[function_constant(n)]] names
  size_t kernel_name_ = 0;        // the kernel being adapted: its name's token
  std::string threadgroup_decl_;  // its [[threadgroup(n)]] array's declaration, put before it
  std::string pending_host_name_;  // a [[host_name]] before a plain kernel
};

void Adapter::push(Kind k, size_t b, size_t e) {
  // Line and column of b: counted from the previous token's end.
  int line = 1, col = 1;
  if (!toks_.empty()) {
    line = toks_.back().line;
    col = toks_.back().col;
    for (char c : toks_.back().text) {
      if (c == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
  }
  std::string text(src_.substr(b, e - b));
  toks_.push_back({k, text, text, line, col});
}

void Adapter::tokenize() {
  const size_t n = src_.size();
  bool line_start = true;  // only spaces since the last newline: `#` starts a directive
  size_t i = 0;
  auto at = [&](size_t k) { return k < n ? src_[k] : '\0'; };
  while (i < n) {
    const size_t b = i;
    const char c = src_[i];
    Kind kind;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      bool nl = false;
      while (i < n && std::string_view(" \t\n\r\f\v").find(src_[i]) != std::string_view::npos)
        nl |= src_[i++] == '\n';
      push(Kind::Space, b, i);
      line_start = line_start || nl;
      continue;
    }
    if (c == '/' && at(i + 1) == '/') {
      while (i < n && src_[i] != '\n') ++i;
      kind = Kind::Comment;
    } else if (c == '/' && at(i + 1) == '*') {
      size_t e = src_.find("*/", i + 2);
      if (e == std::string_view::npos) {
        push(Kind::Comment, b, n);
        fail(toks_.back(), "unterminated comment");
      }
      i = e + 2;
      kind = Kind::Comment;
    } else if (c == '#' && line_start) {
      while (i < n && src_[i] != '\n') i += (src_[i] == '\\' && at(i + 1) == '\n') ? 2 : 1;
      kind = Kind::Directive;
    } else if (ident_start(c)) {
      while (i < n && ident_char(src_[i])) ++i;
      kind = Kind::Ident;
    } else if (digit(c) || (c == '.' && digit(at(i + 1)))) {
      while (i < n && (ident_char(src_[i]) || src_[i] == '.' ||
                       ((src_[i] == '+' || src_[i] == '-') &&
                        std::string_view("eEpP").find(src_[i - 1]) != std::string_view::npos)))
        ++i;
      kind = Kind::Number;
    } else if (c == '"' || c == '\'') {
      ++i;
      while (i < n && src_[i] != c && src_[i] != '\n') i += src_[i] == '\\' ? 2 : 1;
      if (i >= n || src_[i] != c) {
        push(Kind::String, b, std::min(i, n));
        fail(toks_.back(), "unterminated literal");
      }
      ++i;
      kind = Kind::String;
    } else if (c == '[' && at(i + 1) == '[') {
      size_t e = src_.find("]]", i + 2);
      if (e == std::string_view::npos) {
        push(Kind::Attr, b, n);
        fail(toks_.back(), "unterminated attribute");
      }
      i = e + 2;
      kind = Kind::Attr;
    } else {
      i += (c == ':' && at(i + 1) == ':') ? 2 : 1;
      kind = Kind::Punct;
    }
    push(kind, b, i);
    line_start = false;
  }
}

size_t Adapter::next_sig(size_t i) const {
  for (++i; i < toks_.size(); ++i)
    if (toks_[i].kind != Kind::Space && toks_[i].kind != Kind::Comment) return i;
  return toks_.size();
}

size_t Adapter::match(size_t open) const {
  const std::string o = toks_[open].text;
  const std::string c = o == "(" ? ")" : o == "[" ? "]" : "}";
  int depth = 0;
  for (size_t i = open; i < toks_.size(); ++i) {
    if (toks_[i].kind != Kind::Punct) continue;
    if (toks_[i].text == o) ++depth;
    if (toks_[i].text == c && --depth == 0) return i;
  }
  fail(toks_[open], "unbalanced '" + o + "'");
}

// The inner text of an attribute token, spaces removed: "[[ buffer(0) ]]" -> "buffer(0)".
std::string attr_text(const Token& t) {
  std::string r;
  for (char c : t.text.substr(2, t.text.size() - 4))
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') r += c;
  return r;
}

// device / thread / threadgroup / constant anywhere outside a kernel's parameter list.
// A threadgroup declaration (no `*` or `&` before the declarator ends) is group storage:
// thread_local, which the pass places in the group's shared memory.
size_t Adapter::address_space(size_t i) {
  Token& t = toks_[i];
  const bool keyword = t.text == "device" || t.text == "thread" || t.text == "threadgroup" || t.text == "constant";
  if (!keyword) return i;
  if (const size_t end = qualified_member(i); end != std::string::npos) return end;
  if (t.text == "device" || t.text == "thread") {
    t.out = blank(t.text);
  } else if (t.text == "constant") {
    t.out = "const   ";
  } else if (t.text == "threadgroup") {
    int depth = 0;
    for (size_t k = next_sig(i); k < toks_.size(); k = next_sig(k)) {
      const std::string& s = toks_[k].text;
      if (toks_[k].kind != Kind::Punct) continue;
      if (s == "(" || s == "<") ++depth;
      if (s == ")" || s == ">") --depth;
      if ((s == "*" || s == "&") && depth == 0) {
        t.out = blank(t.text);
        return i;
      }
      if (depth < 0 || (depth == 0 && (s == ";" || s == "=" || s == "," || s == "[" || s == "{")))
        break;
    }
    t.out = "thread_local";
  }
  return i;
}

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
  size_t p = brace;
  do --p; while (p > 0 && (toks_[p].kind == Kind::Space || toks_[p].kind == Kind::Comment));
  if (is(p, "const")) do --p; while (p > 0 && (toks_[p].kind == Kind::Space || toks_[p].kind == Kind::Comment));
  if (!is(p, ")")) return brace;
  size_t open = p;
  for (int d = 0; open > 0; --open) {
    if (is(open, ")")) ++d;
    if (is(open, "(") && --d == 0) break;
  }
  bool spaces = false;
  for (size_t k = open; k < p; ++k)
    spaces = spaces || (toks_[k].kind == Kind::Ident &&
                        (toks_[k].text == "device" || toks_[k].text == "threadgroup" || toks_[k].text == "constant" ||
                         toks_[k].text == "thread"));
  size_t name = open;
  do --name; while (name > 0 && (toks_[name].kind == Kind::Space || toks_[name].kind == Kind::Comment));
  for (size_t k = name; k > 0 && toks_[name].kind == Kind::Punct && !is(name, "]"); --k)  // operator+= (...)
    if (is(k, "operator")) name = k;
    else if (toks_[k].kind != Kind::Punct && toks_[k].kind != Kind::Space) break;
  if (!spaces || toks_[name].kind != Kind::Ident || toks_[name].text == "if" || toks_[name].text == "for" ||
      toks_[name].text == "while" || toks_[name].text == "switch")
    return brace;
  const size_t first = declaration_start(p);
  std::string sig = std::to_string(enclosing_scope(first)) + ":";
  for (size_t k = first; k <= p; ++k)
    for (char c : toks_[k].kind == Kind::Comment ? std::string() : toks_[k].out)
      if (!(c == ' ' || c == '\n' || c == '\t') ) sig += c;
  if (signatures_.insert(sig).second) return brace;
  const size_t last = match(brace);
  for (size_t k = first; k <= last; ++k)
    if (toks_[k].kind != Kind::Directive) toks_[k].out = blank(toks_[k].text);
  return last;
}

// A member function qualified by an address space (`T f() const device {...}`, MLX's complex64_t
// constructors `complex64_t(...) threadgroup : ...`): Metal overloads on the object's address
// space, C++ has one, so the first definition of a signature is kept (qualifier removed) and
// the others are removed whole. Returns the last token handled, or npos when the keyword is not
// such a qualifier.
size_t Adapter::qualified_member(size_t i) {
  size_t p = i;
  do --p; while (p > 0 && (toks_[p].kind == Kind::Space || toks_[p].kind == Kind::Comment));
  if (is(p, "const")) do --p; while (p > 0 && (toks_[p].kind == Kind::Space || toks_[p].kind == Kind::Comment));
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

// Attributes Apple's compiler accepts outside a kernel's parameter list (on helper functions'
// parameters, on kernel-type typedefs, on declarations): nothing to model there.
const char* const kIgnoredAttributes[] = {
    "buffer", "threadgroup", "texture", "sampler", "stage_in", "user", "id", "kernel",
    "thread_position_in_grid", "thread_position_in_threadgroup", "threadgroup_position_in_grid",
    "threads_per_threadgroup", "threadgroups_per_grid", "threads_per_grid", "thread_index_in_threadgroup",
    "thread_index_in_simdgroup", "simdgroup_index_in_threadgroup", "threads_per_simdgroup",
    "simdgroups_per_threadgroup", "thread_execution_width", "thread_index_in_quadgroup",
    "quadgroup_index_in_threadgroup", "grid_size", "grid_origin", "dispatch_threads_per_threadgroup",
    "max_total_threads_per_threadgroup", "visible", "always_inline", "noinline", "clang::always_inline",
    "clang::noinline", "gnu::always_inline", "gnu::noinline", "clang::optnone", "host_name"};

const char* const kStandardAttributes[] = {"likely",   "unlikely",   "maybe_unused", "fallthrough",
                                           "nodiscard", "noreturn", "deprecated"};

void Adapter::attribute(size_t i) {
  const std::string a = attr_text(toks_[i]);
  bool metal = false, standard = false;
  int depth = 0;
  size_t b = 0;
  for (size_t k = 0; k <= a.size(); ++k) {  // each attribute of the list
    if (k < a.size() && a[k] == '(') ++depth;
    if (k < a.size() && a[k] == ')') --depth;
    if (k < a.size() && (a[k] != ',' || depth > 0)) continue;
    const std::string one = a.substr(b, k - b), name = one.substr(0, one.find('('));
    b = k + 1;
    bool known = false;
    for (const char* s : kStandardAttributes) known = known || (name == s && (standard = true));
    for (const char* s : kIgnoredAttributes) known = known || (name == s && (metal = true));
    if (!known) fail(toks_[i], "unknown or unsupported attribute [[" + one + "]] outside a kernel's parameters");
  }
  if (metal) toks_[i].out = blank(toks_[i].text);
  (void)standard;
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
std::string host_name_global(const std::string& name, const std::string& id, size_t n) {
  return " static void* const __tgsim_host_name_" + std::to_string(n) +
         " __attribute__((used, annotate(\"tgsim_host_name:" + name + "\"))) = (void*)&" + id + ";";
}

// `template [[host_name("x")]] [[kernel]] decltype(f<T>) f<T>;` (an explicit instantiation, as
// MLX's instantiate_kernel and ggml write them, with or without the parameter list): the whole
// statement becomes the host-name global, whose initializer instantiates f<T>. `i` is the
// `template` token; returns the statement's `;`.
size_t Adapter::host_name(size_t i) {
  std::string name;
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
  size_t last = prev(e);
  if (is(last, ")")) {  // the parameter list: back to its '('
    int d = 0;
    for (; last > i; --last) {
      if (is(last, ")")) ++d;
      if (is(last, "(") && --d == 0) break;
    }
    last = prev(last);
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
  std::string id;
  for (size_t k = first; k <= last; ++k)
    if (toks_[k].kind != Kind::Comment) id += toks_[k].kind == Kind::Space ? " " : toks_[k].text;
  for (size_t k = i; k < e; ++k) toks_[k].out = blank(toks_[k].text);
  toks_[e].out = host_name_global(name, id, host_names_.size());
  host_names_.push_back(name);
  return e;
}

// `constant T NAME [[function_constant(n)]];`: a constant with the value given on the command
// line (--constant NAME=VALUE, the macro __tgsim_fc_NAME), 0 when none is given.
void Adapter::function_constant(size_t i) {
  size_t name = i;
  do --name; while (name > 0 && (toks_[name].kind == Kind::Space || toks_[name].kind == Kind::Comment));
  if (toks_[name].kind != Kind::Ident) fail(toks_[i], "[[function_constant]] must follow the constant's name");
  toks_[i].out = " = __tgsim_fc_" + toks_[name].text;
  function_consts_.push_back(toks_[name].text);
}

std::string Adapter::run() {
  tokenize();
  for (size_t i = 0; i < toks_.size(); ++i)  // coherent(device) / coherent(system): memory coherence, not modelled
    if (toks_[i].kind == Kind::Ident && toks_[i].text == "coherent" && is(next_sig(i), "(")) {
      const size_t e = match(next_sig(i));
      for (size_t k = i; k <= e; ++k) toks_[k].out = blank(toks_[k].text);
    }
  bool system = false;
  for (size_t i = 0; i < toks_.size(); ++i) {
    const Token& t = toks_[i];
    if (t.kind == Kind::Directive) {
      // #pragma unroll (N), #pragma clang loop ...: hints to the optimiser (and not macro-expanded)
      if (t.text.find("pragma") != std::string::npos &&
          (t.text.find("unroll") != std::string::npos || t.text.find("clang loop") != std::string::npos))
        toks_[i].out = blank(t.text);
      marker(t);
      if (!markers_.empty() && markers_.back().at == t.line + 1) system = markers_.back().system;
      continue;
    }
    if (system) continue;
    if (t.kind == Kind::Attr) {
      const std::string a = attr_text(t);
      if (a == "kernel" || a.rfind("kernel,", 0) == 0) {  // [[kernel, max_total_threads_per_threadgroup(n)]]
        toks_[i].out = "extern \"C++\" __global__";
        i = kernel(i);
      } else if (a.rfind("function_constant(", 0) == 0) {
        function_constant(i);
      } else if (a.rfind("host_name(", 0) == 0) {
        pending_host_name_ = host_name_of(a);
        toks_[i].out = blank(t.text);
      } else {
        attribute(i);
      }
    } else if (t.kind == Kind::Number) {
      half_literal(toks_[i]);
    } else if (t.kind == Kind::Punct && t.text == "{") {
      i = address_space_overload(i);
    } else if (t.kind == Kind::Ident) {
      const size_t n = next_sig(i);
      if (t.text == "template" && n < toks_.size() && toks_[n].kind == Kind::Attr) {
        i = host_name(i);
      } else if (t.text == "kernel" && n < toks_.size() && toks_[n].kind == Kind::Ident) {
        toks_[i].out = "extern \"C++\" __global__";
        i = kernel(i);
      } else if ((t.text == "vertex" || t.text == "fragment") && is(next_sig(i), "void")) {
        fail(t, std::string(t.text) + " functions are not supported (compute kernels only)");
      } else {
        i = address_space(i);
      }
    }
  }
  std::string r = "#include <metal_stdlib>\nusing namespace metal;\n";
  for (const std::string& f : function_consts_)
    r += "#ifdef __tgsim_fc_" + f + "\n#define __tgsim_fcd_" + f + " true\n#else\n#define __tgsim_fc_" + f +
         " 0\n#define __tgsim_fcd_" + f + " false\n#endif\n";
  r += "#line 1 \"";
  for (char c : file_) {  // a string literal: control and non-ASCII bytes as octal escapes
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) {
      const char esc[] = {'\\', static_cast<char>('0' + (u >> 6)), static_cast<char>('0' + ((u >> 3) & 7)),
                          static_cast<char>('0' + (u & 7))};
      r.append(esc, 4);
      continue;
    }
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  r += "\"\n";
  for (const Token& t : toks_) r += t.out;
  return r;
}

// The kernel whose `kernel` or [[kernel]] token is at k: its parameters and its body's start.
// Returns the index of the parameter list's `)`.
size_t Adapter::kernel(size_t k) {
  size_t before = k;  // a template's kernel: no linkage specification after template<...>
  do --before; while (before > 0 && (toks_[before].kind == Kind::Space || toks_[before].kind == Kind::Comment));
  size_t decl_at = k;  // where the [[threadgroup(n)]] array's declaration goes: before template<...>
  if (before < k && is(before, ">")) {
    toks_[k].out = "__global__";
    int d = 0;
    for (size_t j = before; j > 0; --j) {
      if (is(j, ">")) ++d;
      if (is(j, "<") && --d == 0) {
        size_t t = j;
        do --t; while (t > 0 && (toks_[t].kind == Kind::Space || toks_[t].kind == Kind::Comment));
        if (is(t, "template")) decl_at = t;
        break;
      }
    }
  }
  size_t v = next_sig(k);
  if (!is(v, "void")) fail(toks_[k], "a kernel must return void");
  size_t name = next_sig(v);
  size_t open = next_sig(name);
  if (name >= toks_.size() || toks_[name].kind != Kind::Ident || !is(open, "("))
    fail(toks_[v], "expected the kernel's name and '(' after 'void' (templates are not supported)");
  size_t close = match(open);
  std::vector<Param> params = split_params(open, close);
  std::string body = " if (!__tgsim_metal_in_grid()) return;";
  kernel_name_ = name;
  threadgroup_decl_.clear();
  int next_buffer = 0;
  bool dynamic_seen = false;
  for (Param& p : params) param(p, body, next_buffer, dynamic_seen);
  std::map<int, const Param*> by_index;
  for (const Param& p : params)
    if (p.kept && !by_index.emplace(p.buffer, &p).second)
      fail(toks_[p.first], "buffer index " + std::to_string(p.buffer) + " is used twice");
  place_params(params, open, close);
  toks_[decl_at].out = threadgroup_decl_ + toks_[decl_at].out;  // on its line: lines are kept
  size_t brace = next_sig(close);
  if (is(brace, "{")) {
    toks_[brace].out += body;
    if (!pending_host_name_.empty()) {  // [[host_name("x")]] kernel void f(...) {...}: after the body
      toks_[match(brace)].out += host_name_global(pending_host_name_, toks_[name].text, host_names_.size());
      host_names_.push_back(pending_host_name_);
    }
  }
  pending_host_name_.clear();
  return close;
}

std::vector<Adapter::Param> Adapter::split_params(size_t open, size_t close) const {
  std::vector<Param> params;
  Param cur;
  int depth = 0;
  for (size_t i = next_sig(open); i <= close; i = next_sig(i)) {
    const std::string& s = toks_[i].text;
    const bool punct = toks_[i].kind == Kind::Punct;
    if (punct && (s == "(" || s == "[" || s == "<")) ++depth;
    if (punct && (s == ")" || s == "]" || s == ">") && i != close) --depth;
    if (i == close || (punct && s == "," && depth == 0)) {
      if (!cur.toks.empty()) {
        cur.first = cur.toks.front();
        cur.last = cur.toks.back();
        params.push_back(cur);
      } else if (i != close || !params.empty()) {
        fail(toks_[i], "empty parameter");
      }
      cur = Param();
      continue;
    }
    cur.toks.push_back(i);
  }
  if (params.size() == 1 && params[0].toks.size() == 1 && is(params[0].first, "void")) params.clear();
  return params;
}

// Parameters that become declarations in the body: the position attributes and their
// __tgsim_thread() readers in metal_compute.
const char* const kPositionAttributes[] = {
    "thread_position_in_grid",      "thread_position_in_threadgroup", "threadgroup_position_in_grid",
    "threads_per_threadgroup",      "threadgroups_per_grid",          "threads_per_grid",
    "thread_index_in_threadgroup",  "thread_index_in_simdgroup",      "simdgroup_index_in_threadgroup",
    "threads_per_simdgroup",        "simdgroups_per_threadgroup",     "thread_execution_width",
    "thread_index_in_quadgroup",    "quadgroup_index_in_threadgroup", "quadgroups_per_threadgroup",
    "grid_size",                    "grid_origin",                    "dispatch_threads_per_threadgroup"};

// One kernel parameter: edits its tokens in place, or removes it and adds its declaration to
// `body`. Kept parameters get their buffer index (explicit, or the next one after the last).
void Adapter::param(Param& p, std::string& body, int& next_buffer, bool& dynamic_seen) {
  size_t attr = toks_.size();
  size_t name = toks_.size();
  size_t dims = toks_.size();  // the first '[' after the name: an array parameter
  for (size_t i : p.toks) {
    const Token& t = toks_[i];
    if (t.kind == Kind::Attr) {
      if (attr != toks_.size()) fail(t, "more than one attribute on a parameter");
      attr = i;
    } else if (t.kind == Kind::Ident && attr == toks_.size() && dims == toks_.size()) {
      name = i;
    } else if (is(i, "[") && dims == toks_.size()) {
      dims = i;
    }
  }
  if (name == toks_.size()) fail(toks_[p.first], "parameter without a name");
  std::string a = attr == toks_.size() ? "" : attr_text(toks_[attr]);
  // [[buffer(n), function_constant(c)]]: a parameter the host binds only when c is true; here it
  // is always a parameter at index n (bind it or not: an unbound one is never read when c is false).
  if (const size_t fc = a.find(",function_constant("); fc != std::string::npos && a.rfind("buffer(", 0) == 0)
    a = a.substr(0, fc);
  bool is_constant = false, is_threadgroup = false;
  for (size_t i : p.toks) {
    const std::string& s = toks_[i].text;
    if (toks_[i].kind != Kind::Ident || i >= name) continue;
    if (s == "device" || s == "thread") toks_[i].out = blank(s);
    if (s == "constant") is_constant = true, toks_[i].out = "const   ";
    if (s == "threadgroup") is_threadgroup = true, toks_[i].out = blank(s);
  }
  if (attr != toks_.size()) toks_[attr].out = blank(toks_[attr].text);
  const std::string type = render(p.first, name - 1);
  const std::string& nm = toks_[name].text;
  for (const char* pos : kPositionAttributes) {
    if (a != pos) continue;
    p.kept = false;
    body += " " + type + " " + nm + " = __tgsim_metal_attr<" + type + ">(__tgsim_metal_" + a + "());";
    return;
  }
  if (is_threadgroup && a.empty() && dims != toks_.size()) {  // threadgroup T a[N] (seed 001)
    p.kept = false;
    body += " thread_local " + type + " " + nm + render(dims, p.last) + ";";
    return;
  }
  if (is_threadgroup && a.rfind("threadgroup(", 0) == 0) {
    // The group's dynamic memory as an extern threadgroup array, as CUDA's extern __shared__:
    // the pass places it at the dynamic offset and counts and checks its accesses as any
    // threadgroup array's; findings name it by the parameter's name.
    if (dynamic_seen) fail(toks_[attr], "only one [[threadgroup(n)]] parameter is supported");
    if (type.empty() || type.back() != '*') fail(toks_[p.first], "a [[threadgroup(n)]] parameter must be a pointer");
    dynamic_seen = true;
    p.kept = false;
    std::string elem = type.substr(0, type.size() - 1);
    while (!elem.empty() && elem.back() == ' ') elem.pop_back();
    const std::string ns = "__tgsim_threadgroup_" + toks_[kernel_name_].text;
    threadgroup_decl_ = "namespace " + ns + " { extern thread_local " + elem + " " + nm + "[]; } ";
    body += " " + type + " " + nm + " = " + ns + "::" + nm + ";";
    return;
  }
  if (is_threadgroup) fail(toks_[p.first], "a threadgroup parameter needs [[threadgroup(n)]] or an array type");
  if (!a.empty()) {
    if (a.rfind("buffer(", 0) != 0 || a.back() != ')')
      fail(toks_[attr], "unknown or unsupported kernel parameter attribute [[" + a + "]]");
    try {
      size_t used = 0;
      p.buffer = std::stoi(a.substr(7), &used);
      if (used != a.size() - 8 || p.buffer < 0) throw std::invalid_argument("index");
    } catch (const std::exception&) {
      fail(toks_[attr], "[[" + a + "]]: the buffer index must be an integer literal");
    }
  } else {
    p.buffer = next_buffer;  // no attribute: the next index, as Metal assigns it
  }
  next_buffer = std::max(next_buffer, p.buffer + 1);
  if (is_constant) {  // constant T& v -> const T v: by value
    for (size_t i : p.toks)
      if (i < name && is(i, "&")) toks_[i].out = " ";
  }
}

// The output text of tokens [first, last] on one line, runs of spaces as one.
std::string Adapter::render(size_t first, size_t last) const {
  std::string r;
  for (size_t i = first; i <= last && i < toks_.size(); ++i) {
    if (toks_[i].kind == Kind::Comment) continue;
    for (char c : toks_[i].out) {
      if (c == '\n' || c == '\t' || c == '\r') c = ' ';
      if (c == ' ' && (r.empty() || r.back() == ' ')) continue;
      r += c;
    }
  }
  while (!r.empty() && r.back() == ' ') r.pop_back();
  return r;
}

// Removed parameters are blanked with one comma each; kept ones are put in buffer-index order
// (in place when they already are, the common case, so their columns stay).
void Adapter::place_params(std::vector<Param>& params, size_t open, size_t close) {
  std::vector<const Param*> order;
  for (const Param& p : params)
    if (p.kept) order.push_back(&p);
  std::stable_sort(order.begin(), order.end(),
                   [](const Param* x, const Param* y) { return x->buffer < y->buffer; });
  std::vector<std::string> texts;
  for (const Param* p : order) texts.push_back(render(p->first, p->last));
  size_t k = 0;  // kept slots filled so far
  for (size_t j = 0; j < params.size(); ++j) {
    Param& slot = params[j];
    const size_t comma = j + 1 < params.size() ? next_sig(slot.last) : close;
    if (!slot.kept) {
      for (size_t i = slot.first; i <= slot.last; ++i) toks_[i].out = blank(toks_[i].text);
    } else if (order[k++] != &slot) {  // another parameter goes here: one line, newlines kept
      for (size_t i = slot.first; i <= slot.last; ++i) toks_[i].out = blank(toks_[i].text);
      toks_[slot.first].out = texts[k - 1];
    }
    if (comma != close) toks_[comma].out = (slot.kept && k < order.size()) ? "," : " ";
  }
  (void)open;
}

}  // namespace

std::string adapt_metal(std::string_view source, std::string_view file_name) {
  return Adapter(source, file_name).run();
}

}  // namespace tgsim::frontend
