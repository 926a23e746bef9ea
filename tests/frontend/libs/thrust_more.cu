// tgsim's thrust beyond the basics (issue 34): raw device memory as device_ptr<void>
// (device_malloc(bytes), device_free), thrust::system_error, adjacent_difference with an
// operator, replace_if with a stencil, inclusive_scan_by_key into zipped outputs,
// unique_by_key_copy into a discard iterator, sorting through a zip iterator (with and without
// a policy), shuffling one and thrust::swap of device pointers; each checked against a host
// computation.
#include <thrust/adjacent_difference.h>
#include <thrust/device_free.h>
#include <thrust/device_malloc.h>
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/random.h>
#include <thrust/scan.h>
#include <thrust/shuffle.h>
#include <thrust/sort.h>
#include <thrust/system_error.h>
#include <thrust/unique.h>

#include <cstdio>
#include <random>
#include <vector>

static int checks = 0, wrong = 0;
static void check(bool ok, const char* what) {
  ++checks;
  if (!ok) ++wrong, std::printf("wrong: %s\n", what);
}

// Writes i * 3 into an int array carved out of raw device bytes.
__global__ void fill_thirds(int* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 3 * i;
}

struct MinPair {
  __host__ __device__ thrust::tuple<float, unsigned> operator()(const thrust::tuple<float, unsigned>& a,
                                                               const thrust::tuple<float, unsigned>& b) const {
    return thrust::get<0>(b) < thrust::get<0>(a) ? b : a;
  }
};

static void raw_memory() {
  thrust::device_ptr<void> base = thrust::device_malloc(64 * sizeof(int));
  int* a = static_cast<int*>(base.get());
  fill_thirds<<<2, 32>>>(a, 64);
  std::vector<int> h(64);
  cudaMemcpy(h.data(), a, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  check(h[0] == 0 && h[63] == 189, "device_ptr<void> from device_malloc(bytes)");
  thrust::device_free(base);
  bool caught = false;
  try {
    throw thrust::system_error(std::make_error_code(std::errc::not_enough_memory), "pool");
  } catch (thrust::system_error& e) {
    caught = true;
  }
  check(caught, "thrust::system_error");
}

struct Positive {
  __host__ __device__ bool operator()(int x) const { return x > 0; }
};

static void by_key() {
  const std::vector<unsigned> hk = {1, 1, 2, 2, 2, 7, 9, 9};
  const std::vector<float> hw = {5, 3, 4, 8, 1, 6, 2, 9};
  thrust::device_vector<unsigned> keys(hk.begin(), hk.end()), ids(8), firsts(8), flags(8);
  thrust::device_vector<float> w(hw.begin(), hw.end()), mw(8);
  thrust::sequence(ids.begin(), ids.end());
  thrust::device_vector<unsigned> mids(8);
  thrust::inclusive_scan_by_key(keys.begin(), keys.end(), thrust::make_zip_iterator(thrust::make_tuple(w.begin(), ids.begin())),
                                thrust::make_zip_iterator(thrust::make_tuple(mw.begin(), mids.begin())),
                                thrust::equal_to<unsigned>(), MinPair());
  // Runs {5,3} {4,8,1} {6} {2,9}: running minima and where they were.
  const float want_w[8] = {5, 3, 4, 4, 1, 6, 2, 2};
  const unsigned want_i[8] = {0, 1, 2, 2, 4, 5, 6, 6};
  bool ok = true;
  for (int i = 0; i < 8; ++i) ok = ok && mw[i] == want_w[i] && mids[i] == want_i[i];
  check(ok, "inclusive_scan_by_key into a zip iterator");
  auto ends = thrust::unique_by_key_copy(keys.begin(), keys.end(), thrust::make_counting_iterator(0u),
                                         thrust::make_discard_iterator(), firsts.begin());
  check(ends.second - firsts.begin() == 4 && firsts[0] == 0 && firsts[1] == 2 && firsts[2] == 5 && firsts[3] == 6,
        "unique_by_key_copy");
  thrust::adjacent_difference(keys.begin(), keys.end(), flags.begin(), thrust::not_equal_to<unsigned>());
  check(flags[1] == 0 && flags[2] == 1 && flags[5] == 1 && flags[7] == 0, "adjacent_difference with an operator");
  thrust::device_vector<int> r(4, 1), stencil(4, 0);
  stencil[1] = 5, stencil[3] = 7;
  thrust::replace_if(thrust::device, r.begin(), r.end(), stencil.begin(), Positive(), 9);
  check(r[0] == 1 && r[1] == 9 && r[2] == 1 && r[3] == 9, "replace_if with a stencil");
}

static void zip_sort_and_swap() {
  thrust::device_vector<unsigned> k(6), v(6);
  const unsigned hk[6] = {4, 1, 4, 0, 3, 1}, hv[6] = {10, 11, 12, 13, 14, 15};
  for (int i = 0; i < 6; ++i) k[i] = hk[i], v[i] = hv[i];
  auto z = thrust::make_zip_iterator(thrust::make_tuple(k.begin(), v.begin()));
  thrust::sort(z, z + 6);
  const unsigned sk[6] = {0, 1, 1, 3, 4, 4}, sv[6] = {13, 11, 15, 14, 10, 12};
  bool ok = true;
  for (int i = 0; i < 6; ++i) ok = ok && k[i] == sk[i] && v[i] == sv[i];
  check(ok, "sort through a zip iterator");
  // With a policy: the zip of std::tuple also finds std::sort and std::shuffle by ADL.
  thrust::sort(thrust::device, z, z + 6, thrust::greater<thrust::tuple<unsigned, unsigned>>());
  check(k[0] == 4 && v[0] == 12 && k[5] == 0 && v[5] == 13, "sort with a policy and a comparator through a zip iterator");
  thrust::shuffle(thrust::device, z, z + 6, std::default_random_engine(7));
  unsigned sum = 0;
  for (int i = 0; i < 6; ++i) sum += k[i] * 100 + v[i];
  check(sum == 1300 + 75, "shuffle through a zip iterator keeps the pairs");
  thrust::device_ptr<unsigned> a = k.data(), b = v.data();
  swap(a, b);
  check(a.get() == thrust::raw_pointer_cast(v.data()) && b.get() == thrust::raw_pointer_cast(k.data()), "swap of device_ptrs");
}

int main() {
  raw_memory();
  by_key();
  zip_sort_and_swap();
  std::printf("thrust_more: %d checks, %d wrong\n", checks, wrong);
  return wrong ? 1 : 0;
}
