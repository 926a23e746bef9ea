// Bounds per dimension: s[0][tid + 8] of s[32][33] lies inside the array's memory but outside
// its inner dimension (reported); the same element reached by pointer arithmetic, and ordinary
// tiles indexed inside their dimensions, are not.
__global__ void inner_oob(float* out) {
  __shared__ float s[32][33];
  int tid = threadIdx.x;
  for (int k = 0; k < 33; ++k) s[tid][k] = float(k);
  __syncthreads();
  out[tid] = s[0][tid + 8];  // tid + 8 reaches 39 of [0, 33) for tid >= 25
}

__global__ void flattened(float* out) {
  __shared__ float s[32][33];
  int tid = threadIdx.x;
  for (int k = 0; k < 33; ++k) s[tid][k] = float(tid * 33 + k);
  __syncthreads();
  float* flat = &s[0][0];
  float (*rows)[33] = s;
  out[tid] = flat[tid + 8] + (&s[0][0] + 40)[tid] + rows[1][tid];  // pointer arithmetic: legal
}

__global__ void tiles(const float* a, float* out, int n) {
  __shared__ float t[16][17];
  __shared__ int three[2][4][8];
  int x = threadIdx.x, y = threadIdx.y;
  t[y][x] = a[y * n + x];
  if (y < 2 && x < 8)
    for (int j = 0; j < 4; ++j) three[y][j][x] = x + j;
  __syncthreads();
  out[y * n + x] = t[x][y] + float(three[y % 2][x % 4][(x + y) % 8]);
}

__global__ void three_d(int* out) {
  __shared__ int c[2][4][8];
  int tid = threadIdx.x;
  for (int j = 0; j < 8; ++j) c[tid / 4][tid % 4][j] = tid + j;
  __syncthreads();
  out[tid] = c[0][tid][0];  // tid reaches 4 of [0, 4) in dimension 2 for tid >= 4 (inside c)
}

// An extern array's rows (sized at launch): the inner dimension is checked, the outer is the
// launch's.
__global__ void extern_rows(float* out) {
  extern __shared__ float rows[][33];
  int tid = threadIdx.x;
  for (int k = 0; k < 33; ++k) rows[tid][k] = float(k);
  __syncthreads();
  out[tid] = rows[1][tid + 8];  // tid + 8 reaches 33 of [0, 33) for tid >= 25
}
