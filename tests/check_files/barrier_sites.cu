// Kernels that meet at barriers and warp collectives in unusual ways (issue 37).
// tests/hardware/checker_probe.cu runs them on the H100, plain and under compute-sanitizer
// (tests/hardware/checker_probe/results.txt); checker_probe_test.sh checks that tgsim gives the
// H100's results and synccheck's verdicts. Measured there:
//   sites_block      right result; synccheck: "Divergent thread(s) in block"
//   sites_warp       wrong result; synccheck: "Divergent thread(s) in warp"
//   exited_syncwarp  right result; synccheck silent
//   ballot_lanemask  illegal instruction; synccheck: "Invalid arguments" on every lane

// Threads of one block wait at two different __syncthreads() sites: on the GPU both are barrier
// 0, so the wait at one site meets the wait at the other. The first 256 threads fill g, meet the
// others once and exit; the last 32 read g after the barrier, then meet twice more among
// themselves (exited threads count as arrived). A vLLM/HeCBench idiom (moe_align_block_size).
__global__ void sites_block(int* g, int* out) {
  if (threadIdx.x < 256) {
    g[threadIdx.x] = 1;
    __syncthreads();
    return;
  }
  __syncthreads();
  __shared__ int sum;
  if (threadIdx.x == 256) {
    int s = 0;
    for (int i = 0; i < 256; ++i) s += g[i];
    sum = s;
    out[0] = s;
  }
  __syncthreads();
  __syncthreads();
  if (threadIdx.x == 287) out[1] = sum;
}

// Lanes of one warp wait at the two arms' barriers of an if/else, then read what the other half
// wrote before its barrier. On the H100 the half that runs first passes its barrier alone.
__global__ void sites_warp(int* out) {
  __shared__ int s[32];
  const int lane = threadIdx.x;
  if (lane < 16) {
    s[lane] = lane + 1;
    __syncthreads();
  } else {
    s[lane] = 0;
    __syncthreads();
    out[lane - 16] = s[lane - 16];
  }
}

// The upper half-warp exits; the lower half's full-mask __syncwarp and shuffle wait only for the
// lanes that have not exited (PTX: "all non-exited threads in membermask").
__global__ void exited_syncwarp(int* out) {
  const int lane = threadIdx.x;
  if (lane >= 16) return;
  __syncwarp(0xffffffffu);
  const int v = __shfl_sync(0xffffffffu, lane * 10, lane ^ 1);
  out[lane] = v;
}

// Each lane votes with the mask of the lanes below it (HeCBench bscan's binary_warp_scan), meant
// as an exclusive prefix count; the mask leaves the calling lane out, which the H100 refuses.
__global__ void ballot_lanemask(int* out) {
  const unsigned lane = threadIdx.x & 31u;
  const unsigned below = (1u << lane) - 1u;
  const bool p = lane % 3 == 2;
  out[threadIdx.x] = __popc(__ballot_sync(below, p));
}
