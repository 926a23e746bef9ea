// CUDA's cache-hint loads and stores, each counted as the plain access of its width (issue 34):
// one warp, six float loads and four float stores at distinct rows, and a float4 pair.
__global__ void hints(const float* in, float* out) {
  const int i = threadIdx.x;
  const float a = __ldg(in + i) + __ldca(in + i + 32) + __ldcg(in + i + 64) + __ldcs(in + i + 96) +
                  __ldlu(in + i + 128) + __ldcv(in + i + 160);
  __stwb(out + i, a);
  __stcg(out + i + 32, a);
  __stcs(out + i + 64, a);
  __stwt(out + i + 96, a);
}

__global__ void hints4(const float4* in, float4* out) {
  const int i = threadIdx.x;
  __stcs(out + i, __ldcs(in + i));
}
