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
