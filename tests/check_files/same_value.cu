// tgsim check FILE: every thread of a block stores to one word with no order between them, and
// in this run all store equal bytes, so the equal-value rule reports no write-after-write.
// `copy`: each thread's value is its element of `in`, data: equal here only because `in` is
// zero-filled (with other data a race; information, not a finding). `flag`: the constant 1,
// equal in every run: nothing to say.
__global__ void copy(const int* in, int* out) {
  out[0] = in[threadIdx.x];
}
__global__ void flag(int* done) {
  done[0] = 1;
}
