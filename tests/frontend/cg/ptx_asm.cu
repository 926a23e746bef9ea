// Inline PTX in a kernel file (issue 34): special registers and bit instructions the pass
// computes (sim/pass/ptx_asm.cpp); other PTX is one finding naming the instruction and line.
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
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(d) : "r"(threadIdx.x), "r"(1u), "r"(2u));
  out[threadIdx.x] = d;
}
