// tgsim check FILE: malloc and new in kernel code (the device heap). `over` 0: every thread's
// blocks are written and read inside their bounds, kept in a __device__ table and freed by
// thread 0 of the next launch's kernel: no finding. `over` 1: one int past a 4-int block, an
// out-of-bounds access naming the malloc's line.
__device__ int* table[64];
__global__ void heap_blocks(int* out, int over) {
  int* p = static_cast<int*>(malloc(4 * sizeof(int)));
  table[threadIdx.x] = p;
  for (int i = 0; i < 4 + over; ++i) p[i] = threadIdx.x + i;
  float* q = new float[2];
  q[1] = 2.0f;
  out[threadIdx.x] = p[0] + p[3] + static_cast<int>(q[1]);
  delete[] q;
}
