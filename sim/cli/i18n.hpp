// The messages of the tgsim command in English and Japanese, in one catalog (i18n.cpp), and
// the text helpers every command shares: the display width of UTF-8 text (a CJK character
// takes two terminal columns), wrapping to a width (between words, and between any two CJK
// characters), did-you-mean suggestions, and site paths relative to the current directory.
// Japanese uses the seeds' terms: スレッドグループ, ワープ, 共有メモリ, バンクコンフリクト,
// コアレッシング, セクタ.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace tgsim {
struct Finding;
}

namespace tgsim::cli {

enum class Lang { kEn, kJa };

// The language of this process: set by --lang, else from LANG/LC_ALL/LC_MESSAGES (ja_* ->
// Japanese), else English.
Lang lang();
void set_lang(Lang l);
// "en", "ja" or "" (the environment's); false for anything else.
bool set_lang_from(const std::string& option);

// The text of message `key` in the current language; `key` itself when the catalog has no
// such message (a test checks every key the code uses is there).
const std::string& tr(std::string_view key);
// tr(key) with "{}" replaced by the arguments in order, "{0}".."{9}" by that argument.
std::string trf(std::string_view key, const std::vector<std::string>& args);
bool has_message(std::string_view key);
// An error's line: "tgsim: error: WHAT" (with " (see tgsim --help)" when `see_help`); in Japanese
// "tgsim: エラー: " and WHAT said by the catalog's "usage." entry whose English it matches
// (messages_errors.cpp), WHAT itself where none does.
std::string error_line(const std::string& what, bool see_help = false);
std::string localize_error(const std::string& what);
// Each line of `text` said as localize_error says it (the compiler's warnings: the ones tgsim's
// pass writes are in the catalog, Clang's own stay as Clang wrote them).
std::string localize_lines(const std::string& text);
// The unit that binds an estimate (Estimate::bound: dram, l2, l1, fp32, latency) in words: the
// name itself in English, "DRAM 帯域", "レイテンシ" ... in Japanese.
std::string bound_name(const std::string& bound);
std::vector<std::string> message_keys();

// The example sentence of a checker finding (check.cpp): Finding::message in English; in
// Japanese, built from the finding's fields (kind, sites, block, thread, warp, lane, object,
// index), which hold everything but the English message's extra detail (a buffer's size, an
// unsupported feature's name).
std::string finding_example(const Finding& f);
// In a language other than English, each finding's "message" becomes the report's sentence in
// that language (finding_example) and the English one moves to "message_en", so a program may
// read either; `list` holds the JSON of `findings`, in order.
template <class Json>
void localize_findings(Json& list, const std::vector<Finding>& findings) {
  if (lang() == Lang::kEn) return;
  for (std::size_t i = 0; i < findings.size() && i < list.size(); ++i) {
    list[i]["message_en"] = list[i]["message"];
    list[i]["message"] = finding_example(findings[i]);
  }
}

// The example's block, and its thread where the example's text names none (a fault, a trap, an
// out-of-bounds access: "(0,0,0) thread (5,0,0)").
std::string example_place(const Finding& f);

// Terminal columns of UTF-8 text (East Asian wide characters count 2).
std::size_t display_width(std::string_view s);
// Pads (left-aligned) or right-aligns `s` to `w` display columns; pad_left puts one space
// before a cell that fills or overflows its column, so that right-aligned cells never touch.
std::string pad_right(const std::string& s, std::size_t w);
std::string pad_left(const std::string& s, std::size_t w);
// Truncates to `w` columns, the last one "~" when something was cut.
std::string clip(const std::string& s, std::size_t w);
// Wraps each paragraph (lines separated by '\n') to `width` columns; continuation lines get
// `indent` spaces. Breaks at spaces, and between two CJK characters.
std::string wrap(const std::string& text, std::size_t width = 100, std::size_t indent = 0);

// Levenshtein distance, and the closest of `names` to `s` ("" when none is within a third
// of the longer length, at least 2 edits).
std::size_t edit_distance(std::string_view a, std::string_view b);
std::string closest(std::string_view s, const std::vector<std::string>& names);

// `path` relative to the current directory when it lies inside it; a catalog kernel's file
// elsewhere as "kernels/FILE"; else unchanged.
std::string relative_path(const std::string& path);

// The version of tgsim (CMake's project version) and the JSON schema of its output.
const char* version();
constexpr int kJsonSchema = 1;

}  // namespace tgsim::cli
