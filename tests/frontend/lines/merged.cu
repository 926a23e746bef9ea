// Accesses that Clang merges, hoists or sinks (issue 32 item 9): each must keep a real line.
// The line numbers are asserted by tests/lines_test.sh: keep them where they are.

// Two stores of one element from two branches: SimplifyCFG/InstCombine make one store.
__global__ void store_merge(int* a, const int* c, int x, int y) {
  int i = threadIdx.x;
  if (c[i])
    a[i] = x;
  else
    a[i] = y;
}

// A waw hazard between two merged stores: every thread writes a[0].
__global__ void store_merge_race(int* a, const int* c, int x, int y) {
  int i = threadIdx.x;
  if (c[i])
    a[0] = x + i;
  else
    a[0] = y - i;
}

// A loop-invariant load that LICM hoists out of the loop.
__global__ void hoisted_load(float* out, const float* w, const float* x, int n) {
  int i = threadIdx.x;
  float acc = 0;
  for (int k = 0; k < n; ++k)
    acc += w[i] * x[k];
  out[i] = acc;
}

// A load of one element on both branches, hoisted above the branch.
__global__ void hoisted_common_load(float* out, const float* a, const int* c) {
  int i = threadIdx.x;
  float v;
  if (c[i])
    v = a[i] * 2.0f;
  else
    v = a[i] + 1.0f;
  out[i] = v;
}

// A store in a loop that LICM sinks (promotes) after it.
__global__ void sunk_store(float* out, const float* x, int n) {
  int i = threadIdx.x;
  out[i] = 0;
  for (int k = 0; k < n; ++k)
    out[i] += x[k];
}

// Two loads on the two arms of a conditional: a select of two loads.
__global__ void select_loads(float* out, const float* a, const float* b, const int* c) {
  int i = threadIdx.x;
  out[i] = c[i] ? a[i]
                : b[i];
}
