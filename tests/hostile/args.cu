// Kernels for the command line's argument checks (tests/hostile/errors.sh and the
// hostile_cli_args_* tests): a scalar printed back, a typed buffer, a pointer to pointers.
__global__ void show_int(int* out, int v) {
  out[threadIdx.x] = v;
  if (threadIdx.x == 0) printf("v = %d\n", v);
}
__global__ void sum_floats(const float* in, float* out) {
  out[threadIdx.x] = in[threadIdx.x] + 1.0f;
}
__global__ void pointers(float** rows) {
  if (threadIdx.x == 0) printf("%p\n", static_cast<void*>(rows));
}
// A store through an address given as a number (0: the null page, which tgsim cannot stand in for).
__global__ void poke(int* out, long addr) {
  out[threadIdx.x] = 0;
  if (threadIdx.x == 0) *reinterpret_cast<volatile int*>(addr) = 1;
}
