// Puts `template` where nvcc reads a dependent member template without it (template_keyword.hpp).
#include "template_keyword.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

namespace fs = std::filesystem;

namespace tgsim::frontend {

namespace {

// Clang's two errors for it: at the definition when it sees the template, else at instantiation.
const char* const kErrors[] = {": error: reference to overloaded function could not be resolved",
                               ": error: missing 'template' keyword prior to dependent template name"};

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// In `line` from byte `start`: the member named after the last `::` at angle-bracket depth 0 that
// is followed by `<`, before the expression's call `(` (or `;`, `{`); npos when there is none or
// `template` is already there.
size_t member_template_site(const std::string& line, size_t start) {
  size_t site = std::string::npos;
  int depth = 0;
  for (size_t i = start; i < line.size(); ++i) {
    const char c = line[i];
    if (depth == 0 && (c == '(' || c == ';' || c == '{')) break;
    if (c == '<') ++depth;
    else if (c == '>' && depth > 0) --depth;
    else if (depth == 0 && c == ':' && i + 1 < line.size() && line[i + 1] == ':') {
      size_t j = i + 2;
      while (j < line.size() && line[j] == ' ') ++j;
      size_t k = j;
      while (k < line.size() && ident_char(line[k])) ++k;
      size_t after = k;
      while (after < line.size() && line[after] == ' ') ++after;
      const std::string name = line.substr(j, k - j);
      if (k > j && after < line.size() && line[after] == '<' && name != "template" && name != "operator") site = j;
      ++i;
    }
  }
  return site;
}

std::string read_text(const std::string& path, bool& ok) {
  std::ifstream in(path, std::ios::binary);
  ok = static_cast<bool>(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Byte offset of 1-based line `line` in text; npos past the end.
size_t line_start(const std::string& text, int line) {
  size_t pos = 0;
  for (int l = 1; l < line; ++l) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return pos;
    ++pos;
  }
  return pos;
}

}  // namespace

bool add_template_keywords(const std::string& compiler_output, TemplateKeywordPatches& patches) {
  static const std::regex site_re(R"(^(.+):([0-9]+):([0-9]+)$)");
  std::set<std::tuple<std::string, int, int>, std::greater<>> sites;  // per file, last line and column first
  std::istringstream in(compiler_output);
  for (std::string l; std::getline(in, l);) {
    size_t at = std::string::npos;
    for (const char* e : kErrors) at = std::min(at, l.find(e));
    std::smatch m;
    const std::string where = at == std::string::npos ? std::string() : l.substr(0, at);
    if (at == std::string::npos || !std::regex_match(where, m, site_re)) continue;
    sites.emplace(fs::absolute(m[1].str()).lexically_normal().string(), std::stoi(m[2]), std::stoi(m[3]));
  }
  bool changed = false;
  for (const auto& [file, line, col] : sites) {
    if (!patches.files.count(file)) {
      bool ok = false;
      std::string text = read_text(file, ok);
      if (!ok) continue;
      patches.files[file] = std::move(text);
    }
    std::string& text = patches.files[file];
    const size_t begin = line_start(text, line);
    if (begin == std::string::npos) continue;
    const size_t end = text.find('\n', begin);
    const std::string ln = text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    if (static_cast<size_t>(col) > ln.size() + 1 || col < 1) continue;
    const size_t site = member_template_site(ln, static_cast<size_t>(col - 1));
    if (site == std::string::npos) continue;
    text.insert(begin + site, "template ");
    ++patches.inserted[file];
    changed = true;
  }
  return changed;
}

std::string write_overlay(const TemplateKeywordPatches& patches, const std::string& skip, const fs::path& dir) {
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> by_dir;  // dir -> (name, copy)
  int n = 0;
  for (const auto& [file, text] : patches.files) {
    if (file == skip) continue;
    const fs::path copy = dir / ("patched_" + std::to_string(n++) + "_" + fs::path(file).filename().string());
    std::ofstream(copy, std::ios::binary) << text;
    by_dir[fs::path(file).parent_path().string()].emplace_back(fs::path(file).filename().string(), copy.string());
  }
  if (n == 0) return "";
  std::ostringstream yaml;
  yaml << "{ 'version': 0, 'use-external-names': false, 'roots': [\n";
  bool first_dir = true;
  for (const auto& [d, files] : by_dir) {
    yaml << (first_dir ? "" : ",\n") << "  { 'type': 'directory', 'name': '" << d << "', 'contents': [";
    for (size_t i = 0; i < files.size(); ++i)
      yaml << (i ? ", " : " ") << "{ 'type': 'file', 'name': '" << files[i].first << "', 'external-contents': '"
           << files[i].second << "' }";
    yaml << " ] }";
    first_dir = false;
  }
  yaml << "\n] }\n";
  const fs::path overlay = dir / "template_keyword_overlay.yaml";
  std::ofstream(overlay, std::ios::binary) << yaml.str();
  return overlay.string();
}

}  // namespace tgsim::frontend
