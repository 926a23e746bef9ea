// tgsim run/check FILE: a load through a null pointer (n <= 100). The process ends with exit status
// 4, its message naming the thread, the block and the source line of the access (or of the
// thread's access before it).
__global__ void null_load(int* out, int n) {
  int* p = n > 100 ? out : nullptr;
  out[threadIdx.x] = 0;
  out[threadIdx.x] = p[threadIdx.x];
}
