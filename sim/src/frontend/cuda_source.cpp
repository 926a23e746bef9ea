// The <<<...>>> rewrite (cuda_source.hpp). The text is scanned once, skipping comments, string
// and character literals; at each `<<<` the kernel expression before it (an identifier with
// optional `::` qualifiers and template arguments) and the launch parameters up to the matching
// `>>>` are taken apart.
#include "cuda_source.hpp"

#include <cctype>
#include <cstring>
#include <set>
#include <stdexcept>

#include "metal_adapter.hpp"

namespace tgsim::frontend {

namespace {

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Back from `i` over blanks, line breaks (a macro's `\` line continuations too) and a `//`
// comment ending a line the scan steps back onto.
std::size_t skip_blanks_back(const std::string& out, std::size_t i) {
  for (;;) {
    while (i > 0 && (out[i - 1] == ' ' || out[i - 1] == '\t' || out[i - 1] == '\r')) --i;
    if (i > 0 && out[i - 1] == '\n') {
      --i;
      if (i > 0 && out[i - 1] == '\\') --i;
      const std::size_t line = out.rfind('\n', i == 0 ? 0 : i - 1);
      const std::size_t from = line == std::string::npos ? 0 : line + 1;
      const std::size_t comment = out.find("//", from);
      if (comment != std::string::npos && comment < i) i = comment;
      continue;
    }
    return i;
  }
}

// Where the kernel expression ending just before `end` starts (out.size() positions).
std::size_t kernel_start(const std::string& out, std::size_t end) {
  std::size_t i = skip_blanks_back(out, end);
  for (;;) {
    if (i > 0 && out[i - 1] == '>') {  // template arguments
      int depth = 0;
      while (i > 0) {
        char c = out[--i];
        if (c == '>') ++depth;
        else if (c == '<' && --depth == 0) break;
      }
      i = skip_blanks_back(out, i);
    }
    while (i > 0 && ident_char(out[i - 1])) --i;
    if (i >= 2 && out[i - 1] == ':' && out[i - 2] == ':') {
      i -= 2;
      continue;
    }
    return i;
  }
}

// The kernel expression's text without its `//` comments, and (into *breaks) the line breaks of
// its trailing blanks, kept as written (`\` + newline inside a macro's body).
std::string kernel_text(std::string text, std::string* breaks) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "//") == 0) {
      while (i < text.size() && text[i] != '\n') ++i;
      if (i == text.size()) break;
    }
    out += text[i];
  }
  std::size_t keep = out.size();
  while (keep > 0 && (out[keep - 1] == ' ' || out[keep - 1] == '\t' || out[keep - 1] == '\r' || out[keep - 1] == '\n' ||
                      (out[keep - 1] == '\\' && keep < out.size() && out[keep] == '\n')))
    --keep;
  for (std::size_t i = keep; i < out.size(); ++i)
    if (out[i] == '\n') *breaks += i > 0 && out[i - 1] == '\\' ? "\\\n" : "\n";
  out.resize(keep);
  return out;
}

// Past the whitespace and comments from `i`.
std::size_t skip_space(std::string_view src, std::size_t i) {
  while (i < src.size()) {
    if (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
      ++i;
    } else if (src.compare(i, 2, "//") == 0) {
      i = src.find('\n', i);
      if (i == std::string_view::npos) return src.size();
    } else if (src.compare(i, 2, "/*") == 0) {
      i = src.find("*/", i + 2);
      if (i == std::string_view::npos) return src.size();
      i += 2;
    } else {
      break;
    }
  }
  return i;
}

// Where the parenthesised group opening at `open` closes (npos when it does not), skipping
// string and character literals and comments.
std::size_t matching_paren(std::string_view src, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < src.size();) {
    const char c = src[i];
    if (c == '/' && i + 1 < src.size() && (src[i + 1] == '/' || src[i + 1] == '*')) {
      i = skip_space(src, i);
    } else if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < src.size() && src[j] != c && src[j] != '\n') j += src[j] == '\\' ? 2 : 1;
      i = j + 1;
    } else {
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) return i;
      ++i;
    }
  }
  return std::string_view::npos;
}

// The length of a launch's opening `<<<` or `<< <` at i (blanks between), 0 if none; the same for
// its closing `>>>` or `>> >`.
std::size_t launch_bracket(std::string_view src, std::size_t i, char c) {
  if (i + 1 >= src.size() || src[i] != c || src[i + 1] != c) return 0;
  std::size_t j = i + 2;
  while (j < src.size() && (src[j] == ' ' || src[j] == '\t')) ++j;
  return j < src.size() && src[j] == c ? j + 1 - i : 0;
}
std::size_t launch_open(std::string_view src, std::size_t i) { return launch_bracket(src, i, '<'); }
std::size_t launch_close(std::string_view src, std::size_t i) { return launch_bracket(src, i, '>'); }

// At `__shared__ alignas(...)` (whole words, one line): the end of the alignas(...), else 0.
std::size_t shared_alignas(std::string_view src, std::size_t i) {
  if (src.compare(i, 10, "__shared__") != 0 || (i > 0 && ident_char(src[i - 1]))) return 0;
  std::size_t a = i + 10;
  while (a < src.size() && (src[a] == ' ' || src[a] == '\t')) ++a;
  if (src.compare(a, 7, "alignas") != 0) return 0;
  const std::size_t open = skip_space(src, a + 7);
  if (open >= src.size() || src[open] != '(') return 0;
  const std::size_t close = matching_paren(src, open);
  if (close == std::string_view::npos || src.substr(i, close - i).find('\n') != std::string_view::npos) return 0;
  return close + 1;
}

// Names the file #defines as only `__host__` / `__device__` (`#define GPU_LAMBDA __host__
// __device__`), with those two: what may stand between a lambda's `[...]` and its parameters.
std::set<std::string> lambda_space_words(std::string_view src) {
  std::set<std::string> words = {"__host__", "__device__"};
  auto word = [&](std::size_t& i) {  // the identifier at i (after blanks), i past it
    while (i < src.size() && (src[i] == ' ' || src[i] == '\t')) ++i;
    const std::size_t from = i;
    while (i < src.size() && ident_char(src[i])) ++i;
    return std::string(src.substr(from, i - from));
  };
  for (std::size_t line = 0; line < src.size();) {
    std::size_t i = line, eol = src.find('\n', line);
    if (eol == std::string_view::npos) eol = src.size();
    while (i < eol && (src[i] == ' ' || src[i] == '\t')) ++i;
    if (i < eol && src[i] == '#' && word(++i) == "define") {
      const std::string name = word(i);
      bool only = true, any = false;
      for (std::string w; only && !(w = word(i)).empty(); any = true) only = w == "__host__" || w == "__device__";
      while (i < eol && (src[i] == ' ' || src[i] == '\t' || src[i] == '\r')) ++i;
      if (!name.empty() && only && any && i == eol) words.insert(name);
    }
    line = eol + 1;
  }
  return words;
}

// After a lambda's `]` at i - 1: the end of the `__host__ __device__` words (nvcc's extended
// lambda, `[=] __device__ (int i) {...}`) when a parameter list or body follows them, else 0.
// Clang takes no attribute there; the lambda needs none (the pass follows calls from kernels).
std::size_t lambda_space(std::string_view src, std::size_t i, const std::set<std::string>& words) {
  std::size_t j = i, end = 0;
  for (;;) {
    while (j < src.size() && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r')) ++j;
    std::size_t w = j;
    while (w < src.size() && ident_char(src[w])) ++w;
    if (w == j || !words.count(std::string(src.substr(j, w - j)))) break;
    end = j = w;
  }
  return end && j < src.size() && (src[j] == '(' || src[j] == '{' || src.compare(j, 7, "mutable") == 0) ? end : 0;
}

// The source with nvcc's extended-lambda words blanked (lines and columns kept): `[=] __device__
// (int i)` -> `[=]            (int i)`. Comments and literals are left alone.
std::string blank_lambda_words(std::string_view src) {
  const std::set<std::string> words = lambda_space_words(src);
  std::string out(src);
  for (std::size_t i = 0; i < src.size();) {
    const char c = src[i];
    if (c == '/' && i + 1 < src.size() && (src[i + 1] == '/' || src[i + 1] == '*')) {
      const std::size_t end = src[i + 1] == '/' ? src.find('\n', i) : src.find("*/", i + 2);
      i = end == std::string_view::npos ? src.size() : end + (src[i + 1] == '*' ? 2 : 0);
    } else if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < src.size() && src[j] != c && src[j] != '\n') j += src[j] == '\\' ? 2 : 1;
      i = j + 1;
    } else if (const std::size_t end = c == ']' ? lambda_space(src, i + 1, words) : 0) {
      for (std::size_t k = i + 1; k < end; ++k)
        if (src[k] != '\n' && src[k] != '\r') out[k] = ' ';
      i = end;
    } else {
      ++i;
    }
  }
  return out;
}

// asm statements with operands as nvcc takes them: a lone `%` before a PTX name doubled
// (`asm("mov.u64 %0, %globaltimer;" : "=l"(t))`, where Clang wants `%%globaltimer`; a `%` then
// a letter and a digit, an operand modifier such as `%c0`, is left alone) and a missing comma
// between two operands (`:: "r"(v) "l"(p)`) put in.
std::string escape_asm_percents(std::string_view src) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t i = src.find("asm"); i != std::string_view::npos; i = src.find("asm", i + 3)) {
    if ((i > 0 && ident_char(src[i - 1])) || (i + 3 < src.size() && ident_char(src[i + 3]))) continue;
    std::size_t open = skip_space(src, i + 3);
    for (const char* q : {"volatile", "__volatile__"})
      if (src.compare(open, std::strlen(q), q) == 0) open = skip_space(src, open + std::strlen(q));
    if (open >= src.size() || src[open] != '(') continue;
    const std::size_t close = matching_paren(src, open);
    if (close == std::string_view::npos) continue;
    std::size_t j = skip_space(src, open + 1);
    std::string tmpl;  // the template's literals, escaped
    while (j < close && src[j] == '"') {
      std::size_t e = j + 1;
      while (e < close && src[e] != '"') e += src[e] == '\\' ? 2 : 1;
      for (std::size_t k = j; k <= e && k < close; ++k) {
        tmpl += src[k];
        const bool name = k + 2 < e && src[k] == '%' && std::isalpha(static_cast<unsigned char>(src[k + 1])) &&
                          !std::isdigit(static_cast<unsigned char>(src[k + 2]));
        if (src[k] == '%' && k + 1 < e && src[k + 1] == '%') tmpl += src[++k];
        else if (name) tmpl += '%';
      }
      j = skip_space(src, e + 1);
      if (e + 1 < j) tmpl.append(src.substr(e + 1, j - e - 1));  // blanks and lines between literals kept
    }
    if (j >= close || src[j] != ':') continue;  // no operands: `%` is literal there
    const std::size_t first = skip_space(src, open + 1);
    out.append(src.substr(from, first - from));
    out += tmpl;
    // The operands; a missing comma between two (`"r"(v) "l"(p)`), which nvcc takes, put in.
    for (std::size_t k = j; k < close; ++k) {
      out += src[k];
      if (src[k] == ')' && skip_space(src, k + 1) < close && src[skip_space(src, k + 1)] == '"') out += ',';
    }
    from = close;
    i = close;
  }
  out.append(src.substr(from));
  return out;
}

}  // namespace

std::string line_directive(std::size_t line, std::string_view file_name) {
  std::string out = "#line " + std::to_string(line) + " \"";
  for (char c : file_name) {  // a string literal: control and non-ASCII bytes as octal escapes
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) {
      const char esc[] = {'\\', static_cast<char>('0' + (u >> 6)), static_cast<char>('0' + ((u >> 3) & 7)),
                          static_cast<char>('0' + (u & 7))};
      out.append(esc, 4);
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"\n";
}

std::string rewrite_cuda_launches(std::string_view src, std::string_view file_name) {
  if (src.substr(0, 3) == "\xEF\xBB\xBF") src.remove_prefix(3);  // a UTF-8 byte order mark: after #line, an error
  std::string out = line_directive(1, file_name);
  const std::size_t prefix = out.size();
  const std::string blanked = blank_lambda_words(escape_asm_percents(src));
  src = blanked;
  std::size_t i = 0;
  while (i < src.size()) {
    char c = src[i];
    if (c == '/' && i + 1 < src.size() && (src[i + 1] == '/' || src[i + 1] == '*')) {
      std::size_t end = src[i + 1] == '/' ? src.find('\n', i) : src.find("*/", i + 2);
      end = end == std::string_view::npos ? src.size() : end + (src[i + 1] == '*' ? 2 : 0);
      out.append(src.substr(i, end - i));
      i = end;
    } else if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < src.size() && src[j] != c && src[j] != '\n') j += src[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, src.size());
      out.append(src.substr(i, j - i));
      i = j;
    } else if (const std::size_t open_len = launch_open(src, i)) {
      // `<<<` (or `<< <`, which nvcc reads as the same tokens) up to `>>>` (or `>> >`).
      std::size_t close = i + open_len, close_len = 0;
      for (; close < src.size(); ++close)
        if ((close_len = launch_close(src, close))) break;
      if (!close_len) throw std::runtime_error(std::string(file_name) + ": `<<<` without `>>>`");
      const std::size_t k = kernel_start(out, out.size());
      if (k < prefix || k == out.size()) throw std::runtime_error(std::string(file_name) + ": no kernel name before `<<<`");
      // Line breaks between the kernel and `<<<` (`k\n  <<<...>>>`, a comment, a macro's `\`) go
      // after the launch's text, so every later line keeps its number.
      std::string blanks;
      const std::string kernel = kernel_text(out.substr(k), &blanks);
      out.resize(k);
      const std::size_t open = skip_space(src, close + close_len);
      const std::size_t end = open < src.size() && src[open] == '(' ? matching_paren(src, open) : std::string_view::npos;
      if (end == std::string_view::npos) {  // no argument list here (a macro's body): the kernel by address
        out += "::tgsim_cuda::launch(" + kernel + ", ";
        out.append(src.substr(i + open_len, close - i - open_len));
        out += ")" + blanks;
        i = close + close_len;
        continue;
      }
      // k<<<grid, block, shared, stream>>>(args) calls the kernel after pushing its configuration:
      // the kernel's host entry (the pass) launches itself, so C++ resolves the call (templates
      // deduced from the arguments, overloads, default arguments, conversions) as nvcc does.
      out += "(::tgsim_cuda::push_launch(";
      out.append(src.substr(i + open_len, close - i - open_len));
      out += "), " + kernel;
      out.append(src.substr(close + close_len, end + 1 - (close + close_len)));
      out += ", ::tgsim_cuda::pop_launch())" + blanks;
      i = end + 1;
    } else if (const std::size_t n = shared_alignas(src, i)) {
      // `__shared__ alignas(16) float s[64];`: nvcc's __shared__ is a GNU attribute, tgsim's
      // thread_local, after which Clang takes no alignas: it goes before the declaration.
      std::size_t at = out.size();
      while (at > prefix && (ident_char(out[at - 1]) || out[at - 1] == ' ' || out[at - 1] == '\t')) --at;
      while (at < out.size() && (out[at] == ' ' || out[at] == '\t')) ++at;
      const std::size_t a = skip_space(src, i + 10);
      out.insert(at, std::string(src.substr(a, n - a)) + " ");
      out += "__shared__";
      i = n;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

Language language_of(std::string_view path) {
  return path.size() >= 6 && path.substr(path.size() - 6) == ".metal" ? Language::kMetal : Language::kCuda;
}

std::string prepare_source(std::string_view source, std::string_view file_name) {
  if (language_of(file_name) == Language::kMetal) return adapt_metal(source, file_name);
  return rewrite_cuda_launches(inline_launching_headers(source, file_name), file_name);
}

}  // namespace tgsim::frontend
