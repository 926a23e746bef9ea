// tgsim check FILE: a loading phase whose only checked accesses are shared stores (the loads of
// `in` are of a read-only buffer; give it more than 64 ints, so that no load falls in the last
// 15 bytes, which the checker's read-only skip leaves out). words 64: each word stored once,
// clean; words 32: warps 0 and 1 store the same words with different values before the barrier
// (a WAW hazard).
__global__ void store_phase(const int* in, int* out, int words) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t % words] = in[t];
  __syncthreads();
  out[t] = s[t % words];
}
