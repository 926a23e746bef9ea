// tgsim run/check FILE: accesses the GPU ends the launch for, each a finding that names what
// happened, its line, thread and block (issue 37's messages), never a fault of the process.
__device__ int table[0];  // a zero-size array: every access is past its end

__global__ void zero_size(int* out, int i) {
  out[threadIdx.x] = table[i + threadIdx.x];
}

// A length the compiler does not know: the library makes the memset and memcpy, and checks them.
__global__ void memset_null(int* out, int n) {
  int* p = n > 100 ? out : nullptr;
  memset(p, 0, n * sizeof(int));
  out[threadIdx.x] = 1;
}

__global__ void memcpy_rows(int* out, const int* in, int n) {
  int* p = n > 100 ? out + threadIdx.x * n : nullptr;
  memcpy(p, in, n * sizeof(int));
}

// Clang deletes the store through a null pointer and leaves `unreachable` in its place.
__global__ void null_deleted(int* out, int n) {
  int* p = nullptr;
  out[threadIdx.x] = 1;
  *p = n;
}

// Every thread copies its own row of `in` over the same n ints of `out`: a write-after-write
// race the checker sees only if it sees the memcpy's stores.
__global__ void memcpy_same(int* out, const int* in, int n) {
  memcpy(out, in + threadIdx.x * n, n * sizeof(int));
}

// Reads every element of `in`: with `int[32]=@FILE+uninit` and a 16-byte FILE, elements 4 and
// on were never written (an uninitialised read for threads 4 to 31).
__global__ void read_all(const int* in, int* out) {
  out[threadIdx.x] = in[threadIdx.x] + 1;
}

// A store through a null pointer as the thread's first access: the process ends (exit status 4)
// with the store's own line (its record would come after it: the line is the fault's address).
__global__ void null_first_store(int* out, int n) {
  int* p = n > 100 ? out : nullptr;
  p[threadIdx.x] = n;
}
