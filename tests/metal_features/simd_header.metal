// <simd/simd.h> through a header shared with host code (#import, as Apple's samples write it).
#include <metal_stdlib>
using namespace metal;

#import "shared_types.h"

kernel void step_particles(device Particle* particles [[buffer(BufferIndexParticles)]],
                           constant Params& params [[buffer(BufferIndexParams)]],
                           uint id [[thread_position_in_grid]]) {
  Particle p = particles[id];
  simd_float2 v = params.turn[0] * p.velocity.x + params.turn[1] * p.velocity.y + params.gravity;
  p.velocity = v;
  p.position.xy += v * params.step;
  particles[id] = p;
}
