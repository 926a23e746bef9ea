// The program's main, a .cpp as nvcc compiles it (tests/frontend/nvcc/nvcc.sh).
#include <cstdio>

#include "saxpy.h"

int main() {
  const int wrong = run_saxpy(1000);
  std::printf("nvcc program: %d wrong\n", wrong);
  return wrong ? 1 : 0;
}
