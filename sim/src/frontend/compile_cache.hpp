// The compile cache of `tgsim run FILE`: shared objects that tgsim later dlopen()s, so the cache
// is code that runs as the user. Its rules:
// - Where: TGSIM_CACHE, else $XDG_CACHE_HOME/tgsim, else $HOME/.cache/tgsim, else the passwd
//   entry's home. Never a shared directory such as /tmp: another user could plant code there.
// - Whose: the directory and every entry must belong to the user and be writable by no one else
//   (a directory tgsim creates is 0700); anything else is refused with an error, never used.
// - What a key covers: the prepared main source, the compile command, the compiler, the pass
//   plugin and tgsim's version. An entry's manifest lists every file the compile read (the
//   compiler's own dependency list) with a hash of its contents, and a hash of the object: an
//   entry is used only while every listed file is unchanged and the object is whole, else the
//   file is compiled again and the entry replaced (written to temporaries, then renamed).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tgsim::frontend {

// A 128-bit content hash (two independent 64-bit FNV-1a streams), as 32 hex digits. It detects
// damaged or swapped entries and changed files; ownership and modes keep others out.
std::string content_hash(std::string_view bytes);

// The cache directory, created 0700 when missing; throws CompileError when it cannot be used
// safely (not ours, writable by group or others, not a directory) or at all.
std::string secure_cache_dir();

// Throws CompileError unless `path` is a regular file owned by the user and writable by no one else.
void check_entry_owner(const std::string& path);

// One cached compile: the object's hash and the files the compile read, each with its hash.
struct Manifest {
  std::string key;          // the entry's key, repeated inside (a renamed manifest does not match)
  std::string object_hash;  // content_hash of the shared object
  std::vector<std::pair<std::string, std::string>> deps;  // path, content_hash
};

std::string write_manifest_text(const Manifest& m);
std::optional<Manifest> read_manifest_text(const std::string& text);

// The prerequisites of a Make-syntax dependency file as Clang writes it (-MD -MF).
std::vector<std::string> parse_depfile(const std::string& text);

// Whether the entry (`so`, `manifest`) under `key` may be used: owned by the user, the manifest
// well formed and of this key, every dependency unchanged, the object whole.
bool entry_is_valid(const std::string& key, const std::string& so, const std::string& manifest_path);

// Writes `text` to `path` through a temporary beside it and a rename (readers see all or nothing).
void write_atomically(const std::string& path, const std::string& text);

}  // namespace tgsim::frontend
