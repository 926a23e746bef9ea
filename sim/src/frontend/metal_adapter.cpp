// The Metal source adapter (metal_adapter.hpp): a tokenizer and token-level edits.
// Every token keeps its source text unless an edit replaces it; whitespace and comments are
// tokens too, so the output is the concatenation of the tokens' texts and newlines survive.
#include "metal_adapter.hpp"
#include "metal_adapter_internal.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

namespace tgsim::frontend::metal_adapter_detail {

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

size_t Adapter::prev_sig(size_t i) const {
  while (i > 0 && i <= toks_.size())
    if (toks_[--i].kind != Kind::Space && toks_[i].kind != Kind::Comment) return i;
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
    "clang::noinline", "gnu::always_inline", "gnu::noinline", "clang::optnone", "host_name",
    // The render stages' attributes on the members of structs that files mixing vertex and
    // fragment functions with kernels declare (those functions are left out: render_function).
    "position", "color", "attribute", "flat", "center_perspective", "center_no_perspective",
    "centroid_perspective", "centroid_no_perspective", "sample_perspective", "sample_no_perspective",
    "point_size", "clip_distance", "render_target_array_index", "viewport_array_index", "sample_id",
    "sample_mask", "front_facing", "primitive_id", "invariant", "depth", "raster_order_group",
    "point_coord", "vertex_id", "instance_id", "base_vertex", "base_instance", "amplification_id",
    "amplification_count", "barycentric_coord", "shared", "payload", "patch", "patch_id",
    "position_in_patch"};

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
      } else if ((t.text == "vertex" || t.text == "fragment") && render_function_start(i)) {
        i = render_function(i);
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

// Whether `vertex` or `fragment` at i begins a function declaration: at the start of a
// declaration (after `;`, `}`, `{`, an attribute or a directive), a return type and a name, then `(`.
bool Adapter::render_function_start(size_t i) const {
  const size_t before = prev_sig(i);
  if (before < toks_.size() && !is(before, ";") && !is(before, "}") && !is(before, "{") &&
      toks_[before].kind != Kind::Attr && toks_[before].kind != Kind::Directive)
    return false;
  size_t k = next_sig(i);
  int idents = 0;
  for (; k < toks_.size() && !is(k, "(") && !is(k, ";") && !is(k, "{") && !is(k, "="); k = next_sig(k))
    idents += toks_[k].kind == Kind::Ident;
  return is(k, "(") && idents >= 2;
}

// A vertex or fragment function (a file of Apple's samples mixes render stages with its compute
// kernels): tgsim runs compute kernels only, so the function is left out of the output whole,
// lines kept, and the file's kernels compile. Returns the index of its last token.
size_t Adapter::render_function(size_t i) {
  size_t k = i;
  while (k < toks_.size() && !is(k, "(")) k = next_sig(k);
  size_t end = next_sig(match(k));
  while (end < toks_.size() && !is(end, "{") && !is(end, ";")) end = next_sig(end);  // const, attributes
  if (is(end, "{")) end = match(end);
  // The preprocessor's line markers inside it stay (a run of comment lines becomes one): without
  // them the lines after the function would be early.
  for (size_t j = i; j <= end && j < toks_.size(); ++j)
    if (toks_[j].kind != Kind::Directive) toks_[j].out = blank(toks_[j].text);
  return end;
}

// The kernel whose `kernel` or [[kernel]] token is at k: its parameters and its body's start.
// Returns the index of the parameter list's `)`.
size_t Adapter::kernel(size_t k) {
  const size_t before = prev_sig(k);  // a template's kernel: no linkage specification after template<...>
  size_t decl_at = k;  // where the [[threadgroup(n)]] array's declaration goes: before template<...>
  if (before < k && is(before, ">")) {
    toks_[k].out = "__global__";
    int d = 0;
    for (size_t j = before; j > 0; --j) {
      if (is(j, ">")) ++d;
      if (is(j, "<") && --d == 0) {
        const size_t t = prev_sig(j);
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
      fail(toks_[p.first], p.buffer >= kTextureSlots ? "texture or sampler index " + std::to_string(p.buffer % 1000) +
                                                         " is used twice"
                                                   : "buffer index " + std::to_string(p.buffer) + " is used twice");
  place_params(params, open, close);
  toks_[decl_at].out = threadgroup_decl_ + toks_[decl_at].out;  // on its line: lines are kept
  size_t brace = next_sig(close);
  if (is(brace, "{")) {
    toks_[brace].out += body;
    if (!pending_host_name_.empty()) {  // [[host_name("x")]] kernel void f(...) {...}: after the body
      toks_[match(brace)].out += host_name_global(pending_host_name_, "&" + toks_[name].text, host_names_.size());
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
    if (a.rfind("texture(", 0) == 0 || a.rfind("sampler(", 0) == 0)
      return texture_param(p, a, attr, name, body);  // metal_adapter_texture.cpp
    if (a.rfind("buffer(", 0) != 0 || a.back() != ')')
      fail(toks_[attr], "unknown or unsupported kernel parameter attribute [[" + a + "]]");
    try {
      size_t used = 0;
      p.buffer = std::stoi(a.substr(7), &used);
      if (used != a.size() - 8 || p.buffer < 0) throw std::invalid_argument("index");
    } catch (const std::exception&) {
      const long long e = enumerator_value(a.substr(7, a.size() - 8));  // [[buffer(BufferIndexParams)]]
      if (e < 0 || e > 30)
        fail(toks_[attr], "[[" + a + "]]: the buffer index must be an integer literal or an enumerator "
                          "declared with one");
      p.buffer = static_cast<int>(e);
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

// The value of an enumerator the source declares (Apple's samples name buffer indices by the
// enumerators of a header they share with host code: [[buffer(AAPLBufferIndexVertices)]]);
// `Enum::Name` names Name. -1 when no enum gives it a value known here.
// A sum (`AAPLBufferIndexRange+1`) adds its terms: enumerators and decimal literals.
long long Adapter::enumerator_value(std::string name) {
  if (!enums_scanned_) scan_enumerators();
  long long sum = 0;
  size_t b = 0;
  for (size_t k = 1; k <= name.size(); ++k) {
    if (k < name.size() && name[k] != '+' && name[k] != '-') continue;
    std::string term = name.substr(b, k - b);
    const long long sign = term[0] == '-' ? -1 : 1;
    if (term[0] == '+' || term[0] == '-') term.erase(0, 1);
    if (const size_t q = term.rfind("::"); q != std::string::npos) term = term.substr(q + 2);
    const auto it = enumerators_.find(term);
    if (it != enumerators_.end()) sum += sign * it->second;
    else if (!term.empty() && term.find_first_not_of("0123456789") == std::string::npos) sum += sign * std::stoll(term);
    else return -1;
    b = k;
  }
  return sum;
}

// Every `enum [class] [Name] [: type] { A = literal, B, C = A + 2, ... }`: an enumerator's value
// is a sum of integer literals and enumerators known before, or one past the previous
// enumerator's; one set by another expression is not known, nor are those after it until the
// next known one. The first declaration of a name counts.
void Adapter::scan_enumerators() {
  enums_scanned_ = true;
  auto literal = [](std::string t) {
    while (!t.empty() && (t.back() == 'u' || t.back() == 'U' || t.back() == 'l' || t.back() == 'L')) t.pop_back();
    return std::stoll(t, nullptr, 0);
  };
  for (size_t i = 0; i < toks_.size(); ++i) {
    if (toks_[i].kind != Kind::Ident || toks_[i].text != "enum") continue;
    size_t open = next_sig(i);
    while (open < toks_.size() && !is(open, "{") && !is(open, ";") && !is(open, "(")) open = next_sig(open);
    if (!is(open, "{")) continue;
    const size_t close = match(open);
    long long next = 0;
    bool known = true;
    for (size_t k = next_sig(open); k < close && toks_[k].kind == Kind::Ident;) {
      const std::string name = toks_[k].text;
      size_t t = next_sig(k);
      if (is(t, "=")) {  // a sum of literals and enumerators known before: `A = B + 1`
        long long sum = 0, sign = 1;
        known = true;
        bool term = true;
        for (t = next_sig(t); t < close && !is(t, ","); t = next_sig(t)) {
          const Token& x = toks_[t];
          const auto e = enumerators_.find(x.text);
          if (!term && (is(t, "+") || is(t, "-"))) sign = is(t, "+") ? 1 : -1;
          else if (term && x.kind == Kind::Number) sum += sign * literal(x.text);
          else if (term && x.kind == Kind::Ident && e != enumerators_.end()) sum += sign * e->second;
          else known = false;
          term = !term;
        }
        known = known && !term;
        if (known) next = sum;
      }
      if (known) enumerators_.emplace(name, next);
      ++next;
      k = is(t, ",") ? next_sig(t) : close;
    }
    i = close;
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

}  // namespace tgsim::frontend::metal_adapter_detail

namespace tgsim::frontend {

std::string adapt_metal(std::string_view source, std::string_view file_name) {
  return metal_adapter_detail::Adapter(source, file_name).run();
}

}  // namespace tgsim::frontend
