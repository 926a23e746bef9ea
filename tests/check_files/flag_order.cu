// tgsim check FILE: thread 1 stores past the end of `out` only when it runs before thread 0
// has raised the flag. The atomics do not race; the out-of-bounds store shows under the
// reversed schedule only.
__global__ void flag_order(int* flag, int* out) {
  if (threadIdx.x == 0) atomicExch(flag, 1);
  if (threadIdx.x == 1 && atomicAdd(flag, 0) == 0) out[1] = 7;  // out has one element
}
