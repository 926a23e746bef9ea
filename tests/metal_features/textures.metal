// Textures and samplers (tests/metal_textures.sh): read, write, sample under each address mode
// and filter, sizes, integer and half textures, 1D, 3D and array textures, a race on one texel
// and a read outside the texture.
#include <metal_stdlib>
using namespace metal;

kernel void invert(texture2d<float, access::read> src [[texture(0)]],
                   texture2d<float, access::write> dst [[texture(1)]],
                   device uint* size [[buffer(0)]],
                   uint2 gid [[thread_position_in_grid]]) {
  dst.write(float4(1.0f) - src.read(gid), gid);
  if (gid.x == 0 && gid.y == 0) {
    size[0] = src.get_width();
    size[1] = src.get_height();
    size[2] = src.get_num_mip_levels() + (is_null_texture(src) ? 10 : 0);
  }
}

kernel void sample_at(device const float2* where [[buffer(0)]],
                      device float4* out [[buffer(1)]],
                      texture2d<float> tex [[texture(0)]],
                      sampler s [[sampler(0)]],
                      uint i [[thread_position_in_grid]]) {
  out[i] = tex.sample(s, where[i]);
}

constexpr sampler wrap_linear(coord::pixel, address::repeat, filter::linear);

kernel void sample_constexpr(device float4* out [[buffer(0)]],
                             texture2d<float> tex [[texture(0)]],
                             uint i [[thread_position_in_grid]]) {
  constexpr sampler mirror_nearest(filter::nearest, coord::normalized, address::mirrored_repeat);
  out[i] = i == 0 ? tex.sample(wrap_linear, float2(0.0f, 0.5f)) : tex.sample(mirror_nearest, float2(-0.125f, 0.25f));
}

kernel void add_uint(texture2d<uint, access::read_write> t [[texture(0)]],
                     uint2 gid [[thread_position_in_grid]]) {
  t.write(t.read(gid) + uint4(1, 2, 3, 4), gid);
}

kernel void half_to_float(texture2d<half, access::read> t [[texture(0)]],
                          device float4* out [[buffer(0)]],
                          uint2 gid [[thread_position_in_grid]]) {
  out[gid.y * t.get_width() + gid.x] = float4(t.read(gid)) * 2.0f;
}

kernel void shapes(texture1d<float, access::read> line [[texture(0)]],
                   texture3d<float, access::read> cube [[texture(1)]],
                   texture2d_array<float, access::read> layers [[texture(2)]],
                   device float* out [[buffer(0)]],
                   uint i [[thread_position_in_grid]]) {
  out[i] = line.read(i).x + 100.0f * cube.read(uint3(i % 2, i / 2 % 2, i / 4)).x +
           1000.0f * layers.read(uint2(i % 2, 0), i / 2).x;
  if (i == 0) {
    out[8] = line.get_width();
    out[9] = cube.get_depth();
    out[10] = layers.get_array_size();
  }
}

kernel void one_texel(texture2d<float, access::write> dst [[texture(0)]],
                      uint2 gid [[thread_position_in_grid]]) {
  dst.write(float4(float(gid.x)), uint2(0, 0));
}

kernel void read_right(texture2d<float, access::read> src [[texture(0)]],
                       device float* out [[buffer(0)]],
                       uint2 gid [[thread_position_in_grid]]) {
  out[gid.y * 4 + gid.x] = src.read(gid + uint2(1, 0)).x;
}

kernel void shadow(depth2d_array<float> maps [[texture(0)]],
                   device float* out [[buffer(0)]],
                   uint i [[thread_position_in_grid]]) {
  constexpr sampler cmp(coord::pixel, compare_func::less);
  out[i] = maps.sample_compare(cmp, float2(float(i % 2) + 0.5f, 0.5f), i / 2, 2.5f) +
           10.0f * maps.read(uint2(i % 2, 0), i / 2) + 100.0f * maps.get_array_size();
}

kernel void sky(texturecube<float> env [[texture(0)]],
                device float* out [[buffer(0)]],
                uint i [[thread_position_in_grid]]) {
  constexpr sampler s(filter::nearest);
  const float3 dirs[6] = {float3(1, 0.1, 0.2), float3(-1, 0, 0), float3(0, 1, 0), float3(0, -1, 0), float3(0, 0, 1), float3(0.5, 0.2, -1)};
  out[i] = env.sample(s, dirs[i]).x + 100.0f * env.read(uint2(1, 1), i).x;
}
