// A header shared between host code and a shader, as Apple's samples write them.
#ifndef SHARED_TYPES_H
#define SHARED_TYPES_H

#include <simd/simd.h>
#include <TargetConditionals.h>
#if !TARGET_OS_OSX || TARGET_OS_IPHONE
#error "the shaders are built as on a Mac"
#endif

typedef enum BufferIndex {
  BufferIndexParams = 0x0u,
  BufferIndexParticles,
} BufferIndex;

typedef struct {
  vector_float4 position;
  simd_float2 velocity;
} Particle;

typedef struct {
  matrix_float2x2 turn;
  vector_float2 gravity;
  float step;
} Params;

#endif
