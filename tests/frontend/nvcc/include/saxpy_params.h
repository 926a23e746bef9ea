// Found through -I (tests/frontend/nvcc/nvcc.sh).
#pragma once
constexpr int kSaxpyThreads = 128;
