// A compile error: tgsim-nvcc exits 1 with the file and line (tests/frontend/nvcc/nvcc.sh).
__global__ void broken(float* p) {
  p[threadIdx.x] = undeclared_name;
}
