// Launches as public CUDA programs write them, each checked against the host: a template kernel
// whose type parameter is deduced from the arguments (k<256><<<...>>>(payoff, ...)), overloaded
// kernels, default arguments, NULL for a pointer, `<<<...>>>` over several lines, host variables
// named gridDim and blockDim, `register`, a kernel name and its `<<<` on two lines, `<< <` and
// `>> >` as nvcc reads them, extended lambdas (`[=] __device__ (int i)`, a macro for
// `__host__ __device__`), small and large structs by value, a static kernel, a kernel through a
// pointer, an empty kernel, and a launch written in an included header (launch_forms.cuh); NVTX's
// annotations around them. CTest checks the line it prints.
#include <cuda_profiler_api.h>
#include <nvToolsExt.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <vector>

#include "launch_forms.cuh"

struct Scale {
  float factor;
  __device__ float operator()(float x) const { return factor * x; }
};
struct Offset3 {  // 12 bytes: two eightbytes in registers
  float a, b, c;
};
struct Big {  // 40 bytes: in memory
  double v[5];
};

template <int Threads, class Op>
__global__ void apply(Op op, const float* in, float* out, int n) {
  int i = blockIdx.x * Threads + threadIdx.x;
  if (i < n) out[i] = op(in[i]);
}

__global__ void fill(int* out, int n, int value = 7) {
  const uint3 t = threadIdx;  // the built-in variables as values
  const dim3 b = blockDim;
  int i = blockIdx.x * b.x + t.x;
  if (i < n) out[i] = value;
}
__global__ void fill(float* out, int n, float value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

__global__ void maybe_count(const int* flags, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = flags ? flags[i] : -1;
}

__global__ void structs(Offset3 o, Big big, float* out) {
  int i = threadIdx.x;
  out[i] = o.a + o.b * 10 + o.c * 100 + static_cast<float>(big.v[i % 5]);
}

static __global__ void twice(int* out) {
  register int i = threadIdx.x;  // `register`, as older CUDA code writes it
  out[i] *= 2;
}

__global__ void nothing() {}

// nvcc's extended lambdas: `[=] __device__ (...)` and a macro naming `__host__ __device__`.
#define MY_GPU_LAMBDA __host__ __device__
template <class F>
__global__ void for_n(F f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

// A launch in a macro's body, the configuration on a continuation line.
#define LAUNCH_SCALED(THREADS, FACTOR)      \
  apply<THREADS>                            \
      <<<(n + THREADS - 1) / THREADS, THREADS>>>(Scale{FACTOR}, din, dout, n)

int main() {
  const int n = 1000;
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = float(i);
  float *din, *dout;
  int* dint;
  cudaMalloc(&din, n * sizeof(float));
  cudaMalloc(&dout, n * sizeof(float));
  cudaMalloc(&dint, n * sizeof(int));
  cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  int wrong = cudaProfilerStart() != cudaSuccess;
  wrong += nvtxRangePushA("launch forms") != 0;  // NVTX annotations: nothing to annotate
  nvtxEventAttributes_t mark = {};
  mark.version = NVTX_VERSION, mark.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  mark.messageType = NVTX_MESSAGE_TYPE_ASCII, mark.message.ascii = "start";
  nvtxMarkEx(&mark);

  dim3 gridDim((n + 255) / 256), blockDim(256);  // host locals named as the built-in variables
  apply<256><<<gridDim, blockDim>>>(Scale{3.0f}, din, dout, n);  // Op deduced
  cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) wrong += out[i] != 3.0f * i;
  LAUNCH_SCALED(128, 3.0f);  // from a macro, `<<<` on a continuation line
  cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) wrong += out[i] != 3.0f * i;

  std::vector<int> iv(n);
  fill << < (n + 127) / 128, 128 >> > (dint, n);  // the int overload, its default value; spaced brackets
  cudaMemcpy(iv.data(), dint, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) wrong += iv[i] != 7;
  fill  // the float overload, over four lines with comments between
      <<<(n + 127) / 128,
         128>>>  // its configuration
      (dout, n, 2.5f);
  cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) wrong += out[i] != 2.5f;

  // NULL for a pointer; the configuration on the line after the kernel's name
  maybe_count
      <<<4, 256>>>(NULL, dint, n);
  cudaMemcpy(iv.data(), dint, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) wrong += iv[i] != -1;

  structs<<<1, 32>>>(Offset3{1, 2, 3}, Big{{0.5, 1.5, 2.5, 3.5, 4.5}}, dout);
  cudaMemcpy(out.data(), dout, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 32; ++i) wrong += out[i] != 321.0f + (i % 5) + 0.5f;

  twice<<<1, 8>>>(dint);
  void (*k)(int*) = twice;
  k<<<1, 8>>>(dint);
  cudaMemcpy(iv.data(), dint, 8 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; ++i) wrong += iv[i] != -4;

  nothing<<<2, 2>>>();
  wrong += cudaGetLastError() != cudaSuccess;

  negate_all(dout, n);  // the launch is in the header
  cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) wrong += out[i] != (i < 32 ? -(321.0f + (i % 5) + 0.5f) : -2.5f);

  const float k3 = 3.0f;
  for_n<<<4, 256>>>([=] __device__ (int i) { dout[i] = k3 * i; }, n);
  for_n<<<4, 256>>>([=] MY_GPU_LAMBDA
                    (int i) mutable { dint[i] = i + 1; }, n);
  cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(iv.data(), dint, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) wrong += out[i] != 3.0f * i || iv[i] != i + 1;

  cudaFree(din);
  cudaFree(dout);
  cudaFree(dint);
  wrong += nvtxRangePop() != 0;
  wrong += cudaProfilerStop() != cudaSuccess;
  wrong += cudaThreadExit() != cudaSuccess;  // the deprecated names older programs call
  std::printf("launch forms: %d wrong\n", wrong);
  return wrong ? 1 : 0;
}
