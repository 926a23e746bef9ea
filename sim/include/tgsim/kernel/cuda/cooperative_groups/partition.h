// cg::labeled_partition and cg::binary_partition for tgsim's <cooperative_groups.h>: split a
// coalesced group or a warp tile (N up to 32) into coalesced groups of the lanes with the same
// label (one MATCH over the parent's lanes, __match_any_sync) or the same predicate (one VOTE,
// __ballot_sync). The result ranks its lanes in lane order; its shfl, reduce and sync stay
// within the partition (coalesced_group, reduce.h).
#ifndef TGSIM_KERNEL_CUDA_COOPERATIVE_GROUPS_PARTITION_H
#define TGSIM_KERNEL_CUDA_COOPERATIVE_GROUPS_PARTITION_H

#include "../cooperative_groups.h"

namespace cooperative_groups {
namespace details {
__forceinline__ coalesced_group labeled(unsigned parent, unsigned label) {
  return coalesced_group(__match_any_sync(parent, label));
}
__forceinline__ coalesced_group binary(unsigned parent, bool pred) {
  const unsigned yes = __ballot_sync(parent, pred);
  return coalesced_group(pred ? yes & parent : ~yes & parent);
}
}  // namespace details

__forceinline__ coalesced_group labeled_partition(const coalesced_group& g, unsigned label) {
  return details::labeled(details_mask(g), label);
}
template <unsigned N>
__forceinline__ coalesced_group labeled_partition(const thread_block_tile<N>& g, unsigned label) {
  static_assert(N <= 32, "tgsim: labeled_partition of a tile needs N up to 32 (as CUDA)");
  return details::labeled(g.mask(), label);
}
__forceinline__ coalesced_group binary_partition(const coalesced_group& g, bool pred) {
  return details::binary(details_mask(g), pred);
}
template <unsigned N>
__forceinline__ coalesced_group binary_partition(const thread_block_tile<N>& g, bool pred) {
  static_assert(N <= 32, "tgsim: binary_partition of a tile needs N up to 32 (as CUDA)");
  return details::binary(g.mask(), pred);
}

}  // namespace cooperative_groups

#endif
