// libcu++'s cuda::std for tgsim's front end: kernels run on the CPU, so cuda::std::X is the
// standard library's std::X (the <cuda/std/...> headers include the std header of their name
// and this one).
#ifndef TGSIM_KERNEL_CUDA_STD_H
#define TGSIM_KERNEL_CUDA_STD_H

namespace cuda {
namespace std {
using namespace ::std;
}  // namespace std
}  // namespace cuda

#endif
