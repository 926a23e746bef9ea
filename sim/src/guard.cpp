// Fiber stack overflow -> a clear message and exit status (guard.hpp).
#include "guard.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <tgsim/errors.hpp>
#include <tgsim/thread.hpp>

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
      m.put("-byte stack (LaunchConfig::stack_bytes): deep recursion or large local arrays; "
            "raise stack_bytes. The process ends (exit status ");
      m.num(kStackOverflowExitStatus);
      m.put(").\n");
      ssize_t ignored = ::write(2, m.buf, m.n);
      (void)ignored;
      ::_exit(kStackOverflowExitStatus);
    }
  }
  // Not a guard region of ours: the previous handler decides.
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

void install_stack_guard() {
  static std::once_flag once;
  std::call_once(once, [] {
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
