// Launches the kernels of libm_reuse.cu once each (grid 4, block 256, inputs in (0, 2)) on a GPU,
// for Nsight Compute (record.sh). Prints one line per kernel with a checksum of its output.
#include <cstdio>
#include <vector>

#include "libm_reuse.cu"

int main() {
  const int n = 1024;
  std::vector<float> hf(n);
  std::vector<double> hd(n);
  for (int i = 0; i < n; ++i) hf[i] = 0.5f + (i % 97) / 64.0f, hd[i] = hf[i];
  float *inf, *outf;
  double *ind, *outd;
  cudaMalloc(&inf, n * sizeof(float));
  cudaMalloc(&outf, n * sizeof(float));
  cudaMalloc(&ind, n * sizeof(double));
  cudaMalloc(&outd, n * sizeof(double));
  cudaMemcpy(inf, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(ind, hd.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  auto sum = [&](const char* name, bool dbl) {
    double s = 0;
    if (dbl) {
      std::vector<double> o(n);
      cudaMemcpy(o.data(), outd, n * sizeof(double), cudaMemcpyDeviceToHost);
      for (double v : o) s += v;
    } else {
      std::vector<float> o(n);
      cudaMemcpy(o.data(), outf, n * sizeof(float), cudaMemcpyDeviceToHost);
      for (float v : o) s += v;
    }
    std::printf("%s %.3f %s\n", name, s, cudaGetErrorString(cudaGetLastError()));
  };
  after_expf<<<4, 256>>>(inf, outf);
  sum("after_expf", false);
  after_sqrtf<<<4, 256>>>(inf, outf);
  sum("after_sqrtf", false);
  after_logf_powf<<<4, 256>>>(inf, outf);
  sum("after_logf_powf", false);
  after_double_exp<<<4, 256>>>(ind, outd);
  sum("after_double_exp", true);
  return 0;
}
