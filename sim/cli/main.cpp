// tgsim: run GPU kernels on the CPU and print what the hardware counters would say.
//   tgsim tour                       the seed kernels side by side, with what the numbers mean
//   tgsim run KERNEL [--n N] [--threads T] [--schedule S] [--json]
//   tgsim run|check FILE.cu|FILE.metal --kernel K --grid X,Y --block X,Y ARG...   a user's kernel
//   tgsim list                       the kernels `run` knows
//   tgsim bench [--sizes 256,512]    tgsim's speed, as ratios
//   tgsim validate [--fixture F]     tgsim's counters side by side with the recorded H100 ones
//   tgsim check KERNEL [--n N] [--json] [--schedule S] [--threads T]   races, bounds, barriers
//   tgsim explain KERNEL [--site file:line] [--svg F] [--source] [--html F] | matmul --sweep tile=8,16,32
//   tgsim predict [--fixture F] [--json]   time estimates against the measured pairs
//   tgsim run ... --groups I/N --json > part; tgsim merge PART...   a launch sharded over processes
//   tgsim --version; --lang en|ja anywhere (default: from LANG)
// Each subcommand lives in its own file (commands.hpp). Usage errors print one line and exit 2.
#include <CLI/CLI.hpp>

#include <iostream>
#include <new>
#include <string_view>

#include "commands.hpp"
#include "file_kernel.hpp"
#include "help_formatter.hpp"
#include "i18n.hpp"
#include <tgsim/internal/compile.hpp>

int main(int argc, char** argv) {
  namespace cli = tgsim::cli;
  CLI::App app{"tgsim: GPU kernels on the CPU, counted as Nsight Compute counts them on an H100"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", std::string("tgsim ") + cli::version());
  // --lang on the program or after any subcommand (subcommands pass it up: fallthrough).
  std::string lang;
  app.add_option("--lang", lang, "language of the output: en, ja (default: from LANG)");
  app.fallthrough();
  const cli::Command commands[] = {cli::add_tour(app),    cli::add_run(app),      cli::add_list(app),
                                   cli::add_bench(app),   cli::add_check(app),    cli::add_explain(app),
                                   cli::add_validate(app), cli::add_predict(app), cli::add_merge(app)};
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--json") cli::set_json_errors(true);  // errors as JSON too
  for (int i = 1; i + 1 < argc; ++i)  // the language of a parse error
    if (std::string_view(argv[i]) == "--lang") cli::set_lang_from(argv[i + 1]);
  cli::use_help_formatter(app);  // --help in that language
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::string what = e.what();
    return cli::usage_error(what.empty() ? e.get_name() : what);
  }
  if (!cli::set_lang_from(lang)) return cli::usage_error(cli::trf("err.lang", {lang}));
  tgsim::internal::set_compile_warning_printer(
      [](const std::string& text) { std::fputs(cli::localize_lines(text).c_str(), stderr); });
  try {
    for (const cli::Command& c : commands)
      if (c.app->parsed()) return cli::finish_output(c.run());
    return cli::finish_output(commands[0].run());  // `tgsim` alone runs the tour
  } catch (const cli::KernelListing& e) {  // --kernel without a name
    std::fputs(e.what(), stdout);
    return 0;
  } catch (const tgsim::LaunchError& e) {
    return cli::report_error("launch", e.what(), 2, cli::tr("error.launch_prefix") + cli::localize_error(e.what()));
  } catch (const std::bad_alloc&) {
    return cli::report_error("resource", "out of memory", 2,
                             cli::error_line("out of memory (a buffer larger than this machine can hold?)"));
  } catch (const std::exception& e) {
    return cli::report_error("kernel", e.what(), 1, cli::tr("error.kernel_prefix") + cli::localize_error(e.what()));
  }
}
