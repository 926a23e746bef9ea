// tgsim check FILE with --pre-include and a function-like -D: GPUVerify-style annotations
// (__requires) defined away by a header read first, and SCALE given on the command line.
__global__ void annotated(int* out, int n) {
  __requires(n > 0);
  out[threadIdx.x] = SCALE(n);
}
