// The compile cache's rules (compile_cache.hpp).
#include "compile_cache.hpp"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "compile.hpp"

namespace tgsim::frontend {

namespace fs = std::filesystem;

namespace {

std::string octal_mode(mode_t m) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(m & 07777));
  return buf;
}

std::string home_from_passwd() {
  long size = ::sysconf(_SC_GETPW_R_SIZE_MAX);
  std::vector<char> buf(size > 0 ? static_cast<std::size_t>(size) : 16384);
  passwd pw{};
  passwd* found = nullptr;
  if (::getpwuid_r(::getuid(), &pw, buf.data(), buf.size(), &found) == 0 && found && found->pw_dir &&
      found->pw_dir[0] == '/')
    return found->pw_dir;
  return "";
}

// Where the cache is, before any check; "" when no place is known.
std::string cache_location() {
  if (const char* d = std::getenv("TGSIM_CACHE"); d && *d) return d;
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && d[0] == '/') return std::string(d) + "/tgsim";
  if (const char* d = std::getenv("HOME"); d && *d) return std::string(d) + "/.cache/tgsim";
  const std::string home = home_from_passwd();
  return home.empty() ? "" : home + "/.cache/tgsim";
}

std::string read_all(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  *ok = static_cast<bool>(in);
  if (!in) return "";
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Paths in a manifest: one per line, so a newline or backslash in a name is escaped.
std::string escape_path(const std::string& p) {
  std::string out;
  for (char c : p) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string unescape_path(const std::string& p) {
  std::string out;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\' && i + 1 < p.size()) {
      out += p[i + 1] == 'n' ? '\n' : p[i + 1];
      ++i;
    } else {
      out += p[i];
    }
  }
  return out;
}

}  // namespace

std::string content_hash(std::string_view bytes) {
  std::uint64_t a = 0xCBF29CE484222325ull, b = 0x84222325CBF29CE4ull ^ bytes.size();
  for (unsigned char c : bytes) {
    a = (a ^ c) * 0x100000001B3ull;
    b = (b ^ c) * 0x00000100000001B3ull;
    b ^= b >> 29;
  }
  char out[33];
  std::snprintf(out, sizeof out, "%016llx%016llx", static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b));
  return out;
}

std::string secure_cache_dir() {
  const std::string where = cache_location();
  if (where.empty())
    throw CacheError("no place for the compile cache: HOME is not set and the user has no home "
                       "directory; set TGSIM_CACHE to a directory of your own");
  const fs::path dir = fs::absolute(where);
  std::error_code ec;
  if (dir.has_parent_path()) fs::create_directories(dir.parent_path(), ec);
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    throw CacheError("cannot create the compile cache " + dir.string() + ": " + std::strerror(errno) +
                       " (set TGSIM_CACHE to a writable directory)");
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0)
    throw CacheError("cannot use the compile cache " + dir.string() + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode)) throw CacheError("the compile cache " + dir.string() + " is not a directory");
  if (st.st_uid != ::geteuid())
    throw CacheError("refusing the compile cache " + dir.string() + ": it belongs to user " +
                       std::to_string(st.st_uid) + ", not to you (set TGSIM_CACHE to a directory of your own)");
  if (st.st_mode & 022)
    throw CacheError("refusing the compile cache " + dir.string() + ": mode " + octal_mode(st.st_mode) +
                       " lets others write into it (chmod go-w it, or set TGSIM_CACHE)");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw CacheError("cannot write the compile cache " + dir.string() + ": " + std::strerror(errno) +
                       " (set TGSIM_CACHE to a writable directory)");
  return dir.string();
}

void check_entry_owner(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return;
  if (!S_ISREG(st.st_mode))
    throw CacheError("refusing the compile cache entry " + path + ": not a regular file");
  if (st.st_uid != ::geteuid())
    throw CacheError("refusing the compile cache entry " + path + ": it belongs to user " +
                       std::to_string(st.st_uid) + ", not to you");
  if (st.st_mode & 022)
    throw CacheError("refusing the compile cache entry " + path + ": mode " + octal_mode(st.st_mode) +
                       " lets others write it");
}

std::string write_manifest_text(const Manifest& m) {
  std::string out = "tgsim-cache 1\nkey " + m.key + "\nobject " + m.object_hash + "\n";
  for (const auto& [path, hash] : m.deps) out += "dep " + hash + " " + escape_path(path) + "\n";
  return out;
}

std::optional<Manifest> read_manifest_text(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != "tgsim-cache 1") return std::nullopt;
  Manifest m;
  while (std::getline(in, line)) {
    if (line.rfind("key ", 0) == 0) m.key = line.substr(4);
    else if (line.rfind("object ", 0) == 0) m.object_hash = line.substr(7);
    else if (line.rfind("dep ", 0) == 0 && line.size() > 4 + 33 && line[4 + 32] == ' ')
      m.deps.emplace_back(unescape_path(line.substr(4 + 33)), line.substr(4, 32));
    else return std::nullopt;
  }
  if (m.key.empty() || m.object_hash.size() != 32) return std::nullopt;
  return m;
}

std::vector<std::string> parse_depfile(const std::string& text) {
  std::vector<std::string> out;
  std::size_t i = 0;
  // Skip the target: up to the first ':' that is followed by a blank or the end of a line.
  for (; i < text.size(); ++i)
    if (text[i] == ':' && (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\n' ||
                           text[i + 1] == '\t' || text[i + 1] == '\\'))
      break;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(cur);
    cur.clear();
  };
  for (++i; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && i + 1 < text.size()) {
      const char n = text[i + 1];
      if (n == '\n') { flush(); ++i; }
      else if (n == '\r' && i + 2 < text.size() && text[i + 2] == '\n') { flush(); i += 2; }
      else if (n == ' ' || n == '#' || n == '\\') { cur += n; ++i; }
      else cur += c;
    } else if (c == '$' && i + 1 < text.size() && text[i + 1] == '$') {
      cur += '$';
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      flush();
    } else {
      cur += c;
    }
  }
  flush();
  return out;
}

bool entry_is_valid(const std::string& key, const std::string& so, const std::string& manifest_path) {
  struct stat st {};
  if (::lstat(so.c_str(), &st) != 0 || ::lstat(manifest_path.c_str(), &st) != 0) return false;
  check_entry_owner(so);
  check_entry_owner(manifest_path);
  bool ok = false;
  const std::optional<Manifest> m = read_manifest_text(read_all(manifest_path, &ok));
  if (!ok || !m || m->key != key) return false;
  for (const auto& [path, hash] : m->deps) {
    const std::string bytes = read_all(path, &ok);
    if (!ok || content_hash(bytes) != hash) return false;
  }
  const std::string object = read_all(so, &ok);
  return ok && content_hash(object) == m->object_hash;
}

void write_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    ::chmod(tmp.c_str(), 0600);
    out << text;
    out.flush();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw CacheError("cannot write " + path + " in the compile cache (disk full or read-only?)");
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw CacheError("cannot write " + path + " in the compile cache: " + ec.message());
  }
}

}  // namespace tgsim::frontend
