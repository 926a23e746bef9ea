// Metal's geometric functions beside dot/length/normalize: distance_squared, reflect,
// faceforward and refract (with total internal reflection).
#include <metal_stdlib>
using namespace metal;

kernel void geometric(device float* out [[buffer(0)]]) {
  out[0] = distance_squared(float3(1, 2, 3), float3(4, 6, 3));
  const float3 r = reflect(float3(1, -1, 0), float3(0, 1, 0));
  out[1] = r.x;
  out[2] = r.y;
  out[3] = r.z;
  out[4] = faceforward(float3(0, 1, 0), float3(0, -1, 0), float3(0, 1, 0)).y;
  out[5] = faceforward(float3(0, 1, 0), float3(0, 1, 0), float3(0, 1, 0)).y;
  out[6] = refract(float3(0, -1, 0), float3(0, 1, 0), 1.0f).y;
  out[7] = length(refract(normalize(float3(1, -0.1f, 0)), float3(0, 1, 0), 1.5f));
}
