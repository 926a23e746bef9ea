// Fiber stack overflow -> a clear message and exit status; wild accesses -> a zero page in
// their place, or a clear message and exit status (guard.hpp).
#include "engine/guard.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <tgsim/errors.hpp>
#include <tgsim/thread.hpp>

#include "engine/group.hpp"

namespace tgsim::detail {

namespace {

struct Guard {
  std::uintptr_t lo, hi;
  std::size_t stack_bytes;
};
// Per worker thread, trivially initialised (no TLS wrapper: safe to read in the handler).
struct GuardTable {
  Guard* items;
  std::size_t n, cap;
};
constinit thread_local GuardTable* tl_guards = nullptr;
constinit thread_local bool tl_altstack = false;

struct sigaction previous_segv;
std::uintptr_t page_bytes = 4096;  // set before the handler is installed

// The wild pages of the launches running (guard.hpp): slots [0, wild_taken) were taken, a slot
// holds its page's address or 0 (given up). Lock-free: the handler fills them.
std::atomic<std::uintptr_t> wild_pages[kMaxWildPages];
std::atomic<std::size_t> wild_taken{0};
std::mutex wild_mu;  // begin/end of launches; never taken by the handler
int wild_launches = 0;

bool is_wild_page(std::uintptr_t pg) {
  const std::size_t n = std::min(wild_taken.load(std::memory_order_acquire), kMaxWildPages);
  for (std::size_t i = 0; i < n; ++i)
    if (wild_pages[i].load(std::memory_order_acquire) == pg) return true;
  return false;
}

// Maps a zero page over the unmapped page holding `a`; true when the access can run again.
// Two workers faulting on one page: both take a slot, one mapping wins, the other finds it.
bool map_wild_page(std::uintptr_t a) {
  const std::uintptr_t pg = a & ~(page_bytes - 1);
  if (pg < page_bytes) return false;  // the null page
  if (is_wild_page(pg)) return true;   // another worker mapped it meanwhile
  const std::size_t i = wild_taken.fetch_add(1, std::memory_order_acq_rel);
  if (i >= kMaxWildPages) return false;
  wild_pages[i].store(pg, std::memory_order_release);
  void* want = reinterpret_cast<void*>(pg);
  void* got = ::mmap(want, page_bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (got == want) return true;
  const int err = errno;
  if (got != MAP_FAILED) ::munmap(got, page_bytes);  // a kernel that took the flag as a hint
  wild_pages[i].store(0, std::memory_order_release);
  return err == EEXIST && is_wild_page(pg);
}

// Async-signal-safe formatting.
struct Msg {
  char buf[512];
  std::size_t n = 0;
  void put(const char* s) {
    while (*s && n < sizeof buf) buf[n++] = *s++;
  }
  void num(std::uint64_t v) {
    char t[24];
    int k = 0;
    do t[k++] = static_cast<char>('0' + v % 10); while ((v /= 10) && k < 24);
    while (k && n < sizeof buf) buf[n++] = t[--k];
  }
  void dim(const Dim3& d) {
    put("(");
    num(d.x);
    put(",");
    num(d.y);
    put(",");
    num(d.z);
    put(")");
  }
};

bool fatal_json = false;

// `m`'s line on stderr and, under set_fatal_errors_as_json, as a JSON error on stdout. The
// first thread to end the process writes; another one that faults meanwhile waits for that end
// (so the output is one line and one JSON object, never two interleaved).
std::atomic<bool> fatal_taken{false};
void write_fatal(const Msg& m, const char* kind, int status) {
  if (fatal_taken.exchange(true))
    for (;;) ::pause();
  ssize_t ignored = ::write(2, m.buf, m.n);
  if (!fatal_json) {
    (void)ignored;
    return;
  }
  Msg j;
  j.put("\n{\"error\": {\"kind\": \"");
  j.put(kind);
  j.put("\", \"message\": \"");
  for (std::size_t i = 0; i < m.n && m.buf[i] != '\n' && j.n + 2 < sizeof j.buf; ++i) {
    if (m.buf[i] == '"' || m.buf[i] == '\\') j.buf[j.n++] = '\\';
    j.buf[j.n++] = m.buf[i];
  }
  j.put("\", \"exit_status\": ");
  j.num(static_cast<std::uint64_t>(status));
  j.put("}}\n");
  ignored = ::write(1, j.buf, j.n);
  (void)ignored;
}

// The faulting instruction's source line, "file.cu:12", into `out` (false: none found): the
// object holding `pc` (dladdr) and addr2line run on it (vfork and execve, which a signal handler
// may call; the fault ends the process anyway). For a store, whose record comes after it, and an
// access of the thread's before any record.
bool code_line(std::uintptr_t pc, char* out, std::size_t cap) {
  Dl_info info{};
  if (!pc || !::dladdr(reinterpret_cast<void*>(pc), &info) || !info.dli_fname || !*info.dli_fname) return false;
  char off[24] = "0x";
  std::uintptr_t v = pc - reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  int k = 0;
  char t[20];
  do t[k++] = "0123456789abcdef"[v & 15]; while ((v >>= 4) && k < 16);
  for (int i = 0; i < k; ++i) off[2 + i] = t[k - 1 - i];
  off[2 + k] = 0;
  int fds[2];
  if (::pipe(fds) != 0) return false;
  const char* argv[] = {"addr2line", "-e", info.dli_fname, off, nullptr};
  const char* envp[] = {nullptr};
  const pid_t pid = ::vfork();
  if (pid == 0) {
    ::dup2(fds[1], 1);
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0) ::dup2(null, 2);
    ::execve("/usr/bin/addr2line", const_cast<char* const*>(argv), const_cast<char* const*>(envp));
    ::_exit(127);
  }
  ::close(fds[1]);
  char buf[512];
  std::size_t n = 0;
  for (ssize_t r; pid > 0 && n + 1 < sizeof buf && (r = ::read(fds[0], buf + n, sizeof buf - 1 - n)) > 0;)
    n += static_cast<std::size_t>(r);
  ::close(fds[0]);
  if (pid > 0) ::waitpid(pid, nullptr, 0);
  buf[n] = 0;
  // "/dir/file.cu:12" or "/dir/file.cu:12 (discriminator 1)"; "??:0" or "file:?" when unknown.
  std::size_t end = 0;
  while (end < n && buf[end] != '\n' && buf[end] != ' ') ++end;
  std::size_t start = end;
  while (start > 0 && buf[start - 1] != '/') --start;
  std::size_t colon = end;
  while (colon > start && buf[colon - 1] != ':') --colon;
  if (colon <= start + 1 || colon >= end || buf[start] == '?' || (end - colon == 1 && buf[colon] == '0')) return false;
  for (std::size_t i = colon; i < end; ++i)
    if (buf[i] < '0' || buf[i] > '9') return false;
  if (end - start + 1 > cap) return false;
  std::memcpy(out, buf + start, end - start);
  out[end - start] = 0;
  return true;
}

[[noreturn]] void wild_access_exit(std::uintptr_t a, bool known, std::uintptr_t pc) {
  Msg m;
  m.put("tgsim: simulated thread ");
  const ThreadCtx* t = current;
  m.dim(t->thread_idx);
  m.put(" of block ");
  m.dim(t->block_idx);
  if (known) {
    m.put(" accessed address 0x");
    char h[17];
    const std::uintptr_t fault = a;
    for (int k = 15; k >= 0; --k, a >>= 4) h[k] = "0123456789abcdef"[a & 15];
    h[16] = 0;
    m.put(h);
    // Where: a load is recorded before it is made, so the thread's last record is the faulting
    // access when its address is on the faulting page; a store is recorded after it, so then
    // the last record is the access before it.
    std::uint64_t last = 0;
    const char* file = nullptr;
    std::uint32_t line = 0;
    char here[256];
    const bool recorded = t->group_ && t->group_->last_access(*t, &last, &file, &line);
    if (recorded && (last >> 12) == (fault >> 12)) {
      m.put(" at ");
      m.put(std::strrchr(file, '/') ? std::strrchr(file, '/') + 1 : file);
      m.put(":");
      m.num(line);
    } else if (code_line(pc, here, sizeof here)) {
      m.put(" at ");
      m.put(here);
    } else if (recorded) {
      m.put(" after its access at ");
      m.put(std::strrchr(file, '/') ? std::strrchr(file, '/') + 1 : file);
      m.put(":");
      m.num(line);
    }
  } else {
    char here[256];
    m.put(" accessed a non-canonical address");
    if (code_line(pc, here, sizeof here)) {
      m.put(" at ");
      m.put(here);
    }
  }
  m.put(", which is no device buffer and which tgsim cannot stand memory in for (a null or wild "
        "pointer, read-only or protected host memory, or more than ");
  m.num(kMaxWildPages);
  m.put(" pages of wild accesses). The process ends (exit status ");
  m.num(kWildAccessExitStatus);
  m.put(").\n");
  write_fatal(m, "wild-access", kWildAccessExitStatus);
  ::_exit(kWildAccessExitStatus);
}

void on_segv(int sig, siginfo_t* si, void* uc) {
  const auto a = reinterpret_cast<std::uintptr_t>(si->si_addr);
  if (GuardTable* g = tl_guards) {
    for (std::size_t i = 0; i < g->n; ++i) {
      if (a < g->items[i].lo || a >= g->items[i].hi) continue;
      Msg m;
      m.put("tgsim: ");
      if (const ThreadCtx* t = current) {
        m.put("simulated thread ");
        m.dim(t->thread_idx);
        m.put(" of block ");
        m.dim(t->block_idx);
      } else {
        m.put("a simulated thread");
      }
      m.put(" overflowed its ");
      m.num(g->items[i].stack_bytes);
      m.put("-byte stack (LaunchConfig::stack_bytes, or --stack BYTES of tgsim run|check FILE): "
            "deep recursion or large local arrays; raise it. The process ends (exit status ");
      m.num(kStackOverflowExitStatus);
      m.put(").\n");
      write_fatal(m, "stack-overflow", kStackOverflowExitStatus);
      ::_exit(kStackOverflowExitStatus);
    }
  }
  // A simulated thread's wild access: a zero page in its place, or the end with a message.
  if (current) {
    const int saved = errno;
    const bool known = si->si_code != SI_KERNEL;  // SI_KERNEL: a non-canonical address
    if (known && map_wild_page(a)) {
      errno = saved;
      return;
    }
    std::uintptr_t pc = 0;
#if defined(__x86_64__)
    pc = static_cast<std::uintptr_t>(static_cast<ucontext_t*>(uc)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    pc = static_cast<std::uintptr_t>(static_cast<ucontext_t*>(uc)->uc_mcontext.pc);
#endif
    wild_access_exit(a, known, pc);
  }
  // Not a guard region of ours, no simulated thread: the previous handler decides.
  if ((previous_segv.sa_flags & SA_SIGINFO) && previous_segv.sa_sigaction) {
    previous_segv.sa_sigaction(sig, si, uc);
  } else if (previous_segv.sa_handler != SIG_DFL && previous_segv.sa_handler != SIG_IGN) {
    previous_segv.sa_handler(sig);
  } else {
    // Default action: restore it and return; the faulting instruction faults again.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(sig, &dfl, nullptr);
  }
}

}  // namespace

void set_fatal_errors_as_json(bool on) { fatal_json = on; }

void install_stack_guard() {
  static std::once_flag once;
  std::call_once(once, [] {
    page_bytes = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    struct sigaction sa {};
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGSEGV, &sa, &previous_segv);
  });
  if (tl_altstack) return;
  tl_altstack = true;
  stack_t old{};
  if (::sigaltstack(nullptr, &old) == 0 && !(old.ss_flags & SS_DISABLE) && old.ss_size >= 16384)
    return;  // the thread has one (a sanitizer's, or the host program's)
  const std::size_t size = 64 * 1024;
  void* mem = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return;
  stack_t ss{};
  ss.ss_sp = mem;
  ss.ss_size = size;
  ss.ss_flags = 0;
  ::sigaltstack(&ss, nullptr);  // kept for the thread's life (workers live as long as TBB's pool)
}

void note_guard(void* lo, std::size_t bytes, std::size_t stack_bytes) {
  GuardTable* g = tl_guards;
  if (!g) {
    g = static_cast<GuardTable*>(std::calloc(1, sizeof(GuardTable)));
    if (!g) return;
    tl_guards = g;
  }
  if (g->n == g->cap) {
    std::size_t cap = g->cap ? g->cap * 2 : 64;
    auto* items = static_cast<Guard*>(std::malloc(cap * sizeof(Guard)));
    if (!items) return;
    if (g->n) std::memcpy(items, g->items, g->n * sizeof(Guard));
    Guard* old = g->items;
    g->items = items;  // the handler only ever sees a complete table
    g->cap = cap;
    std::free(old);
  }
  auto l = reinterpret_cast<std::uintptr_t>(lo);
  g->items[g->n] = Guard{l, l + bytes, stack_bytes};
  g->n += 1;
}

// A stack that came from another thread's pool (a parked group resumed here, coresident.cpp):
// its guard joins this thread's table unless it is there already.
void note_guard_once(void* lo, std::size_t bytes, std::size_t stack_bytes) {
  const auto l = reinterpret_cast<std::uintptr_t>(lo);
  if (const GuardTable* g = tl_guards)
    for (std::size_t i = 0; i < g->n; ++i)
      if (g->items[i].lo == l) return;
  note_guard(lo, bytes, stack_bytes);
}

void forget_guard(void* lo) {
  GuardTable* g = tl_guards;
  if (!g) return;
  auto l = reinterpret_cast<std::uintptr_t>(lo);
  for (std::size_t i = 0; i < g->n; ++i)
    if (g->items[i].lo == l) {
      g->items[i] = g->items[g->n - 1];
      g->n -= 1;
      return;
    }
}

}  // namespace tgsim::detail

namespace tgsim::detail {

bool in_worker_stack(std::uintptr_t addr) {
  const GuardTable* g = tl_guards;
  if (!g) return false;
  for (std::size_t i = 0; i < g->n; ++i)
    if (addr >= g->items[i].hi && addr < g->items[i].hi + g->items[i].stack_bytes) return true;
  return false;
}

}  // namespace tgsim::detail

namespace tgsim::detail {

bool in_wild_page(std::uintptr_t addr) { return is_wild_page(addr & ~(page_bytes - 1)); }

void begin_wild_launch() {
  std::lock_guard lock(wild_mu);
  ++wild_launches;
}

// No fiber of any launch runs here (the count is 0 and a launch starting waits for the lock).
void end_wild_launch() noexcept {
  std::lock_guard lock(wild_mu);
  if (--wild_launches) return;
  const std::size_t n = std::min(wild_taken.load(std::memory_order_acquire), kMaxWildPages);
  for (std::size_t i = 0; i < n; ++i)
    if (const std::uintptr_t pg = wild_pages[i].exchange(0, std::memory_order_acq_rel))
      ::munmap(reinterpret_cast<void*>(pg), page_bytes);
  wild_taken.store(0, std::memory_order_release);
}

}  // namespace tgsim::detail
