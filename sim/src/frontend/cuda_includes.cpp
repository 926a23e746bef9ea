// Headers that launch kernels, put in the including file's place (cuda_source.hpp): the <<<...>>>
// rewrite works on one text, and public CUDA code launches from headers (a library's
// `inline void run(...) { k<<<...>>>(...); }`, a benchmark's kernels.cuh).
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "cuda_source.hpp"

namespace fs = std::filesystem;

namespace tgsim::frontend {

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The name in a line `#include "name"` (blanks allowed around '#'); empty for any other line.
std::string quoted_include(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || line[i] != '#') return {};
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string_view::npos || line.compare(i, 7, "include") != 0) return {};
  i = line.find_first_not_of(" \t", i + 7);
  if (i == std::string_view::npos || line[i] != '"') return {};
  const std::size_t end = line.find('"', i + 1);
  return end == std::string_view::npos ? std::string() : std::string(line.substr(i + 1, end - i - 1));
}

bool is_pragma_once(std::string_view line) {
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || line[i] != '#') return false;
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string_view::npos || line.compare(i, 6, "pragma") != 0) return false;
  i = line.find_first_not_of(" \t", i + 6);
  return i != std::string_view::npos && line.compare(i, 4, "once") == 0;
}

fs::path resolve(const fs::path& includer, const std::string& name) {
  std::error_code ec;
  const fs::path p = fs::path(name).is_absolute() ? fs::path(name) : includer.parent_path() / name;
  return fs::is_regular_file(p, ec) ? fs::weakly_canonical(p, ec) : fs::path();
}

class Inliner {
 public:
  // Whether `file` launches a kernel, itself or through a header it includes with quotes.
  bool launches(const fs::path& file) {
    if (auto it = launches_.find(file); it != launches_.end()) return it->second;
    launches_[file] = false;  // an include cycle counts as no launch
    const std::string text = read_text(file);
    bool yes = text.find("<<<") != std::string::npos;
    std::istringstream lines(text);
    for (std::string line; !yes && std::getline(lines, line);)
      if (const std::string name = quoted_include(line); !name.empty())
        if (const fs::path p = resolve(file, name); !p.empty()) yes = launches(p);
    return launches_[file] = yes;
  }

  std::string inline_into(std::string_view text, const fs::path& file, std::string_view shown_name, bool header) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a UTF-8 byte order mark
    std::string out;
    std::size_t line_no = 0, at = 0;
    while (at < text.size()) {
      std::size_t end = text.find('\n', at);
      const bool last = end == std::string_view::npos;
      if (last) end = text.size();
      const std::string_view line = text.substr(at, end - at);
      ++line_no;
      at = last ? text.size() : end + 1;
      const std::string name = quoted_include(line);
      const fs::path p = name.empty() ? fs::path() : resolve(file, name);
      if (!p.empty() && launches(p)) {
        if (inlined_.insert(p).second) {
          out += line_directive(1, p.string());
          std::string body = inline_into(read_text(p), p, p.string(), true);
          if (!body.empty() && body.back() != '\n') body += '\n';
          out += body;
          out += line_directive(line_no + 1, shown_name);
        } else {
          out += '\n';
        }
        continue;
      }
      if (header && is_pragma_once(line)) {
        out += '\n';
        continue;
      }
      out.append(line);
      if (!last) out += '\n';
    }
    return out;
  }

 private:
  std::map<fs::path, bool> launches_;
  std::set<fs::path> inlined_;
};

}  // namespace

std::string inline_launching_headers(std::string_view source, std::string_view file_name) {
  std::error_code ec;
  const fs::path file = fs::weakly_canonical(fs::absolute(fs::path(file_name), ec), ec);
  if (source.find("#") == std::string_view::npos) return std::string(source);
  Inliner inliner;
  return inliner.inline_into(source, file, file_name, false);
}

}  // namespace tgsim::frontend
