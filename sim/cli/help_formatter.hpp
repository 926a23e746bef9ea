// tgsim --help in the current language: a CLI11 formatter that says the program's, the
// subcommands' and the options' descriptions, CLI11's labels (Usage, OPTIONS, REQUIRED ...) and
// the value types (TEXT, INT, a range) from the catalog's "help." entries (messages_help.cpp)
// under --lang ja, and exactly as CLI11 does in English.
#pragma once
#include <string>

namespace CLI {
class App;
}

namespace tgsim::cli {

// Gives `program` and each of its subcommands the formatter (call after adding them all).
void use_help_formatter(CLI::App& program);
// The Japanese of a description given to CLI11 in English (a "help." entry whose English it
// is), the description itself in English or where the catalog has none.
std::string help_text(const std::string& english);

}  // namespace tgsim::cli
