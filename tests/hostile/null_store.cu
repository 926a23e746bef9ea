// A store through a pointer the compiler sees is null: Clang deletes it as undefined behaviour
// (a GPU faults), so tgsim warns at compile time with the line.
__global__ void null_store(int* out) {
  int* p = nullptr;
  if (threadIdx.x == 5) *p = 1;
  out[threadIdx.x] = 2;
}
