// A kernel written against tgsim's explicit API, no dialect macros: ThreadCtx& t gives the
// ids, the barrier and shared arrays. Each thread adds its right neighbour's value (seed 000).
#include <tgsim/tgsim.hpp>

#include <iostream>

int main() {
  tgsim::Device dev;
  const int n = 1024;
  auto in = dev.alloc<float>(n, "in");
  auto out = dev.alloc<float>(n, "out");
  for (int i = 0; i < n; ++i) in[i] = float(i);

  tgsim::LaunchConfig cfg;
  cfg.name = "neighbour_sum";
  cfg.grid = tgsim::Dim3(n / 256);
  cfg.block = tgsim::Dim3(256);
  auto report = dev.launch(cfg, [](tgsim::ThreadCtx& t, tgsim::global_ptr<const float> src,
                                   tgsim::global_ptr<float> dst) {
    auto s = t.shared<float[256]>("s");
    std::uint32_t local = t.thread_idx.x, id = t.thread_id().x;
    s[local] = src[id];
    t.barrier();
    float v = s[local] + s[(local + 1) % t.block_dim.x];
    dst[id] = v;
  }, in, out);

  tgsim::write_text(std::cout, report);
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    int next = (i % 256 == 255) ? i - 255 : i + 1;
    ok = ok && out[i] == in[i] + in[next];
  }
  std::cout << (ok ? "result correct\n" : "result WRONG\n");
  return ok ? 0 : 1;
}
