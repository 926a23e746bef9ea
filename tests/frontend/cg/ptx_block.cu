// Braced blocks of several PTX instructions in one asm statement (sim/pass/ptx_block.cpp): local
// `.reg` registers, guarded instructions (`@p`, `@!p`), setp / selp / integer instructions, and
// loads and cp.async inside, a guarded-off one making no access.

// cp.async guarded by a predicate: lanes 16-31 copy their 16 bytes, lanes 0-15 make no access and
// keep what the tile held. Then the zero-fill idiom: src-size 16 or 0 chosen by selp.
__global__ void guarded_async(const unsigned* in, unsigned* out) {
  __shared__ uint4 tile[32];
  __shared__ uint4 fill[32];
  const unsigned t = threadIdx.x;
  tile[t] = make_uint4(1000 + t, 0, 0, 0);
  fill[t] = make_uint4(2000 + t, 0, 0, 0);
  __syncthreads();
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[t]));
  const unsigned fdst = static_cast<unsigned>(__cvta_generic_to_shared(&fill[t]));
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %0, 0;\n @p cp.async.cg.shared.global [%1], [%2], 16;\n}\n"
               ::"r"(t >= 16 ? 1u : 0u), "r"(dst), "l"(in + 4 * t));
  asm volatile("{\n .reg .pred p;\n .reg .u32 n;\n setp.lt.u32 p, %2, %3;\n selp.u32 n, 16, 0, p;\n"
               " cp.async.cg.shared.global [%0], [%1], 16, n;\n}\n" ::"r"(fdst), "l"(in + 4 * t), "r"(t), "r"(20u));
  asm volatile("cp.async.wait_all;\n" ::);
  __syncthreads();
  out[t] = tile[t].x + fill[t].w;
  if (t == 0)
    printf("guarded cp.async %u %u %u %u fill %u %u %u %u\n", tile[0].x, tile[15].x, tile[16].x, tile[31].w, fill[1].x,
           fill[19].w, fill[20].x, fill[31].w);
}

// A load guarded by p = t < 8 into outputs zeroed first; `@!p` sets the last one to 7 instead.
__global__ void guarded_load(const uint4* in, unsigned* out) {
  const unsigned t = threadIdx.x;
  unsigned a, b, c, d;
  asm volatile("{\n .reg .pred p;\n setp.lt.u32 p, %4, 8;\n mov.b32 %0, 0;\n mov.b32 %1, 0;\n mov.b32 %2, 0;\n"
               " mov.b32 %3, 0;\n @p ld.global.v4.u32 {%0, %1, %2, %3}, [%5];\n @!p mov.b32 %3, 7;\n}\n"
               : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "r"(t), "l"(in + t));
  out[t] = a + b + c + d;
  __syncthreads();
  if (t == 0) printf("guarded ld %u %u %u %u %u\n", out[0], out[1], out[7], out[8], out[31]);
}

// Scalar instructions in blocks: add, shl, setp.gt.s32, selp, mul.wide, cvt, shr of 64 and
// signed 32 bits, xor, special registers in a block without braces; shfl.sync.bfly alone.
__global__ void scalar_block(unsigned* out) {
  const unsigned t = threadIdx.x;
  unsigned r, folded, lane;
  int sh, over;
  unsigned long long w;
  asm("{\n .reg .b32 x;\n .reg .pred q;\n add.u32 x, %2, 5;\n shl.b32 x, x, 2;\n setp.gt.s32 q, %3, 0;\n"
      " selp.b32 %0, x, 99, q;\n mul.wide.u32 %1, %2, 0x40000000;\n}"
      : "=r"(r), "=l"(w) : "r"(t + 3), "r"(int(t) - 1));
  asm("{\n .reg .u64 a;\n .reg .u32 lo, hi;\n cvt.u32.u64 lo, %1;\n shr.b64 a, %1, 32;\n cvt.u32.u64 hi, a;\n"
      " xor.b32 %0, lo, hi;\n}" : "=r"(folded) : "l"(0x0123456789abcdefull + t));
  asm("{\n .reg .s32 v<2>;\n neg.s32 v0, %2;\n shr.s32 %0, v0, 3;\n shr.s32 %1, v0, 40;\n}"
      : "=r"(sh), "=r"(over) : "r"(64 + t));
  asm("mov.u32 %0, %%laneid;\n add.u32 %0, %0, 100;\n" : "=r"(lane));
  unsigned sum = t;  // a butterfly sum of the 32 lanes through shfl.sync.bfly
  for (unsigned m = 16; m; m >>= 1) {
    unsigned other;
    asm volatile("shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(other) : "r"(sum), "r"(m));
    sum += other;
  }
  out[t] = r;
  __syncthreads();
  if (t == 5) printf("scalar %u %u %llu %08x %d %d %u shfl %u\n", r, out[0], w, folded, sh, over, lane, sum);
}

// An instruction not modelled inside a block: one finding naming it at the asm's line, the
// outputs zero, and nothing of the block done (its guarded store before the instruction is not made).
__global__ void block_unmodelled(unsigned* out) {
  unsigned d;
  asm("{\n .reg .b32 x;\n .reg .pred p;\n add.u32 x, %1, 1;\n setp.ne.u32 p, %1, 0;\n"
      " @p st.global.u32 [%2], x;\n vmad.u32.u32.u32 %0, x, 2, 3;\n}"
      : "=r"(d) : "r"(threadIdx.x), "l"(out + 32 + threadIdx.x));
  out[threadIdx.x] = d;
  __syncthreads();
  if (threadIdx.x == 1) printf("after %u %u %u\n", d, out[0], out[33]);
}
