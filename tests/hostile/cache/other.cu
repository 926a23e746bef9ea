// For compile_cache.sh: a second kernel file whose compiled object is planted under value.cu's name.
__global__ void show(int* out) {
  out[threadIdx.x] = 7;
  if (threadIdx.x == 0) printf("value from other.cu\n");
}
