// What a kernel file's run prints besides its report (file_kernel.hpp): the path as shown, the
// JSON of a run with its buffers, and the one-line errors of a file that did not compile or load.
#include "file_kernel.hpp"


#include <CLI/CLI.hpp>
#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include <tgsim/kernel/abi.h>

#include "arg_types.hpp"
#include "buffers_out.hpp"
#include "commands.hpp"
#include <tgsim/internal/compile.hpp>
#include "i18n.hpp"
#include "report_words.hpp"
#include "struct_arg.hpp"
#include "texture_arg.hpp"
#include "try_pad.hpp"
#include <tgsim/internal/launch.hpp>
#include <tgsim/hash.hpp>


namespace tgsim::cli {

std::string shown_path(const std::string& path, const std::string& given) {
  std::error_code ec;
  if (path == given || std::filesystem::equivalent(path, given, ec)) return given;
  return relative_path(path);
}

std::string file_json(const FileRun& r, int indent) {
  nlohmann::ordered_json j;
  nlohmann::json rep = nlohmann::json::parse(to_json(r.report, -1));
  show_paths(rep["sites"], r.file);
  show_paths(rep["findings"], r.file);
  localize_findings(rep["findings"], r.report.findings);
  j["kernel"] = r.report.kernel;
  j["file"] = r.file;
  j["signature"] = r.signature;
  j["count"] = r.count;
  j["grid"] = rep["grid"];
  j["block"] = rep["block"];
  j["profile"] = rep["profile"];
  j["counters"] = rep["counters"];
  j["sites"] = rep["sites"];
  j["findings"] = rep["findings"];
  if (rep.contains("printed")) j["printed"] = rep["printed"];
  if (rep.contains("notes")) {  // prose for the reader, in the command's language like the text report's
    j["notes"] = nlohmann::ordered_json::array();
    for (const auto& n : rep["notes"]) j["notes"].push_back(localize_error(n.get<std::string>()));
  }
  if (rep.contains("sampled")) j["sampled"] = rep["sampled"];
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);  // names need not be UTF-8
}

std::string compile_error_text(const std::string& what) {
  const bool newline = !what.empty() && what.back() == '\n';
  const std::string line = newline ? what.substr(0, what.size() - 1) : what;
  if (line.find('\n') != std::string::npos) return what;  // the compiler's diagnostics
  const std::string text = localize_error(line);
  return text + (newline || text.empty() ? "" : "\n") + (newline ? "\n" : "");
}

int file_error(std::ostream& err, const FileLaunch& f, std::exception_ptr e) {
  try {
    std::rethrow_exception(e);
  } catch (const internal::CacheError& x) {
    return report_error("resource", x.what(), 2, error_line(x.what()));
  } catch (const internal::CompileError& x) {
    err << compile_error_text(x.what());
    return report_error("compile", f.file + " did not compile", 2, error_line(f.file + " did not compile"),
                        x.what());
  } catch (const UsageError& x) {
    return report_error("usage", x.what(), 2, error_line(x.what()));
  }  // anything else goes on to main's handlers
}

int run_file_command(std::ostream& os, std::ostream& err, const FileLaunch& f, const DeviceProfile& profile,
                     const LaunchConfig& base, bool json, bool advice, bool try_pads) {
  try {
    // The kernel's printf output streams while the launch runs: to the terminal before the
    // report; under --json into "printed", the first kJsonPrintedBytes of it with a note.
    constexpr std::uint64_t kJsonPrintedBytes = std::uint64_t(16) << 20;
    LaunchConfig cfg = base;
    std::string json_printed;
    std::uint64_t printed_bytes = 0;
    if (json) {
      cfg.print_out = [&](std::string_view text) {
        printed_bytes += text.size();
        if (json_printed.size() < kJsonPrintedBytes)
          json_printed.append(text.substr(0, kJsonPrintedBytes - json_printed.size()));
      };
    } else {
      cfg.print_out = [&](std::string_view text) {
        if (printed_bytes == 0) os << tr("run.printf") << "\n";
        printed_bytes += text.size();
        os << text;
      };
    }
    // The buffers are copied only for --save, --expect and pads tried: nothing else reads them.
    FileRun r = run_file(f, profile, cfg,
                         /*keep_buffers=*/!f.save.empty() || !f.expect.empty() || (advice && try_pads));
    if (json) {
      r.report.printed = std::move(json_printed);
      if (printed_bytes > kJsonPrintedBytes)
        r.report.notes.push_back(
            trf("note.printed_json", {std::to_string(printed_bytes), std::to_string(kJsonPrintedBytes)}));
    }
    save_buffers(r, f.save);
    const std::vector<ExpectResult> expected = expect_buffers(r, f.expect);
    bool as_expected = true;
    for (const ExpectResult& e : expected) as_expected = as_expected && e.differing == 0;
    SourceView view;
    const std::vector<Advice> rules = advice ? file_advice(f, r, profile, base, try_pads, &view) : std::vector<Advice>{};
    if (json) {
      if (expected.empty() && !advice) {
        os << file_json(r, 2) << "\n";
      } else {
        nlohmann::ordered_json j = nlohmann::ordered_json::parse(file_json(r, -1));
        if (!expected.empty()) j["expect"] = expect_json(expected);
        if (advice) j["advice"] = advice_json(view, rules, f.file);
        os << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      }
    } else {
      os << r.signature << "  (" << r.file << ")\n";
      write_text(os, r.report, report_words());
      os << "  " << tr("count." + r.count) << "\n";
      for (const std::string& n : r.report.notes) os << tr("note.prefix") << localize_error(n) << "\n";
      write_expect_text(os, expected);
      if (advice) write_advice_text(os, view, rules, f.file);
    }
    return r.report.findings.empty() && as_expected ? 0 : 1;
  } catch (...) {
    return file_error(err, f, std::current_exception());
  }
}

}  // namespace tgsim::cli
