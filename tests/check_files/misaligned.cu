// tgsim check FILE: float4 loads through a pointer that is 4 bytes past a 16-byte boundary. On the
// H100 memcheck reports every lane's read as misaligned (tests/hardware/checker_probe/ records
// it: misaligned_float4, the launch fails with "misaligned address"); `shift` 0 is the aligned,
// correct launch.
__global__ void misaligned_float4(const float* in, float4* out, int shift) {
  const float4* p = reinterpret_cast<const float4*>(in + shift);
  out[threadIdx.x] = p[threadIdx.x];
}
