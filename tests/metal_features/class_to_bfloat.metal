// A class that converts to bool as the element type's value (MLX's gemv_masked: out_scale =
// T(mask_out) with a _NoMask whose operator bool is true), for half, bfloat and float, and
// assigned to a bfloat.
#include <metal_stdlib>
using namespace metal;

struct all_on {
  char x;
  constexpr operator bool() const thread { return true; }
  constexpr operator bool() const device { return true; }
};
struct flag {
  bool on;
  constexpr operator bool() const thread { return on; }
};

template <typename T> T scale_of(thread const all_on& m, thread const flag& f) { return T(m) * T(3) + T(f); }

[[kernel]] void class_to_bfloat(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
  all_on m{0};
  flag f{i == 1};
  bfloat s;
  s = f;  // implicitly, as MLX's steel_gemm_masked assigns a mask to a bfloat scale
  out[i] = float(s) * 1000 + float(scale_of<bfloat>(m, f)) * 100 + float(scale_of<half>(m, f)) * 10 +
           scale_of<float>(m, f);
}
