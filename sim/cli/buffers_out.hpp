// Buffers back from a kernel file's run (`tgsim run|check FILE ... --save PARAM=PATH
// --expect PARAM=PATH[:RTOL]`): PARAM names a buffer parameter by its name or its 0-based index.
// --save writes the buffer's bytes after the launch; --expect compares the buffer with a file of
// raw values of the buffer's element type: integers exactly, float and double components within
// the relative tolerance RTOL (default 0: equal values; NaN matches NaN). A difference is a
// finding of the run (exit status 1) naming the first differing element and how many differ.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "file_kernel.hpp"

namespace tgsim::cli {

struct ExpectResult {
  std::string buffer, file;  // "arg 2 (C)", the reference file
  double rtol = 0;
  std::size_t elements = 0, differing = 0;
  std::size_t first = 0;     // the first differing element (when differing > 0)
  std::string got, want;     // its values, as text
};

// Throws UsageError for an unknown PARAM, a missing '=' or an unwritable PATH.
void save_buffers(const FileRun& r, const std::vector<std::string>& specs);
// Throws UsageError for an unknown PARAM, a bad RTOL, or a file that is not the buffer's size.
std::vector<ExpectResult> expect_buffers(const FileRun& r, const std::vector<std::string>& specs);

void write_expect_text(std::ostream& os, const std::vector<ExpectResult>& e);
nlohmann::ordered_json expect_json(const std::vector<ExpectResult>& e);

}  // namespace tgsim::cli
