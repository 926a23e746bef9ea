// A launch whose <<< is never closed: a compile error (exit status 2), not a finding.
__global__ void k(int* p) { p[threadIdx.x] = 1; }
void host(int* p) { k<<<1, 32(p); }
