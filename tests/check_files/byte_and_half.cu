// tgsim check FILE: a byte and a half-word over it, stored by two threads of a group with no
// barrier between them. Equal on the byte they share (half 0x0705 over byte 5) is no WAW, as two
// stores of one value are not; a different shared byte (0x0706) is.
__global__ void byte_and_half(unsigned* out, int half) {
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  if (threadIdx.x == 1) reinterpret_cast<unsigned char*>(&s)[2] = 5;
  if (threadIdx.x == 33) reinterpret_cast<unsigned short*>(&s)[1] = static_cast<unsigned short>(half);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s;
}
