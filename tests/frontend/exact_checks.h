// CHECK(cond) for the whole-program tests (runtime_api_main.cu, intrinsics_main.cu): counts the
// checks and the failed ones, printing each failure's line; the program prints the totals that
// tests/CMakeLists.txt matches.
#pragma once
#include <cstdio>

static int checks = 0, failed = 0;
#define CHECK(cond)                                         \
  do {                                                      \
    ++checks;                                               \
    if (!(cond)) {                                          \
      ++failed;                                             \
      std::printf("FAILED line %d: %s\n", __LINE__, #cond); \
    }                                                       \
  } while (0)
