// Textures and surfaces as whole programs use them (issue 34; tests/CMakeLists.txt checks the
// last line): arrays, pitched and linear memory; point sampling under each address mode, with
// texel and normalized coordinates; linear filtering with weights rounded to 1/256, as the
// hardware's 9-bit fixed point has them (each expected value worked out below by hand);
// normalizedFloat reads of 8- and 16-bit integers, half texels, layers, cubemap faces, 3D,
// and a surface written and read back. One kernel fetches at each of up to 32 coordinates.
#include <cstdio>
#include <cstring>

#include "../exact_checks.h"

struct Coord {
  float x, y, z;
  int layer;
};
enum Op { k1D, k2D, k3D, k2DLayered, kCube, k1Dfetch };

__global__ void fetch_float(cudaTextureObject_t t, const Coord* c, float* out, int op, int n) {
  const int i = threadIdx.x;
  if (i >= n) return;
  const Coord p = c[i];
  float v = 0;
  if (op == k1D) v = tex1D<float>(t, p.x);
  else if (op == k2D) v = tex2D<float>(t, p.x, p.y);
  else if (op == k3D) v = tex3D<float>(t, p.x, p.y, p.z);
  else if (op == k2DLayered) v = tex2DLayered<float>(t, p.x, p.y, p.layer);
  else if (op == kCube) v = texCubemap<float>(t, p.x, p.y, p.z);
  else v = tex1Dfetch<float>(t, p.layer);
  out[i] = v;
}

__global__ void fetch_float4(cudaTextureObject_t t, float x, float y, float4* out) { *out = tex2D<float4>(t, x, y); }
__global__ void fetch_uint(cudaTextureObject_t t, float x, float y, unsigned* out) {
  out[0] = tex2D<unsigned>(t, x, y);
  out[1] = tex1Dfetch<unsigned>(t, 1);
}
__global__ void fetch_uchar4(cudaTextureObject_t t, uchar4* out) { *out = tex2D<uchar4>(t, 1.5f, 0.5f); }
__global__ void fetch_int(cudaTextureObject_t t, int* out) {
  out[0] = tex1Dfetch<int>(t, 2);
  out[1] = tex1Dfetch<int>(t, -1);  // outside linear memory: 0
  out[2] = tex1Dfetch<int>(t, 4);
}

// Each thread writes x * 10 + y at texel (x, y) through the surface (x in bytes), then reads
// its right neighbour back with each boundary mode.
__global__ void surface_rw(cudaSurfaceObject_t s, float* out) {
  const int x = threadIdx.x, y = threadIdx.y;
  surf2Dwrite(float(x * 10 + y), s, x * 4, y);
  __syncthreads();
  const int o = (y * 4 + x) * 3;
  out[o] = surf2Dread<float>(s, (x + 1) * 4, y, cudaBoundaryModeZero);
  out[o + 1] = surf2Dread<float>(s, (x + 1) * 4, y, cudaBoundaryModeClamp);
  surf2Dread(&out[o + 2], s, x * 4, y);
}

static cudaTextureDesc texture_desc(cudaTextureAddressMode m, cudaTextureFilterMode f, bool normalized,
                                    cudaTextureReadMode r = cudaReadModeElementType) {
  cudaTextureDesc d;
  std::memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = m;
  d.filterMode = f;
  d.normalizedCoords = normalized;
  d.readMode = r;
  return d;
}

static cudaTextureObject_t array_texture(cudaArray_t a, const cudaTextureDesc& d) {
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureObject_t t = 0;
  CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr) == cudaSuccess);
  return t;
}

// The kernel's results at coordinates c (on the host; one launch).
static void run(cudaTextureObject_t t, int op, const Coord* c, int n, float* out) {
  Coord* dc;
  float* dout;
  cudaMalloc(&dc, n * sizeof(Coord));
  cudaMalloc(&dout, n * sizeof(float));
  cudaMemcpy(dc, c, n * sizeof(Coord), cudaMemcpyHostToDevice);
  fetch_float<<<1, 32>>>(t, dc, dout, op, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(out, dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dc);
  cudaFree(dout);
}

// A 4x4 float array, texel (x, y) = 256 x + 1024 y: point sampling and each address mode.
static void addressing() {
  float h[16];
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) h[y * 4 + x] = 256.0f * x + 1024.0f * y;
  cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
  CHECK(ch.x == 32 && ch.y == 0 && ch.f == cudaChannelFormatKindFloat);
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &ch, 4, 4) == cudaSuccess);
  CHECK(cudaMemcpy2DToArray(a, 0, 0, h, 16, 16, 4, cudaMemcpyHostToDevice) == cudaSuccess);
  float back[16] = {};
  CHECK(cudaMemcpy2DFromArray(back, 16, a, 0, 0, 16, 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(std::memcmp(back, h, sizeof h) == 0);
  float out[8];
  // Clamp, texel coordinates: (1.5, 2.5) -> texel (1, 2); outside -> the edge texels.
  const Coord clamp_c[] = {{1.5f, 2.5f}, {-3, 1.2f}, {9, 9}, {0.99f, 3.999f}};
  cudaTextureObject_t t = array_texture(a, texture_desc(cudaAddressModeClamp, cudaFilterModePoint, false));
  run(t, k2D, clamp_c, 4, out);
  CHECK(out[0] == 256 + 2048 && out[1] == 1024 && out[2] == 768 + 3072 && out[3] == 3072);
  cudaDestroyTextureObject(t);
  // Border: outside reads the border colour.
  cudaTextureDesc bd = texture_desc(cudaAddressModeBorder, cudaFilterModePoint, false);
  bd.borderColor[0] = 7.0f;
  t = array_texture(a, bd);
  const Coord border_c[] = {{-0.5f, 1.5f}, {4.0f, 0.5f}, {3.5f, 3.5f}};
  run(t, k2D, border_c, 3, out);
  CHECK(out[0] == 7 && out[1] == 7 && out[2] == 768 + 3072);
  cudaDestroyTextureObject(t);
  // Wrap, normalized: u = 1.25 -> 0.25 * 4 = texel 1; u = -0.25 -> 0.75 -> texel 3; v = 2.625 -> row 2.
  t = array_texture(a, texture_desc(cudaAddressModeWrap, cudaFilterModePoint, true));
  const Coord wrap_c[] = {{1.25f, 0.125f}, {-0.25f, 2.625f}};
  run(t, k2D, wrap_c, 2, out);
  CHECK(out[0] == 256 && out[1] == 768 + 2048);
  cudaDestroyTextureObject(t);
  // Mirror, normalized: u = 1.1 -> x 4.4 -> index 4 -> 3; u = -0.1 -> index -1 -> 0;
  // u = 1.6 -> index 6 -> 1; v = -0.3 -> y -1.2 -> index -2 -> 1.
  t = array_texture(a, texture_desc(cudaAddressModeMirror, cudaFilterModePoint, true));
  const Coord mirror_c[] = {{1.1f, 0.125f}, {-0.1f, 0.125f}, {1.6f, -0.3f}};
  run(t, k2D, mirror_c, 3, out);
  CHECK(out[0] == 768 && out[1] == 0 && out[2] == 256 + 1024);
  cudaDestroyTextureObject(t);
  // Wrap and mirror need normalized coordinates: with texel coordinates they clamp.
  t = array_texture(a, texture_desc(cudaAddressModeWrap, cudaFilterModePoint, false));
  const Coord wrap_texel_c[] = {{5.5f, -1.0f}};
  run(t, k2D, wrap_texel_c, 1, out);
  CHECK(out[0] == 768);
  cudaDestroyTextureObject(t);
  // Linear filtering at (1.8, 2.1): xB = 1.3, yB = 1.6, so texels 1..2 in x and y, weights
  // alpha = round(0.3 * 256) / 256 = 77/256, beta = round(0.6 * 256) / 256 = 154/256:
  // 256 (1 + 77/256) + 1024 (1 + 154/256) = 333 + 1640 = 1973 (unrounded weights: 1971.2).
  // Normalized (0.45, 0.525) is the same point; at (0.25, 0.25) the weights are 0.75/0.25
  // against clamped neighbours: x index -1 -> 0, so 256 * 0 ... = 0 + 0.
  t = array_texture(a, texture_desc(cudaAddressModeClamp, cudaFilterModeLinear, false));
  const Coord linear_c[] = {{1.8f, 2.1f}, {0.25f, 0.25f}, {2.0f, 0.5f}};
  run(t, k2D, linear_c, 3, out);
  CHECK(out[0] == 1973.0f && out[1] == 0.0f && out[2] == 384.0f);
  cudaDestroyTextureObject(t);
  t = array_texture(a, texture_desc(cudaAddressModeClamp, cudaFilterModeLinear, true));
  const Coord linear_n[] = {{0.45f, 0.525f}};
  run(t, k2D, linear_n, 1, out);
  CHECK(out[0] == 1973.0f);
  cudaResourceDesc r;
  CHECK(cudaGetTextureObjectResourceDesc(&r, t) == cudaSuccess && r.res.array.array == a);
  cudaChannelFormatDesc got;
  CHECK(cudaGetChannelDesc(&got, a) == cudaSuccess && got.x == 32 && got.f == cudaChannelFormatKindFloat);
  cudaDestroyTextureObject(t);
  CHECK(cudaDestroyTextureObject(t) == cudaErrorInvalidValue);  // twice
  CHECK(cudaFreeArray(a) == cudaSuccess);
}

// 8- and 16-bit integers read as normalized floats, half texels, a uchar4 read as elements.
static void formats() {
  const unsigned char u8[4] = {0, 51, 255, 128};
  cudaChannelFormatDesc ch = cudaCreateChannelDesc<unsigned char>();
  CHECK(ch.x == 8 && ch.f == cudaChannelFormatKindUnsigned);
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &ch, 4, 1) == cudaSuccess);
  CHECK(cudaMemcpyToArray(a, 0, 0, u8, 4, cudaMemcpyHostToDevice) == cudaSuccess);
  float out[4];
  // x / 255; linear at x = 0.8 (xB 0.3: weight 77/256) between 0 and 51/255.
  cudaTextureObject_t t =
      array_texture(a, texture_desc(cudaAddressModeClamp, cudaFilterModePoint, false, cudaReadModeNormalizedFloat));
  const Coord c[] = {{0.5f}, {1.5f}, {2.5f}, {3.5f}};
  run(t, k1D, c, 4, out);
  CHECK(out[0] == 0.0f && out[1] == 51.0f / 255.0f && out[2] == 1.0f && out[3] == 128.0f / 255.0f);
  cudaDestroyTextureObject(t);
  t = array_texture(a, texture_desc(cudaAddressModeClamp, cudaFilterModeLinear, false, cudaReadModeNormalizedFloat));
  const Coord lc[] = {{0.8f}};
  run(t, k1D, lc, 1, out);
  CHECK(out[0] == (77.0f / 256.0f) * (51.0f / 255.0f));
  cudaDestroyTextureObject(t);
  CHECK(cudaFreeArray(a) == cudaSuccess);
  // Signed 8-bit: max(x / 127, -1); signed 16-bit: x / 32767; half: the float it encodes.
  const signed char s8[3] = {-128, -64, 127};
  ch = cudaCreateChannelDesc<signed char>();
  CHECK(cudaMallocArray(&a, &ch, 3) == cudaSuccess);
  CHECK(cudaMemcpyToArray(a, 0, 0, s8, 3, cudaMemcpyHostToDevice) == cudaSuccess);
  t = array_texture(a, texture_desc(cudaAddressModeClamp, cudaFilterModePoint, false, cudaReadModeNormalizedFloat));
  run(t, k1D, c, 3, out);
  CHECK(out[0] == -1.0f && out[1] == -64.0f / 127.0f && out[2] == 1.0f);
  cudaDestroyTextureObject(t);
  cudaFreeArray(a);
  const short s16[2] = {-32767, 16384};
  ch = cudaCreateChannelDesc<short>();
  CHECK(ch.x == 16 && ch.f == cudaChannelFormatKindSigned);
  cudaMallocArray(&a, &ch, 2);
  cudaMemcpyToArray(a, 0, 0, s16, 4, cudaMemcpyHostToDevice);
  t = array_texture(a, texture_desc(cudaAddressModeClamp, cudaFilterModePoint, false, cudaReadModeNormalizedFloat));
  run(t, k1D, c, 2, out);
  CHECK(out[0] == -1.0f && out[1] == 16384.0f / 32767.0f);
  cudaDestroyTextureObject(t);
  cudaFreeArray(a);
  const unsigned short half[3] = {0x3C00, 0xC000, 0x3555};  // 1, -2, 0.333251953125
  ch = cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaMallocArray(&a, &ch, 3);
  cudaMemcpyToArray(a, 0, 0, half, 6, cudaMemcpyHostToDevice);
  t = array_texture(a, texture_desc(cudaAddressModeClamp, cudaFilterModePoint, false));
  run(t, k1D, c, 3, out);
  CHECK(out[0] == 1.0f && out[1] == -2.0f && out[2] == 0.333251953125f);
  cudaDestroyTextureObject(t);
  cudaFreeArray(a);
  // uchar4: elements, and normalized into a float4.
  const uchar4 px[2] = {{1, 2, 3, 4}, {10, 20, 30, 255}};
  ch = cudaCreateChannelDesc<uchar4>();
  CHECK(ch.x == 8 && ch.y == 8 && ch.z == 8 && ch.w == 8);
  cudaMallocArray(&a, &ch, 2, 1);
  cudaMemcpyToArray(a, 0, 0, px, 8, cudaMemcpyHostToDevice);
  t = array_texture(a, texture_desc(cudaAddressModeClamp, cudaFilterModePoint, false));
  uchar4* d4;
  cudaMalloc(&d4, sizeof(uchar4));
  fetch_uchar4<<<1, 1>>>(t, d4);
  uchar4 h4;
  cudaMemcpy(&h4, d4, sizeof h4, cudaMemcpyDeviceToHost);
  CHECK(h4.x == 10 && h4.y == 20 && h4.z == 30 && h4.w == 255);
  cudaDestroyTextureObject(t);
  t = array_texture(a, texture_desc(cudaAddressModeClamp, cudaFilterModePoint, false, cudaReadModeNormalizedFloat));
  float4* f4;
  cudaMalloc(&f4, sizeof(float4));
  fetch_float4<<<1, 1>>>(t, 0.5f, 0.5f, f4);
  float4 hf;
  cudaMemcpy(&hf, f4, sizeof hf, cudaMemcpyDeviceToHost);
  CHECK(hf.x == 1.0f / 255.0f && hf.y == 2.0f / 255.0f && hf.z == 3.0f / 255.0f && hf.w == 4.0f / 255.0f);
  cudaDestroyTextureObject(t);
  cudaFreeArray(a);
  cudaFree(d4);
  cudaFree(f4);
  // Integer elements: linear filtering of them is refused, as on the GPU.
  ch = cudaCreateChannelDesc<unsigned>();
  cudaMallocArray(&a, &ch, 2, 1);
  cudaTextureDesc bad = texture_desc(cudaAddressModeClamp, cudaFilterModeLinear, false);
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  CHECK(cudaCreateTextureObject(&t, &r, &bad, nullptr) == cudaErrorInvalidValue);
  cudaGetLastError();
  cudaFreeArray(a);
}

// Pitched and linear memory.
static void linear_memory() {
  unsigned* img;
  size_t pitch;
  CHECK(cudaMallocPitch(&img, &pitch, 3 * sizeof(unsigned), 2) == cudaSuccess);
  const unsigned h[6] = {1, 2, 3, 4, 5, 6};
  cudaMemcpy2D(img, pitch, h, 12, 12, 2, cudaMemcpyHostToDevice);
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypePitch2D;
  r.res.pitch2D.devPtr = img;
  r.res.pitch2D.desc = cudaCreateChannelDesc<unsigned>();
  r.res.pitch2D.width = 3;
  r.res.pitch2D.height = 2;
  r.res.pitch2D.pitchInBytes = pitch;
  cudaTextureDesc d = texture_desc(cudaAddressModeClamp, cudaFilterModePoint, false);
  cudaTextureObject_t t;
  r.res.pitch2D.width = 0;  // no texel: refused
  CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr) == cudaErrorInvalidValue);
  cudaGetLastError();
  r.res.pitch2D.width = 3;
  CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr) == cudaSuccess);
  unsigned* out;
  cudaMalloc(&out, 2 * sizeof(unsigned));
  fetch_uint<<<1, 1>>>(t, 2.5f, 1.5f, out);
  unsigned ho[2];
  cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost);
  CHECK(ho[0] == 6 && ho[1] == 2);
  cudaDestroyTextureObject(t);
  int* lin;
  const int hl[4] = {-5, 6, -7, 8};
  cudaMalloc(&lin, sizeof hl);
  cudaMemcpy(lin, hl, sizeof hl, cudaMemcpyHostToDevice);
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = lin;
  r.res.linear.desc = cudaCreateChannelDesc<int>();
  r.res.linear.sizeInBytes = sizeof hl;
  CHECK(cudaCreateTextureObject(&t, &r, &d, nullptr) == cudaSuccess);
  int hi[3] = {1, 1, 1};
  int* iout;
  cudaMalloc(&iout, sizeof hi);
  fetch_int<<<1, 1>>>(t, iout);
  cudaMemcpy(hi, iout, sizeof hi, cudaMemcpyDeviceToHost);
  CHECK(hi[0] == -7 && hi[1] == 0 && hi[2] == 0);
  cudaDestroyTextureObject(t);
  cudaFree(img);
  cudaFree(lin);
  cudaFree(out);
  cudaFree(iout);
}

// Layers, cubemap faces and 3D through cudaMalloc3DArray and cudaMemcpy3D.
static void layers_and_cubes() {
  // 2 layers of 2x2, texel = 100 layer + 10 y + x; the layer index is clamped.
  float h[24];
  for (int l = 0; l < 6; ++l)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) h[l * 4 + y * 2 + x] = 100.0f * l + 10.0f * y + x;
  cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  CHECK(cudaMalloc3DArray(&a, &ch, make_cudaExtent(2, 2, 2), cudaArrayLayered) == cudaSuccess);
  cudaMemcpy3DParms p = {0};
  p.srcPtr = make_cudaPitchedPtr(h, 2 * sizeof(float), 2, 2);
  p.dstArray = a;
  p.extent = make_cudaExtent(2, 2, 2);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p) == cudaSuccess);
  cudaTextureObject_t t = array_texture(a, texture_desc(cudaAddressModeClamp, cudaFilterModePoint, false));
  float out[6];
  const Coord lc[] = {{1.5f, 0.5f, 0, 1}, {0.5f, 1.5f, 0, 0}, {0.5f, 0.5f, 0, 5}};
  run(t, k2DLayered, lc, 3, out);
  CHECK(out[0] == 101 && out[1] == 10 && out[2] == 100);
  cudaDestroyTextureObject(t);
  cudaFreeArray(a);
  // A cubemap of 2x2 faces: each direction below lands on face f at texel (i, j) (worked out
  // from the programming guide's face table): 10, 111, 201, 311, 410, 501.
  CHECK(cudaMalloc3DArray(&a, &ch, make_cudaExtent(2, 2, 6), cudaArrayCubemap) == cudaSuccess);
  p.extent = make_cudaExtent(2, 2, 6);
  p.dstArray = a;
  CHECK(cudaMemcpy3D(&p) == cudaSuccess);
  t = array_texture(a, texture_desc(cudaAddressModeClamp, cudaFilterModePoint, true));
  const Coord cc[] = {{1, -0.5f, 0.5f},    {-1, -0.5f, 0.5f}, {0.5f, 1, -0.5f},
                      {0.5f, -1, -0.5f},   {-0.5f, -0.5f, 1}, {-0.5f, 0.5f, -1}};
  run(t, kCube, cc, 6, out);
  CHECK(out[0] == 10 && out[1] == 111 && out[2] == 201 && out[3] == 311 && out[4] == 410 && out[5] == 501);
  cudaDestroyTextureObject(t);
  cudaFreeArray(a);
  // 3D: 2x2x2, the same texels as slices; linear in z at z = 1.0 (zB 0.5: half of each slice).
  CHECK(cudaMalloc3DArray(&a, &ch, make_cudaExtent(2, 2, 2), 0) == cudaSuccess);
  p.extent = make_cudaExtent(2, 2, 2);
  p.dstArray = a;
  CHECK(cudaMemcpy3D(&p) == cudaSuccess);
  float back[8] = {};
  cudaMemcpy3DParms q = {0};
  q.srcArray = a;
  q.dstPtr = make_cudaPitchedPtr(back, 2 * sizeof(float), 2, 2);
  q.extent = make_cudaExtent(2, 2, 2);
  CHECK(cudaMemcpy3D(&q) == cudaSuccess && std::memcmp(back, h, sizeof back) == 0);
  t = array_texture(a, texture_desc(cudaAddressModeClamp, cudaFilterModePoint, false));
  const Coord c3[] = {{1.5f, 0.5f, 1.5f}, {0.5f, 1.5f, 0.5f}};
  run(t, k3D, c3, 2, out);
  CHECK(out[0] == 101 && out[1] == 10);
  cudaDestroyTextureObject(t);
  t = array_texture(a, texture_desc(cudaAddressModeClamp, cudaFilterModeLinear, false));
  const Coord l3[] = {{1.5f, 1.5f, 1.0f}};
  run(t, k3D, l3, 1, out);
  CHECK(out[0] == 61);  // (11 + 111) / 2
  cudaDestroyTextureObject(t);
  cudaFreeArray(a);
}

// surf2Dwrite and surf2Dread round trip; the texture over the same array sees the writes.
static void surfaces() {
  cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  CHECK(cudaMallocArray(&a, &ch, 4, 4, cudaArraySurfaceLoadStore) == cudaSuccess);
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaSurfaceObject_t s;
  CHECK(cudaCreateSurfaceObject(&s, &r) == cudaSuccess);
  float* out;
  cudaMalloc(&out, 48 * sizeof(float));
  surface_rw<<<1, dim3(4, 4)>>>(s, out);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  float h[48];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const float* o = h + (y * 4 + x) * 3;
      const float right = x < 3 ? (x + 1) * 10 + y : 0, clamped = x < 3 ? right : 30 + y;
      wrong += o[0] != right || o[1] != clamped || o[2] != x * 10 + y;
    }
  CHECK(wrong == 0);
  float texels[16];
  CHECK(cudaMemcpyFromArray(texels, a, 0, 0, sizeof texels, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(texels[1 * 4 + 2] == 21);  // texel (2, 1)
  cudaTextureObject_t t = array_texture(a, texture_desc(cudaAddressModeClamp, cudaFilterModePoint, false));
  float v[1];
  const Coord c[] = {{3.5f, 2.5f}};
  run(t, k2D, c, 1, v);
  CHECK(v[0] == 32);
  cudaDestroyTextureObject(t);
  CHECK(cudaDestroySurfaceObject(s) == cudaSuccess);
  // A surface needs cudaArraySurfaceLoadStore.
  cudaArray_t plain;
  cudaMallocArray(&plain, &ch, 4, 4);
  r.res.array.array = plain;
  CHECK(cudaCreateSurfaceObject(&s, &r) == cudaErrorInvalidValue);
  cudaGetLastError();
  cudaFreeArray(plain);
  cudaFreeArray(a);
  cudaFree(out);
}

int main() {
  addressing();
  formats();
  linear_memory();
  layers_and_cubes();
  surfaces();
  std::printf("textures: %d checks, %d failed\n", checks, failed);
  return failed != 0;
}
