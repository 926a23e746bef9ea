// <cub/cub.cuh>'s block and warp collectives as device code (issue 34): each kernel prints its
// results from one thread; the CLI tests check the values and the shuffle/barrier counts.
#include <cub/cub.cuh>

struct Pair {  // an 8-byte struct: shuffled as two words, combined in order (not commutative)
  float a, b;
};
struct Compose {
  __device__ Pair operator()(const Pair& l, const Pair& r) const { return {r.a * l.a, r.a * l.b + r.b}; }
};

// 96 threads: block sum of 1..96, max, a partial sum over 50 threads, an ArgMax of KeyValuePairs.
__global__ void block_reduce(const int* in, int* out) {
  typedef cub::BlockReduce<int, 96> Reduce;
  __shared__ typename Reduce::TempStorage temp;
  const int t = threadIdx.x, v = in[t];
  const int sum = Reduce(temp).Sum(v);
  __syncthreads();
  const int max = Reduce(temp).Reduce(v * (t % 7), cub::Max());
  __syncthreads();
  const int part = Reduce(temp).Sum(v, 50);
  __syncthreads();
  typedef cub::BlockReduce<cub::KeyValuePair<int, float>, 96> ArgReduce;
  __shared__ typename ArgReduce::TempStorage arg_temp;
  const cub::KeyValuePair<int, float> kv(t, float((t * 37) % 96));
  const cub::KeyValuePair<int, float> best = ArgReduce(arg_temp).Reduce(kv, cub::ArgMax());
  if (t == 0) {
    out[0] = sum;
    printf("reduce sum %d max %d part %d argmax %d %.1f\n", sum, max, part, best.key, best.value);
  }
}

// 64 threads, 4 items each: block exclusive/inclusive sums with aggregate, and a scan of a
// non-commutative operator over one struct per thread.
__global__ void block_scan(const int* in, int* out) {
  typedef cub::BlockScan<int, 64> Scan;
  __shared__ typename Scan::TempStorage temp;
  const int t = threadIdx.x;
  int items[4], excl[4], incl[4], total;
  for (int i = 0; i < 4; ++i) items[i] = in[4 * t + i];
  Scan(temp).ExclusiveSum(items, excl, total);
  __syncthreads();
  Scan(temp).InclusiveSum(items, incl);
  __syncthreads();
  int one;
  Scan(temp).ExclusiveScan(t, one, 100, cub::Sum());
  __syncthreads();
  typedef cub::BlockScan<Pair, 64, cub::BLOCK_SCAN_WARP_SCANS> PairScan;
  __shared__ typename PairScan::TempStorage pair_temp;
  Pair p{t % 2 ? 2.0f : 1.0f, 1.0f}, q;
  PairScan(pair_temp).InclusiveScan(p, q, Compose());
  for (int i = 0; i < 4; ++i) out[4 * t + i] = excl[i];
  if (t == 63) printf("scan excl %d incl %d total %d one %d pair %.0f %.0f\n", excl[3], incl[3], total, one, q.a, q.b);
}

// One warp: WarpReduce sum and partial max, WarpScan exclusive sum with aggregate.
__global__ void warp_collectives(const int* in, int* out) {
  __shared__ typename cub::WarpReduce<int>::TempStorage rtemp;
  __shared__ typename cub::WarpScan<int>::TempStorage stemp;
  const int t = threadIdx.x, v = in[t];
  const int sum = cub::WarpReduce<int>(rtemp).Sum(v);
  const int max = cub::WarpReduce<int>(rtemp).Reduce(v, cub::Max(), 10);
  int excl, total;
  cub::WarpScan<int>(stemp).ExclusiveSum(v, excl, total);
  out[t] = excl;
  if (t == 31) printf("warp excl %d total %d\n", excl, total);
  if (t == 0) printf("warp sum %d max %d\n", sum, max);
}

// 64 threads, 2 items: BlockLoad (transpose), BlockExchange, BlockStore (warp transpose),
// WarpExchange, BlockAdjacentDifference: out = the input's adjacent differences, striped back.
__global__ void block_move(const int* in, int* out) {
  typedef cub::BlockLoad<int, 64, 2, cub::BLOCK_LOAD_TRANSPOSE> Load;
  typedef cub::BlockStore<int, 64, 2, cub::BLOCK_STORE_WARP_TRANSPOSE> Store;
  typedef cub::BlockExchange<int, 64, 2> Exchange;
  typedef cub::WarpExchange<int, 2> WExchange;
  typedef cub::BlockAdjacentDifference<int, 64> Adjacent;
  __shared__ typename Load::TempStorage load_temp;
  __shared__ typename Store::TempStorage store_temp;
  __shared__ typename Exchange::TempStorage ex_temp;
  __shared__ typename WExchange::TempStorage wex_temp[2];
  __shared__ typename Adjacent::TempStorage adj_temp;
  const int t = threadIdx.x;
  int items[2];
  Load(load_temp).Load(in, items);  // blocked: items = in[2t], in[2t+1]
  Adjacent(adj_temp).SubtractLeft(items, items, cub::Difference());
  __syncthreads();
  Exchange(ex_temp).BlockedToStriped(items, items);
  __syncthreads();
  Exchange(ex_temp).StripedToBlocked(items, items);
  WExchange(wex_temp[t / 32]).BlockedToStriped(items, items);
  WExchange(wex_temp[t / 32]).StripedToBlocked(items, items);
  Store(store_temp).Store(out, items, 127);
  __syncthreads();
  if (t == 0) {  // out[0] = in[0], out[1..126] = 1, out[127] left 0 (127 valid items)
    int wrong = 0;
    for (int i = 0; i < 128; ++i) wrong += out[i] != (i == 0 ? in[0] : i < 127 ? 1 : 0);
    printf("move wrong %d\n", wrong);
  }
}
