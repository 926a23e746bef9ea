// The idiom kernels of tests/frontend/idioms.cu and idioms2.cu, as the GCC-built tests call
// them (one declaration each, for both test files).
#pragma once

#include <tgsim/kernel/cuda_vector_types.h>

struct Particle { float x, y, z, w; };
struct Out12 { int idx; float val; int tag; };

void addr_of_element(const float* in, float* out);
void walk_pointer(const int* in, int* out);
void optional_bias(const float* in, const float* bias, float* out);
void copy_as_float4(const float* in, float* out);
void bounded_copy(const int* begin, const int* end, int* out);
void set_members(Particle* p, Out12* block_out, float v);
void shared_increment(int* out);
void vote_barriers(const int* in, int* out);
void publish(int* data, int* flag);
void read_only_load(const float* in, float* out);
void shared_to_helper(const float* in, float* out);
void shared_offsets(int* out);
void clear_bytes_as_words(unsigned* out);
void volatile_shared(unsigned* out);
void saxpy_restrict(int n, float a, const float* __restrict x, float* __restrict y);
void vector_types(const float4* a, float3* b, uint4* c, uchar4* d);
void math_idioms(const float* data, float* out, int* iout);
void cond_zero(const float* f, const double* d, float* fo, double* dout, int n);
void int_params(int* a, const int* b);
void template_shared(const float* f, const double* d, float* fo, double* dout);
void dynamic_shared(const int* in, int* out);
extern "C" int set_coef(const float* h);
void constant_poly(const float* x, float* y);
extern "C" int read_launches(int* h);
void device_globals(float* out);
void atomics(int* gsum, unsigned* ginc, int* gcas, unsigned* wrap_out, int* owner_out);
void hello(int base);
void cg_block_sum(const int* in, int* out);
void warp_ops(const int* in, int* out, unsigned* ballots);
void read_pointer(const int* p, int* out);
void aggregate_fields(const float2* f, float2* e);
