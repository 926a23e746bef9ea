#include "i18n.hpp"

#include <regex>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "messages.hpp"

#ifndef TGSIM_VERSION
#define TGSIM_VERSION "unknown"
#endif

namespace tgsim::cli {

namespace {

bool env_is_japanese() {
  // The POSIX order: LC_ALL overrides LC_MESSAGES overrides LANG.
  for (const char* var : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
    const char* v = std::getenv(var);
    if (v && *v) return std::string_view(v).rfind("ja", 0) == 0;
  }
  return false;
}

Lang g_lang = env_is_japanese() ? Lang::kJa : Lang::kEn;

const std::map<std::string_view, const Message*>& index() {
  static const std::map<std::string_view, const Message*> m = [] {
    std::map<std::string_view, const Message*> out;
    for (const Message& msg : messages()) out.emplace(msg.key, &msg);
    return out;
  }();
  return m;
}

// Decodes one UTF-8 code point at s[i], advancing i.
char32_t next_cp(std::string_view s, std::size_t& i) {
  const auto b = static_cast<unsigned char>(s[i]);
  int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 1;
  char32_t cp = len == 1 ? b : len == 2 ? (b & 0x1f) : len == 3 ? (b & 0x0f) : (b & 0x07);
  for (int k = 1; k < len && i + k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
  i += static_cast<std::size_t>(len);
  return cp;
}

bool wide(char32_t cp) {  // East Asian Wide/Fullwidth ranges the messages use
  return (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf) || (cp >= 0xac00 && cp <= 0xd7a3) ||
         (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
         (cp >= 0xffe0 && cp <= 0xffe6);
}

}  // namespace

Lang lang() { return g_lang; }
void set_lang(Lang l) { g_lang = l; }

bool set_lang_from(const std::string& option) {
  if (option.empty()) g_lang = env_is_japanese() ? Lang::kJa : Lang::kEn;
  else if (option == "en") g_lang = Lang::kEn;
  else if (option == "ja") g_lang = Lang::kJa;
  else return false;
  return true;
}

namespace {

// A catalog entry's English as a pattern: its text, "{N}" any run of characters.
struct Pattern {
  std::regex re;
  std::vector<int> slots;  // the N of each group, in order
  const std::string* ja;
};

std::string escaped(std::string_view text) {
  std::string re;
  for (char c : text) {
    if (std::string_view(".^$|()[]{}*+?\\").find(c) != std::string_view::npos) re += '\\';
    re += c;
  }
  return re;
}

// The whole texts ("usage.", "launch.", "note.", "table." entries), or the pieces that fill
// their slots ("part." entries: "thread (1,0,0) and thread (33,0,0) of block (0,0,0)").
const std::vector<Pattern>& patterns(bool parts) {
  static const auto build = [](bool want_parts) {
    std::vector<Pattern> out;
    static const std::regex slot(R"(\{(\d)\})");
    for (const Message& m : messages()) {
      const bool whole = m.key.starts_with("usage.") || m.key.starts_with("launch.") || m.key.starts_with("note.") ||
                         m.key.starts_with("table.");
      if (want_parts ? !m.key.starts_with("part.") : !whole) continue;
      std::string re = "^";
      std::vector<int> slots;
      std::size_t at = 0;
      for (std::sregex_iterator it(m.en.begin(), m.en.end(), slot), end; it != end; ++it) {
        re += escaped(std::string_view(m.en).substr(at, it->position() - at));
        re += "([\\s\\S]*?)";  // any text, newlines too (a list of kernels)
        slots.push_back((*it)[1].str()[0] - '0');
        at = it->position() + it->length();
      }
      out.push_back({std::regex(re + escaped(std::string_view(m.en).substr(at)) + "$"), slots, &m.ja});
    }
    return out;
  };
  static const std::vector<Pattern> whole = build(false), pieces = build(true);
  return parts ? pieces : whole;
}

// `what` said by the first pattern whose English it matches, each slot's text said by a "part."
// entry where one matches it; `what` itself where none does.
std::string localize_with(const std::string& what, bool parts) {
  for (const Pattern& p : patterns(parts)) {
    std::smatch g;
    if (!std::regex_match(what, g, p.re)) continue;
    std::vector<std::string> args(10);
    for (std::size_t i = 0; i < p.slots.size(); ++i) args[p.slots[i]] = localize_with(g[i + 1].str(), true);
    std::string out = *p.ja;
    for (int n = 0; n < 10; ++n) {
      const std::string key = "{" + std::to_string(n) + "}";
      for (std::size_t pos; (pos = out.find(key)) != std::string::npos;) out.replace(pos, key.size(), args[n]);
    }
    return out;
  }
  return what;
}

}  // namespace

std::string localize_error(const std::string& what) {
  if (lang() != Lang::kJa) return what;
  return localize_with(what, false);
}

std::string localize_lines(const std::string& text) {
  if (lang() != Lang::kJa) return text;
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    out += localize_with(text.substr(at, end - at), false);
    if (end < text.size()) out += '\n';
    at = end + 1;
  }
  return out;
}

std::string error_line(const std::string& what, bool see_help) {
  return tr("error.prefix") + localize_error(what) + (see_help ? tr("error.see_help") : "");
}

std::string bound_name(const std::string& bound) {
  const std::string key = "bound." + bound;
  return has_message(key) ? tr(key) : bound;
}

const std::string& tr(std::string_view key) {
  auto it = index().find(key);
  if (it == index().end()) {
    static std::map<std::string, std::string, std::less<>> missing;  // returned by reference
    return missing.try_emplace(std::string(key), std::string(key)).first->second;
  }
  return g_lang == Lang::kJa && !it->second->ja.empty() ? it->second->ja : it->second->en;
}

// Japanese sets no space after 。、） or 」 before more Japanese text ("（ワープ 1 レーン 0）が",
// not "（ワープ 1 レーン 0） が"): a part that ends with one, put before a particle, loses the space.
std::string tidy_japanese(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    out += s[i];
    for (const std::string_view mark : {"\u3002", "\u3001", "\uff09", "\u300d"}) {
      const bool ends = out.size() >= mark.size() && out.compare(out.size() - mark.size(), mark.size(), mark) == 0;
      if (ends && i + 2 < s.size() && s[i + 1] == ' ' && static_cast<unsigned char>(s[i + 2]) >= 0xE3) {
        ++i;  // the space; a character from U+3000 on (kana, kanji, full-width) follows
        break;
      }
    }
  }
  return out;
}

std::string trf(std::string_view key, const std::vector<std::string>& args) {
  const std::string& t = tr(key);
  std::string out;
  std::size_t a = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '{' && i + 1 < t.size() && t[i + 1] == '}') {  // "{}": the next argument
      out += a < args.size() ? args[a] : std::string("{}");
      ++a;
      ++i;
    } else if (t[i] == '{' && i + 2 < t.size() && t[i + 1] >= '0' && t[i + 1] <= '9' && t[i + 2] == '}') {
      const std::size_t k = static_cast<std::size_t>(t[i + 1] - '0');  // "{3}": argument 3
      out += k < args.size() ? args[k] : t.substr(i, 3);
      i += 2;
    } else {
      out += t[i];
    }
  }
  return lang() == Lang::kJa ? tidy_japanese(out) : out;
}

bool has_message(std::string_view key) { return index().count(key) != 0; }

std::vector<std::string> message_keys() {
  std::vector<std::string> k;
  for (const Message& m : messages()) k.emplace_back(m.key);
  return k;
}

std::size_t display_width(std::string_view s) {
  std::size_t w = 0;
  for (std::size_t i = 0; i < s.size();) {
    const char32_t cp = next_cp(s, i);
    if (cp >= 0x20) w += wide(cp) ? 2 : 1;
  }
  return w;
}

std::string pad_right(const std::string& s, std::size_t w) {
  const std::size_t d = display_width(s);
  return d >= w ? s : s + std::string(w - d, ' ');
}

std::string pad_left(const std::string& s, std::size_t w) {
  // A cell as wide as its column or wider keeps one space before it: numbers of a table never
  // run together ("1,107,296,2561,040,187,392"), the row grows instead.
  const std::size_t d = display_width(s);
  return d >= w ? " " + s : std::string(w - d, ' ') + s;
}

std::string clip(const std::string& s, std::size_t w) {
  if (display_width(s) <= w) return s;
  std::string out;
  std::size_t used = 0;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t start = i;
    const char32_t cp = next_cp(s, i);
    const std::size_t cw = wide(cp) ? 2 : 1;
    if (used + cw + 1 > w) break;
    out.append(s, start, i - start);
    used += cw;
  }
  return out + "~";
}

// Splits a paragraph into units that may not be broken: runs of non-space ASCII/Latin text,
// runs of katakana (a word: ウェーブフロント), and single other wide characters (Japanese breaks
// between any two), kept with the characters no line may start with (、。）」 ー ッ ...) and
// opening brackets kept with what follows them (Japanese line-breaking rules, kinsoku).
// `space_before` says whether a space separated a unit from the previous one.
namespace {
struct Unit {
  std::string text;
  bool space_before;
};
// No line starts with these: closing punctuation and brackets, the long vowel mark, small kana.
bool no_line_start(char32_t cp) {
  static constexpr std::u32string_view kChars =
      U"\u3001\u3002\uff09\u300d\u300f\u3011\uff0c\uff1a\uff01\uff1f\u30fc\u30fb"
      U"\u3041\u3043\u3045\u3047\u3049\u3063\u3083\u3085\u3087\u308e"
      U"\u30a1\u30a3\u30a5\u30a7\u30a9\u30c3\u30e3\u30e5\u30e7\u30ee\u30f5\u30f6";
  return kChars.find(cp) != std::u32string_view::npos;
}
// No line ends with these: opening brackets.
bool no_line_end(char32_t cp) { return cp == 0xff08 || cp == 0x300c || cp == 0x300e || cp == 0x3010; }
bool katakana(char32_t cp) { return cp >= 0x30a1 && cp <= 0x30fc; }
std::vector<Unit> units(std::string_view p) {
  std::vector<Unit> out;
  bool space = false, last_wide = true;  // true: the first character opens a unit
  bool glue = false;                     // the last character was an opening bracket
  char32_t last = 0;
  for (std::size_t i = 0; i < p.size();) {
    const std::size_t start = i;
    const char32_t cp = next_cp(p, i);
    if (cp == ' ') {
      space = true;
      continue;
    }
    const bool w = wide(cp);
    // Closing punctuation stays with what it closes, a katakana with the word it continues, a
    // character with the opening bracket before it.
    const bool join = !out.empty() && !space && (glue || no_line_start(cp) || (katakana(cp) && katakana(last)));
    if (!join && (w || last_wide || space)) out.push_back({"", space});
    out.back().text.append(p.substr(start, i - start));
    last_wide = w;
    glue = no_line_end(cp);
    last = cp;
    space = false;
  }
  return out;
}
}  // namespace

std::string wrap(const std::string& text, std::size_t width, std::size_t indent) {
  std::string out;
  for (std::size_t start = 0;;) {
    std::size_t end = text.find('\n', start);
    const bool last = end == std::string::npos;
    if (last) end = text.size();
    const std::string_view para = std::string_view(text).substr(start, end - start);
    const std::size_t lead = std::min(para.find_first_not_of(' '), para.size());  // kept
    std::string line(lead, ' ');
    std::size_t used = lead;
    bool line_start = true;
    for (const Unit& u : units(para)) {
      const std::size_t uw = display_width(u.text);
      const std::size_t sep = (line_start || !u.space_before) ? 0 : 1;
      if (!line_start && used + sep + uw > width) {
        out += line + "\n";
        line = std::string(indent, ' ') + u.text;
        used = indent + uw;
        line_start = false;
        continue;
      }
      if (sep) line += ' ';
      line += u.text;
      used += sep + uw;
      line_start = false;
    }
    out += line;
    if (last) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string closest(std::string_view s, const std::vector<std::string>& names) {
  std::string best;
  std::size_t bd = SIZE_MAX;
  for (const std::string& n : names) {
    const std::size_t d = edit_distance(s, n);
    if (d < bd) {
      bd = d;
      best = n;
    }
  }
  const std::size_t limit = std::max<std::size_t>(2, std::max(s.size(), best.size()) / 3);
  return bd <= limit ? best : std::string();
}

std::string relative_path(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  if (ec || path.empty() || path[0] != '/') return path;
  const std::filesystem::path rel = std::filesystem::path(path).lexically_relative(cwd);
  if (!rel.empty() && *rel.begin() != "..") return rel.string();
  // A catalog kernel's file, outside the current directory: named from the project's root
  // ("kernels/transpose.cu"), never by the build machine's absolute path.
  const std::filesystem::path kernels = std::filesystem::path(TGSIM_KERNELS_DIR);
  const std::filesystem::path in_catalog = std::filesystem::path(path).lexically_relative(kernels);
  if (!in_catalog.empty() && *in_catalog.begin() != "..") return (kernels.filename() / in_catalog).string();
  return path;
}

const char* version() { return TGSIM_VERSION; }

}  // namespace tgsim::cli
