#include "help_formatter.hpp"

#include <CLI/CLI.hpp>

#include <map>
#include <memory>
#include <regex>

#include "i18n.hpp"
#include "messages.hpp"

namespace tgsim::cli {

std::string help_text(const std::string& english) {
  if (lang() != Lang::kJa) return english;
  static const std::map<std::string, const std::string*> by_english = [] {
    std::map<std::string, const std::string*> out;
    for (const Message& m : help_messages()) out.emplace(m.en, &m.ja);
    return out;
  }();
  const auto it = by_english.find(english);
  return it == by_english.end() ? english : *it->second;
}

namespace {

// A value type as CLI11 names it: "TEXT", "UINT", "INT:INT in [1 - 100]", "TEXT:{all,none}".
std::string type_text(const std::string& type) {
  static const std::regex range(R"((\w+):\w+ in \[(\S+) - (\S+)\])"), choice(R"((\w+):\{([^}]*)\})");
  std::smatch m;
  if (std::regex_match(type, m, range))
    return trf("help.type.range", {help_text(m[1].str()), m[2].str(), m[3].str()});
  if (std::regex_match(type, m, choice)) {
    std::string names = m[2].str();
    for (std::size_t at; (at = names.find(',')) != std::string::npos;) names.replace(at, 1, "、");
    return trf("help.type.choice", {help_text(m[1].str()), names});
  }
  return help_text(type);
}

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_description(const CLI::App* app) const override {
    const std::string desc = help_text(app->get_description());
    return desc.empty() ? std::string() : desc + "\n";
  }
  std::string make_usage(const CLI::App* app, std::string name) const override {
    std::string usage = CLI::Formatter::make_usage(app, std::move(name));
    return lang() == Lang::kJa ? replace_labels(usage) : usage;
  }
  std::string make_group(std::string group, bool is_positional,
                         std::vector<const CLI::Option*> opts) const override {
    return CLI::Formatter::make_group(help_text(group), is_positional, std::move(opts));
  }
  std::string make_positionals(const CLI::App* app) const override {
    std::vector<const CLI::Option*> opts =
        app->get_options([](const CLI::Option* o) { return !o->get_group().empty() && o->get_positional(); });
    return opts.empty() ? std::string() : make_group("Positionals", true, opts);
  }
  std::string make_subcommands(const CLI::App* app, CLI::AppFormatMode mode) const override {
    std::string out = CLI::Formatter::make_subcommands(app, mode);
    const std::string group = "\nSubcommands:\n";
    if (const auto at = out.find(group); at != std::string::npos && lang() == Lang::kJa)
      out.replace(at, group.size(), "\n" + help_text("Subcommands") + ":\n");
    return out;
  }
  // CLI11's " TYPE[=DEFAULT][ ...][ REQUIRED]" with the type and REQUIRED in the current language.
  std::string make_option_opts(const CLI::Option* opt) const override {
    std::string out = CLI::Formatter::make_option_opts(opt);
    if (lang() != Lang::kJa || !opt->get_option_text().empty()) return out;
    const std::string type = " " + opt->get_type_name();
    if (opt->get_type_size() != 0 && !opt->get_type_name().empty() && out.rfind(type, 0) == 0)
      out.replace(0, type.size(), " " + type_text(opt->get_type_name()));
    const std::string required = " REQUIRED";
    if (const auto at = out.rfind(required); opt->get_required() && at != std::string::npos)
      out.replace(at, required.size(), help_text("REQUIRED"));  // "（必須）"
    return out;
  }
  // CLI11's layout (name column, then the description), the column measured in display columns.
  std::string make_option(const CLI::Option* opt, bool is_positional) const override {
    return row(make_option_name(opt, is_positional) + make_option_opts(opt), make_option_desc(opt));
  }
  std::string make_subcommand(const CLI::App* sub) const override {
    return row(sub->get_display_name(true), help_text(sub->get_description()));
  }
  std::string make_option_desc(const CLI::Option* opt) const override {
    return help_text(opt->get_description());
  }

 private:
  std::string row(const std::string& name, const std::string& desc) const {
    std::string out = "  " + name;
    const std::size_t used = display_width(out);
    if (!desc.empty()) {
      if (used >= column_width_) out += "\n" + std::string(column_width_, ' ');
      else out += std::string(column_width_ - used, ' ');
      for (char c : desc) out += c == '\n' ? "\n" + std::string(column_width_, ' ') : std::string(1, c);
    }
    return out + "\n";
  }
  // "Usage: tgsim run [OPTIONS] target" -> its labels in the current language.
  static std::string replace_labels(std::string s) {
    for (const char* label : {"Usage", "OPTIONS", "SUBCOMMAND"}) {
      const std::string from = std::string(label == std::string("Usage") ? "" : "[") + label;
      const std::string to = std::string(label == std::string("Usage") ? "" : "[") + help_text(label);
      if (const auto at = s.find(from); at != std::string::npos) s.replace(at, from.size(), to);
    }
    return s;
  }
};

}  // namespace

void use_help_formatter(CLI::App& program) {
  const auto formatter = std::make_shared<HelpFormatter>();
  program.formatter(formatter);
  for (CLI::App* sub : program.get_subcommands({})) sub->formatter(formatter);
}

}  // namespace tgsim::cli
