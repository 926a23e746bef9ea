// tgsim check FILE: every thread stores its index to out[0] with no atomic: which store lands
// last depends on the schedule, and no atomic explains it.
__global__ void last_writer(int* out) {
  out[0] = threadIdx.x;
}
