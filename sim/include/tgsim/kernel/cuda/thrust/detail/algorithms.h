// Thrust's algorithms, written for tgsim: each runs where it is called, in order, over any
// iterators (device_ptr, raw pointers, the fancy iterators): from host code over the simulated
// device memory, NOT simulated or counted as kernels; with thrust::seq inside a kernel, as
// that thread's own code. An execution policy as first argument is accepted and ignored.
// Outputs through a device_ptr (a device_vector's iterators) count as written for initcheck.
// sort and sort_by_key are stable (thrust's radix sort is, for the primitive keys).
#pragma once
#include <algorithm>
#include <numeric>
#include <vector>

#include "iterators.h"

namespace thrust {
namespace detail {
template <class It> void wrote(It, It) {}
template <class T> void wrote(device_ptr<T> first, device_ptr<T> last) {
  if (last - first > 0) cudaMemcpy(first.get(), first.get(), (last - first) * sizeof(T), cudaMemcpyDeviceToDevice);
}
template <class It> using value_t = typename std::iterator_traits<It>::value_type;
}  // namespace detail

// Each algorithm also takes an execution policy first. Calls between them are qualified: an
// iterator of std types (a zip of std::tuple) would also find std's algorithm by ADL.
#define TGSIM_THRUST_POLICY(name)                                                   \
  template <class P, class... A, std::enable_if_t<is_policy<P>, int> = 0>           \
  __host__ __device__ decltype(auto) name(const P&, A&&... a) {                      \
    return thrust::name(std::forward<A>(a)...);                                     \
  }

template <class It, class F> It for_each(It f, It l, F fn) { for (; f != l; ++f) fn(*f); return l; }
template <class It, class N, class F> It for_each_n(It f, N n, F fn) { return thrust::for_each(f, f + n, fn); }
template <class It, class T> void fill(It f, It l, const T& v) { std::fill(f, l, v); detail::wrote(f, l); }
template <class It, class N, class T> It fill_n(It f, N n, const T& v) { thrust::fill(f, f + n, v); return f + n; }
template <class It, class T> void sequence(It f, It l, T init, T step) {
  typedef detail::value_t<It> V;
  for (std::ptrdiff_t i = 0; f + i != l; ++i) f[i] = static_cast<V>(init + static_cast<T>(i) * step);
  detail::wrote(f, l);
}
template <class It, class T> void sequence(It f, It l, T init) { thrust::sequence(f, l, init, T(1)); }
template <class It> void sequence(It f, It l) { thrust::sequence(f, l, detail::value_t<It>(0)); }
template <class It, class F> void tabulate(It f, It l, F fn) {
  for (std::ptrdiff_t i = 0; f + i != l; ++i) f[i] = fn(i);
  detail::wrote(f, l);
}
template <class It, class G> void generate(It f, It l, G g) { std::generate(f, l, g); detail::wrote(f, l); }
template <class In, class Out> Out copy(In f, In l, Out o) {
  Out e = std::copy(f, l, o);
  detail::wrote(o, e);
  return e;
}
template <class In, class N, class Out> Out copy_n(In f, N n, Out o) { return thrust::copy(f, f + n, o); }
template <class In, class Out, class P> Out copy_if(In f, In l, Out o, P p) {
  Out e = std::copy_if(f, l, o, p);
  detail::wrote(o, e);
  return e;
}
template <class In, class S, class Out, class P> Out copy_if(In f, In l, S s, Out o, P p) {
  Out e = o;
  for (; f != l; ++f, ++s)
    if (p(*s)) *e++ = *f;
  detail::wrote(o, e);
  return e;
}
template <class In, class Out, class F> Out transform(In f, In l, Out o, F fn) {
  Out e = std::transform(f, l, o, fn);
  detail::wrote(o, e);
  return e;
}
template <class In, class In2, class Out, class F> Out transform(In f, In l, In2 f2, Out o, F fn) {
  Out e = std::transform(f, l, f2, o, fn);
  detail::wrote(o, e);
  return e;
}
template <class It, class T, class Op> T reduce(It f, It l, T init, Op op) {
  for (; f != l; ++f) init = op(init, *f);
  return init;
}
template <class It, class T> T reduce(It f, It l, T init) { return thrust::reduce(f, l, init, plus<T>()); }
template <class It> detail::value_t<It> reduce(It f, It l) { return thrust::reduce(f, l, detail::value_t<It>(0)); }
template <class It, class U, class T, class B> T transform_reduce(It f, It l, U u, T init, B b) {
  for (; f != l; ++f) init = b(init, u(*f));
  return init;
}
template <class It, class It2, class T, class B1, class B2> T inner_product(It f, It l, It2 f2, T init, B1 b1, B2 b2) {
  for (; f != l; ++f, ++f2) init = b1(init, b2(*f, *f2));
  return init;
}
template <class It, class It2, class T> T inner_product(It f, It l, It2 f2, T init) {
  return thrust::inner_product(f, l, f2, init, plus<T>(), multiplies<T>());
}
template <class KIt, class VIt, class KOut, class VOut, class Pred, class Op>
pair<KOut, VOut> reduce_by_key(KIt kf, KIt kl, VIt vf, KOut ko, VOut vo, Pred eq, Op op) {
  KOut k0 = ko;
  VOut v0 = vo;
  while (kf != kl) {
    auto key = *kf;
    auto acc = *vf;
    for (++kf, ++vf; kf != kl && eq(key, *kf); ++kf, ++vf) acc = op(acc, *vf);
    *ko++ = key;
    *vo++ = acc;
  }
  detail::wrote(k0, ko);
  detail::wrote(v0, vo);
  return {ko, vo};
}
template <class KIt, class VIt, class KOut, class VOut, class Pred>
pair<KOut, VOut> reduce_by_key(KIt kf, KIt kl, VIt vf, KOut ko, VOut vo, Pred eq) {
  return thrust::reduce_by_key(kf, kl, vf, ko, vo, eq, plus<detail::value_t<VIt>>());
}
template <class KIt, class VIt, class KOut, class VOut>
pair<KOut, VOut> reduce_by_key(KIt kf, KIt kl, VIt vf, KOut ko, VOut vo) {
  return thrust::reduce_by_key(kf, kl, vf, ko, vo, equal_to<detail::value_t<KIt>>());
}
template <class It, class T> std::ptrdiff_t count(It f, It l, const T& v) { return std::count(f, l, v); }
template <class It, class P> std::ptrdiff_t count_if(It f, It l, P p) { return std::count_if(f, l, p); }
template <class It, class T> It find(It f, It l, const T& v) { return std::find(f, l, v); }
template <class It, class P> It find_if(It f, It l, P p) { return std::find_if(f, l, p); }
template <class It, class P> It find_if_not(It f, It l, P p) { return std::find_if_not(f, l, p); }
template <class It, class P> bool all_of(It f, It l, P p) { return std::all_of(f, l, p); }
template <class It, class P> bool any_of(It f, It l, P p) { return std::any_of(f, l, p); }
template <class It, class P> bool none_of(It f, It l, P p) { return std::none_of(f, l, p); }
template <class It> It max_element(It f, It l) { return std::max_element(f, l); }
template <class It, class C> It max_element(It f, It l, C c) { return std::max_element(f, l, c); }
template <class It> It min_element(It f, It l) { return std::min_element(f, l); }
template <class It, class C> It min_element(It f, It l, C c) { return std::min_element(f, l, c); }
// thrust's minmax_element gives the first maximum (std's gives the last).
template <class It, class C> pair<It, It> minmax_element(It f, It l, C c) {
  return {std::min_element(f, l, c), std::max_element(f, l, c)};
}
template <class It> pair<It, It> minmax_element(It f, It l) { return thrust::minmax_element(f, l, less<detail::value_t<It>>()); }
template <class In, class Out, class Op> Out inclusive_scan(In f, In l, Out o, Op op) {
  Out e = o;
  if (f != l) {
    detail::value_t<In> run = *f;
    for (*e++ = run, ++f; f != l; ++f) *e++ = run = op(run, *f);
  }
  detail::wrote(o, e);
  return e;
}
template <class In, class Out> Out inclusive_scan(In f, In l, Out o) { return thrust::inclusive_scan(f, l, o, plus<detail::value_t<In>>()); }
template <class In, class Out, class T, class Op> Out exclusive_scan(In f, In l, Out o, T init, Op op) {
  Out e = o;
  for (T run = init; f != l; ++f) {
    const T v = *f;
    *e++ = run;
    run = op(run, v);
  }
  detail::wrote(o, e);
  return e;
}
template <class In, class Out, class T> Out exclusive_scan(In f, In l, Out o, T init) { return thrust::exclusive_scan(f, l, o, init, plus<T>()); }
template <class In, class Out> Out exclusive_scan(In f, In l, Out o) { return thrust::exclusive_scan(f, l, o, detail::value_t<In>(0)); }
template <class It, class C> void sort(It f, It l, C c) { std::stable_sort(f, l, c); }
template <class It> void sort(It f, It l) { std::stable_sort(f, l); }
template <class It, class C> void stable_sort(It f, It l, C c) { std::stable_sort(f, l, c); }
template <class It> void stable_sort(It f, It l) { std::stable_sort(f, l); }
template <class KIt, class VIt, class C> void sort_by_key(KIt kf, KIt kl, VIt vf, C c) {
  const std::ptrdiff_t n = kl - kf;
  std::vector<std::ptrdiff_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::ptrdiff_t a, std::ptrdiff_t b) { return c(kf[a], kf[b]); });
  std::vector<detail::value_t<KIt>> keys(n);
  std::vector<detail::value_t<VIt>> values(n);
  for (std::ptrdiff_t i = 0; i < n; ++i) keys[i] = kf[order[i]], values[i] = vf[order[i]];
  std::copy(keys.begin(), keys.end(), kf);
  std::copy(values.begin(), values.end(), vf);
}
template <class KIt, class VIt> void sort_by_key(KIt kf, KIt kl, VIt vf) { thrust::sort_by_key(kf, kl, vf, less<detail::value_t<KIt>>()); }
template <class KIt, class VIt, class C> void stable_sort_by_key(KIt kf, KIt kl, VIt vf, C c) { thrust::sort_by_key(kf, kl, vf, c); }
template <class KIt, class VIt> void stable_sort_by_key(KIt kf, KIt kl, VIt vf) { thrust::sort_by_key(kf, kl, vf); }
template <class It> bool is_sorted(It f, It l) { return std::is_sorted(f, l); }
template <class It, class C> bool is_sorted(It f, It l, C c) { return std::is_sorted(f, l, c); }
template <class It> It unique(It f, It l) { return std::unique(f, l); }
template <class It, class P> It unique(It f, It l, P p) { return std::unique(f, l, p); }
template <class KIt, class VIt, class P> pair<KIt, VIt> unique_by_key(KIt kf, KIt kl, VIt vf, P p) {
  KIt ko = kf;
  VIt vo = vf;
  for (KIt k = kf; k != kl;) {
    KIt first = k;
    *ko = *k;
    *vo = *(vf + (k - kf));
    for (++k; k != kl && p(*first, *k); ++k) {}
    ++ko, ++vo;
  }
  return {ko, vo};
}
template <class KIt, class VIt> pair<KIt, VIt> unique_by_key(KIt kf, KIt kl, VIt vf) {
  return thrust::unique_by_key(kf, kl, vf, equal_to<detail::value_t<KIt>>());
}
template <class It, class T> It remove(It f, It l, const T& v) { return std::remove(f, l, v); }
template <class It, class P> It remove_if(It f, It l, P p) { return std::remove_if(f, l, p); }
template <class It, class S, class P> It remove_if(It f, It l, S s, P p) {
  It o = f;
  for (; f != l; ++f, ++s)
    if (!p(*s)) *o++ = *f;
  return o;
}
template <class It, class T> void replace(It f, It l, const T& old, const T& v) { std::replace(f, l, old, v); }
template <class It, class P, class T> void replace_if(It f, It l, P p, const T& v) { std::replace_if(f, l, p, v); }
// The elements whose stencil element satisfies p replaced by v.
template <class It, class S, class P, class T> void replace_if(It f, It l, S s, P p, const T& v) {
  It f0 = f;
  for (; f != l; ++f, ++s)
    if (p(*s)) *f = v;
  detail::wrote(f0, l);
}
template <class In, class Map, class Out> void scatter(In f, In l, Map m, Out o) {
  for (; f != l; ++f, ++m) o[*m] = *f;
}
template <class Map, class In, class Out> Out gather(Map mf, Map ml, In in, Out o) {
  Out e = o;
  for (; mf != ml; ++mf) *e++ = in[*mf];
  detail::wrote(o, e);
  return e;
}
template <class It, class It2> bool equal(It f, It l, It2 f2) { return std::equal(f, l, f2); }
template <class It> void reverse(It f, It l) { std::reverse(f, l); }
template <class In, class Out, class Op> Out adjacent_difference(In f, In l, Out o, Op op) {
  Out e = std::adjacent_difference(f, l, o, op);
  detail::wrote(o, e);
  return e;
}
template <class In, class Out> Out adjacent_difference(In f, In l, Out o) {
  return thrust::adjacent_difference(f, l, o, minus<detail::value_t<In>>());
}
// Scans of the values within each run of keys equal under eq (a run restarts the scan).
template <class KIt, class VIt, class Out, class Pred, class Op>
Out inclusive_scan_by_key(KIt kf, KIt kl, VIt vf, Out o, Pred eq, Op op) {
  Out e = o;
  if (kf != kl) {
    detail::value_t<VIt> run = *vf;
    for (*e++ = run, ++vf; kf + 1 != kl; ++kf, ++vf) {
      run = eq(*kf, *(kf + 1)) ? op(run, *vf) : detail::value_t<VIt>(*vf);
      *e++ = run;
    }
  }
  detail::wrote(o, e);
  return e;
}
template <class KIt, class VIt, class Out, class Pred> Out inclusive_scan_by_key(KIt kf, KIt kl, VIt vf, Out o, Pred eq) {
  return thrust::inclusive_scan_by_key(kf, kl, vf, o, eq, plus<detail::value_t<VIt>>());
}
template <class KIt, class VIt, class Out> Out inclusive_scan_by_key(KIt kf, KIt kl, VIt vf, Out o) {
  return thrust::inclusive_scan_by_key(kf, kl, vf, o, equal_to<detail::value_t<KIt>>());
}
// The first key and value of each run of keys equal under p, copied out.
template <class KIt, class VIt, class KOut, class VOut, class P>
pair<KOut, VOut> unique_by_key_copy(KIt kf, KIt kl, VIt vf, KOut ko, VOut vo, P p) {
  KOut k0 = ko;
  VOut v0 = vo;
  for (KIt k = kf; k != kl;) {
    KIt first = k;
    *ko++ = *k;
    *vo++ = *(vf + (k - kf));
    for (++k; k != kl && p(*first, *k); ++k) {}
  }
  detail::wrote(k0, ko);
  detail::wrote(v0, vo);
  return {ko, vo};
}
template <class KIt, class VIt, class KOut, class VOut>
pair<KOut, VOut> unique_by_key_copy(KIt kf, KIt kl, VIt vf, KOut ko, VOut vo) {
  return thrust::unique_by_key_copy(kf, kl, vf, ko, vo, equal_to<detail::value_t<KIt>>());
}
// thrust::swap: less specialised than std::swap(T&, T&), which wins where both are found.
template <class A, class B> __host__ __device__ void swap(A& a, B& b) {
  A t = std::move(a);
  a = std::move(b);
  b = std::move(t);
}
template <class It, class T> It lower_bound(It f, It l, const T& v) { return std::lower_bound(f, l, v); }
template <class It, class T> It upper_bound(It f, It l, const T& v) { return std::upper_bound(f, l, v); }
template <class It, class T> bool binary_search(It f, It l, const T& v) { return std::binary_search(f, l, v); }
template <class It, class VIt, class Out> Out lower_bound(It f, It l, VIt vf, VIt vl, Out o) {
  for (; vf != vl; ++vf, ++o) *o = std::lower_bound(f, l, *vf) - f;
  return o;
}
template <class It, class VIt, class Out> Out upper_bound(It f, It l, VIt vf, VIt vl, Out o) {
  for (; vf != vl; ++vf, ++o) *o = std::upper_bound(f, l, *vf) - f;
  return o;
}
template <class It, class G> void shuffle(It f, It l, G&& g) {
  for (std::ptrdiff_t i = (l - f) - 1; i > 0; --i) {
    const std::ptrdiff_t j = static_cast<std::ptrdiff_t>(g() % static_cast<unsigned long long>(i + 1));
    std::iter_swap(f + i, f + j);  // swap() of the elements, found by ADL (zip references)
  }
}
template <class It, class T> void uninitialized_fill(It f, It l, const T& v) { thrust::fill(f, l, v); }

TGSIM_THRUST_POLICY(for_each) TGSIM_THRUST_POLICY(for_each_n) TGSIM_THRUST_POLICY(fill) TGSIM_THRUST_POLICY(fill_n)
TGSIM_THRUST_POLICY(sequence) TGSIM_THRUST_POLICY(tabulate) TGSIM_THRUST_POLICY(generate) TGSIM_THRUST_POLICY(copy)
TGSIM_THRUST_POLICY(copy_n) TGSIM_THRUST_POLICY(copy_if) TGSIM_THRUST_POLICY(transform) TGSIM_THRUST_POLICY(reduce)
TGSIM_THRUST_POLICY(transform_reduce) TGSIM_THRUST_POLICY(inner_product) TGSIM_THRUST_POLICY(reduce_by_key)
TGSIM_THRUST_POLICY(count) TGSIM_THRUST_POLICY(count_if) TGSIM_THRUST_POLICY(find) TGSIM_THRUST_POLICY(find_if)
TGSIM_THRUST_POLICY(find_if_not) TGSIM_THRUST_POLICY(all_of) TGSIM_THRUST_POLICY(any_of) TGSIM_THRUST_POLICY(none_of)
TGSIM_THRUST_POLICY(max_element) TGSIM_THRUST_POLICY(min_element) TGSIM_THRUST_POLICY(minmax_element)
TGSIM_THRUST_POLICY(inclusive_scan) TGSIM_THRUST_POLICY(exclusive_scan) TGSIM_THRUST_POLICY(sort)
TGSIM_THRUST_POLICY(stable_sort) TGSIM_THRUST_POLICY(sort_by_key) TGSIM_THRUST_POLICY(stable_sort_by_key)
TGSIM_THRUST_POLICY(is_sorted) TGSIM_THRUST_POLICY(unique) TGSIM_THRUST_POLICY(unique_by_key) TGSIM_THRUST_POLICY(remove)
TGSIM_THRUST_POLICY(remove_if) TGSIM_THRUST_POLICY(replace) TGSIM_THRUST_POLICY(replace_if) TGSIM_THRUST_POLICY(scatter)
TGSIM_THRUST_POLICY(gather) TGSIM_THRUST_POLICY(equal) TGSIM_THRUST_POLICY(reverse) TGSIM_THRUST_POLICY(adjacent_difference)
TGSIM_THRUST_POLICY(inclusive_scan_by_key) TGSIM_THRUST_POLICY(unique_by_key_copy)
TGSIM_THRUST_POLICY(lower_bound) TGSIM_THRUST_POLICY(upper_bound) TGSIM_THRUST_POLICY(binary_search)
TGSIM_THRUST_POLICY(shuffle) TGSIM_THRUST_POLICY(uninitialized_fill)
#undef TGSIM_THRUST_POLICY
}  // namespace thrust
