// nvcc accepts a member template of a dependent type called without the `template` keyword
// (`vec_cast<T, S>::cast<N>(dst, src)`); Clang reads the `<` as less-than and, once the template
// is instantiated, fails with "reference to overloaded function could not be resolved" (or, where
// it sees the template at the definition, "missing 'template' keyword"). At such an error tgsim-nvcc puts `template` before the member's name, in a copy of the file, and
// compiles again: the name after the expression's first `::` at bracket depth 0 that is followed
// by `<` (template_keyword.cpp). Only the sites Clang reported are changed.
#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace tgsim::frontend {

// The files changed so far: absolute path -> its text with the keywords put in.
struct TemplateKeywordPatches {
  std::map<std::string, std::string> files;
  std::map<std::string, int> inserted;  // path -> keywords put in (for the note)
};

// Reads the compiler's output; for each error above at FILE:LINE:COL whose expression has the
// form, puts `template` in `patches` (reading FILE the first time). True when something new was
// put in.
bool add_template_keywords(const std::string& compiler_output, TemplateKeywordPatches& patches);

// Writes each patched file except `skip` under dir and a VFS overlay naming them in place of the
// originals (Clang's -ivfsoverlay; messages keep the original names); its path, or "" for none.
std::string write_overlay(const TemplateKeywordPatches& patches, const std::string& skip,
                          const std::filesystem::path& dir);

}  // namespace tgsim::frontend
