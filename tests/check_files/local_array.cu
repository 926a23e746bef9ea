// tgsim run/check FILE: a thread's local array indexed outside its elements (a stack overrun).
// The optimiser keeps `a` in memory because its index is not a constant; each access is checked,
// and one outside the array is an out-of-bounds finding naming the array, the byte offset, the
// line, the thread and the block, and the thread ends (before: no finding, and the store
// overwrote the simulator's own stack).
__global__ void store_past(int* out, int n) {
  int a[4] = {0, 0, 0, 0};
  a[threadIdx.x] = n;  // threads 4 to 31 store past a
  out[threadIdx.x] = a[0] + a[1] + a[2] + a[3];
}

__global__ void load_past(int* out, int n) {
  int a[4];
  for (int k = 0; k < 4; ++k) a[k] = n + k;
  out[threadIdx.x] = a[threadIdx.x];  // threads 4 to 31 load past a
}

__global__ void load_before(int* out, int n) {
  int a[4];
  for (int k = 0; k < 4; ++k) a[k] = n + k;
  const int i = static_cast<int>(threadIdx.x & 3) - n;
  out[threadIdx.x] = a[i];  // n = 1: threads 0, 4, 8, ... load a[-1]
}

// The index masked into the array: every access is inside it, no finding.
__global__ void load_inside(int* out, int n) {
  int a[4];
  for (int k = 0; k < 4; ++k) a[k] = n + k;
  out[threadIdx.x] = a[threadIdx.x & 3];
}
