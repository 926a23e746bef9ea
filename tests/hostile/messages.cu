// Kernels for the command's messages (issue 40, item 10): overloads picked by their parameter
// types, and structs passed by value.
__global__ void scale(int* p, int k) {
  p[threadIdx.x] *= k;
  if (threadIdx.x == 0) printf("scale(int*, int): %d\n", p[0]);
}
__global__ void scale(float* p, float k) {
  p[threadIdx.x] *= k;
  if (threadIdx.x == 0) printf("scale(float*, float): %g\n", p[0]);
}

struct Pair {  // 8 bytes: passed in a register
  int n;
  float s;
};
struct Wide {  // 32 bytes: passed in memory
  float v[8];
};
__global__ void small_struct(Pair p, float* out) {
  if ((int)threadIdx.x < p.n) out[threadIdx.x] = p.s;
  if (threadIdx.x == 0) printf("small_struct: n %d s %g\n", p.n, p.s);
}
__global__ void wide_struct(Wide w, float* out) {
  out[threadIdx.x] = w.v[threadIdx.x % 8];
  if (threadIdx.x == 0) printf("wide_struct: %g %g\n", w.v[0], w.v[7]);
}
struct Quad {  // 16 bytes: two eightbytes, two arguments in registers
  int a, b;
  float c, d;
};
struct View {  // 16 bytes, a pointer and a count
  float* data;
  int n;
};
__global__ void quad_struct(Quad q, int* out) {
  out[threadIdx.x] = q.a + q.b;
  if (threadIdx.x == 0) printf("quad_struct: %d %d %g %g\n", q.a, q.b, q.c, q.d);
}
__global__ void view_struct(View v, float* out) {
  if ((int)threadIdx.x < v.n) out[threadIdx.x] = v.data[threadIdx.x];
}
