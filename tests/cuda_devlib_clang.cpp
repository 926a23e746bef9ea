// Compiled by the cuda_devlib_clang test with clang++-14 -std=c++20 -Wall -Wextra -Werror and
// tgsim/kernel/cuda_vector_types.h and cuda_math.h force-included, as a kernel .cu is: every
// function of the CUDA device library is called once (generated from the headers' lists).
extern "C" void tgsim_devlib_every_function(float x, double d, int i, unsigned u, long l, unsigned long ul,
                                            long long ll, unsigned long long ull, const float* fa,
                                            const double* da, double* out) {
  float fs = 0, fc = 0;
  double ds = 0, dc = 0;
  (void)fc; (void)dc;
  double acc = 0;
  const float4 v = make_float4(x, x, x, x);
  const dim3 block(16, 16);
  const uint3 b3 = block;
  acc += b3.x + make_int2(i, i).y + make_double2(d, d).x + make_uchar4(1, 2, 3, 4).w;
  acc += static_cast<double>(__brev(u));
  acc += static_cast<double>(__brevll(ull));
  acc += static_cast<double>(__byte_perm(u, u, u));
  acc += static_cast<double>(__clz(i));
  acc += static_cast<double>(__clzll(ll));
  acc += static_cast<double>(__cosf(x));
  acc += static_cast<double>(__dadd_rd(d, d));
  acc += static_cast<double>(__dadd_rn(d, d));
  acc += static_cast<double>(__dadd_ru(d, d));
  acc += static_cast<double>(__dadd_rz(d, d));
  acc += static_cast<double>(__ddiv_rd(d, d));
  acc += static_cast<double>(__ddiv_rn(d, d));
  acc += static_cast<double>(__ddiv_ru(d, d));
  acc += static_cast<double>(__ddiv_rz(d, d));
  acc += static_cast<double>(__dmul_rd(d, d));
  acc += static_cast<double>(__dmul_rn(d, d));
  acc += static_cast<double>(__dmul_ru(d, d));
  acc += static_cast<double>(__dmul_rz(d, d));
  acc += static_cast<double>(__double2float_rd(d));
  acc += static_cast<double>(__double2float_rn(d));
  acc += static_cast<double>(__double2float_ru(d));
  acc += static_cast<double>(__double2float_rz(d));
  acc += static_cast<double>(__double2hiint(d));
  acc += static_cast<double>(__double2int_rd(d));
  acc += static_cast<double>(__double2int_rn(d));
  acc += static_cast<double>(__double2int_ru(d));
  acc += static_cast<double>(__double2int_rz(d));
  acc += static_cast<double>(__double2ll_rd(d));
  acc += static_cast<double>(__double2ll_rn(d));
  acc += static_cast<double>(__double2ll_ru(d));
  acc += static_cast<double>(__double2ll_rz(d));
  acc += static_cast<double>(__double2loint(d));
  acc += static_cast<double>(__double2uint_rd(d));
  acc += static_cast<double>(__double2uint_rn(d));
  acc += static_cast<double>(__double2uint_ru(d));
  acc += static_cast<double>(__double2uint_rz(d));
  acc += static_cast<double>(__double2ull_rd(d));
  acc += static_cast<double>(__double2ull_rn(d));
  acc += static_cast<double>(__double2ull_ru(d));
  acc += static_cast<double>(__double2ull_rz(d));
  acc += static_cast<double>(__double_as_longlong(d));
  acc += static_cast<double>(__drcp_rd(d));
  acc += static_cast<double>(__drcp_rn(d));
  acc += static_cast<double>(__drcp_ru(d));
  acc += static_cast<double>(__drcp_rz(d));
  acc += static_cast<double>(__dsqrt_rd(d));
  acc += static_cast<double>(__dsqrt_rn(d));
  acc += static_cast<double>(__dsqrt_ru(d));
  acc += static_cast<double>(__dsqrt_rz(d));
  acc += static_cast<double>(__dsub_rd(d, d));
  acc += static_cast<double>(__dsub_rn(d, d));
  acc += static_cast<double>(__dsub_ru(d, d));
  acc += static_cast<double>(__dsub_rz(d, d));
  acc += static_cast<double>(__exp10f(x));
  acc += static_cast<double>(__expf(x));
  acc += static_cast<double>(__fadd_rd(x, x));
  acc += static_cast<double>(__fadd_rn(x, x));
  acc += static_cast<double>(__fadd_ru(x, x));
  acc += static_cast<double>(__fadd_rz(x, x));
  acc += static_cast<double>(__fdiv_rd(x, x));
  acc += static_cast<double>(__fdiv_rn(x, x));
  acc += static_cast<double>(__fdiv_ru(x, x));
  acc += static_cast<double>(__fdiv_rz(x, x));
  acc += static_cast<double>(__fdividef(x, x));
  acc += static_cast<double>(__ffs(i));
  acc += static_cast<double>(__ffsll(ll));
  acc += static_cast<double>(__float2int_rd(x));
  acc += static_cast<double>(__float2int_rn(x));
  acc += static_cast<double>(__float2int_ru(x));
  acc += static_cast<double>(__float2int_rz(x));
  acc += static_cast<double>(__float2ll_rd(x));
  acc += static_cast<double>(__float2ll_rn(x));
  acc += static_cast<double>(__float2ll_ru(x));
  acc += static_cast<double>(__float2ll_rz(x));
  acc += static_cast<double>(__float2uint_rd(x));
  acc += static_cast<double>(__float2uint_rn(x));
  acc += static_cast<double>(__float2uint_ru(x));
  acc += static_cast<double>(__float2uint_rz(x));
  acc += static_cast<double>(__float2ull_rd(x));
  acc += static_cast<double>(__float2ull_rn(x));
  acc += static_cast<double>(__float2ull_ru(x));
  acc += static_cast<double>(__float2ull_rz(x));
  acc += static_cast<double>(__float_as_int(x));
  acc += static_cast<double>(__float_as_uint(x));
  acc += static_cast<double>(__fma_rd(d, d, d));
  acc += static_cast<double>(__fma_rn(d, d, d));
  acc += static_cast<double>(__fma_ru(d, d, d));
  acc += static_cast<double>(__fma_rz(d, d, d));
  acc += static_cast<double>(__fmaf_ieee_rd(x, x, x));
  acc += static_cast<double>(__fmaf_ieee_rn(x, x, x));
  acc += static_cast<double>(__fmaf_ieee_ru(x, x, x));
  acc += static_cast<double>(__fmaf_ieee_rz(x, x, x));
  acc += static_cast<double>(__fmaf_rd(x, x, x));
  acc += static_cast<double>(__fmaf_rn(x, x, x));
  acc += static_cast<double>(__fmaf_ru(x, x, x));
  acc += static_cast<double>(__fmaf_rz(x, x, x));
  acc += static_cast<double>(__fmul_rd(x, x));
  acc += static_cast<double>(__fmul_rn(x, x));
  acc += static_cast<double>(__fmul_ru(x, x));
  acc += static_cast<double>(__fmul_rz(x, x));
  acc += static_cast<double>(__frcp_rd(x));
  acc += static_cast<double>(__frcp_rn(x));
  acc += static_cast<double>(__frcp_ru(x));
  acc += static_cast<double>(__frcp_rz(x));
  acc += static_cast<double>(__frsqrt_rn(x));
  acc += static_cast<double>(__fsqrt_rd(x));
  acc += static_cast<double>(__fsqrt_rn(x));
  acc += static_cast<double>(__fsqrt_ru(x));
  acc += static_cast<double>(__fsqrt_rz(x));
  acc += static_cast<double>(__fsub_rd(x, x));
  acc += static_cast<double>(__fsub_rn(x, x));
  acc += static_cast<double>(__fsub_ru(x, x));
  acc += static_cast<double>(__fsub_rz(x, x));
  acc += static_cast<double>(__funnelshift_l(u, u, u));
  acc += static_cast<double>(__funnelshift_lc(u, u, u));
  acc += static_cast<double>(__funnelshift_r(u, u, u));
  acc += static_cast<double>(__funnelshift_rc(u, u, u));
  acc += static_cast<double>(__hadd(i, i));
  acc += static_cast<double>(__hiloint2double(i, i));
  acc += static_cast<double>(__int2double_rn(i));
  acc += static_cast<double>(__int2float_rd(i));
  acc += static_cast<double>(__int2float_rn(i));
  acc += static_cast<double>(__int2float_ru(i));
  acc += static_cast<double>(__int2float_rz(i));
  acc += static_cast<double>(__int_as_float(i));
  acc += __ldg(fa) + __ldg(&v).w;
  acc += static_cast<double>(__ll2double_rd(ll));
  acc += static_cast<double>(__ll2double_rn(ll));
  acc += static_cast<double>(__ll2double_ru(ll));
  acc += static_cast<double>(__ll2double_rz(ll));
  acc += static_cast<double>(__ll2float_rd(ll));
  acc += static_cast<double>(__ll2float_rn(ll));
  acc += static_cast<double>(__ll2float_ru(ll));
  acc += static_cast<double>(__ll2float_rz(ll));
  acc += static_cast<double>(__log10f(x));
  acc += static_cast<double>(__log2f(x));
  acc += static_cast<double>(__logf(x));
  acc += static_cast<double>(__longlong_as_double(ll));
  acc += static_cast<double>(__mul24(i, i));
  acc += static_cast<double>(__mul64hi(ll, ll));
  acc += static_cast<double>(__mulhi(i, i));
  acc += static_cast<double>(__popc(u));
  acc += static_cast<double>(__popcll(ull));
  acc += static_cast<double>(__powf(x, x));
  acc += static_cast<double>(__rhadd(i, i));
  acc += static_cast<double>(__sad(i, i, u));
  acc += static_cast<double>(__saturatef(x));
  __sincosf(x, &fs, &fc);
  acc += static_cast<double>(__sinf(x));
  acc += static_cast<double>(__tanf(x));
  acc += static_cast<double>(__tanhf(x));
  acc += static_cast<double>(__uhadd(u, u));
  acc += static_cast<double>(__uint2double_rn(u));
  acc += static_cast<double>(__uint2float_rd(u));
  acc += static_cast<double>(__uint2float_rn(u));
  acc += static_cast<double>(__uint2float_ru(u));
  acc += static_cast<double>(__uint2float_rz(u));
  acc += static_cast<double>(__uint_as_float(u));
  acc += static_cast<double>(__ull2double_rd(ull));
  acc += static_cast<double>(__ull2double_rn(ull));
  acc += static_cast<double>(__ull2double_ru(ull));
  acc += static_cast<double>(__ull2double_rz(ull));
  acc += static_cast<double>(__ull2float_rd(ull));
  acc += static_cast<double>(__ull2float_rn(ull));
  acc += static_cast<double>(__ull2float_ru(ull));
  acc += static_cast<double>(__ull2float_rz(ull));
  acc += static_cast<double>(__umul24(u, u));
  acc += static_cast<double>(__umul64hi(ull, ull));
  acc += static_cast<double>(__umulhi(u, u));
  acc += static_cast<double>(__urhadd(u, u));
  acc += static_cast<double>(__usad(u, u, u));
  acc += static_cast<double>(cospi(d));
  acc += static_cast<double>(cospif(x));
  acc += static_cast<double>(erfcinv(d));
  acc += static_cast<double>(erfcinvf(x));
  acc += static_cast<double>(erfcx(d));
  acc += static_cast<double>(erfcxf(x));
  acc += static_cast<double>(erfinv(d));
  acc += static_cast<double>(erfinvf(x));
  acc += static_cast<double>(exp10(d));
  acc += static_cast<double>(exp10f(x));
  acc += static_cast<double>(fdivide(d, d));
  acc += static_cast<double>(fdividef(x, x));
  acc += static_cast<double>(llmax(ll, ll));
  acc += static_cast<double>(llmin(ll, ll));
  acc += max(i, i) + max(u, u) + max(i, u) + max(u, i) + max(l, l) + max(ul, ul) + max(l, ul) + max(ul, l);
  acc += max(ll, ll) + max(ull, ull) + max(ll, ull) + max(ull, ll) + max(x, x) + max(d, d) + max(x, d) + max(d, x);
  acc += min(i, i) + min(u, u) + min(i, u) + min(u, i) + min(l, l) + min(ul, ul) + min(l, ul) + min(ul, l);
  acc += min(ll, ll) + min(ull, ull) + min(ll, ull) + min(ull, ll) + min(x, x) + min(d, d) + min(x, d) + min(d, x);
  acc += static_cast<double>(norm(i, da));
  acc += static_cast<double>(norm3d(d, d, d));
  acc += static_cast<double>(norm3df(x, x, x));
  acc += static_cast<double>(norm4d(d, d, d, d));
  acc += static_cast<double>(norm4df(x, x, x, x));
  acc += static_cast<double>(normcdf(d));
  acc += static_cast<double>(normcdff(x));
  acc += static_cast<double>(normcdfinv(d));
  acc += static_cast<double>(normcdfinvf(x));
  acc += static_cast<double>(normf(i, fa));
  acc += static_cast<double>(rcbrt(d));
  acc += static_cast<double>(rcbrtf(x));
  acc += static_cast<double>(rhypot(d, d));
  acc += static_cast<double>(rhypotf(x, x));
  acc += static_cast<double>(rnorm(i, da));
  acc += static_cast<double>(rnorm3d(d, d, d));
  acc += static_cast<double>(rnorm3df(x, x, x));
  acc += static_cast<double>(rnorm4d(d, d, d, d));
  acc += static_cast<double>(rnorm4df(x, x, x, x));
  acc += static_cast<double>(rnormf(i, fa));
  acc += static_cast<double>(rsqrt(d));
  acc += static_cast<double>(rsqrtf(x));
  sincos(d, &ds, &dc);
  sincosf(x, &fs, &fc);
  sincospi(d, &ds, &dc);
  sincospif(x, &fs, &fc);
  acc += static_cast<double>(sinpi(d));
  acc += static_cast<double>(sinpif(x));
  acc += static_cast<double>(ullmax(ull, ull));
  acc += static_cast<double>(ullmin(ull, ull));
  acc += static_cast<double>(umax(u, u));
  acc += static_cast<double>(umin(u, u));
  acc += make_char1(1).x +
         make_char2(1, 1).x +
         make_char3(1, 1, 1).x +
         make_char4(1, 1, 1, 1).x +
         make_uchar1(1).x +
         make_uchar2(1, 1).x +
         make_uchar3(1, 1, 1).x +
         make_uchar4(1, 1, 1, 1).x +
         make_short1(1).x +
         make_short2(1, 1).x +
         make_short3(1, 1, 1).x +
         make_short4(1, 1, 1, 1).x +
         make_ushort1(1).x +
         make_ushort2(1, 1).x +
         make_ushort3(1, 1, 1).x +
         make_ushort4(1, 1, 1, 1).x +
         make_int1(i).x +
         make_int2(i, i).x +
         make_int3(i, i, i).x +
         make_int4(i, i, i, i).x +
         make_uint1(u).x +
         make_uint2(u, u).x +
         make_uint3(u, u, u).x +
         make_uint4(u, u, u, u).x +
         make_long1(l).x +
         make_long2(l, l).x +
         make_long3(l, l, l).x +
         make_long4(l, l, l, l).x +
         make_ulong1(ul).x +
         make_ulong2(ul, ul).x +
         make_ulong3(ul, ul, ul).x +
         make_ulong4(ul, ul, ul, ul).x +
         make_longlong1(ll).x +
         make_longlong2(ll, ll).x +
         make_longlong3(ll, ll, ll).x +
         make_longlong4(ll, ll, ll, ll).x +
         make_ulonglong1(ull).x +
         make_ulonglong2(ull, ull).x +
         make_ulonglong3(ull, ull, ull).x +
         make_ulonglong4(ull, ull, ull, ull).x +
         make_float1(x).x +
         make_float2(x, x).x +
         make_float3(x, x, x).x +
         make_float4(x, x, x, x).x +
         make_double1(d).x +
         make_double2(d, d).x +
         make_double3(d, d, d).x +
         make_double4(d, d, d, d).x +
         make_long4_16a(l, l, l, l).w +
         make_long4_32a(l, l, l, l).w +
         make_ulong4_16a(ul, ul, ul, ul).w +
         make_ulong4_32a(ul, ul, ul, ul).w +
         make_longlong4_16a(ll, ll, ll, ll).w +
         make_longlong4_32a(ll, ll, ll, ll).w +
         make_ulonglong4_16a(ull, ull, ull, ull).w +
         make_ulonglong4_32a(ull, ull, ull, ull).w +
         make_double4_16a(d, d, d, d).w +
         make_double4_32a(d, d, d, d).w;
  *out = acc + fs + ds;
}
