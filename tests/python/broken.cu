// Does not compile: a name that is declared nowhere.
__global__ void broken(float* x) { x[threadIdx.x] = not_declared_anywhere; }
