// libFuzzer target over the inputs of the hardware models (sim/include/tgsim/models.hpp) and of
// launch validation (detail::validate_launch): arbitrary masks, widths, addresses and launch
// shapes. Each input is checked against a brute-force oracle or invariant; any disagreement,
// crash or sanitizer report is a finding. Build and run: bash tests/fuzz/run.sh [SECONDS].
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

#include <tgsim/dim.hpp>
#include <tgsim/models.hpp>
#include <tgsim/profile.hpp>

// tests/fuzz/validate_shim.cpp (g++): detail::validate_launch; 1 = accepted, 0 = LaunchError.
extern "C" int tgsim_fuzz_validate(const unsigned* grid, const unsigned* block, unsigned long stack_bytes,
                                   char* msg, unsigned long cap);

namespace {

struct Reader {
  const std::uint8_t* p;
  std::size_t n;
  template <class T> T get() {
    T v{};
    std::size_t k = n < sizeof(T) ? n : sizeof(T);
    std::memcpy(&v, p, k);
    p += k;
    n -= k;
    return v;
  }
};

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "models_fuzz: %s\n", what);
  std::abort();
}

void fuzz_models(Reader& r) {
  static constexpr std::uint32_t kWidths[] = {1, 2, 4, 8, 16};
  std::uint32_t active = r.get<std::uint32_t>();
  std::uint32_t width = kWidths[r.get<std::uint8_t>() % 5];
  std::uint8_t mode = r.get<std::uint8_t>();
  std::uint64_t base = r.get<std::uint64_t>() & ((1ull << 40) - 1);
  std::uint64_t addr[32];
  for (int l = 0; l < 32; ++l) {
    // Mostly small, aligned offsets from a base (real patterns), sometimes anything.
    std::uint16_t off = r.get<std::uint16_t>();
    std::uint64_t a = (mode & 1) ? base + off : base + std::uint64_t(off % 64) * width;
    if (!(mode & 2)) a = a / width * width;  // natural alignment, as the GPU requires
    addr[l] = a;
  }
  tgsim::model::WarpAccess wa{active, width, addr};

  // Global: distinct 32-byte sectors touched by the active lanes' byte ranges.
  std::set<std::uint64_t> sectors;
  for (int l = 0; l < 32; ++l)
    if (active >> l & 1u)
      for (std::uint64_t b = addr[l]; b < addr[l] + width; ++b) sectors.insert(b / 32);
  if (tgsim::model::global_sectors(wa) != sectors.size()) fail("global_sectors differs from the oracle");

  std::set<std::uint64_t> distinct;
  for (int l = 0; l < 32; ++l)
    if (active >> l & 1u) distinct.insert(addr[l]);
  if (tgsim::model::distinct_addresses(wa) != distinct.size()) fail("distinct_addresses differs");

  // Shared: offsets inside 227 KiB; invariants (the exact oracle is models_test's property test).
  if (!(mode & 2)) {
    for (auto& a : addr) a = (a % (227 * 1024)) / width * width;
    for (bool load : {true, false}) {
      tgsim::model::Wavefronts wf = tgsim::model::shared_wavefronts(wa, load);
      std::uint32_t lanes = static_cast<std::uint32_t>(std::popcount(active));
      std::uint32_t phases = width <= 4 ? 1 : width / 4;
      if (active == 0 && (wf.wavefronts || wf.ideal)) fail("empty mask costs wavefronts");
      if (active && wf.ideal == 0) fail("active lanes but no ideal wavefront");
      if (wf.ideal > wf.wavefronts) fail("ideal > wavefronts");
      if (wf.ideal > phases) fail("more ideal wavefronts than phases");
      if (wf.wavefronts > lanes * (width <= 4 ? 1 : width / 4)) fail("more wavefronts than words");
    }
  }
}

void fuzz_launch(Reader& r) {
  tgsim::DeviceProfile p = tgsim::profiles::nvidia_h100();
  struct {
    tgsim::Dim3 grid, block;
    std::size_t stack_bytes;
  } c;
  auto dim = [&] {
    std::uint8_t shape = r.get<std::uint8_t>();
    auto one = [&](int k) -> std::uint32_t {
      std::uint32_t v = r.get<std::uint32_t>();
      switch ((shape >> (2 * k)) & 3) {
        case 0: return v % 4;                    // 0..3
        case 1: return v % 2048;                 // around the block limits
        case 2: return 65530 + v % 12;           // around the grid y/z limit
        default: return v;                       // anything, up to 2^32-1
      }
    };
    return tgsim::Dim3(one(0), one(1), one(2));
  };
  c.grid = dim();
  c.block = dim();
  c.stack_bytes = r.get<std::uint32_t>() % (1u << 20);
  unsigned g[3] = {c.grid.x, c.grid.y, c.grid.z}, b[3] = {c.block.x, c.block.y, c.block.z};
  char msg[512];
  bool ok = tgsim_fuzz_validate(g, b, c.stack_bytes, msg, sizeof msg) != 0;
  if (!ok && !msg[0]) fail("empty LaunchError message");
  auto in = [](const tgsim::Dim3& d, std::uint64_t x, std::uint64_t y, std::uint64_t z) {
    return d.x >= 1 && d.y >= 1 && d.z >= 1 && d.x <= x && d.y <= y && d.z <= z;
  };
  bool want = in(c.block, p.max_block_x, p.max_block_y, p.max_block_z) &&
              c.block.volume() <= p.max_threads_per_group &&
              in(c.grid, p.max_grid_x, p.max_grid_y, p.max_grid_z) && c.stack_bytes >= 16 * 1024;
  if (ok != want) fail(ok ? "validate_launch accepted a bad launch" : "validate_launch refused a good launch");
  if (ok) {
    // The index math of the last group and thread must round-trip (uint64 group ids).
    std::uint64_t last = c.grid.volume() - 1;
    tgsim::Dim3 b = tgsim::unlinearise(last, c.grid);
    if (tgsim::linearise(b, c.grid) != last || b.x >= c.grid.x || b.y >= c.grid.y || b.z >= c.grid.z)
      fail("group index does not round-trip");
    std::uint64_t lt = c.block.volume() - 1;
    if (tgsim::linearise(tgsim::unlinearise(lt, c.block), c.block) != lt) fail("thread index does not round-trip");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  Reader r{data + 1, size - 1};
  if (data[0] & 1)
    fuzz_launch(r);
  else
    fuzz_models(r);
  return 0;
}
