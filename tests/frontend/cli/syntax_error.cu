// tgsim run FILE with a compile error: the compiler's message and exit status 2.
__global__ void broken(float* out) {
  out[threadIdx.x] = undeclared_name;
}
