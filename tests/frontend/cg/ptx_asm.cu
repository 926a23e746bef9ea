// Inline PTX in a kernel file (issue 34): special registers, bit, byte, video and math
// instructions, loads and stores the pass computes (sim/pass/ptx_asm.cpp, ptx_ops.cpp); other PTX
// is one finding naming the instruction and line.
__device__ unsigned top_bit(unsigned w) {
  unsigned r;
  asm volatile("bfind.u32 %0, %1;" : "=r"(r) : "r"(w));
  return r;
}

// 64 threads: thread 37 is lane 5 of warp 1.
__global__ void special_regs(unsigned* out) {
  unsigned lane, lt, ge, warp, rev, pop;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm volatile("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
  asm("mov.u32 %0, %%warpid;" : "=r"(warp));
  asm("brev.b32 %0, %1;" : "=r"(rev) : "r"(lane));
  asm("popc.b32 %0, %1;" : "=r"(pop) : "r"(ge));
  out[threadIdx.x] = lane + 32 * warp;
  if (threadIdx.x == 37)
    printf("ptx lane %u lt %08x ge %08x warp %u bfind %u %d rev %08x popc %u\n", lane, lt, ge, warp,
           top_bit(threadIdx.x), int(top_bit(0)), rev, pop);
}

__global__ void unmodelled(unsigned* out) {
  unsigned d;
  asm("vmad.u32.u32.u32.shr7 %0, %1, %2, %3;" : "=r"(d) : "r"(threadIdx.x), "r"(1u), "r"(2u));
  out[threadIdx.x] = d;
}

__device__ unsigned lop3(unsigned a, unsigned b, unsigned c, int which) {
  unsigned d;
  if (which == 0) asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  else asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
}

// Bit, byte, video, funnel-shift and approximate-math instructions the pass computes; thread 0
// prints them (threadIdx.x keeps the inputs unknown to the compiler).
__global__ void computed(unsigned* out) {
  const unsigned a = 0x8012f37bu + threadIdx.x, b = 0x01ff7f80u, c = 0x0ff0a55au;
  unsigned x3 = lop3(a, b, c, 0), maj = lop3(a, b, c, 1), p0, p1, p2, l8, r40, sad, ssad, sh, sh4, mx;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(p0) : "r"(a), "r"(b), "r"(0x7531u));
  asm("prmt.b32 %0, %1, %2, 0x0f19;" : "=r"(p1) : "r"(a), "r"(b));
  asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(p2) : "r"(a), "r"(b), "r"(1u));
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(l8) : "r"(a), "r"(b), "r"(8u + 32 * threadIdx.x));
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r40) : "r"(a), "r"(b), "r"(40u));
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(sad) : "r"(a), "r"(b), "r"(16u));
  asm("vabsdiff4.s32.s32.s32.add %0, %1, %2, %3;" : "=r"(ssad) : "r"(a), "r"(b), "r"(16u));
  asm("vshr.u32.u32.u32.clamp.add %0, %1, %2, %3;" : "=r"(sh) : "r"(a), "r"(40u), "r"(5u));
  asm("vshr.s32.s32.u32.wrap.add %0, %1, %2, %3;" : "=r"(sh4) : "r"(a), "r"(36u), "r"(5u));
  asm("vmax2.s32.s32.s32.add %0, %1, %2, %3;" : "=r"(mx) : "r"(a), "r"(b), "r"(1u));
  // Float operands as their bits ("r"): the host compiler has no "f" registers.
  unsigned e, rs, th, f = __float_as_uint(3.0f + threadIdx.x);
  asm("ex2.approx.ftz.f32 %0, %1;" : "=r"(e) : "r"(f));
  asm("rsqrt.approx.f32 %0, %1;" : "=r"(rs) : "r"(__float_as_uint(4.0f + threadIdx.x)));
  asm("tanh.approx.f32 %0, %1;" : "=r"(th) : "r"(__float_as_uint(0.5f + threadIdx.x)));
  unsigned acc = 7;
  asm("vadd4.u32.u32.u32.add %0, %1, %2, %0;" : "+r"(acc) : "r"(a), "r"(b));
  out[threadIdx.x] = x3 ^ maj;
  if (threadIdx.x == 0)
    printf("ptx lop3 %08x %08x prmt %08x %08x %08x shf %08x %08x sad %u %u vshr %u %08x vmax2 %u %.4f %.4f %.4f acc %u\n", x3, maj,
           p0, p1, p2, l8, r40, sad, ssad, sh, sh4, mx, __uint_as_float(e),
           __uint_as_float(rs), __uint_as_float(th), acc);
}

// PTX loads and stores: one 16-byte access each per thread, counted as the vector access.
__global__ void vector_copy(const unsigned* in, unsigned* out) {
  const unsigned* p = in + 4 * threadIdx.x;
  unsigned v0, v1, v2, v3;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "l"(p));
  asm volatile("st.global.cg.v4.b32 [%0+16], {%1, %2, %3, %4};" ::"l"(out + 4 * threadIdx.x - 4), "r"(v3),
               "r"(v2), "r"(v1), "r"(v0 + 100) : "memory");
  __syncthreads();
  if (threadIdx.x == 0) printf("copy %u %u %u %u %u\n", out[0], out[3], out[4], out[7], out[127]);
}

// A lone `%` before a special register, as nvcc accepts it (Clang wants `%%`), templates split
// over lines and an operand list missing a comma.
__global__ void lone_percent(unsigned* out) {
  unsigned lane, warp;
  asm volatile("mov.u32 %0, %laneid;" : "=r"(lane));
  asm("mov.u32 %0, "
      "%warpid;"
      : "=r"(warp));
  // Two operands without the comma between them, as nvcc takes them.
  asm volatile("st.global.u32 [%1], %0;" ::"r"(lane + 100 * warp) "l"(out + threadIdx.x) : "memory");
  __syncthreads();
  if (threadIdx.x == 37) printf("lone %% lane %u warp %u out %u\n", lane, warp, out[36]);
}

// cp.async (ptx_ops.cpp) to a shared address from __cvta_generic_to_shared: 16 bytes per thread,
// the odd threads' with src-size 8 (the other 8 zero-filled), then 4 bytes by .ca; commit_group
// and wait_group.
__global__ void cp_async(const unsigned* in, unsigned* out) {
  __shared__ uint4 tile[32];
  __shared__ unsigned word[32];
  const unsigned t = threadIdx.x;
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[t]));
  const unsigned wdst = static_cast<unsigned>(__cvta_generic_to_shared(&word[t]));
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(in + 4 * t), "n"(16),
               "r"(t % 2 ? 8 : 16));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(wdst), "l"(in + 127 - t));
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_group %0;\n" ::"n"(0));
  __syncthreads();
  out[t] = tile[t].x + word[t];
  if (t == 0)
    printf("cp.async %u %u %u %u %u %u %u %u\n", tile[0].x, tile[0].w, tile[1].x, tile[1].y, tile[1].z, tile[1].w,
           word[0], word[31]);
}
