// tgsim check FILE --schedules N: an out-of-bounds store that only an order in which thread 1
// runs before threads 0 and 2 reaches. In-order (0, 1, 2) and reverse (2, 1, 0) both run it
// second; a seeded shuffle that runs it first shows the bug, and names its seed.
__global__ void three_orders(int* flags, int* out) {
  const int t = threadIdx.x;
  if (t != 1) flags[t] = 1;
  else if (flags[0] == 0 && flags[2] == 0) out[1] = 1;  // out holds one int
}
