// The launch's printf output in group order, streamed (print_stream.hpp).
#include "report/print_stream.hpp"

#include <cstdlib>
#include <stdexcept>
#include <unistd.h>

namespace tgsim::detail {

PrintStream::PrintStream(Out out, std::uint64_t first, std::size_t memory_budget)
    : out_(std::move(out)), head_(first), budget_(memory_budget) {}

PrintStream::~PrintStream() {
  if (spill_) std::fclose(spill_);
}

void PrintStream::write(std::string_view text) {
  if (text.empty()) return;
  written_ += text.size();
  if (out_) out_(text);
  else collected_.append(text);
}

void PrintStream::write_chunk(const Chunk& c) {
  if (c.length == 0 || !c.text.empty()) {
    write(c.text);
    return;
  }
  std::string buf(std::min<std::uint64_t>(c.length, std::uint64_t(1) << 20), '\0');
  for (std::uint64_t done = 0; done < c.length;) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), c.length - done));
    if (std::fseek(spill_, static_cast<long>(c.offset + done), SEEK_SET) != 0 ||
        std::fread(buf.data(), 1, n, spill_) != n)
      throw std::runtime_error("printf output: cannot read back the spill file");
    write(std::string_view(buf.data(), n));
    done += n;
  }
}

// A waiting group's text goes to an unlinked file under TMPDIR (or /tmp) once the waiting
// text in memory passes the budget.
void PrintStream::spill(Chunk& c, std::string_view text) {
  if (!spill_) {
    const char* dir = std::getenv("TMPDIR");
    std::string path = std::string(dir && *dir ? dir : "/tmp") + "/tgsim-printf-XXXXXX";
    const int fd = mkstemp(path.data());
    if (fd < 0) throw std::runtime_error("printf output: cannot create a spill file in " + path);
    unlink(path.c_str());
    spill_ = fdopen(fd, "w+b");
    if (!spill_) {
      close(fd);
      throw std::runtime_error("printf output: cannot open the spill file");
    }
  }
  if (std::fseek(spill_, static_cast<long>(spill_end_), SEEK_SET) != 0 ||
      std::fwrite(text.data(), 1, text.size(), spill_) != text.size())
    throw std::runtime_error("printf output: cannot write the spill file (disk full?)");
  c.offset = spill_end_;
  c.length = text.size();
  spill_end_ += text.size();
  spilled_ += text.size();
}

void PrintStream::put(std::uint64_t g, std::string_view text, bool ended) {
  std::lock_guard<std::mutex> lock(mu_);
  if (g == head_) {
    write(text);
    if (ended) {
      ++head_;
      advance();
    }
    return;
  }
  Waiting& w = waiting_[g];
  w.ended = w.ended || ended;
  if (text.empty()) return;
  Chunk c;
  if (in_memory_ + text.size() <= budget_) {
    c.text.assign(text);
    c.length = text.size();
    in_memory_ += text.size();
  } else {
    spill(c, text);
  }
  w.chunks.push_back(std::move(c));
}

void PrintStream::advance() {
  for (auto it = waiting_.begin(); it != waiting_.end() && it->first == head_;) {
    for (const Chunk& c : it->second.chunks) {
      write_chunk(c);
      in_memory_ -= c.text.size();
    }
    const bool ended = it->second.ended;
    it = waiting_.erase(it);
    if (!ended) return;  // the head now: its next text writes through
    ++head_;
  }
}

void PrintStream::finish() {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [g, w] : waiting_)
    for (const Chunk& c : w.chunks) write_chunk(c);
  waiting_.clear();
  in_memory_ = 0;
}

}  // namespace tgsim::detail
