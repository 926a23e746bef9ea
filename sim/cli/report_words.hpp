// The text report's words in the command's language (i18n.hpp's lang()): English, or Japanese
// in the seeds' terms, with the findings' example sentences built in Japanese.
#pragma once
#include <tgsim/launch.hpp>
#include <tgsim/report.hpp>

namespace tgsim::cli {

ReportWords report_words();
// Turns a launch's progress lines on or off, in the command's language.
void set_progress(LaunchConfig& cfg, bool on);

}  // namespace tgsim::cli
