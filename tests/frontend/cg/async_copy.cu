// libcu++'s <cuda/barrier>, <cuda/pipeline>, <cuda/std/...>, <cuda_pipeline.h> and
// cg::memcpy_async (issue 34). The copies are done at issue and counted as plain accesses of the
// widest piece the addresses allow; each kernel prints its results from one thread.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/std/functional>
#include <cuda/std/limits>
#include <cuda_pipeline.h>
namespace cg = cooperative_groups;

// 32 threads, 128 floats: a thread pipeline copies 4 floats per thread (one 16-byte load and
// store), the primitives 1 float per thread, cg::memcpy_async 64 floats as the block (16 bytes a
// thread: threads 16-31 idle); `__shared__ alignas(16)` as nvcc takes it.
__global__ void copies(const float* in, float* out) {
  __shared__ alignas(16) float a[128];
  __shared__ alignas(16) float b[32];
  __shared__ alignas(16) float c[64];
  const int t = threadIdx.x;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&a[4 * t], &in[4 * t], cuda::aligned_size_t<16>(16), pipe);
  pipe.producer_commit();
  __pipeline_memcpy_async(&b[t], &in[t + 1], sizeof(float));
  __pipeline_commit();
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, c, in + 64, sizeof(float) * 64);
  pipe.consumer_wait();
  __pipeline_wait_prior(0);
  cg::wait(block);
  pipe.consumer_release();
  out[t] = a[127 - t] + b[31 - t] + c[63 - 2 * t];
  if (t == 1) printf("copies %.0f %.0f %.0f\n", a[126], b[30], c[61]);
}

// 64 threads: a barrier of the whole block (its waits are __syncthreads) hands values between
// warps; one of 32 threads (a counting barrier) hands them within warp 0.
__global__ void aw_barrier(const int* in, int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> all, half;
  __shared__ int s[64];
  const int t = threadIdx.x;
  if (t == 0) {
    init(&all, blockDim.x);
    init(&half, 32);
  }
  __syncthreads();
  cuda::memcpy_async(&s[t], &in[t], sizeof(int), all);
  all.arrive_and_wait();
  int v = s[63 - t];
  cuda::barrier<cuda::thread_scope_block>::arrival_token token = all.arrive();
  all.wait(std::move(token));
  if (t < 32) {
    s[t] = 2 * v;
    half.arrive_and_wait();
    v += s[31 - t];
  }
  out[t] = v;
  if (t == 3) printf("barrier %d\n", v);
}

// 64 threads: warp 1 produces 6 rounds of 32 ints through a 2-stage block pipeline, warp 0
// consumes them (sums of its lane's column, and of the row through cuda::std::plus).
__global__ void block_pipeline(const int* in, int* out) {
  __shared__ int stage[2][32];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  cg::thread_block block = cg::this_thread_block();
  const int t = threadIdx.x;
  const cuda::pipeline_role role = t >= 32 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
  cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(block, &state, role);
  int sum = 0, row = 0;
  for (int r = 0; r < 6; ++r) {
    if (t >= 32) {
      pipe.producer_acquire();
      cuda::memcpy_async(&stage[r % 2][t - 32], &in[32 * r + t - 32], cuda::aligned_size_t<4>(4), pipe);
      pipe.producer_commit();
    } else {
      pipe.consumer_wait();
      sum += stage[r % 2][t];
      row = cuda::std::plus<int>()(row, stage[r % 2][(t + r) % 32]);
      pipe.consumer_release();
    }
  }
  out[t] = sum;
  if (t == 5)
    printf("pipeline %d %d %d %d\n", sum, row, cuda::std::identity()(7), cuda::std::numeric_limits<int>::max());
}
