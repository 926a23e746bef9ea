// The <<<...>>> rewrite (cuda_source.hpp). The text is scanned once, skipping comments, string
// and character literals; at each `<<<` the kernel expression before it (an identifier with
// optional `::` qualifiers and template arguments) and the launch parameters up to the matching
// `>>>` are taken apart.
#include "cuda_source.hpp"

#include <stdexcept>

#include "metal_adapter.hpp"

namespace tgsim::frontend {

namespace {

bool ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Where the kernel expression ending just before `end` starts (out.size() positions).
std::size_t kernel_start(const std::string& out, std::size_t end) {
  std::size_t i = end;
  while (i > 0 && (out[i - 1] == ' ' || out[i - 1] == '\t')) --i;
  for (;;) {
    if (i > 0 && out[i - 1] == '>') {  // template arguments
      int depth = 0;
      while (i > 0) {
        char c = out[--i];
        if (c == '>') ++depth;
        else if (c == '<' && --depth == 0) break;
      }
      while (i > 0 && (out[i - 1] == ' ' || out[i - 1] == '\t')) --i;
    }
    while (i > 0 && ident_char(out[i - 1])) --i;
    if (i >= 2 && out[i - 1] == ':' && out[i - 2] == ':') {
      i -= 2;
      continue;
    }
    return i;
  }
}

}  // namespace

std::string rewrite_cuda_launches(std::string_view src, std::string_view file_name) {
  std::string out = "#line 1 \"";
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
  out += "\"\n";
  const std::size_t prefix = out.size();
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
    } else if (src.compare(i, 3, "<<<") == 0) {
      const std::size_t close = src.find(">>>", i + 3);
      if (close == std::string_view::npos) throw std::runtime_error(std::string(file_name) + ": `<<<` without `>>>`");
      const std::size_t k = kernel_start(out, out.size());
      if (k < prefix || k == out.size()) throw std::runtime_error(std::string(file_name) + ": no kernel name before `<<<`");
      std::string kernel = out.substr(k);
      out.resize(k);
      while (!kernel.empty() && (kernel.back() == ' ' || kernel.back() == '\t')) kernel.pop_back();
      out += "::tgsim_cuda::launch(" + kernel + ", ";
      out.append(src.substr(i + 3, close - i - 3));
      out += ")";
      i = close + 3;
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
  return language_of(file_name) == Language::kMetal ? adapt_metal(source, file_name)
                                                     : rewrite_cuda_launches(source, file_name);
}

}  // namespace tgsim::frontend
