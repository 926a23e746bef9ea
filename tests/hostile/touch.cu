// One store per thread into a large buffer (tests/hostile/run_memory.sh).
__global__ void touch(float* a) { a[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f; }
