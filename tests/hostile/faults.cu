// Kernels that fault on a GPU (tests/CMakeLists.txt: hostile_cli_file_fault_*). Each must end as
// a finding or a clear error naming the thread, its block and file:line: never a signal, never a
// hang. Thread 0 stores a marker first, so a test can see that the report before the fault
// survives.
#include <cassert>
#include <cstdlib>

// out[i] = a / d: a division by zero (d = 0) or INT_MIN / -1 on the GPU gives a value and goes on.
__global__ void divide(int* out, int a, int d) {
  int i = threadIdx.x;
  out[i] = a / d;
  if (i == 0) printf("a / d = %d, a %% d = %d\n", a / d, a % d);
}

// The remainder of an unsigned division by a divisor from memory.
__global__ void remainder_of(unsigned* out, const unsigned* by) {
  int i = threadIdx.x;
  out[i] = 1000u % by[i];
}

// assert() that fails in one thread: the GPU reports block, thread, file and line; the launch
// fails with cudaErrorAssert.
__global__ void checks(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 7;
  assert(i != n);
}

// __trap(), asm("trap;"), __brkpt(), abort() and __builtin_trap() in thread 5 of block 1.
__global__ void traps(int* out, int how) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 1;
  if (i != 37) return;
  if (how == 0) __trap();
  if (how == 1) asm volatile("trap;");
  if (how == 2) __brkpt();
  if (how == 3) abort();
  if (how == 4) __builtin_trap();
}

__device__ __noinline__ int sum_local(int* a, int n, int seed) {
  for (int k = 0; k < n; ++k) a[k] = seed + k;
  int s = 0;
  for (int k = 0; k < n; k += 1023) s += a[k];
  return s;
}

// A 1 MiB local array (far larger than the fiber's stack).
__global__ void big_local(int* out) {
  int a[262144];
  out[threadIdx.x] = sum_local(a, 262144, threadIdx.x);
}

// A 400 KiB local array: larger than the 256 KiB stack, smaller than stack + guard + a
// neighbour's stack; without stack probes it writes into another thread's stack.
__global__ void medium_local(int* out) {
  int a[102400];
  out[threadIdx.x] = sum_local(a, 102400, threadIdx.x);
}

// With step 0, thread 3 loops forever on registers: no memory access, no barrier, no exit.
// (A loop that is infinite for every input, `while (true) x = f(x);`, is undefined in C++ and
// Clang deletes it; this one ends for step > 0.)
__global__ void spin(int* out, int n, int step) {
  int i = threadIdx.x;
  unsigned x = i;
  if (i == 3)
    for (int k = 0; k < n; k += step) x = x * 3u + 1u;
  out[i] = x;
}
