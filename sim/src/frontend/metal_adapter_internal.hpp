// The Metal source adapter's tokenizer and token-level editor (metal_adapter.hpp), shared by
// metal_adapter.cpp (kernels, parameters, attributes) and metal_adapter_library.cpp (what the
// libraries' sources need: line markers, host names, function constants, address-space
// overloads).
#pragma once
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tgsim::frontend::metal_adapter_detail {


enum class Kind { Space, Comment, Directive, Ident, Number, String, Punct, Attr };

struct Token {
  Kind kind;
  std::string text;  // the source text
  std::string out;   // what the output holds in its place
  int line, col;
};

inline bool ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
inline bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }
inline bool digit(char c) { return c >= '0' && c <= '9'; }

// Every non-newline byte as a space: a removed token keeps the columns of what follows.
inline std::string blank(std::string_view s) {
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
  std::string instantiation_type(size_t name, size_t open, size_t close);
  void function_constant(size_t i);
  void tokenize();
  void push(Kind k, size_t b, size_t e);
  size_t next_sig(size_t i) const;  // the next token after i that is not space or comment
  size_t prev_sig(size_t i) const;  // the last token before i that is not space or comment; size() if none
  size_t match(size_t open) const;  // the token closing the bracket at `open`
  bool is(size_t i, std::string_view text) const {
    return i < toks_.size() && toks_[i].kind != Kind::String && toks_[i].text == text;
  }
  size_t address_space(size_t i);
  size_t qualified_member(size_t i);
  size_t address_space_overload(size_t brace);
  size_t address_space_specialization(size_t brace, size_t close);
  bool has_address_space(size_t first, size_t last) const;
  size_t remove_if_seen(size_t first, size_t head, size_t brace);
  size_t declaration_start(size_t close_paren) const;
  size_t enclosing_scope(size_t k) const;
  std::set<std::string> signatures_;  // functions with address-space parameters, as adapted
  void attribute(size_t i);
  size_t kernel(size_t i);
  std::vector<Param> split_params(size_t open, size_t close) const;
  void param(Param& p, std::string& body, int& next_buffer, bool& dynamic_seen);
  // A [[texture(n)]] or [[sampler(n)]] parameter (metal_adapter_texture.cpp): its slot is
  // kTextureSlots + n or kSamplerSlots + n, so textures follow the buffers and samplers follow them.
  void texture_param(Param& p, const std::string& attr_text, size_t attr, size_t name, std::string& body);
  static constexpr int kTextureSlots = 1000, kSamplerSlots = 2000;
  std::string render(size_t first, size_t last) const;
  void place_params(std::vector<Param>& params, size_t open, size_t close);

  std::string_view src_, file_;
  std::vector<Token> toks_;
  // The enumerators the source declares with a literal value (or one past such a value), for
  // buffer indices named by them (metal_adapter.cpp, enumerator_value).
  std::map<std::string, long long> enumerators_;
  bool enums_scanned_ = false;
  long long enumerator_value(std::string name);  // -1: none
  void scan_enumerators();
  bool render_function_start(size_t i) const;
  size_t render_function(size_t i);  // a vertex or fragment function, left out
  std::vector<Marker> markers_;
  std::vector<std::string> host_names_;      // the annotated globals naming kernels, put after each
  std::vector<std::string> function_consts_;  // [[function_constant(n)]] names
  size_t kernel_name_ = 0;        // the kernel being adapted: its name's token
  std::string threadgroup_decl_;  // its [[threadgroup(n)]] array's declaration, put before it
  std::string pending_host_name_;  // a [[host_name]] before a plain kernel
};

// The inner text of an attribute token, spaces removed: "[[ buffer(0) ]]" -> "buffer(0)".
std::string attr_text(const Token& t);
// A half literal (1.0h): half(1.0f).
void half_literal(Token& t);
// The strings of a [[host_name("a" "b")]] attribute, concatenated.
std::string host_name_of(const std::string& a);
// The global that names a kernel (`kernel`: a pointer to it) by its host name `name` (the n-th
// of the file).
std::string host_name_global(const std::string& name, const std::string& kernel, size_t n);

}  // namespace tgsim::frontend::metal_adapter_detail
